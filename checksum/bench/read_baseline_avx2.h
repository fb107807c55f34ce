// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// The bandwidth limit the checksum benchmarks compare against: the fastest
// loop that merely reads every byte with AVX2 (four independent `vpor`
// chains of 32-byte loads), doing none of a checksum's arithmetic. A
// checksum cannot beat it; the ratio to it says how much of the machine's
// read bandwidth a kernel uses. Benchmark-only (testonly target), x86-64.

#ifndef IPSUM_CHECKSUM_BENCH_READ_BASELINE_AVX2_H_
#define IPSUM_CHECKSUM_BENCH_READ_BASELINE_AVX2_H_

#include <cstddef>
#include <cstdint>

namespace ipsum::checksum {

// ReadBaselineSupported reports whether this CPU can run ReadBaselineAvx2
// (x86-64 with AVX2 and OS YMM support).
bool ReadBaselineSupported();

// ReadBaselineAvx2 reads data[0, len) (len a multiple of 128 is timed
// fairly; a tail is read bytewise) and returns the OR of all its 64-bit
// words, so the loads cannot be optimized away.
uint64_t ReadBaselineAvx2(const uint8_t* data, size_t len);

}  // namespace ipsum::checksum

#endif  // IPSUM_CHECKSUM_BENCH_READ_BASELINE_AVX2_H_
