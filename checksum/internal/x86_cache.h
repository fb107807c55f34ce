// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// The size of the x86-64 CPU's level-1 data cache, for the copy kernels
// that split a copy by whether its source and destination fit in it
// (x86_avx512_copy.cc, x86_avx2.cc). Defined in x86_cache.cc, compiled without
// ISA flags so that the kernels' flags never reach it. Declared on x86-64
// only.
//
// Not API: only //checksum's implementation targets include it.

#ifndef IPSUM_CHECKSUM_INTERNAL_X86_CACHE_H_
#define IPSUM_CHECKSUM_INTERNAL_X86_CACHE_H_

#include <cstddef>

namespace ipsum::checksum::internal {

#if defined(__x86_64__)
// X86L1DataCacheBytes returns the size in bytes of this core's level-1 data
// cache, read with CPUID on the first call (Intel's deterministic cache
// parameters, leaf 4; AMD's, leaf 0x8000001d; AMD's older leaf 0x80000005)
// and remembered; 32 KiB, the most common size, when CPUID does not say.
// Thread-safe.
size_t X86L1DataCacheBytes();
#endif

}  // namespace ipsum::checksum::internal

#endif  // IPSUM_CHECKSUM_INTERNAL_X86_CACHE_H_
