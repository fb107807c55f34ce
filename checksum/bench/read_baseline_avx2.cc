// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// ReadBaselineAvx2 (see read_baseline_avx2.h). Built with -mavx2 on x86-64;
// elsewhere it is unsupported and returns 0.

#include "checksum/bench/read_baseline_avx2.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace ipsum::checksum {

#if defined(__x86_64__) && defined(__AVX2__)

bool ReadBaselineSupported() { return __builtin_cpu_supports("avx2"); }

uint64_t ReadBaselineAvx2(const uint8_t* p, size_t len) {
  auto load = [](const uint8_t* q) {
    return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(q));
  };
  __m256i a = _mm256_setzero_si256(), b = a, c = a, d = a;
  const size_t total = len;
  const uint8_t* const end = p + len;
  for (; len >= 128; len -= 128, p += 128) {
    a = _mm256_or_si256(a, load(p));
    b = _mm256_or_si256(b, load(p + 32));
    c = _mm256_or_si256(c, load(p + 64));
    d = _mm256_or_si256(d, load(p + 96));
  }
  // The tail as a pure load loop would read it: whole vectors, then the
  // last partial one as one load of the buffer's last 32 bytes (some read
  // already), so that a length that is not a multiple of 128 costs a few
  // loads more, not a byte loop. Only a buffer shorter than a vector is
  // read byte by byte.
  for (; len >= 32; len -= 32, p += 32) b = _mm256_or_si256(b, load(p));
  uint64_t r = 0;
  if (len > 0 && total >= 32) {
    c = _mm256_or_si256(c, load(end - 32));
  } else {
    for (; len > 0; --len) r |= *p++;
  }
  a = _mm256_or_si256(_mm256_or_si256(a, b), _mm256_or_si256(c, d));
  r |= static_cast<uint64_t>(_mm256_extract_epi64(a, 0)) |
       static_cast<uint64_t>(_mm256_extract_epi64(a, 1)) |
       static_cast<uint64_t>(_mm256_extract_epi64(a, 2)) |
       static_cast<uint64_t>(_mm256_extract_epi64(a, 3));
  return r;
}

#else

bool ReadBaselineSupported() { return false; }

uint64_t ReadBaselineAvx2(const uint8_t*, size_t) { return 0; }

#endif

}  // namespace ipsum::checksum
