/* Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
 *
 * The C interface to ipsum's Internet checksum, for C programs and for other
 * languages' foreign-function interfaces. Built as the shared library
 * libipsum_checksum.so (`bazel build -c opt //checksum:libipsum_checksum.so`),
 * which exports these two symbols and nothing else. Both use the fastest
 * implementation this CPU supports, chosen on first use (see dispatch.h;
 * IPSUM_CHECKSUM_IMPL forces one). Both are thread-safe and never fail.
 *
 * The result is the one's-complement sum of the bytes read as big-endian
 * 16-bit words (an odd last byte padded with zero), added to `initial`,
 * folded to 16 bits, not complemented: store `~sum` in a header, in network
 * byte order. Lengths and alignments are unrestricted.
 */

#ifndef IPSUM_CHECKSUM_IPSUM_CHECKSUM_H_
#define IPSUM_CHECKSUM_IPSUM_CHECKSUM_H_

#include <stddef.h>
#include <stdint.h>

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
