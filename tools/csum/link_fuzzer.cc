// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// link_fuzzer: DecodeLink on every link type csum decodes, then the verdict
// on what it found. Input: a selector byte (link type, and how many bytes
// the frame had on the wire past the captured ones), then the frame.
//
// Checks, beyond ASan/UBSan's: an Ethernet frame or IP packet found starts
// inside the frame; a cut header says which; LinkPacketBytes keeps the link
// headers and stays inside the frame and the wire length; CheckFrame and
// FixFrame (whose own invariants verify_fuzzer checks) run on the result:
// it writes every bad field and no field FixMayChange rules out (a tunnel's
// good outer checksum is rewritten when a bad inner one it covers is), and
// a fixed frame has no bad field left. CheckFrame says what the general
// walk (CheckFrameGeneral) says, at every wire length, before and after.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "testing/fuzz/fuzz_util.h"
#include "tools/csum/link.h"
#include "tools/csum/verify.h"

namespace ipsum::csum {
namespace {

constexpr uint32_t kLinkTypes[] = {
    0, 1, 9, 50, 101, 104, 107, 108, 113, 127, 228, 229, 239, 242, 276,
};
constexpr size_t kTypeCount = sizeof(kLinkTypes) / sizeof(kLinkTypes[0]);

void CheckDecode(const LinkDecode& d, std::span<const uint8_t> frame,
                 size_t wire_length) {
  if (d.payload == LinkPayload::kIP || d.payload == LinkPayload::kEthernet) {
    IPSUM_FUZZ_CHECK(d.offset <= frame.size());
    size_t wire = wire_length;
    const std::span<const uint8_t> packet = LinkPacketBytes(d, frame, wire);
    IPSUM_FUZZ_CHECK(packet.data() == frame.data());
    IPSUM_FUZZ_CHECK(packet.size() <= frame.size());
    IPSUM_FUZZ_CHECK(packet.size() >= d.offset);
    IPSUM_FUZZ_CHECK(wire <= wire_length);
  } else if (d.payload == LinkPayload::kTruncated) {
    IPSUM_FUZZ_CHECK(!d.reason.empty());
  }
  IPSUM_FUZZ_CHECK(d.payload != LinkPayload::kUnsupported);
}

size_t CountBad(const FrameCheck& c) {
  size_t n = 0;
  for (const FieldCheck& f : c.checks()) n += f.verdict == Verdict::kBad;
  return n;
}

// CountMayChange counts the fields FixFrame may write: the bad ones, and
// the tunnels' outer checksums that cover a bad inner one.
size_t CountMayChange(const FrameCheck& c) {
  size_t n = 0;
  for (const FieldCheck& f : c.checks()) n += FixMayChange(c, f);
  return n;
}

}  // namespace
}  // namespace ipsum::csum

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace ipsum::csum;
  if (size == 0) return 0;
  const uint32_t linktype = kLinkTypes[(data[0] & 0x0f) % kTypeCount];
  const std::span<const uint8_t> input(data + 1, size - 1);
  std::vector<uint8_t> frame(input.begin(), input.end());
  const size_t wire_length = frame.size() + 8 * (data[0] >> 4);
  CheckDecode(DecodeLink(linktype, frame), frame, wire_length);

  const FrameCheck check = CheckFrame(linktype, frame, wire_length);
  IPSUM_FUZZ_CHECK(check == CheckFrameGeneral(linktype, frame, wire_length));
  const size_t fixed = FixFrame(check, frame);
  IPSUM_FUZZ_CHECK(fixed >= CountBad(check));
  IPSUM_FUZZ_CHECK(fixed <= CountMayChange(check));
  const FrameCheck again = CheckFrame(linktype, frame, wire_length);
  IPSUM_FUZZ_CHECK(again == CheckFrameGeneral(linktype, frame, wire_length));
  IPSUM_FUZZ_CHECK(CountBad(again) == 0);
  return 0;
}
