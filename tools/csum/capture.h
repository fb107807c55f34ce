// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Reading and rewriting capture files with libpcap for `csum verify` and
// `csum fix`. The frames libpcap returns go through CheckFrame (verify.h);
// this layer only adds the file: opening it, telling pcap from pcapng,
// mapping libpcap's DLT_ link type to the file's LINKTYPE_, locating a
// record in the file, progress on a terminal, and naming the file and byte
// offset when it breaks.
//
// Links libpcap, which has no big-endian mips64 build here: its targets are
// tagged host_only. Everything that decides a verdict lives in verify.h and
// report.h, which do not.

#ifndef IPSUM_TOOLS_CSUM_CAPTURE_H_
#define IPSUM_TOOLS_CSUM_CAPTURE_H_

#include <cstdint>
#include <functional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "tools/csum/report.h"
#include "tools/csum/verify.h"

namespace ipsum::csum {

// CaptureFormat is the container format of a capture file.
enum class CaptureFormat : uint8_t { kPcap, kPcapng };

// CaptureReport is what VerifyCapture found in one file.
struct CaptureReport {
  // format and linktype (a LINKTYPE_ value) describe the file once opened.
  CaptureFormat format = CaptureFormat::kPcap;
  uint32_t linktype = 0;
  // tally counts the frames read before the end of the file or an error.
  Tally tally;
  // status is OK, or why the file could not be opened or read to its end:
  // its message names the file and, for a broken record, its number and
  // the byte offset where it starts.
  absl::Status status;

  // Title returns "NAME: pcap, ethernet" for summaries.
  std::string Title(const std::string& name) const;
};

// FrameVisitor is called with the 1-based number of each frame and its
// checks, in file order.
using FrameVisitor = std::function<void(uint64_t frame, const FrameCheck&)>;

// VerifyCapture reads the pcap or pcapng file at `path` through libpcap and
// checks every frame, calling `visit` (if set) for each. With `progress`,
// a line of progress is redrawn on stderr once the file has taken more
// than a second, when stderr is a terminal.
CaptureReport VerifyCapture(const std::string& path, const FrameVisitor& visit,
                            bool progress);

// FixReport is what FixCapture did.
struct FixReport {
  CaptureFormat format = CaptureFormat::kPcap;
  uint64_t packets = 0;
  // fields is how many checksum fields were rewritten, in `packets_fixed`
  // packets.
  uint64_t fields = 0;
  uint64_t packets_fixed = 0;
};

// FixCapture writes `out`, a copy of the capture `in` with every checksum
// judged bad replaced by its computed value. A pcap input is copied byte
// for byte and only the bytes of those fields change. A pcapng input is
// written as pcap (libpcap writes no pcapng) with nanosecond timestamps,
// keeping every packet's data, lengths and time; libpcap refuses a pcapng
// whose interfaces have different link types, and so does FixCapture.
// Refuses `out` naming the same file as `in`. On error `out` may be left
// partly written.
absl::StatusOr<FixReport> FixCapture(const std::string& in,
                                     const std::string& out);

}  // namespace ipsum::csum

#endif  // IPSUM_TOOLS_CSUM_CAPTURE_H_
