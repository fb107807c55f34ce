// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// The public entry points of checksum.h. They hold no arithmetic of their
// own: `Checksum` forwards to the active implementation, and `Checksummer`
// combines the sums of its pieces with `CombineAt` (RFC 1071 section 2(B)),
// so a piece of any length may follow a piece of any length.

#include "checksum/checksum.h"

#include <cstddef>
#include <cstdint>
#include <span>

#include "checksum/internal/active.h"
#include "checksum/internal/impl.h"
#include "checksum/internal/native_sum.h"

namespace ipsum::checksum {
namespace {

// kInlineShort: inputs shorter than this (headers, ACKs) are summed inline,
// without the indirect call.
constexpr size_t kInlineShort = internal::kShortLimit;

// ActiveSum is the implementation behind Checksum and Checksummer: below
// kInlineShort bytes native_sum.h's SumShortOr, a size-class tree of
// straight-line sums; from there on the implementation chosen at run time
// (dispatch.h), through a cached function pointer.
[[gnu::always_inline]] inline uint16_t ActiveSum(const uint8_t* data,
                                                 size_t len, uint16_t initial) {
  return internal::SumShortOr(data, len, initial, internal::CallActiveSum);
}

}  // namespace

uint16_t Checksum(std::span<const uint8_t> data, uint16_t initial) {
  return ActiveSum(data.data(), data.size(), initial);
}

uint16_t Checksum(const void* data, size_t len, uint16_t initial) {
  return ActiveSum(static_cast<const uint8_t*>(data), len, initial);
}

uint16_t ChecksumPieces(std::span<const std::span<const uint8_t>> pieces,
                        uint16_t initial) {
  return ChecksumPieces(pieces.data(), pieces.size(), sizeof(pieces[0]),
                        initial);
}

uint16_t ChecksumPieces(const std::span<const uint8_t>* first, size_t count,
                        size_t stride, uint16_t initial) {
  // One piece is a plain Checksum, which keeps its inline short path.
  if (count == 1) return ActiveSum(first->data(), first->size(), initial);
  return internal::CallActiveSumPieces(first, count, stride, initial);
}

uint16_t CopyAndChecksum(uint8_t* dst, const uint8_t* src, size_t len,
                         uint16_t initial) {
  if (len < kInlineShort) {
    return internal::FinishAccumulator(internal::CopyShortNative(dst, src, len),
                                       initial);
  }
  return internal::CallActiveCopySum(dst, src, len, initial);
}

void Checksummer::Add(std::span<const uint8_t> data) {
  // The piece is summed on its own from zero and placed by its offset in the
  // stream: swapped when it starts at an odd offset.
  AddSum(ActiveSum(data.data(), data.size(), 0), data.size());
}

}  // namespace ipsum::checksum
