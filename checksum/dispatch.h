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

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "checksum/selection.h"

namespace ipsum::checksum {

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
