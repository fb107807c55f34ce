// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Tests for the Internet checksum. One value-parameterized suite runs every
// case against every implementation in CompiledImplementations() (skipped,
// with a message, where this CPU lacks its instructions): known answers from
// RFC 1071, then every length 0..1100 at every start offset 0..63, seeded
// random lengths up to 70,000 and buffers of 1 MiB and 16 MiB, all compared
// with the byte-by-byte reference. The composition rules (Combine,
// CombineAt, Subtract), the Checksummer and the public Checksum are tested
// on their own below. All random data comes from fixed seeds.

#include "checksum/checksum.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <ostream>
#include <random>
#include <set>
#include <span>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "checksum/internal/impl.h"
#include "checksum/internal/reference.h"
#include "gtest/gtest.h"

namespace ipsum::checksum::internal {

// PrintTo names an Implementation in GoogleTest's messages.
void PrintTo(const Implementation& impl, std::ostream* os) { *os << impl.name; }

}  // namespace ipsum::checksum::internal

namespace ipsum::checksum {
namespace {

using internal::CompiledImplementations;
using internal::Implementation;
using internal::ReferenceSum;

constexpr size_t kMaxExhaustiveLength = 1100;
constexpr size_t kOffsets = 64;
constexpr uint16_t kInitials[] = {0, 1, 0xfffe, 0xffff};

// Buffer is a heap byte array whose usable part starts 64-byte aligned, so
// that `at(offset)` controls the address alignment exactly, with `kSlack`
// bytes on either side so that a guard region fits around any slice.
class Buffer {
 public:
  static constexpr size_t kSlack = 128;

  explicit Buffer(size_t size, uint8_t fill = 0)
      : storage_(size + 2 * kSlack + 64, fill) {
    const auto addr = reinterpret_cast<uintptr_t>(storage_.data()) + kSlack;
    base_ = storage_.data() + kSlack + (64 - addr % 64) % 64;
  }

  // at returns the byte at `offset` from the aligned start.
  uint8_t* at(size_t offset) { return base_ + offset; }

  // FillRandom fills the whole storage from `rng`.
  void FillRandom(std::mt19937_64& rng) {
    for (uint8_t& b : storage_) b = static_cast<uint8_t>(rng());
  }

  // FillCarryHeavy fills the storage mostly with 0xff (three bytes in four),
  // the rest random, so that word sums carry often.
  void FillCarryHeavy(std::mt19937_64& rng) {
    for (uint8_t& b : storage_) {
      const uint64_t r = rng();
      b = (r & 3) ? 0xff : static_cast<uint8_t>(r >> 8);
    }
  }

 private:
  std::vector<uint8_t> storage_;
  uint8_t* base_;
};

// OnesEqual reports whether two sums are the same one's-complement number:
// 0x0000 and 0xffff are both zero. Subtract cannot tell them apart.
bool OnesEqual(uint16_t a, uint16_t b) { return a % 0xffff == b % 0xffff; }

// The RFC 1071 section 3 example and a few other known answers.
constexpr uint8_t kRfc1071Example[] = {0x00, 0x01, 0xf2, 0x03,
                                       0xf4, 0xf5, 0xf6, 0xf7};
constexpr uint16_t kRfc1071ExampleSum = 0xddf2;
// An IPv4 header including its correct checksum (0xb861): sums to 0xffff.
constexpr uint8_t kIpv4Header[] = {0x45, 0x00, 0x00, 0x73, 0x00, 0x00, 0x40,
                                   0x00, 0x40, 0x11, 0xb8, 0x61, 0xc0, 0xa8,
                                   0x00, 0x01, 0xc0, 0xa8, 0x00, 0xc7};

class ImplementationTest : public testing::TestWithParam<Implementation> {
 protected:
  void SetUp() override {
    if (!GetParam().supported()) {
      GTEST_SKIP() << "implementation " << GetParam().name
                   << " is not supported by this CPU";
    }
  }

  uint16_t Sum(const uint8_t* data, size_t len, uint16_t initial = 0) {
    return GetParam().sum(data, len, initial);
  }

  // CheckCopySum runs copy_sum from `src` to `dst` and checks the result
  // against the reference, that dst[0, len) equals the source, that the
  // `Buffer::kSlack` guard bytes on either side of it still hold `guard`,
  // and that the source is unchanged.
  void CheckCopySum(uint8_t* dst, const uint8_t* src, size_t len,
                    uint16_t initial, uint8_t guard) {
    // Cheap checks (memcmp, one assertion each): this runs 70,000 times per
    // implementation, under QEMU too.
    constexpr size_t kGuard = Buffer::kSlack;
    uint8_t guards[kGuard];
    std::memset(guards, guard, kGuard);
    std::memset(dst - kGuard, guard, len + 2 * kGuard);
    const std::vector<uint8_t> before(src, src + len);
    ASSERT_EQ(GetParam().copy_sum(dst, src, len, initial),
              ReferenceSum(src, len, initial))
        << "len=" << len << " initial=" << initial;
    if (len > 0) {
      ASSERT_EQ(std::memcmp(dst, src, len), 0) << "len=" << len;
      ASSERT_EQ(std::memcmp(before.data(), src, len), 0)
          << "source modified, len=" << len;
    }
    ASSERT_EQ(std::memcmp(dst - kGuard, guards, kGuard), 0)
        << "wrote before dst, len=" << len;
    ASSERT_EQ(std::memcmp(dst + len, guards, kGuard), 0)
        << "wrote past dst, len=" << len;
  }

  // SumPieces runs sum_pieces over `pieces` laid out three ways, as an
  // array of spans and as the first member of 24- and 48-byte records (the
  // strided form buffer::View uses), checks that the three agree and
  // returns the result.
  uint16_t SumPieces(const std::vector<std::span<const uint8_t>>& pieces,
                     uint16_t initial = 0) {
    const Implementation& impl = GetParam();
    const uint16_t packed = impl.sum_pieces(pieces.data(), pieces.size(),
                                            sizeof(pieces[0]), initial);
    struct Record24 {
      std::span<const uint8_t> piece;
      uint64_t other;
    };
    struct Record48 {
      std::span<const uint8_t> piece;
      uint64_t other[4];
    };
    std::vector<Record24> r24;
    std::vector<Record48> r48;
    for (std::span<const uint8_t> piece : pieces) {
      // The rest of each record holds a plausible span that must be skipped.
      r24.push_back({piece, ~uint64_t{0}});
      r48.push_back({piece, {8, 0, ~uint64_t{0}, 1}});
    }
    EXPECT_EQ(impl.sum_pieces(r24.empty() ? nullptr : &r24[0].piece, r24.size(),
                              sizeof(Record24), initial),
              packed);
    EXPECT_EQ(impl.sum_pieces(r48.empty() ? nullptr : &r48[0].piece, r48.size(),
                              sizeof(Record48), initial),
              packed);
    return packed;
  }

  // ReferencePieces is the reference sum of the concatenation of `pieces`.
  static uint16_t ReferencePieces(
      const std::vector<std::span<const uint8_t>>& pieces, uint16_t initial) {
    std::vector<uint8_t> all;
    for (std::span<const uint8_t> piece : pieces) {
      all.insert(all.end(), piece.begin(), piece.end());
    }
    return ReferenceSum(all.data(), all.size(), initial);
  }

  // CheckTwoAndThreePieces sums three pieces, then the first two, for every
  // combination of `lengths`, each piece at its own alignment (the second
  // and third `spacing` and 2 * `spacing` bytes in, plus a rotating offset),
  // alternately over random and carry-heavy data, against the reference.
  void CheckTwoAndThreePieces(std::span<const size_t> lengths, size_t spacing,
                              uint64_t seed) {
    std::mt19937_64 rng(seed);
    const size_t size =
        2 * spacing + *std::max_element(lengths.begin(), lengths.end()) + 64;
    Buffer random(size);
    random.FillRandom(rng);
    Buffer carry_heavy(size);
    carry_heavy.FillCarryHeavy(rng);
    int trial = 0;
    for (size_t a : lengths) {
      for (size_t b : lengths) {
        for (size_t c : lengths) {
          Buffer& buf = (++trial & 1) ? carry_heavy : random;
          const size_t off = trial % 64;
          std::vector<std::span<const uint8_t>> pieces = {
              {buf.at(off), a},
              {buf.at(spacing + (off * 5 + 1) % 64), b},
              {buf.at(2 * spacing + (off * 3 + 2) % 64), c}};
          ASSERT_EQ(SumPieces(pieces, 0x8001), ReferencePieces(pieces, 0x8001))
              << Describe(pieces);
          pieces.pop_back();
          ASSERT_EQ(SumPieces(pieces, 0xfffe), ReferencePieces(pieces, 0xfffe))
              << Describe(pieces);
        }
      }
    }
  }

  // Describe names the lengths and alignments of `pieces` for a message.
  static std::string Describe(
      const std::vector<std::span<const uint8_t>>& pieces) {
    std::ostringstream out;
    for (std::span<const uint8_t> piece : pieces) {
      out << piece.size() << "@"
          << (reinterpret_cast<uintptr_t>(piece.data()) % 64) << " ";
    }
    return out.str();
  }
};

TEST_P(ImplementationTest, Rfc1071Section3ExampleAtEveryOffset) {
  Buffer buf(sizeof(kRfc1071Example) + kOffsets);
  for (size_t offset = 0; offset < kOffsets; ++offset) {
    std::memcpy(buf.at(offset), kRfc1071Example, sizeof(kRfc1071Example));
    EXPECT_EQ(Sum(buf.at(offset), sizeof(kRfc1071Example)), kRfc1071ExampleSum)
        << "offset=" << offset;
  }
}

TEST_P(ImplementationTest, KnownAnswers) {
  const uint8_t ones[] = {0xff, 0xff};
  const uint8_t one[] = {0x00, 0x01};
  const uint8_t high[] = {0x01};
  EXPECT_EQ(Sum(nullptr, 0), 0);
  EXPECT_EQ(Sum(nullptr, 0, 0x1234), 0x1234);
  EXPECT_EQ(Sum(ones, 2), 0xffff);
  EXPECT_EQ(Sum(one, 2), 0x0001);
  EXPECT_EQ(Sum(high, 1), 0x0100);  // An odd last byte is a high byte.
  EXPECT_EQ(Sum(kIpv4Header, sizeof(kIpv4Header)), 0xffff);
  // 0xffff + 0xffff folds to 0xffff (never to 0).
  EXPECT_EQ(Sum(ones, 2, 0xffff), 0xffff);
  EXPECT_EQ(Sum(one, 2, 0xffff), 0x0001);
}

TEST_P(ImplementationTest, EveryLengthAtEveryOffsetMatchesReference) {
  std::mt19937_64 rng(1071);
  Buffer buf(kMaxExhaustiveLength + kOffsets);
  for (int pass = 0; pass < 2; ++pass) {
    if (pass == 0) {
      buf.FillRandom(rng);
    } else {
      buf.FillCarryHeavy(rng);
    }
    for (size_t offset = 0; offset < kOffsets; ++offset) {
      const uint8_t* p = buf.at(offset);
      for (size_t len = 0; len <= kMaxExhaustiveLength; ++len) {
        ASSERT_EQ(Sum(p, len), ReferenceSum(p, len, 0))
            << "pass=" << pass << " offset=" << offset << " len=" << len;
      }
    }
  }
}

TEST_P(ImplementationTest, InitialValuesMatchReference) {
  std::mt19937_64 rng(1624);
  Buffer buf(300 + kOffsets);
  buf.FillRandom(rng);
  for (uint16_t initial : kInitials) {
    for (size_t offset = 0; offset < 16; ++offset) {
      for (size_t len = 0; len <= 300; ++len) {
        ASSERT_EQ(Sum(buf.at(offset), len, initial),
                  ReferenceSum(buf.at(offset), len, initial))
            << "initial=" << initial << " offset=" << offset << " len=" << len;
      }
    }
  }
}

TEST_P(ImplementationTest, AllZeroBytesReturnInitial) {
  Buffer buf(kMaxExhaustiveLength + kOffsets, 0x00);
  for (uint16_t initial : kInitials) {
    for (size_t offset = 0; offset < kOffsets; ++offset) {
      for (size_t len = 0; len <= kMaxExhaustiveLength; len += 1 + len / 64) {
        ASSERT_EQ(Sum(buf.at(offset), len, initial), initial)
            << "offset=" << offset << " len=" << len;
      }
    }
  }
}

TEST_P(ImplementationTest, AllOnesBytesAtEveryLengthAndOffset) {
  // Every word is 0xffff (negative zero); an odd tail adds 0xff00.
  Buffer buf(kMaxExhaustiveLength + kOffsets, 0xff);
  for (size_t offset = 0; offset < kOffsets; ++offset) {
    for (size_t len = 1; len <= kMaxExhaustiveLength; ++len) {
      ASSERT_EQ(Sum(buf.at(offset), len), len % 2 ? 0xff00 : 0xffff)
          << "offset=" << offset << " len=" << len;
    }
  }
}

TEST_P(ImplementationTest, SizeClassBoundariesOnCarryHeavyDataMatchReference) {
  // The size classes that take a different number of vectors or a new
  // chunk: x86_avx512's medium path (one to four 64-byte vectors, 64..255
  // bytes) and portable's 64 KiB chunks of its main loop, at every offset
  // (portable: the first eight), on data that carries on almost every add
  // (a carry-save adder and a 128-bit accumulator lose nothing there).
  std::mt19937_64 rng(0x5ca1e);
  constexpr size_t kMedium[] = {63,  64,  65,  127, 128, 129,
                                191, 192, 193, 255, 256, 257};
  constexpr size_t kChunk = size_t{64} << 10;
  constexpr size_t kChunked[] = {kChunk - 1,  kChunk,         kChunk + 1,
                                 kChunk + 63, kChunk + 64,    kChunk + 71,
                                 2 * kChunk,  2 * kChunk + 9, 3 * kChunk - 5};
  Buffer buf(3 * kChunk + kOffsets);
  for (int round = 0; round < 4; ++round) {
    buf.FillCarryHeavy(rng);
    for (const uint16_t initial : kInitials) {
      for (size_t offset = 0; offset < kOffsets; ++offset) {
        for (const size_t len : kMedium) {
          ASSERT_EQ(Sum(buf.at(offset), len, initial),
                    ReferenceSum(buf.at(offset), len, initial))
              << "offset=" << offset << " len=" << len;
        }
      }
      for (size_t offset = 0; offset < 8; ++offset) {
        for (const size_t len : kChunked) {
          ASSERT_EQ(Sum(buf.at(offset), len, initial),
                    ReferenceSum(buf.at(offset), len, initial))
              << "offset=" << offset << " len=" << len;
        }
      }
    }
  }
}

TEST_P(ImplementationTest, RandomLengthsUpTo70000MatchReference) {
  constexpr size_t kMax = 70000;
  std::mt19937_64 rng(70000);
  Buffer buf(kMax + kOffsets);
  buf.FillRandom(rng);
  for (int i = 0; i < 300; ++i) {
    const size_t len = rng() % (kMax + 1);
    const size_t offset = rng() % kOffsets;
    const auto initial = static_cast<uint16_t>(rng());
    ASSERT_EQ(Sum(buf.at(offset), len, initial),
              ReferenceSum(buf.at(offset), len, initial))
        << "offset=" << offset << " len=" << len << " initial=" << initial;
  }
}

TEST_P(ImplementationTest, MegabyteBuffersMatchReference) {
  constexpr size_t k1MiB = size_t{1} << 20;
  std::mt19937_64 rng(1 << 20);
  Buffer random(k1MiB + 8);
  random.FillRandom(rng);
  for (size_t len : {k1MiB, k1MiB + 1, k1MiB + 7}) {
    for (size_t offset : {0, 1, 3, 4}) {
      EXPECT_EQ(Sum(random.at(offset), len, 0x8001),
                ReferenceSum(random.at(offset), len, 0x8001))
          << "len=" << len << " offset=" << offset;
    }
  }
  Buffer carry_heavy(k1MiB + 8);
  carry_heavy.FillCarryHeavy(rng);
  EXPECT_EQ(Sum(carry_heavy.at(5), k1MiB + 3),
            ReferenceSum(carry_heavy.at(5), k1MiB + 3, 0));
}

TEST_P(ImplementationTest, LongestSingleReductionsMatchReference) {
  // Spans (from the 64-byte boundary at or before the input to its end)
  // around 258 x 512 bytes, where x86_avx512 sums the most blocks before one
  // reduction (its first block, 256 in its loop and a partial tail block)
  // and then starts a second. Filled so as to push its estimate of
  // the top words furthest from the exact sum in either direction: all 0xff
  // (the low 48 bits of each 64-bit word at their maximum), and the low 48
  // bits zero under random top words (averages that round up, the estimate
  // above the sum); initial values 0 and 0xffff.
  constexpr size_t kEdge = 258 * 512;
  constexpr size_t kMax = kEdge + 64;
  std::mt19937_64 rng(kEdge);
  Buffer ones(kMax + kOffsets, 0xff);
  Buffer top_words(kMax + kOffsets);
  for (size_t i = 0; i < kMax + kOffsets; i += 8) {
    const uint16_t w = static_cast<uint16_t>(rng());
    std::memcpy(top_words.at(i + 6), &w, 2);
  }
  Buffer carry_heavy(kMax + kOffsets);
  carry_heavy.FillCarryHeavy(rng);
  for (Buffer* buf : {&ones, &top_words, &carry_heavy}) {
    for (size_t len :
         {kEdge - 1024 - 1, kEdge - 1024, kEdge - 513, kEdge - 512, kEdge - 511,
          kEdge - 64, kEdge - 1, kEdge, kEdge + 1, kEdge + 63}) {
      for (size_t offset : {0, 1, 2, 62, 63}) {
        const size_t n = len - offset;
        for (uint16_t initial : {uint16_t{0}, uint16_t{0xffff}}) {
          ASSERT_EQ(Sum(buf->at(offset), n, initial),
                    ReferenceSum(buf->at(offset), n, initial))
              << "offset=" << offset << " len=" << n << " initial=" << initial;
        }
      }
    }
  }
}

TEST_P(ImplementationTest, SixteenMegabytesOfOnesAndZerosDoNotOverflow) {
  // 16 MiB of 0xff: 2^23 words of 0xffff, far beyond where a 32-bit
  // accumulator (128 KiB) or an unfolded 16-bit carry count would overflow.
  constexpr size_t k16MiB = size_t{16} << 20;
  Buffer ones(k16MiB + 8, 0xff);
  for (size_t offset : {0, 1, 2, 7}) {
    EXPECT_EQ(Sum(ones.at(offset), k16MiB), 0xffff) << "offset=" << offset;
    EXPECT_EQ(Sum(ones.at(offset), k16MiB - 1), 0xff00) << "offset=" << offset;
    EXPECT_EQ(Sum(ones.at(offset), k16MiB, 0xfffe), 0xfffe);
  }
  EXPECT_EQ(Sum(ones.at(0), k16MiB), ReferenceSum(ones.at(0), k16MiB, 0));
  Buffer zeros(k16MiB + 8, 0x00);
  EXPECT_EQ(Sum(zeros.at(3), k16MiB), 0);
  EXPECT_EQ(Sum(zeros.at(3), k16MiB, 0xffff), 0xffff);
}

TEST_P(ImplementationTest, CopySumEveryLengthAtEveryOffset) {
  std::mt19937_64 rng(793);
  Buffer src(kMaxExhaustiveLength + kOffsets);
  src.FillRandom(rng);
  Buffer dst(kMaxExhaustiveLength + kOffsets);
  for (size_t offset = 0; offset < kOffsets; ++offset) {
    for (size_t len = 0; len <= kMaxExhaustiveLength; ++len) {
      // The destination offset cycles independently of the source's.
      const size_t dst_offset = (offset * 7 + len) % kOffsets;
      ASSERT_NO_FATAL_FAILURE(CheckCopySum(dst.at(dst_offset), src.at(offset),
                                           len, 0, /*guard=*/0xa5));
    }
  }
}

TEST_P(ImplementationTest, CopySumInitialValuesAndLargeLengths) {
  std::mt19937_64 rng(794);
  constexpr size_t kMax = (size_t{1} << 20) + 3;
  Buffer src(kMax + kOffsets);
  src.FillRandom(rng);
  Buffer dst(kMax + kOffsets);
  for (uint16_t initial : kInitials) {
    for (size_t len = 0; len <= 130; ++len) {
      ASSERT_NO_FATAL_FAILURE(
          CheckCopySum(dst.at(len % 5), src.at(len % 3), len, initial, 0x5a));
    }
  }
  for (int i = 0; i < 50; ++i) {
    const size_t len = rng() % 70001;
    ASSERT_NO_FATAL_FAILURE(CheckCopySum(dst.at(rng() % kOffsets),
                                         src.at(rng() % kOffsets), len,
                                         static_cast<uint16_t>(rng()), 0xc3));
  }
  ASSERT_NO_FATAL_FAILURE(CheckCopySum(dst.at(1), src.at(2), kMax, 0, 0x00));
  Buffer ones(kMax + kOffsets, 0xff);
  ASSERT_NO_FATAL_FAILURE(CheckCopySum(dst.at(0), ones.at(3), kMax, 7, 0x00));
}

TEST_P(ImplementationTest, CopySumMediumLengthsKeepInitialValueAtEveryParity) {
  // Copies of one to a few blocks, the common packet sizes among them,
  // with every kind of initial value and destinations at even and odd
  // offsets (the exhaustive test above stops at 1100 bytes and uses an
  // initial value of 0): x86_avx512 places the medium copy's sum by the
  // destination's parity and adds the initial value before one fold, and
  // its reduction corrects the lane sums by their top-word estimates,
  // which random, carry-heavy and all-0xff bytes stress differently.
  constexpr size_t kLengths[] = {512,  513,  1023, 1024, 1025, 1400, 1499,
                                 1500, 1501, 1535, 2047, 2048, 4095, 16895};
  constexpr std::pair<size_t, size_t> kOffsetPairs[] = {
      {0, 0}, {0, 1}, {1, 0}, {3, 62}, {62, 63}};
  constexpr size_t kMax = 16895;
  std::mt19937_64 rng(796);
  Buffer src(kMax + kOffsets);
  Buffer dst(kMax + kOffsets);
  for (int fill = 0; fill < 3; ++fill) {
    if (fill == 0) src.FillRandom(rng);
    if (fill == 1) src.FillCarryHeavy(rng);
    if (fill == 2) std::memset(src.at(0), 0xff, kMax + kOffsets);
    for (size_t len : kLengths) {
      for (const auto& [src_offset, dst_offset] : kOffsetPairs) {
        for (uint16_t initial : kInitials) {
          ASSERT_NO_FATAL_FAILURE(CheckCopySum(
              dst.at(dst_offset), src.at(src_offset), len, initial, 0x96))
              << "fill=" << fill << " src_offset=" << src_offset
              << " dst_offset=" << dst_offset;
        }
      }
    }
  }
}

TEST_P(ImplementationTest, CopySumAroundLongCopyBoundaries) {
  // Lengths where a long copy changes method or splits, for an L1 data
  // cache of L = 32 or 48 KiB: x86_avx512 and x86_avx2 copy partly by `rep
  // movsb` from L / 2 + 512 on, in 16 KiB chunks whose number changes at
  // L / 2 + 8448 and every 8 KiB after, up to L - 512 (then all, x86_avx512)
  // or L - 1024 (then none, x86_avx2); x86_avx512's long path starts at
  // 16.5 KiB, its 36 KiB steps at L - 512 (two or three, the last of 2 or 6
  // blocks); x86_avx2 reduces every 64 KiB (docs/design.md, "The fused
  // copy"). Each at odd and even offsets, random and carry-heavy bytes.
  constexpr size_t kBoundaries[] = {16384, 16896, 24576, 24832, 25088, 25600,
                                    31744, 32256, 32768, 33024, 48128, 48640,
                                    49152, 49664, 65536, 74752, 75264, 77312};
  constexpr std::pair<size_t, size_t> kOffsetPairs[] = {
      {0, 0}, {1, 0}, {0, 1}, {3, 62}, {63, 17}};
  constexpr size_t kMax = 77312 + 65;
  std::mt19937_64 rng(795);
  Buffer src(kMax + kOffsets);
  Buffer dst(kMax + kOffsets);
  for (bool carry_heavy : {false, true}) {
    if (carry_heavy) {
      src.FillCarryHeavy(rng);
    } else {
      src.FillRandom(rng);
    }
    for (size_t boundary : kBoundaries) {
      for (int delta : {-65, -64, -63, -2, -1, 0, 1, 2, 63, 64, 65}) {
        const size_t len = boundary + delta;
        for (const auto& [src_offset, dst_offset] : kOffsetPairs) {
          ASSERT_NO_FATAL_FAILURE(
              CheckCopySum(dst.at(dst_offset), src.at(src_offset), len,
                           static_cast<uint16_t>(len), 0x3c))
              << "carry_heavy=" << carry_heavy << " src_offset=" << src_offset
              << " dst_offset=" << dst_offset;
        }
      }
    }
  }
}

TEST_P(ImplementationTest, CopySumOfZerosAndOnesKeepsZeroDistinct) {
  // All-zero data sums to 0x0000 and all-0xff data of even length to
  // 0xffff (a non-zero multiple of 0xffff): the fold must not confuse them,
  // at lengths of every size class.
  constexpr size_t kMax = 49664;
  Buffer zeros(kMax + kOffsets, 0x00);
  Buffer ones(kMax + kOffsets, 0xff);
  Buffer dst(kMax + kOffsets);
  for (size_t len : {64, 100, 512, 1500, 4096, 16384, 25087, 32768, 49664}) {
    for (size_t offset : {0, 1, 33}) {
      ASSERT_NO_FATAL_FAILURE(
          CheckCopySum(dst.at(offset), zeros.at(offset), len, 0, 0x77));
      ASSERT_NO_FATAL_FAILURE(
          CheckCopySum(dst.at(offset ^ 1), ones.at(offset), len, 0, 0x77));
    }
  }
}

// KnownAnswerFile is one line of testdata/checksum/SUMS: a file and its sum,
// computed by tools/testdata/make_checksum_vectors.py (not by this code).
struct KnownAnswerFile {
  std::string name;
  uint16_t sum;
  std::vector<uint8_t> bytes;
};

std::vector<KnownAnswerFile> ReadKnownAnswerFiles() {
  constexpr char kDir[] = "testdata/checksum/";
  std::ifstream sums(std::string(kDir) + "SUMS");
  std::vector<KnownAnswerFile> files;
  std::string line;
  while (std::getline(sums, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    KnownAnswerFile f;
    unsigned sum = 0;
    fields >> std::hex >> sum >> f.name;
    f.sum = static_cast<uint16_t>(sum);
    std::ifstream in(kDir + f.name, std::ios::binary);
    f.bytes.assign(std::istreambuf_iterator<char>(in),
                   std::istreambuf_iterator<char>());
    files.push_back(std::move(f));
  }
  return files;
}

TEST_P(ImplementationTest, KnownAnswerFilesAtSeveralOffsets) {
  const std::vector<KnownAnswerFile> files = ReadKnownAnswerFiles();
  ASSERT_GE(files.size(), 5u) << "testdata/checksum/SUMS not found or short";
  for (const KnownAnswerFile& f : files) {
    Buffer src(f.bytes.size() + 8);
    Buffer dst(f.bytes.size() + 8);
    for (size_t offset : {0, 1, 2, 5}) {
      std::copy(f.bytes.begin(), f.bytes.end(), src.at(offset));
      EXPECT_EQ(Sum(src.at(offset), f.bytes.size()), f.sum)
          << f.name << " offset=" << offset;
      ASSERT_NO_FATAL_FAILURE(CheckCopySum(
          dst.at(3 - offset % 3), src.at(offset), f.bytes.size(), 0, 0x11));
    }
  }
}

TEST(ReferenceTest, KnownAnswers) {
  // The reference must be right on its own, not only agree with the rest.
  EXPECT_EQ(ReferenceSum(kRfc1071Example, sizeof(kRfc1071Example), 0),
            kRfc1071ExampleSum);
  EXPECT_EQ(ReferenceSum(kIpv4Header, sizeof(kIpv4Header), 0), 0xffff);
  EXPECT_EQ(ReferenceSum(nullptr, 0, 0xabcd), 0xabcd);
  for (const KnownAnswerFile& f : ReadKnownAnswerFiles()) {
    EXPECT_EQ(ReferenceSum(f.bytes.data(), f.bytes.size(), 0), f.sum) << f.name;
  }
}

TEST_P(ImplementationTest, SumPiecesOfNoPiecesOrEmptyPiecesReturnsInitial) {
  Buffer buf(16);
  for (uint16_t initial : kInitials) {
    EXPECT_EQ(GetParam().sum_pieces(nullptr, 0, 16, initial), initial);
    EXPECT_EQ(SumPieces({{buf.at(0), 0}, {buf.at(3), 0}}, initial), initial);
  }
}

// Every pair of interesting piece lengths (each side of the short path, the
// alignment threshold and the vector widths, odd and even), the first piece
// at every 64-byte alignment and the second at another, so that both
// parities and every head length meet.
TEST_P(ImplementationTest, SumPiecesTwoPiecesEveryLengthPairAndAlignment) {
  constexpr size_t kLengths[] = {0,   1,   2,   3,   7,   8,   15,  16,
                                 17,  31,  33,  63,  64,  65,  127, 128,
                                 129, 255, 256, 257, 300, 301, 1023};
  std::mt19937_64 rng(2);
  Buffer buf(2 * 1100 + 2 * kOffsets);
  buf.FillRandom(rng);
  for (size_t a : kLengths) {
    for (size_t b : kLengths) {
      for (size_t off = 0; off < kOffsets; ++off) {
        const size_t off_b = 1100 + kOffsets + (off * 7 + 3) % kOffsets;
        const std::vector<std::span<const uint8_t>> pieces = {
            {buf.at(off), a}, {buf.at(off_b), b}};
        ASSERT_EQ(SumPieces(pieces, 0x1234), ReferencePieces(pieces, 0x1234))
            << Describe(pieces);
      }
    }
  }
}

// Two and three pieces of one vector to one block (64 to 512 bytes, a
// packet's views), every combination of lengths around the vector and
// block boundaries, each piece at its own alignment, over random and
// carry-heavy data.
TEST_P(ImplementationTest, SumPiecesTwoOrThreeMediumPiecesMatchReference) {
  constexpr size_t kLengths[] = {64,  65,  127, 128, 255, 256, 257,
                                 447, 448, 449, 500, 511, 512, 513};
  ASSERT_NO_FATAL_FAILURE(CheckTwoAndThreePieces(kLengths, 1024, 7));
}

// Pieces of one to four blocks (512 to 2048 bytes: a frame's first view
// with its headers, a jumbo frame's views) next to medium ones, two and
// three at a time, lengths on each side of every block boundary and of a
// partial block's last vector, each piece at its own alignment and both
// parities; then runs of 200 such pieces, which fill and reduce a shared
// accumulator more than once.
TEST_P(ImplementationTest, SumPiecesOfAFewBlocksMatchReference) {
  constexpr size_t kLengths[] = {64,   511,  512,  513,  575,  576,
                                 577,  1023, 1024, 1025, 1535, 1536,
                                 1537, 2047, 2048, 2049};
  ASSERT_NO_FATAL_FAILURE(CheckTwoAndThreePieces(kLengths, 2100, 8));
  std::mt19937_64 rng(9);
  Buffer big(1 << 20);
  big.FillCarryHeavy(rng);
  for (int run = 0; run < 8; ++run) {
    std::vector<std::span<const uint8_t>> pieces;
    for (int i = 0; i < 200; ++i) {
      const size_t len = run < 4 ? 2047 - (i & 1) : 512 + rng() % 1536;
      pieces.emplace_back(big.at(rng() % ((1 << 20) - 2048)), len);
    }
    ASSERT_EQ(SumPieces(pieces, 0xfffe), ReferencePieces(pieces, 0xfffe))
        << "run " << run << ": " << Describe(pieces);
  }
}

// Every size class's edges at every alignment, for all three functions:
// lengths one below, at and one above each multiple of a vector up to a
// block and each multiple of a block up to five, where the number of whole
// vectors, of whole blocks or the method changes, each at all 64 start
// offsets. The sum and the copy (its destination at another offset) take
// the length as one input; the pieces take it as one piece, as two, as two
// after an odd byte (both at odd offsets of the stream) and as four (the
// general loop), every piece at its own alignment. Carry-heavy data.
TEST_P(ImplementationTest, ClassEdgesAtEveryAlignmentMatchReference) {
  std::vector<size_t> lengths;
  for (size_t edge = 64; edge <= 2560; edge += edge < 512 ? 64 : 512) {
    for (size_t len : {edge - 1, edge, edge + 1}) lengths.push_back(len);
  }
  constexpr size_t kMax = 2561;
  constexpr size_t kSpacing = kMax + 2 * kOffsets;
  std::mt19937_64 rng(64);
  Buffer src(4 * kSpacing);
  src.FillCarryHeavy(rng);
  Buffer dst(kSpacing);
  for (const size_t len : lengths) {
    for (size_t off = 0; off < kOffsets; ++off) {
      const uint16_t initial = static_cast<uint16_t>(len * 131 + off);
      const uint8_t* x = src.at(off);
      ASSERT_EQ(Sum(x, len, initial), ReferenceSum(x, len, initial))
          << "len=" << len << " offset=" << off;
      ASSERT_NO_FATAL_FAILURE(
          CheckCopySum(dst.at((off * 5 + 3) % kOffsets), x, len, initial, 0xe7))
          << "offset=" << off;
      const std::span<const uint8_t> a(x, len);
      const std::span<const uint8_t> b(
          src.at(kSpacing + (off * 7 + 1) % kOffsets), len ^ 1);
      const std::span<const uint8_t> odd(src.at(2 * kSpacing + off), 1);
      const std::span<const uint8_t> c(src.at(3 * kSpacing + off / 2), 65);
      for (const std::vector<std::span<const uint8_t>>& pieces :
           {std::vector{a}, std::vector{a, b}, std::vector{odd, a, b},
            std::vector{a, odd, b, c}}) {
        ASSERT_EQ(SumPieces(pieces, initial), ReferencePieces(pieces, initial))
            << Describe(pieces);
      }
    }
  }
}

// Many pieces of one to four vectors (a chain of small views: GRO, tiny
// segments), of every length from 64 to 319 bytes, so that both parities
// follow each length, over all-0xff and carry-heavy bytes: thousands of
// pieces, enough to fill an accumulator's bound many times over.
TEST_P(ImplementationTest, SumPiecesManySmallPiecesMatchReference) {
  std::mt19937_64 rng(11);
  Buffer ones(1 << 16, 0xff);
  Buffer carry_heavy(1 << 16);
  carry_heavy.FillCarryHeavy(rng);
  for (Buffer* buf : {&ones, &carry_heavy}) {
    for (int run = 0; run < 4; ++run) {
      std::vector<std::span<const uint8_t>> pieces;
      for (size_t i = 0; i < 3000; ++i) {
        const size_t len = run == 0 ? 64 + i % 256 : 64 + rng() % 256;
        pieces.emplace_back(buf->at(rng() % ((1 << 16) - 320)), len);
      }
      const uint16_t initial = kInitials[run];
      ASSERT_EQ(SumPieces(pieces, initial), ReferencePieces(pieces, initial))
          << "run " << run;
    }
  }
}

// Random splits of random stretches: up to 20 pieces, each from its own
// place in the buffer (any alignment), a third of them empty or 1 byte
// long, lengths up to 3000, random and carry-heavy data, every initial.
TEST_P(ImplementationTest, SumPiecesRandomSplitsMatchReference) {
  std::mt19937_64 rng(3);
  Buffer random(1 << 16);
  random.FillRandom(rng);
  Buffer carry_heavy(1 << 16);
  carry_heavy.FillCarryHeavy(rng);
  for (int trial = 0; trial < 4000; ++trial) {
    Buffer& buf = (trial & 1) ? carry_heavy : random;
    const size_t count = rng() % 21;
    std::vector<std::span<const uint8_t>> pieces;
    for (size_t i = 0; i < count; ++i) {
      size_t len;
      switch (rng() % 6) {
        case 0:
          len = 0;
          break;
        case 1:
          len = 1;
          break;
        case 2:
          len = rng() % 64;
          break;
        case 3:
          len = 64 + rng() % 256;
          break;
        default:
          len = rng() % 3001;
          break;
      }
      pieces.emplace_back(buf.at(rng() % ((1 << 16) - 3001)), len);
    }
    const uint16_t initial = kInitials[trial % 4];
    ASSERT_EQ(SumPieces(pieces, initial), ReferencePieces(pieces, initial))
        << "trial " << trial << ": " << Describe(pieces);
  }
}

// Long pieces: the vector loops run across piece boundaries of both
// parities, a megabyte at a time.
TEST_P(ImplementationTest, SumPiecesMegabytePiecesMatchReference) {
  constexpr size_t k1MiB = size_t{1} << 20;
  std::mt19937_64 rng(4);
  Buffer buf(3 * k1MiB + 64);
  buf.FillCarryHeavy(rng);
  const std::vector<std::span<const uint8_t>> pieces = {
      {buf.at(3), 5},
      {buf.at(17), k1MiB + 1},
      {buf.at(k1MiB + 40), 1},
      {buf.at(k1MiB + 45), k1MiB + 7},
      {buf.at(2 * k1MiB + 100), 300},
      {buf.at(2 * k1MiB + 501), k1MiB / 2}};
  ASSERT_EQ(SumPieces(pieces, 0xfffe), ReferencePieces(pieces, 0xfffe))
      << Describe(pieces);
}

// Implementations are named after themselves in test names.
std::string ImplementationName(
    const testing::TestParamInfo<Implementation>& info) {
  return info.param.name;
}

INSTANTIATE_TEST_SUITE_P(Table, ImplementationTest,
                         testing::ValuesIn(CompiledImplementations().begin(),
                                           CompiledImplementations().end()),
                         ImplementationName);

TEST(CompiledImplementationsTest, PortableFirstNamesUniqueAndComplete) {
  const auto table = CompiledImplementations();
  ASSERT_FALSE(table.empty());
  EXPECT_STREQ(table[0].name, "portable");
  EXPECT_TRUE(table[0].supported());
  std::set<std::string> names;
  for (const Implementation& impl : table) {
    ASSERT_NE(impl.name, nullptr);
    EXPECT_NE(impl.supported, nullptr) << impl.name;
    EXPECT_NE(impl.sum, nullptr) << impl.name;
    EXPECT_NE(impl.copy_sum, nullptr) << impl.name;
    EXPECT_NE(impl.sum_pieces, nullptr) << impl.name;
    EXPECT_TRUE(names.insert(impl.name).second) << "duplicate " << impl.name;
  }
}

TEST(ChecksumTest, Rfc1071Section3Example) {
  EXPECT_EQ(Checksum(kRfc1071Example), kRfc1071ExampleSum);
  EXPECT_EQ(Checksum(kRfc1071Example, sizeof(kRfc1071Example)),
            kRfc1071ExampleSum);
  EXPECT_EQ(Checksum(kIpv4Header), 0xffff);
}

TEST(ChecksumTest, ChecksumPiecesEqualsChecksumOfTheConcatenation) {
  std::mt19937_64 rng(5);
  std::vector<uint8_t> bytes(1500);
  for (uint8_t& b : bytes) b = static_cast<uint8_t>(rng());
  const std::span<const uint8_t> all(bytes);
  EXPECT_EQ(ChecksumPieces({}, 0x77), 0x77);
  for (size_t cut1 : {0, 1, 20, 499, 500, 1500}) {
    for (size_t cut2 = cut1; cut2 <= 1500; cut2 += 301) {
      const std::span<const uint8_t> pieces[] = {
          all.first(cut1), all.subspan(cut1, cut2 - cut1), all.subspan(cut2)};
      EXPECT_EQ(ChecksumPieces(pieces, 0x8000), Checksum(all, 0x8000))
          << cut1 << " " << cut2;
      EXPECT_EQ(ChecksumPieces(std::span(pieces).first(1), 3),
                Checksum(all.first(cut1), 3));
      // The strided form, over records that start with the spans.
      struct Record {
        std::span<const uint8_t> piece;
        const void* owner;
      };
      const Record records[] = {
          {pieces[0], nullptr}, {pieces[1], nullptr}, {pieces[2], nullptr}};
      EXPECT_EQ(ChecksumPieces(&records[0].piece, 3, sizeof(Record), 0x8000),
                Checksum(all, 0x8000));
      EXPECT_EQ(ChecksumPieces(&records[0].piece, 1, sizeof(Record), 3),
                Checksum(all.first(cut1), 3));
    }
  }
}

// A first piece that ChecksumPieces sums on its own (a frame's headers in
// a view of their own: even and below kHeadPiece, with one to three pieces
// after it) and every other first piece give the sum of the concatenation,
// against the byte-by-byte reference: every first length from 0 to 300,
// then one to five pieces after it, of every size class (short, one vector
// to one block, a few blocks, longer) and on each side of a block, over
// random bytes, all-0xff and all-zero (the two zeros), three initial values,
// as an array of spans and as strided records.
TEST(ChecksumTest, ChecksumPiecesWithAHeaderPieceFirstMatchesReference) {
  std::mt19937_64 rng(11);
  constexpr size_t kRest[][5] = {{500, 0, 0, 0, 0},      {500, 511, 0, 0, 0},
                                 {448, 449, 512, 0, 0},  {1448, 0, 0, 0, 0},
                                 {511, 513, 1024, 0, 0}, {63, 1, 64, 2100, 0},
                                 {0, 513, 449, 512, 0},  {257, 256, 255, 7, 0},
                                 {97, 448, 449, 64, 9},  {1, 2, 3, 4, 5}};
  constexpr size_t kRestCounts[] = {1, 2, 3, 1, 3, 4, 4, 4, 5, 5};
  struct Record {
    std::span<const uint8_t> piece;
    uint64_t other;
  };
  std::vector<uint8_t> bytes(300 + 4 * 2100);
  int checked = 0;
  for (size_t head = 0; head <= 300; ++head) {
    for (size_t r = 0; r < std::size(kRest); ++r) {
      const int fill = static_cast<int>((head + r) % 5);
      for (uint8_t& b : bytes) {
        b = fill == 0 ? 0xff : fill == 1 ? 0 : static_cast<uint8_t>(rng());
      }
      std::vector<std::span<const uint8_t>> pieces;
      std::vector<Record> records;
      size_t at = 0;
      for (size_t i = 0; i <= kRestCounts[r]; ++i) {
        const size_t len = i == 0 ? head : kRest[r][i - 1];
        pieces.push_back(std::span(bytes).subspan(at, len));
        records.push_back({pieces.back(), 0});
        at += len;
      }
      for (uint16_t initial : {0x0000, 0xffff, 0x8001}) {
        const uint16_t want = internal::ReferenceSum(bytes.data(), at, initial);
        ASSERT_EQ(ChecksumPieces(pieces, initial), want)
            << head << " " << r << " " << initial;
        ASSERT_EQ(ChecksumPieces(&records[0].piece, records.size(),
                                 sizeof(Record), initial),
                  want)
            << head << " " << r << " " << initial;
        ++checked;
      }
    }
  }
  EXPECT_EQ(checked, 301 * 10 * 3);
}

TEST(ChecksumTest, EmptyReturnsInitial) {
  EXPECT_EQ(Checksum(std::span<const uint8_t>()), 0);
  EXPECT_EQ(Checksum(nullptr, 0), 0);
  for (uint16_t initial : kInitials) {
    EXPECT_EQ(Checksum(nullptr, 0, initial), initial);
  }
}

TEST(ChecksumTest, MatchesReference) {
  std::mt19937_64 rng(2);
  Buffer buf(70000 + kOffsets);
  buf.FillRandom(rng);
  for (size_t len = 0; len <= 300; ++len) {
    const uint8_t* p = buf.at(len % kOffsets);
    ASSERT_EQ(Checksum(p, len), ReferenceSum(p, len, 0)) << "len=" << len;
  }
  for (int i = 0; i < 100; ++i) {
    const size_t len = rng() % 70001;
    const uint8_t* p = buf.at(rng() % kOffsets);
    const auto initial = static_cast<uint16_t>(rng());
    ASSERT_EQ(Checksum(std::span(p, len), initial),
              ReferenceSum(p, len, initial))
        << "len=" << len;
    ASSERT_EQ(Checksum(p, len, initial), ReferenceSum(p, len, initial))
        << "len=" << len;
  }
  Buffer big((size_t{1} << 20) + 1);
  big.FillCarryHeavy(rng);
  EXPECT_EQ(Checksum(big.at(1), size_t{1} << 20),
            ReferenceSum(big.at(1), size_t{1} << 20, 0));
}

// The public Checksum sums inputs shorter than 64 bytes inline, in size
// classes of 8 bytes with a shifted last word and its own fold: every
// length around them, at every offset of a word, with initial values at the
// edges and data that makes the word sums carry (all ones, 0xff with one
// other byte, a small alphabet of edge bytes) as well as random data.
TEST(ChecksumTest, ShortInputsAtEveryLengthOffsetAndInitialMatchReference) {
  std::mt19937_64 rng(7);
  constexpr uint8_t kEdgeBytes[] = {0x00, 0x01, 0x7f, 0x80, 0xfe, 0xff};
  Buffer buf(96);
  for (int pattern = 0; pattern < 40; ++pattern) {
    uint8_t* bytes = buf.at(0);
    for (size_t i = 0; i < 96; ++i) {
      switch (pattern % 4) {
        case 0:
          bytes[i] = 0xff;
          break;
        case 1:
          bytes[i] = i == static_cast<size_t>(pattern) ? 0xfe : 0xff;
          break;
        case 2:
          bytes[i] = kEdgeBytes[rng() % std::size(kEdgeBytes)];
          break;
        default:
          bytes[i] = static_cast<uint8_t>(rng());
      }
    }
    for (size_t offset = 0; offset < 16; ++offset) {
      for (size_t len = 0; len <= 80; ++len) {
        const uint8_t* p = buf.at(offset);
        for (uint16_t initial :
             {uint16_t{0}, uint16_t{1}, uint16_t{0x00ff}, uint16_t{0xff00},
              uint16_t{0xfffe}, uint16_t{0xffff},
              static_cast<uint16_t>(rng())}) {
          ASSERT_EQ(Checksum(p, len, initial), ReferenceSum(p, len, initial))
              << "pattern=" << pattern << " len=" << len << " offset=" << offset
              << " initial=" << initial;
        }
      }
    }
  }
}

// A sum is 0x0000 only for all-zero data and initial: zeros of every short
// length give back `initial` exactly (0xffff stays 0xffff).
TEST(ChecksumTest, ShortZerosReturnInitialExactly) {
  Buffer buf(96, 0);
  for (size_t offset = 0; offset < 8; ++offset) {
    for (size_t len = 0; len <= 80; ++len) {
      for (uint16_t initial : kInitials) {
        ASSERT_EQ(Checksum(buf.at(offset), len, initial), initial)
            << "len=" << len << " offset=" << offset;
      }
    }
  }
}

// The short path loads whole 8- and 4-byte words at both ends of the input:
// each input here is a heap block of exactly its length, at a few
// misalignments, so that under --config=asan a read outside it is reported.
TEST(ChecksumTest, ShortInputsReadOnlyTheirBytes) {
  for (size_t len = 0; len <= 80; ++len) {
    for (size_t skew = 0; skew < 8; ++skew) {
      std::vector<uint8_t> block(skew + len);
      for (size_t i = 0; i < block.size(); ++i)
        block[i] = static_cast<uint8_t>(i * 37 + len);
      const uint8_t* p = block.data() + skew;
      ASSERT_EQ(Checksum(p, len, 0x0102), ReferenceSum(p, len, 0x0102))
          << "len=" << len << " skew=" << skew;
    }
  }
}

TEST(CombineTest, SplitAtEveryPointEqualsWhole) {
  std::mt19937_64 rng(3);
  Buffer buf(1001);
  buf.FillRandom(rng);
  const uint8_t* p = buf.at(0);
  constexpr size_t kLen = 1001;
  const uint16_t whole = Checksum(p, kLen);
  for (size_t k = 0; k <= kLen; ++k) {
    const uint16_t head = Checksum(p, k);
    const uint16_t tail = Checksum(p + k, kLen - k);
    if (k % 2 == 0) {
      // RFC 1071 section 2(A): at an even offset the sums simply add.
      EXPECT_EQ(Combine(head, tail), whole) << "k=" << k;
      EXPECT_TRUE(OnesEqual(Subtract(whole, head), tail)) << "k=" << k;
    } else {
      // 2(B): at an odd offset, Combine alone is wrong (in general)...
      EXPECT_EQ(Combine(head, ByteSwap16(tail)), whole) << "k=" << k;
    }
    // ...and CombineAt is right at any offset.
    EXPECT_EQ(CombineAt(head, tail, k), whole) << "k=" << k;
  }
}

TEST(CombineTest, OnesComplementArithmeticProperties) {
  std::mt19937_64 rng(4);
  for (uint32_t a = 0; a <= 0xffff; ++a) {
    const auto a16 = static_cast<uint16_t>(a);
    const auto b = static_cast<uint16_t>(rng());
    const auto c = static_cast<uint16_t>(rng());
    ASSERT_EQ(Combine(a16, 0), a16);
    ASSERT_TRUE(OnesEqual(Combine(a16, 0xffff), a16)) << a;  // -0 == +0.
    ASSERT_EQ(Combine(a16, b), Combine(b, a16));
    ASSERT_EQ(Combine(Combine(a16, b), c), Combine(a16, Combine(b, c)));
    ASSERT_EQ(CombineAt(a16, b, 0), Combine(a16, b));
    ASSERT_EQ(CombineAt(a16, b, 2), Combine(a16, b));
    ASSERT_EQ(CombineAt(a16, b, 1), Combine(a16, ByteSwap16(b)));
    ASSERT_EQ(CombineAt(a16, b, 65537), Combine(a16, ByteSwap16(b)));
    ASSERT_TRUE(OnesEqual(Subtract(Combine(a16, b), b), a16)) << a;
    ASSERT_TRUE(OnesEqual(Subtract(a16, a16), 0)) << a;
    // Combine agrees with the reference on the two words a16, b.
    const uint8_t words[] = {
        static_cast<uint8_t>(a16 >> 8), static_cast<uint8_t>(a16),
        static_cast<uint8_t>(b >> 8), static_cast<uint8_t>(b)};
    ASSERT_EQ(Combine(a16, b), ReferenceSum(words, 4, 0));
  }
}

TEST(ChecksummerTest, RandomSplitsEqualWholeSum) {
  std::mt19937_64 rng(5);
  Buffer buf(3000 + kOffsets);
  buf.FillRandom(rng);
  for (int iter = 0; iter < 500; ++iter) {
    const size_t len = rng() % 3001;
    const uint8_t* p = buf.at(rng() % kOffsets);
    const auto initial =
        static_cast<uint16_t>(iter < 4 ? kInitials[iter] : rng());
    Checksummer c(initial);
    Checksummer by_sum(initial);
    size_t pos = 0;
    while (pos < len) {
      // Mostly tiny pieces (0, 1, 2, 3 bytes), sometimes larger ones.
      const uint64_t r = rng();
      size_t piece = (r & 1) ? r % 4 : (r >> 8) % 200;
      piece = std::min(piece, len - pos);
      c.Add(p + pos, piece);
      by_sum.AddSum(Checksum(p + pos, piece), piece);
      pos += piece;
      ASSERT_EQ(c.length(), pos);
      ASSERT_EQ(c.Sum(), Checksum(p, pos, initial)) << "pos=" << pos;
    }
    c.Add(std::span<const uint8_t>());  // An empty piece changes nothing.
    EXPECT_EQ(c.Sum(), Checksum(p, len, initial)) << "len=" << len;
    EXPECT_EQ(by_sum.Sum(), c.Sum());
    EXPECT_EQ(c.length(), len);
  }
}

TEST(ChecksummerTest, ByteAtATimeAndCopyForks) {
  std::mt19937_64 rng(6);
  Buffer buf(1500);
  buf.FillRandom(rng);
  Checksummer c;
  EXPECT_EQ(c.Sum(), 0);
  EXPECT_EQ(c.length(), 0u);
  for (size_t i = 0; i < 1500; ++i) {
    c.Add(buf.at(i), 1);
    if (i == 700) {
      Checksummer fork = c;  // A copy continues independently.
      fork.Add(buf.at(701), 99);
      EXPECT_EQ(fork.Sum(), Checksum(buf.at(0), 800));
    }
  }
  EXPECT_EQ(c.Sum(), Checksum(buf.at(0), 1500));
  EXPECT_EQ(c.length(), 1500u);
}

}  // namespace
}  // namespace ipsum::checksum
