// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Fuzzes csum's capture reader: the input is a capture file (pcap or
// pcapng, as on disk), written to a temporary file and read by
// VerifyCapture; then FixCapture rewrites it and the result is verified
// again. Properties: nothing crashes or leaks; a file that reads to its end
// reports one frame per visit; fix succeeds where verify did, and its copy
// has the same size, differs only in the bytes of bad checksum fields, and
// reads to its end with the same number of packets and no bad checksum.

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "testing/fuzz/fuzz_util.h"
#include "tools/csum/capture.h"
#include "tools/csum/report.h"
#include "tools/csum/verify.h"

namespace {

// TempPath returns a per-process file name in $TMPDIR (or /tmp), removed at
// exit.
std::string TempPath(const char* suffix) {
  const char* dir = std::getenv("TMPDIR");
  std::string path = std::string(dir != nullptr && *dir ? dir : "/tmp") +
                     "/ipsum_capture_fuzzer." + std::to_string(getpid()) +
                     suffix;
  return path;
}

const std::string& InPath() {
  static const std::string* path = [] {
    auto* p = new std::string(TempPath(".in"));
    std::atexit([] {
      std::remove(TempPath(".in").c_str());
      std::remove(TempPath(".out").c_str());
    });
    return p;
  }();
  return *path;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace ipsum::csum;
  const std::string& in = InPath();
  static const std::string out = TempPath(".out");
  {
    FILE* f = std::fopen(in.c_str(), "wb");
    IPSUM_FUZZ_CHECK(f != nullptr);
    IPSUM_FUZZ_CHECK(std::fwrite(data, 1, size, f) == size);
    IPSUM_FUZZ_CHECK(std::fclose(f) == 0);
  }
  uint64_t visits = 0;
  const CaptureReport report = VerifyCapture(
      in,
      [&visits](uint64_t frame, const FrameCheck&) {
        IPSUM_FUZZ_CHECK(frame == ++visits);
      },
      /*progress=*/false);
  IPSUM_FUZZ_CHECK(report.tally.packets == visits);
  if (!report.status.ok()) return 0;

  const auto fixed = FixCapture(in, out);
  IPSUM_FUZZ_CHECK(fixed.ok());
  IPSUM_FUZZ_CHECK(fixed->packets == report.tally.packets);
  IPSUM_FUZZ_CHECK(fixed->fields == report.tally.Count(Verdict::kBad));
  {
    // Same size; at most the two bytes of each fixed field differ.
    FILE* f = std::fopen(out.c_str(), "rb");
    IPSUM_FUZZ_CHECK(f != nullptr);
    size_t differ = 0, n = 0;
    for (int c; (c = std::fgetc(f)) != EOF; ++n) {
      IPSUM_FUZZ_CHECK(n < size);
      differ += static_cast<uint8_t>(c) != data[n];
    }
    std::fclose(f);
    IPSUM_FUZZ_CHECK(n == size);
    IPSUM_FUZZ_CHECK(differ <= 2 * fixed->fields);
  }
  const CaptureReport again = VerifyCapture(out, nullptr, false);
  IPSUM_FUZZ_CHECK(again.status.ok());
  IPSUM_FUZZ_CHECK(again.tally.packets == report.tally.packets);
  IPSUM_FUZZ_CHECK(again.tally.Count(Verdict::kBad) == 0);
  return 0;
}
