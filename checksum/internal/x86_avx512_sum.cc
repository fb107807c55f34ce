// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// X86Avx512Sum, the contiguous sum, by size class: below 64 bytes
// native_sum.h's scalar path; 64 to 255 bytes one to four unaligned
// vectors reduced by carry-save adders (SumMedium); 256 to 511 unaligned
// vectors into Lanes (SumSmall); from 512 on the 512-byte loop over the
// 64-byte aligned vectors that cover the input (SumFromBoundary), the first
// and last masked so that no byte outside the input is read and no scalar
// code is needed for the ends.

#include "checksum/internal/x86_avx512.h"

#if defined(__x86_64__)

#include <immintrin.h>

#include <bit>
#include <cstddef>
#include <cstdint>

#include "checksum/internal/native_sum.h"
#include "checksum/internal/x86_avx512_accumulator.h"

namespace ipsum::checksum::internal {
namespace avx512 {
namespace {

// kMediumEnd, kAlignFrom: the ends of SumMedium's and SumSmall's classes.
constexpr size_t kMediumEnd = 256;
constexpr size_t kAlignFrom = 512;
// kChunkBlocks bounds the blocks of one run of the loop: with the first
// (head-masked) block and the tail's, one Wide holds at most
// kChunkBlocks + 2 blocks.
constexpr size_t kChunkBlocks = 256;
static_assert(kChunkBlocks + 2 <= kMaxBlocks);

// Halves returns x with each 64-bit lane replaced by the sum of its two
// 32-bit halves, below 2^33: the same value modulo 2^32 - 1, so modulo
// 0xffff (2^32 == 1). Lanes this small add without carries.
[[gnu::always_inline]] inline __m512i Halves(__m512i x) {
  return _mm512_add_epi64(ShiftRight(x, 32),
                          _mm512_and_si512(x, _mm512_set1_epi64(0xffffffff)));
}

// AddThree reduces three vectors to two with the same lane sums modulo
// 2^64 - 1 in three operations and no carries, a carry-save adder
// (docs/design.md, "Carry-save adders"): a + b + c == `sum` + `carry`, the
// majority doubled by a rotation left by one.
[[gnu::always_inline]] inline void AddThree(__m512i a, __m512i b, __m512i c,
                                            __m512i& sum, __m512i& carry) {
  sum = _mm512_ternarylogic_epi64(a, b, c, 0x96);  // a ^ b ^ c
  carry = RotateLanes(_mm512_ternarylogic_epi64(a, b, c, 0xe8), 1);  // maj
}

// SumMedium returns the SumFn result for p[0, len), kShort <= len <
// kMediumEnd: one to four vectors, the last a masked load of the last
// 1..64 bytes, in straight-line code per vector count. At these lengths the
// cost is the instruction count, so the vectors are reduced by carry-save
// adders to at most two and those to the sums of their 32-bit halves, added
// across the lanes exactly (below 2^37). The branch layout lets one full
// vector run straight through.
uint16_t SumMedium(const uint8_t* p, size_t len, uint16_t initial) {
  __m512i s;
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

// SumSmall returns the native accumulator of p[0, len), 1 <= len <
// kAlignFrom: whole vectors into two Lanes in turn, then the last 1..64
// bytes as one masked vector.
uint64_t SumSmall(const uint8_t* p, size_t len) {
  Lanes s0, s1;
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
  s0.Merge(s1);
  return s0.Native();
}

// SumFromBoundary returns a value congruent modulo 0xffff to the sum of
// base[off, off + len), positions counted from `base` (64-byte aligned,
// off < 64, len >= kBlock), plus `extra` (below 2^34): below 2^53, zero
// only if both are. Reads only those bytes: the first vector is masked
// below `off`, the tail's last one above the end. Runs of kChunkBlocks
// blocks while more than that are left, each reduced into the next run's
// `extra`; then the last run and the tail, with no second test of the
// length on the way. ReduceShortChain, so that the next call overlaps as
// much of this one as it can.
[[gnu::always_inline]] inline uint64_t SumFromBoundary(const uint8_t* base,
                                                       size_t off, size_t len,
                                                       uint64_t extra) {
  const uint8_t* p = base;
  size_t span = off + len;  // Bytes from p to the end, at least kBlock.
  Wide w;
  w.AddBlock(LoadMasked(p, ~uint64_t{0} << off), Load(p + 64), Load(p + 128),
             Load(p + 192), Load(p + 256), Load(p + 320), Load(p + 384),
             Load(p + 448));
  p += kBlock;
  span -= kBlock;
  while (span >= (kChunkBlocks + 1) * kBlock) [[unlikely]] {
      AddBlocks(p, kChunkBlocks, w);
      span -= kChunkBlocks * kBlock;
      extra = Halved(ReduceShortChain(w, extra));
      w = Wide();
    }
  if (span >= kBlock) [[likely]] {
    AddBlocks(p, span / kBlock, w);
    span %= kBlock;
  }
  if (span > 0) AddPartialBlock(p, span, nullptr, w);
  return ReduceShortChain(w, extra);
}

// SumLong returns X86Avx512Sum(data, len, initial) for len >= kBlock. The
// initial value goes in first, rotated right by 8 bits where data lies an
// odd distance past its 64-byte boundary, so that the one rotation that
// places the sum puts it back.
[[gnu::always_inline]] inline uint16_t SumLong(const uint8_t* data, size_t len,
                                               uint16_t initial) {
  const size_t off = BaseOffset(data);
  const uint64_t extra =
      std::rotr(InitialNative(initial), 8 * static_cast<int>(off & 1));
  return FinishShort(
      PlaceNative(SumFromBoundary(data - off, off, len, extra), off));
}

}  // namespace

uint64_t SumAligned(const uint8_t* base, size_t off, size_t len) {
  return SumFromBoundary(base, off, len, 0);
}

}  // namespace avx512

uint16_t X86Avx512Sum(const uint8_t* data, size_t len, uint16_t initial) {
  // Medium inputs first, as one unsigned range check that falls through:
  // the public Checksum sums inputs shorter than kShort itself, so these
  // are the shortest it sends here, the ones whose cost is the branches.
  if (len - avx512::kShort < avx512::kMediumEnd - avx512::kShort) [[likely]] {
    return avx512::SumMedium(data, len, initial);
  }
  if (len < avx512::kShort) {
    return FinishAccumulator(SumShortNative(data, len), initial);
  }
  if (len < avx512::kAlignFrom) {
    return FinishAccumulator(avx512::SumSmall(data, len), initial);
  }
  return avx512::SumLong(data, len, initial);
}

}  // namespace ipsum::checksum::internal

#endif  // defined(__x86_64__)
