// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// X86L1DataCacheBytes (see x86_cache.h). Compiled without ISA flags.

#include "checksum/internal/x86_cache.h"

#if defined(__x86_64__)

#include <cpuid.h>

#include <cstdint>

namespace ipsum::checksum::internal {
namespace {

// DeterministicL1Data returns the size of the level-1 data cache that
// `leaf` (4 on Intel, 0x8000001d on AMD: the same layout) describes, or 0.
// Sub-leaf i describes one cache: EAX[4:0] its type (0 = no more caches, 1
// = data), EAX[7:5] its level; its size is ways x partitions x line size x
// sets, each field stored minus one (EBX[31:22], EBX[21:12], EBX[11:0],
// ECX).
size_t DeterministicL1Data(uint32_t leaf) {
  if (__get_cpuid_max(leaf & 0x80000000, nullptr) < leaf) return 0;
  for (uint32_t i = 0; i < 16; ++i) {
    uint32_t eax, ebx, ecx, edx;
    __cpuid_count(leaf, i, eax, ebx, ecx, edx);
    const uint32_t type = eax & 31;
    if (type == 0) break;
    if (type == 1 && ((eax >> 5) & 7) == 1) {
      return size_t{(ebx >> 22) + 1} * (((ebx >> 12) & 1023) + 1) *
             ((ebx & 4095) + 1) * (size_t{ecx} + 1);
    }
  }
  return 0;
}

size_t ReadL1DataCacheBytes() {
  if (const size_t n = DeterministicL1Data(4); n != 0) return n;
  if (const size_t n = DeterministicL1Data(0x8000001d); n != 0) return n;
  if (__get_cpuid_max(0x80000000, nullptr) >= 0x80000005) {
    uint32_t eax, ebx, ecx, edx;
    __cpuid(0x80000005, eax, ebx, ecx, edx);
    if ((ecx >> 24) != 0) return size_t{ecx >> 24} << 10;  // ECX[31:24], KiB.
  }
  return size_t{32} << 10;
}

}  // namespace

size_t X86L1DataCacheBytes() {
  static const size_t bytes = ReadL1DataCacheBytes();
  return bytes;
}

}  // namespace ipsum::checksum::internal

#endif  // defined(__x86_64__)
