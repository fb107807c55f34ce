// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// The AVX-512 bandwidth limit the checksum benchmarks compare against, next
// to read_baseline_avx2.h: a loop that merely reads every byte with 512-bit
// loads (eight independent `vpord` chains, each with its load as the memory
// operand, 512 bytes per step), doing none of a checksum's arithmetic: the
// fastest such loop found (docs/benchmarking.md). Benchmark-only (testonly
// target), x86-64.

#ifndef IPSUM_CHECKSUM_BENCH_READ_BASELINE_AVX512_H_
#define IPSUM_CHECKSUM_BENCH_READ_BASELINE_AVX512_H_

#include <cstddef>
#include <cstdint>

namespace ipsum::checksum {

// ReadBaseline512Supported reports whether this CPU can run
// ReadBaselineAvx512 (x86-64 with AVX-512F and BW and OS ZMM support).
bool ReadBaseline512Supported();

// ReadBaselineAvx512 reads data[0, len) (len a multiple of 512 is timed
// fairly; the rest is read with masked loads) and returns the OR of all its
// 64-bit words, so the loads cannot be optimized away.
uint64_t ReadBaselineAvx512(const uint8_t* data, size_t len);

}  // namespace ipsum::checksum

#endif  // IPSUM_CHECKSUM_BENCH_READ_BASELINE_AVX512_H_
