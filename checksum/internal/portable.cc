// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// The portable Internet checksum: plain C++ (no intrinsics, no assembly),
// correct on any CPU and either byte order, and the fallback every other
// implementation is measured against.
//
// RFC 1071 section 2(B), byte order independence: "the sum of 16-bit
// integers can be computed in either byte order". So the bytes are loaded
// eight at a time in the host's own order (memcpy, which is one load at any
// alignment) and summed as host-order 64-bit words; folding a 64-bit sum
// adds its four 16-bit lanes, so what comes out is the sum of host-order
// 16-bit words. Where a byte lands in such a word depends only on the parity
// of its position, and the sum is byte-swapped once at the end when that
// parity and the host's order disagree with the big-endian reading of the
// buffer. 2(C), parallel summation: "one can add 32-bit words and then fold"
// — here 64-bit words.
//
// Shape, after RFC 1071 section 4 and the Linux and gVisor loops:
//   - under 64 bytes, no alignment work: unaligned 8-byte words, then the
//     last 4, 2 and 1 bytes, with positions counted from the start;
//   - otherwise an alignment prologue (1, 2 and 4 bytes) brings the pointer
//     to 8-byte alignment, positions are counted by address from then on, and
//     an odd start address is what decides the final swap;
//   - the main loop takes 64 bytes an iteration: five 8-byte words, five
//     4-byte half-words and one more half-word, into independent
//     accumulators.
//
// Carries. The main loop pairs each word with a half-word in a 128-bit
// accumulator, lo + 2^64 hi (a Group): `lo += w; hi += h + (lo < w);`. The
// carry out of lo is counted in hi, and hi, fed 32-bit values, never
// carries at all, so nothing is lost and no carry passes from one Group to
// another; 2^64 is 1 modulo 2^64 - 1 (RFC 1071 section 2(C)'s end-around
// carry), so a Group's value is lo + hi. gcc -O2 compiles each step to an
// `add` with the word as its memory operand and an `adc` of the half-word
// on x86-64, two instructions for 12 bytes (and `daddu; sltu; daddu; daddu`
// on mips64), where a word with its carry counted on the side (`s += w; c +=
// s < w;`) takes two for 8 bytes.
// The tail words outside the loop keep the side count. Nothing overflows at
// any length: the loop runs in chunks (kMaxBlocks), after which the Groups
// are added into the 64-bit sum with end-around carries.

#include "checksum/internal/portable.h"

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>

#include "checksum/endian.h"
#include "checksum/internal/impl.h"
#include "checksum/internal/pieces.h"

namespace ipsum::checksum::internal {
namespace {

// LoadHost64 reads eight bytes at `p` (any alignment) in the host's byte
// order, on purpose: see the overview. The order is corrected once, in
// Finish, by way of endian.h.
inline uint64_t LoadHost64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, sizeof(v));
  return v;
}

// LoadHost32 reads four bytes at `p` in the host's byte order.
inline uint32_t LoadHost32(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, sizeof(v));
  return v;
}

// LoadHost16 reads two bytes at `p` in the host's byte order.
inline uint16_t LoadHost16(const uint8_t* p) {
  uint16_t v;
  std::memcpy(&v, p, sizeof(v));
  return v;
}

// EvenByte returns byte `b`, at an even position, placed where a host-order
// 16-bit word loaded from that position holds it: the low byte on a
// little-endian host, the high byte on a big-endian one.
constexpr uint64_t EvenByte(uint8_t b) {
  return kHostIsBigEndian ? uint64_t{b} << 8 : b;
}

// OddByte returns byte `b`, at an odd position, placed likewise.
constexpr uint64_t OddByte(uint8_t b) {
  return kHostIsBigEndian ? b : uint64_t{b} << 8;
}

// OnesAdd64 returns the 64-bit one's-complement sum of `a` and `b`: the
// carry out of bit 63 is added back at bit 0. It cannot overflow again, and
// it is zero only when both inputs are.
constexpr uint64_t OnesAdd64(uint64_t a, uint64_t b) {
  a += b;
  return a + (a < b);
}

// Fold64 folds a 64-bit one's-complement sum to 16 bits without branches.
// Adding a value to itself rotated by half its width leaves, in the upper
// half, the sum of both halves plus the carry out of the lower half: the
// one's-complement sum of the halves. Zero stays zero; non-zero never
// becomes zero (so 0xffff, not 0, is what a non-zero multiple of 0xffff
// folds to, as in the reference).
constexpr uint16_t Fold64(uint64_t s) {
  s += std::rotr(s, 32);
  uint32_t t = static_cast<uint32_t>(s >> 32);
  t += std::rotr(t, 16);
  return static_cast<uint16_t>(t >> 16);
}

// Finish adds `initial` to the host-order 64-bit sum `sum`, folds it, and
// returns it in big-endian word order: byte-swapped when `swap` (RFC 1071
// section 2(B)). `initial` is swapped into the lanes of `sum` first.
inline uint16_t Finish(uint64_t sum, uint16_t initial, bool swap) {
  sum = OnesAdd64(sum, swap ? ByteSwap16(initial) : initial);
  const uint16_t folded = Fold64(sum);
  return swap ? ByteSwap16(folded) : folded;
}

// CopyIf copies `n` bytes from `src` to `dst` when `kCopy`.
template <bool kCopy>
inline void CopyIf(uint8_t* dst, const uint8_t* src, size_t n) {
  if constexpr (kCopy) std::memcpy(dst, src, n);
}

// AddWord adds the host-order word at src[i, i + 8) to the accumulator
// `s`, counting the carry out of bit 63 in `c`, and copies the word to
// dst[i, i + 8) when `kCopy`.
template <bool kCopy>
inline void AddWord(uint8_t* dst, const uint8_t* src, size_t i, uint64_t& s,
                    uint64_t& c) {
  const uint64_t w = LoadHost64(src + i);
  if constexpr (kCopy) std::memcpy(dst + i, &w, sizeof(w));
  s += w;
  c += s < w;
}

// Group is a 128-bit accumulator, lo + 2^64 hi, of the main loop. Each step
// adds a word to `lo` and a 4-byte half-word plus the carry out of `lo` to
// `hi`: `lo += w; hi += h + (lo < w);`, which gcc compiles to `add` and
// `adc` on x86-64 (two instructions for 12 bytes, where a word and its
// carry count took two for 8). `hi` grows by at most 2^32 a step, so it
// cannot overflow in kMaxBlocks steps. A half-word loaded at an even
// position keeps each byte's position parity in `hi` as a word does in
// `lo`, which is all the host-order sum needs (see the top of this file).
struct Group {
  uint64_t lo = 0;
  uint64_t hi = 0;
};

// kMaxBlocks bounds the 64-byte blocks summed into one set of Groups. Up to
// 2^32 - 1 steps of at most 2^32 each would fit in `hi`; 1024 (64 KiB) is
// far below that, costs one short reduction per 64 KiB, and lets the tests'
// longer inputs (70,000 bytes, 1 MiB) cross a chunk.
constexpr size_t kMaxBlocks = 1024;

// AddGroup adds the word at src[i, i + 8) and the half-word at src[j, j + 4)
// to `g` as Group describes (both host order, j a multiple of 4), copying
// them to dst when `kCopy`.
template <bool kCopy>
inline void AddGroup(uint8_t* dst, const uint8_t* src, size_t i, size_t j,
                     Group& g) {
  const uint64_t w = LoadHost64(src + i);
  const uint32_t h = LoadHost32(src + j);
  if constexpr (kCopy) {
    std::memcpy(dst + i, &w, sizeof(w));
    std::memcpy(dst + j, &h, sizeof(h));
  }
  g.lo += w;
  g.hi += uint64_t{h} + (g.lo < w);
}

// TakeGroup returns the value of `g` as a 64-bit one's-complement sum and
// clears it: lo + 2^64 hi is lo + hi modulo 2^64 - 1 (RFC 1071 section
// 2(C)'s end-around carry).
inline uint64_t TakeGroup(Group& g) {
  const uint64_t sum = OnesAdd64(g.lo, g.hi);
  g = Group();
  return sum;
}

// SumTail returns the host-order sum of the `n` < 8 bytes at `src`, which
// is at an even position, copying them to `dst` when `kCopy`. The result is
// below 2^33.
template <bool kCopy>
inline uint64_t SumTail(uint8_t* dst, const uint8_t* src, size_t n) {
  uint64_t s = 0;
  if (n & 4) {
    s += LoadHost32(src);
    CopyIf<kCopy>(dst, src, 4);
    src += 4;
    if constexpr (kCopy) dst += 4;
  }
  if (n & 2) {
    s += LoadHost16(src);
    CopyIf<kCopy>(dst, src, 2);
    src += 2;
    if constexpr (kCopy) dst += 2;
  }
  if (n & 1) {
    s += EvenByte(*src);
    if constexpr (kCopy) *dst = *src;
  }
  return s;
}

// HostSum is a host-order 64-bit one's-complement sum and whether its fold
// must be byte-swapped to read as big-endian words (Finish's `swap`).
struct HostSum {
  uint64_t sum;
  bool swap;
};

// SumHost is the arithmetic of PortableSum, and of PortableCopySum when
// `kCopy` (then each byte is stored to `dst` once, right after it is loaded;
// otherwise `dst` is unused and may be null), before Finish.
template <bool kCopy>
[[gnu::always_inline]] inline HostSum SumHost(uint8_t* dst, const uint8_t* src,
                                              size_t len) {
  uint64_t s0 = 0, s1 = 0, c0 = 0, c1 = 0;

  if (len < 64) {
    // Short: the cost is in the call and the tail, not in alignment.
    // Positions count from `src`, so a little-endian host swaps.
    for (; len >= 8; len -= 8, src += 8) {
      const uint64_t w = LoadHost64(src);
      CopyIf<kCopy>(dst, src, 8);
      if constexpr (kCopy) dst += 8;
      s0 += w;
      c0 += s0 < w;
    }
    s1 = SumTail<kCopy>(dst, src, len);
    return {OnesAdd64(OnesAdd64(s0, s1), c0), !kHostIsBigEndian};
  }

  // Alignment prologue: take 1, 2 and 4 bytes as the address asks until it
  // is a multiple of 8. From here on positions are addresses: a host-order
  // word holds its bytes by address parity, and the final swap depends on
  // whether the buffer started at an odd address. len >= 64 > 7.
  const bool odd_start = reinterpret_cast<uintptr_t>(src) & 1;
  if (reinterpret_cast<uintptr_t>(src) & 1) {
    s1 += OddByte(*src);
    CopyIf<kCopy>(dst, src, 1);
    src += 1;
    if constexpr (kCopy) dst += 1;
    len -= 1;
  }
  if (reinterpret_cast<uintptr_t>(src) & 2) {
    s1 += LoadHost16(src);
    CopyIf<kCopy>(dst, src, 2);
    src += 2;
    if constexpr (kCopy) dst += 2;
    len -= 2;
  }
  if (reinterpret_cast<uintptr_t>(src) & 4) {
    s1 += LoadHost32(src);
    CopyIf<kCopy>(dst, src, 4);
    src += 4;
    if constexpr (kCopy) dst += 4;
    len -= 4;
  }

  // Main loop: 64 bytes an iteration as five Groups (a word and a 4-byte
  // half-word each) and one more half-word, each into its own accumulator
  // (see the overview). Each word is its own scalar load (and store):
  // loading the block into an array invites gcc to move it through the
  // stack with vector registers. std::assume_aligned tells the compiler
  // what the prologue achieved, so that strict-alignment CPUs (mips64) load
  // each word with one instruction rather than an unaligned pair (ldl/ldr).
  // The blocks run in chunks of at most kMaxBlocks, after which the Groups
  // are added into s0 (see Group).
  Group g0, g1, g2, g3, g4;
  uint64_t halves = 0;
  while (len >= 64) {
    size_t blocks = len / 64;
    blocks = blocks < kMaxBlocks ? blocks : kMaxBlocks;
    len -= blocks * 64;
    for (; blocks > 0; --blocks, src += 64) {
      const uint8_t* aligned = std::assume_aligned<8>(src);
      AddGroup<kCopy>(dst, aligned, 0, 40, g0);
      AddGroup<kCopy>(dst, aligned, 8, 44, g1);
      AddGroup<kCopy>(dst, aligned, 16, 48, g2);
      AddGroup<kCopy>(dst, aligned, 24, 52, g3);
      AddGroup<kCopy>(dst, aligned, 32, 56, g4);
      const uint32_t h = LoadHost32(aligned + 60);
      if constexpr (kCopy) std::memcpy(dst + 60, aligned + 60, 4);
      halves += h;
      if constexpr (kCopy) dst += 64;
    }
    // A tree rather than a chain: this runs after every short input too.
    const uint64_t sum =
        OnesAdd64(OnesAdd64(TakeGroup(g0), TakeGroup(g1)),
                  OnesAdd64(TakeGroup(g2), TakeGroup(g3)));
    s0 = OnesAdd64(s0, OnesAdd64(sum, OnesAdd64(TakeGroup(g4), halves)));
    halves = 0;
  }
  // Up to seven more words, then the last 4, 2 and 1 bytes.
  for (; len >= 8; len -= 8, src += 8) {
    AddWord<kCopy>(dst, std::assume_aligned<8>(src), 0, s0, c0);
    if constexpr (kCopy) dst += 8;
  }
  const uint64_t tail = SumTail<kCopy>(dst, src, len);
  s1 += tail;
  c1 += s1 < tail;

  const uint64_t sum = OnesAdd64(OnesAdd64(s0, s1), c0 + c1);
  // Big-endian host: bytes at even addresses are high bytes, which is right
  // when the buffer starts at an even address. Little-endian: the reverse.
  return {sum, odd_start != !kHostIsBigEndian};
}

// Sum is PortableSum, and PortableCopySum when `kCopy`.
template <bool kCopy>
uint16_t Sum(uint8_t* dst, const uint8_t* src, size_t len, uint16_t initial) {
  const HostSum s = SumHost<kCopy>(dst, src, len);
  return Finish(s.sum, initial, s.swap);
}

bool AlwaysSupported() { return true; }

}  // namespace

// PortableSum starts at a 64-byte boundary so that where its main loop
// falls within the 64-byte lines of code is fixed by this file, not by the
// link: how a short loop straddles the lines of code changes its speed on
// some cores (docs/design.md, "Code placement").
[[gnu::aligned(64)]] uint16_t PortableSum(const uint8_t* data, size_t len,
                                          uint16_t initial) {
  return Sum<false>(nullptr, data, len, initial);
}

uint16_t PortableCopySum(uint8_t* dst, const uint8_t* src, size_t len,
                         uint16_t initial) {
  return Sum<true>(dst, src, len, initial);
}

uint16_t PortableSumPieces(const std::span<const uint8_t>* pieces, size_t count,
                           size_t stride, uint16_t initial) {
  // One host-order sum for the whole stream, in the positions of the first
  // byte (no swap: the big-endian reading on a big-endian host). A piece's
  // SumHost has the positions its `swap` says; it is rotated by 8 bits
  // (which multiplies it by 2^8 modulo 2^64 - 1, so byte-swaps its fold,
  // RFC 1071 section 2(B)) when those disagree with the stream's, counting
  // the parity of the piece's offset in the stream.
  uint64_t acc = 0;
  size_t odd = 0;
  for (size_t i = 0; i < count; ++i) {
    const std::span<const uint8_t> piece = PieceAt(pieces, i, stride);
    const size_t len = piece.size();
    const HostSum s = SumHost<false>(nullptr, piece.data(), len);
    const bool rotate =
        (s.swap != !kHostIsBigEndian) != static_cast<bool>(odd & 1);
    acc = OnesAdd64(acc, rotate ? std::rotl(s.sum, 8) : s.sum);
    odd ^= len;
  }
  return Finish(acc, initial, !kHostIsBigEndian);
}

constinit const Implementation kPortable = {
    .name = "portable",
    .supported = AlwaysSupported,
    .sum = PortableSum,
    .copy_sum = PortableCopySum,
    .sum_pieces = PortableSumPieces,
};

}  // namespace ipsum::checksum::internal
