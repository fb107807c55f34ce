// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// The AArch64 NEON path. `uadalp` (vpadalq_u16) adds adjacent pairs of
// 16-bit lanes into 32-bit accumulator lanes in one instruction, so each
// 16-byte load costs one operation. A 32-bit lane gains at most 2 * 0xffff
// per load, so the accumulators are widened into 64-bit lanes (vpadalq_u32)
// every kFlush iterations, long before they could overflow. Four independent
// accumulators, 64 bytes per iteration. The words are summed in native
// (little-endian) order and the folded result is byte-swapped once (RFC 1071
// section 2(B)). Inputs shorter than 64 bytes take the scalar path of
// native_sum.h. Advanced SIMD is part of the AArch64 base architecture, so
// this file needs no compiler flag; supported() still asks the kernel.

#include "checksum/internal/arm64_neon.h"

#if defined(__aarch64__)

#include <arm_neon.h>
#include <sys/auxv.h>

#include <cstddef>
#include <cstdint>
#include <span>

#include "checksum/internal/native_sum.h"

#ifndef HWCAP_ASIMD
#define HWCAP_ASIMD (1 << 1)  // <asm/hwcap.h>
#endif

namespace ipsum::checksum::internal {
namespace {

// kShort: below this length the scalar path is used.
constexpr size_t kShort = 64;
// kFlush is the number of 64-byte iterations between two widenings of the
// 32-bit accumulators: kFlush * 2 * 0xffff < 2^32.
constexpr size_t kFlush = 16384;

uint16x8_t Load(const uint8_t* p) { return vreinterpretq_u16_u8(vld1q_u8(p)); }

void Store(uint8_t* p, uint16x8_t x) { vst1q_u8(p, vreinterpretq_u8_u16(x)); }

// WideNative returns the 64-bit lanes `wide` as a native accumulator.
uint64_t WideNative(uint64x2_t wide) {
  return AddEndAround(vgetq_lane_u64(wide, 0), vgetq_lane_u64(wide, 1));
}

// Finish returns the SumFn result from the 64-bit lanes `wide` and a native
// accumulator `tail` of the remaining bytes.
uint16_t Finish(uint64x2_t wide, uint64_t tail, uint16_t initial) {
  return FinishAccumulator(AddEndAround(WideNative(wide), tail), initial);
}

// AddVectors adds the whole 16-byte vectors at the start of data[0, len),
// positions counted from `data`, to the exact 64-bit lanes `wide`, and
// returns how many bytes that was (len rounded down to a multiple of 16).
[[gnu::always_inline]] inline size_t AddVectors(const uint8_t* data, size_t len,
                                                uint64x2_t& wide) {
  const size_t done = len & ~size_t{15};
  while (len >= 64) {
    size_t n = len / 64;
    if (n > kFlush) n = kFlush;
    len -= n * 64;
    uint32x4_t a0 = vdupq_n_u32(0), a1 = a0, a2 = a0, a3 = a0;
    for (; n > 0; --n, data += 64) {
      a0 = vpadalq_u16(a0, Load(data));
      a1 = vpadalq_u16(a1, Load(data + 16));
      a2 = vpadalq_u16(a2, Load(data + 32));
      a3 = vpadalq_u16(a3, Load(data + 48));
    }
    wide = vpadalq_u32(wide, a0);
    wide = vpadalq_u32(wide, a1);
    wide = vpadalq_u32(wide, a2);
    wide = vpadalq_u32(wide, a3);
  }
  uint32x4_t a = vdupq_n_u32(0);
  for (; len >= 16; len -= 16, data += 16) a = vpadalq_u16(a, Load(data));
  wide = vpadalq_u32(wide, a);
  return done;
}

uint16_t NeonSum(const uint8_t* data, size_t len, uint16_t initial) {
  if (len < kShort)
    return FinishAccumulator(SumShortNative(data, len), initial);
  uint64x2_t wide = vdupq_n_u64(0);
  const size_t done = AddVectors(data, len, wide);
  return Finish(wide, SumShortNative(data + done, len - done), initial);
}

uint16_t NeonSumPieces(const std::span<const uint8_t>* pieces, size_t count,
                       size_t stride, uint16_t initial) {
  // wide[k] sums the vectors of the pieces that start at a stream offset of
  // parity k (exact 64-bit lanes: they cannot overflow), `acc` the scalar
  // parts (short pieces, tails), each placed by its parity (PlaceNative).
  // Both are reduced once, at the end.
  uint64x2_t wide[2] = {vdupq_n_u64(0), vdupq_n_u64(0)};
  uint64_t acc = 0;
  size_t odd = 0;
  for (size_t i = 0; i < count; ++i) {
    const uint8_t* const p = PieceAt(pieces, i, stride).data();
    const size_t len = PieceAt(pieces, i, stride).size();
    // A multiple of 16 bytes: the tail has the piece's parity.
    const size_t done = len >= kShort ? AddVectors(p, len, wide[odd & 1]) : 0;
    acc = AddEndAround(acc,
                       PlaceNative(SumShortNative(p + done, len - done), odd));
    odd ^= len;
  }
  acc = AddEndAround(acc, WideNative(wide[0]));
  acc = AddEndAround(acc, PlaceNative(WideNative(wide[1]), 1));
  return FinishAccumulator(acc, initial);
}

uint16_t NeonCopySum(uint8_t* dst, const uint8_t* src, size_t len,
                     uint16_t initial) {
  if (len < kShort) {
    return FinishAccumulator(CopyShortNative(dst, src, len), initial);
  }
  uint64x2_t wide = vdupq_n_u64(0);
  while (len >= 64) {
    size_t n = len / 64;
    if (n > kFlush) n = kFlush;
    len -= n * 64;
    uint32x4_t a0 = vdupq_n_u32(0), a1 = a0, a2 = a0, a3 = a0;
    for (; n > 0; --n, src += 64, dst += 64) {
      const uint16x8_t x0 = Load(src), x1 = Load(src + 16);
      const uint16x8_t x2 = Load(src + 32), x3 = Load(src + 48);
      Store(dst, x0);
      Store(dst + 16, x1);
      Store(dst + 32, x2);
      Store(dst + 48, x3);
      a0 = vpadalq_u16(a0, x0);
      a1 = vpadalq_u16(a1, x1);
      a2 = vpadalq_u16(a2, x2);
      a3 = vpadalq_u16(a3, x3);
    }
    wide = vpadalq_u32(wide, a0);
    wide = vpadalq_u32(wide, a1);
    wide = vpadalq_u32(wide, a2);
    wide = vpadalq_u32(wide, a3);
  }
  uint32x4_t a = vdupq_n_u32(0);
  for (; len >= 16; len -= 16, src += 16, dst += 16) {
    const uint16x8_t x = Load(src);
    Store(dst, x);
    a = vpadalq_u16(a, x);
  }
  wide = vpadalq_u32(wide, a);
  return Finish(wide, CopyShortNative(dst, src, len), initial);
}

bool NeonSupported() { return (getauxval(AT_HWCAP) & HWCAP_ASIMD) != 0; }

}  // namespace

constexpr Implementation kArm64Neon = {"arm64_neon", NeonSupported, NeonSum,
                                       NeonCopySum, NeonSumPieces};

}  // namespace ipsum::checksum::internal

#endif  // defined(__aarch64__)
