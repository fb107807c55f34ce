/* Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
 *
 * A C program, linked against libipsum_checksum.so or libipsum_checksum.a,
 * that checks the C interface (ipsum_checksum.h) against known answers
 * (RFC 1071 section 3's example, a real IPv4 header) and against a
 * byte-by-byte sum (ipsum_checksum_test_util.h), at many lengths and
 * alignments, for both functions. Exits non-zero after the first
 * mismatches. Written in C on purpose: it proves the header is
 * valid C and the library needs no C++ from its caller.
 */

#include "checksum/ipsum_checksum.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checksum/ipsum_checksum_test_util.h"

static void known_answers(void) {
  /* RFC 1071 section 3: 0001 f203 f4f5 f6f7 sums to 0xddf2. */
  static const uint8_t rfc1071[] = {0x00, 0x01, 0xf2, 0x03,
                                    0xf4, 0xf5, 0xf6, 0xf7};
  /* An IPv4 header with its checksum (0xb861) in place sums to 0xffff. */
  static const uint8_t ipv4[] = {0x45, 0x00, 0x00, 0x73, 0x00, 0x00, 0x40,
                                 0x00, 0x40, 0x11, 0xb8, 0x61, 0xc0, 0xa8,
                                 0x00, 0x01, 0xc0, 0xa8, 0x00, 0xc7};
  uint8_t dst[32];
  EXPECT_EQ(ipsum_checksum(rfc1071, sizeof(rfc1071), 0), 0xddf2);
  EXPECT_EQ(ipsum_checksum(ipv4, sizeof(ipv4), 0), 0xffff);
  EXPECT_EQ(ipsum_checksum(ipv4, 10, 0), 0xc584);
  EXPECT_EQ(ipsum_checksum(NULL, 0, 0x1234), 0x1234);
  EXPECT_EQ(ipsum_checksum(rfc1071, 1, 0), 0x0000);
  EXPECT_EQ(ipsum_checksum(rfc1071 + 2, 1, 0), 0xf200);
  EXPECT_EQ(ipsum_checksum(rfc1071, sizeof(rfc1071), 0x220d), 0xffff);
  memset(dst, 0xa5, sizeof(dst));
  EXPECT_EQ(ipsum_checksum_copy(dst, ipv4, sizeof(ipv4), 0), 0xffff);
  EXPECT_EQ(memcmp(dst, ipv4, sizeof(ipv4)), 0);
  EXPECT_EQ(dst[sizeof(ipv4)], 0xa5);
}

static void against_slow_sum(void) {
  enum { kMax = 4200 };
  static uint8_t src[kMax + 64], dst[kMax + 64];
  uint32_t x = 12345;
  size_t i, len, off;
  for (i = 0; i < sizeof(src); ++i) {
    x = x * 1103515245u + 12345u;
    src[i] = (uint8_t)(x >> 16);
  }
  for (len = 0; len <= kMax; len += (len < 300 ? 1 : 97)) {
    for (off = 0; off < 8; ++off) {
      const uint16_t initial = (uint16_t)(len * 31 + off);
      const uint16_t want = slow_sum(src + off, len, initial);
      EXPECT_EQ(ipsum_checksum(src + off, len, initial), want);
      memset(dst, 0, sizeof(dst));
      EXPECT_EQ(ipsum_checksum_copy(dst + 7 - off, src + off, len, initial),
                want);
      EXPECT_EQ(memcmp(dst + 7 - off, src + off, len), 0);
    }
  }
}

/* short_paths checks ipsum_checksum, which sums up to 64 bytes in its own
 * size classes, against the byte-by-byte sum at every length 0..128 (both
 * sides of that bound) and every offset 0..63. */
static void short_paths(void) {
  static const uint16_t initials[] = {0, 1, 0x00ff, 0x8000, 0xfffe, 0xffff};
  static uint8_t buf[64 + 128 + 8];
  uint32_t x = 29;
  size_t len, off, k;
  int kind;
  for (kind = 0; kind < 3; ++kind) {
    for (len = 0; len <= 128; ++len) {
      for (off = 0; off < 64; ++off) {
        memset(buf, 0x5a, sizeof(buf));
        fill(buf + off, len, kind, &x);
        for (k = 0; k < sizeof(initials) / sizeof(initials[0]); ++k) {
          const uint16_t initial = initials[k];
          const uint16_t want = slow_sum(buf + off, len, initial);
          EXPECT_EQ(ipsum_checksum(buf + off, len, initial), want);
        }
        /* A sum plus its complement is 0xffff, never 0x0000. */
        EXPECT_EQ(ipsum_checksum(buf + off, len,
                                 (uint16_t)~slow_sum(buf + off, len, 0)),
                  0xffff);
      }
    }
  }
  memset(buf, 0, sizeof(buf));
  for (len = 0; len <= 128; ++len) {
    EXPECT_EQ(ipsum_checksum(buf + 3, len, 0), 0);
  }
}

int main(void) {
  known_answers();
  against_slow_sum();
  short_paths();
  if (failures) return 1;
  printf("ipsum_checksum C API: all checks passed\n");
  return 0;
}
