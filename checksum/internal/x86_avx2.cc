// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// The x86-64 AVX2 fast path. The data is read as 64-bit lanes in native
// (little-endian) order and summed modulo 2^64 with plain vector adds, which
// drop the carries out of bit 63. To recover them, a second accumulator
// sums the high 32-bit half of every lane (a shift and an add). With A the
// lane sum modulo 2^64 and H the exact sum of the high halves, the exact sum
// of the low halves is L = A - H * 2^32 (mod 2^64, exact while it is below
// 2^64), and the one's-complement sum of the lane is L + H, because
// 2^32 == 1 (mod 0xffff). Three vector operations per 32 bytes, no
// widening shuffles. The 128-byte loop (inline assembly) feeds four pairs of
// accumulators (two pairs measured 25% slower); the folded 16-bit result is
// byte-swapped once (RFC 1071 2(B)). That is the bound of this method: the
// read-only baseline (read_baseline_avx2.h) needs one vector operation per
// 32 bytes, this one three, so on a core with four vector pipes it reaches
// at most 2/3 of the L1 read bandwidth; from L2 on, memory is the limit.
//
// Inputs shorter than 64 bytes take the scalar path of native_sum.h; the
// last bytes of longer ones are one masked vector (and an odd last byte). Long
// inputs first sum a scalar head up to a 32-byte boundary (of the source for
// Sum, of the destination for CopySum) so that no load (or store) in the
// loop splits a cache line; if the head has odd length, the rest is a part
// at an odd offset and its sum is swapped before it is added. Only this file
// is built with -mavx2.

#include "checksum/internal/x86_avx2.h"

#if defined(__x86_64__)

#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "checksum/internal/native_sum.h"

namespace ipsum::checksum::internal {
namespace {

// kShort: below this length the scalar path is used.
constexpr size_t kShort = 64;
// kAlignFrom: from this length on, the head is summed up to alignment and the
// four-accumulator loop runs; shorter inputs take SumSmall/CopySmall.
constexpr size_t kAlignFrom = 256;
// kPieceAlignFrom: in SumPieces, from this length on a piece is summed up
// to alignment and reduced on its own; shorter ones (from kShort) are read
// unaligned into accumulators shared by all pieces.
constexpr size_t kPieceAlignFrom = 2048;
// kChunk bounds the bytes given to one pass of the vector loop, so that the
// exact sums L and H of each lane stay below 2^64 (2^31 lanes of 2^32).
constexpr size_t kChunk = size_t{1} << 36;

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

// Load reads 16/32 unaligned bytes into a register. The empty asm pins the
// value in that register: without it GCC folds the load into the add as a
// memory operand and loads the same bytes a second time for the shift,
// doubling the loads per byte, which are the bottleneck.
__m256i Load(const uint8_t* p) {
  __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
  __asm__("" : "+x"(x));
  return x;
}

void Store(uint8_t* p, __m256i x) {
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), x);
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

// TailVector returns the last `even` bytes before p + even (even < 32, an
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

// SumBlocks adds the `blocks` (> 0) 128-byte blocks at p to the four pairs
// of accumulators and advances p past them. Written in assembly because gcc
// 12 shuffled the accumulators between registers inside the loop (two to
// four extra moves per 19 operations, in a loop limited by how many
// operations the core can issue). Always inlined, so that the accumulators
// of a caller stay in registers (SumPieces keeps them across pieces).
[[gnu::always_inline]] inline void SumBlocks(const uint8_t*& p, size_t blocks,
                                             Lanes& s0, Lanes& s1, Lanes& s2,
                                             Lanes& s3) {
  const uint8_t* const end = p + blocks * 128;
  __m256i t0, t1, t2, t3;
  __asm__(
      "1:\n\t"
      "vmovdqu (%[p]), %[t0]\n\t"
      "vmovdqu 32(%[p]), %[t1]\n\t"
      "vmovdqu 64(%[p]), %[t2]\n\t"
      "vmovdqu 96(%[p]), %[t3]\n\t"
      "vpaddq %[t0], %[a0], %[a0]\n\t"
      "vpsrlq $32, %[t0], %[t0]\n\t"
      "vpaddq %[t1], %[a1], %[a1]\n\t"
      "vpsrlq $32, %[t1], %[t1]\n\t"
      "vpaddq %[t2], %[a2], %[a2]\n\t"
      "vpsrlq $32, %[t2], %[t2]\n\t"
      "vpaddq %[t3], %[a3], %[a3]\n\t"
      "vpsrlq $32, %[t3], %[t3]\n\t"
      "vpaddq %[t0], %[h0], %[h0]\n\t"
      "vpaddq %[t1], %[h1], %[h1]\n\t"
      "vpaddq %[t2], %[h2], %[h2]\n\t"
      "vpaddq %[t3], %[h3], %[h3]\n\t"
      "subq $-128, %[p]\n\t"
      "cmpq %[end], %[p]\n\t"
      "jb 1b\n\t"
      : [p] "+r"(p), [a0] "+x"(s0.a), [h0] "+x"(s0.h), [a1] "+x"(s1.a),
        [h1] "+x"(s1.h), [a2] "+x"(s2.a), [h2] "+x"(s2.h), [a3] "+x"(s3.a),
        [h3] "+x"(s3.h), [t0] "=&x"(t0), [t1] "=&x"(t1), [t2] "=&x"(t2),
        [t3] "=&x"(t3)
      : [end] "r"(end)
      // The loop reads blocks * 128 bytes at p; "memory" says so.
      : "cc", "memory");
}

// AddBody adds p[0, len), 64 <= len <= kChunk, positions counted from p,
// to `out`, except a last odd byte, whose native accumulator it returns (0
// for an even len).
[[gnu::always_inline]] inline uint64_t AddBody(const uint8_t* p, size_t len,
                                               Lanes& out) {
  Lanes s0, s1, s2, s3;
  if (len >= 128) {
    SumBlocks(p, len / 128, s0, s1, s2, s3);
    len &= 127;
  }
  for (; len >= 32; len -= 32, p += 32) s0.Add(Load(p));
  // The last len < 32 bytes: one masked vector over the even part, ending
  // where it ends (the whole input is at least 64 bytes and this is its end,
  // so the bytes before the tail are readable), and a last odd byte alone.
  if (len > 1) s1.Add(TailVector(p, len & ~size_t{1}));
  s0.Merge(s1);
  s2.Merge(s3);
  s0.Merge(s2);
  out.Merge(s0);
  return OddTail(p, len);
}

// SumBody returns the folded native sum of p[0, len), 64 <= len <= kChunk.
uint16_t SumBody(const uint8_t* p, size_t len) {
  Lanes s;
  const uint64_t odd_tail = AddBody(p, len, s);
  return FoldNative(s.Native() + odd_tail);
}

// AddSmall is AddBody for 64 <= len < kAlignFrom: one pair of accumulators,
// so less to set up and merge.
[[gnu::always_inline]] inline uint64_t AddSmall(const uint8_t* p, size_t len,
                                                Lanes& out) {
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
  if (len > 1) s1.Add(TailVector(p, len & ~size_t{1}));
  s0.Merge(s1);
  out.Merge(s0);
  return OddTail(p, len);
}

// SumSmall is SumBody for 64 <= len < kAlignFrom (AddSmall).
uint16_t SumSmall(const uint8_t* p, size_t len) {
  Lanes s;
  const uint64_t odd_tail = AddSmall(p, len, s);
  return FoldNative(s.Native() + odd_tail);
}

// CopySumBlocks is SumBlocks that also stores each block to dst, advancing
// both pointers.
void CopySumBlocks(uint8_t*& dst, const uint8_t*& src, size_t blocks, Lanes& s0,
                   Lanes& s1, Lanes& s2, Lanes& s3) {
  const uint8_t* const end = src + blocks * 128;
  __m256i t0, t1, t2, t3;
  __asm__(
      "1:\n\t"
      "vmovdqu (%[s]), %[t0]\n\t"
      "vmovdqu 32(%[s]), %[t1]\n\t"
      "vmovdqu 64(%[s]), %[t2]\n\t"
      "vmovdqu 96(%[s]), %[t3]\n\t"
      "vmovdqu %[t0], (%[d])\n\t"
      "vmovdqu %[t1], 32(%[d])\n\t"
      "vmovdqu %[t2], 64(%[d])\n\t"
      "vmovdqu %[t3], 96(%[d])\n\t"
      "vpaddq %[t0], %[a0], %[a0]\n\t"
      "vpsrlq $32, %[t0], %[t0]\n\t"
      "vpaddq %[t1], %[a1], %[a1]\n\t"
      "vpsrlq $32, %[t1], %[t1]\n\t"
      "vpaddq %[t2], %[a2], %[a2]\n\t"
      "vpsrlq $32, %[t2], %[t2]\n\t"
      "vpaddq %[t3], %[a3], %[a3]\n\t"
      "vpsrlq $32, %[t3], %[t3]\n\t"
      "vpaddq %[t0], %[h0], %[h0]\n\t"
      "vpaddq %[t1], %[h1], %[h1]\n\t"
      "vpaddq %[t2], %[h2], %[h2]\n\t"
      "vpaddq %[t3], %[h3], %[h3]\n\t"
      "subq $-128, %[s]\n\t"
      "subq $-128, %[d]\n\t"
      "cmpq %[end], %[s]\n\t"
      "jb 1b\n\t"
      : [s] "+r"(src), [d] "+r"(dst), [a0] "+x"(s0.a), [h0] "+x"(s0.h),
        [a1] "+x"(s1.a), [h1] "+x"(s1.h), [a2] "+x"(s2.a), [h2] "+x"(s2.h),
        [a3] "+x"(s3.a), [h3] "+x"(s3.h), [t0] "=&x"(t0), [t1] "=&x"(t1),
        [t2] "=&x"(t2), [t3] "=&x"(t3)
      : [end] "r"(end)
      : "cc", "memory");
}

// CopyBody copies src[0, len) to dst and returns their folded native sum,
// len <= kChunk.
uint16_t CopyBody(uint8_t* dst, const uint8_t* src, size_t len) {
  Lanes s0, s1, s2, s3;
  if (len >= 128) {
    CopySumBlocks(dst, src, len / 128, s0, s1, s2, s3);
    len &= 127;
  }
  for (; len >= 32; len -= 32, src += 32, dst += 32) {
    const __m256i x = Load(src);
    Store(dst, x);
    s0.Add(x);
  }
  // As in SumBody; the tail's whole vector is stored too, rewriting bytes
  // already copied with the same values.
  if (len > 1) {
    const size_t even = len & ~size_t{1};
    Store(dst + even - 32, Load(src + even - 32));
    s1.Add(TailVector(src, even));
  }
  if (len & 1) dst[len - 1] = src[len - 1];
  s0.Merge(s1);
  s2.Merge(s3);
  s0.Merge(s2);
  return FoldNative(s0.Native() + OddTail(src, len));
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

}  // namespace

uint16_t X86Avx2Sum(const uint8_t* data, size_t len, uint16_t initial) {
  if (len < kShort) {
    return FinishAccumulator(SumShortNative(data, len), initial);
  }
  if (len < kAlignFrom) return FinishNative(SumSmall(data, len), initial);
  uint16_t total = 0;
  size_t off = 0;
  if ((off = HeadLength(data)) != 0) {
    total = FoldNative(SumShortNative(data, off));
  }
  while (off < len) {
    const size_t n = len - off < kChunk ? len - off : kChunk;
    total = AddFolded(total, SwapIfOdd(SumBody(data + off, n), off));
    off += n;
  }
  return FinishNative(total, initial);
}

uint16_t X86Avx2SumPieces(const std::span<const uint8_t>* pieces, size_t count,
                          uint16_t initial) {
  // One set of four accumulator pairs, kept in registers across the pieces
  // and reduced once at the end (or when it holds kChunk bytes); `acc` holds
  // the scalar parts, each placed by the parity of its stream offset. A
  // medium piece that starts at an odd offset gives its first byte to `acc`
  // (the high byte of a little-endian word) and the rest starts at an even
  // one, so every vector is added as loaded: no byte swap, no second set.
  // Medium pieces are not aligned: an unaligned 32-byte load costs little
  // next to an alignment head and its placement per piece.
  Lanes s0, s1, s2, s3;
  size_t in_lanes = 0;
  uint64_t acc = 0;
  size_t odd = 0;
  for (size_t i = 0; i < count; ++i) {
    const uint8_t* p = pieces[i].data();
    const size_t piece_len = pieces[i].size();
    size_t len = piece_len;
    if (len < kShort) {
      acc = AddEndAround(acc, PlaceNative(SumShortNative(p, len), odd));
    } else if (len < kPieceAlignFrom) {
      if (odd & 1) {
        acc = AddEndAround(acc, uint64_t{p[0]} << 8);
        ++p;
        --len;  // Still at least 63: the tail vector reads back from the end.
      }
      if (in_lanes + len > kChunk) {
        acc = AddEndAround(acc, Reduce(s0, s1, s2, s3));
        in_lanes = 0;
      }
      in_lanes += len;
      if (len >= 128) {
        SumBlocks(p, len / 128, s0, s1, s2, s3);
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
    } else {
      // Long pieces keep the aligned loop and reduce on their own.
      size_t off = HeadLength(p);
      uint64_t own = off != 0 ? SumShortNative(p, off) : 0;
      while (off < len) {
        const size_t n = len - off < kChunk ? len - off : kChunk;
        Lanes body;
        const uint64_t tail = AddBody(p + off, n, body);
        own = AddEndAround(own,
                           PlaceNative(AddEndAround(body.Native(), tail), off));
        off += n;
      }
      acc = AddEndAround(acc, PlaceNative(own, odd));
    }
    odd ^= piece_len;
  }
  acc = AddEndAround(acc, Reduce(s0, s1, s2, s3));
  return FinishAccumulator(acc, initial);
}

uint16_t X86Avx2CopySum(uint8_t* dst, const uint8_t* src, size_t len,
                        uint16_t initial) {
  if (len < kShort) {
    return FinishAccumulator(CopyShortNative(dst, src, len), initial);
  }
  if (len < kAlignFrom) return FinishNative(CopySmall(dst, src, len), initial);
  uint16_t total = 0;
  size_t off = 0;
  if ((off = HeadLength(dst)) != 0) {
    total = FoldNative(CopyShortNative(dst, src, off));
  }
  while (off < len) {
    const size_t n = len - off < kChunk ? len - off : kChunk;
    total = AddFolded(total, SwapIfOdd(CopyBody(dst + off, src + off, n), off));
    off += n;
  }
  return FinishNative(total, initial);
}

}  // namespace ipsum::checksum::internal

#endif  // defined(__x86_64__)
