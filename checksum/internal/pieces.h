// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// How a SumPiecesFn (impl.h) finds its pieces: `count` spans, the first at
// `pieces` and each next one `stride` bytes further. An array of spans has
// a stride of sizeof(std::span<const uint8_t>); an array of structs whose
// first member is such a span (buffer::View) is passed as it is, with a
// stride of the struct's size, so that a caller whose pieces already sit in
// memory need not gather them into a new array first. (Writing the spans
// just before the call puts a store-to-load round trip on the path to the
// first load of data.)
//
// Not API: only //checksum's own sources include it.

#ifndef IPSUM_CHECKSUM_INTERNAL_PIECES_H_
#define IPSUM_CHECKSUM_INTERNAL_PIECES_H_

#include <cstddef>
#include <cstdint>
#include <span>

namespace ipsum::checksum::internal {

// PieceAt returns piece `i` of the pieces at `pieces` with stride `stride`.
// Internal linkage, always inlined: included by files built with different
// ISA flags (see native_sum.h).
[[gnu::always_inline]] static inline const std::span<const uint8_t>& PieceAt(
    const std::span<const uint8_t>* pieces, size_t i, size_t stride) {
  return *reinterpret_cast<const std::span<const uint8_t>*>(
      reinterpret_cast<const char*>(pieces) + i * stride);
}

}  // namespace ipsum::checksum::internal

#endif  // IPSUM_CHECKSUM_INTERNAL_PIECES_H_
