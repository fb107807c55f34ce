// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0

#include "checksum/arithmetic.h"

#include <bit>
#include <cstdint>
#include <random>

#include "checksum/endian.h"
#include "gtest/gtest.h"

namespace ipsum::checksum {
namespace {

// ReferenceFold folds `acc` 16 bits at a time with end-around carries, as
// RFC 1071 section 4.1's example does.
uint16_t ReferenceFold(uint64_t acc) {
  while (acc >> 16) acc = (acc & 0xffff) + (acc >> 16);
  return static_cast<uint16_t>(acc);
}

// ReferenceAdd is a + b modulo 2^64 - 1, with the carry in 128 bits.
uint64_t ReferenceAdd(uint64_t a, uint64_t b) {
  const unsigned __int128 s = static_cast<unsigned __int128>(a) + b;
  return static_cast<uint64_t>(s) + static_cast<uint64_t>(s >> 64);
}

static_assert(AddEndAround(~uint64_t{0}, 1) == 1);
static_assert(Fold(0) == 0);
static_assert(Fold(0x1'0000) == 1);
static_assert(Fold(0xffff'ffff'ffff'ffff) == 0xffff);

TEST(ArithmeticTest, AddEndAroundMatchesWideAddition) {
  std::mt19937_64 rng(1);
  const uint64_t edges[] = {0, 1, 0xffff, 0x8000'0000'0000'0000,
                            0xffff'ffff'ffff'fffe, 0xffff'ffff'ffff'ffff};
  for (uint64_t a : edges) {
    for (uint64_t b : edges) EXPECT_EQ(AddEndAround(a, b), ReferenceAdd(a, b));
  }
  for (int i = 0; i < 100000; ++i) {
    const uint64_t a = rng();
    const uint64_t b = rng();
    EXPECT_EQ(AddEndAround(a, b), ReferenceAdd(a, b)) << a << " " << b;
  }
}

TEST(ArithmeticTest, FoldMatchesSixteenBitFold) {
  std::mt19937_64 rng(2);
  for (int i = 0; i < 100000; ++i) {
    // Random values of every magnitude, so that carries happen at each step.
    const uint64_t acc = rng() >> (rng() % 64);
    const uint16_t want = ReferenceFold(acc);
    EXPECT_EQ(Fold(acc), want) << acc;
    EXPECT_EQ(FoldBigEndian(acc), kHostIsBigEndian ? want : ByteSwap16(want))
        << acc;
  }
}

TEST(ArithmeticTest, FoldIsZeroOnlyForZero) {
  EXPECT_EQ(Fold(0), 0);
  EXPECT_EQ(FoldBigEndian(0), 0);
  // Non-zero multiples of 0xffff fold to 0xffff, never to 0.
  for (uint64_t k : {uint64_t{1}, uint64_t{2}, uint64_t{0x10001},
                     (~uint64_t{0}) / 0xffff}) {
    EXPECT_EQ(Fold(k * 0xffff), 0xffff) << k;
    EXPECT_EQ(FoldBigEndian(k * 0xffff), 0xffff) << k;
  }
}

}  // namespace
}  // namespace ipsum::checksum
