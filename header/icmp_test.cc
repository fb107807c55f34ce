// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Tests of the ICMPv4 and ICMPv6 views: echo and error known answers with
// their checksums, the quoted packets of errors, every truncation, Encode
// round trips by type, and RFC 1624 identifier / address updates against a
// full recompute.

#include <vector>

#include "gtest/gtest.h"
#include "header/checksum.h"
#include "header/icmpv4.h"
#include "header/icmpv6.h"
#include "header/internal/test_util.h"
#include "header/tcp.h"
#include "header/udp.h"

namespace ipsum::header {
namespace {

using testing::Hex;
using testing::Lcg;
using testing::ReferenceSum;

std::vector<uint8_t> Tail(std::string_view hex, size_t offset) {
  std::vector<uint8_t> f = Hex(hex);
  return std::vector<uint8_t>(f.begin() + offset, f.end());
}

// ReferenceChecksum zeroes the checksum field at offset 2 of `message`
// and sums `prefix` (a pseudo-header, or nothing) and the message with the
// test's own code.
uint16_t ReferenceChecksum(std::vector<uint8_t> prefix,
                           std::span<const uint8_t> message) {
  size_t at = prefix.size();
  prefix.insert(prefix.end(), message.begin(), message.end());
  prefix[at + 2] = prefix[at + 3] = 0;
  return static_cast<uint16_t>(~ReferenceSum(prefix));
}

std::vector<uint8_t> Pseudo6(const IPv6& ip, size_t length) {
  IPv6Address src = ip.source(), dst = ip.destination();
  std::vector<uint8_t> b(src.bytes.begin(), src.bytes.end());
  b.insert(b.end(), dst.bytes.begin(), dst.bytes.end());
  b.insert(b.end(), {static_cast<uint8_t>(length >> 24),
                     static_cast<uint8_t>(length >> 16),
                     static_cast<uint8_t>(length >> 8),
                     static_cast<uint8_t>(length), 0, 0, 0, kProtocolICMPv6});
  return b;
}

TEST(ICMPv4Test, EchoKnownAnswer) {
  std::vector<uint8_t> m = Tail(testing::kIcmpv4EchoVlan, 18 + 20);
  Result<ICMPv4> icmp = ICMPv4::Parse(m);
  ASSERT_TRUE(icmp.ok());
  EXPECT_EQ(icmp->type(), kICMPv4Echo);
  EXPECT_EQ(icmp->code(), 0);
  EXPECT_EQ(icmp->checksum(), 0xf3c8);
  EXPECT_EQ(icmp->ident(), 0x1234);
  EXPECT_EQ(icmp->sequence(), 1);
  EXPECT_FALSE(icmp->IsError());
  EXPECT_EQ(icmp->payload().size(), 32u);
  EXPECT_TRUE(icmp->IsChecksumValid());
  EXPECT_EQ(icmp->ComputeChecksum(), 0xf3c8);
  EXPECT_EQ(ReferenceChecksum({}, m), 0xf3c8);
  m.back() ^= 1;
  EXPECT_FALSE(ICMPv4::Parse(m)->IsChecksumValid());
}

TEST(ICMPv4Test, FragmentationNeededQuotesTheDatagram) {
  std::vector<uint8_t> m = Tail(testing::kIcmpv4FragNeeded, 14 + 20);
  Result<ICMPv4> icmp = ICMPv4::Parse(m);
  ASSERT_TRUE(icmp.ok());
  EXPECT_EQ(icmp->type(), kICMPv4DestinationUnreachable);
  EXPECT_EQ(icmp->code(), kICMPv4FragmentationNeeded);
  EXPECT_EQ(icmp->mtu(), 1400);
  EXPECT_TRUE(icmp->IsError());
  EXPECT_TRUE(icmp->IsChecksumValid());
  EXPECT_EQ(ReferenceChecksum({}, m), 0xcbdc);

  Result<IPv4> quoted = icmp->ParseQuotedPacket();
  ASSERT_TRUE(quoted.ok()) << ToString(quoted.error());
  EXPECT_EQ(quoted->source().ToString(), "198.51.100.2");
  EXPECT_EQ(quoted->destination().ToString(), "203.0.113.9");
  EXPECT_EQ(quoted->protocol(), kProtocolUDP);
  EXPECT_EQ(quoted->total_length(), 1420);
  EXPECT_TRUE(quoted->IsChecksumValid());
  Result<UDP> udp = UDP::ParsePrefix(quoted->payload());
  ASSERT_TRUE(udp.ok());
  EXPECT_EQ(udp->source_port(), 5353);
  EXPECT_EQ(udp->destination_port(), 53);
}

TEST(ICMPv4Test, EveryTruncationIsReported) {
  std::vector<uint8_t> m = Tail(testing::kIcmpv4EchoVlan, 18 + 20);
  for (size_t n = 0; n < 8; ++n) {
    std::vector<uint8_t> t(m.begin(), m.begin() + n);
    EXPECT_EQ(ICMPv4::Parse(t).error(), Error::kTruncated) << n;
  }
  std::vector<uint8_t> e = Tail(testing::kIcmpv4FragNeeded, 14 + 20);
  for (size_t n = 8; n < 8 + 20; ++n) {
    std::vector<uint8_t> t(e.begin(), e.begin() + n);
    EXPECT_EQ(ICMPv4::Parse(t)->ParseQuotedPacket().error(), Error::kTruncated)
        << n;
  }
}

TEST(ICMPv4Test, EncodeRoundTripsEachType) {
  std::vector<ICMPv4Fields> cases(5);
  cases[0] = {.type = kICMPv4EchoReply, .ident = 7, .sequence = 9};
  cases[1] = {.type = kICMPv4DestinationUnreachable,
              .code = kICMPv4FragmentationNeeded,
              .mtu = 1280};
  cases[2] = {.type = kICMPv4ParameterProblem, .pointer = 12};
  cases[3] = {.type = kICMPv4Redirect,
              .code = 1,
              .gateway = IPv4Address::FromHost(0xc0000202)};
  cases[4] = {.type = kICMPv4TimeExceeded, .code = 0, .checksum = 0x1234};
  for (const ICMPv4Fields& f : cases) {
    std::vector<uint8_t> out(8, 0xaa);
    ASSERT_EQ(ICMPv4::Encode(f, out), Error::kOk);
    EXPECT_EQ(ICMPv4::Parse(out)->fields(), f) << int{f.type};
  }
  std::vector<uint8_t> out(8);
  ASSERT_EQ(ICMPv4::Encode(cases[2], out), Error::kOk);
  EXPECT_EQ(out, Hex("0c000000 0c000000"));
  std::vector<uint8_t> small(7);
  EXPECT_EQ(ICMPv4::Encode(cases[0], small), Error::kBufferTooSmall);

  std::vector<uint8_t> m = Tail(testing::kIcmpv4EchoVlan, 18 + 20);
  ICMPv4Fields f = ICMPv4::Parse(m)->fields();
  std::vector<uint8_t> echo(m.size());
  ASSERT_EQ(ICMPv4::Encode(f, echo), Error::kOk);
  EXPECT_TRUE(std::equal(echo.begin(), echo.begin() + 8, m.begin()));
}

TEST(ICMPv4Test, IdentRewriteMatchesRecompute) {
  Lcg rng(40);
  for (int i = 0; i < 20000; ++i) {
    std::vector<uint8_t> m(8 + rng.Next() % 64);
    rng.Fill(m);
    MutableICMPv4 icmp = *MutableICMPv4::Parse(m);
    icmp.SetType(kICMPv4Echo);
    icmp.SetChecksum(icmp.ComputeChecksum());
    icmp.SetIdentAndUpdateChecksum(static_cast<uint16_t>(rng.Next()));
    EXPECT_EQ(icmp.checksum(), ReferenceChecksum({}, m)) << i;
    EXPECT_TRUE(icmp.IsChecksumValid());
  }
}

TEST(ICMPv6Test, EchoKnownAnswer) {
  std::vector<uint8_t> f = Hex(testing::kIcmpv6EchoQinQ);
  IPv6 ip = *IPv6::Parse(std::span(f).subspan(22));
  Result<IPv6Chain> chain = ip.WalkExtensionHeaders();
  ASSERT_TRUE(chain.ok());
  ASSERT_EQ(chain->protocol, kProtocolICMPv6);
  Result<ICMPv6> icmp = ICMPv6::Parse(ip.bytes().subspan(chain->offset));
  ASSERT_TRUE(icmp.ok());
  EXPECT_EQ(icmp->type(), kICMPv6EchoRequest);
  EXPECT_EQ(icmp->code(), 0);
  EXPECT_EQ(icmp->ident(), 0x4242);
  EXPECT_EQ(icmp->sequence(), 7);
  EXPECT_FALSE(icmp->IsError());
  uint16_t pseudo = PseudoHeaderSum(ip.source(), ip.destination(),
                                    kProtocolICMPv6, chain->upper_length);
  EXPECT_TRUE(icmp->IsChecksumValid(pseudo));
  EXPECT_EQ(icmp->ComputeChecksum(pseudo), 0xcd3d);
  EXPECT_EQ(ReferenceChecksum(Pseudo6(ip, icmp->bytes().size()), icmp->bytes()),
            0xcd3d);
  // Without the pseudo-header it does not verify.
  EXPECT_FALSE(icmp->IsChecksumValid(0));
}

TEST(ICMPv6Test, PacketTooBigQuotesThePacket) {
  std::vector<uint8_t> f = Hex(testing::kIcmpv6PacketTooBig);
  IPv6 ip = *IPv6::Parse(std::span(f).subspan(14));
  Result<ICMPv6> icmp = ICMPv6::Parse(ip.payload());
  ASSERT_TRUE(icmp.ok());
  EXPECT_EQ(icmp->type(), kICMPv6PacketTooBig);
  EXPECT_EQ(icmp->mtu(), 1280u);
  EXPECT_TRUE(icmp->IsError());
  uint16_t pseudo = PseudoHeaderSum(ip.source(), ip.destination(),
                                    kProtocolICMPv6, ip.payload().size());
  EXPECT_TRUE(icmp->IsChecksumValid(pseudo));
  EXPECT_EQ(icmp->ComputeChecksum(pseudo), 0xb9af);

  Result<IPv6> quoted = icmp->ParseQuotedPacket();
  ASSERT_TRUE(quoted.ok());
  EXPECT_EQ(quoted->destination().ToString(), "2001:db8:ffff::9");
  EXPECT_EQ(quoted->payload_length(), 1420);
  Result<IPv6Chain> chain = quoted->WalkExtensionHeaders();
  ASSERT_TRUE(chain.ok());
  EXPECT_EQ(chain->protocol, kProtocolTCP);
  Result<TCP> tcp = TCP::Parse(quoted->bytes().subspan(chain->offset));
  ASSERT_TRUE(tcp.ok());
  EXPECT_EQ(tcp->source_port(), 443);
  EXPECT_EQ(tcp->destination_port(), 50001);
}

TEST(ICMPv6Test, EveryTruncationIsReported) {
  std::vector<uint8_t> f = Hex(testing::kIcmpv6PacketTooBig);
  std::vector<uint8_t> m(f.begin() + 54, f.end());
  for (size_t n = 0; n < 8; ++n) {
    std::vector<uint8_t> t(m.begin(), m.begin() + n);
    EXPECT_EQ(ICMPv6::Parse(t).error(), Error::kTruncated) << n;
  }
  for (size_t n = 8; n < 48; ++n) {
    std::vector<uint8_t> t(m.begin(), m.begin() + n);
    EXPECT_EQ(ICMPv6::Parse(t)->ParseQuotedPacket().error(), Error::kTruncated)
        << n;
  }
}

TEST(ICMPv6Test, EncodeRoundTripsEachType) {
  std::vector<ICMPv6Fields> cases(4);
  cases[0] = {.type = kICMPv6EchoReply, .ident = 1, .sequence = 2};
  cases[1] = {.type = kICMPv6PacketTooBig, .mtu = 1280};
  cases[2] = {.type = kICMPv6ParameterProblem, .code = 1, .pointer = 40};
  cases[3] = {.type = kICMPv6TimeExceeded, .checksum = 0xffff};
  for (const ICMPv6Fields& f : cases) {
    std::vector<uint8_t> out(8, 0xaa);
    ASSERT_EQ(ICMPv6::Encode(f, out), Error::kOk);
    EXPECT_EQ(ICMPv6::Parse(out)->fields(), f) << int{f.type};
  }
  std::vector<uint8_t> out(8);
  ASSERT_EQ(ICMPv6::Encode(cases[1], out), Error::kOk);
  EXPECT_EQ(out, Hex("02000000 00000500"));
  std::vector<uint8_t> small(7);
  EXPECT_EQ(ICMPv6::Encode(cases[0], small), Error::kBufferTooSmall);
}

TEST(ICMPv6Test, UpdatesMatchRecompute) {
  std::vector<uint8_t> f = Hex(testing::kIcmpv6EchoQinQ);
  IPv6 ip = *IPv6::Parse(std::span(f).subspan(22));
  Lcg rng(41);
  for (int i = 0; i < 20000; ++i) {
    std::vector<uint8_t> m(8 + rng.Next() % 64);
    rng.Fill(m);
    m[0] = kICMPv6EchoRequest;
    IPv6Address src = ip.source();
    std::vector<uint8_t> pseudo = Pseudo6(ip, m.size());
    MutableICMPv6 icmp = *MutableICMPv6::Parse(m);
    icmp.SetChecksum(ReferenceChecksum(pseudo, m));
    if (i % 2) {
      icmp.SetIdentAndUpdateChecksum(static_cast<uint16_t>(rng.Next()));
    } else {
      IPv6Address n;
      rng.Fill(n.bytes);
      icmp.UpdateChecksumForAddressChange(src.bytes, n.bytes);
      std::copy(n.bytes.begin(), n.bytes.end(), pseudo.begin());
    }
    EXPECT_EQ(icmp.checksum(), ReferenceChecksum(pseudo, m)) << i;
  }
}

}  // namespace
}  // namespace ipsum::header
