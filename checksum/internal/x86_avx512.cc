// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// The x86-64 AVX-512 (F, BW) implementation. The data is read as 64-bit lanes
// in native (little-endian) order; RFC 1071 section 2(B) lets a little-endian
// host add the words as loaded and byte-swap the folded 16-bit result once.
//
// Long inputs: the 512-byte loop, x86_avx2.cc's method on 512-bit vectors. Per
// 64-bit lane it keeps A, the lane sums modulo 2^64 (two halves `a` and `b`,
// each fed by a tree of four vectors), and G, the vpavgw estimates of the
// lanes' top 16-bit words, which tell how many carries A dropped: 17 vector
// operations per eight loads. Why A and G give the exact sum, and the bound
// that kMaxBlocks keeps, is proved in docs/design.md ("The carry bound").
//
// Alignment without scalar code: a long input is summed as the 64-byte
// aligned vectors that cover it, counted from `base`, the 64-byte boundary at
// or before its start. The first vector is a masked load that zeroes the
// bytes before the input, the last ones masked loads that zero the bytes
// after its end (a masked-out byte is never read: the loads suppress faults
// there). Every byte keeps its word position relative to `base`; if the input
// starts at an odd distance from it, the sum is swapped once at the end.
// CopySum does the same relative to the destination's boundary (aligned
// stores) and writes the head and tail with masked stores, which write
// nothing outside dst[0, len).
//
// Size classes: below 64 bytes the scalar path of native_sum.h; 64 to 255
// bytes SumMedium (one to four unaligned vectors, carry-save adders); 256 to
// 511 SumSmall (unaligned vectors, the Lanes method: a lane sum modulo 2^64 and
// the exact sum of the high 32-bit halves H, L = A - H * 2^32, the sum L + H
// since 2^32 == 1 (mod 0xffff)); from 512 on the aligned loop. In SumPieces
// one Wide is shared by all the pieces, and a piece below kPieceAlignFrom is
// added to it as unaligned blocks with no reduction of its own. Only this file
// is built with the AVX-512 flags (-mavx512f -mavx512bw, -mbmi2 for bzhi).

#include "checksum/internal/x86_avx512.h"

#if defined(__x86_64__)

#include <immintrin.h>

#include <bit>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "checksum/internal/native_sum.h"
#include "checksum/internal/x86_cache.h"

namespace ipsum::checksum::internal {
namespace {

// kShort: below this length the scalar path is used.
constexpr size_t kShort = 64;
// kMediumEnd: inputs of kShort to kMediumEnd - 1 bytes (one to four
// vectors) take SumMedium.
constexpr size_t kMediumEnd = 256;
// kAlignFrom: from this length on, the aligned 512-byte loop runs (in
// SumPieces from kPieceAlignFrom on); shorter inputs take SumSmall/CopySmall.
constexpr size_t kAlignFrom = 512;
// kPieceAlignFrom: in SumPieces, from this length on a piece takes the
// aligned loop and is reduced on its own; shorter ones (from kShort) are
// added as whole unaligned blocks and a last partial one (AddPiece) to the
// one Wide shared by all the pieces. A packet's views are mostly below this
// length, and as pieces of their own each would pay SumAligned's reduction
// and placement.
constexpr size_t kPieceAlignFrom = 2048;
// kSevenFrom: in SumPieces, two or three pieces of kSevenFrom to kBlock
// bytes each take AddPieceBlock7, seven whole vectors and a masked one.
constexpr size_t kSevenFrom = 7 * 64 + 1;
// kLongFrom: from this length on, CopySum goes through CopyLong, which
// splits a copy by the L1 data cache's size (X86L1DataCacheBytes, at least
// 32 KiB); below it, and below half the L1 in CopyLong, the fused 512-byte
// loop copies all (CopyMedium), up to kFusedMax bytes.
constexpr size_t kLongFrom = (size_t{32} << 10) / 2 + 512;
constexpr size_t kFusedMax = (size_t{48} << 10) + 512;
// kMovsbChunk: CopyChunked copies this many bytes at a time with `rep
// movsb` and sums each chunk's source right after it, while it is in L1.
constexpr size_t kMovsbChunk = size_t{16} << 10;
// kVector is the bytes of one vector, kBlock the bytes one step of the loop
// reads (eight vectors).
constexpr size_t kVector = 64;
constexpr size_t kBlock = 512;
// kMaxBlocks bounds the blocks added to one Wide before it is reduced, so
// that its estimate is within 2^63 of the exact sum (docs/design.md, "The
// carry bound").
constexpr size_t kMaxBlocks = 320;
// kChunkBlocks bounds the blocks of one run of the loop: with the first
// (head-masked) block and the tail's at most eight single vectors, one Wide
// holds at most kChunkBlocks + 9 <= kMaxBlocks.
constexpr size_t kChunkBlocks = 256;
static_assert(kChunkBlocks + 9 <= kMaxBlocks);

// Load reads 64 unaligned bytes into a register. The empty asm pins the
// value in that register: without it the compiler may fold the load into
// the add as a memory operand and load the same bytes a second time for the
// average, doubling the loads per byte, which are the bottleneck.
[[gnu::always_inline]] inline __m512i Load(const uint8_t* p) {
  __m512i x = _mm512_loadu_si512(p);
  __asm__("" : "+v"(x));
  return x;
}

// U64x8 is eight 64-bit lanes as a GCC/Clang vector type: shifts and
// horizontal sums written with it compile to the same instructions as the
// intrinsics, without GCC 12's spurious -Wmaybe-uninitialized warnings from
// the intrinsics' undefined pass-through operands.
using U64x8 = uint64_t __attribute__((vector_size(64)));
using U64x4 = uint64_t __attribute__((vector_size(32)));
using U64x2 = uint64_t __attribute__((vector_size(16)));

[[gnu::always_inline]] inline __m512i ShiftRight(__m512i x, int n) {
  return reinterpret_cast<__m512i>(reinterpret_cast<U64x8>(x) >> n);
}

[[gnu::always_inline]] inline __m512i ShiftLeft(__m512i x, int n) {
  return reinterpret_cast<__m512i>(reinterpret_cast<U64x8>(x) << n);
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

// BaseOffset returns how many bytes p lies past the 64-byte boundary at or
// before it.
[[gnu::always_inline]] inline size_t BaseOffset(const void* p) {
  return reinterpret_cast<uintptr_t>(p) & (kVector - 1);
}

// Lanes holds one pair of accumulators: `a`, the lane sums modulo 2^64, and
// `h`, the exact sums of the lanes' high 32-bit halves.
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
  // (below 2^34 per lane) and then across the eight lanes, exact, below
  // 2^37.
  [[gnu::always_inline]] uint64_t Native() const {
    const __m512i l = _mm512_sub_epi64(a, ShiftLeft(h, 32));
    const __m512i lo = _mm512_set1_epi64(0xffffffff);
    const __m512i s = _mm512_add_epi64(
        _mm512_add_epi64(_mm512_and_si512(l, lo), ShiftRight(l, 32)),
        _mm512_add_epi64(_mm512_and_si512(h, lo), ShiftRight(h, 32)));
    return HorizontalSum(s);
  }
};

// Wide holds the accumulators of the 512-byte loop (see the top of this
// file): `a` + `b`, the lane sums modulo 2^64, and `g`, the sums of the
// lanes' top-word estimates, in units of 2^51. At most kMaxBlocks blocks
// may be added to one Wide.
struct Wide {
  __m512i a = _mm512_setzero_si512();
  __m512i b = _mm512_setzero_si512();
  __m512i g = _mm512_setzero_si512();

  // AddBlock adds eight vectors: each into a lane sum, their top words
  // averaged in a tree into `g`.
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
  // its lanes' values in units of 2^51, rounded down, into `g`. For one
  // lane, 0 <= c - e < 2^51, within the bound of a block.
  [[gnu::always_inline]] void AddVector(__m512i x) {
    a = _mm512_add_epi64(a, x);
    g = _mm512_add_epi64(g, ShiftRight(x, 51));
  }

  // Native returns the exact sum T of everything added as a native
  // accumulator: T modulo 2^64 - 1, end-around carry. T = T' + d with T' =
  // 2^51 G and d = A - T' modulo 2^64 read as signed (|d| < 2^63); its low
  // 64 bits are A, its high ones those of T' plus the carry out of the low
  // ones, minus one if d < 0. Zero only if T is, i.e. only for all-zero data.
  [[gnu::always_inline]] uint64_t Native() const {
    // Both horizontal sums at once: [a0 + a1, g0 + g1, a2 + a3, g2 + g3,
    // ...] and then across the four pairs.
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

// HalveTwice returns two lanes that add up to the sum of x's eight lanes
// modulo 2^64 (lane i: lanes i, i + 2, i + 4 and i + 6 of x): the first two
// steps of a horizontal sum, the last left to scalar registers. The high
// halves by intrinsic, because GCC writes the halving with the vector type
// alone (HorizontalSum) as vshufi64x2 and vpermq, of longer latency than
// vextracti64x4 and vextracti128. The low halves with the vector type (no
// instruction): _mm512_castsi512_si256 has an undefined operand that draws
// GCC 12's spurious warning.
[[gnu::always_inline]] inline U64x2 HalveTwice(__m512i x) {
  const U64x8 v = reinterpret_cast<U64x8>(x);
  const U64x4 s4 = __builtin_shufflevector(v, v, 0, 1, 2, 3) +
                   reinterpret_cast<U64x4>(_mm512_mask_extracti64x4_epi64(
                       _mm256_setzero_si256(), 0xff, x, 1));
  return __builtin_shufflevector(s4, s4, 0, 1) +
         reinterpret_cast<U64x2>(
             _mm256_extracti128_si256(reinterpret_cast<__m256i>(s4), 1));
}

// ReduceShortChain returns a value congruent modulo 0xffff to T, the exact
// sum of everything added to `w`, plus `extra` (below 2^34): below 2^53, and
// zero only if both are. Unlike Wide::Native it does not form T modulo
// 2^64 - 1, which gives it a shorter chain of dependent operations after the
// last add: A's and G's horizontal sums run side by side, and an arithmetic
// shift of d = A - 2^51 G splits it as 2^51 q + r, so T == 8 (G + q) + r. The
// derivation is in docs/design.md ("Reducing a Wide").
[[gnu::always_inline]] inline uint64_t ReduceShortChain(const Wide& w,
                                                        uint64_t extra) {
  const U64x2 a2 = HalveTwice(_mm512_add_epi64(w.a, w.b));
  const U64x2 g2 = HalveTwice(w.g);
  const uint64_t sum_a = a2[0] + a2[1];
  const uint64_t sum_g = g2[0] + g2[1];
  const uint64_t d = sum_a - (sum_g << 51);
  const uint64_t q = static_cast<uint64_t>(static_cast<int64_t>(d) >> 51);
  return ((d & ((uint64_t{1} << 51) - 1)) + extra) + 8 * (sum_g + q);
}

// ReduceCarries returns a native accumulator congruent to T modulo 0xffff,
// below 2^35 and zero only if T is, with `extra` (below 2^32) added off the
// chain. It reads the carries A dropped from G directly, k = (G - (A >> 51) +
// 4096) >> 13, which needs |A - 2^51 G| < 4095 * 2^51 (true of any Wide of at
// most kMaxBlocks blocks), and T == A's two 32-bit halves + k: three
// operations after G's horizontal sum, where ReduceShortChain has five.
// CopyMedium uses it (its stores wait on the chain); docs/design.md
// ("Reducing a Wide") has the derivation.
[[gnu::always_inline]] inline uint64_t ReduceCarries(const Wide& w,
                                                     uint64_t extra) {
  const U64x2 a2 = HalveTwice(_mm512_add_epi64(w.a, w.b));
  const U64x2 g2 = HalveTwice(w.g);
  const uint64_t sum_a = a2[0] + a2[1];
  const uint64_t sum_g = g2[0] + g2[1];
  const uint64_t k = (sum_g + (4096 - (sum_a >> 51))) >> 13;
  return ((sum_a & 0xffffffff) + (sum_a >> 32) + extra) + k;
}

// The assembly text of Wide::AddBlock on one 512-byte block at %[p], shared
// by AddBlocks and CopyAddBlocks (whose loops differ only in the stores):
// the eight loads into t0..t7, their stores to %[d], and the two trees of
// adds (A and B take the words, G the averages' top words; see the top of
// this file). Operands: p, d, a, b, g, t0..t7, r0..r3.
// IPSUM_AVX512_LOAD_BLOCK_AT(A) loads the block at the address operand A,
// an assembly text such as "(%[p])" or "(%[q],%[stride])".
#define IPSUM_AVX512_LOAD_BLOCK_AT(A) \
  "vmovdqu64 " A ", %[t0]\n\t"        \
  "vmovdqu64 64" A ", %[t1]\n\t"      \
  "vmovdqu64 128" A ", %[t2]\n\t"     \
  "vmovdqu64 192" A ", %[t3]\n\t"     \
  "vmovdqu64 256" A ", %[t4]\n\t"     \
  "vmovdqu64 320" A ", %[t5]\n\t"     \
  "vmovdqu64 384" A ", %[t6]\n\t"     \
  "vmovdqu64 448" A ", %[t7]\n\t"
#define IPSUM_AVX512_LOAD_BLOCK IPSUM_AVX512_LOAD_BLOCK_AT("(%[p])")

#define IPSUM_AVX512_STORE_BLOCK   \
  "vmovdqa64 %[t0], (%[d])\n\t"    \
  "vmovdqa64 %[t1], 64(%[d])\n\t"  \
  "vmovdqa64 %[t2], 128(%[d])\n\t" \
  "vmovdqa64 %[t3], 192(%[d])\n\t" \
  "vmovdqa64 %[t4], 256(%[d])\n\t" \
  "vmovdqa64 %[t5], 320(%[d])\n\t" \
  "vmovdqa64 %[t6], 384(%[d])\n\t" \
  "vmovdqa64 %[t7], 448(%[d])\n\t"

#define IPSUM_AVX512_ADD_BLOCK     \
  "vpavgw %[t1], %[t0], %[r0]\n\t" \
  "vpavgw %[t3], %[t2], %[r1]\n\t" \
  "vpavgw %[t5], %[t4], %[r2]\n\t" \
  "vpavgw %[t7], %[t6], %[r3]\n\t" \
  "vpaddq %[t1], %[t0], %[t0]\n\t" \
  "vpaddq %[t3], %[t2], %[t2]\n\t" \
  "vpaddq %[t5], %[t4], %[t4]\n\t" \
  "vpaddq %[t7], %[t6], %[t6]\n\t" \
  "vpaddq %[t2], %[t0], %[t0]\n\t" \
  "vpaddq %[t6], %[t4], %[t4]\n\t" \
  "vpaddq %[t0], %[a], %[a]\n\t"   \
  "vpaddq %[t4], %[b], %[b]\n\t"   \
  "vpavgw %[r1], %[r0], %[r0]\n\t" \
  "vpavgw %[r3], %[r2], %[r2]\n\t" \
  "vpavgw %[r2], %[r0], %[r0]\n\t" \
  "vpsrlq $48, %[r0], %[r0]\n\t"   \
  "vpaddq %[r0], %[g], %[g]\n\t"

// AddBlocks adds the `blocks` (> 0) 512-byte blocks at p to `w` and
// advances p past them: Wide::AddBlock per block, in assembly so that the
// compiler neither folds a load into an add (and loads the bytes again for
// the average) nor reassociates the two trees of adds into another shape
// (see the top of this file). Always inlined, so that the accumulators stay
// in registers.
[[gnu::always_inline]] inline void AddBlocks(const uint8_t*& p, size_t blocks,
                                             Wide& w) {
  const uint8_t* const end = p + blocks * kBlock;
  __m512i t0, t1, t2, t3, t4, t5, t6, t7, r0, r1, r2, r3;
  __asm__("1:\n\t" IPSUM_AVX512_LOAD_BLOCK IPSUM_AVX512_ADD_BLOCK
          "addq $512, %[p]\n\t"
          "cmpq %[end], %[p]\n\t"
          "jb 1b\n\t"
          : [p] "+r"(p), [a] "+v"(w.a), [b] "+v"(w.b), [g] "+v"(w.g),
            [t0] "=&v"(t0), [t1] "=&v"(t1), [t2] "=&v"(t2), [t3] "=&v"(t3),
            [t4] "=&v"(t4), [t5] "=&v"(t5), [t6] "=&v"(t6), [t7] "=&v"(t7),
            [r0] "=&v"(r0), [r1] "=&v"(r1), [r2] "=&v"(r2), [r3] "=&v"(r3)
          : [end] "r"(end)
          // The loop reads blocks * 512 bytes at p; "memory" says so.
          : "cc", "memory");
}

// AddTail adds the last 1..511 bytes of an aligned sum, the `span` bytes at
// p (64-byte aligned), to `w` as single vectors (at most eight, each
// counted as a block): whole vectors, straight-line code entered at the
// count, then the last 1..64 bytes as a masked one.
[[gnu::always_inline]] inline void AddTail(const uint8_t* p, size_t span,
                                           Wide& w) {
  const size_t whole = (span - 1) / kVector;  // 0..7
  switch (whole) {
    case 7:
      w.AddVector(Load(p + 384));
      [[fallthrough]];
    case 6:
      w.AddVector(Load(p + 320));
      [[fallthrough]];
    case 5:
      w.AddVector(Load(p + 256));
      [[fallthrough]];
    case 4:
      w.AddVector(Load(p + 192));
      [[fallthrough]];
    case 3:
      w.AddVector(Load(p + 128));
      [[fallthrough]];
    case 2:
      w.AddVector(Load(p + 64));
      [[fallthrough]];
    case 1:
      w.AddVector(Load(p));
      [[fallthrough]];
    default:
      break;
  }
  const size_t last = whole * kVector;
  w.AddVector(LoadMasked(p + last, FirstBytes(span - last)));
}

// AddTailBlock adds the last 1..511 bytes of an aligned sum, the `span`
// bytes at p (64-byte aligned), to `w` as one block: its whole vectors, the
// last 1..64 bytes as one masked vector and zero vectors for the rest, within
// the bound of a block like any eight vectors. Unlike AddTail's vectors one by
// one, the adds form a tree rather than a chain of up to eight dependent adds
// into the lane sum, the last thing the result waits on. The adds are
// AddBlocks' assembly text, so that the tree stays a tree.
[[gnu::always_inline]] inline void AddTailBlock(const uint8_t* p, size_t span,
                                                Wide& w) {
  const size_t whole = (span - 1) / kVector;  // 0..7
  const __m512i zero = _mm512_setzero_si512();
  __m512i t0 = zero, t1 = zero, t2 = zero, t3 = zero, t4 = zero, t5 = zero,
          t6 = zero;
  if (whole == 7) [[likely]] {
    // 449..511 bytes, the commonest tail (an MTU-sized input), in straight-line
    // code behind one compare rather than through the switch's jump table.
    t0 = Load(p);
    t1 = Load(p + 64);
    t2 = Load(p + 128);
    t3 = Load(p + 192);
    t4 = Load(p + 256);
    t5 = Load(p + 320);
    t6 = Load(p + 384);
  } else {
    // 0..6 whole vectors (7 took the branch above).
    switch (whole) {
      case 6:
        t5 = Load(p + 320);
        [[fallthrough]];
      case 5:
        t4 = Load(p + 256);
        [[fallthrough]];
      case 4:
        t3 = Load(p + 192);
        [[fallthrough]];
      case 3:
        t2 = Load(p + 128);
        [[fallthrough]];
      case 2:
        t1 = Load(p + 64);
        [[fallthrough]];
      case 1:
        t0 = Load(p);
        [[fallthrough]];
      case 0:
        break;
      default:
        __builtin_unreachable();
    }
  }
  // The last 1..64 bytes: span - last of them, 64 - that = -span modulo 64
  // masked off the top (shrx takes the count modulo 64).
  const size_t last = whole * kVector;
  __m512i t7 = LoadMasked(p + last, ~uint64_t{0} >> ((0 - span) & 63));
  // Wide::AddBlock's operations in AddBlocks' assembly text: written in C++
  // here, GCC merged the switch's cases into chains of dependent adds (up to
  // five in a row into `a`), on the path the result waits for.
  __m512i r0, r1, r2, r3;
  __asm__(IPSUM_AVX512_ADD_BLOCK
          : [a] "+v"(w.a), [b] "+v"(w.b), [g] "+v"(w.g), [t0] "+v"(t0),
            [t1] "+v"(t1), [t2] "+v"(t2), [t3] "+v"(t3), [t4] "+v"(t4),
            [t5] "+v"(t5), [t6] "+v"(t6), [t7] "+v"(t7), [r0] "=&v"(r0),
            [r1] "=&v"(r1), [r2] "=&v"(r2), [r3] "=&v"(r3));
}

// RotateLanes8 rotates every 64-bit lane of x left by 8 bits: multiplies it
// by 2^8 modulo 2^64 - 1, which places a piece at an odd offset of the
// stream (RFC 1071 section 2(B)). Written with the vector type: GCC still
// emits one vprolq, and _mm512_rol_epi64's undefined pass-through draws
// GCC 12's spurious -Wmaybe-uninitialized.
[[gnu::always_inline]] inline __m512i RotateLanes8(__m512i x) {
  const U64x8 v = reinterpret_cast<U64x8>(x);
  return reinterpret_cast<__m512i>((v << 8) | (v >> 56));
}

// AddPieceBlock adds p[0, len), kShort <= len < kBlock, to `w` as one block:
// its whole vectors, its last 0..63 bytes as one masked vector (masked loads
// cost more than plain ones, so only one), zero vectors for the rest (within
// the bound of a block). Positions count from p; with kRotate (a piece at an
// odd offset of the stream) every lane is rotated left by 8 bits first, which
// multiplies it by 2^8 modulo 2^64 - 1 and so places the piece's sum as
// PlaceNative(sum, 1) would (RFC 1071 section 2(B)), one operation per vector
// instead of a Wide of its own to reduce.
template <bool kRotate>
[[gnu::always_inline]] inline void AddPieceBlock(const uint8_t* p, size_t len,
                                                 Wide& w) {
  const size_t whole = len / kVector;  // 1..7
  const __m512i zero = _mm512_setzero_si512();
  __m512i t1 = zero, t2 = zero, t3 = zero, t4 = zero, t5 = zero, t6 = zero;
  if (whole >= 2) t1 = Load(p + 64);
  if (whole >= 3) t2 = Load(p + 128);
  if (whole >= 4) t3 = Load(p + 192);
  if (whole >= 5) t4 = Load(p + 256);
  if (whole >= 6) t5 = Load(p + 320);
  if (whole >= 7) t6 = Load(p + 384);
  const size_t rest = len - whole * kVector;
  const __m512i last = LoadMasked(p + whole * kVector, FirstBytes(rest));
  if constexpr (kRotate) {
    const auto r = RotateLanes8;
    w.AddBlock(r(Load(p)), r(t1), r(t2), r(t3), r(t4), r(t5), r(t6), r(last));
  } else {
    w.AddBlock(Load(p), t1, t2, t3, t4, t5, t6, last);
  }
}

// AddPieceBlock7 adds p[0, len), 7 * kVector < len <= kBlock (449 to 512
// bytes), to `w` as AddPieceBlock does: seven whole vectors and the last
// 1..64 bytes as one masked vector (64 - len modulo 64 masked off the top:
// shrx takes the count modulo 64), in straight-line code with no compare
// per vector. kRotate as for AddPieceBlock.
template <bool kRotate>
[[gnu::always_inline]] inline void AddPieceBlock7(const uint8_t* p, size_t len,
                                                  Wide& w) {
  const __m512i last =
      LoadMasked(p + 7 * kVector, ~uint64_t{0} >> ((0 - len) & 63));
  if constexpr (kRotate) {
    const auto r = RotateLanes8;
    w.AddBlock(r(Load(p)), r(Load(p + 64)), r(Load(p + 128)),
               r(Load(p + 192)), r(Load(p + 256)), r(Load(p + 320)),
               r(Load(p + 384)), r(last));
  } else {
    w.AddBlock(Load(p), Load(p + 64), Load(p + 128), Load(p + 192),
               Load(p + 256), Load(p + 320), Load(p + 384), last);
  }
}

// AddPieceBlock8 adds p[0, len), kBlock < len <= kBlock + kVector (513 to
// 576 bytes), to `w`: one block of eight whole vectors and the last 1..64
// bytes as one masked vector (AddVector). Only SumFewPieces' first piece
// takes it, which is never rotated.
[[gnu::always_inline]] inline void AddPieceBlock8(const uint8_t* p, size_t len,
                                                  Wide& w) {
  const __m512i last =
      LoadMasked(p + kBlock, ~uint64_t{0} >> ((0 - len) & 63));
  w.AddBlock(Load(p), Load(p + 64), Load(p + 128), Load(p + 192),
             Load(p + 256), Load(p + 320), Load(p + 384), Load(p + 448));
  w.AddVector(last);
}

// kPieceMaxBlocks is the most blocks AddPiece adds for one piece: its whole
// blocks (at most three) and one for the rest. SumPieces' straight-line
// path adds up to three pieces to one Wide; its loop reduces the Wide before
// a piece would take it past kMaxBlocks.
constexpr size_t kPieceMaxBlocks = kPieceAlignFrom / kBlock;
static_assert((kPieceAlignFrom - 1) / kBlock + 1 <= kPieceMaxBlocks);
static_assert(3 * kPieceMaxBlocks <= kMaxBlocks);

// AddPiece adds p[0, len), kShort <= len < kPieceAlignFrom, to `w`: up to
// kPieceMaxBlocks blocks, its whole 512-byte blocks as unaligned vectors,
// then the last len % 512 bytes as AddPieceBlock's block (64 bytes or
// more) or one masked vector (fewer). kRotate as for AddPieceBlock: every
// lane rotated left by 8 bits, which places the piece at an odd offset of
// the stream.
template <bool kRotate>
[[gnu::always_inline]] inline void AddPiece(const uint8_t* p, size_t len,
                                            Wide& w) {
  if (len < kBlock) [[likely]] {
    AddPieceBlock<kRotate>(p, len, w);
    return;
  }
  const size_t blocks = len / kBlock;
  if constexpr (kRotate) {
    const auto r = RotateLanes8;
    for (size_t i = 0; i < blocks; ++i, p += kBlock) {
      w.AddBlock(r(Load(p)), r(Load(p + 64)), r(Load(p + 128)),
                 r(Load(p + 192)), r(Load(p + 256)), r(Load(p + 320)),
                 r(Load(p + 384)), r(Load(p + 448)));
    }
  } else {
    AddBlocks(p, blocks, w);
  }
  const size_t rest = len % kBlock;
  if (rest >= kShort) {
    AddPieceBlock<kRotate>(p, rest, w);
  } else if (rest != 0) {
    const __m512i x = LoadMasked(p, FirstBytes(rest));
    w.AddVector(kRotate ? RotateLanes8(x) : x);
  }
}

// kVectorPieceEnd: in SumPiecesLoop, pieces of kShort to kVectorPieceEnd - 1
// bytes take AddPieceVectors, one vector at a time, and longer ones
// AddPiece's blocks of eight.
constexpr size_t kVectorPieceEnd = 4 * kVector;

// AddPieceVectors adds p[0, len), kShort <= len < kVectorPieceEnd, to `w`
// one vector at a time (Wide::AddVector, each a block of its own for the
// bound), the last 0..63 bytes as a masked vector, every lane rotated left by
// `rotate` bits, 0 or 8 (8 places a piece at an odd offset of the stream), an
// operand rather than a second copy of the code. Four vector operations a
// vector, where AddPieceBlock's block of eight spends most of its operations
// on zero vectors for a piece this short (a chain of small views).
[[gnu::always_inline]] inline void AddPieceVectors(const uint8_t* p, size_t len,
                                                   __m512i rotate, Wide& w) {
  const size_t whole = len / kVector;  // 1..3
  w.AddVector(_mm512_rolv_epi64(Load(p), rotate));
  if (whole >= 2) w.AddVector(_mm512_rolv_epi64(Load(p + kVector), rotate));
  if (whole >= 3) {
    w.AddVector(_mm512_rolv_epi64(Load(p + 2 * kVector), rotate));
  }
  const __m512i last =
      LoadMasked(p + whole * kVector, FirstBytes(len - whole * kVector));
  w.AddVector(_mm512_rolv_epi64(last, rotate));
}

// SumAligned returns the native accumulator, positions counted from `base`
// (64-byte aligned), of base[off, off + len): off < 64, len >= kBlock. Reads
// only those bytes. One Wide holds at most the first block, kChunkBlocks
// blocks and eight tail vectors, fewer than kMaxBlocks.
uint64_t SumAligned(const uint8_t* base, size_t off, size_t len) {
  size_t span = off + len;  // Bytes from base to the end, at least kBlock.
  const uint8_t* p = base;
  Wide w;
  w.AddBlock(LoadMasked(p, ~uint64_t{0} << off), Load(p + 64), Load(p + 128),
             Load(p + 192), Load(p + 256), Load(p + 320), Load(p + 384),
             Load(p + 448));
  p += kBlock;
  span -= kBlock;
  uint64_t acc = 0;
  while (span >= kBlock) {
    size_t blocks = span / kBlock;
    blocks = blocks < kChunkBlocks ? blocks : kChunkBlocks;
    AddBlocks(p, blocks, w);
    span -= blocks * kBlock;
    if (span >= kBlock) {
      acc = AddEndAround(acc, w.Native());
      w = Wide();
    }
  }
  if (span > 0) AddTail(p, span, w);
  return AddEndAround(acc, w.Native());
}

// SumLong returns X86Avx512Sum(data, len, initial) for len >= kBlock:
// SumAligned's method, its blocks counted from the 64-byte boundary at or
// before data, reduced by ReduceShortChain and folded by FinishShort, a
// shorter chain from the last load to the result than Wide::Native and
// FinishAccumulator: at a few KiB that chain is much of a sum's cost, since
// the next sum overlaps it only as far as it is short. The initial value goes
// in first, rotated right by 8 bits where data lies an odd distance past the
// boundary, so that the one rotation that places the sum puts it back.
[[gnu::always_inline]] inline uint16_t SumLong(const uint8_t* data, size_t len,
                                               uint16_t initial) {
  const size_t off = BaseOffset(data);
  const uint8_t* p = data - off;
  size_t span = off + len;  // Bytes from p to the end, at least kBlock.
  Wide w;
  w.AddBlock(LoadMasked(p, ~uint64_t{0} << off), Load(p + 64), Load(p + 128),
             Load(p + 192), Load(p + 256), Load(p + 320), Load(p + 384),
             Load(p + 448));
  p += kBlock;
  span -= kBlock;
  // acc: the initial value and the sums of earlier chunks (inputs of more
  // than kChunkBlocks blocks), below 2^34, so that no add below carries out.
  uint64_t acc =
      std::rotr(InitialNative(initial), 8 * static_cast<int>(off & 1));
  // Runs of kChunkBlocks blocks while more than that many are left (inputs
  // of about 129 KiB and more), each reduced into acc; then the last run, at
  // most kChunkBlocks blocks, and the tail: no clamp of the run's length and
  // no second test of the span on the way to the tail, which one loop for
  // both needed on every call.
  while (span >= (kChunkBlocks + 1) * kBlock) [[unlikely]] {
    AddBlocks(p, kChunkBlocks, w);
    span -= kChunkBlocks * kBlock;
    // Halves added: 2^32 == 1 (mod 0xffff); zero only if acc was.
    acc = ReduceShortChain(w, acc);
    acc = (acc & 0xffffffff) + (acc >> 32);
    w = Wide();
  }
  if (span >= kBlock) [[likely]] {
    AddBlocks(p, span / kBlock, w);
    span %= kBlock;
  }
  if (span > 0) AddTailBlock(p, span, w);
  return FinishShort(PlaceNative(ReduceShortChain(w, acc), off));
}

// CopyAddBlocks is AddBlocks that also stores each block to d, 64-byte
// aligned, right after loading it, advancing both pointers: the same
// operations in the same shape, in assembly for the same reasons (the
// compiler's loop also copied two accumulators between registers every
// block).
[[gnu::always_inline]] inline void CopyAddBlocks(uint8_t*& d, const uint8_t*& s,
                                                 size_t blocks, Wide& w) {
  const uint8_t* const end = s + blocks * kBlock;
  __m512i t0, t1, t2, t3, t4, t5, t6, t7, r0, r1, r2, r3;
  __asm__(
      "1:\n\t" IPSUM_AVX512_LOAD_BLOCK IPSUM_AVX512_STORE_BLOCK
          IPSUM_AVX512_ADD_BLOCK
      "addq $512, %[p]\n\t"
      "addq $512, %[d]\n\t"
      "cmpq %[end], %[p]\n\t"
      "jb 1b\n\t"
      : [p] "+r"(s), [d] "+r"(d), [a] "+v"(w.a), [b] "+v"(w.b), [g] "+v"(w.g),
        [t0] "=&v"(t0), [t1] "=&v"(t1), [t2] "=&v"(t2), [t3] "=&v"(t3),
        [t4] "=&v"(t4), [t5] "=&v"(t5), [t6] "=&v"(t6), [t7] "=&v"(t7),
        [r0] "=&v"(r0), [r1] "=&v"(r1), [r2] "=&v"(r2), [r3] "=&v"(r3)
      : [end] "r"(end)
      // The loop reads blocks * 512 bytes at s and writes as many at d.
      : "cc", "memory");
}

// CopyAddBlocksSumStreams is CopyAddBlocks with, after each block, five
// more blocks added to `w`, one from each of five runs of `blocks` blocks
// that follow each other from q: the i-th copied block is followed by the
// i-th block of every run (q + i * kBlock + k * blocks * kBlock, k = 0..4).
// The runs are bytes that `rep movsb` has just copied, still in L1, summed
// in the loop whose loads and stores wait on L2. Advances d and s past the
// copied blocks; the caller steps q past the 5 * blocks summed ones.
[[gnu::always_inline]] inline void CopyAddBlocksSumStreams(
    uint8_t*& d, const uint8_t*& s, const uint8_t* q, size_t blocks, Wide& w) {
  const uint8_t* const end = s + blocks * kBlock;
  const size_t stride = blocks * kBlock;
  const uint8_t* q3 = q + 3 * stride;
  __m512i t0, t1, t2, t3, t4, t5, t6, t7, r0, r1, r2, r3;
  __asm__(
      "1:\n\t" IPSUM_AVX512_LOAD_BLOCK IPSUM_AVX512_STORE_BLOCK
          IPSUM_AVX512_ADD_BLOCK
      IPSUM_AVX512_LOAD_BLOCK_AT("(%[q])") IPSUM_AVX512_ADD_BLOCK
      IPSUM_AVX512_LOAD_BLOCK_AT("(%[q],%[stride])") IPSUM_AVX512_ADD_BLOCK
      IPSUM_AVX512_LOAD_BLOCK_AT("(%[q],%[stride],2)") IPSUM_AVX512_ADD_BLOCK
      IPSUM_AVX512_LOAD_BLOCK_AT("(%[q3])") IPSUM_AVX512_ADD_BLOCK
      IPSUM_AVX512_LOAD_BLOCK_AT("(%[q],%[stride],4)") IPSUM_AVX512_ADD_BLOCK
      "addq $512, %[q]\n\t"
      "addq $512, %[q3]\n\t"
      "addq $512, %[p]\n\t"
      "addq $512, %[d]\n\t"
      "cmpq %[end], %[p]\n\t"
      "jb 1b\n\t"
      : [p] "+r"(s), [d] "+r"(d), [q] "+r"(q), [q3] "+r"(q3), [a] "+v"(w.a),
        [b] "+v"(w.b), [g] "+v"(w.g), [t0] "=&v"(t0), [t1] "=&v"(t1),
        [t2] "=&v"(t2), [t3] "=&v"(t3), [t4] "=&v"(t4), [t5] "=&v"(t5),
        [t6] "=&v"(t6), [t7] "=&v"(t7), [r0] "=&v"(r0), [r1] "=&v"(r1),
        [r2] "=&v"(r2), [r3] "=&v"(r3)
      : [end] "r"(end), [stride] "r"(stride)
      // The loop reads blocks * 512 bytes at s and 5 * blocks * 512 at q,
      // and writes blocks * 512 bytes at d.
      : "cc", "memory");
}

// CopyTailBlock copies the last 1..512 bytes of CopyMedium, the `span`
// bytes at s to d (64-byte aligned), and adds them to `w` as one block:
// the whole vectors but the last, straight-line code entered at their
// count, then the last 1..64 bytes masked, the missing vectors zero (a
// block of partly zero vectors obeys the bound of any block).
// One tree of adds, where adding each vector to the same two accumulators
// in turn (AddTail) makes a chain as long as the tail that the fold waits
// for.
[[gnu::always_inline]] inline void CopyTailBlock(uint8_t* d, const uint8_t* s,
                                                 size_t span, Wide& w) {
  const size_t whole = (span - 1) / kVector;  // 0..7
  const __m512i zero = _mm512_setzero_si512();
  __m512i t0 = zero, t1 = zero, t2 = zero, t3 = zero, t4 = zero, t5 = zero,
          t6 = zero;
  const auto copy = [&](size_t i) {
    const __m512i x = Load(s + i * kVector);
    Store(d + i * kVector, x);
    return x;
  };
  size_t last;
  if (whole == 7) [[likely]] {
    // 449..512 bytes, the commonest tail, in straight-line code behind one
    // compare rather than through the switch's jump table.
    t0 = copy(0);
    t1 = copy(1);
    t2 = copy(2);
    t3 = copy(3);
    t4 = copy(4);
    t5 = copy(5);
    t6 = copy(6);
    last = 7 * kVector;
  } else {
    switch (whole) {
      case 6:
        t5 = copy(5);
        [[fallthrough]];
      case 5:
        t4 = copy(4);
        [[fallthrough]];
      case 4:
        t3 = copy(3);
        [[fallthrough]];
      case 3:
        t2 = copy(2);
        [[fallthrough]];
      case 2:
        t1 = copy(1);
        [[fallthrough]];
      case 1:
        t0 = copy(0);
        [[fallthrough]];
      default:
        break;
    }
    last = whole * kVector;
  }
  const __mmask64 k = FirstBytes(span - last);
  __m512i t7 = LoadMasked(s + last, k);
  StoreMasked(d + last, k, t7);
  // AddBlocks' assembly text, as in AddTailBlock: from C++, GCC chained
  // the switch's cases' adds into `a`.
  __m512i r0, r1, r2, r3;
  __asm__(IPSUM_AVX512_ADD_BLOCK
          : [a] "+v"(w.a), [b] "+v"(w.b), [g] "+v"(w.g), [t0] "+v"(t0),
            [t1] "+v"(t1), [t2] "+v"(t2), [t3] "+v"(t3), [t4] "+v"(t4),
            [t5] "+v"(t5), [t6] "+v"(t6), [t7] "+v"(t7), [r0] "=&v"(r0),
            [r1] "=&v"(r1), [r2] "=&v"(r2), [r3] "=&v"(r3));
}

// CopyHeadBlock copies the first block of an aligned copy, the bytes of
// the 512 at s that `head` selects in its first vector and all of the rest,
// to d (64-byte aligned; the masked-out bytes are neither read nor
// written), and adds them to `w` (zero for the masked-out ones): the first
// block of CopyMedium and CopyInterleaved.
[[gnu::always_inline]] inline void CopyHeadBlock(uint8_t* d, const uint8_t* s,
                                                 __mmask64 head, Wide& w) {
  const __m512i t0 = LoadMasked(s, head), t1 = Load(s + 64),
                t2 = Load(s + 128), t3 = Load(s + 192), t4 = Load(s + 256),
                t5 = Load(s + 320), t6 = Load(s + 384), t7 = Load(s + 448);
  StoreMasked(d, head, t0);
  Store(d + 64, t1);
  Store(d + 128, t2);
  Store(d + 192, t3);
  Store(d + 256, t4);
  Store(d + 320, t5);
  Store(d + 384, t6);
  Store(d + 448, t7);
  w.AddBlock(t0, t1, t2, t3, t4, t5, t6, t7);
}

// CopyMedium copies src[0, len) to dst (dst = base + off, base 64-byte
// aligned, off < 64, kBlock <= len < kFusedMax) and returns a native
// accumulator of the bytes, positions counted from base, plus `extra`
// (below 2^32), below 2^35 and zero only if they all are: SumAligned's
// method with stores, for the lengths that fit one Wide (the first block,
// at most kFusedMax / kBlock - 1 more and the tail's one), head and tail
// stored masked like their loads, reduced by ReduceCarries. Reads and
// writes only those bytes.
//
// The reduction is the part of a copy that the stores cannot hide: the loop
// runs at memcpy's speed, and every dependent operation after the last load
// shows in the time. Hence ReduceCarries, the shortest chain of the
// reductions, with the initial value added inside it (CopyMediumSum).
static_assert(kFusedMax / kBlock + 1 <= kMaxBlocks);
[[gnu::always_inline]] inline uint64_t CopyMedium(uint8_t* base,
                                                  const uint8_t* src,
                                                  size_t off, size_t len,
                                                  uint64_t extra) {
  const __mmask64 head = ~uint64_t{0} << off;
  size_t span = off + len;
  uint8_t* d = base;
  // The source byte that goes to base + i is at s + i; the ones before src
  // are masked out, never read.
  const uint8_t* s = src - off;
  Wide w;
  CopyHeadBlock(d, s, head, w);
  d += kBlock;
  s += kBlock;
  span -= kBlock;
  if (span >= kBlock) {
    const size_t blocks = span / kBlock;
    CopyAddBlocks(d, s, blocks, w);
    span -= blocks * kBlock;
  }
  if (span > 0) CopyTailBlock(d, s, span, w);
  return ReduceCarries(w, extra);
}

// CopyMediumNative is CopyMedium as a function of its own, for CopyLong.
[[gnu::noinline]] uint64_t CopyMediumNative(uint8_t* base, const uint8_t* src,
                                            size_t off, size_t len) {
  return CopyMedium(base, src, off, len, 0);
}

// Movsb copies src[0, n) to dst with `rep movsb` (the direction flag is
// clear at every function boundary, by the ABI).
[[gnu::always_inline]] inline void Movsb(uint8_t* dst, const uint8_t* src,
                                         size_t n) {
  __asm__ volatile("rep movsb" : "+D"(dst), "+S"(src), "+c"(n) : : "memory");
}

// CopyChunked copies src[0, len), len >= kBlock, to dst and returns the
// native accumulator of the bytes, positions counted from src. Once source and
// destination no longer fit in L1 together, a store loop pays for reading every
// destination line in before writing it; `rep movsb` does not. So the copy is
// `rep movsb` in chunks of kMovsbChunk bytes, each followed by the sum of its
// source bytes, still in L1. The chunks after the first start at 64-byte
// boundaries of the source, an even distance from it.
uint64_t CopyChunked(uint8_t* dst, const uint8_t* src, size_t len) {
  const size_t off = BaseOffset(src);
  // One chunk if that is all; else the first ends at a 64-byte boundary of
  // the source and leaves at least kBlock bytes.
  size_t n = len < kMovsbChunk + kBlock ? len : kMovsbChunk - off;
  Movsb(dst, src, n);
  uint64_t acc = SumAligned(src - off, off, n);
  for (size_t i = n; i < len; i += n) {
    // The last chunk takes up to kMovsbChunk + kBlock - 1 bytes, so that
    // every one has at least kBlock.
    n = len - i < kMovsbChunk + kBlock ? len - i : kMovsbChunk;
    Movsb(dst + i, src + i, n);
    acc = AddEndAround(acc, SumAligned(src + i, 0, n));
  }
  return PlaceNative(acc, off);
}

// kMixBehind, kMixFused: CopyInterleaved's steps, kMixStep blocks each:
// `rep movsb` of kMixBehind * kMixFused blocks, then kMixFused blocks by the
// fused loop, which also sums kMixBehind (five: CopyAddBlocksSumStreams) of
// the moved blocks per block it copies: a step of 36 KiB. The ratio and step
// were chosen by measurement (docs/design.md, "The fused copy").
constexpr int kMixBehind = 5;
constexpr size_t kMixFused = 12;
constexpr size_t kMixStep = kMixFused * (kMixBehind + 1);
static_assert(kMixBehind == 5, "CopyAddBlocksSumStreams sums five runs");
// A step's blocks, the first block and the tail's fit one Wide.
static_assert(kMixStep + 2 <= kMaxBlocks);

// CopyInterleaved copies src[0, len), len >= 2 * kBlock, to dst (dst =
// base + off, base 64-byte aligned, off < 64) and returns a native
// accumulator of the bytes, positions counted from base, below 2^53: for
// copies that do not fit L1 with their source. The first block and the tail
// are CopyMedium's; the whole blocks between go in steps of kMixStep blocks.
// A step copies its first blocks with `rep movsb`, which writes the
// destination's lines without reading them first, and the rest with the
// fused loop, whose stores wait on L2 and which sums the moved blocks, still
// in L1, in that wait. It sums the i-th blocks of five runs rather than
// consecutive ones, so that its loads keep a fixed distance modulo 4 KiB from
// its stores (consecutive, the copy's time depended on that distance).
uint64_t CopyInterleaved(uint8_t* base, const uint8_t* src, size_t off,
                         size_t len) {
  const __mmask64 head = ~uint64_t{0} << off;
  size_t span = off + len;
  uint8_t* d = base;
  const uint8_t* s = src - off;
  Wide w;
  CopyHeadBlock(d, s, head, w);
  d += kBlock;
  s += kBlock;
  span -= kBlock;
  size_t blocks = span / kBlock;
  span %= kBlock;
  uint64_t acc = 0;
  while (blocks > 0) {
    size_t fused = kMixFused;
    if (blocks < kMixStep) fused = blocks / (kMixBehind + 1);
    const size_t moved = (blocks < kMixStep ? blocks : kMixStep) - fused;
    Movsb(d, s, moved * kBlock);
    const uint8_t* q = s;
    d += moved * kBlock;
    s += moved * kBlock;
    if (fused != 0) {
      CopyAddBlocksSumStreams(d, s, q, fused, w);
      q += kMixBehind * fused * kBlock;
    }
    const size_t rest = moved - kMixBehind * fused;
    if (rest != 0) AddBlocks(q, rest, w);
    blocks -= moved + fused;
    if (blocks > 0) {
      acc = ReduceShortChain(w, acc);
      acc = (acc & 0xffffffff) + (acc >> 32);
      w = Wide();
    }
  }
  if (span > 0) CopyTailBlock(d, s, span, w);
  return ReduceShortChain(w, acc);
}

// CopyLong is X86Avx512CopySum for len >= kLongFrom. With L the L1 data
// cache's size (clamped to [32 KiB, 96 KiB]): below L / 2 + 512 bytes all
// by CopyMedium; below L - kBlock the first L - len bytes by CopyMedium and
// the rest by CopyChunked; from there on all by CopyInterleaved. Why the split:
// `rep movsb` does not bring the destination into L1 (it writes whole lines
// without reading them), so the lines such a copy leaves in L1 are the fused
// part's source and destination and the chunks' sources, 2 (L - len) +
// (2 len - L) = L bytes: when the same buffers are copied again (a stack
// reusing its buffers) the fused part runs from L1.
// Bounds: in the split L / 2 + 512 <= len < L - kBlock, so the fused part
// has L - len > kBlock bytes, at most L / 2 - 512 < kFusedMax (CopyMedium's
// bounds), and leaves 2 len - L >= 1024 bytes (CopyChunked's least is
// kBlock); all by CopyMedium, len < L / 2 + 512 <= kFusedMax.
[[gnu::noinline]] uint16_t CopyLong(uint8_t* dst, const uint8_t* src,
                                    size_t len, uint16_t initial) {
  size_t l1 = X86L1DataCacheBytes();
  l1 = l1 < (size_t{32} << 10) ? size_t{32} << 10 : l1;
  l1 = l1 > (size_t{96} << 10) ? size_t{96} << 10 : l1;
  static_assert((size_t{96} << 10) / 2 + 512 <= kFusedMax);
  const size_t off = BaseOffset(dst);
  if (len < l1 / 2 + 512) {
    return FinishAccumulator(
        PlaceNative(CopyMediumNative(dst - off, src, off, len), off), initial);
  }
  if (len >= l1 - kBlock) {
    return FinishAccumulator(
        PlaceNative(CopyInterleaved(dst - off, src, off, len), off), initial);
  }
  const size_t fused = l1 - len;
  const uint64_t acc =
      PlaceNative(CopyMediumNative(dst - off, src, off, fused), off);
  return FinishAccumulator(
      AddEndAround(acc, PlaceNative(CopyChunked(dst + fused, src + fused,
                                                len - fused),
                                    fused)),
      initial);
}

// AddSmall adds p[0, len), len >= 1, positions counted from p, to two pairs
// of Lanes: whole vectors, then the last 1..64 bytes as one masked vector.
[[gnu::always_inline]] inline void AddSmall(const uint8_t* p, size_t len,
                                            Lanes& s0, Lanes& s1) {
  for (; len > 2 * kVector; len -= 2 * kVector, p += 2 * kVector) {
    s0.Add(Load(p));
    s1.Add(Load(p + kVector));
  }
  if (len > kVector) {
    s0.Add(Load(p));
    p += kVector;
    len -= kVector;
  }
  s1.Add(LoadMasked(p, FirstBytes(len)));
}

// SumSmall returns the native accumulator of p[0, len), 1 <= len <
// kAlignFrom.
uint64_t SumSmall(const uint8_t* p, size_t len) {
  Lanes s0, s1;
  AddSmall(p, len, s0, s1);
  s0.Merge(s1);
  return s0.Native();
}

// CopySmall is SumSmall that also copies p[0, len) to dst.
uint64_t CopySmall(uint8_t* dst, const uint8_t* p, size_t len) {
  Lanes s0, s1;
  for (; len > 2 * kVector;
       len -= 2 * kVector, p += 2 * kVector, dst += 2 * kVector) {
    const __m512i x0 = Load(p), x1 = Load(p + kVector);
    Store(dst, x0);
    Store(dst + kVector, x1);
    s0.Add(x0);
    s1.Add(x1);
  }
  if (len > kVector) {
    const __m512i x = Load(p);
    Store(dst, x);
    s0.Add(x);
    p += kVector;
    dst += kVector;
    len -= kVector;
  }
  const __mmask64 k = FirstBytes(len);
  const __m512i x = LoadMasked(p, k);
  StoreMasked(dst, k, x);
  s1.Add(x);
  s0.Merge(s1);
  return s0.Native();
}

// Halves returns x with each 64-bit lane replaced by the sum of its two
// 32-bit halves, below 2^33: the same value modulo 2^32 - 1, so modulo
// 0xffff (2^32 == 1). Lanes this small add without carries.
[[gnu::always_inline]] inline __m512i Halves(__m512i x) {
  return _mm512_add_epi64(ShiftRight(x, 32),
                          _mm512_and_si512(x, _mm512_set1_epi64(0xffffffff)));
}

// AddThree reduces three vectors to two with the same lane sums modulo
// 2^64 - 1, in three operations and no carries: a carry-save adder. Per bit,
// a + b + c = (a ^ b ^ c) + 2 maj(a, b, c); doubling a 64-bit lane modulo
// 2^64 - 1 is rotating it left by one (the bit that leaves bit 63 is worth
// 2^64 == 1), so a + b + c == `sum` + `carry` modulo 2^64 - 1, hence modulo
// 0xffff, lane by lane.
[[gnu::always_inline]] inline void AddThree(__m512i a, __m512i b, __m512i c,
                                            __m512i& sum, __m512i& carry) {
  sum = _mm512_ternarylogic_epi64(a, b, c, 0x96);  // a ^ b ^ c
  const U64x8 maj =
      reinterpret_cast<U64x8>(_mm512_ternarylogic_epi64(a, b, c, 0xe8));
  // The rotate written with the vector type: see RotateLanes8.
  carry = reinterpret_cast<__m512i>((maj << 1) | (maj >> 63));
}

// SumMedium returns the SumFn result for p[0, len), kShort <= len <
// kMediumEnd: one to four vectors, the last a masked load of the last 1..64
// bytes, in straight-line code per vector count (three branches on the
// length, no loop). The vectors are reduced by carry-save adders (AddThree)
// to at most two, each to the sums of its 32-bit halves (Halves), and those
// added across the lanes exactly (below 2^37); FinishShort folds. At these
// lengths the cost is the instruction count, and SumSmall's Lanes pair and
// Native reduction, built for many vectors, would take several times more.
uint16_t SumMedium(const uint8_t* p, size_t len, uint16_t initial) {
  __m512i s;
  // The marks lay the tree out so that 64 bytes (a full vector, the
  // commonest medium length) runs straight through and 65..128 takes one
  // taken branch.
  if (len <= 2 * kVector) [[likely]] {
    if (len == kVector) [[likely]] {
      s = Halves(Load(p));
    } else {
      s = _mm512_add_epi64(
          Halves(Load(p)),
          Halves(LoadMasked(p + kVector, FirstBytes(len - kVector))));
    }
  } else {
    __m512i sum, carry;
    if (len <= 3 * kVector) {
      AddThree(Load(p), Load(p + kVector),
               LoadMasked(p + 2 * kVector, FirstBytes(len - 2 * kVector)), sum,
               carry);
    } else {
      __m512i sum3, carry3;
      AddThree(Load(p), Load(p + kVector), Load(p + 2 * kVector), sum3, carry3);
      AddThree(sum3, carry3,
               LoadMasked(p + 3 * kVector, FirstBytes(len - 3 * kVector)), sum,
               carry);
    }
    s = _mm512_add_epi64(Halves(sum), Halves(carry));
  }
  return FinishShort(HorizontalSum(s) + InitialNative(initial));
}

// CopyMediumSum is X86Avx512CopySum for kAlignFrom <= len < kLongFrom:
// CopyMedium, placed and folded, in a leaf that needs no stack, reached by a
// tail call: inside X86Avx512CopySum it would save registers and realign the
// stack on every call, and its reloads after the stores would wait on them
// whenever the stack's addresses matched the destination's modulo 4 KiB. The
// initial value goes into CopyMedium's reduction off its chain, rotated right
// by 8 bits for an odd dst, and the rotation back sits behind a branch on that
// parity, so that only FinishShort follows the reduction (its input < 2^43).
[[gnu::noinline]] uint16_t CopyMediumSum(uint8_t* dst, const uint8_t* src,
                                         size_t len, uint16_t initial) {
  const size_t off = BaseOffset(dst);
  const uint64_t acc = CopyMedium(
      dst - off, src, off, len,
      std::rotr(InitialNative(initial), 8 * static_cast<int>(off & 1)));
  if (off & 1) [[unlikely]] return FinishShort(std::rotl(acc, 8));
  return FinishShort(acc);
}

// SumPiecesLoop is X86Avx512SumPieces for any pieces. Medium pieces
// (kShort to kPieceAlignFrom - 1 bytes: a packet's views) are a few vectors
// (AddPieceVectors, below kVectorPieceEnd) or blocks (AddPiece) each in one
// Wide kept in registers across the pieces, those at an odd stream offset
// rotated into place as they are added, and reduced once at the end (or
// when it holds kMaxBlocks blocks). `acc` holds the
// short pieces and the long ones, which take the aligned loop and are
// reduced on their own, each placed by its parity.
[[gnu::noinline]] uint16_t SumPiecesLoop(const std::span<const uint8_t>* pieces,
                                         size_t count, size_t stride,
                                         uint16_t initial) {
  Wide w;
  size_t blocks = 0;
  uint64_t acc = 0;
  size_t odd = 0;
  // make_room reduces `w` into `acc` first when `need` more blocks would
  // take it past kMaxBlocks, and counts them.
  const auto make_room = [&](size_t need) __attribute__((always_inline)) {
    if (blocks > kMaxBlocks - need) {
      acc = AddEndAround(acc, w.Native());
      w = Wide();
      blocks = 0;
    }
    blocks += need;
  };
  for (size_t i = 0; i < count; ++i) {
    const uint8_t* const p = PieceAt(pieces, i, stride).data();
    const size_t len = PieceAt(pieces, i, stride).size();
    if (len < kShort) {
      acc = AddEndAround(acc, PlaceNative(SumShortNative(p, len), odd));
    } else if (len < kVectorPieceEnd) {
      make_room(len / kVector + 1);  // At most 4.
      AddPieceVectors(p, len,
                      _mm512_set1_epi64(static_cast<int64_t>(odd & 1) * 8), w);
    } else if (len < kPieceAlignFrom) {
      make_room(len / kBlock + 1);  // At most kPieceMaxBlocks.
      if ((odd & 1) == 0) {
        AddPiece<false>(p, len, w);
      } else {
        AddPiece<true>(p, len, w);
      }
    } else {
      const size_t off = BaseOffset(p);
      acc = AddEndAround(acc,
                         PlaceNative(SumAligned(p - off, off, len), off ^ odd));
    }
    odd ^= len;
  }
  if (blocks != 0) acc = AddEndAround(acc, w.Native());
  return FinishAccumulator(acc, initial);
}

// SumFewPieces is X86Avx512SumPieces for two or three pieces (a packet's
// payload in its views): the descriptors are all read first and medium
// pieces summed in straight-line code, so that no piece waits on the loop
// to learn where it is; other lengths go on to SumPiecesLoop. A leaf that
// needs no stack frame, reached by a tail call, so that the straight-line
// code does not pay the loop's prologue (saved registers, a realigned stack).
[[gnu::noinline]] uint16_t SumFewPieces(const std::span<const uint8_t>* pieces,
                                        size_t count, size_t stride,
                                        uint16_t initial) {
  const std::span<const uint8_t> a = PieceAt(pieces, 0, stride);
  const std::span<const uint8_t> b = PieceAt(pieces, 1, stride);
  const std::span<const uint8_t> c =
      count == 3 ? PieceAt(pieces, 2, stride) : std::span<const uint8_t>();
  // sum3 adds the first piece with `add_first` and the others with `add`,
  // each rotated (std::true_type) when it starts at an odd offset.
  const auto sum3 = [&](auto add_first, auto add)
                        __attribute__((always_inline)) {
    Wide w;
    add_first(a, w, std::false_type());
    if (a.size() & 1) {
      add(b, w, std::true_type());
    } else {
      add(b, w, std::false_type());
    }
    if (count == 3) {
      if ((a.size() ^ b.size()) & 1) {
        add(c, w, std::true_type());
      } else {
        add(c, w, std::false_type());
      }
    }
    return FinishShort(ReduceShortChain(w, InitialNative(initial)));
  };
  const auto below = [](size_t n, size_t end) {
    return n - kShort < end - kShort;
  };
  // Straight-line code by size class. Pieces of 449 to 512 bytes each (a
  // payload of about 1.4 KiB in three views), behind one test of all the
  // lengths: seven whole vectors and a masked one per piece (AddPieceBlock7),
  // without AddPieceBlock's compare per vector.
  const size_t c7 = count == 3 ? c.size() : kSevenFrom;
  const auto add7 = [](std::span<const uint8_t> x, Wide& w, auto rotate)
                        __attribute__((always_inline)) {
    AddPieceBlock7<decltype(rotate)::value>(x.data(), x.size(), w);
  };
  if (((a.size() - kSevenFrom) | (b.size() - kSevenFrom) |
       (c7 - kSevenFrom)) < kVector) [[likely]] {
    return sum3(add7, add7);
  }
  // The same with a first piece of 513 to 576 bytes (a frame's first view
  // holding the headers and part of the payload): one block and a masked
  // vector (AddPieceBlock8).
  if (a.size() - (kBlock + 1) < kVector &&
      ((b.size() - kSevenFrom) | (c7 - kSevenFrom)) < kVector) {
    return sum3(
        [](std::span<const uint8_t> x, Wide& w, std::false_type)
            __attribute__((always_inline)) {
              AddPieceBlock8(x.data(), x.size(), w);
            },
        add7);
  }
  // Then every piece below a block, and pieces of up to kPieceAlignFrom bytes,
  // in two copies: the loops of the latter would slow the former.
  const size_t c_size = count == 3 ? c.size() : kShort;
  if (below(a.size(), kBlock) && below(b.size(), kBlock) &&
      below(c_size, kBlock)) [[likely]] {
    const auto add = [](std::span<const uint8_t> x, Wide& w, auto rotate)
                         __attribute__((always_inline)) {
      AddPieceBlock<decltype(rotate)::value>(x.data(), x.size(), w);
    };
    return sum3(add, add);
  }
  if (below(a.size(), kPieceAlignFrom) && below(b.size(), kPieceAlignFrom) &&
      below(c_size, kPieceAlignFrom)) {
    const auto add = [](std::span<const uint8_t> x, Wide& w, auto rotate)
                         __attribute__((always_inline)) {
      AddPiece<decltype(rotate)::value>(x.data(), x.size(), w);
    };
    return sum3(add, add);
  }
  return SumPiecesLoop(pieces, count, stride, initial);
}

}  // namespace

uint16_t X86Avx512Sum(const uint8_t* data, size_t len, uint16_t initial) {
  // Medium inputs first, as one unsigned range check that falls through:
  // the public Checksum sums inputs shorter than kShort itself, so these
  // are the shortest it sends here, the ones whose cost is the branches.
  if (len - kShort < kMediumEnd - kShort) [[likely]] {
    return SumMedium(data, len, initial);
  }
  if (len < kShort) {
    return FinishAccumulator(SumShortNative(data, len), initial);
  }
  if (len < kAlignFrom) {
    return FinishAccumulator(SumSmall(data, len), initial);
  }
  return SumLong(data, len, initial);
}

uint16_t X86Avx512CopySum(uint8_t* dst, const uint8_t* src, size_t len,
                          uint16_t initial) {
  // Inputs shorter than kAlignFrom are copied here, the longer ones by tail
  // calls (see CopyMediumSum). The medium range is tested first, as one
  // unsigned compare, so that the common path reaches its tail call before the
  // short paths' argument copies.
  if (len - kAlignFrom < kLongFrom - kAlignFrom) [[likely]] {
    return CopyMediumSum(dst, src, len, initial);
  }
  if (len < kShort) {
    return FinishAccumulator(CopyShortNative(dst, src, len), initial);
  }
  if (len < kAlignFrom) {
    return FinishAccumulator(CopySmall(dst, src, len), initial);
  }
  return CopyLong(dst, src, len, initial);
}

uint16_t X86Avx512SumPieces(const std::span<const uint8_t>* pieces,
                            size_t count, size_t stride, uint16_t initial) {
  // Both by tail calls: two or three pieces take SumFewPieces, the others
  // SumPiecesLoop.
  if (count - 2 <= 1) [[likely]] {
    return SumFewPieces(pieces, count, stride, initial);
  }
  return SumPiecesLoop(pieces, count, stride, initial);
}

}  // namespace ipsum::checksum::internal

#endif  // defined(__x86_64__)
