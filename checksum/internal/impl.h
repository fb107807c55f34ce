// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// The contract every checksum implementation (one source file and one Bazel
// target per instruction set) fulfils, and the table of implementations built
// into this binary. Not API: only //checksum may depend on it (tests and
// benchmarks included, so that every implementation stays testable).

#ifndef IPSUM_CHECKSUM_INTERNAL_IMPL_H_
#define IPSUM_CHECKSUM_INTERNAL_IMPL_H_

#include <cstddef>
#include <cstdint>
#include <span>

namespace ipsum::checksum::internal {

// SumFn returns the one's-complement sum of data[0, len) read as big-endian
// 16-bit words (an odd last byte padded with zero) added to `initial`, folded
// to 16 bits, not complemented: the contract of checksum::Checksum. Any
// length and any alignment; `data` may be null when `len` is 0.
using SumFn = uint16_t (*)(const uint8_t* data, size_t len, uint16_t initial);

// CopySumFn copies src[0, len) to dst[0, len) (the ranges do not overlap)
// and returns the SumFn result for those bytes. It writes no byte outside
// dst[0, len).
using CopySumFn = uint16_t (*)(uint8_t* dst, const uint8_t* src, size_t len,
                               uint16_t initial);

// SumPiecesFn returns the SumFn result for the concatenation of `count`
// pieces: the bytes of piece 0, then of piece 1, ... (each of any length,
// empty included, and any alignment), added to `initial`. Piece i is the
// span `stride` * i bytes past `pieces` (pieces.h: a stride of
// sizeof(std::span<const uint8_t>) for an array of spans, larger for an
// array of structs that start with one). A piece that starts at an odd
// position of the concatenation has its bytes in the other halves of the
// 16-bit words (RFC 1071 section 2(B)); an implementation keeps its
// accumulators across pieces and reduces them once. `pieces` may be null
// when `count` is 0.
using SumPiecesFn = uint16_t (*)(const std::span<const uint8_t>* pieces,
                                 size_t count, size_t stride, uint16_t initial);

// Implementation describes one implementation built into this binary.
struct Implementation {
  // name is stable and unique: "portable", "x86_adx", "x86_avx2", ...
  const char* name;
  // supported reports whether this CPU can run it (cpuid / getauxval).
  // Calling `sum` or `copy_sum` when it returns false is undefined.
  bool (*supported)();
  SumFn sum;
  CopySumFn copy_sum;
  SumPiecesFn sum_pieces;
};

// CompiledImplementations returns every implementation built into this
// binary, supported by this CPU or not, the portable one first.
std::span<const Implementation> CompiledImplementations();

// PortableSum is the portable implementation: plain C++, 64-bit loads.
uint16_t PortableSum(const uint8_t* data, size_t len, uint16_t initial);

// PortableCopySum is the portable fused copy and checksum.
uint16_t PortableCopySum(uint8_t* dst, const uint8_t* src, size_t len,
                         uint16_t initial);

// PortableSumPieces is the portable SumPiecesFn.
uint16_t PortableSumPieces(const std::span<const uint8_t>* pieces, size_t count,
                           size_t stride, uint16_t initial);

}  // namespace ipsum::checksum::internal

#endif  // IPSUM_CHECKSUM_INTERNAL_IMPL_H_
