// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// The Internet checksum (RFC 1071): the 16-bit one's-complement sum of a byte
// string read as big-endian 16-bit words, an odd last byte padded with a zero
// byte. Every function here returns the *sum*, folded to 16 bits and not
// complemented, exactly as gVisor's `checksum.Checksum`; a protocol stores the
// complement (`~sum`) in its header.
//
// This package is pure arithmetic: it knows nothing about headers, packets or
// buffers. `buffer` and `header` build on it.
//
// Sums compose (RFC 1071 section 2):
//   - Commutative and associative (2(A)): the sum of a concatenation is the
//     one's-complement sum of the sums of the parts, `Combine`, provided each
//     part starts at an even offset of the whole.
//   - Byte-order independent (2(B)): a part that starts at an odd offset has
//     its bytes in the other halves of the words, so its sum is byte-swapped
//     before it is added: `CombineAt`, as Linux's `csum_block_add`.
//   - Incremental (2(D), RFC 1624): see update.h.

#ifndef IPSUM_CHECKSUM_CHECKSUM_H_
#define IPSUM_CHECKSUM_CHECKSUM_H_

#include <cstddef>
#include <cstdint>
#include <span>

#include "checksum/endian.h"

namespace ipsum::checksum {

// Checksum returns the one's-complement sum of `data` (big-endian 16-bit
// words, an odd last byte padded with zero) added to `initial`, folded to 16
// bits and not complemented. Any length and any alignment are valid; an empty
// span returns `initial`. Uses the fastest implementation this CPU supports
// (see dispatch.h); every implementation returns the same value.
uint16_t Checksum(std::span<const uint8_t> data, uint16_t initial = 0);

// Checksum is the pointer-and-length form of the above. `data` may be null
// when `len` is 0.
uint16_t Checksum(const void* data, size_t len, uint16_t initial = 0);

// ChecksumPieces returns the checksum of the concatenation of `pieces`:
// exactly Checksum(concatenation, initial), for pieces of any length (empty
// ones included) and any alignment, without copying them. A piece that
// starts at an odd position of the concatenation is placed as CombineAt
// places it. Unlike a Checksum call per piece joined with CombineAt, the
// implementation in use (dispatch.h) keeps its wide accumulators from one
// piece to the next and reduces, folds and byte-swaps once at the end, so a
// packet held as a few fragments costs little more than the same bytes in
// one piece. An empty `pieces` returns `initial`.
uint16_t ChecksumPieces(std::span<const std::span<const uint8_t>> pieces,
                        uint16_t initial = 0);

// ChecksumPieces (strided) is the above over `count` pieces of which piece i
// is the span `stride` * i bytes past `first`. It sums pieces that are
// already in memory as the first member of larger records (an array of
// buffer::View, of an application's iovec-like descriptors) where they lie,
// with `stride` the record's size, instead of gathering their spans into a
// new array first: writing that array just before the sum puts a
// store-to-load round trip in front of the first load of data, a visible
// share of a packet's sum. `stride` is a multiple of
// alignof(std::span<const uint8_t>), at least its size; `first` may be null
// when `count` is 0.
uint16_t ChecksumPieces(const std::span<const uint8_t>* first, size_t count,
                        size_t stride, uint16_t initial = 0);

// CopyAndChecksum copies src[0, len) to dst[0, len) and returns
// Checksum(src, len, initial), reading the source once: the fused copy and
// checksum of a receive path that moves payload out of a ring, or a send path
// that moves it in. The ranges must not overlap; nothing outside dst[0, len)
// is written. Uses the implementation chosen at run time (dispatch.h).
uint16_t CopyAndChecksum(uint8_t* dst, const uint8_t* src, size_t len,
                         uint16_t initial = 0);

// Combine returns the one's-complement sum of two 16-bit sums: the sum of the
// concatenation of two byte strings, the first of even length.
constexpr uint16_t Combine(uint16_t a, uint16_t b) {
  uint32_t s = uint32_t{a} + b;
  return static_cast<uint16_t>(s + (s >> 16));
}

// CombineAt adds `b`, the sum of a byte string that starts at byte `offset`
// of the whole, to `a`, the sum of the bytes before it. When `offset` is odd
// the bytes of `b` sit in the other halves of the 16-bit words, so `b` is
// byte-swapped first (RFC 1071 section 2(B)).
constexpr uint16_t CombineAt(uint16_t a, uint16_t b, size_t offset) {
  return Combine(a, (offset & 1) ? ByteSwap16(b) : b);
}

// Subtract returns the one's-complement difference `a - b`: the sum of a
// whole minus the sum of one of its (even-offset) parts. Used to verify a
// NIC's CHECKSUM_COMPLETE sum after the headers have been pulled.
constexpr uint16_t Subtract(uint16_t a, uint16_t b) {
  return Combine(a, static_cast<uint16_t>(~b));
}

// Put stores `sum` at `dst[0..1]` in network (big-endian) byte order, as a
// checksum field holds it. The caller passes the value to store, usually the
// complement of a sum.
inline void Put(uint8_t* dst, uint16_t sum) { StoreBig16(dst, sum); }

// Checksummer computes a checksum over a byte stream fed in pieces of any
// length, carrying the odd-byte state from one piece to the next, so the
// result equals `Checksum` of the concatenation. Each piece is summed with the
// fast path. A Checksummer is a small value type; copy it to fork a sum.
//
//   Checksummer c;
//   c.Add(header);
//   c.Add(payload);
//   Put(field, ~c.Sum());
class Checksummer {
 public:
  // Checksummer starts an empty stream whose sum is `initial`.
  constexpr explicit Checksummer(uint16_t initial = 0) : sum_(initial) {}

  // Add appends `data` to the stream.
  void Add(std::span<const uint8_t> data);

  // Add appends `len` bytes at `data` to the stream.
  void Add(const void* data, size_t len) {
    Add(std::span<const uint8_t>(static_cast<const uint8_t*>(data), len));
  }

  // AddSum appends a byte string of `len` bytes whose sum (started at 0) the
  // caller already knows, without reading it.
  void AddSum(uint16_t sum, size_t len) {
    sum_ = CombineAt(sum_, sum, length_);
    length_ += len;
  }

  // Sum returns the sum of the stream so far, folded, not complemented.
  constexpr uint16_t Sum() const { return sum_; }

  // length returns the number of bytes added so far.
  constexpr size_t length() const { return length_; }

 private:
  uint16_t sum_;
  size_t length_ = 0;
};

}  // namespace ipsum::checksum

#endif  // IPSUM_CHECKSUM_CHECKSUM_H_
