/* Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
 *
 * What the C API's C tests share: a failure counter and EXPECT_EQ, which
 * reports a mismatch and goes on (exiting after 20), the byte-by-byte
 * reference sum, and the byte patterns the sums are checked on. Each test
 * program includes it once.
 */

#ifndef IPSUM_CHECKSUM_IPSUM_CHECKSUM_TEST_UTIL_H_
#define IPSUM_CHECKSUM_IPSUM_CHECKSUM_TEST_UTIL_H_

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;

#define EXPECT_EQ(got, want)                                                 \
  do {                                                                       \
    unsigned long g_ = (unsigned long)(got), w_ = (unsigned long)(want);     \
    if (g_ != w_) {                                                          \
      fprintf(stderr, "%s:%d: %s = 0x%lx, want 0x%lx\n", __FILE__, __LINE__, \
              #got, g_, w_);                                                 \
      if (++failures > 20) exit(1);                                          \
    }                                                                        \
  } while (0)

/* slow_sum is RFC 1071 section 1 transcribed byte by byte. */
static uint16_t slow_sum(const uint8_t* p, size_t len, uint16_t initial) {
  uint64_t sum = initial;
  size_t i;
  for (i = 0; i + 1 < len; i += 2) sum += ((uint32_t)p[i] << 8) | p[i + 1];
  if (i < len) sum += (uint32_t)p[i] << 8;
  while (sum >> 16) sum = (sum & 0xffff) + (sum >> 16);
  return (uint16_t)sum;
}

/* fill writes `len` bytes of pattern `kind` to `p`: 0 random bytes, 1 all
 * 0xff, 2 carry-heavy (8-byte runs of 0x00, of 0xff, or a single 0x01 at
 * either end, so that 64-bit additions carry out and fold often). */
static void fill(uint8_t* p, size_t len, int kind, uint32_t* x) {
  size_t i;
  for (i = 0; i < len; ++i) {
    *x = *x * 1103515245u + 12345u;
    if (kind == 0) {
      p[i] = (uint8_t)(*x >> 16);
    } else if (kind == 1) {
      p[i] = 0xff;
    } else if (i % 8 == 0) {
      const unsigned pick = (*x >> 16) % 4, n = len - i < 8 ? len - i : 8;
      memset(p + i, pick == 1 ? 0xff : 0x00, n);
      if (pick == 2) p[i] = 1;
      if (pick == 3) p[i + n - 1] = 1;
    }
  }
}

#endif /* IPSUM_CHECKSUM_IPSUM_CHECKSUM_TEST_UTIL_H_ */
