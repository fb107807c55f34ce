// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// The x86-64 entries of the implementation table (see x86.h). This file is
// compiled without ISA flags on purpose: supported() runs before anyone
// knows whether the CPU has the instructions, so it must not contain any.

#include "checksum/internal/x86.h"

#if defined(__x86_64__)

#include "checksum/internal/x86_adx.h"
#include "checksum/internal/x86_avx2.h"
#include "checksum/internal/x86_avx512.h"
#include "checksum/internal/x86_cpu.h"
#include "checksum/internal/x86_sse2.h"

namespace ipsum::checksum::internal {
namespace {

bool AdxSupported() { return X86HasAdx(); }
bool Avx2Supported() { return X86HasAvx2(); }
bool Avx512Supported() { return X86HasAvx512(); }
bool Sse2Supported() { return true; }

}  // namespace

constexpr Implementation kX86Adx = {"x86_adx", AdxSupported, X86AdxSum,
                                    X86AdxCopySum, X86AdxSumPieces};
constexpr Implementation kX86Avx2 = {"x86_avx2", Avx2Supported, X86Avx2Sum,
                                     X86Avx2CopySum, X86Avx2SumPieces};
constexpr Implementation kX86Avx512 = {"x86_avx512", Avx512Supported,
                                       X86Avx512Sum, X86Avx512CopySum,
                                       X86Avx512SumPieces};
constexpr Implementation kX86Sse2 = {"x86_sse2", Sse2Supported, X86Sse2Sum,
                                     X86Sse2CopySum, X86Sse2SumPieces};

}  // namespace ipsum::checksum::internal

#endif  // defined(__x86_64__)
