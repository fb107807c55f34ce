// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// The x86-64 scalar path with two carry chains (adcx/adox): its two kernels,
// defined in x86_adx.cc, the only file built with this instruction set's flags
// (-madx). Calling them on a CPU without the instructions is undefined: go
// through kX86Adx (x86.h), whose supported() is compiled without ISA flags.
// Declared on x86-64 only.

#ifndef IPSUM_CHECKSUM_INTERNAL_X86_ADX_H_
#define IPSUM_CHECKSUM_INTERNAL_X86_ADX_H_

#include <cstddef>
#include <cstdint>
#include <span>

namespace ipsum::checksum::internal {

#if defined(__x86_64__)
// X86AdxSum is a SumFn (impl.h).
uint16_t X86AdxSum(const uint8_t* data, size_t len, uint16_t initial);

// X86AdxCopySum is a CopySumFn (impl.h).
uint16_t X86AdxCopySum(uint8_t* dst, const uint8_t* src, size_t len,
                       uint16_t initial);

// X86AdxSumPieces is a SumPiecesFn (impl.h).
uint16_t X86AdxSumPieces(const std::span<const uint8_t>* pieces, size_t count,
                         size_t stride, uint16_t initial);
#endif

}  // namespace ipsum::checksum::internal

#endif  // IPSUM_CHECKSUM_INTERNAL_X86_ADX_H_
