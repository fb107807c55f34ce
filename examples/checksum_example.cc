// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// The README's example of using ipsum from another Bazel workspace: the
// program that examples/consumer builds through local_repository, and that
// //examples:checksum_example_test builds and runs here. It exits 0 only if
// every sum matches RFC 1071's worked example. The lines between BEGIN
// README and END README are the README's (readme_sync_test checks).

#include <cstdint>
#include <cstdio>
#include <span>

#include "buffer/buffer.h"
#include "checksum/checksum.h"

int main() {
  // BEGIN README
  namespace checksum = ipsum::checksum;
  // RFC 1071 section 3's example: these eight bytes sum to 0xddf2.
  const uint8_t data[] = {0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7};

  // One contiguous range, through the fastest implementation for this CPU.
  const uint16_t sum = checksum::Checksum(data, sizeof(data));

  // The same bytes in a chained packet buffer, summed where they lie.
  ipsum::buffer::Buffer packet = ipsum::buffer::Buffer::Copy(data);
  const uint16_t chained = packet.ChecksumAll();

  // A header stores the complement of the sum.
  uint8_t field[2];
  checksum::Put(field, static_cast<uint16_t>(~sum));
  // END README

  std::printf("sum 0x%04x, stored as %02x %02x\n", sum, field[0], field[1]);
  const bool ok = sum == 0xddf2 && chained == sum &&
                  field[0] == 0x22 && field[1] == 0x0d;
  return ok ? 0 : 1;
}
