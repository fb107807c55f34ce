/* Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
 *
 * The C interface to ipsum's Internet checksum, for C programs and for other
 * languages' foreign-function interfaces. C99 or later, or C++.
 *
 * The library comes as the shared library libipsum_checksum.so and as the
 * self-contained static archive libipsum_checksum.a (`bazel build -c opt
 * //checksum:libipsum_checksum.so` or `:libipsum_checksum.a`; the archive is
 * one object in which, except on MIPS, only these functions are global, so
 * it clashes with nothing; link it with `-lstdc++ -lm`). Both export
 * ipsum_checksum and ipsum_checksum_copy only, at symbol version
 * IPSUM_CHECKSUM_1: their signatures and results never change (a new
 * function gets a new version).
 * They use the fastest implementation this CPU supports, chosen on first use
 * (IPSUM_CHECKSUM_IMPL forces one), are thread-safe and never fail. Up to
 * 64 bytes ipsum_checksum sums in its own code, without the indirect call
 * to that implementation.
 *
 * A call to ipsum_checksum whose length is a constant of at most 64 bytes
 * (a header: `ipsum_checksum(ip, 20, 0)`) is summed inline, with no call,
 * when the compiler is GCC or clang optimizing for x86-64: the header
 * defines IPSUM_CHECKSUM_INLINE to 1 then. The result is the same; define
 * IPSUM_CHECKSUM_NO_INLINE before including this header to always call the
 * library. Any other call, and `&ipsum_checksum`, reaches the library.
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

/* IPSUM_CHECKSUM_ABI_VERSION: the N of the symbol version IPSUM_CHECKSUM_N
 * that the library's functions declared here are exported at. */
#define IPSUM_CHECKSUM_ABI_VERSION 1

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

/* The inline path for constant lengths. A macro, so that the library's
 * symbol stays the one function above; each argument is evaluated once, and
 * `len` only as __builtin_constant_p's operand unless it is a constant. The
 * sum is the library's short path with everything the length decides
 * settled at compile time: 8-byte words added with carry, then the last 1..8
 * bytes loaded as the 8 ending at `len` and shifted right past the ones
 * already counted; `initial` enters shifted left 8 bits (the byte swap that
 * puts it in the little-endian order of the words, modulo 0xffff); two
 * rotate-and-add steps fold the 64 bits, the top 16 of which one byte swap
 * moves down in big-endian order (native_sum.h's FinishShort). */
#if defined(__x86_64__) && defined(__GNUC__) && defined(__OPTIMIZE__) && \
    !defined(IPSUM_CHECKSUM_NO_INLINE)
#define IPSUM_CHECKSUM_INLINE 1

/* A conversion that is valid C and warning-free C++. */
#ifdef __cplusplus
#define IPSUM_CHECKSUM_CAST_(type, value) static_cast<type>(value)
#else
#define IPSUM_CHECKSUM_CAST_(type, value) ((type)(value))
#endif

/* ipsum_checksum_load{64,32,16}_: loads of any alignment, which may alias
 * whatever the caller stored there; each is one mov, or the memory operand
 * of the add that uses it. */
#define IPSUM_CHECKSUM_LOAD_(bits)                                  \
  static __inline__ __attribute__((__always_inline__)) uint##bits##_t \
      ipsum_checksum_load##bits##_(const unsigned char* p) {        \
    uint##bits##_t v;                                               \
    __builtin_memcpy(&v, p, sizeof(v));                             \
    return v;                                                       \
  }
IPSUM_CHECKSUM_LOAD_(64)
IPSUM_CHECKSUM_LOAD_(32)
IPSUM_CHECKSUM_LOAD_(16)
#undef IPSUM_CHECKSUM_LOAD_

static __inline__ __attribute__((__always_inline__)) uint16_t
ipsum_checksum_fixed_(const void* buf, size_t len, uint16_t initial) {
  const unsigned char* p = IPSUM_CHECKSUM_CAST_(const unsigned char*, buf);
  unsigned long long acc = initial;
  uint64_t y;
  acc <<= 8;
  if (len >= 8) {
    const size_t words = (len - 1) / 8; /* All but the last 1..8 bytes. */
    const size_t drop = 8 * (8 * words + 8 - len) & 63;
    const uint64_t last = ipsum_checksum_load64_(p + len - 8) >> drop;
    unsigned char carry = 0;
    /* With no initial value the chain starts at `last`: GCC turns a carry
     * it knows is 0 into instructions that set the flag, not into an add. */
    if (__builtin_constant_p(initial) && initial == 0) {
      acc = last;
    } else {
      carry = __builtin_ia32_addcarryx_u64(0, acc, last, &acc);
    }
    /* Written out: compilers keep a loop of these, its carry in memory. */
#define IPSUM_CHECKSUM_WORD_(i)                                          \
  if (words > (i)) {                                                     \
    carry = __builtin_ia32_addcarryx_u64(                                \
        carry, acc, ipsum_checksum_load64_(p + 8 * (i)), &acc);          \
  }
    IPSUM_CHECKSUM_WORD_(0)
    IPSUM_CHECKSUM_WORD_(1)
    IPSUM_CHECKSUM_WORD_(2)
    IPSUM_CHECKSUM_WORD_(3)
    IPSUM_CHECKSUM_WORD_(4)
    IPSUM_CHECKSUM_WORD_(5)
    IPSUM_CHECKSUM_WORD_(6)
#undef IPSUM_CHECKSUM_WORD_
    acc += carry; /* No wrap: a carry out leaves acc <= 2^64 - 2. */
  } else if (len >= 4) {
    /* Bytes 0..3, then bytes 4..len-1 out of the last four. */
    const uint64_t last = ipsum_checksum_load32_(p + len - 4);
    acc += ipsum_checksum_load32_(p);
    acc += last >> (8 * (8 - len) & 63);
  } else if (len >= 2) {
    acc += ipsum_checksum_load16_(p);
    if (len == 3) acc += p[2]; /* The high-order byte of a 0-padded word. */
  } else if (len == 1) {
    acc += p[0];
  }
  y = acc + (acc << 32 | acc >> 32);
  y += y << 16 | y >> 48;
  return IPSUM_CHECKSUM_CAST_(uint16_t, __builtin_bswap64(y));
}

#define ipsum_checksum(buf, len, initial)                                \
  (__builtin_constant_p(len) && IPSUM_CHECKSUM_CAST_(size_t, len) <= 64  \
       ? ipsum_checksum_fixed_((buf), IPSUM_CHECKSUM_CAST_(size_t, len), \
                               (initial))                                \
       : (ipsum_checksum)((buf), (len), (initial)))
#endif

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* IPSUM_CHECKSUM_IPSUM_CHECKSUM_H_ */
