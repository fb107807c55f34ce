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

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

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

// SwapBytes16 reverses the two bytes of `v` (endian.h's ByteSwap16, here so
// that every helper stays internal).
IPSUM_KERNEL_INLINE constexpr uint16_t SwapBytes16(uint16_t v) {
  return __builtin_bswap16(v);  // One `rol $8`; the shift-or form was four.
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

// PlaceNative returns the native accumulator `acc` of a part, its positions
// counted from the part's start, as seen from a whole in which the part
// starts at an offset whose parity is `odd & 1`: rotated left by 8 bits when
// odd. A rotation of a 64-bit end-around sum multiplies it by 2^8 modulo
// 2^64 - 1, hence modulo 0xffff, and that byte-swaps its fold (RFC 1071
// section 2(B)): the accumulator form of SwapIfOdd, with no fold. Zero only
// if `acc` is.
IPSUM_KERNEL_INLINE constexpr uint64_t PlaceNative(uint64_t acc, size_t odd) {
  return std::rotl(acc, 8 * static_cast<int>(odd & 1));
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

// DropLeadingBytes returns `word`, `bits` / 8 bytes loaded in native order
// from memory, with its first bits / 8 bytes (in memory order) removed and
// the rest moved to where the first ones were, so that they keep the 16-bit
// word positions of their offsets. bits < width of the loaded word.
IPSUM_KERNEL_INLINE uint64_t DropLeadingBytes(uint64_t word, unsigned bits) {
  return kHostIsBigEndian ? word << bits : word >> bits;
}

// WideSum is a 128-bit sum of 64-bit words: `lo` and the count of carries
// out of it, `hi`. A plain aggregate (start it as `WideSum s = {0, 0}`):
// with member initializers it would have a constructor, an inline function
// with external linkage that clang emits at -O0 in every kernel's file,
// AVX2 one included.
struct WideSum {
  uint64_t lo;
  uint64_t hi;
};

// AddWord adds `v` to `s`. On x86-64 an add and an add-with-carry (the
// portable form, a compare for the carry, costs one more operation per
// word; gcc does not emit adc for it).
IPSUM_KERNEL_INLINE void AddWord(WideSum& s, uint64_t v) {
#if defined(__x86_64__)
  __asm__("addq %[v], %[lo]\n\tadcq $0, %[hi]"
          : [lo] "+r"(s.lo), [hi] "+r"(s.hi)
          : [v] "rm"(v)
          : "cc");
#else
  s.lo += v;
  s.hi += s.lo < v;
#endif
}

// Native returns `s` as a native accumulator (end-around carry; since
// 2^64 == 1 (mod 0xffff), hi counts as ones). Zero only if `s` is.
IPSUM_KERNEL_INLINE uint64_t Native(const WideSum& s) {
  return AddEndAround(s.lo, s.hi);
}

// SumShortNative returns a native accumulator of data[0, len). Built for
// short inputs and tails: from 8 bytes on, whole 8-byte words (two per loop
// step) and then the last 8 bytes of the input loaded again with the bytes
// already counted shifted out, so the only branches are the loop and the
// size class, all decided by `len` (perfectly predicted for a repeated
// length); below 8 bytes, two overlapping 4-byte (or 2-byte) loads.
IPSUM_KERNEL_INLINE uint64_t SumShortNative(const uint8_t* p, size_t len) {
  if (len >= 8) {
    WideSum s = {0, 0};
    const size_t words = (len - 1) / 8;  // All but the last 1..8 bytes.
    size_t i = 0;
    for (; i + 2 <= words; i += 2) {
      AddWord(s, LoadNative64(p + 8 * i));
      AddWord(s, LoadNative64(p + 8 * i + 8));
    }
    if (i < words) AddWord(s, LoadNative64(p + 8 * i));
    const size_t rest = len - 8 * words;  // 1..8, at offset 8 * words.
    AddWord(s, DropLeadingBytes(LoadNative64(p + len - 8),
                                8 * static_cast<unsigned>(8 - rest)));
    return Native(s);
  }
  if (len >= 4) {
    // Bytes 0..3, then bytes 4..len-1 out of the last four.
    const uint64_t last = LoadNative32(p + len - 4);
    const uint64_t tail =
        DropLeadingBytes(last, 8 * static_cast<unsigned>(8 - len)) & 0xffffffff;
    return uint64_t{LoadNative32(p)} + tail;
  }
  // A lone byte at an even offset is the high-order byte of a big-endian
  // word (RFC 1071 4.1): the low byte of a little-endian one.
  const unsigned odd_shift = kHostIsBigEndian ? 8 : 0;
  if (len >= 2) {
    const uint64_t third = len == 3 ? uint64_t{p[2]} << odd_shift : 0;
    return uint64_t{LoadNative16(p)} + third;
  }
  return len == 1 ? uint64_t{p[0]} << odd_shift : 0;
}

// SumPiecesScalar is a SumPiecesFn (impl.h) built on `kPieceNative`, which
// returns a native accumulator of p[0, len), positions counted from p: the
// accumulators of the pieces are placed by the parity of their offsets
// (PlaceNative) and added into one, which is folded and swapped once.
template <uint64_t (*kPieceNative)(const uint8_t* p, size_t len)>
IPSUM_KERNEL_INLINE uint16_t SumPiecesScalar(
    const std::span<const uint8_t>* pieces, size_t count, uint16_t initial) {
  uint64_t acc = 0;
  size_t odd = 0;
  for (size_t i = 0; i < count; ++i) {
    const size_t len = pieces[i].size();
    acc = AddEndAround(acc,
                       PlaceNative(kPieceNative(pieces[i].data(), len), odd));
    odd ^= len;
  }
  return FinishAccumulator(acc, initial);
}

// CopyShortNative copies src[0, len) to dst and returns a native accumulator
// of the bytes, like SumShortNative (whose loads it shares: the last 8 or 4
// bytes are stored whole, rewriting some bytes with the same values).
IPSUM_KERNEL_INLINE uint64_t CopyShortNative(uint8_t* dst, const uint8_t* src,
                                             size_t len) {
  if (len >= 8) {
    WideSum s = {0, 0};
    const size_t words = (len - 1) / 8;
    for (size_t i = 0; i < words; ++i) {
      const uint64_t v = LoadNative64(src + 8 * i);
      std::memcpy(dst + 8 * i, &v, 8);
      AddWord(s, v);
    }
    const size_t rest = len - 8 * words;
    const uint64_t last = LoadNative64(src + len - 8);
    std::memcpy(dst + len - 8, &last, 8);
    AddWord(s, DropLeadingBytes(last, 8 * static_cast<unsigned>(8 - rest)));
    return Native(s);
  }
  if (len >= 4) {
    const uint32_t first = LoadNative32(src);
    const uint32_t last = LoadNative32(src + len - 4);
    std::memcpy(dst, &first, 4);
    std::memcpy(dst + len - 4, &last, 4);
    const uint64_t tail =
        DropLeadingBytes(last, 8 * static_cast<unsigned>(8 - len)) & 0xffffffff;
    return uint64_t{first} + tail;
  }
  const unsigned odd_shift = kHostIsBigEndian ? 8 : 0;
  if (len >= 2) {
    const uint16_t first = LoadNative16(src);
    std::memcpy(dst, &first, 2);
    uint64_t third = 0;
    if (len == 3) {
      dst[2] = src[2];
      third = uint64_t{src[2]} << odd_shift;
    }
    return uint64_t{first} + third;
  }
  if (len == 1) {
    dst[0] = src[0];
    return uint64_t{src[0]} << odd_shift;
  }
  return 0;
}

}  // namespace ipsum::checksum::internal

#endif  // IPSUM_CHECKSUM_INTERNAL_NATIVE_SUM_H_
