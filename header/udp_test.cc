// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Tests of the UDP view: known-answer fields and checksums over IPv4 and
// IPv6, the zero-checksum rules of RFC 768 and RFC 8200 section 8.1, every
// truncation, Encode round trips, and RFC 1624 updates against a full
// recompute on seeded random datagrams.

#include "header/udp.h"

#include <vector>

#include "gtest/gtest.h"
#include "header/checksum.h"
#include "header/internal/test_util.h"
#include "header/ipv6.h"

namespace ipsum::header {
namespace {

using testing::Hex;
using testing::Lcg;
using testing::ReferenceSum;

const IPv4Address kSrc4 = IPv4Address::FromHost(0xc0000201);
const IPv4Address kDst4 = IPv4Address::FromHost(0xc6336402);

std::vector<uint8_t> Udp4() {
  std::vector<uint8_t> f = Hex(testing::kUdpIPv4Options);
  return std::vector<uint8_t>(f.begin() + 14 + 24, f.end());
}

// ReferenceChecksum4 sums the RFC 768 pseudo-header, built as bytes, and
// the datagram with its checksum field zeroed, with the test's own code,
// and applies "0 is sent as 0xffff".
uint16_t ReferenceChecksum4(const IPv4Address& src, const IPv4Address& dst,
                            std::span<const uint8_t> d) {
  std::vector<uint8_t> b(src.bytes.begin(), src.bytes.end());
  b.insert(b.end(), dst.bytes.begin(), dst.bytes.end());
  b.insert(b.end(), {0, kProtocolUDP, static_cast<uint8_t>(d.size() >> 8),
                     static_cast<uint8_t>(d.size())});
  size_t at = b.size();
  b.insert(b.end(), d.begin(), d.end());
  b[at + 6] = b[at + 7] = 0;
  uint16_t c = static_cast<uint16_t>(~ReferenceSum(b));
  return c == 0 ? 0xffff : c;
}

TEST(UDPTest, KnownAnswerOverIPv4) {
  std::vector<uint8_t> b = Udp4();
  Result<UDP> udp = UDP::Parse(b);
  ASSERT_TRUE(udp.ok()) << ToString(udp.error());
  EXPECT_EQ(udp->source_port(), 5353);
  EXPECT_EQ(udp->destination_port(), 53);
  EXPECT_EQ(udp->length(), 20);
  EXPECT_EQ(udp->checksum(), 0xbe24);
  EXPECT_EQ(std::string(udp->payload().begin(), udp->payload().end()),
            "hello, world");
  uint16_t pseudo = PseudoHeaderSum(kSrc4, kDst4, kProtocolUDP, 20);
  EXPECT_TRUE(udp->IsChecksumValid(pseudo, IPVersion::kV4));
  EXPECT_EQ(udp->ComputeChecksum(pseudo), 0xbe24);
  EXPECT_EQ(ReferenceChecksum4(kSrc4, kDst4, b), 0xbe24);
}

TEST(UDPTest, KnownAnswerOverIPv6AfterExtensionHeaders) {
  std::vector<uint8_t> f = Hex(testing::kUdpIPv6Extensions);
  IPv6 ip = *IPv6::Parse(std::span(f).subspan(14));
  Result<IPv6Chain> chain = ip.WalkExtensionHeaders();
  ASSERT_TRUE(chain.ok());
  ASSERT_EQ(chain->protocol, kProtocolUDP);
  Result<UDP> udp = UDP::Parse(ip.bytes().subspan(chain->offset));
  ASSERT_TRUE(udp.ok());
  EXPECT_EQ(udp->source_port(), 40000);
  EXPECT_EQ(udp->destination_port(), 4789);
  EXPECT_EQ(udp->length(), chain->upper_length);
  uint16_t pseudo = PseudoHeaderSum(ip.source(), ip.destination(), kProtocolUDP,
                                    chain->upper_length);
  EXPECT_TRUE(udp->IsChecksumValid(pseudo, IPVersion::kV6));
  EXPECT_EQ(udp->ComputeChecksum(pseudo), 0xd736);
}

TEST(UDPTest, ZeroChecksumMeansNoneOverIPv4AndIsIllegalOverIPv6) {
  std::vector<uint8_t> b = Udp4();
  MutableUDP udp = *MutableUDP::Parse(b);
  udp.SetChecksum(0);
  uint16_t pseudo = PseudoHeaderSum(kSrc4, kDst4, kProtocolUDP, 20);
  EXPECT_TRUE(udp.IsChecksumValid(pseudo, IPVersion::kV4));
  EXPECT_FALSE(udp.IsChecksumValid(pseudo, IPVersion::kV6));
}

TEST(UDPTest, ComputedZeroIsSentAsAllOnes) {
  // Choose the last data word so the datagram sums to 0xffff, i.e. the
  // computed checksum is 0.
  std::vector<uint8_t> b = Udp4();
  MutableUDP udp = *MutableUDP::Parse(b);
  uint16_t pseudo = PseudoHeaderSum(kSrc4, kDst4, kProtocolUDP, 20);
  StoreBig16(&b[18], 0);
  udp.SetChecksum(0);
  uint16_t partial = ReferenceSum(b, pseudo);
  StoreBig16(&b[18], static_cast<uint16_t>(~partial));
  EXPECT_EQ(udp.ComputeChecksum(pseudo), 0xffff);
  EXPECT_EQ(ReferenceChecksum4(kSrc4, kDst4, b), 0xffff);
  udp.SetChecksum(0xffff);
  EXPECT_TRUE(udp.IsChecksumValid(pseudo, IPVersion::kV4));
  EXPECT_TRUE(udp.IsChecksumValid(pseudo, IPVersion::kV6));
}

TEST(UDPTest, EveryTruncationIsReported) {
  std::vector<uint8_t> b = Udp4();
  for (size_t n = 0; n < b.size(); ++n) {
    std::vector<uint8_t> t(b.begin(), b.begin() + n);
    EXPECT_EQ(UDP::Parse(t).error(), Error::kTruncated) << n;
    Result<UDP> prefix = UDP::ParsePrefix(t);
    if (n < 8) {
      EXPECT_EQ(prefix.error(), Error::kTruncated);
    } else {
      ASSERT_TRUE(prefix.ok());
      EXPECT_EQ(prefix->payload().size(), n - 8);
    }
  }
}

TEST(UDPTest, LengthBelowEightIsBadLength) {
  std::vector<uint8_t> b = Udp4();
  for (uint16_t len = 0; len < 8; ++len) {
    StoreBig16(&b[4], len);
    EXPECT_EQ(UDP::Parse(b).error(), Error::kBadLength);
    EXPECT_EQ(UDP::ParsePrefix(b).error(), Error::kBadLength);
  }
}

TEST(UDPTest, ViewEndsAtLength) {
  std::vector<uint8_t> b = Udp4();
  StoreBig16(&b[4], 10);
  Result<UDP> udp = UDP::Parse(b);
  ASSERT_TRUE(udp.ok());
  EXPECT_EQ(udp->payload().size(), 2u);
}

TEST(UDPTest, EncodeRoundTrips) {
  std::vector<uint8_t> b = Udp4();
  UDPFields f = UDP::Parse(b)->fields();
  EXPECT_EQ(f, (UDPFields{5353, 53, 20, 0xbe24}));
  std::vector<uint8_t> out(8);
  ASSERT_EQ(UDP::Encode(f, out), Error::kOk);
  EXPECT_EQ(out, std::vector<uint8_t>(b.begin(), b.begin() + 8));
  EXPECT_EQ(UDP::ParsePrefix(out)->fields(), f);
  std::vector<uint8_t> small(7);
  EXPECT_EQ(UDP::Encode(f, small), Error::kBufferTooSmall);
  f.length = 7;
  EXPECT_EQ(UDP::Encode(f, out), Error::kBadField);
}

TEST(UDPTest, NatUpdatesMatchRecompute) {
  Lcg rng(20);
  for (int i = 0; i < 20000; ++i) {
    std::vector<uint8_t> b(8 + rng.Next() % 64);
    rng.Fill(b);
    StoreBig16(&b[4], static_cast<uint16_t>(b.size()));
    IPv4Address src = IPv4Address::FromHost(rng.Next());
    IPv4Address dst = IPv4Address::FromHost(rng.Next());
    MutableUDP udp = *MutableUDP::Parse(b);
    udp.SetChecksum(ReferenceChecksum4(src, dst, b));
    switch (i % 3) {
      case 0:
        udp.SetSourcePortAndUpdateChecksum(static_cast<uint16_t>(rng.Next()));
        break;
      case 1:
        udp.SetDestinationPortAndUpdateChecksum(
            static_cast<uint16_t>(rng.Next()));
        break;
      case 2: {
        IPv4Address n = IPv4Address::FromHost(rng.Next());
        udp.UpdateChecksumForAddressChange(src.bytes, n.bytes);
        src = n;
        break;
      }
    }
    EXPECT_EQ(udp.checksum(), ReferenceChecksum4(src, dst, b)) << i;
  }
}

TEST(UDPTest, NatUpdateKeepsZeroChecksumZero) {
  std::vector<uint8_t> b = Udp4();
  MutableUDP udp = *MutableUDP::Parse(b);
  udp.SetChecksum(0);
  udp.SetSourcePortAndUpdateChecksum(1234);
  udp.UpdateChecksumForAddressChange(kSrc4.bytes, kDst4.bytes);
  EXPECT_EQ(udp.checksum(), 0);
  EXPECT_EQ(udp.source_port(), 1234);
}

// Search the ports for rewrites whose recomputed checksum would be 0, which
// UDP sends as 0xffff; the update must agree, and must also start right
// from a stored 0xffff.
TEST(UDPTest, NatUpdateProducesAllOnesWhereRecomputeDoes) {
  std::vector<uint8_t> b = Udp4();
  MutableUDP udp = *MutableUDP::Parse(b);
  int all_ones = 0;
  for (uint32_t port = 0; port <= 0xffff; ++port) {
    udp.SetSourcePort(5353);
    udp.SetChecksum(ReferenceChecksum4(kSrc4, kDst4, b));
    udp.SetSourcePortAndUpdateChecksum(static_cast<uint16_t>(port));
    uint16_t want = ReferenceChecksum4(kSrc4, kDst4, b);
    ASSERT_EQ(udp.checksum(), want) << port;
    if (want == 0xffff) {
      ++all_ones;
      // From the stored 0xffff, go back and forth again.
      udp.SetSourcePortAndUpdateChecksum(5353);
      EXPECT_EQ(udp.checksum(), 0xbe24);
    }
  }
  EXPECT_GT(all_ones, 0);
}

}  // namespace
}  // namespace ipsum::header
