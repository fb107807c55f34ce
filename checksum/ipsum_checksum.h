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

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* IPSUM_CHECKSUM_IPSUM_CHECKSUM_H_ */
