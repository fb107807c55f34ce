// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// The reference Internet checksum (see reference.h). RFC 1071 section 1:
// "Adjacent octets to be checksummed are paired to form 16-bit integers, and
// the 1's complement sum of these 16-bit integers is formed." Each word is
// built from its two bytes by arithmetic, so the host's byte order never
// enters; the sum is kept exact in 64 bits and folded at the end.

#include "checksum/internal/reference.h"

namespace ipsum::checksum::internal {

uint16_t ReferenceSum(const uint8_t* data, size_t len, uint16_t initial) {
  // Each word adds at most 0xffff, so 64 bits hold the exact sum of 2^48
  // words (512 TiB): no carry is ever lost.
  uint64_t sum = initial;
  size_t i = 0;
  for (; i + 1 < len; i += 2) {
    sum += (uint64_t{data[i]} << 8) | data[i + 1];
  }
  // RFC 1071 section 4.1: "Add left-over byte, if any" as the high byte of a
  // word whose low byte is zero.
  if (i < len) sum += uint64_t{data[i]} << 8;
  // "Fold 32-bit sum to 16 bits": end-around carry until nothing is left
  // above bit 15. A non-zero sum never folds to zero.
  while (sum >> 16) sum = (sum & 0xffff) + (sum >> 16);
  return static_cast<uint16_t>(sum);
}

}  // namespace ipsum::checksum::internal
