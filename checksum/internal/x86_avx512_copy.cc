// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// X86Avx512CopySum, the fused copy and sum, by size class: below 64 bytes
// native_sum.h's scalar path; up to 511 bytes unaligned vectors into Lanes
// (CopySmall); then the sum's 512-byte loop with a store after each load,
// its blocks counted from the destination's 64-byte boundary so that the
// stores are aligned, the head and tail loaded and stored masked so that
// nothing outside dst[0, len) is written (CopyMedium). Copies that do not
// fit L1 with their source mix `rep movsb` with that loop (CopyLong;
// docs/design.md, "The fused copy").

#include "checksum/internal/x86_avx512.h"

#if defined(__x86_64__)

#include <immintrin.h>

#include <bit>
#include <cstddef>
#include <cstdint>

#include "checksum/internal/native_sum.h"
#include "checksum/internal/x86_avx512_accumulator.h"
#include "checksum/internal/x86_cache.h"

namespace ipsum::checksum::internal {
namespace avx512 {
namespace {

// kAlignFrom: from this length on the aligned loop copies (CopyMedium).
constexpr size_t kAlignFrom = 512;
// kLongFrom: from this length on CopyLong plans the copy by the L1 data
// cache's size (at least 32 KiB); below it CopyMedium copies all, as it
// does up to kFusedMax bytes within CopyLong.
constexpr size_t kLongFrom = (size_t{32} << 10) / 2 + 512;
constexpr size_t kFusedMax = (size_t{48} << 10) + 512;
// kMovsbChunk: CopyChunked copies this many bytes at a time with `rep
// movsb` and sums each chunk's source right after it, while it is in L1.
constexpr size_t kMovsbChunk = size_t{16} << 10;

// CopyBlock copies the 512 bytes at s to d (64-byte aligned) and adds them
// to `w`, each vector stored right after its load.
[[gnu::always_inline]] inline void CopyBlock(uint8_t* d, const uint8_t* s,
                                             Wide& w) {
  const auto copy = [&](size_t i) __attribute__((always_inline)) {
    const __m512i x = Load(s + i * kVector);
    _mm512_store_si512(d + i * kVector, x);
    return x;
  };
  const __m512i t0 = copy(0), t1 = copy(1), t2 = copy(2), t3 = copy(3),
                t4 = copy(4), t5 = copy(5), t6 = copy(6), t7 = copy(7);
  w.AddBlock(t0, t1, t2, t3, t4, t5, t6, t7);
}

// CopyAddBlocks copies and adds the `blocks` (> 0) blocks at s to d
// (64-byte aligned), advancing both pointers.
[[gnu::always_inline]] inline void CopyAddBlocks(uint8_t*& d, const uint8_t*& s,
                                                 size_t blocks, Wide& w) {
  const uint8_t* const end = s + blocks * kBlock;
  do {
    CopyBlock(d, s, w);
    s += kBlock;
    d += kBlock;
  } while (s != end);
}

// kMixBehind: CopyAddBlocksSumStreams sums this many blocks moved by `rep
// movsb` per block it copies.
constexpr int kMixBehind = 5;

// CopyAddBlocksSumStreams is CopyAddBlocks with, after each copied block,
// kMixBehind more blocks added to `w`, one from each of kMixBehind runs of
// `blocks` blocks that follow each other from q: the i-th copied block is
// followed by the i-th block of every run. The runs are bytes that `rep
// movsb` has just copied, still in L1, summed while the loop's loads and
// stores wait on L2; taken as runs, the loads keep a fixed distance modulo
// 4 KiB from the stores. Advances d and s; the caller steps q past the
// kMixBehind * blocks summed ones.
[[gnu::always_inline]] inline void CopyAddBlocksSumStreams(
    uint8_t*& d, const uint8_t*& s, const uint8_t* q, size_t blocks, Wide& w) {
  const size_t stride = blocks * kBlock;
  const uint8_t* const end = s + stride;
  do {
    CopyBlock(d, s, w);
    for (int k = 0; k < kMixBehind; ++k) {
      const uint8_t* r = q + k * stride;
      AddBlocks(r, 1, w);
    }
    q += kBlock;
    s += kBlock;
    d += kBlock;
  } while (s != end);
}

// CopyHeadBlock copies the first block of an aligned copy, the bytes of
// the 512 at s that `head` selects in its first vector and all of the rest,
// to d (64-byte aligned; the masked-out bytes are neither read nor
// written), and adds them to `w` (zero for the masked-out ones).
[[gnu::always_inline]] inline void CopyHeadBlock(uint8_t* d, const uint8_t* s,
                                                 __mmask64 head, Wide& w) {
  const auto copy = [&](size_t i) __attribute__((always_inline)) {
    const __m512i x = Load(s + i * kVector);
    _mm512_store_si512(d + i * kVector, x);
    return x;
  };
  const __m512i t0 = LoadMasked(s, head);
  StoreMasked(d, head, t0);
  const __m512i t1 = copy(1), t2 = copy(2), t3 = copy(3), t4 = copy(4),
                t5 = copy(5), t6 = copy(6), t7 = copy(7);
  w.AddBlock(t0, t1, t2, t3, t4, t5, t6, t7);
}

// AlignedCopy is the state of a copy whose blocks count from the
// destination's 64-byte boundary: the next destination and source bytes
// and how many are left.
struct AlignedCopy {
  uint8_t* d;
  const uint8_t* s;
  size_t span;
};

// StartAlignedCopy copies src[0, ...) to base + off (base 64-byte aligned,
// off < 64) up to the block boundary after base, adds those bytes to `w`,
// and returns the state past them for a copy of `len` >= kBlock bytes. The
// source byte that goes to base + i is at src - off + i; the ones before
// src are masked out, never read.
[[gnu::always_inline]] inline AlignedCopy StartAlignedCopy(
    uint8_t* base, const uint8_t* src, size_t off, size_t len, Wide& w) {
  CopyHeadBlock(base, src - off, ~uint64_t{0} << off, w);
  return {base + kBlock, src - off + kBlock, off + len - kBlock};
}

// CopyMedium copies src[0, len) to dst (dst = base + off, base 64-byte
// aligned, off < 64, kBlock <= len < kFusedMax) and returns a native
// accumulator of the bytes, positions counted from base, plus `extra`
// (below 2^32): below 2^35 and zero only if they all are. One Wide holds
// it all (the head block, the whole ones and the tail's). The loop runs at
// memcpy's speed and the reduction after the last load is what the stores
// cannot hide, hence ReduceCarries, the shortest chain, with `extra` added
// inside it.
static_assert(kFusedMax / kBlock + 1 <= kMaxBlocks);
[[gnu::always_inline]] inline uint64_t CopyMedium(uint8_t* base,
                                                  const uint8_t* src,
                                                  size_t off, size_t len,
                                                  uint64_t extra) {
  Wide w;
  auto [d, s, span] = StartAlignedCopy(base, src, off, len, w);
  if (span >= kBlock) {
    const size_t blocks = span / kBlock;
    CopyAddBlocks(d, s, blocks, w);
    span -= blocks * kBlock;
  }
  if (span > 0) AddPartialBlock(s, span, d, w);
  return ReduceCarries(w, extra);
}

// CopyMediumNative is CopyMedium as a function of its own, for CopyLong.
[[gnu::noinline]] uint64_t CopyMediumNative(uint8_t* base, const uint8_t* src,
                                            size_t off, size_t len) {
  return CopyMedium(base, src, off, len, 0);
}

// Movsb copies src[0, n) to dst with `rep movsb` (the direction flag is
// clear at every function boundary, by the ABI): no intrinsic emits it.
[[gnu::always_inline]] inline void Movsb(uint8_t* dst, const uint8_t* src,
                                         size_t n) {
  __asm__ volatile("rep movsb" : "+D"(dst), "+S"(src), "+c"(n) : : "memory");
}

// CopyChunked copies src[0, len), len >= kBlock, to dst and returns the
// native accumulator of the bytes, positions counted from src. Once source
// and destination no longer fit in L1 together, a store loop pays for
// reading every destination line before writing it; `rep movsb` does not.
// So the copy is `rep movsb` in chunks of kMovsbChunk bytes, each followed
// by the sum of its source bytes, still in L1. The chunks after the first
// start at 64-byte boundaries of the source, an even distance from it.
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

// kMixFused, kMixStep: CopyInterleaved's steps of kMixStep blocks, `rep
// movsb` of kMixBehind * kMixFused blocks, then kMixFused blocks by the
// fused loop, which also sums the moved ones (docs/design.md, "The fused
// copy", has how the ratio and step were chosen).
constexpr size_t kMixFused = 12;
constexpr size_t kMixStep = kMixFused * (kMixBehind + 1);
// A step's blocks, the first block and the tail's fit one Wide.
static_assert(kMixStep + 2 <= kMaxBlocks);

// CopyInterleaved copies src[0, len), len >= 2 * kBlock, to dst (dst =
// base + off, base 64-byte aligned, off < 64) and returns a native
// accumulator of the bytes, positions counted from base, below 2^53: for
// copies that do not fit L1 with their source. The first block and the
// tail are CopyMedium's; the whole blocks between go in steps of kMixStep
// blocks: first by `rep movsb`, which writes the destination's lines
// without reading them, then by the fused loop, which sums the moved
// blocks while its own stores wait on L2.
uint64_t CopyInterleaved(uint8_t* base, const uint8_t* src, size_t off,
                         size_t len) {
  Wide w;
  auto [d, s, span] = StartAlignedCopy(base, src, off, len, w);
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
      acc = Halved(ReduceShortChain(w, acc));
      w = Wide();
    }
  }
  if (span > 0) AddPartialBlock(s, span, d, w);
  return ReduceShortChain(w, acc);
}

// CopyLong is X86Avx512CopySum for len >= kLongFrom. With L the L1 data
// cache's size (clamped to [32 KiB, 96 KiB]): below L / 2 + 512 bytes all
// by CopyMedium; below L - kBlock the first L - len bytes by CopyMedium and
// the rest by CopyChunked; from there on all by CopyInterleaved. `rep
// movsb` does not bring the destination into L1, so the split leaves about
// L bytes in L1 (the fused part's source and destination, the chunks'
// sources): a stack that copies the same buffers again runs the fused part
// from L1. Bounds: in the split, the fused part has more than kBlock and
// less than kFusedMax bytes, and leaves CopyChunked at least 1024.
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
      AddEndAround(
          acc, PlaceNative(CopyChunked(dst + fused, src + fused, len - fused),
                           fused)),
      initial);
}

// CopySmall returns the native accumulator of p[0, len), 1 <= len <
// kAlignFrom, and copies those bytes to dst: whole vectors into two Lanes
// in turn, then the last 1..64 bytes loaded and stored masked.
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

// CopyMediumSum is X86Avx512CopySum for kAlignFrom <= len < kLongFrom:
// CopyMedium, placed and folded, in a leaf that needs no stack, reached by
// a tail call (inside X86Avx512CopySum it would save registers and realign
// the stack on every call). The initial value goes into CopyMedium's
// reduction, rotated right by 8 bits for an odd dst, and the rotation back
// sits behind a branch on that parity, so that only FinishShort follows
// the reduction.
[[gnu::noinline]] uint16_t CopyMediumSum(uint8_t* dst, const uint8_t* src,
                                         size_t len, uint16_t initial) {
  const size_t off = BaseOffset(dst);
  const uint64_t acc = CopyMedium(
      dst - off, src, off, len,
      std::rotr(InitialNative(initial), 8 * static_cast<int>(off & 1)));
  if (off & 1) [[unlikely]]
    return FinishShort(std::rotl(acc, 8));
  return FinishShort(acc);
}

}  // namespace
}  // namespace avx512

uint16_t X86Avx512CopySum(uint8_t* dst, const uint8_t* src, size_t len,
                          uint16_t initial) {
  // The medium range first, as one unsigned compare, so that the common
  // path reaches its tail call before the short paths' argument copies.
  if (len - avx512::kAlignFrom < avx512::kLongFrom - avx512::kAlignFrom)
      [[likely]] {
    return avx512::CopyMediumSum(dst, src, len, initial);
  }
  if (len < avx512::kShort) {
    return FinishAccumulator(CopyShortNative(dst, src, len), initial);
  }
  if (len < avx512::kAlignFrom) {
    return FinishAccumulator(avx512::CopySmall(dst, src, len), initial);
  }
  return avx512::CopyLong(dst, src, len, initial);
}

}  // namespace ipsum::checksum::internal

#endif  // defined(__x86_64__)
