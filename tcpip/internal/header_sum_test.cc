// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Tests that the inline header sums equal checksum::Checksum, and the
// fused pseudo-header sums header::PseudoHeaderSum.

#include "tcpip/internal/header_sum.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <random>
#include <span>
#include <vector>

#include "checksum/checksum.h"
#include "gtest/gtest.h"
#include "header/checksum.h"

namespace ipsum::tcpip::internal {
namespace {

// Mod0xffff maps a 16-bit one's-complement sum to its value mod 0xffff:
// both zeros to 0.
uint16_t Mod0xffff(uint16_t sum) { return sum == 0xffff ? 0 : sum; }

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

TEST(HeaderSumTest, IPv4TransportInitialIsThePseudoHeaderAndTheHeader) {
  std::mt19937 rng(19);
  for (int round = 0; round < 4000; ++round) {
    // An IPv4 header (its addresses at 12-19) and a transport header of
    // each length from 0 to 60 bytes in turn (20 and 32 take straight-line
    // code), random, all-0xff or all-zero.
    std::vector<uint8_t> ip(20), header(round % 61);
    const int fill = round % 5;
    for (auto& x : ip) {
      x = static_cast<uint8_t>(fill == 1 ? 0xff : fill == 2 ? 0 : rng());
    }
    for (auto& x : header) {
      x = static_cast<uint8_t>(fill == 1 ? 0xff : fill == 2 ? 0 : rng());
    }
    const auto protocol = static_cast<uint8_t>(round % 7 == 0 ? 0 : rng());
    const auto length = static_cast<uint16_t>(round % 11 == 0   ? 0
                                              : round % 11 == 1 ? 0xffff
                                                                : rng());
    header::IPv4Address source, destination;
    std::copy(ip.begin() + 12, ip.begin() + 16, source.bytes.begin());
    std::copy(ip.begin() + 16, ip.begin() + 20, destination.bytes.begin());
    // The reference: checksum::Checksum over the header package's
    // pseudo-header sum.
    const uint16_t want = checksum::Checksum(
        header, header::PseudoHeaderSum(source, destination, protocol, length));
    EXPECT_EQ(
        Mod0xffff(IPv4TransportInitial(ip.data(), header, protocol, length)),
        Mod0xffff(want))
        << round;
  }
}

// FoldBigEndian is the fold of the accumulator, byte-swapped on a
// little-endian host, to the bit: both zeros kept apart (0 only for a zero
// accumulator, 0xffff for a non-zero multiple of 0xffff), at accumulators
// near every power of two and at random ones. The fold itself is checked
// against a plain modulo of the accumulator.
TEST(HeaderSumTest, FoldBigEndianIsTheSwappedFold) {
  constexpr bool kLittle = std::endian::native == std::endian::little;
  std::mt19937_64 rng(23);
  std::vector<uint64_t> accs = {0,
                                1,
                                0xffff,
                                0xfffe,
                                0x10000,
                                0xffffffffffffffffu,
                                0xfffffffffffffffeu,
                                0xffff0000ffff0000u,
                                0x00ff00ff00ff00ffu};
  for (int bit = 0; bit < 64; ++bit) {
    const uint64_t p = uint64_t{1} << bit;
    accs.insert(accs.end(), {p, p - 1, p + 1, ~p, 0xffff * (p >> 16)});
  }
  for (int i = 0; i < 100000; ++i) accs.push_back(rng() >> (i % 64));
  for (uint64_t acc : accs) {
    const uint16_t folded = Fold(acc);
    // acc mod 0xffff, as a one's-complement sum: 0 only for acc == 0.
    const auto mod = static_cast<uint16_t>(acc % 0xffff);
    EXPECT_EQ(folded, acc == 0 ? 0 : (mod == 0 ? 0xffff : mod)) << acc;
    EXPECT_EQ(FoldBigEndian(acc), kLittle ? ByteSwap16(folded) : folded) << acc;
  }
}

TEST(HeaderSumTest, IsAllOnesSumIsTheHeaderCheck) {
  std::mt19937 rng(17);
  int valid = 0;
  for (int round = 0; round < 4000; ++round) {
    std::vector<uint8_t> b(round % 3 == 0 ? 20 : rng() % 64);
    for (auto& x : b) x = static_cast<uint8_t>(rng());
    if (round % 5 == 0) std::fill(b.begin(), b.end(), 0xff);
    if (round % 5 == 1) std::fill(b.begin(), b.end(), 0);
    // Every other 20-byte header given a valid checksum (bytes 10-11).
    if (b.size() == 20 && round % 2 == 0) {
      b[10] = b[11] = 0;
      const auto c = static_cast<uint16_t>(~checksum::Checksum(b));
      b[10] = static_cast<uint8_t>(c >> 8);
      b[11] = static_cast<uint8_t>(c);
    }
    const bool want = checksum::Checksum(b) == 0xffff;
    EXPECT_EQ(IsAllOnesSum(b), want) << round;
    valid += want;
  }
  EXPECT_GT(valid, 500);
}

// A frame of untagged Ethernet, a valid IPv4 header without options and
// `transport` bytes of random data, with the header's fields as ClassifyFast
// takes them. `fill` < 0 for random header bytes, else every byte of the
// link header and addresses set to it.
std::vector<uint8_t> Frame(std::mt19937& rng, size_t transport, int fill,
                           uint8_t protocol) {
  std::vector<uint8_t> f(34 + transport);
  for (auto& x : f) {
    x = static_cast<uint8_t>(fill < 0 ? rng() : static_cast<unsigned>(fill));
  }
  f[12] = 0x08;
  f[13] = 0x00;
  f[14] = 0x45;
  const size_t ip_length = 20 + transport;
  f[16] = static_cast<uint8_t>(ip_length >> 8);
  f[17] = static_cast<uint8_t>(ip_length);
  f[20] = f[21] = 0;  // Not a fragment.
  f[23] = protocol;
  f[24] = f[25] = 0;
  const uint16_t header_checksum =
      static_cast<uint16_t>(~checksum::Checksum(std::span(f).subspan(14, 20)));
  f[24] = static_cast<uint8_t>(header_checksum >> 8);
  f[25] = static_cast<uint8_t>(header_checksum);
  return f;
}

TEST(HeaderSumTest, EthernetIPv4InitialChecksTheTransportOverTheFrame) {
  std::mt19937 rng(13);
  int checked_zero = 0;
  for (int round = 0; round < 3000; ++round) {
    const size_t transport = rng() % 1500;
    const int fill = round % 5 == 1 ? 0xff : round % 5 == 2 ? 0 : -1;
    const uint8_t protocol =
        round % 7 == 0 ? 0 : static_cast<uint8_t>(rng() % 2 ? 6 : 17);
    std::vector<uint8_t> f = Frame(rng, transport, fill, protocol);
    ASSERT_EQ(checksum::Checksum(std::span(f).subspan(14, 20)), 0xffff);
    header::IPv4Address source, destination;
    std::copy(f.begin() + 26, f.begin() + 30, source.bytes.begin());
    std::copy(f.begin() + 30, f.begin() + 34, destination.bytes.begin());
    const auto length = static_cast<uint16_t>(transport);
    // In every other round, the transport's "checksum" (its first two
    // bytes) set so that it checks, for the zero results.
    if (round % 2 == 0 && transport >= 2) {
      f[34] = f[35] = 0;
      const uint16_t rest = checksum::Checksum(
          std::span(f).subspan(34),
          header::PseudoHeaderSum(source, destination, protocol, length));
      const auto fix = static_cast<uint16_t>(~rest);
      f[34] = static_cast<uint8_t>(fix >> 8);
      f[35] = static_cast<uint8_t>(fix);
    }
    // The independent reference: the transport's bytes and the
    // pseudo-header (the header package's sum).
    const uint16_t want = checksum::Checksum(
        std::span(f).subspan(34),
        header::PseudoHeaderSum(source, destination, protocol, length));
    const uint16_t got =
        checksum::Checksum(f, EthernetIPv4Initial(f.data(), protocol, length));
    SCOPED_TRACE(::testing::Message() << "round " << round);
    EXPECT_EQ(Mod0xffff(got), Mod0xffff(want));
    if (round % 2 == 0 && transport >= 2) {
      EXPECT_EQ(Mod0xffff(got), 0);
      ++checked_zero;
    }
    // The two sums it stands for.
    EXPECT_EQ(
        Mod0xffff(EthernetIPv4Initial(f.data(), protocol, length)),
        Mod0xffff(checksum::Subtract(
            header::PseudoHeaderSum(source, destination, protocol, length),
            HeaderSum(std::span(f).first(34)))));
  }
  EXPECT_GT(checked_zero, 1000);
}

}  // namespace
}  // namespace ipsum::tcpip::internal
