// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// X86Avx512SumPieces, the sum of pieces as if concatenated, by piece size
// class: below 64 bytes native_sum.h's scalar path; 64 to 2047 bytes (a
// packet's views) added as unaligned vectors and blocks to one Wide shared
// by all the pieces and reduced once; from 2048 on the contiguous sum's
// aligned loop, reduced per piece. A piece at an odd offset of the stream
// has every lane rotated left by 8 bits as it is added, which multiplies
// its sum by 2^8 modulo 2^64 - 1 and so places it as PlaceNative would
// (RFC 1071 section 2(B)).

#include "checksum/internal/x86_avx512.h"

#if defined(__x86_64__)

#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>

#include "checksum/internal/native_sum.h"
#include "checksum/internal/pieces.h"
#include "checksum/internal/x86_avx512_accumulator.h"

namespace ipsum::checksum::internal {
namespace avx512 {
namespace {

// kVectorPieceEnd, kPieceAlignFrom: pieces of kShort to kVectorPieceEnd - 1
// bytes are added a vector at a time (AddPieceVectors), up to
// kPieceAlignFrom - 1 a block at a time (AddPiece), longer ones take the
// aligned loop and a reduction of their own.
constexpr size_t kVectorPieceEnd = 4 * kVector;
constexpr size_t kPieceAlignFrom = 2048;
// kPieceMaxBlocks is the most blocks AddPiece adds for one piece: its whole
// blocks and one for the rest. SumFewPieces adds up to three pieces to one
// Wide; SumPiecesLoop reduces it before a piece would pass kMaxBlocks.
constexpr size_t kPieceMaxBlocks = kPieceAlignFrom / kBlock;
static_assert(3 * kPieceMaxBlocks <= kMaxBlocks);

// AddPiece adds p[0, len), kShort <= len < kPieceAlignFrom, to `w`, each
// lane rotated left by kRotate bits (0 or 8): its whole 512-byte blocks but
// the last, then the last 1..512 bytes as one block, at most
// kPieceMaxBlocks blocks.
template <int kRotate>
[[gnu::always_inline]] inline void AddPiece(const uint8_t* p, size_t len,
                                            Wide& w) {
  const size_t blocks = (len - 1) / kBlock;  // 0..3
  if (blocks != 0) AddBlocks<kRotate>(p, blocks, w);
  AddPartialBlock<kRotate>(p, len - blocks * kBlock, nullptr, w);
}

// AddPieceVectors adds p[0, len), kShort <= len < kVectorPieceEnd, to `w`
// one vector at a time (each a block of its own for the bound), the last
// 0..63 bytes masked, every lane rotated left by `rotate` bits (0 or 8,
// an operand rather than a second copy of the code). Four vector
// operations a vector, where a block of eight would spend most of its
// operations on zero vectors for a piece this short.
[[gnu::always_inline]] inline void AddPieceVectors(const uint8_t* p, size_t len,
                                                   __m512i rotate, Wide& w) {
  const auto add = [&](__m512i x) __attribute__((always_inline)) {
    w.AddVector(_mm512_maskz_rolv_epi64(0xff, x, rotate));
  };
  const size_t whole = len / kVector;  // 1..3
  add(Load(p));
  if (whole >= 2) add(Load(p + kVector));
  if (whole >= 3) add(Load(p + 2 * kVector));
  add(LoadMasked(p + whole * kVector, FirstBytes(len - whole * kVector)));
}

// SumPiecesLoop is X86Avx512SumPieces for any pieces: the short ones and
// the long ones (each reduced and placed by its parity) into `acc`, the
// medium ones into one Wide kept in registers across the pieces, reduced
// at the end or when the next piece would take it past kMaxBlocks.
[[gnu::noinline]] uint16_t SumPiecesLoop(const std::span<const uint8_t>* pieces,
                                         size_t count, size_t stride,
                                         uint16_t initial) {
  Wide w;
  size_t blocks = 0;
  uint64_t acc = 0;
  size_t odd = 0;
  // make_room reduces `w` into `acc` first when `need` more blocks would
  // take it past kMaxBlocks, and counts them.
  const auto make_room = [&](size_t need) __attribute__((always_inline)) {
    if (blocks > kMaxBlocks - need) {
      acc = AddEndAround(acc, w.Native());
      w = Wide();
      blocks = 0;
    }
    blocks += need;
  };
  for (size_t i = 0; i < count; ++i) {
    const uint8_t* const p = PieceAt(pieces, i, stride).data();
    const size_t len = PieceAt(pieces, i, stride).size();
    if (len < kShort) {
      acc = AddEndAround(acc, PlaceNative(SumShortNative(p, len), odd));
    } else if (len < kVectorPieceEnd) {
      make_room(len / kVector + 1);  // At most 4.
      AddPieceVectors(p, len,
                      _mm512_set1_epi64(static_cast<int64_t>(odd & 1) * 8), w);
    } else if (len < kPieceAlignFrom) {
      make_room((len - 1) / kBlock + 1);  // At most kPieceMaxBlocks.
      if ((odd & 1) == 0) {
        AddPiece<0>(p, len, w);
      } else {
        AddPiece<8>(p, len, w);
      }
    } else {
      const size_t off = BaseOffset(p);
      acc = AddEndAround(acc,
                         PlaceNative(SumAligned(p - off, off, len), off ^ odd));
    }
    odd ^= len;
  }
  if (blocks != 0) acc = AddEndAround(acc, w.Native());
  return FinishAccumulator(acc, initial);
}

// SumFewPieces is X86Avx512SumPieces for two or three pieces (a packet's
// payload in its views): all the descriptors are read first and pieces of
// kShort to kPieceAlignFrom - 1 bytes summed in straight-line code, so that
// no piece waits on a loop to learn where it is; other lengths go on to
// SumPiecesLoop. A leaf that needs no stack frame, reached by a tail call,
// so that it does not pay the loop's prologue. Pieces of at most one block
// have a copy of their own, without AddPiece's loop.
[[gnu::noinline]] uint16_t SumFewPieces(const std::span<const uint8_t>* pieces,
                                        size_t count, size_t stride,
                                        uint16_t initial) {
  const std::span<const uint8_t> a = PieceAt(pieces, 0, stride);
  const std::span<const uint8_t> b = PieceAt(pieces, 1, stride);
  const std::span<const uint8_t> c =
      count == 3 ? PieceAt(pieces, 2, stride) : std::span<const uint8_t>();
  // sum3 adds the pieces with `add`, each rotated into place when it starts
  // at an odd offset.
  const auto sum3 = [&](auto add) __attribute__((always_inline)) {
    using Even = std::integral_constant<int, 0>;
    using Odd = std::integral_constant<int, 8>;
    Wide w;
    add(a, w, Even());
    if (a.size() & 1) {
      add(b, w, Odd());
    } else {
      add(b, w, Even());
    }
    if (count == 3) {
      if ((a.size() ^ b.size()) & 1) {
        add(c, w, Odd());
      } else {
        add(c, w, Even());
      }
    }
    return FinishShort(ReduceShortChain(w, InitialNative(initial)));
  };
  // within(n, end): kShort <= n < end, as one unsigned compare.
  const auto within = [](size_t n, size_t end) {
    return n - kShort < end - kShort;
  };
  const size_t c_size = count == 3 ? c.size() : kShort;
  if (within(a.size(), kBlock + 1) && within(b.size(), kBlock + 1) &&
      within(c_size, kBlock + 1)) [[likely]] {
    return sum3([](std::span<const uint8_t> x, Wide & w,
                   auto rotate) __attribute__((always_inline)) {
      AddPartialBlock<decltype(rotate)::value>(x.data(), x.size(), nullptr, w);
    });
  }
  if (within(a.size(), kPieceAlignFrom) && within(b.size(), kPieceAlignFrom) &&
      within(c_size, kPieceAlignFrom)) {
    return sum3([](std::span<const uint8_t> x, Wide & w, auto rotate)
                    __attribute__((always_inline)) {
                      AddPiece<decltype(rotate)::value>(x.data(), x.size(), w);
                    });
  }
  return SumPiecesLoop(pieces, count, stride, initial);
}

}  // namespace
}  // namespace avx512

uint16_t X86Avx512SumPieces(const std::span<const uint8_t>* pieces,
                            size_t count, size_t stride, uint16_t initial) {
  // Both by tail calls: two or three pieces take SumFewPieces, the others
  // SumPiecesLoop.
  if (count - 2 <= 1) [[likely]] {
    return avx512::SumFewPieces(pieces, count, stride, initial);
  }
  return avx512::SumPiecesLoop(pieces, count, stride, initial);
}

}  // namespace ipsum::checksum::internal

#endif  // defined(__x86_64__)
