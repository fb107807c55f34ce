// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// The gateway's packet logic on PacketBuffers built by tcpip's encoders and
// the header package: routing, verification by offload state, TTL / Hop
// Limit and ICMP errors, echo, MTU, GSO, the fault option, ARP and Neighbor
// Discovery. Every checksum the gateway leaves or writes is checked by the
// byte-at-a-time reference sums.

#include "tools/gateway/gateway.h"

#include <cstdint>
#include <random>
#include <vector>

#include "checksum/endian.h"
#include "gtest/gtest.h"
#include "header/icmpv4.h"
#include "header/icmpv6.h"
#include "header/protocol.h"
#include "tcpip/gso.h"
#include "tools/gateway/internal/testing.h"
#include "tools/gateway/route_table.h"

namespace ipsum::gateway {
namespace {

using tcpip::ChecksumStatus;
using tcpip::PacketBuffer;
using testing::CaptureOutput;
using testing::Received;
using testing::RouteV4;
using testing::RouteV6;
using testing::TransportSum;
using testing::TwoLinks;
using testing::V4;
using testing::V6;

std::vector<uint8_t> Bytes(size_t n, uint32_t seed = 1) {
  std::mt19937 rng(seed);
  std::vector<uint8_t> b(n);
  for (auto& x : b) x = static_cast<uint8_t>(rng());
  return b;
}

std::unique_ptr<Gateway> Make(Config c) {
  auto g = Gateway::Create(std::move(c));
  EXPECT_TRUE(g.ok()) << g.status();
  return std::move(*g);
}

TEST(RouteTableTest, LongestPrefixWinsWhateverTheOrder) {
  RouteTable<header::IPv4Address> t;
  t.Add({*ParsePrefixV4("0.0.0.0/0"), 0, V4("10.0.0.1")});
  t.Add({*ParsePrefixV4("10.3.0.0/16"), 1, std::nullopt});
  t.Add({*ParsePrefixV4("10.3.7.0/24"), 2, V4("10.9.9.9")});
  t.Add({*ParsePrefixV4("10.3.7.0/24"), 3, std::nullopt});  // Later: loses.
  EXPECT_EQ(t.Lookup(V4("10.3.7.9"))->interface, 2u);
  EXPECT_EQ(t.Lookup(V4("10.3.7.9"))->address, V4("10.9.9.9"));
  EXPECT_EQ(t.Lookup(V4("10.3.8.9"))->interface, 1u);
  EXPECT_EQ(t.Lookup(V4("10.3.8.9"))->address, V4("10.3.8.9"));  // On link.
  EXPECT_EQ(t.Lookup(V4("192.0.2.1"))->interface, 0u);
  RouteTable<header::IPv4Address> empty;
  EXPECT_FALSE(empty.Lookup(V4("10.0.0.1")));

  RouteTable<header::IPv6Address> t6;
  t6.Add({*ParsePrefixV6("fd00::/8"), 0, std::nullopt});
  t6.Add({*ParsePrefixV6("fd03:1:2::/47"), 1, std::nullopt});
  EXPECT_EQ(t6.Lookup(V6("fd03:1:3::1"))->interface, 1u);  // Bit 47 is 1.
  EXPECT_EQ(t6.Lookup(V6("fd03:1:4::1"))->interface, 0u);
  EXPECT_FALSE(t6.Lookup(V6("2001:db8::1")));
}

TEST(ConfigTest, BadTextIsAOneLineError) {
  EXPECT_FALSE(ParsePrefixV4("10.0.0.0/33").ok());
  EXPECT_FALSE(ParsePrefixV4("10.0.0/8").ok());
  EXPECT_FALSE(ParsePrefixV6("fd00::/129").ok());
  EXPECT_FALSE(ParsePrefixV6("fd00:::1").ok());
  EXPECT_FALSE(ParseMac("02:00:00:00:00").ok());
  EXPECT_FALSE(ParseMac("02:00:00:00:00:100").ok());
  EXPECT_EQ(ParsePrefixV4("10.0.0.1")->length, 32);
  EXPECT_EQ(ToString(*ParsePrefixV6("fd00::1/64")), "fd00::1/64");
  Config c = TwoLinks();
  c.routes_v4.push_back({*ParsePrefixV4("0.0.0.0/0"), 7, std::nullopt});
  EXPECT_FALSE(Gateway::Create(c).ok());
  EXPECT_FALSE(Gateway::Create(Config{}).ok());
}

// Forwarding one segment in each checksum state: TTL down by one with a
// valid IPv4 header checksum, the transport untouched and still valid.
TEST(GatewayTest, ForwardsTcpAndUdpInEveryChecksumState) {
  for (bool v4 : {true, false}) {
    for (ChecksumStatus status : {ChecksumStatus::kNone,
                                  ChecksumStatus::kUnnecessary,
                                  ChecksumStatus::kPartial}) {
      for (bool tcp : {true, false}) {
        auto g = Make(TwoLinks());
        CaptureOutput out;
        const tcpip::Route r = v4 ? RouteV4("10.1.0.2", "10.3.1.1", 9)
                                  : RouteV6("fd01::2", "fd03::7", 9);
        const std::vector<uint8_t> payload = Bytes(1000);
        const bool partial = status == ChecksumStatus::kPartial;
        PacketBuffer p = tcp ? testing::Tcp(r, 1000, 80, payload, partial)
                             : testing::Udp(r, 1000, 53, payload, partial);
        const std::vector<uint8_t> sent = p.Flatten();
        PacketBuffer in = Received(p);
        in.checksum_status = status;
        g->Handle(0, std::move(in), 1, out);
        ASSERT_EQ(out.frames.size(), 1u);
        const auto& f = out.frames[0];
        EXPECT_EQ(f.interface, 1u);
        ASSERT_EQ(f.bytes.size(), sent.size());
        EXPECT_EQ(f.bytes[v4 ? 8 : 7], 8);  // TTL / Hop Limit 9 -> 8.
        EXPECT_TRUE(!v4 || testing::IPv4HeaderValid(f.bytes, 0));
        const size_t t = v4 ? 20 : 40;
        EXPECT_TRUE(std::equal(f.bytes.begin() + t, f.bytes.end(),
                               sent.begin() + t));
        EXPECT_EQ(f.checksum_status, status);
        if (partial) {
          EXPECT_EQ(f.csum_start, t);
          EXPECT_EQ(testing::PseudoSum(f.bytes, false),
                    LoadBig16(&f.bytes[f.csum_start + f.csum_offset]));
        } else {
          EXPECT_EQ(TransportSum(f.bytes, false), 0xffff);
        }
        const Counters& c = g->counters();
        EXPECT_EQ(c.forwarded, 1u);
        EXPECT_EQ(c.TotalDropped(), 0u);
        EXPECT_EQ(c.verified_software, status == ChecksumStatus::kNone);
      }
    }
  }
}

// Software verification catches one flipped bit anywhere in the checksummed
// bytes; a trusted state (kPartial, kUnnecessary) forwards it.
TEST(GatewayTest, DropsBadChecksumsByReasonOnlyWhenSummedInSoftware) {
  struct Case {
    bool v4;
    int kind;  // 0 TCP, 1 UDP, 2 ICMP echo
  };
  for (Case k : {Case{true, 0}, Case{true, 1}, Case{true, 2}, Case{false, 0},
                 Case{false, 1}, Case{false, 2}}) {
    const tcpip::Route r = k.v4 ? RouteV4("10.1.0.2", "10.3.1.1")
                                : RouteV6("fd01::2", "fd03::7");
    const std::vector<uint8_t> payload = Bytes(301);
    PacketBuffer p = k.kind == 0   ? testing::Tcp(r, 1, 2, payload, false)
                     : k.kind == 1 ? testing::Udp(r, 1, 2, payload, false)
                                   : testing::Echo(r, true, 7, 1, payload);
    std::vector<uint8_t> bytes = p.Flatten();
    const size_t t = k.v4 ? 20 : 40;
    for (size_t at : {t + 1, bytes.size() - 1, t + 8 + 150}) {
      for (ChecksumStatus status :
           {ChecksumStatus::kNone, ChecksumStatus::kUnnecessary}) {
        std::vector<uint8_t> bad = bytes;
        bad[at] ^= 0x10;
        PacketBuffer in =
            PacketBuffer::FromFrame(buffer::Buffer::Copy(bad));
        in.checksum_status = status;
        auto g = Make(TwoLinks());
        CaptureOutput out;
        g->Handle(0, std::move(in), 1, out);
        const Counters& c = g->counters();
        if (status == ChecksumStatus::kNone) {
          EXPECT_TRUE(out.frames.empty());
          const Drop want =
              k.kind == 2 ? Drop::kBadICMPChecksum : Drop::kBadTransportChecksum;
          EXPECT_EQ(c.Dropped(want), 1u) << k.v4 << k.kind << " at " << at;
          EXPECT_EQ(c.TotalDropped(), 1u);
        } else {
          EXPECT_EQ(out.frames.size(), 1u);
          EXPECT_EQ(c.verified_trusted, 1u);
        }
      }
    }
  }
  // The IPv4 header checksum is verified whatever the transport's state.
  PacketBuffer p = testing::Tcp(RouteV4("10.1.0.2", "10.3.1.1"), 1, 2,
                                Bytes(10), true);
  std::vector<uint8_t> bad = p.Flatten();
  bad[4] ^= 1;  // Identification.
  PacketBuffer in = PacketBuffer::FromFrame(buffer::Buffer::Copy(bad));
  in.checksum_status = ChecksumStatus::kPartial;
  in.csum_start = 20;
  in.csum_offset = 16;
  auto g = Make(TwoLinks());
  CaptureOutput out;
  g->Handle(0, std::move(in), 1, out);
  EXPECT_EQ(g->counters().Dropped(Drop::kBadIPChecksum), 1u);
}

TEST(GatewayTest, RejectsOffloadMetadataThatLies) {
  PacketBuffer p = testing::Tcp(RouteV4("10.1.0.2", "10.3.1.1"), 1, 2,
                                Bytes(100), true);
  for (int lie = 0; lie < 3; ++lie) {
    PacketBuffer in = Received(p);
    if (lie == 0) in.csum_start = 4;  // In the IP header.
    if (lie == 1) in.csum_offset = 200;  // Past the end.
    if (lie == 2) {
      in.gso_type = tcpip::GsoType::kTCPv6;  // IPv4 packet.
      in.gso_size = 50;
    }
    auto g = Make(TwoLinks());
    CaptureOutput out;
    g->Handle(0, std::move(in), 1, out);
    EXPECT_TRUE(out.frames.empty());
    EXPECT_EQ(g->counters().Dropped(Drop::kBadOffloadMetadata), 1u) << lie;
  }
}

// TTL 1: ICMP Time Exceeded to the sender, from the ingress address,
// quoting the packet as received, with valid checksums.
TEST(GatewayTest, AnswersTimeExceededQuotingThePacket) {
  for (bool v4 : {true, false}) {
    auto g = Make(TwoLinks());
    CaptureOutput out;
    const tcpip::Route r = v4 ? RouteV4("10.1.0.2", "10.3.1.1", 1)
                              : RouteV6("fd01::2", "fd03::7", 1);
    PacketBuffer p = testing::Udp(r, 4000, 33434, Bytes(2000), false);
    const std::vector<uint8_t> sent = p.Flatten();
    g->Handle(0, Received(p), 1, out);
    ASSERT_EQ(out.frames.size(), 1u);
    const auto& f = out.frames[0];
    EXPECT_EQ(f.interface, 0u);
    EXPECT_EQ(TransportSum(f.bytes, false), 0xffff);
    const size_t t = v4 ? 20 : 40;
    if (v4) {
      EXPECT_TRUE(testing::IPv4HeaderValid(f.bytes, 0));
      EXPECT_EQ(f.bytes.size(), 576u);
      EXPECT_EQ(f.bytes[9], header::kProtocolICMPv4);
      EXPECT_EQ(header::IPv4Address::From(&f.bytes[12]), V4("10.1.0.1"));
      EXPECT_EQ(header::IPv4Address::From(&f.bytes[16]), V4("10.1.0.2"));
      EXPECT_EQ(f.bytes[t], header::kICMPv4TimeExceeded);
    } else {
      EXPECT_EQ(f.bytes.size(), 1280u);
      EXPECT_EQ(f.bytes[6], header::kProtocolICMPv6);
      EXPECT_EQ(header::IPv6Address::From(&f.bytes[8]), V6("fd01::1"));
      EXPECT_EQ(header::IPv6Address::From(&f.bytes[24]), V6("fd01::2"));
      EXPECT_EQ(f.bytes[t], header::kICMPv6TimeExceeded);
    }
    EXPECT_EQ(f.bytes[t + 1], 0);
    EXPECT_TRUE(std::equal(f.bytes.begin() + t + 8, f.bytes.end(),
                           sent.begin()));
    const Counters& c = g->counters();
    EXPECT_EQ(c.Dropped(Drop::kTTLExceeded), 1u);
    EXPECT_EQ(c.icmp_time_exceeded, 1u);
  }
}

TEST(GatewayTest, SendsNoIcmpErrorAboutAnIcmpErrorAndLimitsTheRate) {
  Config config = TwoLinks();
  config.icmp_error_burst = 2;
  config.icmp_errors_per_second = 1;
  auto g = Make(config);
  CaptureOutput out;
  const tcpip::Route r = RouteV4("10.1.0.2", "10.3.1.1", 1);
  for (int i = 0; i < 4; ++i) {
    g->Handle(0, Received(testing::Udp(r, 1, 2, Bytes(8), false)), 1000, out);
  }
  EXPECT_EQ(out.frames.size(), 2u);  // The burst.
  EXPECT_EQ(g->counters().icmp_rate_limited, 2u);
  g->Handle(0, Received(testing::Udp(r, 1, 2, Bytes(8), false)),
            1000 + 1000000000ull, out);
  EXPECT_EQ(out.frames.size(), 3u);  // One more a second later.
  // A Time Exceeded arriving with TTL 1 gets none back.
  std::vector<uint8_t> te = out.frames[0].bytes;
  te[16] = 10, te[17] = 3, te[18] = 1, te[19] = 1;  // To 10.3.1.1...
  te[8] = 1;                                      // ...TTL 1.
  PacketBuffer in = PacketBuffer::FromFrame(buffer::Buffer::Copy(te));
  auto g2 = Make(TwoLinks());
  CaptureOutput out2;
  // Its IP checksum is now wrong: recompute with the header package.
  std::span<uint8_t> bytes = te;
  auto ip = header::MutableIPv4::Parse(bytes);
  ip->UpdateChecksum();
  g2->Handle(0, PacketBuffer::FromFrame(buffer::Buffer::Copy(te)), 1, out2);
  EXPECT_TRUE(out2.frames.empty());
  EXPECT_EQ(g2->counters().Dropped(Drop::kTTLExceeded), 1u);
}

TEST(GatewayTest, AnswersEchoToItsOwnAddresses) {
  for (bool v4 : {true, false}) {
    auto g = Make(TwoLinks());
    CaptureOutput out;
    const tcpip::Route r =
        v4 ? RouteV4("10.1.0.2", "10.2.0.1") : RouteV6("fd01::2", "fd02::1");
    g->Handle(0, Received(testing::Echo(r, true, 0x1234, 9, Bytes(56))), 1,
              out);
    ASSERT_EQ(out.frames.size(), 1u);
    const auto& f = out.frames[0];
    EXPECT_EQ(f.interface, 0u);
    EXPECT_EQ(TransportSum(f.bytes, false), 0xffff);
    const size_t t = v4 ? 20 : 40;
    EXPECT_EQ(f.bytes[t], v4 ? header::kICMPv4EchoReply
                             : header::kICMPv6EchoReply);
    EXPECT_EQ(LoadBig16(&f.bytes[t + 4]), 0x1234);
    EXPECT_TRUE(!v4 || testing::IPv4HeaderValid(f.bytes, 0));
    EXPECT_EQ(g->counters().icmp_echo_replies, 1u);
    // Anything else to the gateway is dropped as local.
    g->Handle(0, Received(testing::Udp(r, 1, 2, Bytes(8), false)), 1, out);
    EXPECT_EQ(g->counters().Dropped(Drop::kLocal), 1u);
  }
}

TEST(GatewayTest, DropsWhatHasNoRouteOrMustNotBeForwarded) {
  auto g = Make(TwoLinks());
  CaptureOutput out;
  g->Handle(0, Received(testing::Udp(RouteV4("10.1.0.2", "192.0.2.1"), 1, 2,
                                     Bytes(8), false)),
            1, out);
  g->Handle(0, Received(testing::Udp(RouteV6("fd01::2", "2001:db8::1"), 1, 2,
                                     Bytes(8), false)),
            1, out);
  EXPECT_EQ(g->counters().Dropped(Drop::kNoRoute), 2u);
  g->Handle(0, Received(testing::Udp(RouteV6("fe80::1", "fd03::1"), 1, 2,
                                     Bytes(8), false)),
            1, out);
  g->Handle(0, Received(testing::Udp(RouteV4("10.1.0.2", "127.0.0.1"), 1, 2,
                                     Bytes(8), false)),
            1, out);
  EXPECT_EQ(g->counters().Dropped(Drop::kNotForwardable), 2u);
  EXPECT_EQ(g->counters().multicast, 0u);
  EXPECT_TRUE(out.frames.empty());
}

// Multicast and limited broadcast are the link's own traffic (the kernel
// sends MLD reports and router solicitations on every interface it brings
// up): received, not forwarded, and not counted as drops.
TEST(GatewayTest, ReceivesMulticastAndBroadcastWithoutForwardingOrDropping) {
  auto g = Make(TwoLinks());
  CaptureOutput out;
  const tcpip::Route routes[] = {
      RouteV4("10.1.0.2", "224.0.0.5"),
      RouteV4("0.0.0.0", "255.255.255.255"),  // DHCP discovery
      RouteV6("fe80::1", "ff02::16"),         // an MLDv2 report
      RouteV6("fd01::2", "ff05::1:3"),        // site-local scope
  };
  for (const tcpip::Route& r : routes) {
    g->Handle(0, Received(testing::Udp(r, 68, 67, Bytes(8), false)), 1, out);
  }
  EXPECT_EQ(g->counters().multicast, 4u);
  EXPECT_EQ(g->counters().TotalDropped(), 0u);
  EXPECT_EQ(g->counters().received, 4u);
  EXPECT_TRUE(out.frames.empty());
  EXPECT_NE(FormatCounters(g->counters(), {"in", "out"}).find("multicast 4\n"),
            std::string::npos);
}

TEST(GatewayTest, TooBigForTheEgressMtuGetsFragmentationNeeded) {
  Config config = TwoLinks();
  config.interfaces[1].mtu = 1280;
  auto g = Make(config);
  CaptureOutput out;
  g->Handle(0, Received(testing::Tcp(RouteV4("10.1.0.2", "10.3.1.1"), 1, 2,
                                     Bytes(1400), false)),
            1, out);
  ASSERT_EQ(out.frames.size(), 1u);
  const auto& f = out.frames[0];
  EXPECT_EQ(f.bytes[20], header::kICMPv4DestinationUnreachable);
  EXPECT_EQ(f.bytes[21], header::kICMPv4FragmentationNeeded);
  EXPECT_EQ(LoadBig16(&f.bytes[26]), 1280);
  EXPECT_EQ(TransportSum(f.bytes, false), 0xffff);
  g->Handle(0, Received(testing::Tcp(RouteV6("fd01::2", "fd03::1"), 1, 2,
                                     Bytes(1400), false)),
            1, out);
  ASSERT_EQ(out.frames.size(), 2u);
  EXPECT_EQ(out.frames[1].bytes[40], header::kICMPv6PacketTooBig);
  EXPECT_EQ(LoadBig32(&out.frames[1].bytes[44]), 1280u);
  EXPECT_EQ(TransportSum(out.frames[1].bytes, false), 0xffff);
  EXPECT_EQ(g->counters().Dropped(Drop::kTooBig), 2u);
}

// A TSO packet travels whole, its metadata intact; an MSS over the egress
// MTU is too big.
TEST(GatewayTest, ForwardsGsoPacketsWhole) {
  for (bool v4 : {true, false}) {
    auto g = Make(TwoLinks());
    CaptureOutput out;
    const tcpip::Route r =
        v4 ? RouteV4("10.1.0.2", "10.3.1.1") : RouteV6("fd01::2", "fd03::1");
    tcpip::LinkCapabilities tso;
    tso.tx_checksum_offload = true;
    tso.tso_max_size = 65535;
    std::vector<PacketBuffer> pkts;
    tcpip::TCPSegment s;
    s.source_port = 1;
    s.destination_port = 2;
    s.flags = 0x18;
    ASSERT_EQ(tcpip::SendTCP(r, s, 1400, tso,
                             buffer::Buffer::Copy(Bytes(60000)), pkts),
              tcpip::EncodeError::kOk);
    ASSERT_EQ(pkts.size(), 1u);
    g->Handle(0, Received(pkts[0]), 1, out);
    ASSERT_EQ(out.frames.size(), 1u);
    EXPECT_EQ(out.frames[0].gso_type, pkts[0].gso_type);
    EXPECT_EQ(out.frames[0].gso_size, 1400);
    EXPECT_EQ(out.frames[0].bytes.size(), pkts[0].size());
    EXPECT_EQ(g->counters().gso_forwarded, 1u);
  }
}

// The fault option: every Nth software-verified frame gets a bit flipped
// before verification, and exactly those are dropped.
TEST(GatewayTest, FaultBeforeVerificationIsDroppedExactly) {
  Config config = TwoLinks();
  config.fault.flip_before = 3;
  auto g = Make(config);
  CaptureOutput out;
  for (int i = 0; i < 30; ++i) {
    const tcpip::Route r = i % 2 ? RouteV4("10.1.0.2", "10.3.1.1")
                                 : RouteV6("fd01::2", "fd03::1");
    PacketBuffer p = i % 3 == 0
                         ? testing::Tcp(r, 1, 2, Bytes(i * 10), false)
                         : testing::Udp(r, 1, 2, Bytes(i * 10), false);
    g->Handle(0, Received(p), 1, out);
  }
  const Counters& c = g->counters();
  EXPECT_EQ(c.faults_before, 10u);
  EXPECT_EQ(c.TotalDropped(), 10u);
  EXPECT_EQ(c.Dropped(Drop::kBadTransportChecksum), 10u);
  EXPECT_EQ(out.frames.size(), 20u);
}

TEST(GatewayTest, FaultAfterVerificationBreaksTheForwardedChecksum) {
  Config config = TwoLinks();
  config.fault.flip_after = 2;
  auto g = Make(config);
  CaptureOutput out;
  for (int i = 0; i < 10; ++i) {
    g->Handle(0, Received(testing::Tcp(RouteV4("10.1.0.2", "10.3.1.1"), 1, 2,
                                       Bytes(i * 7), false)),
              1, out);
  }
  ASSERT_EQ(out.frames.size(), 10u);
  int bad = 0;
  for (const auto& f : out.frames) bad += TransportSum(f.bytes, false) != 0xffff;
  EXPECT_EQ(bad, 5);
  EXPECT_EQ(g->counters().faults_after, 5u);
}

TEST(GatewayTest, CountsAFullEgressQueue) {
  auto g = Make(TwoLinks());
  CaptureOutput out;
  out.accept = false;
  g->Handle(0, Received(testing::Udp(RouteV4("10.1.0.2", "10.3.1.1"), 1, 2,
                                     Bytes(8), false)),
            1, out);
  const Counters& c = g->counters();
  EXPECT_EQ(c.Dropped(Drop::kEgressFull), 1u);
  EXPECT_EQ(c.forwarded, 0u);
}

// TAP: ARP for the gateway's address is answered; a packet to an unknown
// neighbour waits for its ARP reply and then leaves with its MAC.
TEST(GatewayTapTest, AnswersArpAndResolvesNeighbors) {
  auto g = Make(TwoLinks(LinkMode::kTap));
  CaptureOutput out;
  const header::MacAddress host{{0x02, 0xaa, 0, 0, 0, 0x02}};
  auto arp = [](uint16_t op, const header::MacAddress& from_mac,
                const char* from, const header::MacAddress& to_mac,
                const char* to) {
    std::vector<uint8_t> f(14 + 28, 0);
    to_mac.CopyTo(&f[0]);
    from_mac.CopyTo(&f[6]);
    StoreBig16(&f[12], header::kEtherTypeARP);
    StoreBig16(&f[14], 1);
    StoreBig16(&f[16], 0x0800);
    f[18] = 6, f[19] = 4;
    StoreBig16(&f[20], op);
    from_mac.CopyTo(&f[22]);
    V4(from).CopyTo(&f[28]);
    V4(to).CopyTo(&f[38]);
    return PacketBuffer::FromFrame(buffer::Buffer::Copy(f));
  };
  const header::MacAddress broadcast{{0xff, 0xff, 0xff, 0xff, 0xff, 0xff}};
  g->Handle(0, arp(1, host, "10.1.0.2", broadcast, "10.1.0.1"), 1, out);
  ASSERT_EQ(out.frames.size(), 1u);
  const auto& reply = out.frames[0].bytes;
  EXPECT_EQ(header::MacAddress::From(&reply[0]), host);
  EXPECT_EQ(header::MacAddress::From(&reply[6]),
            g->config().interfaces[0].mac);
  EXPECT_EQ(LoadBig16(&reply[20]), 2);
  EXPECT_EQ(header::MacAddress::From(&reply[22]),
            g->config().interfaces[0].mac);
  EXPECT_EQ(header::IPv4Address::From(&reply[28]), V4("10.1.0.1"));
  EXPECT_EQ(header::IPv4Address::From(&reply[38]), V4("10.1.0.2"));

  // 10.1.0.2 -> 10.3.1.1 via 10.2.0.2 on "out", whose MAC is unknown.
  tcpip::Route r = RouteV4("10.1.0.2", "10.3.1.1");
  header::EthernetFields eth;
  eth.destination = g->config().interfaces[0].mac;
  eth.source = host;
  r.ethernet = eth;
  g->Handle(0, Received(testing::Udp(r, 1, 2, Bytes(100), false)), 1, out);
  ASSERT_EQ(out.frames.size(), 2u);  // The ARP request.
  EXPECT_EQ(out.frames[1].interface, 1u);
  EXPECT_EQ(LoadBig16(&out.frames[1].bytes[12]), header::kEtherTypeARP);
  EXPECT_EQ(header::IPv4Address::From(&out.frames[1].bytes[38]),
            V4("10.2.0.2"));
  const header::MacAddress router{{0x02, 0xbb, 0, 0, 0, 0x02}};
  g->Handle(1, arp(2, router, "10.2.0.2", g->config().interfaces[1].mac,
                   "10.2.0.1"),
            2, out);
  ASSERT_EQ(out.frames.size(), 3u);
  const auto& fwd = out.frames[2];
  EXPECT_EQ(fwd.interface, 1u);
  EXPECT_EQ(header::MacAddress::From(&fwd.bytes[0]), router);
  EXPECT_EQ(header::MacAddress::From(&fwd.bytes[6]),
            g->config().interfaces[1].mac);
  EXPECT_EQ(TransportSum(fwd.bytes, true), 0xffff);
  EXPECT_EQ(g->counters().neighbors_learned, 2u);
  EXPECT_EQ(g->counters().forwarded, 1u);
}

TEST(GatewayTapTest, GivesUpOnSilentNeighborsAndBoundsTheQueue) {
  Config config = TwoLinks(LinkMode::kTap);
  config.neighbor_queue = 2;
  auto g = Make(config);
  CaptureOutput out;
  tcpip::Route r = RouteV6("fd01::2", "fd03::1");
  header::EthernetFields eth;
  eth.destination = g->config().interfaces[0].mac;
  eth.source.bytes = {0x02, 0xaa, 0, 0, 0, 2};
  r.ethernet = eth;
  for (int i = 0; i < 4; ++i) {
    g->Handle(0, Received(testing::Udp(r, 1, 2, Bytes(10), false)), 1, out);
  }
  ASSERT_EQ(out.frames.size(), 1u);  // One NS, to the solicited node.
  const auto& ns = out.frames[0].bytes;
  EXPECT_EQ(ns[0], 0x33);
  EXPECT_EQ(ns[14 + 40], header::kICMPv6NeighborSolicitation);
  EXPECT_EQ(TransportSum(ns, true), 0xffff);
  EXPECT_EQ(g->counters().Dropped(Drop::kNeighborQueueFull), 2u);
  for (uint64_t s = 1; s <= 4; ++s) g->Tick(s * 1100000000ull, out);
  EXPECT_EQ(out.frames.size(), 3u);  // Two more NS, then it gives up.
  EXPECT_EQ(g->counters().Dropped(Drop::kNeighborUnreachable), 2u);
}

TEST(GatewayTapTest, BoundsTheNeighborTable) {
  Config config = TwoLinks(LinkMode::kTap);
  config.max_neighbors = 2;
  auto g = Make(config);
  CaptureOutput out;
  for (const char* to : {"10.2.0.7", "10.2.0.8", "10.2.0.9", "10.2.0.7"}) {
    tcpip::Route r = RouteV4("10.1.0.2", to);
    header::EthernetFields eth;
    eth.destination = g->config().interfaces[0].mac;
    eth.source.bytes = {0x02, 0xaa, 0, 0, 0, 2};
    r.ethernet = eth;
    g->Handle(0, Received(testing::Udp(r, 1, 2, Bytes(10), false)), 1, out);
  }
  EXPECT_EQ(g->counters().arp_requests, 2u);
  EXPECT_EQ(g->counters().Dropped(Drop::kNeighborQueueFull), 1u);
}

TEST(GatewayTapTest, AnswersNeighborSolicitation) {
  auto g = Make(TwoLinks(LinkMode::kTap));
  CaptureOutput out;
  // An NS for fd01::1 from fd01::2, built with the header package by way
  // of a solicitation the gateway itself sends (the same format).
  const header::MacAddress host{{0x02, 0xaa, 0, 0, 0, 2}};
  std::vector<uint8_t> f(14 + 40 + 32, 0);
  header::MacAddress{{0x33, 0x33, 0xff, 0, 0, 1}}.CopyTo(&f[0]);
  host.CopyTo(&f[6]);
  StoreBig16(&f[12], header::kEtherTypeIPv6);
  header::IPv6Fields ip;
  ip.payload_length = 32;
  ip.next_header = header::kProtocolICMPv6;
  ip.hop_limit = 255;
  ip.source = V6("fd01::2");
  ip.destination = V6("ff02::1:ff00:1");
  header::IPv6::Encode(ip, std::span(f).subspan(14));
  uint8_t* icmp = &f[54];
  icmp[0] = header::kICMPv6NeighborSolicitation;
  V6("fd01::1").CopyTo(icmp + 8);
  icmp[24] = 1, icmp[25] = 1;
  host.CopyTo(icmp + 26);
  const uint16_t sum = testing::TransportSum(f, true);  // Field still 0.
  StoreBig16(icmp + 2, static_cast<uint16_t>(~sum));
  ASSERT_EQ(TransportSum(f, true), 0xffff);
  g->Handle(0, PacketBuffer::FromFrame(buffer::Buffer::Copy(f)), 1, out);
  ASSERT_EQ(out.frames.size(), 1u);
  const auto& na = out.frames[0].bytes;
  EXPECT_EQ(header::MacAddress::From(&na[0]), host);
  EXPECT_EQ(na[14 + 7], 255);
  EXPECT_EQ(na[54], header::kICMPv6NeighborAdvertisement);
  EXPECT_EQ(na[58] & 0x60, 0x60);  // Solicited, Override.
  EXPECT_EQ(header::IPv6Address::From(&na[62]), V6("fd01::1"));
  EXPECT_EQ(na[78], 2);  // Target link-layer address option.
  EXPECT_EQ(header::MacAddress::From(&na[80]), g->config().interfaces[0].mac);
  EXPECT_EQ(TransportSum(na, true), 0xffff);
  EXPECT_EQ(g->counters().nd_advertisements, 1u);
  EXPECT_EQ(g->counters().neighbors_learned, 1u);
}

// Frames for another MAC, and other EtherTypes, are counted and dropped.
TEST(GatewayTapTest, DropsFramesNotForUs) {
  auto g = Make(TwoLinks(LinkMode::kTap));
  CaptureOutput out;
  tcpip::Route r = RouteV4("10.1.0.2", "10.3.1.1");
  header::EthernetFields eth;
  eth.destination.bytes = {0x02, 9, 9, 9, 9, 9};
  r.ethernet = eth;
  g->Handle(0, Received(testing::Udp(r, 1, 2, Bytes(10), false)), 1, out);
  std::vector<uint8_t> lldp(60, 0);
  lldp[0] = 0x01;  // Multicast.
  StoreBig16(&lldp[12], 0x88cc);
  g->Handle(0, PacketBuffer::FromFrame(buffer::Buffer::Copy(lldp)), 1, out);
  EXPECT_EQ(g->counters().Dropped(Drop::kNotForUs), 1u);
  EXPECT_EQ(g->counters().Dropped(Drop::kNotIP), 1u);
  EXPECT_TRUE(out.frames.empty());
}

// TUN in, TAP out: the partial checksum's csum_start moves with the
// Ethernet header the packet gains.
TEST(GatewayTapTest, PartialChecksumStartFollowsTheLinkHeader) {
  Config config = TwoLinks();
  config.interfaces[1].mode = LinkMode::kTap;
  auto g = Make(config);
  CaptureOutput out;
  // Learn the next hop first.
  std::vector<uint8_t> f(14 + 28, 0);
  config.interfaces[1].mac.CopyTo(&f[0]);
  const header::MacAddress router{{0x02, 0xbb, 0, 0, 0, 2}};
  router.CopyTo(&f[6]);
  StoreBig16(&f[12], header::kEtherTypeARP);
  StoreBig16(&f[14], 1);
  StoreBig16(&f[16], 0x0800);
  f[18] = 6, f[19] = 4;
  StoreBig16(&f[20], 1);
  router.CopyTo(&f[22]);
  V4("10.2.0.2").CopyTo(&f[28]);
  V4("10.2.0.1").CopyTo(&f[38]);
  g->Handle(1, PacketBuffer::FromFrame(buffer::Buffer::Copy(f)), 1, out);
  ASSERT_EQ(out.frames.size(), 1u);
  PacketBuffer p = testing::Tcp(RouteV4("10.1.0.2", "10.3.1.1"), 1, 2,
                                Bytes(500), true);
  g->Handle(0, Received(p), 1, out);
  ASSERT_EQ(out.frames.size(), 2u);
  EXPECT_EQ(out.frames[1].csum_start, 14u + 20u);
  EXPECT_EQ(testing::PseudoSum(out.frames[1].bytes, true),
            LoadBig16(&out.frames[1].bytes[14 + 20 + 16]));
}

TEST(CountersTest, FormatsTextAndJson) {
  auto g = Make(TwoLinks());
  CaptureOutput out;
  g->Handle(0, Received(testing::Udp(RouteV4("10.1.0.2", "10.3.1.1"), 1, 2,
                                     Bytes(8), false)),
            1, out);
  const std::string text = FormatCounters(g->counters(), {"in", "out"});
  EXPECT_NE(text.find("forwarded 1\n"), std::string::npos);
  EXPECT_NE(text.find("drop_bad_transport_checksum 0\n"), std::string::npos);
  EXPECT_NE(text.find("out.tx_frames 1\n"), std::string::npos);
  const std::string json = FormatCountersJson(g->counters(), {"in", "out"});
  EXPECT_EQ(json.front(), '{');
  EXPECT_NE(json.find("\"forwarded\":1,"), std::string::npos);
  EXPECT_NE(json.find("\"in.rx_frames\":1"), std::string::npos);
}

}  // namespace
}  // namespace ipsum::gateway
