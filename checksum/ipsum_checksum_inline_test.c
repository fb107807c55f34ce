/* Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
 *
 * The header's inline path for constant lengths (ipsum_checksum.h), in a C
 * program built optimized and linked with -Wl,--wrap=ipsum_checksum, so that
 * every call that reaches the library passes through __wrap_ipsum_checksum
 * below and is counted. Every constant length 0..64 is summed at offsets
 * 0..15, on random, all-0xff and carry-heavy bytes, with six initial values,
 * and compared with a byte-by-byte sum. Where the header has its inline
 * path (IPSUM_CHECKSUM_INLINE), none of those sums may call the library;
 * elsewhere each must. A length the compiler cannot see, and the constant
 * 65, must call it everywhere.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checksum/ipsum_checksum.h"
#include "checksum/ipsum_checksum_test_util.h"

static unsigned long library_calls = 0;

uint16_t __real_ipsum_checksum(const void* buf, size_t len, uint16_t initial);
uint16_t __wrap_ipsum_checksum(const void* buf, size_t len, uint16_t initial);

uint16_t __wrap_ipsum_checksum(const void* buf, size_t len, uint16_t initial) {
  ++library_calls;
  return __real_ipsum_checksum(buf, len, initial);
}

/* One function per constant length, each calling ipsum_checksum with that
 * length written as a literal, as a caller summing a header does. */
#define LENGTHS(X)                                                           \
  X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) \
  X(14) X(15) X(16) X(17) X(18) X(19) X(20) X(21) X(22) X(23) X(24) X(25)   \
  X(26) X(27) X(28) X(29) X(30) X(31) X(32) X(33) X(34) X(35) X(36) X(37)   \
  X(38) X(39) X(40) X(41) X(42) X(43) X(44) X(45) X(46) X(47) X(48) X(49)   \
  X(50) X(51) X(52) X(53) X(54) X(55) X(56) X(57) X(58) X(59) X(60) X(61)   \
  X(62) X(63) X(64)

#define DEFINE_SUM(n)                                              \
  static uint16_t sum_##n(const uint8_t* p, uint16_t initial) {    \
    return ipsum_checksum(p, n, initial);                          \
  }
LENGTHS(DEFINE_SUM)

struct fixed {
  size_t len;
  uint16_t (*sum)(const uint8_t* p, uint16_t initial);
};
#define ENTRY(n) {n, sum_##n},
static const struct fixed kFixed[] = {LENGTHS(ENTRY)};

static void constant_lengths(void) {
  static const uint16_t initials[] = {0, 1, 0x00ff, 0x8000, 0xfffe, 0xffff};
  static uint8_t buf[16 + 64 + 8];
  const size_t count = sizeof(kFixed) / sizeof(kFixed[0]);
  const unsigned long before = library_calls;
  unsigned long sums = 0;
  uint32_t x = 7;
  size_t f, off, k;
  int kind;
  for (f = 0; f < count; ++f) {
    const size_t len = kFixed[f].len;
    for (kind = 0; kind < 3; ++kind) {
      for (off = 0; off < 16; ++off) {
        memset(buf, 0x5a, sizeof(buf));
        fill(buf + off, len, kind, &x);
        for (k = 0; k < sizeof(initials) / sizeof(initials[0]); ++k) {
          EXPECT_EQ(kFixed[f].sum(buf + off, initials[k]),
                    slow_sum(buf + off, len, initials[k]));
          ++sums;
        }
        /* A sum plus its complement is 0xffff, never 0x0000. */
        EXPECT_EQ(kFixed[f].sum(buf + off,
                                (uint16_t)~slow_sum(buf + off, len, 0)),
                  0xffff);
        ++sums;
      }
    }
    memset(buf, 0, sizeof(buf));
    EXPECT_EQ(kFixed[f].sum(buf + 5, 0), 0);
    ++sums;
  }
#if defined(IPSUM_CHECKSUM_INLINE)
  EXPECT_EQ(library_calls - before, 0);
#else
  EXPECT_EQ(library_calls - before, sums);
#endif
}

static void library_lengths(void) {
  static uint8_t buf[65];
  volatile size_t opaque = 20;
  unsigned long before;
  memset(buf, 0xa7, sizeof(buf));
  before = library_calls;
  EXPECT_EQ(ipsum_checksum(buf, opaque, 0x1234),
            slow_sum(buf, 20, 0x1234));
  EXPECT_EQ(ipsum_checksum(buf, 65, 0), slow_sum(buf, 65, 0));
  EXPECT_EQ(library_calls - before, 2);
}

int main(void) {
  /* The header promises the inline path to GCC and clang optimizing for
   * x86-64 (this test is built with -O2), so that the check below that no
   * sum calls the library cannot pass by the path being turned off. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(IPSUM_CHECKSUM_INLINE)
  fprintf(stderr, "IPSUM_CHECKSUM_INLINE undefined on x86-64 at -O2\n");
  ++failures;
#endif
  constant_lengths();
  library_lengths();
  if (failures) return 1;
#if defined(IPSUM_CHECKSUM_INLINE)
  printf("ipsum_checksum: constant lengths summed inline, all checks passed\n");
#else
  printf("ipsum_checksum: no inline path here, all checks passed\n");
#endif
  return 0;
}
