/* Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
 *
 * The C interface to ipsum's Internet checksum, for C programs and for other
 * languages' foreign-function interfaces. C99 or later, or C++.
 *
 * The library comes as the shared library libipsum_checksum.so and as the
 * self-contained static archive libipsum_checksum.a (`bazel build -c opt
 * //checksum:libipsum_checksum.so` or `:libipsum_checksum.a`; the archive is
 * one object in which only these functions are global, so it clashes with
 * nothing; link it with `-lstdc++ -lm`). Both export ipsum_checksum and
 * ipsum_checksum_copy only, at symbol version IPSUM_CHECKSUM_1: their
 * signatures and results never change (a new function gets a new version).
 * They use the fastest implementation this CPU supports, chosen on first use
 * (IPSUM_CHECKSUM_IMPL forces one), are thread-safe and never fail.
 *
 * ipsum_checksum_inline, defined below, is compiled into the caller: a short
 * sum in the caller's code, and ipsum_checksum for longer inputs.
 *
 * The result is the one's-complement sum of the bytes read as big-endian
 * 16-bit words (an odd last byte padded with zero), added to `initial`,
 * folded to 16 bits, not complemented: store `~sum` in a header, in network
 * byte order. It is 0 only when the bytes and `initial` are all zero.
 * Lengths and alignments are unrestricted.
 */

#ifndef IPSUM_CHECKSUM_IPSUM_CHECKSUM_H_
#define IPSUM_CHECKSUM_IPSUM_CHECKSUM_H_

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* IPSUM_CHECKSUM_ABI_VERSION: the N of the symbol version IPSUM_CHECKSUM_N
 * that the library's functions declared here are exported at. */
#define IPSUM_CHECKSUM_ABI_VERSION 1

/* IPSUM_CHECKSUM_INLINE_MAX: ipsum_checksum_inline sums up to this many
 * bytes in the caller. */
#define IPSUM_CHECKSUM_INLINE_MAX 64

#ifdef __cplusplus
extern "C" {
#endif

/* ipsum_checksum returns the sum of buf[0, len) added to `initial`. `buf`
 * may be NULL when `len` is 0 (the result is then `initial`). */
uint16_t ipsum_checksum(const void* buf, size_t len, uint16_t initial);

/* ipsum_checksum_copy copies src[0, len) to dst[0, len) (the ranges must not
 * overlap) and returns the sum of those bytes added to `initial`, reading
 * the source once. Nothing outside dst[0, len) is written. */
uint16_t ipsum_checksum_copy(void* dst, const void* src, size_t len,
                             uint16_t initial);

/* The byte order the inline sum is compiled for; without it (a compiler
 * that does not say) ipsum_checksum_inline calls the library. */
#if defined(__BYTE_ORDER__) && defined(__ORDER_BIG_ENDIAN__) && \
    __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define IPSUM_CHECKSUM_BIG_ENDIAN_ 1
#elif defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define IPSUM_CHECKSUM_BIG_ENDIAN_ 0
#endif

#ifdef IPSUM_CHECKSUM_BIG_ENDIAN_
/* ipsum_checksum_load64_ and _load32_ read 8 and 4 bytes at `p`, any
 * alignment, in host order. Not API. */
static inline uint64_t ipsum_checksum_load64_(const unsigned char* p) {
  uint64_t v;
  memcpy(&v, p, sizeof(v));
  return v;
}

static inline uint64_t ipsum_checksum_load32_(const unsigned char* p) {
  uint32_t v;
  memcpy(&v, p, sizeof(v));
  return v;
}

/* ipsum_checksum_short_ is the sum of p[0, len), len <= 64, and `initial`,
 * computed in host order (the one's-complement sum is byte-order
 * independent, RFC 1071 section 2(B)): 8-byte words with their carries
 * counted, then the last 8 (or 4) bytes of the input loaded whole with the
 * bytes already counted shifted out, so that the rest keep the parity of
 * their offsets. Not API. */
static inline uint16_t ipsum_checksum_short_(const unsigned char* p,
                                             size_t len, uint16_t initial) {
  /* `initial` in host order: on a little-endian host shifted up a byte, a
   * multiplication by 2^8 modulo 0xffff, which folds to the byte swap. */
  uint64_t sum = IPSUM_CHECKSUM_BIG_ENDIAN_ ? initial : (uint64_t)initial << 8;
  uint64_t carries = 0, y;
  /* The shift that drops from a word ending at byte `len` the bytes before
   * the last len % 8 (or, for a 4-byte word and 4 <= len < 8, before
   * offset 4): 8 * (8 - len % 8) modulo 64. */
  const unsigned drop = (0u - 8u * (unsigned)len) & 63u;
  if (len >= 8) {
    /* All but the last 1..8 bytes, 0..7 words: 4, 2 and 1 words as the bits
     * of their count say, straight-line code with no loop. */
    const size_t words = (len - 1) / 8;
    uint64_t v = ipsum_checksum_load64_(p + len - 8);
#define IPSUM_CHECKSUM_ADD_(word)   \
  do {                              \
    v = (word);                     \
    sum += v;                       \
    carries += sum < v;             \
  } while (0)
    IPSUM_CHECKSUM_ADD_(IPSUM_CHECKSUM_BIG_ENDIAN_ ? v << drop : v >> drop);
    if (words & 4) {
      IPSUM_CHECKSUM_ADD_(ipsum_checksum_load64_(p));
      IPSUM_CHECKSUM_ADD_(ipsum_checksum_load64_(p + 8));
      IPSUM_CHECKSUM_ADD_(ipsum_checksum_load64_(p + 16));
      IPSUM_CHECKSUM_ADD_(ipsum_checksum_load64_(p + 24));
      p += 32;
    }
    if (words & 2) {
      IPSUM_CHECKSUM_ADD_(ipsum_checksum_load64_(p));
      IPSUM_CHECKSUM_ADD_(ipsum_checksum_load64_(p + 8));
      p += 16;
    }
    if (words & 1) IPSUM_CHECKSUM_ADD_(ipsum_checksum_load64_(p));
#undef IPSUM_CHECKSUM_ADD_
    sum += carries; /* 2^64 == 1 modulo 0xffff; carries < 9: no wrap. */
    carries = sum < carries;
    sum += carries;
  } else if (len >= 4) {
    const uint64_t v = ipsum_checksum_load32_(p + len - 4);
    sum += ipsum_checksum_load32_(p) +
           ((IPSUM_CHECKSUM_BIG_ENDIAN_ ? v << drop : v >> drop) & 0xffffffffu);
  } else if (len > 0) {
    /* A lone byte at an even offset is the high-order byte of a big-endian
     * word: the low byte of a little-endian one. */
    const unsigned odd = IPSUM_CHECKSUM_BIG_ENDIAN_ ? 8 : 0;
    sum += (uint64_t)p[0] << odd;
    if (len >= 2) sum += (uint64_t)p[1] << (8 - odd);
    if (len == 3) sum += (uint64_t)p[2] << odd;
  }
  /* Fold with end-around carries: adding the word rotated by 32 leaves the
   * sum of its halves in the top 32 bits; adding that rotated by 16 leaves
   * the sum of those halves in the top 16 bits. Zero only if `sum` is. */
  y = sum + (sum << 32 | sum >> 32);
  y += y << 16 | y >> 48;
  if (IPSUM_CHECKSUM_BIG_ENDIAN_) return (uint16_t)(y >> 48);
#if defined(__GNUC__)
  return (uint16_t)__builtin_bswap64(y); /* The top 16 bits, byte-swapped. */
#else
  return (uint16_t)((y >> 56) | ((y >> 40) & 0xff00u));
#endif
}
#endif /* IPSUM_CHECKSUM_BIG_ENDIAN_ */

/* ipsum_checksum_inline returns ipsum_checksum(buf, len, initial), exactly,
 * for every input: summed in the caller, without a call, when len <=
 * IPSUM_CHECKSUM_INLINE_MAX (headers, acknowledgements); by calling the
 * library otherwise. */
static inline uint16_t ipsum_checksum_inline(const void* buf, size_t len,
                                             uint16_t initial) {
#ifdef IPSUM_CHECKSUM_BIG_ENDIAN_
  if (len <= IPSUM_CHECKSUM_INLINE_MAX) {
    return ipsum_checksum_short_((const unsigned char*)buf, len, initial);
  }
#endif
  return ipsum_checksum(buf, len, initial);
}

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* IPSUM_CHECKSUM_IPSUM_CHECKSUM_H_ */
