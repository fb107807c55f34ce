// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// The x86-64 AVX-512 path (512-bit vectors, masked loads and stores): its
// kernels, defined in x86_avx512_sum.cc, x86_avx512_copy.cc and
// x86_avx512_pieces.cc, the only files built with this instruction set's
// flags (-mavx512f -mavx512bw -mbmi2). Calling them on a CPU without the
// instructions is undefined: go through kX86Avx512 (x86.h), whose
// supported() is compiled without ISA flags. Declared on x86-64 only.

#ifndef IPSUM_CHECKSUM_INTERNAL_X86_AVX512_H_
#define IPSUM_CHECKSUM_INTERNAL_X86_AVX512_H_

#include <cstddef>
#include <cstdint>
#include <span>

namespace ipsum::checksum::internal {

#if defined(__x86_64__)
// X86Avx512Sum is a SumFn (impl.h).
uint16_t X86Avx512Sum(const uint8_t* data, size_t len, uint16_t initial);

// X86Avx512CopySum is a CopySumFn (impl.h).
uint16_t X86Avx512CopySum(uint8_t* dst, const uint8_t* src, size_t len,
                          uint16_t initial);

// X86Avx512SumPieces is a SumPiecesFn (impl.h).
uint16_t X86Avx512SumPieces(const std::span<const uint8_t>* pieces,
                            size_t count, size_t stride, uint16_t initial);
#endif

}  // namespace ipsum::checksum::internal

#endif  // IPSUM_CHECKSUM_INTERNAL_X86_AVX512_H_
