// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// What the run-time dispatcher (dispatch.h) chose and why: the types of its
// Select and Report. Declared apart from dispatch.h, and free of Abseil,
// because //checksum makes the process-wide selection itself on first use;
// call Select or Report through //checksum:dispatch.

#ifndef IPSUM_CHECKSUM_SELECTION_H_
#define IPSUM_CHECKSUM_SELECTION_H_

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

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

}  // namespace ipsum::checksum

#endif  // IPSUM_CHECKSUM_SELECTION_H_
