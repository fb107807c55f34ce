// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// The x86-64 SSE2 path (128-bit vectors; baseline on every x86-64 CPU): its two
// kernels, defined in x86_sse2.cc, the only file built with this instruction
// set's flags (no extra flag: SSE2 is baseline). Calling them on a CPU without
// the instructions is undefined: go through kX86Sse2 (x86.h), whose supported()
// is compiled without ISA flags. Declared on x86-64 only.

#ifndef IPSUM_CHECKSUM_INTERNAL_X86_SSE2_H_
#define IPSUM_CHECKSUM_INTERNAL_X86_SSE2_H_

#include <cstddef>
#include <cstdint>
#include <span>

namespace ipsum::checksum::internal {

#if defined(__x86_64__)
// X86Sse2Sum is a SumFn (impl.h).
uint16_t X86Sse2Sum(const uint8_t* data, size_t len, uint16_t initial);

// X86Sse2CopySum is a CopySumFn (impl.h).
uint16_t X86Sse2CopySum(uint8_t* dst, const uint8_t* src, size_t len,
                        uint16_t initial);

// X86Sse2SumPieces is a SumPiecesFn (impl.h).
uint16_t X86Sse2SumPieces(const std::span<const uint8_t>* pieces, size_t count,
                          size_t stride, uint16_t initial);
#endif

}  // namespace ipsum::checksum::internal

#endif  // IPSUM_CHECKSUM_INTERNAL_X86_SSE2_H_
