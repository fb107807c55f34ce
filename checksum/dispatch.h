// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Run-time choice of the checksum implementation behind `Checksum`,
// `CopyAndChecksum` and `Checksummer` (checksum.h).
//
// On first use the dispatcher asks every implementation built into the
// binary whether this CPU supports it (CPUID, getauxval); an unsupported one
// is never called, not even to time it. It then times each supported one on
// a small in-cache buffer (1500-byte and 64-byte sums, the minimum over a few
// trials, steady_clock) and keeps the fastest. This happens once per
// process, is thread-safe, and takes a few tens of microseconds.
//
// The environment variable IPSUM_CHECKSUM_IMPL=<name> (for example
// "portable" or "x86_avx2") forces one implementation instead. A name that is
// unknown, or that this CPU does not support, is refused: the process does
// not abort (a typo in a tuning knob must not take a network stack down), it
// prints one line to stderr, chooses automatically as if the variable were
// unset, and records the refusal in `Report().error`. Tools that want a hard
// failure call `Select` themselves.
//
// Every implementation returns the same values; the choice changes speed
// only. Inputs shorter than 64 bytes never reach the chosen implementation:
// Checksum and CopyAndChecksum sum them inline with the scalar code every
// fast path shares for its own short inputs (internal/native_sum.h), forced
// choice or not.

#ifndef IPSUM_CHECKSUM_DISPATCH_H_
#define IPSUM_CHECKSUM_DISPATCH_H_

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace ipsum::checksum {

// kImplementationEnvVar names the environment variable that forces an
// implementation: "IPSUM_CHECKSUM_IMPL".
inline constexpr char kImplementationEnvVar[] = "IPSUM_CHECKSUM_IMPL";

// ImplementationInfo describes one implementation built into this binary.
struct ImplementationInfo {
  // name is the implementation's stable name: "portable", "x86_avx2", ...
  std::string name;
  // supported tells whether this CPU can run it.
  bool supported = false;
  // sum_gbps is the measured throughput of its sum on the selection buffer,
  // in GB/s (10^9 bytes per second); 0 when not measured (unsupported, or
  // the choice was forced).
  double sum_gbps = 0;
  // copy_gbps is the same for its fused copy and checksum.
  double copy_gbps = 0;
  // chosen tells whether it is the one in use.
  bool chosen = false;
};

// Selection is the outcome of one selection: what is in use and why.
struct Selection {
  // name is the chosen implementation's name.
  std::string name;
  // forced tells whether `name` was forced rather than measured.
  bool forced = false;
  // sum is the chosen SumFn: see checksum::Checksum for the contract.
  uint16_t (*sum)(const uint8_t* data, size_t len, uint16_t initial) = nullptr;
  // copy_sum is the chosen fused copy and checksum (see CopyAndChecksum).
  uint16_t (*copy_sum)(uint8_t* dst, const uint8_t* src, size_t len,
                       uint16_t initial) = nullptr;
  // sum_pieces is the chosen sum of a list of pieces (see ChecksumPieces).
  uint16_t (*sum_pieces)(const std::span<const uint8_t>* pieces, size_t count,
                         size_t stride, uint16_t initial) = nullptr;
  // implementations lists every implementation built in, in table order
  // (portable first).
  std::vector<ImplementationInfo> implementations;
  // error is empty, or says why a forced name was refused and the choice
  // made automatically instead (only in the process-wide selection; Select
  // itself returns the error).
  std::string error;
};

// Select chooses an implementation now, without touching the process-wide
// choice. An empty `forced` times every supported implementation and picks
// the fastest. A non-empty `forced` picks that implementation without
// timing anything; it returns NotFoundError for an unknown name and
// FailedPreconditionError for one this CPU does not support.
absl::StatusOr<Selection> Select(std::string_view forced);

// Report returns the process-wide selection (made on first use of any
// checksum function, or by this call), honouring IPSUM_CHECKSUM_IMPL.
const Selection& Report();

// FormatReport returns Report() as text, one implementation per line, for
// humans (`csum --cpu`):
//
//   checksum implementations (IPSUM_CHECKSUM_IMPL unset):
//     portable     supported   sum  31.2 GB/s  copy  25.0 GB/s
//     x86_avx2     supported   sum  95.1 GB/s  copy  70.3 GB/s  <- chosen
std::string FormatReport();

}  // namespace ipsum::checksum

#endif  // IPSUM_CHECKSUM_DISPATCH_H_
