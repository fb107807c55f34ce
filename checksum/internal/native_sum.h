// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Inline building blocks shared by the fast paths: summing in the host's
// native byte order and converting the result to the big-endian sum of the
// SumFn contract. RFC 1071 section 2(B): the one's-complement sum is
// byte-order independent, so a little-endian host may add the words exactly
// as it loads them and swap the two bytes of the folded 16-bit result once.
//
// A "native accumulator" here is a uint64_t holding an exact (or
// end-around-carry) sum of 16-bit words at even bit positions; since
// 2^16 == 1 (mod 0xffff), any such sum folds to the right 16-bit value.
// Every function keeps the invariant the contract relies on for the
// 0x0000/0xffff question: an accumulator is zero only if every byte added to
// it was zero, so a sum folds to 0x0000 only for all-zero data.
//
// Every function here has internal linkage and is always inlined: this
// header is included by files built with different ISA flags (-mavx2...),
// and an out-of-line copy of an ordinary inline function compiled with AVX2
// could be the one the linker keeps for the portable code too (an ODR trap
// that only bites on older CPUs, and at -O0).
//
// Not API: only //checksum's implementation targets include it.

#ifndef IPSUM_CHECKSUM_INTERNAL_NATIVE_SUM_H_
#define IPSUM_CHECKSUM_INTERNAL_NATIVE_SUM_H_

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "checksum/endian.h"

// IPSUM_KERNEL_INLINE marks the helpers below: internal linkage, always
// inlined (see above).
#define IPSUM_KERNEL_INLINE [[gnu::always_inline]] static inline

namespace ipsum::checksum::internal {

// LoadNative64 reads 8 bytes at `p` (any alignment) in host order.
IPSUM_KERNEL_INLINE uint64_t LoadNative64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, sizeof(v));
  return v;
}

// LoadNative32 reads 4 bytes at `p` (any alignment) in host order.
IPSUM_KERNEL_INLINE uint32_t LoadNative32(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, sizeof(v));
  return v;
}

// LoadNative16 reads 2 bytes at `p` (any alignment) in host order.
IPSUM_KERNEL_INLINE uint16_t LoadNative16(const uint8_t* p) {
  uint16_t v;
  std::memcpy(&v, p, sizeof(v));
  return v;
}

// SwapBytes16 reverses the two bytes of `v` (endian.h's ByteSwap16, copied
// so that every helper here stays internal).
IPSUM_KERNEL_INLINE constexpr uint16_t SwapBytes16(uint16_t v) {
  return static_cast<uint16_t>((v << 8) | (v >> 8));
}

// AddEndAround returns a + b with the carry out of bit 63 added back in
// (one's-complement addition modulo 2^64 - 1). Non-zero if either input is.
IPSUM_KERNEL_INLINE uint64_t AddEndAround(uint64_t a, uint64_t b) {
  uint64_t s;
  const bool carry = __builtin_add_overflow(a, b, &s);
  // s <= 2^64 - 2 when there was a carry, so this add cannot wrap.
  return s + carry;
}

// FoldNative folds a native accumulator to 16 bits with end-around carries.
// The result is 0 only when `acc` is 0. Two rotate-and-add steps: the high
// half of x + rotate(x, half) is hi + lo with the carry out of the low half
// added back, the one's-complement sum of the halves.
IPSUM_KERNEL_INLINE constexpr uint16_t FoldNative(uint64_t acc) {
  const uint32_t x =
      static_cast<uint32_t>((acc + ((acc >> 32) | (acc << 32))) >> 32);
  return static_cast<uint16_t>((x + ((x >> 16) | (x << 16))) >> 16);
}

// SwapIfOdd returns the byte-swapped `sum` when `offset` is odd: the sum of
// a part that starts at an odd offset of the whole, seen from the whole
// (RFC 1071 section 2(B)).
IPSUM_KERNEL_INLINE constexpr uint16_t SwapIfOdd(uint16_t sum, size_t offset) {
  return (offset & 1) ? SwapBytes16(sum) : sum;
}

// AddFolded returns the one's-complement sum of two folded 16-bit sums; 0
// only if both are 0.
IPSUM_KERNEL_INLINE constexpr uint16_t AddFolded(uint16_t a, uint16_t b) {
  uint32_t s = uint32_t{a} + b;
  return static_cast<uint16_t>(s + (s >> 16));
}

// FinishNative turns a folded native-order sum into the SumFn result: the
// big-endian sum plus `initial`.
IPSUM_KERNEL_INLINE constexpr uint16_t FinishNative(uint16_t native,
                                                    uint16_t initial) {
  return AddFolded(initial, kHostIsBigEndian ? native : SwapBytes16(native));
}

// FinishAccumulator turns a native accumulator into the SumFn result:
// `initial` is moved into native order and added before the fold, so that
// only one byte swap follows it.
IPSUM_KERNEL_INLINE uint16_t FinishAccumulator(uint64_t acc, uint16_t initial) {
  if (kHostIsBigEndian) return FoldNative(AddEndAround(acc, initial));
  return SwapBytes16(FoldNative(AddEndAround(acc, SwapBytes16(initial))));
}

// SumShortNative returns a native accumulator of data[0, len). Meant for
// short inputs and tails (it is a plain loop of 8-byte loads with a 4/2/1
// finish, every branch decided by `len` alone, so it predicts perfectly for a
// repeated length), but correct for any len below 2^34.
IPSUM_KERNEL_INLINE uint64_t SumShortNative(const uint8_t* p, size_t len) {
  uint64_t acc = 0;
  // Each 8-byte load adds two 32-bit halves, < 2^33, so nothing is lost.
  for (; len >= 8; len -= 8, p += 8) {
    const uint64_t v = LoadNative64(p);
    acc += (v & 0xffffffff) + (v >> 32);
  }
  if (len & 4) {
    acc += LoadNative32(p);
    p += 4;
  }
  if (len & 2) {
    acc += LoadNative16(p);
    p += 2;
  }
  // A last odd byte is the high-order byte of a big-endian word (RFC 1071
  // 4.1): the low byte of a little-endian one.
  if (len & 1) acc += kHostIsBigEndian ? uint64_t{*p} << 8 : uint64_t{*p};
  return acc;
}

// CopyShortNative copies src[0, len) to dst and returns a native accumulator
// of the bytes, like SumShortNative.
IPSUM_KERNEL_INLINE uint64_t CopyShortNative(uint8_t* dst, const uint8_t* src,
                                             size_t len) {
  uint64_t acc = 0;
  for (; len >= 8; len -= 8, src += 8, dst += 8) {
    const uint64_t v = LoadNative64(src);
    std::memcpy(dst, &v, 8);
    acc += (v & 0xffffffff) + (v >> 32);
  }
  if (len & 4) {
    const uint32_t v = LoadNative32(src);
    std::memcpy(dst, &v, 4);
    acc += v;
    src += 4;
    dst += 4;
  }
  if (len & 2) {
    const uint16_t v = LoadNative16(src);
    std::memcpy(dst, &v, 2);
    acc += v;
    src += 2;
    dst += 2;
  }
  if (len & 1) {
    *dst = *src;
    acc += kHostIsBigEndian ? uint64_t{*src} << 8 : uint64_t{*src};
  }
  return acc;
}

}  // namespace ipsum::checksum::internal

#endif  // IPSUM_CHECKSUM_INTERNAL_NATIVE_SUM_H_
