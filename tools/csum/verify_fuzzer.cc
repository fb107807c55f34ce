// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Fuzzes csum's per-frame verdict without libpcap (so it also runs on the
// cross configs): CheckFrame on a captured frame of any supported link type,
// then FixFrame. The input is
//
//   link type selector (1 byte) | frame
//
// Properties: every field CheckFrame reports lies inside the frame (its two
// bytes, when stored); good and bad verdicts carry a computed value, and a
// bad field does not store it; FixFrame changes only the bytes of bad
// fields, and afterwards CheckFrame finds the same fields, none bad (the
// IPv4 header checksum and the transport checksum cover disjoint bytes).

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "tools/csum/link.h"
#include "tools/csum/verify.h"
#include "tools/fuzz/fuzz_util.h"

namespace ipsum::csum {
namespace {

constexpr uint32_t kLinkTypes[] = {
    0, 1, 101, 108, 113, 228, 229, 276,
};

size_t CountBad(const FrameCheck& c) {
  size_t n = 0;
  for (const FieldCheck& f : c.checks()) n += f.verdict == Verdict::kBad;
  return n;
}

void CheckFields(const FrameCheck& c, std::span<const uint8_t> frame) {
  IPSUM_FUZZ_CHECK(c.field_count <= kMaxFieldsPerFrame);
  for (const FieldCheck& f : c.checks()) {
    if (f.has_stored) {
      IPSUM_FUZZ_CHECK(f.offset + 2 <= frame.size());
      IPSUM_FUZZ_CHECK(f.stored ==
                       (uint16_t{frame[f.offset]} << 8 | frame[f.offset + 1]));
    }
    const bool judged =
        f.verdict == Verdict::kGood || f.verdict == Verdict::kBad;
    IPSUM_FUZZ_CHECK(f.has_computed == judged);
    if (judged) IPSUM_FUZZ_CHECK(f.has_stored);
    if (f.verdict == Verdict::kBad) IPSUM_FUZZ_CHECK(f.stored != f.computed);
  }
}

}  // namespace
}  // namespace ipsum::csum

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace ipsum::csum;
  if (size == 0) return 0;
  const uint32_t linktype =
      kLinkTypes[data[0] % (sizeof(kLinkTypes) / sizeof(kLinkTypes[0]))];
  ipsum::fuzz::AlignedCopy frame({data + 1, size - 1}, data[0] >> 3);
  const FrameCheck check = CheckFrame(linktype, frame.span());
  CheckFields(check, frame.span());

  std::vector<uint8_t> fixed(frame.span().begin(), frame.span().end());
  const size_t bad = CountBad(check);
  IPSUM_FUZZ_CHECK(FixFrame(check, fixed) == bad);
  // Only the bytes of bad fields changed.
  for (size_t i = 0; i < fixed.size(); ++i) {
    if (fixed[i] == frame.data()[i]) continue;
    bool in_bad_field = false;
    for (const FieldCheck& f : check.checks()) {
      in_bad_field |=
          f.verdict == Verdict::kBad && i >= f.offset && i < f.offset + 2;
    }
    IPSUM_FUZZ_CHECK(in_bad_field);
  }
  const FrameCheck again = CheckFrame(linktype, fixed);
  CheckFields(again, fixed);
  IPSUM_FUZZ_CHECK(again.kind == check.kind);
  IPSUM_FUZZ_CHECK(again.field_count == check.field_count);
  IPSUM_FUZZ_CHECK(CountBad(again) == 0);
  return 0;
}
