// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// x86-64 CPU feature checks for the fast paths, read with CPUID (and XGETBV
// for state the operating system must save). Compiled without any ISA flag,
// so it is safe to call on every x86-64 CPU. Each check is cheap but not
// free; callers that need one on a hot path cache it.
//
// Not API: only //checksum's implementation targets include it.

#ifndef IPSUM_CHECKSUM_INTERNAL_X86_CPU_H_
#define IPSUM_CHECKSUM_INTERNAL_X86_CPU_H_

#if defined(__x86_64__)

#include <cpuid.h>

#include <cstdint>

namespace ipsum::checksum::internal {

// X86Leaf7Ebx returns EBX of CPUID leaf 7, sub-leaf 0 (the structured
// extended feature flags), or 0 when the CPU has no leaf 7.
inline uint32_t X86Leaf7Ebx() {
  unsigned eax, ebx, ecx, edx;
  if (__get_cpuid_max(0, nullptr) < 7) return 0;
  __cpuid_count(7, 0, eax, ebx, ecx, edx);
  return ebx;
}

// X86HasAdx reports ADX (adcx/adox): CPUID.(EAX=7,ECX=0):EBX bit 19.
inline bool X86HasAdx() { return (X86Leaf7Ebx() >> 19) & 1; }

// X86HasBmi2 reports BMI2 (mulx, shrx...): CPUID.(EAX=7,ECX=0):EBX bit 8.
inline bool X86HasBmi2() { return (X86Leaf7Ebx() >> 8) & 1; }

// X86HasAvx2 reports that AVX2 instructions may run: the CPU has AVX
// (CPUID.1:ECX bit 28) and AVX2 (leaf 7 EBX bit 5), and the operating system
// saves the YMM state (CPUID.1:ECX.OSXSAVE bit 27, then XCR0 bits 1 and 2).
inline bool X86HasAvx2() {
  unsigned eax, ebx, ecx, edx;
  if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return false;
  const bool avx = (ecx >> 28) & 1;
  const bool osxsave = (ecx >> 27) & 1;
  if (!avx || !osxsave) return false;
  uint32_t xcr0_lo, xcr0_hi;
  // xgetbv with ECX=0 reads XCR0; inline asm, so no -mxsave flag is needed.
  __asm__("xgetbv" : "=a"(xcr0_lo), "=d"(xcr0_hi) : "c"(0));
  if ((xcr0_lo & 0x6) != 0x6) return false;  // SSE and AVX state
  return (X86Leaf7Ebx() >> 5) & 1;
}

// X86HasAvx512 reports that the instructions x86_avx512_*.cc are built with may
// run: the CPU has AVX-512 Foundation (CPUID.(EAX=7,ECX=0):EBX bit 16),
// AVX-512 Byte and Word (EBX bit 30) and BMI2 (EBX bit 8), and the operating
// system saves the state they use (CPUID.1:ECX.OSXSAVE bit 27, then XCR0
// bits 1 and 2, SSE and AVX, and 5, 6 and 7: the opmask registers, the upper
// halves of ZMM0-15 and ZMM16-31).
inline bool X86HasAvx512() {
  unsigned eax, ebx, ecx, edx;
  if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return false;
  const bool osxsave = (ecx >> 27) & 1;
  if (!osxsave) return false;
  uint32_t xcr0_lo, xcr0_hi;
  __asm__("xgetbv" : "=a"(xcr0_lo), "=d"(xcr0_hi) : "c"(0));
  if ((xcr0_lo & 0xe6) != 0xe6) return false;
  const uint32_t leaf7 = X86Leaf7Ebx();
  const uint32_t needed = (1u << 16) | (1u << 30) | (1u << 8);
  return (leaf7 & needed) == needed;
}

}  // namespace ipsum::checksum::internal

#endif  // defined(__x86_64__)

#endif  // IPSUM_CHECKSUM_INTERNAL_X86_CPU_H_
