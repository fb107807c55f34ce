// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Tests that the inline header sums equal checksum::Checksum and
// header::PseudoHeaderSum.

#include "tcpip/internal/header_sum.h"

#include <cstdint>
#include <random>
#include <vector>

#include "checksum/checksum.h"
#include "gtest/gtest.h"
#include "header/checksum.h"

namespace ipsum::tcpip::internal {
namespace {

TEST(HeaderSumTest, EqualsChecksumForEveryLengthAndInitialValue) {
  std::mt19937 rng(7);
  for (size_t n = 0; n <= 130; ++n) {
    for (int round = 0; round < 20; ++round) {
      std::vector<uint8_t> b(n);
      // Random bytes, all-0xff, all-zero, and all-zero but one byte.
      for (auto& x : b) x = static_cast<uint8_t>(rng());
      if (round == 1) std::fill(b.begin(), b.end(), 0xff);
      if (round >= 2 && round < 4) std::fill(b.begin(), b.end(), 0);
      if (round == 3 && n != 0) b[rng() % n] = 1;
      for (uint16_t initial :
           {uint16_t{0}, uint16_t{0xffff}, static_cast<uint16_t>(rng())}) {
        EXPECT_EQ(HeaderSum(b, initial), checksum::Checksum(b, initial))
            << n << " " << round << " " << initial;
      }
      // Every start alignment: the same bytes at 0..7 bytes into a buffer.
      for (size_t shift = 1; shift < 8; ++shift) {
        std::vector<uint8_t> moved(shift + n);
        std::copy(b.begin(), b.end(), moved.begin() + shift);
        std::span<const uint8_t> view = std::span(moved).subspan(shift);
        EXPECT_EQ(HeaderSum(view, 0x1234), checksum::Checksum(b, 0x1234))
            << n << " " << round << " " << shift;
      }
    }
  }
}

TEST(HeaderSumTest, PseudoHeaderSumsEqualTheHeaderPackages) {
  std::mt19937 rng(11);
  for (int round = 0; round < 2000; ++round) {
    header::IPv4Address s4, d4;
    header::IPv6Address s6, d6;
    // Every fourth round has all-zero addresses, for the 0x0000 case.
    if (round % 4 != 0) {
      for (auto& x : s4.bytes) x = static_cast<uint8_t>(rng());
      for (auto& x : d4.bytes) x = static_cast<uint8_t>(rng());
      for (auto& x : s6.bytes) x = static_cast<uint8_t>(rng());
      for (auto& x : d6.bytes) x = static_cast<uint8_t>(rng());
    }
    uint8_t protocol = round % 8 == 0 ? 0 : static_cast<uint8_t>(rng());
    uint16_t length16 = round % 8 == 0 ? 0 : static_cast<uint16_t>(rng());
    uint32_t length32 = round % 8 == 0 ? 0 : static_cast<uint32_t>(rng());
    EXPECT_EQ(PseudoSum(s4, d4, protocol, length16),
              header::PseudoHeaderSum(s4, d4, protocol, length16));
    EXPECT_EQ(PseudoSum(s6, d6, protocol, length32),
              header::PseudoHeaderSum(s6, d6, protocol, length32));
  }
}

}  // namespace
}  // namespace ipsum::tcpip::internal
