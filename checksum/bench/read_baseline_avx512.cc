// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// ReadBaselineAvx512 (see read_baseline_avx512.h). Built with -mavx512f
// -mavx512bw on x86-64; elsewhere it is unsupported and returns 0.

#include "checksum/bench/read_baseline_avx512.h"

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
  const size_t total = len;
  const uint8_t* const end = p + len;
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
  // The tail as a pure load loop would read it: whole vectors, then the
  // last partial one as one load of the buffer's last 64 bytes (some read
  // already); only a buffer shorter than a vector takes a masked load.
  // (The old tail, a masked load per 64 bytes into one register, made
  // 1500 bytes cost more than 1536.)
  for (; len >= 64; len -= 64, p += 64) {
    b = _mm512_or_si512(b, _mm512_loadu_si512(p));
  }
  if (len > 0) {
    if (total >= 64) {
      c = _mm512_or_si512(c, _mm512_loadu_si512(end - 64));
    } else {
      const __mmask64 k = (uint64_t{1} << len) - 1;
      c = _mm512_or_si512(c, _mm512_maskz_loadu_epi8(k, p));
    }
  }
  a = _mm512_or_si512(
      _mm512_or_si512(_mm512_or_si512(a, b), _mm512_or_si512(c, d)),
      _mm512_or_si512(_mm512_or_si512(e, f), _mm512_or_si512(g, h)));
  // The OR across lanes in registers (a store and eight loads, as before,
  // stalled: a 512-bit store does not forward to 8-byte loads).
  // The halves by masked extracts with a full mask (the plain ones), as
  // the checksum's HalveTwice: _mm512_castsi512_si256 and
  // _mm512_extracti64x4_epi64 have undefined pass-through operands that
  // draw GCC 12's spurious -Wuninitialized.
  const __m256i x = _mm256_or_si256(
      _mm512_mask_extracti64x4_epi64(_mm256_setzero_si256(), 0xff, a, 0),
      _mm512_mask_extracti64x4_epi64(_mm256_setzero_si256(), 0xff, a, 1));
  const __m128i y =
      _mm_or_si128(_mm256_castsi256_si128(x), _mm256_extracti128_si256(x, 1));
  return static_cast<uint64_t>(_mm_cvtsi128_si64(y)) |
         static_cast<uint64_t>(_mm_extract_epi64(y, 1));
}

#else

bool ReadBaseline512Supported() { return false; }

uint64_t ReadBaselineAvx512(const uint8_t*, size_t) { return 0; }

#endif

}  // namespace ipsum::checksum
