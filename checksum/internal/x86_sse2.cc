// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// The x86-64 SSE2 fast path. The data is read as 64-bit lanes in native
// (little-endian) order and summed modulo 2^64 with plain vector adds, which
// drop the carries out of bit 63. To recover them, a second accumulator
// sums the high 32-bit half of every lane (a shift and an add). With A the
// lane sum modulo 2^64 and H the exact sum of the high halves, the exact sum
// of the low halves is L = A - H * 2^32 (mod 2^64, exact while it is below
// 2^64), and the one's-complement sum of the lane is L + H, because
// 2^32 == 1 (mod 0xffff). Three vector operations per 16 bytes, no
// widening shuffles. Four independent pairs of accumulators, 64 bytes per
// iteration; the folded 16-bit result is byte-swapped once (RFC 1071 2(B)).
//
// Inputs shorter than 64 bytes take the scalar path of native_sum.h; the
// last bytes of longer ones are one masked vector (and an odd last byte). Long
// inputs first sum a scalar head up to a 16-byte boundary (of the source for
// Sum, of the destination for CopySum) so that no load (or store) in the
// loop splits a cache line; if the head has odd length, the rest is a part
// at an odd offset and its sum is swapped before it is added. No flag needed:
// SSE2 is part of x86-64.

#include "checksum/internal/x86_sse2.h"

#if defined(__x86_64__)

#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "checksum/internal/native_sum.h"

namespace ipsum::checksum::internal {
namespace {

// kShort: below this length the scalar path is used.
constexpr size_t kShort = 64;
// kAlignFrom: from this length on, the head is summed up to alignment.
constexpr size_t kAlignFrom = 256;
// kChunk bounds the bytes given to one pass of the vector loop, so that the
// exact sums L and H of each lane stay below 2^64 (2^31 lanes of 2^32).
constexpr size_t kChunk = size_t{1} << 36;

// Lanes holds one pair of accumulators: `a`, the lane sums modulo 2^64, and
// `h`, the exact sums of the lanes' high 32-bit halves.
struct Lanes {
  __m128i a = _mm_setzero_si128();
  __m128i h = _mm_setzero_si128();

  void Add(__m128i x) {
    a = _mm_add_epi64(a, x);
    h = _mm_add_epi64(h, _mm_srli_epi64(x, 32));
  }

  void Merge(const Lanes& o) {
    a = _mm_add_epi64(a, o.a);
    h = _mm_add_epi64(h, o.h);
  }

  // Native returns a native accumulator of everything added: per lane the
  // exact L = a - h * 2^32 and h, each folded once to below 2^33 and summed
  // across lanes, all exact, below 2^37.
  uint64_t Native() const {
    const __m128i l = _mm_sub_epi64(a, _mm_slli_epi64(h, 32));
    const __m128i lo = _mm_set1_epi64x(0xffffffff);
    const __m128i s = _mm_add_epi64(
        _mm_add_epi64(_mm_and_si128(l, lo), _mm_srli_epi64(l, 32)),
        _mm_add_epi64(_mm_and_si128(h, lo), _mm_srli_epi64(h, 32)));
    __m128i t = s;
    t = _mm_add_epi64(t, _mm_unpackhi_epi64(t, t));
    return static_cast<uint64_t>(_mm_cvtsi128_si64(t));
  }
};

// Load reads 16/32 unaligned bytes into a register. The empty asm pins the
// value in that register: without it GCC folds the load into the add as a
// memory operand and loads the same bytes a second time for the shift,
// doubling the loads per byte, which are the bottleneck.
__m128i Load(const uint8_t* p) {
  __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  __asm__("" : "+x"(x));
  return x;
}

void Store(uint8_t* p, __m128i x) {
  _mm_storeu_si128(reinterpret_cast<__m128i*>(p), x);
}

// kTailMask is 16 zero bytes then 16 0xff bytes: loading 16 bytes at
// kTailMask + n gives a mask that keeps the last n bytes of a vector.
alignas(64) constexpr uint8_t kTailMask[2 * 16] = {
    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,
    0,    0,    0,    0,    0,    0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};

// TailVector returns the last `even` bytes before p + even (even < 16, an
// even number, at least 16 readable bytes before p + even) as a vector
// whose other bytes are zero, in the word positions their offsets from p
// give them: the vector ends at p + even, an even distance from p.
__m128i TailVector(const uint8_t* p, size_t even) {
  return _mm_and_si128(Load(p + even - 16), Load(kTailMask + even));
}

// OddTail returns the native accumulator of the last byte of an odd-length
// tail of `len` bytes at p, or 0 when len is even.
uint64_t OddTail(const uint8_t* p, size_t len) {
  return (len & 1) ? uint64_t{p[len - 1]} : 0;  // A low byte (little-endian).
}

// AddBody adds p[0, len), len <= kChunk, positions counted from p, to
// `out`, except a last odd byte, whose native accumulator it returns (0 for
// an even len). At least 16 bytes before p + len must be readable.
[[gnu::always_inline]] inline uint64_t AddBody(const uint8_t* p, size_t len,
                                               Lanes& out) {
  Lanes s0, s1, s2, s3;
  for (; len >= 64; len -= 64, p += 64) {
    s0.Add(Load(p));
    s1.Add(Load(p + 16));
    s2.Add(Load(p + 32));
    s3.Add(Load(p + 48));
  }
  for (; len >= 16; len -= 16, p += 16) s0.Add(Load(p));
  // The last len < 16 bytes: one masked vector over the even part, ending
  // where it ends (the whole input is at least 64 bytes and this is its end,
  // so the bytes before the tail are readable), and a last odd byte alone.
  if (len > 1) s1.Add(TailVector(p, len & ~size_t{1}));
  s0.Merge(s1);
  s2.Merge(s3);
  s0.Merge(s2);
  out.Merge(s0);
  return OddTail(p, len);
}

// SumBody returns the folded native sum of p[0, len), len <= kChunk.
uint16_t SumBody(const uint8_t* p, size_t len) {
  Lanes s;
  const uint64_t odd_tail = AddBody(p, len, s);
  return FoldNative(s.Native() + odd_tail);
}

// CopyBody copies src[0, len) to dst and returns their folded native sum,
// len <= kChunk.
uint16_t CopyBody(uint8_t* dst, const uint8_t* src, size_t len) {
  Lanes s0, s1, s2, s3;
  for (; len >= 64; len -= 64, src += 64, dst += 64) {
    const __m128i x0 = Load(src);
    const __m128i x1 = Load(src + 16);
    const __m128i x2 = Load(src + 32);
    const __m128i x3 = Load(src + 48);
    Store(dst, x0);
    Store(dst + 16, x1);
    Store(dst + 32, x2);
    Store(dst + 48, x3);
    s0.Add(x0);
    s1.Add(x1);
    s2.Add(x2);
    s3.Add(x3);
  }
  for (; len >= 16; len -= 16, src += 16, dst += 16) {
    const __m128i x = Load(src);
    Store(dst, x);
    s0.Add(x);
  }
  // As in SumBody; the tail's whole vector is stored too, rewriting bytes
  // already copied with the same values.
  if (len > 1) {
    const size_t even = len & ~size_t{1};
    Store(dst + even - 16, Load(src + even - 16));
    s1.Add(TailVector(src, even));
  }
  if (len & 1) dst[len - 1] = src[len - 1];
  s0.Merge(s1);
  s2.Merge(s3);
  s0.Merge(s2);
  return FoldNative(s0.Native() + OddTail(src, len));
}

// HeadLength returns how many bytes at `p` precede a 16-byte boundary.
size_t HeadLength(const void* p) {
  return (-reinterpret_cast<uintptr_t>(p)) & 15;
}

}  // namespace

uint16_t X86Sse2Sum(const uint8_t* data, size_t len, uint16_t initial) {
  if (len < kShort) {
    return FinishAccumulator(SumShortNative(data, len), initial);
  }
  uint16_t total = 0;
  size_t off = 0;
  if (len >= kAlignFrom && (off = HeadLength(data)) != 0) {
    total = FoldNative(SumShortNative(data, off));
  }
  while (off < len) {
    const size_t n = len - off < kChunk ? len - off : kChunk;
    total = AddFolded(total, SwapIfOdd(SumBody(data + off, n), off));
    off += n;
  }
  return FinishNative(total, initial);
}

uint16_t X86Sse2SumPieces(const std::span<const uint8_t>* pieces, size_t count,
                          size_t stride, uint16_t initial) {
  // lanes[k] sums the vector parts that start at a stream offset of parity
  // k, across pieces; `acc` the scalar parts (short pieces, heads, odd last
  // bytes), each placed by its parity (PlaceNative). The lanes are reduced
  // once at the end, or when they hold kChunk bytes (Flush).
  Lanes lanes[2];
  size_t in_lanes = 0;
  uint64_t acc = 0;
  auto flush = [&] {
    acc = AddEndAround(acc, lanes[0].Native());
    acc = AddEndAround(acc, PlaceNative(lanes[1].Native(), 1));
    lanes[0] = Lanes();
    lanes[1] = Lanes();
    in_lanes = 0;
  };
  size_t odd = 0;
  for (size_t i = 0; i < count; ++i) {
    const uint8_t* const p = PieceAt(pieces, i, stride).data();
    const size_t len = PieceAt(pieces, i, stride).size();
    if (len < kShort) {
      acc = AddEndAround(acc, PlaceNative(SumShortNative(p, len), odd));
    } else {
      size_t off = 0;
      if (len >= kAlignFrom && (off = HeadLength(p)) != 0) {
        acc = AddEndAround(acc, PlaceNative(SumShortNative(p, off), odd));
      }
      while (off < len) {
        const size_t n = len - off < kChunk ? len - off : kChunk;
        if (in_lanes + n > kChunk) flush();
        in_lanes += n;
        const size_t at = (odd ^ off) & 1;
        acc =
            AddEndAround(acc, PlaceNative(AddBody(p + off, n, lanes[at]), at));
        off += n;
      }
    }
    odd ^= len;
  }
  flush();
  return FinishAccumulator(acc, initial);
}

uint16_t X86Sse2CopySum(uint8_t* dst, const uint8_t* src, size_t len,
                        uint16_t initial) {
  if (len < kShort) {
    return FinishAccumulator(CopyShortNative(dst, src, len), initial);
  }
  uint16_t total = 0;
  size_t off = 0;
  if (len >= kAlignFrom && (off = HeadLength(dst)) != 0) {
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
