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
#include "checksum/internal/pieces.h"

// IPSUM_KERNEL_INLINE marks the helpers below: internal linkage, always
// inlined (see above).
#define IPSUM_KERNEL_INLINE [[gnu::always_inline]] static inline

// IPSUM_SHORT_ASM: SumWordsShort loads the words inside its asm on x86-64,
// where AddressSanitizer cannot see them; under ASan it uses the portable
// code, which loads the same addresses, so that a read outside the input is
// still reported.
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define IPSUM_SHORT_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define IPSUM_SHORT_ASAN 1
#endif
#if defined(__x86_64__) && !defined(IPSUM_SHORT_ASAN)
#define IPSUM_SHORT_ASM 1
#else
#define IPSUM_SHORT_ASM 0
#endif

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

// --- The public Checksum's inline path for inputs shorter than 64 bytes ---
//
// At these lengths the cost is the instruction count, not the bytes: a
// 40-byte sum has five loads to do, fewer than a call to memcpy of the same
// bytes costs. So SumShortOr below takes one branch tree on the length (which
// also routes 64 bytes and more to the caller's long path), and each size
// class is one straight run: on x86-64 a single add-with-carry chain over the
// class's fixed number of words, the fold and the byte swap, in one asm
// statement so that the compiler does not merge the classes' common tails
// behind a jump.

// kShortLimit: SumShortOr sums inputs shorter than this inline.
inline constexpr size_t kShortLimit = 64;

// InitialNative returns `initial`, a big-endian sum, as a native
// accumulator. On a little-endian host it is shifted up 8 bits instead of
// byte-swapped: a multiplication by 2^8 modulo 0xffff, which folds to the
// byte swap (RFC 1071 section 2(B)), one instruction after the
// zero-extension where the swap takes two. Zero only if `initial` is.
IPSUM_KERNEL_INLINE constexpr uint64_t InitialNative(uint16_t initial) {
  return kHostIsBigEndian ? uint64_t{initial} : uint64_t{initial} << 8;
}

// FinishShort turns a native accumulator into the SumFn result (the
// big-endian sum, folded): two rotate-and-add steps on the whole word. The
// first leaves in the high half h the end-around sum of the two halves (see
// FoldNative) and in the low half h - c, c being that sum's end-around
// carry; the second adds the word rotated by 16, which leaves in the top 16
// bits the end-around sum of h's two 16-bit halves. That the low half's
// carries into the top never change it was checked for every (h, c) state
// (c is 0 when h is 0), all 2^33 of them: with y = h << 32 | (h - c),
// (y + rotl(y, 16)) >> 48 == (h + rotl32(h, 16)) >> 16, FoldNative's second
// step. Zero only if `acc` is. On a little-endian host a 64-bit byte swap
// then moves the top 16 bits to the bottom and swaps their bytes at once.
IPSUM_KERNEL_INLINE constexpr uint16_t FinishShort(uint64_t acc) {
  const uint64_t y = acc + std::rotl(acc, 32);
  const uint64_t z = y + std::rotl(y, 16);
  if (kHostIsBigEndian) return static_cast<uint16_t>(z >> 48);
  return static_cast<uint16_t>(__builtin_bswap64(z));
}

// DropBitsBeforeEnd returns the shift count (for DropLeadingBytes) that
// removes from a word loaded so that it ends at byte `len` the bytes that
// lie before the last len % 8 (all 8 when len % 8 == 0), and for a 4-byte
// word, 4 <= len <= 8, the bytes before offset 4: 8 * (8 - len % 8) modulo
// 64, which is -8 * len modulo 64.
IPSUM_KERNEL_INLINE constexpr unsigned DropBitsBeforeEnd(size_t len) {
  return (0u - 8 * static_cast<unsigned>(len)) & 63;
}

// TailShift returns a shift count equal to DropBitsBeforeEnd(len) modulo
// 64, which is all a 64-bit x86 shift reads of its count: there, one
// `imul` (the compiler spells -8 * len as mov, neg, shl), in %ecx, where
// the classes' shifts take it. SumShortOr computes it once, ahead of the
// size-class tree, rather than each class at its start: every class from 4
// bytes on needs it, and each class's straight run is one instruction
// shorter for it (the 49..56-byte one then fits one 64-byte fetch block).
IPSUM_KERNEL_INLINE uint32_t TailShift(size_t len) {
#if IPSUM_SHORT_ASM
  uint32_t count;
  __asm__("imull $-8, %k[len], %[count]"
          : [count] "=c"(count)
          : [len] "r"(len));
  return count;
#else
  return DropBitsBeforeEnd(len);
#endif
}

// SumWordsShort returns the SumFn result for `acc`, a native accumulator,
// plus data[0, len), where 8 * kWords < len <= 8 * kWords + 8 and len >= 8:
// the first kWords 8-byte words, then the last 8 bytes of the input with
// the ones the words already counted shifted out, so that the rest keep
// the 16-bit word positions of their offsets. `shift` is TailShift(len).
template <int kWords>
IPSUM_KERNEL_INLINE uint16_t SumWordsShort(const uint8_t* p, size_t len,
                                           uint64_t acc, uint32_t shift) {
  static_assert(kWords >= 0 && kWords <= 7);
#if IPSUM_SHORT_ASM
  // One carry chain, the carry out of bit 63 added back at the end; then
  // FinishShort. The last word, whose shift waits on TailShift's `imul`,
  // joins the chain last, so that the whole words need not wait.
  uint64_t t;
  __asm__(
      "movq -8(%[p],%[len]), %[t]\n\t"
      "shrq %%cl, %[t]\n\t"
      ".if %c[k] > 0\n\taddq (%[p]), %[acc]\n\t.endif\n\t"
      ".if %c[k] > 1\n\tadcq 8(%[p]), %[acc]\n\t.endif\n\t"
      ".if %c[k] > 2\n\tadcq 16(%[p]), %[acc]\n\t.endif\n\t"
      ".if %c[k] > 3\n\tadcq 24(%[p]), %[acc]\n\t.endif\n\t"
      ".if %c[k] > 4\n\tadcq 32(%[p]), %[acc]\n\t.endif\n\t"
      ".if %c[k] > 5\n\tadcq 40(%[p]), %[acc]\n\t.endif\n\t"
      ".if %c[k] > 6\n\tadcq 48(%[p]), %[acc]\n\t.endif\n\t"
      ".if %c[k] > 0\n\tadcq %[t], %[acc]\n\t"
      ".else\n\taddq %[t], %[acc]\n\t.endif\n\t"
      "adcq $0, %[acc]\n\t"
      "movq %[acc], %[t]\n\t"
      "rolq $32, %[t]\n\t"
      "addq %[t], %[acc]\n\t"
      "movq %[acc], %[t]\n\t"
      "rolq $16, %[t]\n\t"
      "addq %[t], %[acc]\n\t"
      "bswapq %[acc]"
      : [acc] "+&r"(acc), [t] "=&r"(t)
      // The bytes the asm may read: p[0, 8 * kWords + 8) holds all of them
      // (and up to 7 past the end, which it does not read). One operand at
      // `p` itself: a second one for the last word would cost a `lea`.
      : [len] "r"(len), [p] "r"(p), [k] "n"(kWords), "c"(shift),
        "m"(*reinterpret_cast<const uint8_t(*)[8 * kWords + 8]>(p))
      : "cc");
  return static_cast<uint16_t>(acc);
#else
  WideSum s = {acc, 0};
  AddWord(s, DropLeadingBytes(LoadNative64(p + len - 8), shift & 63));
  for (int i = 0; i < kWords; ++i) AddWord(s, LoadNative64(p + 8 * i));
  return FinishShort(Native(s));
#endif
}

// SumHalfWordsShort returns the SumFn result for `acc`, a native
// accumulator, plus data[0, len), 4 <= len <= 8: the first 4 bytes, then
// the last 4 with the ones already counted shifted out. `shift` is
// TailShift(len).
IPSUM_KERNEL_INLINE uint16_t SumHalfWordsShort(const uint8_t* p, size_t len,
                                               uint64_t acc, uint32_t shift) {
#if IPSUM_SHORT_ASM
  // As SumWordsShort, in 32 bits: `acc` is below 2^24, so the end-around
  // sum of it and the two 4-byte words fits one 32-bit register, and only
  // the second fold step is left, on 32 bits, its result in the top 16
  // bits, which bswap32 moves down and swaps.
  uint32_t tail;
  uint32_t acc32 = static_cast<uint32_t>(acc);
  __asm__(
      "movl -4(%[p],%[len]), %[tail]\n\t"
      "shrq %%cl, %q[tail]\n\t"
      "addl (%[p]), %[acc]\n\t"
      "adcl %[tail], %[acc]\n\t"
      "adcl $0, %[acc]\n\t"
      "movl %[acc], %[tail]\n\t"
      "roll $16, %[tail]\n\t"
      "addl %[tail], %[acc]\n\t"
      "bswapl %[acc]"
      : [acc] "+&r"(acc32), [tail] "=&r"(tail)
      : [len] "r"(len), [p] "r"(p), "c"(shift),
        "m"(*reinterpret_cast<const uint8_t(*)[8]>(p))
      : "cc");
  return static_cast<uint16_t>(acc32);
#else
  const uint64_t tail =
      DropLeadingBytes(uint64_t{LoadNative32(p + len - 4)}, shift & 63) &
      0xffffffff;
  return FinishShort(acc + LoadNative32(p) + tail);
#endif
}

// SumTinyShort returns the SumFn result for `acc`, a native accumulator,
// plus data[0, len), len < 4: a 2-byte load and a byte.
IPSUM_KERNEL_INLINE uint16_t SumTinyShort(const uint8_t* p, size_t len,
                                          uint64_t acc) {
  // A lone byte at an even offset is the high-order byte of a big-endian
  // word (RFC 1071 4.1): the low byte of a little-endian one.
  const unsigned odd_shift = kHostIsBigEndian ? 8 : 0;
  if (len >= 2) {
    const uint64_t third = len == 3 ? uint64_t{p[2]} << odd_shift : 0;
    return FinishShort(acc + LoadNative16(p) + third);
  }
  return FinishShort(len == 1 ? acc + (uint64_t{p[0]} << odd_shift) : acc);
}

// SumShortOr returns the SumFn result for data[0, len) and `initial`:
// summed inline when len < kLimit (kShortLimit, or one more to take 64
// bytes into the last class), else `long_sum(p, len, initial)`.
// The test for long inputs is part of the size-class tree, not a compare in
// front of every short one. The tree is shaped for the taken branches as
// much as for its depth: a taken branch ends a fetch group, and in a sum this
// short each one shows. The [[likely]] and [[unlikely]] marks lay it out so
// that 9..16 (Ethernet headers) runs straight through, 4..8 (UDP headers) and
// 33..40 (TCP/IPv4 and IPv6 headers) take one branch, 17..24 (IPv4 headers),
// 25..32 and 57..63 two, 41..56 three; the long test comes last, since
// moving it ahead slows the header sizes more than it speeds 64 bytes.
template <size_t kLimit = kShortLimit, typename LongSum>
IPSUM_KERNEL_INLINE uint16_t SumShortOr(const uint8_t* p, size_t len,
                                        uint16_t initial, LongSum long_sum) {
  static_assert(kLimit == kShortLimit || kLimit == kShortLimit + 1);
  const uint64_t acc = InitialNative(initial);
  const uint32_t shift = TailShift(len);
  if (len <= 16) [[likely]] {
    if (len > 8) [[likely]]
      return SumWordsShort<1>(p, len, acc, shift);
    if (len >= 4) [[likely]]
      return SumHalfWordsShort(p, len, acc, shift);
    return SumTinyShort(p, len, acc);
  }
  if (len <= 40) [[likely]] {
    if (len <= 24) [[unlikely]]
      return SumWordsShort<2>(p, len, acc, shift);
    if (len <= 32) [[unlikely]]
      return SumWordsShort<3>(p, len, acc, shift);
    return SumWordsShort<4>(p, len, acc, shift);
  }
  if (len < kLimit) {
    if (len <= 48) [[unlikely]]
      return SumWordsShort<5>(p, len, acc, shift);
    if (len <= 56) [[unlikely]]
      return SumWordsShort<6>(p, len, acc, shift);
    return SumWordsShort<7>(p, len, acc, shift);
  }
  return long_sum(p, len, initial);
}

// SumPiecesScalar is a SumPiecesFn (impl.h) built on `kPieceNative`, which
// returns a native accumulator of p[0, len), positions counted from p: the
// accumulators of the pieces are placed by the parity of their offsets
// (PlaceNative) and added into one, which is folded and swapped once.
template <uint64_t (*kPieceNative)(const uint8_t* p, size_t len)>
IPSUM_KERNEL_INLINE uint16_t
SumPiecesScalar(const std::span<const uint8_t>* pieces, size_t count,
                size_t stride, uint16_t initial) {
  uint64_t acc = 0;
  size_t odd = 0;
  for (size_t i = 0; i < count; ++i) {
    const std::span<const uint8_t> piece = PieceAt(pieces, i, stride);
    const size_t len = piece.size();
    acc = AddEndAround(acc, PlaceNative(kPieceNative(piece.data(), len), odd));
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
