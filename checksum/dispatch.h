// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Run-time choice of the checksum implementations behind `Checksum` and
// `Checksummer` (the sum), `CopyAndChecksum` (the fused copy) and
// `ChecksumPieces` (the sum of pieces), all in checksum.h.
//
// On first use the dispatcher asks every implementation built into the
// binary whether this CPU supports it (CPUID, getauxval); an unsupported one
// is never called, not even to time it. It then times each supported one on
// small in-cache workloads, one per function (1500-byte and 64-byte sums;
// the same sizes copied; a 1500-byte segment in three pieces and a 64-byte
// one in two), keeping the minimum over a few trials (steady_clock), and
// chooses the fastest for each function on its own: a CPU may sum fastest
// with one instruction set and copy fastest with another. This happens once
// per process and is thread-safe; its one-time cost is measured by
// //checksum:dispatch_benchmark.
//
// The environment variable IPSUM_CHECKSUM_IMPL forces the choice:
//
//   IPSUM_CHECKSUM_IMPL=x86_avx2                  all three functions
//   IPSUM_CHECKSUM_IMPL=copy:x86_avx2             the copy; the others timed
//   IPSUM_CHECKSUM_IMPL=sum:x86_avx512,copy:x86_avx2,pieces:portable
//   IPSUM_CHECKSUM_IMPL=portable,copy:x86_avx2    the copy, and portable for
//                                                 the rest
//
// A bare name forces every function not named by a `sum:`, `copy:` or
// `pieces:` item. A value that is malformed, names an unknown
// implementation, or one this CPU does not support, is refused as a whole:
// the process does not abort (a typo in a tuning knob must not take a
// network stack down), it prints one line to stderr, chooses automatically
// as if the variable were unset, and records the refusal in
// `Report().error`. Tools that want a hard failure call `Select` themselves.
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
  // sum_gbps is the measured throughput of its sum on the sum's workload,
  // in GB/s (10^9 bytes per second); 0 when not measured (unsupported, or
  // all three choices were forced).
  double sum_gbps = 0;
  // copy_gbps is the same for its fused copy and checksum.
  double copy_gbps = 0;
  // pieces_gbps is the same for its sum of pieces.
  double pieces_gbps = 0;
  // chosen_for_sum, chosen_for_copy and chosen_for_pieces tell whether it
  // is in use for the sum, the fused copy and the sum of pieces.
  bool chosen_for_sum = false;
  bool chosen_for_copy = false;
  bool chosen_for_pieces = false;
};

// Selection is the outcome of one selection: what is in use and why.
struct Selection {
  // sum_name names the implementation behind `sum`; sum_forced tells
  // whether it was forced rather than measured. Likewise copy_* for
  // `copy_sum` and pieces_* for `sum_pieces`.
  std::string sum_name;
  bool sum_forced = false;
  std::string copy_name;
  bool copy_forced = false;
  std::string pieces_name;
  bool pieces_forced = false;
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
  // error is empty, or says why IPSUM_CHECKSUM_IMPL was refused and the
  // choice made automatically instead (only in the process-wide selection;
  // Select itself returns the error).
  std::string error;
};

// Select makes a selection now, without touching the process-wide one.
// `forced` has IPSUM_CHECKSUM_IMPL's syntax (see above); an empty one times
// every supported implementation and picks the fastest for each function;
// a function that `forced` names is not chosen by timing, and nothing is
// timed when it names all three. Returns InvalidArgumentError for a
// malformed `forced`, NotFoundError for an unknown name and
// FailedPreconditionError for one this CPU does not support.
absl::StatusOr<Selection> Select(std::string_view forced);

// Report returns the process-wide selection (made on first use of any
// checksum function, or by this call), honouring IPSUM_CHECKSUM_IMPL.
const Selection& Report();

// FormatReport returns Report() as text for humans (`csum --cpu`): one
// line per implementation with its measured speeds, marked with the
// functions it is chosen for, then one line naming the three choices
// ("(forced)" after a forced one):
//
//   checksum implementations (IPSUM_CHECKSUM_IMPL unset):
//     portable     supported    sum   31.2 GB/s  copy   25.0 GB/s  pieces ...
//     ...
//     x86_avx2     supported    sum   95.1 GB/s  copy   71.5 GB/s  pieces ...
//     <- chosen for copy
//     x86_avx512   supported    sum  118.6 GB/s  copy   54.4 GB/s  pieces ...
//     <- chosen for sum, pieces
//     chosen: sum x86_avx512, copy x86_avx2, pieces x86_avx512
//
// (each "<- chosen" ends its implementation's line).
std::string FormatReport();

}  // namespace ipsum::checksum

#endif  // IPSUM_CHECKSUM_DISPATCH_H_
