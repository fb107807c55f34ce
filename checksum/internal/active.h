// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// The cached pointers to the chosen implementation that checksum.cc calls
// through. Each starts at a resolver that runs the process-wide selection
// (dispatch.h) on first use, stores the chosen function and forwards the
// call; from then on a call costs one relaxed atomic load and an indirect
// call. Constant-initialized, so usable from static initializers.
//
// The pointers are defined, and the selection made, in select.cc
// (internal/select.h).
//
// Not API: only //checksum's own sources and tests include it.

#ifndef IPSUM_CHECKSUM_INTERNAL_ACTIVE_H_
#define IPSUM_CHECKSUM_INTERNAL_ACTIVE_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <span>

#include "checksum/internal/impl.h"

namespace ipsum::checksum::internal {

// active_sum is the SumFn in use.
extern std::atomic<SumFn> active_sum;

// active_copy_sum is the CopySumFn in use.
extern std::atomic<CopySumFn> active_copy_sum;

// active_sum_pieces is the SumPiecesFn in use.
extern std::atomic<SumPiecesFn> active_sum_pieces;

// CallActiveSum calls the SumFn in use.
inline uint16_t CallActiveSum(const uint8_t* data, size_t len,
                              uint16_t initial) {
  return active_sum.load(std::memory_order_relaxed)(data, len, initial);
}

// CallActiveCopySum calls the CopySumFn in use.
inline uint16_t CallActiveCopySum(uint8_t* dst, const uint8_t* src, size_t len,
                                  uint16_t initial) {
  return active_copy_sum.load(std::memory_order_relaxed)(dst, src, len,
                                                         initial);
}

// CallActiveSumPieces calls the SumPiecesFn in use.
inline uint16_t CallActiveSumPieces(const std::span<const uint8_t>* pieces,
                                    size_t count, size_t stride,
                                    uint16_t initial) {
  return active_sum_pieces.load(std::memory_order_relaxed)(pieces, count,
                                                           stride, initial);
}

}  // namespace ipsum::checksum::internal

#endif  // IPSUM_CHECKSUM_INTERNAL_ACTIVE_H_
