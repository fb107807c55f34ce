// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// The reference Internet checksum, written to be obviously right rather than
// fast: RFC 1071 section 1's definition transcribed byte by byte. Tests and
// benchmarks compare every implementation against it. It shares no code with
// the implementations it checks (not even endian.h). Test-only.

#ifndef IPSUM_CHECKSUM_INTERNAL_REFERENCE_H_
#define IPSUM_CHECKSUM_INTERNAL_REFERENCE_H_

#include <cstddef>
#include <cstdint>

namespace ipsum::checksum::internal {

// ReferenceSum returns the one's-complement sum of data[0, len), read as
// big-endian 16-bit words with an odd last byte padded with zero, added to
// `initial`, folded to 16 bits and not complemented: the SumFn contract.
// `data` may be null when `len` is 0.
uint16_t ReferenceSum(const uint8_t* data, size_t len, uint16_t initial);

}  // namespace ipsum::checksum::internal

#endif  // IPSUM_CHECKSUM_INTERNAL_REFERENCE_H_
