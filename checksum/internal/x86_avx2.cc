// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// The x86-64 AVX2 fast path. The data is read as 64-bit lanes in native
// (little-endian) order; RFC 1071 section 2(B) lets a little-endian host add
// the words as loaded and byte-swap the folded 16-bit result once.
//
// Long inputs: the 256-byte loop. Per 64-bit lane it keeps A, the sum of the
// lanes modulo 2^64 (plain vector adds, which drop the carries out of bit
// 63), and G, a sum of estimates of the lanes' top 16-bit words that tells
// how many carries were dropped: the eight loaded vectors of a block are
// added in a tree into A, and their top words averaged in a tree (vpavgw)
// into R, whose top words are added to G. That is 17 vector operations per
// eight loads instead of the 24 of a shift-and-add of every vector's high
// half. Why A and G give the exact sum, and the bound that kMaxBlocks keeps,
// is proved in docs/design.md ("The carry bound"); a half block (the tail)
// adds R2 >> 1 and obeys a tighter bound there.
//
// Inputs of 64 to 255 bytes, and the pieces of SumPieces shorter than
// kPieceAlignFrom (in 128-byte blocks, SumLanesBlocks), take the simpler
// Lanes method: a lane sum modulo 2^64 and the exact sum of the lanes' high
// 32-bit halves, H. With A the lane sum, the low halves sum to L = A - H *
// 2^32 (exact while below 2^64), and the one's-complement sum is L + H,
// because 2^32 == 1 (mod 0xffff).
//
// Inputs shorter than 64 bytes take the scalar path of native_sum.h. Long
// inputs first sum a scalar head up to a 32-byte boundary (of the source for
// Sum, of the destination for CopySum) so that no load (or store) in the
// loop splits a cache line; if the head has odd length, the rest is a part
// at an odd offset and its sum is swapped before it is added. The last bytes
// (< 256) are at most one half block, then one more half block of the whole
// vectors left and a last vector that ends at the input's end with the bytes
// already summed masked to zero (zero vectors fill it: they change neither
// bound above), and an odd last byte. Only this file is built with -mavx2.

#include "checksum/internal/x86_avx2.h"

#if defined(__x86_64__)

#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "checksum/internal/native_sum.h"
#include "checksum/internal/x86_cache.h"

namespace ipsum::checksum::internal {
namespace {

// kShort: below this length the scalar path is used.
constexpr size_t kShort = 64;
// kAlignFrom: from this length on, the head is summed up to alignment and the
// 256-byte loop runs; shorter inputs take SumSmall/CopySmall.
constexpr size_t kAlignFrom = 256;
// kPieceAlignFrom: in SumPieces, from this length on a piece is summed up
// to alignment by the 256-byte loop and reduced on its own; shorter ones
// (from kShort) are read unaligned into four Lanes shared by all pieces.
constexpr size_t kPieceAlignFrom = 1024;
// kSplitFrom: from this length on, CopySum goes through CopySplit, which
// copies part of some lengths with `rep movsb` by the L1 data cache's size
// (at least 32 KiB: from 16.5 KiB on); kMovsbChunk is the bytes of one
// `rep movsb` there.
constexpr size_t kSplitFrom = (size_t{32} << 10) / 2 + 512;
constexpr size_t kMovsbChunk = size_t{16} << 10;
// kBlock is the number of bytes one step of the 256-byte loop reads, kHalf
// a half block (the tail's unit).
constexpr size_t kBlock = 256;
constexpr size_t kHalf = 128;
// kMaxBlocks bounds the blocks and half blocks added to one Wide before it
// is reduced, so that its estimate is within 1.5 * 2^62 of the exact sum
// (docs/design.md, "The carry bound").
constexpr size_t kMaxBlocks = 512;
// kChunk bounds the bytes given to one AddBody/CopyAddBody: at most 256
// blocks, or 255 and two half blocks of tail, <= kMaxBlocks.
constexpr size_t kChunk = size_t{256} * kBlock;
// kLanesChunk bounds the bytes added to one Lanes, so that the exact sums L
// and H of each lane stay below 2^64 (2^31 lanes of 2^32).
constexpr size_t kLanesChunk = size_t{1} << 36;

// Lanes holds one pair of accumulators: `a`, the lane sums modulo 2^64, and
// `h`, the exact sums of the lanes' high 32-bit halves.
struct Lanes {
  __m256i a = _mm256_setzero_si256();
  __m256i h = _mm256_setzero_si256();

  void Add(__m256i x) {
    a = _mm256_add_epi64(a, x);
    h = _mm256_add_epi64(h, _mm256_srli_epi64(x, 32));
  }

  void Merge(const Lanes& o) {
    a = _mm256_add_epi64(a, o.a);
    h = _mm256_add_epi64(h, o.h);
  }

  // Native returns a native accumulator of everything added: per lane the
  // exact L = a - h * 2^32 and h, each folded once to below 2^33 and summed
  // across lanes, all exact, below 2^37.
  uint64_t Native() const {
    const __m256i l = _mm256_sub_epi64(a, _mm256_slli_epi64(h, 32));
    const __m256i lo = _mm256_set1_epi64x(0xffffffff);
    const __m256i s = _mm256_add_epi64(
        _mm256_add_epi64(_mm256_and_si256(l, lo), _mm256_srli_epi64(l, 32)),
        _mm256_add_epi64(_mm256_and_si256(h, lo), _mm256_srli_epi64(h, 32)));
    __m128i t = _mm_add_epi64(_mm256_castsi256_si128(s),
                              _mm256_extracti128_si256(s, 1));
    t = _mm_add_epi64(t, _mm_unpackhi_epi64(t, t));
    return static_cast<uint64_t>(_mm_cvtsi128_si64(t));
  }
};

// Opaque returns x, held in a register, as a value the compiler cannot see
// into: an empty asm, no instruction. Volatile, so that Opaque values are
// computed in program order (Load: the loads walk up a block).
inline __m256i Opaque(__m256i x) {
  __asm__ volatile("" : "+x"(x));
  return x;
}

// Tree returns t0 + t1 + t2 + t3 per 64-bit lane, modulo 2^64.
inline __m256i Tree(__m256i t0, __m256i t1, __m256i t2, __m256i t3) {
  return _mm256_add_epi64(_mm256_add_epi64(t0, t1), _mm256_add_epi64(t2, t3));
}

// AvgTree returns, per 16-bit word, the average of the averages of t0, t1
// and of t2, t3, each rounded up (vpavgw).
inline __m256i AvgTree(__m256i t0, __m256i t1, __m256i t2, __m256i t3) {
  return _mm256_avg_epu16(_mm256_avg_epu16(t0, t1), _mm256_avg_epu16(t2, t3));
}

// Wide holds the accumulators of the 256-byte loop (see the top of this
// file): `a`, the lane sums modulo 2^64, and `g`, the sums of the lanes'
// top-word estimates, in units of 2^51. At most kMaxBlocks blocks and half
// blocks may be added to one Wide.
struct Wide {
  __m256i a = _mm256_setzero_si256();
  __m256i g = _mm256_setzero_si256();

  // AddBlock adds a block of eight vectors: summed in a tree into `a`, their
  // top words averaged in a tree into `g`.
  void AddBlock(__m256i t0, __m256i t1, __m256i t2, __m256i t3, __m256i t4,
                __m256i t5, __m256i t6, __m256i t7) {
    // Opaque keeps the tree: GCC would otherwise reassociate its adds into
    // a chain of three through `a`, the loop's one carried dependency.
    a = _mm256_add_epi64(a, Opaque(_mm256_add_epi64(Tree(t0, t1, t2, t3),
                                                    Tree(t4, t5, t6, t7))));
    g = _mm256_add_epi64(
        g, _mm256_srli_epi64(_mm256_avg_epu16(AvgTree(t0, t1, t2, t3),
                                              AvgTree(t4, t5, t6, t7)),
                             48));
  }

  // AddHalf adds a half block: four vectors summed in a tree into `a`,
  // their top words averaged in a tree and halved into `g`.
  void AddHalf(__m256i t0, __m256i t1, __m256i t2, __m256i t3) {
    a = _mm256_add_epi64(a, Opaque(Tree(t0, t1, t2, t3)));
    g = _mm256_add_epi64(g, _mm256_srli_epi64(AvgTree(t0, t1, t2, t3), 49));
  }

  // Native returns the exact sum T of everything added as a native
  // accumulator: T modulo 2^64 - 1, end-around carry. T = T' + d with T' =
  // 2^51 G and d = A - T' modulo 2^64 read as signed (|d| < 2^63); its low
  // 64 bits are A, its high ones those of T' plus the carry out of the low
  // ones, minus one if d < 0. Zero only if T is, i.e. only for all-zero data.
  // `extra` (< 2^32) is added to the high part, exactly (it is below 2^31),
  // which is off the path from the loop to the result: the caller's scalar
  // parts go there.
  uint64_t Native(uint64_t extra = 0) const {
    // Both horizontal sums at once: [a0 + a1, g0 + g1, a2 + a3, g2 + g3].
    const __m256i s = _mm256_add_epi64(_mm256_unpacklo_epi64(a, g),
                                       _mm256_unpackhi_epi64(a, g));
    const __m128i t = _mm_add_epi64(_mm256_castsi256_si128(s),
                                    _mm256_extracti128_si256(s, 1));
    const auto sum_a = static_cast<uint64_t>(_mm_cvtsi128_si64(t));
    const auto sum_g = static_cast<uint64_t>(_mm_extract_epi64(t, 1));
    const uint64_t est_lo = sum_g << 51;  // sum_g < 2^31: T' < 2^82.
    const uint64_t d = sum_a - est_lo;
    const uint64_t hi = (sum_g >> 13) + (sum_a < est_lo) - (d >> 63) + extra;
    return AddEndAround(sum_a, hi);
  }
};

// FinishWide is FinishAccumulator (native_sum.h) for the sum in `w` plus
// `scalar` (below 2^20: a last odd byte, or SumPieces' few bytes of piece
// heads and tails; with `initial`, within Wide::Native's bound on `extra`),
// placed at an even offset: `initial`, in native order, and `scalar` join the
// Wide's high part before its single end-around add, so that the path from
// the loop's last add to the result is one reduction and one fold, not a
// fold, a swap and another add. x86-64 is little-endian.
[[gnu::always_inline]] inline uint16_t FinishWide(const Wide& w,
                                                  uint64_t scalar,
                                                  uint16_t initial) {
  return SwapBytes16(FoldNative(w.Native(scalar + SwapBytes16(initial))));
}

// Load reads 32 unaligned bytes into a register (Opaque): without the pin
// GCC folds the load into the add as a memory operand and loads the same
// bytes a second time for the shift or the average, doubling the loads per
// byte, which are the bottleneck.
__m256i Load(const uint8_t* p) {
  return Opaque(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
}

void Store(uint8_t* p, __m256i x) {
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), x);
}

// Copy32 copies the 32 bytes at src + off to dst + off and returns them.
[[gnu::always_inline]] inline __m256i Copy32(uint8_t* dst, const uint8_t* src,
                                             size_t off) {
  const __m256i x = Load(src + off);
  Store(dst + off, x);
  return x;
}

// kTailMask is 32 zero bytes then 32 0xff bytes: loading 32 bytes at
// kTailMask + n gives a mask that keeps the last n bytes of a vector.
alignas(64) constexpr uint8_t kTailMask[2 * 32] = {
    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,
    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,
    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0xff,
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};

// TailVector returns the last `even` bytes before p + even (even <= 32, an
// even number, at least 32 readable bytes before p + even) as a vector
// whose other bytes are zero, in the word positions their offsets from p
// give them: the vector ends at p + even, an even distance from p.
__m256i TailVector(const uint8_t* p, size_t even) {
  return _mm256_and_si256(Load(p + even - 32), Load(kTailMask + even));
}

// OddTail returns the native accumulator of the last byte of an odd-length
// tail of `len` bytes at p, or 0 when len is even.
uint64_t OddTail(const uint8_t* p, size_t len) {
  return (len & 1) ? uint64_t{p[len - 1]} : 0;  // A low byte (little-endian).
}

// AddTailHalf adds the `even` bytes at p (0 < even <= kHalf, an even
// number, at least 32 readable bytes before p + even) to `w` as a half
// block: the whole vectors at p, p + 32, ... (aligned when p is), the last
// one as the 32 bytes that end at p + even with the ones already counted
// masked to zero (TailVector), and zero vectors for the rest. Every vector
// starts an even distance from p, so every byte keeps the word position of
// its offset from p. (The 128 bytes that end at p + even, masked, would
// load four vectors that split cache lines.)
[[gnu::always_inline]] inline void AddTailHalf(const uint8_t* p, size_t even,
                                               Wide& w) {
  const size_t whole = (even - 1) / 32;  // 0..3 vectors before the last.
  __m256i t0 = _mm256_setzero_si256(), t1 = t0, t2 = t0;
  switch (whole) {
    case 3:
      t2 = Load(p + 64);
      [[fallthrough]];
    case 2:
      t1 = Load(p + 32);
      [[fallthrough]];
    case 1:
      t0 = Load(p);
      [[fallthrough]];
    default:
      break;
  }
  w.AddHalf(t0, t1, t2, TailVector(p + 32 * whole, even - 32 * whole));
}

// SumBlocks adds the `blocks` (> 0) 256-byte blocks at p to `w` and advances
// p past them. Per block: eight loads (Load: each read once), seven adds in
// a tree and one into w.a, seven averages in a tree, a shift and an add into
// w.g. Always inlined, so that the accumulators of a caller stay in
// registers.
[[gnu::always_inline]] inline void SumBlocks(const uint8_t*& p, size_t blocks,
                                             Wide& w) {
  const uint8_t* const end = p + blocks * kBlock;
  do {
    const __m256i t0 = Load(p), t1 = Load(p + 32), t2 = Load(p + 64),
                  t3 = Load(p + 96), t4 = Load(p + 128), t5 = Load(p + 160),
                  t6 = Load(p + 192), t7 = Load(p + 224);
    w.AddBlock(t0, t1, t2, t3, t4, t5, t6, t7);
    p += kBlock;
  } while (p < end);
}

// SumLanesBlocks adds the `blocks` (> 0) 128-byte blocks at p to four Lanes
// and advances p past them: the kernel of SumPieces for pieces shorter than
// kPieceAlignFrom, whose 12 registers leave room for the four Lanes to stay
// in registers across pieces (the 256-byte loop needs 14, and with the Lanes
// live too they spill). Always inlined, so that the accumulators of a caller
// stay in registers (SumPieces keeps them across pieces).
[[gnu::always_inline]] inline void SumLanesBlocks(const uint8_t*& p,
                                                  size_t blocks, Lanes& s0,
                                                  Lanes& s1, Lanes& s2,
                                                  Lanes& s3) {
  const uint8_t* const end = p + blocks * 128;
  do {
    s0.Add(Load(p));
    s1.Add(Load(p + 32));
    s2.Add(Load(p + 64));
    s3.Add(Load(p + 96));
    p += 128;
  } while (p < end);
}

// BlocksIn returns how many blocks and half blocks AddBody adds to its Wide
// for `len`.
constexpr size_t BlocksIn(size_t len) {
  return len / kBlock + (len % kBlock >= kHalf) + (len % kHalf > 1);
}
// The most for len <= kChunk: kChunk / kBlock - 1 blocks and two halves.
static_assert(BlocksIn(kChunk - 2) <= kMaxBlocks &&
              kChunk / kBlock + 1 <= kMaxBlocks);

// AddBody adds p[0, len), len <= kChunk, positions counted from p, to `w`
// (BlocksIn(len) blocks and half blocks), except a last odd byte, whose
// native accumulator it returns (0 for an even len). At least 32 bytes
// before p + len must be readable (the input's, ending there).
[[gnu::always_inline]] inline uint64_t AddBody(const uint8_t* p, size_t len,
                                               Wide& w) {
  if (len >= kBlock) {
    SumBlocks(p, len / kBlock, w);
    len %= kBlock;
  }
  if (len >= kHalf) {
    const __m256i t0 = Load(p), t1 = Load(p + 32), t2 = Load(p + 64),
                  t3 = Load(p + 96);
    w.AddHalf(t0, t1, t2, t3);
    p += kHalf;
    len -= kHalf;
  }
  if (len > 1) AddTailHalf(p, len & ~size_t{1}, w);
  return OddTail(p, len);
}

// SumBody returns the folded native sum of p[0, len), len <= kChunk, with
// at least 32 readable bytes before p + len.
[[gnu::always_inline]] inline uint16_t SumBody(const uint8_t* p, size_t len) {
  Wide w;
  const uint64_t odd_tail = AddBody(p, len, w);
  return FoldNative(AddEndAround(w.Native(), odd_tail));
}

// SumSmall returns the folded native sum of p[0, len), 64 <= len <
// kAlignFrom: one pair of Lanes, little to set up and merge.
uint16_t SumSmall(const uint8_t* p, size_t len) {
  Lanes s0, s1;
  for (; len >= 64; len -= 64, p += 64) {
    s0.Add(Load(p));
    s1.Add(Load(p + 32));
  }
  if (len >= 32) {
    s0.Add(Load(p));
    len -= 32;
    p += 32;
  }
  // The last len < 32 bytes: one masked vector over the even part, ending
  // where it ends (the input is at least 64 bytes and this is its end, so
  // the bytes before the tail are readable), and a last odd byte alone.
  if (len > 1) s1.Add(TailVector(p, len & ~size_t{1}));
  s0.Merge(s1);
  return FoldNative(s0.Native() + OddTail(p, len));
}

// CopySumBlocks is SumBlocks that also stores each block to dst, advancing
// both pointers. Two orders of the loads and stores: each store right after
// its load runs fastest, but a load that follows a store to an address
// 1..~190 bytes below its own modulo 4 KiB (a destination just past the
// source, modulo 4 KiB) waits for that store (4K aliasing); loading the whole
// block first leaves only its first load behind such a store. Chosen per call.
// The compiler keeps either order: dst may alias src.
[[gnu::always_inline]] inline void CopySumBlocks(uint8_t*& dst,
                                                 const uint8_t*& src,
                                                 size_t blocks, Wide& w) {
  const uint8_t* const end = src + blocks * kBlock;
  const uintptr_t ahead =
      (reinterpret_cast<uintptr_t>(dst) - reinterpret_cast<uintptr_t>(src)) &
      4095;
  if (ahead == 0 || ahead >= 192) {
    do {
      const __m256i t0 = Copy32(dst, src, 0), t1 = Copy32(dst, src, 32),
                    t2 = Copy32(dst, src, 64), t3 = Copy32(dst, src, 96),
                    t4 = Copy32(dst, src, 128), t5 = Copy32(dst, src, 160),
                    t6 = Copy32(dst, src, 192), t7 = Copy32(dst, src, 224);
      w.AddBlock(t0, t1, t2, t3, t4, t5, t6, t7);
      src += kBlock;
      dst += kBlock;
    } while (src < end);
  } else {
    do {
      const __m256i t0 = Load(src), t1 = Load(src + 32), t2 = Load(src + 64),
                    t3 = Load(src + 96), t4 = Load(src + 128),
                    t5 = Load(src + 160), t6 = Load(src + 192),
                    t7 = Load(src + 224);
      Store(dst, t0);
      Store(dst + 32, t1);
      Store(dst + 64, t2);
      Store(dst + 96, t3);
      Store(dst + 128, t4);
      Store(dst + 160, t5);
      Store(dst + 192, t6);
      Store(dst + 224, t7);
      w.AddBlock(t0, t1, t2, t3, t4, t5, t6, t7);
      src += kBlock;
      dst += kBlock;
    } while (src < end);
  }
}

// CopyAddBody copies src[0, len) to dst and adds their sum to `w`, except
// a last odd byte, whose native accumulator it returns (as AddBody), len <=
// kChunk, with at least 32 bytes before src + len and dst + len that are the
// input's and the output's.
[[gnu::always_inline]] inline uint64_t CopyAddBody(uint8_t* dst,
                                                   const uint8_t* src,
                                                   size_t len, Wide& w) {
  if (len >= kBlock) {
    CopySumBlocks(dst, src, len / kBlock, w);
    len %= kBlock;
  }
  if (len >= kHalf) {
    const __m256i t0 = Load(src), t1 = Load(src + 32), t2 = Load(src + 64),
                  t3 = Load(src + 96);
    Store(dst, t0);
    Store(dst + 32, t1);
    Store(dst + 64, t2);
    Store(dst + 96, t3);
    w.AddHalf(t0, t1, t2, t3);
    src += kHalf;
    dst += kHalf;
    len -= kHalf;
  }
  // As in AddTailHalf: whole vectors, then the 32 bytes that end at the
  // even end, stored whole (rewriting bytes already copied with the same
  // values) and masked for the sum.
  if (len > 1) {
    const size_t even = len & ~size_t{1};
    const size_t whole = (even - 1) / 32;  // 0..3 vectors before the last.
    // Every load before every store: a load after a store to an address
    // with the same low 12 bits (a destination 4 KiB from the source) waits
    // for it.
    __m256i t0 = _mm256_setzero_si256(), t1 = t0, t2 = t0;
    switch (whole) {
      case 3:
        t2 = Load(src + 64);
        [[fallthrough]];
      case 2:
        t1 = Load(src + 32);
        [[fallthrough]];
      case 1:
        t0 = Load(src);
        [[fallthrough]];
      default:
        break;
    }
    const __m256i last = Load(src + even - 32);
    switch (whole) {
      case 3:
        Store(dst + 64, t2);
        [[fallthrough]];
      case 2:
        Store(dst + 32, t1);
        [[fallthrough]];
      case 1:
        Store(dst, t0);
        [[fallthrough]];
      default:
        break;
    }
    Store(dst + even - 32, last);
    w.AddHalf(t0, t1, t2,
              _mm256_and_si256(last, Load(kTailMask + (even - 32 * whole))));
  }
  if (len & 1) dst[len - 1] = src[len - 1];
  return OddTail(src, len);
}

// CopyBody copies src[0, len) to dst and returns their folded native sum,
// as CopyAddBody.
[[gnu::always_inline]] inline uint16_t CopyBody(uint8_t* dst,
                                                const uint8_t* src,
                                                size_t len) {
  Wide w;
  const uint64_t odd_tail = CopyAddBody(dst, src, len, w);
  return FoldNative(AddEndAround(w.Native(), odd_tail));
}

// CopySmall is CopyBody for 64 <= len < kAlignFrom, like SumSmall.
uint16_t CopySmall(uint8_t* dst, const uint8_t* src, size_t len) {
  Lanes s0, s1;
  for (; len >= 64; len -= 64, src += 64, dst += 64) {
    const __m256i x0 = Load(src);
    const __m256i x1 = Load(src + 32);
    Store(dst, x0);
    Store(dst + 32, x1);
    s0.Add(x0);
    s1.Add(x1);
  }
  if (len >= 32) {
    const __m256i x = Load(src);
    Store(dst, x);
    s0.Add(x);
    len -= 32;
    src += 32;
    dst += 32;
  }
  if (len > 1) {
    const size_t even = len & ~size_t{1};
    Store(dst + even - 32, Load(src + even - 32));
    s1.Add(TailVector(src, even));
  }
  if (len & 1) dst[len - 1] = src[len - 1];
  s0.Merge(s1);
  return FoldNative(s0.Native() + OddTail(src, len));
}

// Reduce returns the native accumulator of four pairs of accumulators and
// sets them to zero.
[[gnu::always_inline]] inline uint64_t Reduce(Lanes& s0, Lanes& s1, Lanes& s2,
                                              Lanes& s3) {
  s0.Merge(s1);
  s2.Merge(s3);
  s0.Merge(s2);
  const uint64_t native = s0.Native();
  s0 = s1 = s2 = s3 = Lanes();
  return native;
}

// HeadLength returns how many bytes at `p` precede a 32-byte boundary.
size_t HeadLength(const void* p) {
  return (-reinterpret_cast<uintptr_t>(p)) & 31;
}

// SumLong is X86Avx2Sum for len >= kAlignFrom: a scalar head up to a
// 32-byte boundary, then SumBody per kChunk bytes. Out of line and reached
// by a tail call: a call that returns to X86Avx2Sum made gcc give it a
// realigned stack frame, paid by every call, short ones too.
// Every part given to SumBody ends at least kAlignFrom - 31 > 32 bytes
// into the input.
[[gnu::noinline]] uint16_t SumLong(const uint8_t* data, size_t len,
                                   uint16_t initial) {
  size_t off = HeadLength(data);
  uint16_t total = off != 0 ? FoldNative(SumShortNative(data, off)) : 0;
  while (off < len) {
    const size_t n = len - off < kChunk ? len - off : kChunk;
    total = AddFolded(total, SwapIfOdd(SumBody(data + off, n), off));
    off += n;
  }
  return FinishNative(total, initial);
}

// CopyLong is SumLong for CopySum: a scalar head up to a 32-byte boundary
// of the destination, then CopyBody per kChunk bytes.
[[gnu::noinline]] uint16_t CopyLong(uint8_t* dst, const uint8_t* src,
                                    size_t len, uint16_t initial) {
  size_t off = HeadLength(dst);
  uint16_t total = off != 0 ? FoldNative(CopyShortNative(dst, src, off)) : 0;
  while (off < len) {
    const size_t n = len - off < kChunk ? len - off : kChunk;
    total = AddFolded(total, SwapIfOdd(CopyBody(dst + off, src + off, n), off));
    off += n;
  }
  return FinishNative(total, initial);
}

// Movsb copies src[0, n) to dst with `rep movsb`, which no intrinsic names
// (the direction flag is clear at every function boundary, by the ABI).
[[gnu::always_inline]] inline void Movsb(uint8_t* dst, const uint8_t* src,
                                         size_t n) {
  __asm__ volatile("rep movsb" : "+D"(dst), "+S"(src), "+c"(n) : : "memory");
}

// CopySplit is X86Avx2CopySum for len >= kSplitFrom. With L the L1 data
// cache's size (clamped to [32 KiB, 96 KiB]), for L / 2 + 512 <= len <=
// L - 1024 it copies about the first L - len bytes with the fused loop
// (CopyLong) and the rest with `rep movsb`, kMovsbChunk bytes at a time,
// each chunk's source summed (SumBody) right after it, while it is in L1;
// other lengths all by CopyLong. x86_avx512.cc's CopyLong explains the
// split: the lines left in L1 are about L bytes, so a repeated copy runs
// the fused part from L1; from 48 KiB on, where all by `rep movsb` and
// SumBody would lose to the fused loop, the split stops. The
// fused part ends at a 32-byte boundary of the source, so that the chunks'
// loads split no line: it keeps at least 1024 - 31 >= kAlignFrom bytes
// (CopyLong's least) and leaves at least 2 len - L >= 1024, so every chunk
// has at least 32 bytes (SumBody's least) and at most kMovsbChunk + kBlock
// - 1 <= kChunk (its most).
[[gnu::noinline]] uint16_t CopySplit(uint8_t* dst, const uint8_t* src,
                                     size_t len, uint16_t initial) {
  size_t l1 = X86L1DataCacheBytes();
  l1 = l1 < (size_t{32} << 10) ? size_t{32} << 10 : l1;
  l1 = l1 > (size_t{96} << 10) ? size_t{96} << 10 : l1;
  if (len < l1 / 2 + 512 || len + 1024 > l1) {
    return CopyLong(dst, src, len, initial);  // A tail call.
  }
  size_t fused = l1 - len;
  fused -= reinterpret_cast<uintptr_t>(src + fused) & 31;
  // The fused part's sum, big-endian, with `initial`; then the chunks'
  // folded native sums, each placed by the parity of its offset.
  const uint16_t head = CopyLong(dst, src, fused, initial);
  uint16_t native = 0;
  for (size_t off = fused; off < len;) {
    const size_t n = len - off < kMovsbChunk + kBlock ? len - off : kMovsbChunk;
    Movsb(dst + off, src + off, n);
    native = AddFolded(native, SwapIfOdd(SumBody(src + off, n), off));
    off += n;
  }
  return FinishNative(native, head);
}

// AddMediumPiece adds the piece p[0, len), kShort <= len < kPieceAlignFrom,
// at a stream offset of parity `odd`, to the four Lanes (unaligned loads)
// and `acc` (its scalar parts), reducing the Lanes into `acc` first when
// they would pass kLanesChunk bytes. A piece at an odd offset gives its
// first byte to `acc` (the high byte of a little-endian word) and the rest
// starts at an even one, so every vector is added as loaded. Always
// inlined, so that the Lanes stay in the caller's registers.
[[gnu::always_inline]] inline void AddMediumPiece(const uint8_t* p, size_t len,
                                                  size_t odd, Lanes& s0,
                                                  Lanes& s1, Lanes& s2,
                                                  Lanes& s3, size_t& in_lanes,
                                                  uint64_t& acc) {
  if (odd & 1) {
    acc = AddEndAround(acc, uint64_t{p[0]} << 8);
    ++p;
    --len;  // Still at least 63: the tail vector reads back from the end.
  }
  if (in_lanes + len > kLanesChunk) {
    acc = AddEndAround(acc, Reduce(s0, s1, s2, s3));
    in_lanes = 0;
  }
  in_lanes += len;
  if (len >= 128) {
    SumLanesBlocks(p, len / 128, s0, s1, s2, s3);
    len &= 127;
  }
  if (len >= 64) {
    s0.Add(Load(p));
    s1.Add(Load(p + 32));
    p += 64;
    len -= 64;
  }
  if (len >= 32) {
    s2.Add(Load(p));
    p += 32;
    len -= 32;
  }
  if (len > 1) s3.Add(TailVector(p, len & ~size_t{1}));
  acc = AddEndAround(acc, OddTail(p, len));
}

// AddWidePiece adds the piece p[0, len), kShort <= len < kPieceAlignFrom,
// at a stream offset of parity `odd`, to `w` (AddBody: at most
// BlocksIn(kPieceAlignFrom) blocks and half blocks) and its scalar parts to
// `scalar` (each below 2^16). A piece at an odd offset gives its first byte
// to `scalar` (the high byte of a little-endian word) and the rest starts
// at an even one, so every vector is added as loaded, and AddBody's last
// odd byte, the low byte of its word, joins `scalar` as it is.
[[gnu::always_inline]] inline void AddWidePiece(const uint8_t* p, size_t len,
                                                size_t odd, Wide& w,
                                                uint64_t& scalar) {
  if (odd & 1) {
    scalar += uint64_t{p[0]} << 8;
    ++p;
    --len;  // Still at least 63: AddBody's tail reads back from the end.
  }
  scalar += AddBody(p, len, w);
}

}  // namespace

uint16_t X86Avx2Sum(const uint8_t* data, size_t len, uint16_t initial) {
  if (len < kShort) {
    return FinishAccumulator(SumShortNative(data, len), initial);
  }
  if (len < kAlignFrom) return FinishNative(SumSmall(data, len), initial);
  // An aligned input of at most kChunk bytes, the common case, goes
  // straight to the loop; the rest (the chunk loop and the head) is kept out
  // of line, so that its registers and stack frame cost this path nothing.
  if (HeadLength(data) == 0 && len <= kChunk) {
    Wide w;
    const uint64_t odd_tail = AddBody(data, len, w);
    return FinishWide(w, odd_tail, initial);
  }
  return SumLong(data, len, initial);  // A tail call: no frame here.
}

uint16_t X86Avx2SumPieces(const std::span<const uint8_t>* pieces, size_t count,
                          size_t stride, uint16_t initial) {
  // Two or three medium pieces: one Wide (AddWidePiece). Any other list:
  // one set of four accumulator pairs, kept in registers across the pieces
  // and reduced once at the end (or at kLanesChunk bytes), whose loop
  // leaves room for a long piece's own Wide; `acc` holds the scalar parts,
  // each placed by the parity of its stream offset. Medium pieces are not
  // aligned: an unaligned 32-byte load costs little next to an alignment
  // head and its placement per piece.
  Lanes s0, s1, s2, s3;
  size_t in_lanes = 0;
  uint64_t acc = 0;
  const auto medium = [](size_t n) {
    return n - kShort < kPieceAlignFrom - kShort;
  };
  if (count >= 2 && count <= 3) {
    // A packet's payload in two or three medium views: every descriptor is
    // read first and the pieces summed in straight-line code, so that no
    // piece waits on the loop to learn where it is (as in x86_avx512).
    const std::span<const uint8_t> a = PieceAt(pieces, 0, stride);
    const std::span<const uint8_t> b = PieceAt(pieces, 1, stride);
    const std::span<const uint8_t> c =
        count == 3 ? PieceAt(pieces, 2, stride) : std::span<const uint8_t>();
    // Their vectors go to one Wide, the 256-byte loop's accumulators (17
    // vector operations per eight loads, against the Lanes' 24).
    if (medium(a.size()) && medium(b.size()) &&
        (count == 2 || medium(c.size()))) {
      Wide w;
      uint64_t scalar = 0;  // At most six parts below 2^16.
      AddWidePiece(a.data(), a.size(), 0, w, scalar);
      AddWidePiece(b.data(), b.size(), a.size(), w, scalar);
      if (count == 3) {
        AddWidePiece(c.data(), c.size(), a.size() ^ b.size(), w, scalar);
      }
      return FinishWide(w, scalar, initial);
    }
  }
  size_t odd = 0;
  for (size_t i = 0; i < count; ++i) {
    const uint8_t* p = PieceAt(pieces, i, stride).data();
    const size_t len = PieceAt(pieces, i, stride).size();
    if (len < kShort) {
      acc = AddEndAround(acc, PlaceNative(SumShortNative(p, len), odd));
    } else if (medium(len)) {
      AddMediumPiece(p, len, odd, s0, s1, s2, s3, in_lanes, acc);
    } else {
      // Long pieces take the aligned 256-byte loop and reduce on their own.
      size_t off = HeadLength(p);
      uint64_t own = off != 0 ? SumShortNative(p, off) : 0;
      while (off < len) {
        const size_t n = len - off < kChunk ? len - off : kChunk;
        Wide body;
        const uint64_t tail = AddBody(p + off, n, body);
        own = AddEndAround(own,
                           PlaceNative(AddEndAround(body.Native(), tail), off));
        off += n;
      }
      acc = AddEndAround(acc, PlaceNative(own, odd));
    }
    odd ^= len;
  }
  // No medium piece (a contiguous buffer, say): nothing to reduce.
  if (in_lanes != 0) acc = AddEndAround(acc, Reduce(s0, s1, s2, s3));
  return FinishAccumulator(acc, initial);
}

uint16_t X86Avx2CopySum(uint8_t* dst, const uint8_t* src, size_t len,
                        uint16_t initial) {
  if (len < kShort) {
    return FinishAccumulator(CopyShortNative(dst, src, len), initial);
  }
  if (len < kAlignFrom) return FinishNative(CopySmall(dst, src, len), initial);
  if (len >= kSplitFrom) return CopySplit(dst, src, len, initial);  // Tail.
  // As in X86Avx2Sum: an aligned destination of at most kChunk bytes goes
  // straight to the loop.
  if (HeadLength(dst) == 0 && len <= kChunk) {
    Wide w;
    const uint64_t odd_tail = CopyAddBody(dst, src, len, w);
    return FinishWide(w, odd_tail, initial);
  }
  return CopyLong(dst, src, len, initial);  // A tail call.
}

}  // namespace ipsum::checksum::internal

#endif  // defined(__x86_64__)
