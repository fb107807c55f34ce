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
#include "checksum/internal/pieces.h"

namespace ipsum::checksum {
namespace {

// kInlineShort: inputs shorter than this (headers, ACKs) are summed inline,
// without the indirect call.
constexpr size_t kInlineShort = internal::kShortLimit;

// kHeadPiece bounds the first piece that ChecksumPieces sums on its own
// before three more (see there): Ethernet, IPv6 and a TCP header with 60
// bytes of options take 114 bytes.
constexpr size_t kHeadPiece = 256;

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

namespace {

// SumOnePiece is ChecksumPieces of one piece: a plain Checksum, which keeps
// its inline short path.
[[gnu::noinline]] uint16_t SumOnePiece(const std::span<const uint8_t>* first,
                                       uint16_t initial) {
  return ActiveSum(first->data(), first->size(), initial);
}

// SumAfterHead is ChecksumPieces of `count` >= 2 pieces whose first, of
// even length, is summed into the initial value before the others go on
// as a list of their own (see ChecksumPieces).
[[gnu::noinline]] uint16_t SumAfterHead(const std::span<const uint8_t>* first,
                                        size_t count, size_t stride,
                                        uint16_t initial) {
  initial = ActiveSum(first->data(), first->size(), initial);
  const std::span<const uint8_t>& second = internal::PieceAt(first, 1, stride);
  if (count == 2) return ActiveSum(second.data(), second.size(), initial);
  return internal::CallActiveSumPieces(&second, count - 1, stride, initial);
}

}  // namespace

uint16_t ChecksumPieces(const std::span<const uint8_t>* first, size_t count,
                        size_t stride, uint16_t initial) {
  // The two special cases are functions of their own, reached by tail
  // calls, so that this one keeps no registers of its own and the common
  // case jumps straight to the implementation (inlined here, the short sums
  // would cost every call a prologue and epilogue of saved registers).
  if (count == 1) return SumOnePiece(first, initial);
  if (count == 0) return initial;
  // A frame's headers in a view of their own, before the payload's views:
  // a first piece of even length, summed into the initial value, and the
  // pieces after it summed as a list of their own, so that two or three
  // payload views take an implementation's path for that many pieces
  // (x86_avx512's straight-line SumFewPieces) instead of its loop for any
  // list. The even length leaves the later bytes at their parity, so the
  // initial value carries the first piece exactly (RFC 1071 section 2(B)).
  // Taken when the first piece is shorter than kInlineShort (summed inline;
  // implementations send such a piece to their loop whatever follows), or
  // shorter than kHeadPiece with three pieces after it (a second call, which
  // the straight-line path for three more than repays).
  const size_t head = first->size();
  if ((head & 1) == 0 &&
      (head < kInlineShort || (head < kHeadPiece && count == 4))) {
    return SumAfterHead(first, count, stride, initial);
  }
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
