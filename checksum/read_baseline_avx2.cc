// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// ReadBaselineAvx2 (see read_baseline_avx2.h). Built with -mavx2 on x86-64;
// elsewhere it is unsupported and returns 0.

#include "checksum/read_baseline_avx2.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace ipsum::checksum {

#if defined(__x86_64__) && defined(__AVX2__)

bool ReadBaselineSupported() { return __builtin_cpu_supports("avx2"); }

uint64_t ReadBaselineAvx2(const uint8_t* p, size_t len) {
  __m256i a = _mm256_setzero_si256(), b = a, c = a, d = a;
  for (; len >= 128; len -= 128, p += 128) {
    a = _mm256_or_si256(
        a, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
    b = _mm256_or_si256(
        b, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 32)));
    c = _mm256_or_si256(
        c, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 64)));
    d = _mm256_or_si256(
        d, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 96)));
  }
  a = _mm256_or_si256(_mm256_or_si256(a, b), _mm256_or_si256(c, d));
  uint64_t r = static_cast<uint64_t>(_mm256_extract_epi64(a, 0)) |
               static_cast<uint64_t>(_mm256_extract_epi64(a, 1)) |
               static_cast<uint64_t>(_mm256_extract_epi64(a, 2)) |
               static_cast<uint64_t>(_mm256_extract_epi64(a, 3));
  for (; len > 0; --len) r |= *p++;
  return r;
}

#else

bool ReadBaselineSupported() { return false; }

uint64_t ReadBaselineAvx2(const uint8_t*, size_t) { return 0; }

#endif

}  // namespace ipsum::checksum
