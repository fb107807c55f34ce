// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// The one's-complement arithmetic behind the Internet checksum, on a 64-bit
// accumulator, for code that sums a few words inline (a header, a
// pseudo-header) rather than calling Checksum. A sum modulo 2^64 - 1 of
// 16-bit words at even bit positions folds to their 16-bit one's-complement
// sum, since 2^16 == 1 (mod 0xffff). Every function is zero only when its
// inputs are, so a fold is 0x0000 only for all-zero data (checksum.h).
//
// Pure arithmetic, header only, constexpr.

#ifndef IPSUM_CHECKSUM_ARITHMETIC_H_
#define IPSUM_CHECKSUM_ARITHMETIC_H_

#include <bit>
#include <cstdint>

namespace ipsum::checksum {

// AddEndAround returns a + b modulo 2^64 - 1: the carry out of bit 63 is
// added back at bit 0 (RFC 1071 section 2(C)). Non-zero if either input is.
[[gnu::always_inline]] constexpr uint64_t AddEndAround(uint64_t a,
                                                       uint64_t b) {
  uint64_t s;
  const bool carry = __builtin_add_overflow(a, b, &s);
  return s + carry;  // s <= 2^64 - 2 after a carry: this cannot wrap.
}

// Fold folds an accumulator to its 16-bit one's-complement sum, with
// end-around carries; 0 only when `acc` is. Each halving adds the value to
// itself rotated by half its width, whose upper half is then the halves'
// sum with end-around carry (as Linux's csum_fold).
[[gnu::always_inline]] constexpr uint16_t Fold(uint64_t acc) {
  const auto sum32 = static_cast<uint32_t>((acc + std::rotr(acc, 32)) >> 32);
  return static_cast<uint16_t>((sum32 + std::rotr(sum32, 16)) >> 16);
}

// FoldBigEndian folds an accumulator of words added as the host loads them
// to the big-endian 16-bit sum (RFC 1071 section 2(B)): Fold, byte-swapped
// on a little-endian host. The swap is a rotation of the accumulator by 8
// bits before the fold, which multiplies the sum by 2^8 modulo 0xffff.
[[gnu::always_inline]] constexpr uint16_t FoldBigEndian(uint64_t acc) {
  if constexpr (std::endian::native == std::endian::little) {
    return Fold(std::rotl(acc, 8));
  } else {
    return Fold(acc);
  }
}

}  // namespace ipsum::checksum

#endif  // IPSUM_CHECKSUM_ARITHMETIC_H_
