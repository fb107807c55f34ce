// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// The x86-64 entries of the implementation table: "x86_adx", "x86_avx2",
// "x86_avx512" and "x86_sse2". Each entry's supported() checks CPUID
// (x86_cpu.h) and is compiled without ISA flags, in x86.cc; the kernels live
// in their own per-ISA files (x86_adx.cc, x86_avx2.cc, x86_avx512_*.cc,
// x86_sse2.cc). Declared on x86-64 only.

#ifndef IPSUM_CHECKSUM_INTERNAL_X86_H_
#define IPSUM_CHECKSUM_INTERNAL_X86_H_

#include "checksum/internal/impl.h"

namespace ipsum::checksum::internal {

#if defined(__x86_64__)
// kX86Adx is "x86_adx": 64-bit adds on two carry chains; needs ADX.
extern const Implementation kX86Adx;

// kX86Avx2 is "x86_avx2": 256-bit vectors; needs AVX2 and OS YMM support.
extern const Implementation kX86Avx2;

// kX86Avx512 is "x86_avx512": 512-bit vectors and masked loads and stores;
// needs AVX-512F, AVX-512BW, BMI2 and OS opmask/ZMM support.
extern const Implementation kX86Avx512;

// kX86Sse2 is "x86_sse2": 128-bit vectors; every x86-64 CPU has SSE2.
extern const Implementation kX86Sse2;
#endif

}  // namespace ipsum::checksum::internal

#endif  // IPSUM_CHECKSUM_INTERNAL_X86_H_
