// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// ReadBaselineAvx512 (see read_baseline_avx512.h). Built with -mavx512f
// -mavx512bw on x86-64; elsewhere it is unsupported and returns 0.

#include "checksum/read_baseline_avx512.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace ipsum::checksum {

#if defined(__x86_64__) && defined(__AVX512F__) && defined(__AVX512BW__)

bool ReadBaseline512Supported() {
  return __builtin_cpu_supports("avx512f") &&
         __builtin_cpu_supports("avx512bw");
}

uint64_t ReadBaselineAvx512(const uint8_t* p, size_t len) {
  __m512i a = _mm512_setzero_si512(), b = a, c = a, d = a, e = a, f = a, g = a,
          h = a;
  for (; len >= 512; len -= 512, p += 512) {
    a = _mm512_or_si512(a, _mm512_loadu_si512(p));
    b = _mm512_or_si512(b, _mm512_loadu_si512(p + 64));
    c = _mm512_or_si512(c, _mm512_loadu_si512(p + 128));
    d = _mm512_or_si512(d, _mm512_loadu_si512(p + 192));
    e = _mm512_or_si512(e, _mm512_loadu_si512(p + 256));
    f = _mm512_or_si512(f, _mm512_loadu_si512(p + 320));
    g = _mm512_or_si512(g, _mm512_loadu_si512(p + 384));
    h = _mm512_or_si512(h, _mm512_loadu_si512(p + 448));
  }
  for (; len > 0; len -= len < 64 ? len : 64, p += 64) {
    const __mmask64 k = len < 64 ? (uint64_t{1} << len) - 1 : ~uint64_t{0};
    a = _mm512_or_si512(a, _mm512_maskz_loadu_epi8(k, p));
  }
  a = _mm512_or_si512(
      _mm512_or_si512(_mm512_or_si512(a, b), _mm512_or_si512(c, d)),
      _mm512_or_si512(_mm512_or_si512(e, f), _mm512_or_si512(g, h)));
  // The OR across lanes through a store: _mm512_reduce_or_epi64 draws
  // GCC 12's spurious -Wuninitialized warnings.
  alignas(64) uint64_t lanes[8];
  _mm512_store_si512(lanes, a);
  uint64_t r = 0;
  for (uint64_t lane : lanes) r |= lane;
  return r;
}

#else

bool ReadBaseline512Supported() { return false; }

uint64_t ReadBaselineAvx512(const uint8_t*, size_t) { return 0; }

#endif

}  // namespace ipsum::checksum
