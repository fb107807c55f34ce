// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Source NAT: every rewrite's checksums against an independent full
// computation (the byte-at-a-time reference over the rewritten bytes), for
// complete and partial transport checksums, and the connection table's
// mapping, bound and timeouts; then the gateway translating both ways.

#include "tools/gateway/nat.h"

#include <random>
#include <vector>

#include "checksum/endian.h"
#include "gtest/gtest.h"
#include "header/protocol.h"
#include "tcpip/transmit.h"
#include "tools/gateway/gateway.h"
#include "tools/gateway/internal/testing.h"

namespace ipsum::gateway {
namespace {

using tcpip::ChecksumStatus;
using tcpip::Layer;
using tcpip::PacketBuffer;
using testing::PseudoSum;
using testing::TransportSum;
using testing::V4;
using testing::V6;

// Consumed returns `pkt`'s bytes with its headers consumed as the gateway
// consumes them (network, then `transport` bytes of transport header).
PacketBuffer Consumed(const PacketBuffer& pkt, size_t network,
                      size_t transport) {
  PacketBuffer c = testing::Received(pkt);
  EXPECT_TRUE(c.ConsumeHeaders(0, network, transport));
  return c;
}

// A rewrite of random addresses, ports and payloads: the incremental
// result equals a full computation over the new bytes, bit for bit.
TEST(RewriteTest, CompleteChecksumsMatchAFullComputation) {
  std::mt19937 rng(7);
  for (int i = 0; i < 400; ++i) {
    const bool v4 = i % 2 == 0;
    const int kind = (i / 2) % 3;  // TCP, UDP, echo
    tcpip::Route r;
    r.network = v4 ? tcpip::NetworkProtocol::kIPv4
                   : tcpip::NetworkProtocol::kIPv6;
    for (auto& b : r.source_v4.bytes) b = static_cast<uint8_t>(rng());
    for (auto& b : r.destination_v4.bytes) b = static_cast<uint8_t>(rng());
    for (auto& b : r.source_v6.bytes) b = static_cast<uint8_t>(rng());
    for (auto& b : r.destination_v6.bytes) b = static_cast<uint8_t>(rng());
    std::vector<uint8_t> payload(rng() % 300);
    for (auto& b : payload) b = static_cast<uint8_t>(rng());
    const auto port = static_cast<uint16_t>(rng());
    PacketBuffer p =
        kind == 0   ? testing::Tcp(r, port, 80, payload, false)
        : kind == 1 ? testing::Udp(r, port, 53, payload, false)
                    : testing::Echo(r, true, port, 1, payload);
    const uint8_t protocol =
        kind == 0   ? header::kProtocolTCP
        : kind == 1 ? header::kProtocolUDP
                    : (v4 ? header::kProtocolICMPv4 : header::kProtocolICMPv6);
    PacketBuffer c = Consumed(p, v4 ? 20 : 40, kind == 0 ? 20 : 8);
    const Side side = rng() % 2 ? Side::kSource : Side::kDestination;
    const auto new_port = static_cast<uint16_t>(rng());
    RewriteError e;
    if (v4) {
      e = Rewrite(c, protocol, side,
                  header::IPv4Address::FromHost(static_cast<uint32_t>(rng())),
                  new_port);
    } else {
      header::IPv6Address a;
      for (auto& b : a.bytes) b = static_cast<uint8_t>(rng());
      e = Rewrite(c, protocol, side, a, new_port);
    }
    ASSERT_EQ(e, RewriteError::kOk);
    std::vector<uint8_t> after = c.Flatten();
    EXPECT_TRUE(!v4 || testing::IPv4HeaderValid(after, 0)) << i;
    EXPECT_EQ(TransportSum(after, false), 0xffff) << i;
    // Bit for bit what a full computation stores.
    const size_t t = v4 ? 20 : 40;
    const size_t field = t + (kind == 0 ? 16 : kind == 1 ? 6 : 2);
    const uint16_t stored = LoadBig16(&after[field]);
    after[field] = after[field + 1] = 0;
    uint16_t full = static_cast<uint16_t>(~TransportSum(after, false));
    if (kind == 1 && full == 0) full = 0xffff;
    EXPECT_EQ(stored, full) << i;
  }
}

// A partial checksum (the pseudo-header's sum, uncomplemented) follows the
// address and not the port; the NIC's completion then gives a valid
// checksum.
TEST(RewriteTest, PartialChecksumTakesTheAddressWithoutComplement) {
  for (bool v4 : {true, false}) {
    for (bool tcp : {true, false}) {
      const tcpip::Route r = v4 ? testing::RouteV4("10.1.0.2", "10.3.1.1")
                                : testing::RouteV6("fd01::2", "fd03::7");
      std::vector<uint8_t> payload(777, 0x5a);
      PacketBuffer p = tcp ? testing::Tcp(r, 40000, 80, payload, true)
                           : testing::Udp(r, 40000, 53, payload, true);
      PacketBuffer c = Consumed(p, v4 ? 20 : 40, tcp ? 20 : 8);
      ASSERT_EQ(c.checksum_status, ChecksumStatus::kPartial);
      RewriteError e =
          v4 ? Rewrite(c, tcp ? 6 : 17, Side::kSource, V4("192.0.2.77"), 1024)
             : Rewrite(c, tcp ? 6 : 17, Side::kSource, V6("2001:db8::77"),
                       1024);
      ASSERT_EQ(e, RewriteError::kOk);
      std::vector<uint8_t> after = c.Flatten();
      EXPECT_EQ(LoadBig16(&after[c.csum_start + c.csum_offset]),
                PseudoSum(after, false));
      EXPECT_EQ(LoadBig16(&after[c.csum_start]), 1024);
      ASSERT_TRUE(tcpip::ResolvePartialChecksum(c));
      EXPECT_EQ(TransportSum(c.Flatten(), false), 0xffff);
    }
  }
  // Metadata that does not name the field is refused, unchanged.
  PacketBuffer p = testing::Tcp(testing::RouteV4("10.1.0.2", "10.3.1.1"), 1,
                                2, std::vector<uint8_t>(10), true);
  PacketBuffer c = Consumed(p, 20, 20);
  c.csum_offset = 6;
  const std::vector<uint8_t> before = c.Flatten();
  EXPECT_EQ(Rewrite(c, 6, Side::kSource, V4("192.0.2.1"), 9),
            RewriteError::kBadOffloadMetadata);
  EXPECT_EQ(c.Flatten(), before);
}

TEST(RewriteTest, UdpWithoutChecksumStaysWithout) {
  PacketBuffer p;
  tcpip::UDPDatagram d;
  d.source_port = 5;
  d.destination_port = 6;
  d.no_checksum = true;
  p = PacketBuffer(buffer::Buffer::Copy(std::vector<uint8_t>(30, 1)));
  ASSERT_EQ(tcpip::EncodeUDP(testing::RouteV4("10.1.0.2", "10.3.1.1"), d, {},
                             p),
            tcpip::EncodeError::kOk);
  PacketBuffer c = Consumed(p, 20, 8);
  ASSERT_EQ(Rewrite(c, 17, Side::kSource, V4("192.0.2.1"), 7),
            RewriteError::kOk);
  const std::vector<uint8_t> after = c.Flatten();
  EXPECT_EQ(LoadBig16(&after[26]), 0);
  EXPECT_TRUE(testing::IPv4HeaderValid(after, 0));
}

// An all-zero ICMPv4 echo reply, the one message RFC 1624 equation 3
// gets wrong, still leaves with 0xffff.
TEST(RewriteTest, AllZeroIcmpv4MessageGetsTheRightZero) {
  PacketBuffer p =
      testing::Echo(testing::RouteV4("10.1.0.2", "10.3.1.1"), false, 0x1234,
                    0, std::vector<uint8_t>(8, 0));
  PacketBuffer c = Consumed(p, 20, 8);
  ASSERT_EQ(Rewrite(c, 1, Side::kDestination, V4("10.1.0.9"), 0),
            RewriteError::kOk);
  const std::vector<uint8_t> after = c.Flatten();
  EXPECT_EQ(LoadBig16(&after[22]), 0xffff);
  EXPECT_EQ(TransportSum(after, false), 0xffff);
}

SnatConfig Small() {
  SnatConfig s;
  s.max_entries = 3;
  s.udp_ns = 100;
  s.tcp_transitory_ns = 50;
  s.tcp_established_ns = 1000;
  s.icmp_ns = 10;
  return s;
}

TEST(NatTableTest, PreservesPortsUntilTheyCollide) {
  NatTable<header::IPv4Address> t(Small());
  const auto remote = V4("10.2.0.2");
  EXPECT_EQ(t.Outbound(17, V4("10.1.0.2"), 5000, remote, 53, 0, 1), 5000);
  // The same flow again: the same port.
  EXPECT_EQ(t.Outbound(17, V4("10.1.0.2"), 5000, remote, 53, 0, 2), 5000);
  // Another inside host with the same port to the same remote: another.
  auto other = t.Outbound(17, V4("10.1.0.3"), 5000, remote, 53, 0, 3);
  ASSERT_TRUE(other);
  EXPECT_NE(*other, 5000);
  EXPECT_GE(*other, 1024);
  auto back = t.Inbound(17, remote, 53, *other, 0, 4);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->address, V4("10.1.0.3"));
  EXPECT_EQ(back->port, 5000);
  // Replies from another remote or port find nothing.
  EXPECT_FALSE(t.Inbound(17, V4("10.2.0.3"), 53, 5000, 0, 5));
  EXPECT_FALSE(t.Inbound(17, remote, 54, 5000, 0, 5));
  EXPECT_FALSE(t.Inbound(6, remote, 53, 5000, 0, 5));
  EXPECT_EQ(t.stats().created, 2u);
}

TEST(NatTableTest, IsBoundedAndExpiresIdleFlows) {
  NatTable<header::IPv6Address> t(Small());
  const auto remote = V6("fd02::2");
  for (uint16_t p = 1; p <= 3; ++p) {
    EXPECT_TRUE(t.Outbound(17, V6("fd01::2"), p, remote, 53, 0, 10));
  }
  EXPECT_FALSE(t.Outbound(17, V6("fd01::2"), 4, remote, 53, 0, 10));
  EXPECT_EQ(t.stats().full, 1u);
  // Past the UDP timeout the flows go, and room is made.
  EXPECT_TRUE(t.Outbound(17, V6("fd01::2"), 4, remote, 53, 0, 200));
  EXPECT_EQ(t.size(), 1u);
  EXPECT_EQ(t.stats().expired, 3u);
  EXPECT_FALSE(t.Inbound(17, remote, 53, 1, 0, 200));
  // TCP: transitory until both SYNs, then established (longer).
  ASSERT_TRUE(t.Outbound(6, V6("fd01::2"), 9, remote, 80, 0x02, 300));
  ASSERT_TRUE(t.Inbound(6, remote, 80, 9, 0x12, 301));
  EXPECT_TRUE(t.Inbound(6, remote, 80, 9, 0x10, 301 + 500));
  // A FIN makes it transitory again.
  ASSERT_TRUE(t.Outbound(6, V6("fd01::2"), 9, remote, 80, 0x11, 900));
  t.Expire(900 + 60);
  EXPECT_FALSE(t.Inbound(6, remote, 80, 9, 0x10, 960));
}

// The gateway translates a flow out and its replies back, in both
// checksum forms, and counts what has no flow.
TEST(GatewayNatTest, TranslatesOutAndBack) {
  for (bool v4 : {true, false}) {
    for (bool partial : {false, true}) {
      Config config = testing::TwoLinks();
      SnatConfig s;
      s.outside_interface = 1;
      s.inside_v4 = *ParsePrefixV4("10.1.0.0/24");
      s.inside_v6 = *ParsePrefixV6("fd01::/64");
      s.address_v4 = V4("10.2.0.1");
      s.address_v6 = V6("fd02::1");
      config.snat = s;
      auto g = std::move(*Gateway::Create(config));
      testing::CaptureOutput out;
      const tcpip::Route r = v4 ? testing::RouteV4("10.1.0.2", "10.2.0.2")
                                : testing::RouteV6("fd01::2", "fd02::2");
      std::vector<uint8_t> payload(500, 7);
      g->Handle(0,
                testing::Received(testing::Tcp(r, 33000, 80, payload, partial,
                                               0x02)),
                1, out);
      ASSERT_EQ(out.frames.size(), 1u);
      const auto& f = out.frames[0].bytes;
      const size_t t = v4 ? 20 : 40;
      if (v4) {
        EXPECT_EQ(header::IPv4Address::From(&f[12]), V4("10.2.0.1"));
        EXPECT_TRUE(testing::IPv4HeaderValid(f, 0));
      } else {
        EXPECT_EQ(header::IPv6Address::From(&f[8]), V6("fd02::1"));
      }
      const uint16_t external = LoadBig16(&f[t]);
      EXPECT_EQ(external, 33000);
      if (partial) {
        EXPECT_EQ(LoadBig16(&f[t + 16]), PseudoSum(f, false));
      } else {
        EXPECT_EQ(TransportSum(f, false), 0xffff);
      }
      // The reply.
      const tcpip::Route back = v4 ? testing::RouteV4("10.2.0.2", "10.2.0.1")
                                   : testing::RouteV6("fd02::2", "fd02::1");
      g->Handle(1,
                testing::Received(testing::Tcp(back, 80, external, payload,
                                               partial, 0x12)),
                2, out);
      ASSERT_EQ(out.frames.size(), 2u);
      const auto& b = out.frames[1].bytes;
      EXPECT_EQ(out.frames[1].interface, 0u);
      if (v4) {
        EXPECT_EQ(header::IPv4Address::From(&b[16]), V4("10.1.0.2"));
        EXPECT_TRUE(testing::IPv4HeaderValid(b, 0));
      } else {
        EXPECT_EQ(header::IPv6Address::From(&b[24]), V6("fd01::2"));
      }
      EXPECT_EQ(LoadBig16(&b[t + 2]), 33000);
      if (partial) {
        EXPECT_EQ(LoadBig16(&b[t + 16]), PseudoSum(b, false));
      } else {
        EXPECT_EQ(TransportSum(b, false), 0xffff);
      }
      // A packet to the outside address with no flow.
      g->Handle(1,
                testing::Received(
                    testing::Udp(back, 80, 4444, payload, partial)),
                3, out);
      EXPECT_EQ(g->counters().Dropped(Drop::kNatNoMapping), 1u);
      // Echo through the NAT, and its reply.
      g->Handle(0, testing::Received(testing::Echo(r, true, 77, 1, payload)),
                4, out);
      ASSERT_EQ(out.frames.size(), 3u);
      EXPECT_EQ(TransportSum(out.frames[2].bytes, false), 0xffff);
      const uint16_t ident = LoadBig16(&out.frames[2].bytes[t + 4]);
      g->Handle(1,
                testing::Received(testing::Echo(back, false, ident, 1,
                                                payload)),
                5, out);
      ASSERT_EQ(out.frames.size(), 4u);
      EXPECT_EQ(LoadBig16(&out.frames[3].bytes[t + 4]), 77);
      EXPECT_EQ(TransportSum(out.frames[3].bytes, false), 0xffff);
      EXPECT_EQ(g->counters().nat_outbound, 2u);
      EXPECT_EQ(g->counters().nat_inbound, 2u);
    }
  }
}

}  // namespace
}  // namespace ipsum::gateway
