// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// What the AVX-512 kernels (x86_avx512_sum.cc, x86_avx512_copy.cc,
// x86_avx512_pieces.cc) share: the loads and masks, the two accumulators
// (Lanes for a few vectors, Wide for the 512-byte loop) and their
// reductions. The data is read as 64-bit lanes in native (little-endian)
// order; RFC 1071 section 2(B) lets a little-endian host add the words as
// loaded and byte-swap the folded 16-bit result once. Why Wide's lane sums
// and top-word estimates give the exact sum, and the bound kMaxBlocks keeps,
// is proved once in docs/design.md ("The carry bound of the vector sums").
//
// Only files built with -mavx512f -mavx512bw -mbmi2 include it. Not API.

#ifndef IPSUM_CHECKSUM_INTERNAL_X86_AVX512_ACCUMULATOR_H_
#define IPSUM_CHECKSUM_INTERNAL_X86_AVX512_ACCUMULATOR_H_

#if defined(__x86_64__)

#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "checksum/internal/native_sum.h"

namespace ipsum::checksum::internal::avx512 {

// kShort: inputs and pieces shorter than this take native_sum.h's scalar
// path.
inline constexpr size_t kShort = 64;
// kVector is the bytes of one vector, kBlock the bytes of one step of the
// loop (eight vectors).
inline constexpr size_t kVector = 64;
inline constexpr size_t kBlock = 512;
// kMaxBlocks bounds the blocks added to one Wide before it is reduced, so
// that its estimate is within 2^63 of the exact sum (docs/design.md).
inline constexpr size_t kMaxBlocks = 320;

// Load reads 64 unaligned bytes into a register. The empty asm pins the
// value in that register, so that the compiler does not fold the load into
// the add as a memory operand and load the same bytes again for the
// average: loads are the loop's bottleneck.
[[gnu::always_inline]] inline __m512i Load(const uint8_t* p) {
  __m512i x = _mm512_loadu_si512(p);
  __asm__("" : "+v"(x));
  return x;
}

// LoadMasked reads the bytes of the 64 at p that `k` selects and zeroes the
// others; a byte not selected is not read (no fault, no sanitizer report).
[[gnu::always_inline]] inline __m512i LoadMasked(const uint8_t* p,
                                                 __mmask64 k) {
  return _mm512_maskz_loadu_epi8(k, p);
}

[[gnu::always_inline]] inline void Store(uint8_t* p, __m512i x) {
  _mm512_storeu_si512(p, x);
}

// StoreMasked writes the bytes of x that `k` selects to p; nothing else.
[[gnu::always_inline]] inline void StoreMasked(uint8_t* p, __mmask64 k,
                                               __m512i x) {
  _mm512_mask_storeu_epi8(p, k, x);
}

// FirstBytes returns the mask of the first n <= 64 bytes of a vector (bzhi
// leaves all 64 bits for n = 64).
[[gnu::always_inline]] inline __mmask64 FirstBytes(size_t n) {
  return _bzhi_u64(~uint64_t{0}, static_cast<unsigned>(n));
}

// LastVectorBytes returns the mask of the bytes of a length-`len` input
// (len > 0) that fall in its last vector when its vectors start at its
// first byte: the first 1..64 bytes (shrx takes the count modulo 64).
[[gnu::always_inline]] inline __mmask64 LastVectorBytes(size_t len) {
  return ~uint64_t{0} >> ((0 - len) & 63);
}

// BaseOffset returns how many bytes p lies past the 64-byte boundary at or
// before it.
[[gnu::always_inline]] inline size_t BaseOffset(const void* p) {
  return reinterpret_cast<uintptr_t>(p) & (kVector - 1);
}

// U64x8 is eight 64-bit lanes as a GCC/Clang vector type: shifts, rotations
// and horizontal sums written with it compile to the same instructions as
// the intrinsics, without GCC 12's spurious -Wmaybe-uninitialized from the
// intrinsics' undefined pass-through operands.
using U64x8 = uint64_t __attribute__((vector_size(64)));
using U64x4 = uint64_t __attribute__((vector_size(32)));
using U64x2 = uint64_t __attribute__((vector_size(16)));

[[gnu::always_inline]] inline __m512i ShiftRight(__m512i x, int n) {
  return reinterpret_cast<__m512i>(reinterpret_cast<U64x8>(x) >> n);
}

[[gnu::always_inline]] inline __m512i ShiftLeft(__m512i x, int n) {
  return reinterpret_cast<__m512i>(reinterpret_cast<U64x8>(x) << n);
}

// RotateLanes returns x with every 64-bit lane rotated left by n bits
// (0 <= n < 64), i.e. multiplied by 2^n modulo 2^64 - 1. By 8 it places a
// piece at an odd offset of the stream (RFC 1071 section 2(B)).
[[gnu::always_inline]] inline __m512i RotateLanes(__m512i x, int n) {
  const U64x8 v = reinterpret_cast<U64x8>(x);
  return reinterpret_cast<__m512i>((v << n) | (v >> ((64 - n) & 63)));
}

// HorizontalSum returns the sum of the eight lanes of x modulo 2^64.
[[gnu::always_inline]] inline uint64_t HorizontalSum(__m512i x) {
  const U64x8 v = reinterpret_cast<U64x8>(x);
  const U64x4 s4 = __builtin_shufflevector(v, v, 0, 1, 2, 3) +
                   __builtin_shufflevector(v, v, 4, 5, 6, 7);
  const U64x2 s2 = __builtin_shufflevector(s4, s4, 0, 1) +
                   __builtin_shufflevector(s4, s4, 2, 3);
  return s2[0] + s2[1];
}

// HalveTwice returns two lanes that add up to the sum of x's eight lanes
// modulo 2^64: the first two steps of a horizontal sum, the last left to
// scalar registers. The high halves by intrinsic (GCC writes HorizontalSum's
// halving as vshufi64x2 and vpermq, of longer latency than vextracti64x4 and
// vextracti128), the low halves with the vector type (no instruction).
[[gnu::always_inline]] inline U64x2 HalveTwice(__m512i x) {
  const U64x8 v = reinterpret_cast<U64x8>(x);
  const U64x4 s4 = __builtin_shufflevector(v, v, 0, 1, 2, 3) +
                   reinterpret_cast<U64x4>(_mm512_mask_extracti64x4_epi64(
                       _mm256_setzero_si256(), 0xff, x, 1));
  return __builtin_shufflevector(s4, s4, 0, 1) +
         reinterpret_cast<U64x2>(
             _mm256_extracti128_si256(reinterpret_cast<__m256i>(s4), 1));
}

// Lanes accumulates a few vectors: `a`, the lane sums modulo 2^64, and `h`,
// the exact sums of the lanes' high 32-bit halves (docs/design.md, "The
// Lanes method"). Exact while the lanes' low halves sum below 2^64.
struct Lanes {
  __m512i a = _mm512_setzero_si512();
  __m512i h = _mm512_setzero_si512();

  [[gnu::always_inline]] void Add(__m512i x) {
    a = _mm512_add_epi64(a, x);
    h = _mm512_add_epi64(h, ShiftRight(x, 32));
  }

  [[gnu::always_inline]] void Merge(const Lanes& o) {
    a = _mm512_add_epi64(a, o.a);
    h = _mm512_add_epi64(h, o.h);
  }

  // Native returns a native accumulator of everything added: per lane the
  // exact L = a - h * 2^32 and h, each split into 32-bit halves and summed
  // (below 2^34 per lane), then across the lanes: exact, below 2^37.
  [[gnu::always_inline]] uint64_t Native() const {
    const __m512i l = _mm512_sub_epi64(a, ShiftLeft(h, 32));
    const __m512i lo = _mm512_set1_epi64(0xffffffff);
    const __m512i s = _mm512_add_epi64(
        _mm512_add_epi64(_mm512_and_si512(l, lo), ShiftRight(l, 32)),
        _mm512_add_epi64(_mm512_and_si512(h, lo), ShiftRight(h, 32)));
    return HorizontalSum(s);
  }
};

// Wide accumulates the 512-byte loop: `a` + `b`, the lane sums modulo 2^64,
// and `g`, the sums of the lanes' top-word estimates in units of 2^51
// (docs/design.md, "The carry bound of the vector sums"). At most kMaxBlocks
// blocks (AddBlock or AddVector calls) may be added to one Wide.
struct Wide {
  __m512i a = _mm512_setzero_si512();
  __m512i b = _mm512_setzero_si512();
  __m512i g = _mm512_setzero_si512();

  // AddBlock adds eight vectors (any of them zero: a partial block obeys
  // the bound of a full one): into the lane sums as two trees of four, and
  // their top words averaged in a tree into `g`.
  [[gnu::always_inline]] void AddBlock(__m512i t0, __m512i t1, __m512i t2,
                                       __m512i t3, __m512i t4, __m512i t5,
                                       __m512i t6, __m512i t7) {
    const __m512i r0 = _mm512_avg_epu16(t0, t1);
    const __m512i r1 = _mm512_avg_epu16(t2, t3);
    const __m512i r2 = _mm512_avg_epu16(t4, t5);
    const __m512i r3 = _mm512_avg_epu16(t6, t7);
    a = _mm512_add_epi64(a, _mm512_add_epi64(_mm512_add_epi64(t0, t1),
                                             _mm512_add_epi64(t2, t3)));
    b = _mm512_add_epi64(b, _mm512_add_epi64(_mm512_add_epi64(t4, t5),
                                             _mm512_add_epi64(t6, t7)));
    const __m512i r =
        _mm512_avg_epu16(_mm512_avg_epu16(r0, r1), _mm512_avg_epu16(r2, r3));
    g = _mm512_add_epi64(g, ShiftRight(r, 48));
  }

  // AddVector adds one vector as a block of its own: into a lane sum, and
  // its lanes' values in units of 2^51, rounded down, into `g`.
  [[gnu::always_inline]] void AddVector(__m512i x) {
    a = _mm512_add_epi64(a, x);
    g = _mm512_add_epi64(g, ShiftRight(x, 51));
  }

  // Native returns the exact sum T of everything added as a native
  // accumulator, T modulo 2^64 - 1: with T' = 2^51 G and d = A - T' modulo
  // 2^64 read as signed (|d| < 2^63), T = T' + d. Its low 64 bits are A, its
  // high ones those of T' plus the carry out of the low ones, minus one if
  // d < 0. Zero only if T is, i.e. only for all-zero data.
  [[gnu::always_inline]] uint64_t Native() const {
    // Both horizontal sums at once: [a0 + a1, g0 + g1, a2 + a3, ...], then
    // across the four pairs.
    const U64x8 x = reinterpret_cast<U64x8>(_mm512_add_epi64(a, b));
    const U64x8 y = reinterpret_cast<U64x8>(g);
    const U64x8 s8 = __builtin_shufflevector(x, y, 0, 8, 2, 10, 4, 12, 6, 14) +
                     __builtin_shufflevector(x, y, 1, 9, 3, 11, 5, 13, 7, 15);
    const U64x4 s4 = __builtin_shufflevector(s8, s8, 0, 1, 2, 3) +
                     __builtin_shufflevector(s8, s8, 4, 5, 6, 7);
    const U64x2 s2 = __builtin_shufflevector(s4, s4, 0, 1) +
                     __builtin_shufflevector(s4, s4, 2, 3);
    const uint64_t sum_a = s2[0];
    const uint64_t sum_g = s2[1];
    const uint64_t est_lo = sum_g << 51;  // sum_g < 2^28: T' < 2^79.
    const uint64_t d = sum_a - est_lo;
    const uint64_t hi = (sum_g >> 13) + (sum_a < est_lo) - (d >> 63);
    return AddEndAround(sum_a, hi);
  }
};

// SumsOfAAndG returns A and G, the sums of `w`'s lane sums and estimates
// across the lanes, modulo 2^64: both horizontal sums side by side.
[[gnu::always_inline]] inline std::pair<uint64_t, uint64_t> SumsOfAAndG(
    const Wide& w) {
  const U64x2 a2 = HalveTwice(_mm512_add_epi64(w.a, w.b));
  const U64x2 g2 = HalveTwice(w.g);
  return {a2[0] + a2[1], g2[0] + g2[1]};
}

// ReduceShortChain returns a value congruent modulo 0xffff to T, the exact
// sum of everything added to `w`, plus `extra` (below 2^34): below 2^53 and
// zero only if both are. A shorter chain of dependent operations after the
// last add than Wide::Native, for sums whose caller waits on the result
// (docs/design.md, "Reducing a Wide").
[[gnu::always_inline]] inline uint64_t ReduceShortChain(const Wide& w,
                                                        uint64_t extra) {
  const auto [sum_a, sum_g] = SumsOfAAndG(w);
  const uint64_t d = sum_a - (sum_g << 51);
  const uint64_t q = static_cast<uint64_t>(static_cast<int64_t>(d) >> 51);
  return ((d & ((uint64_t{1} << 51) - 1)) + extra) + 8 * (sum_g + q);
}

// ReduceCarries is ReduceShortChain by way of the carries A dropped, read
// from G: below 2^35 with `extra` below 2^32, zero only if T and extra are.
// Shorter still after G's horizontal sum; the fused copy's stores wait on
// it (docs/design.md, "Reducing a Wide").
[[gnu::always_inline]] inline uint64_t ReduceCarries(const Wide& w,
                                                     uint64_t extra) {
  const auto [sum_a, sum_g] = SumsOfAAndG(w);
  const uint64_t k = (sum_g + (4096 - (sum_a >> 51))) >> 13;
  return ((sum_a & 0xffffffff) + (sum_a >> 32) + extra) + k;
}

// Halved folds a ReduceShortChain result to below 2^34, the same value
// modulo 0xffff (2^32 == 1), zero only if it was: an `extra` for the next.
[[gnu::always_inline]] inline uint64_t Halved(uint64_t acc) {
  return (acc & 0xffffffff) + (acc >> 32);
}

// AddBlocks adds the `blocks` (> 0) 512-byte blocks at p to `w`, each lane
// rotated left by kRotate bits (0, or 8 for a piece at an odd offset of the
// stream), and advances p past them.
template <int kRotate = 0>
[[gnu::always_inline]] inline void AddBlocks(const uint8_t*& p, size_t blocks,
                                             Wide& w) {
  const uint8_t* const end = p + blocks * kBlock;
  if constexpr (kRotate == 0) {
    // Wide::AddBlock per block, in assembly: measured faster than intrinsics.
    __m512i t0, t1, t2, t3, t4, t5, t6, t7, r0, r1, r2, r3;
    __asm__(
        "1:\n\t"
        "vmovdqu64 (%[p]), %[t0]\n\t"
        "vmovdqu64 64(%[p]), %[t1]\n\t"
        "vmovdqu64 128(%[p]), %[t2]\n\t"
        "vmovdqu64 192(%[p]), %[t3]\n\t"
        "vmovdqu64 256(%[p]), %[t4]\n\t"
        "vmovdqu64 320(%[p]), %[t5]\n\t"
        "vmovdqu64 384(%[p]), %[t6]\n\t"
        "vmovdqu64 448(%[p]), %[t7]\n\t"
        "vpavgw %[t1], %[t0], %[r0]\n\t"
        "vpavgw %[t3], %[t2], %[r1]\n\t"
        "vpavgw %[t5], %[t4], %[r2]\n\t"
        "vpavgw %[t7], %[t6], %[r3]\n\t"
        "vpaddq %[t1], %[t0], %[t0]\n\t"
        "vpaddq %[t3], %[t2], %[t2]\n\t"
        "vpaddq %[t5], %[t4], %[t4]\n\t"
        "vpaddq %[t7], %[t6], %[t6]\n\t"
        "vpaddq %[t2], %[t0], %[t0]\n\t"
        "vpaddq %[t6], %[t4], %[t4]\n\t"
        "vpaddq %[t0], %[a], %[a]\n\t"
        "vpaddq %[t4], %[b], %[b]\n\t"
        "vpavgw %[r1], %[r0], %[r0]\n\t"
        "vpavgw %[r3], %[r2], %[r2]\n\t"
        "vpavgw %[r2], %[r0], %[r0]\n\t"
        "vpsrlq $48, %[r0], %[r0]\n\t"
        "vpaddq %[r0], %[g], %[g]\n\t"
        "addq $512, %[p]\n\t"
        "cmpq %[end], %[p]\n\t"
        "jb 1b\n\t"
        : [p] "+r"(p), [a] "+v"(w.a), [b] "+v"(w.b), [g] "+v"(w.g),
          [t0] "=&v"(t0), [t1] "=&v"(t1), [t2] "=&v"(t2), [t3] "=&v"(t3),
          [t4] "=&v"(t4), [t5] "=&v"(t5), [t6] "=&v"(t6), [t7] "=&v"(t7),
          [r0] "=&v"(r0), [r1] "=&v"(r1), [r2] "=&v"(r2), [r3] "=&v"(r3)
        : [end] "r"(end)
        : "cc", "memory");
  } else {
    const auto r = [](__m512i x) { return RotateLanes(x, kRotate); };
    do {
      w.AddBlock(r(Load(p)), r(Load(p + 64)), r(Load(p + 128)),
                 r(Load(p + 192)), r(Load(p + 256)), r(Load(p + 320)),
                 r(Load(p + 384)), r(Load(p + 448)));
      p += kBlock;
    } while (p != end);
  }
}

// WithWholeVectors calls f(std::integral_constant<size_t, n>()) with n =
// `whole` (0..7), the count of whole vectors in a partial block before its
// last one: one jump on the count into a copy of f's straight-line code
// per count, so that each size class loads only its own vectors, with no
// branch per vector and no mask but the last one's. Seven, the all but
// full block (449-512 bytes), is tested first and reached without the
// indirect jump: it is the tail of an MTU-sized sum (1500 bytes at any
// offset below 36 from a 64-byte boundary).
template <typename F>
[[gnu::always_inline]] inline void WithWholeVectors(size_t whole, F&& f) {
  using std::integral_constant;
  if (whole == 7) [[likely]] {
    return f(integral_constant<size_t, 7>());
  }
  switch (whole) {
    case 0:
      return f(integral_constant<size_t, 0>());
    case 1:
      return f(integral_constant<size_t, 1>());
    case 2:
      return f(integral_constant<size_t, 2>());
    case 3:
      return f(integral_constant<size_t, 3>());
    case 4:
      return f(integral_constant<size_t, 4>());
    case 5:
      return f(integral_constant<size_t, 5>());
    case 6:
      return f(integral_constant<size_t, 6>());
    default:
      __builtin_unreachable();
  }
}

// LoadPartialBlock loads the `len` bytes at p, 1 <= len <= kBlock, as a
// block of eight vectors, kWhole = (len - 1) / kVector being the count of
// whole vectors before the last: those into t[0..kWhole), zero vectors
// after them, the last 1..64 bytes masked into t[7] (a sum does not depend
// on a vector's place in the block). Reads only those bytes. `copy_to`,
// when not null, receives the same bytes at the same offsets (the last
// vector by a masked store), for the fused copy.
template <size_t kWhole>
[[gnu::always_inline]] inline void LoadPartialBlock(const uint8_t* p,
                                                    size_t len,
                                                    uint8_t* copy_to,
                                                    __m512i (&t)[8]) {
  static_assert(kWhole < 8);
  const auto load = [&](size_t i) __attribute__((always_inline)) {
    t[i] = _mm512_setzero_si512();
    if (i < kWhole) {
      t[i] = Load(p + i * kVector);
      if (copy_to != nullptr) Store(copy_to + i * kVector, t[i]);
    }
  };
  load(0), load(1), load(2), load(3), load(4), load(5), load(6);
  const __mmask64 k = LastVectorBytes(len);
  t[7] = LoadMasked(p + kWhole * kVector, k);
  if (copy_to != nullptr) StoreMasked(copy_to + kWhole * kVector, k, t[7]);
}

// AddPartialBlockOf adds the `len` bytes at p, 1 <= len <= kBlock and
// kWhole = (len - 1) / kVector, to `w` as one block (LoadPartialBlock),
// each lane rotated left by kRotate bits: one tree of adds rather than a
// chain of AddVector calls, which the result would wait on; a lone vector
// by AddVector. `copy_to` as for LoadPartialBlock.
template <size_t kWhole, int kRotate>
[[gnu::always_inline]] inline void AddPartialBlockOf(const uint8_t* p,
                                                     size_t len,
                                                     uint8_t* copy_to,
                                                     Wide& w) {
  __m512i t[8];
  LoadPartialBlock<kWhole>(p, len, copy_to, t);
  const auto r = [](__m512i x) { return RotateLanes(x, kRotate); };
  if constexpr (kWhole == 0) {
    w.AddVector(r(t[7]));  // One vector: no tree to build, the same bound.
  } else {
    w.AddBlock(r(t[0]), r(t[1]), r(t[2]), r(t[3]), r(t[4]), r(t[5]), r(t[6]),
               r(t[7]));
  }
}

// AddPartialBlock is AddPartialBlockOf for any 1 <= len <= kBlock: the
// tail of the sum, the copy and every piece.
template <int kRotate = 0>
[[gnu::always_inline]] inline void AddPartialBlock(const uint8_t* p, size_t len,
                                                   uint8_t* copy_to, Wide& w) {
  WithWholeVectors(
      (len - 1) / kVector, [&](auto whole) __attribute__((always_inline)) {
        AddPartialBlockOf<decltype(whole)::value, kRotate>(p, len, copy_to, w);
      });
}

// SumAligned returns the native accumulator, positions counted from `base`
// (64-byte aligned), of base[off, off + len): off < 64, len >= kBlock.
// Reads only those bytes. Defined in x86_avx512_sum.cc.
uint64_t SumAligned(const uint8_t* base, size_t off, size_t len);

}  // namespace ipsum::checksum::internal::avx512

#endif  // defined(__x86_64__)

#endif  // IPSUM_CHECKSUM_INTERNAL_X86_AVX512_ACCUMULATOR_H_
