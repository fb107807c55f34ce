// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Tests for the receive path: encode -> decode round trips in every TX and
// RX offload mode; CHECKSUM_COMPLETE verification agreeing with software
// verification on random (and corrupted) frames, including transports that
// sum to one's-complement zero; and a generated set of malformed and
// truncated frames, each dropped with its own counter.

#include "tcpip/receive.h"

#include <cstdint>
#include <functional>
#include <random>
#include <vector>

#include "checksum/endian.h"
#include "gtest/gtest.h"
#include "header/tcp.h"
#include "tcpip/internal/testing.h"
#include "tcpip/transmit.h"

namespace ipsum::tcpip {
namespace {

using testing::MakePayload;
using testing::MakeRoute;
using testing::RandomBytes;
using testing::ReferenceLayout;
using testing::ReferenceSum;
using testing::ReferenceTransportSum;
using Bytes = std::vector<uint8_t>;

TCPSegment MakeSegment() {
  TCPSegment s;
  s.source_port = 40000;
  s.destination_port = 443;
  s.seq = 0x80000001;
  s.ack = 0x7fffffff;
  s.flags = header::kTCPFlagAck | header::kTCPFlagPsh;
  s.window = 512;
  s.options.timestamps = header::TCPTimestamps{11, 22};
  s.options.sack_block_count = 1;
  s.options.sack_blocks[0] = header::SackBlock{100, 200};
  return s;
}

// Encode returns the frame bytes of a TCP or UDP packet carrying `payload`,
// with the transport checksum complete (resolved when `offload`).
Bytes Encode(const Route& route, bool tcp, const Bytes& payload,
             bool offload = false) {
  LinkCapabilities link;
  link.tx_checksum_offload = offload;
  PacketBuffer pkt(MakePayload(payload, 3));
  EncodeError e;
  if (tcp) {
    e = EncodeTCP(route, MakeSegment(), link, pkt);
  } else {
    UDPDatagram d;
    d.source_port = 5353;
    d.destination_port = 53;
    e = EncodeUDP(route, d, link, pkt);
  }
  EXPECT_EQ(e, EncodeError::kOk);
  if (offload) {
    EXPECT_TRUE(ResolvePartialChecksum(pkt));
  }
  return pkt.Flatten();
}

enum class Rx { kNone, kUnnecessary, kComplete };

// Frame makes the received packet for `bytes` (in `views` views) in RX
// state `rx`; for kComplete the NIC's sum starts at `csum_start`.
PacketBuffer Frame(const Bytes& bytes, Rx rx, size_t csum_start = 0,
                   size_t views = 3) {
  PacketBuffer pkt = PacketBuffer::FromFrame(MakePayload(bytes, views));
  if (rx == Rx::kUnnecessary) {
    pkt.checksum_status = ChecksumStatus::kUnnecessary;
  } else if (rx == Rx::kComplete) {
    pkt.checksum_status = ChecksumStatus::kComplete;
    pkt.csum_start = static_cast<uint32_t>(csum_start);
    if (csum_start <= bytes.size()) {
      pkt.csum = ReferenceSum(std::span(bytes).subspan(csum_start));
    }
  }
  return pkt;
}

struct Case {
  NetworkProtocol network;
  bool tcp;
  bool ethernet;
  int tags;
};

std::vector<Case> AllCases() {
  std::vector<Case> cases;
  for (NetworkProtocol n : {NetworkProtocol::kIPv4, NetworkProtocol::kIPv6}) {
    for (bool tcp : {true, false}) {
      cases.push_back({n, tcp, false, 0});
      for (int tags = 0; tags <= 2; ++tags) {
        cases.push_back({n, tcp, true, tags});
      }
    }
  }
  return cases;
}

TEST(ReceiveTest, RoundTripInEveryOffloadMode) {
  std::mt19937 rng(5);
  for (const Case& c : AllCases()) {
    Route route = MakeRoute(c.network, c.ethernet, c.tags);
    for (size_t size : {0, 1, 5, 6, 100, 1460, 1461}) {
      for (bool offload : {false, true}) {
        Bytes payload = RandomBytes(rng, size);
        Bytes f = Encode(route, c.tcp, payload, offload);
        // Short Ethernet frames are padded to 60 bytes, with junk.
        if (c.ethernet && f.size() < 60) {
          Bytes pad = RandomBytes(rng, 60 - f.size());
          f.insert(f.end(), pad.begin(), pad.end());
        }
        size_t t = ReferenceLayout(f, c.ethernet).transport_offset;
        for (Rx rx : {Rx::kNone, Rx::kUnnecessary, Rx::kComplete}) {
          for (size_t cs : {size_t{0}, size_t{1}, size_t{14}, t - 1, t}) {
            if (rx != Rx::kComplete && cs != 0) continue;
            SCOPED_TRACE(::testing::Message()
                         << "v" << static_cast<int>(c.network) << " tcp="
                         << c.tcp << " eth=" << c.ethernet << " tags=" << c.tags
                         << " size=" << size << " offload=" << offload
                         << " rx=" << static_cast<int>(rx) << " cs=" << cs);
            ReceiveStats stats;
            std::optional<ReceivedPacket> r = Receive(
                Frame(f, rx, cs),
                c.ethernet ? LinkType::kEthernet : LinkType::kIP, stats);
            ASSERT_TRUE(r.has_value());
            EXPECT_EQ(stats.delivered, 1u);
            EXPECT_EQ(stats.TotalDropped(), 0u);
            EXPECT_TRUE(r->checksum_verified);
            EXPECT_FALSE(r->is_fragment);
            EXPECT_EQ(r->packet.data().Flatten(), payload);
            EXPECT_EQ(r->packet.network_protocol, c.network);
            EXPECT_EQ(
                r->packet.transport_protocol,
                c.tcp ? TransportProtocol::kTCP : TransportProtocol::kUDP);
            EXPECT_EQ(r->parsed.vlan_count, c.tags);
            if (c.network == NetworkProtocol::kIPv4) {
              EXPECT_EQ(r->source_v4, route.source_v4);
              EXPECT_EQ(r->destination_v4, route.destination_v4);
            } else {
              EXPECT_EQ(r->source_v6, route.source_v6);
              EXPECT_EQ(r->destination_v6, route.destination_v6);
            }
            if (c.tcp) {
              TCPSegment s = MakeSegment();
              ASSERT_TRUE(r->tcp.has_value());
              EXPECT_EQ(r->source_port, s.source_port);
              EXPECT_EQ(r->destination_port, s.destination_port);
              EXPECT_EQ(r->tcp->seq, s.seq);
              EXPECT_EQ(r->tcp->ack, s.ack);
              EXPECT_EQ(r->tcp->flags, s.flags);
              EXPECT_EQ(r->tcp->window, s.window);
              EXPECT_EQ(r->tcp->options, s.options);
            } else {
              EXPECT_FALSE(r->tcp.has_value());
              EXPECT_EQ(r->source_port, 5353);
              EXPECT_EQ(r->destination_port, 53);
            }
            EXPECT_EQ(stats.checksum_software, rx == Rx::kNone ? 1u : 0u);
            EXPECT_EQ(stats.checksum_unnecessary,
                      rx == Rx::kUnnecessary ? 1u : 0u);
            EXPECT_EQ(stats.checksum_complete, rx == Rx::kComplete ? 1u : 0u);
          }
        }
      }
    }
  }
}

TEST(ReceiveTest, InPlaceReuseMatchesReceive) {
  // One ReceivedPacket reused for every case in turn, after a dropped
  // frame too: each result must equal Receive's for the same frame, so no
  // field may carry over from the packet before (a TCP header after a UDP
  // datagram, IPv4 addresses after IPv6).
  std::mt19937 rng(6);
  ReceivedPacket reused;
  ReceiveStats in_place_stats, stats;
  int round = 0;
  for (int pass = 0; pass < 2; ++pass) {
    for (const Case& c : AllCases()) {
      SCOPED_TRACE(::testing::Message()
                   << "v" << static_cast<int>(c.network) << " tcp=" << c.tcp
                   << " eth=" << c.ethernet << " tags=" << c.tags);
      Route route = MakeRoute(c.network, c.ethernet, c.tags);
      Bytes f = Encode(route, c.tcp, RandomBytes(rng, 300 + round));
      const LinkType link = c.ethernet ? LinkType::kEthernet : LinkType::kIP;
      if (++round % 3 == 0) {
        // A frame cut inside its headers in between: dropped.
        reused.packet = Frame(Bytes(f.begin(), f.begin() + 30), Rx::kNone);
        EXPECT_FALSE(ReceiveInPlace(reused, link, in_place_stats));
      }
      reused.packet = Frame(f, Rx::kNone);
      ASSERT_TRUE(ReceiveInPlace(reused, link, in_place_stats));
      std::optional<ReceivedPacket> r =
          Receive(Frame(f, Rx::kNone), link, stats);
      ASSERT_TRUE(r.has_value());
      EXPECT_EQ(reused.packet.data().Flatten(), r->packet.data().Flatten());
      EXPECT_EQ(reused.packet.headers().size(), r->packet.headers().size());
      EXPECT_EQ(reused.source_v4, r->source_v4);
      EXPECT_EQ(reused.destination_v4, r->destination_v4);
      EXPECT_EQ(reused.source_v6, r->source_v6);
      EXPECT_EQ(reused.destination_v6, r->destination_v6);
      EXPECT_EQ(reused.is_fragment, r->is_fragment);
      EXPECT_EQ(reused.checksum_verified, r->checksum_verified);
      EXPECT_EQ(reused.source_port, r->source_port);
      EXPECT_EQ(reused.destination_port, r->destination_port);
      ASSERT_EQ(reused.tcp.has_value(), r->tcp.has_value());
      if (r->tcp) {
        EXPECT_EQ(reused.tcp->seq, r->tcp->seq);
        EXPECT_EQ(reused.tcp->options, r->tcp->options);
      }
      EXPECT_EQ(reused.parsed.transport_offset, r->parsed.transport_offset);
      EXPECT_EQ(reused.parsed.vlan_count, r->parsed.vlan_count);
    }
  }
  EXPECT_EQ(in_place_stats.delivered, stats.delivered);
  EXPECT_EQ(in_place_stats.received,
            stats.received + in_place_stats.TotalDropped());
}

// FixIPv4Checksum recomputes the IPv4 header checksum at `off`.
void FixIPv4Checksum(Bytes& f, size_t off) {
  size_t ihl = size_t{f[off] & 0xfu} * 4;
  f[off + 10] = f[off + 11] = 0;
  uint16_t c = static_cast<uint16_t>(
      ~ReferenceSum(std::span(f).subspan(off, std::min(ihl, f.size() - off))));
  f[off + 10] = static_cast<uint8_t>(c >> 8);
  f[off + 11] = static_cast<uint8_t>(c);
}

// Verdict is what Receive did with a frame.
struct Verdict {
  bool delivered;
  int reason;  // -1 when delivered
  friend bool operator==(const Verdict&, const Verdict&) = default;
};

Verdict Judge(PacketBuffer pkt, LinkType link) {
  ReceiveStats stats;
  std::optional<ReceivedPacket> r = Receive(std::move(pkt), link, stats);
  EXPECT_EQ(stats.received, stats.delivered + stats.TotalDropped());
  if (r) return {true, -1};
  for (size_t i = 0; i < kDropReasonCount; ++i) {
    if (stats.dropped[i]) return {false, static_cast<int>(i)};
  }
  return {false, -2};
}

TEST(ReceiveTest, CompleteAgreesWithSoftwareOnRandomFrames) {
  std::mt19937 rng(11);
  int corrupted = 0, delivered = 0;
  for (int i = 0; i < 3000; ++i) {
    Case c = AllCases()[rng() % AllCases().size()];
    Route route = MakeRoute(c.network, c.ethernet, c.tags);
    size_t size = rng() % 200;
    Bytes payload;
    switch (rng() % 4) {
      case 0:  // Sums to 0x0000.
        payload.assign(size, 0);
        break;
      case 1:  // Sums to 0xffff.
        payload.assign(size & ~size_t{1}, 0xff);
        break;
      default:
        payload = RandomBytes(rng, size);
    }
    Bytes f = Encode(route, c.tcp, payload);
    if (c.ethernet && f.size() < 60) f.resize(60, static_cast<uint8_t>(rng()));
    testing::FrameLayout l = ReferenceLayout(f, c.ethernet);
    if (rng() % 2) {
      // Corrupt a transport byte (header or payload).
      size_t at = l.transport_offset + rng() % (l.end - l.transport_offset);
      f[at] ^= static_cast<uint8_t>(1 + rng() % 255);
      ++corrupted;
    }
    size_t cs = rng() % (l.transport_offset + 1);
    size_t views = 1 + rng() % 4;
    LinkType link = c.ethernet ? LinkType::kEthernet : LinkType::kIP;
    Verdict none = Judge(Frame(f, Rx::kNone, 0, views), link);
    Verdict complete = Judge(Frame(f, Rx::kComplete, cs, views), link);
    EXPECT_EQ(none, complete) << i << " cs=" << cs;
    if (none.delivered) ++delivered;
  }
  EXPECT_GT(corrupted, 1000);
  EXPECT_GT(delivered, 1000);
}

// The transport's bytes sum to one's-complement zero exactly when the
// pseudo-header does: then the headers pulled in front of the transport sum
// to the NIC's whole total, and the subtraction leaves 0xffff (or 0x0000).
// Build such frames by choosing the source address.
TEST(ReceiveTest, CompleteWhenPulledSumEqualsTotal) {
  for (bool tcp : {true, false}) {
    for (NetworkProtocol n : {NetworkProtocol::kIPv4, NetworkProtocol::kIPv6}) {
      for (size_t size : {0, 1, 2, 64}) {
        for (uint8_t fill : {0x00, 0xff, 0x5a}) {
          Route route = MakeRoute(n, true);
          Bytes payload(size, fill);
          // Pseudo-header sum with the source's last word zero, then
          // choose that word to bring it to 0xffff.
          std::span<uint8_t> src =
              n == NetworkProtocol::kIPv4
                  ? std::span<uint8_t>(route.source_v4.bytes)
                  : std::span<uint8_t>(route.source_v6.bytes);
          src[src.size() - 2] = src[src.size() - 1] = 0;
          Bytes f = Encode(route, tcp, payload);
          uint16_t pseudo = testing::ReferencePseudoSum(f, true);
          uint16_t word = static_cast<uint16_t>(~pseudo);
          src[src.size() - 2] = static_cast<uint8_t>(word >> 8);
          src[src.size() - 1] = static_cast<uint8_t>(word);
          f = Encode(route, tcp, payload);
          ASSERT_EQ(testing::ReferencePseudoSum(f, true), 0xffff);
          testing::FrameLayout l = ReferenceLayout(f, true);
          // The transport's own sum is then one's-complement zero.
          uint16_t transport = ReferenceSum(std::span(f).subspan(
              l.transport_offset, l.end - l.transport_offset));
          ASSERT_TRUE(transport == 0xffff || transport == 0);
          for (size_t cs : {size_t{0}, size_t{14}, l.transport_offset}) {
            ReceiveStats stats;
            auto r = Receive(Frame(f, Rx::kComplete, cs), LinkType::kEthernet,
                             stats);
            EXPECT_TRUE(r.has_value())
                << tcp << " " << size << " " << int{fill} << " " << cs;
            EXPECT_EQ(stats.checksum_complete, 1u);
          }
          // And a corrupted one still fails.
          f[l.end - 1] ^= 1;
          ReceiveStats stats;
          EXPECT_FALSE(
              Receive(Frame(f, Rx::kComplete, 0), LinkType::kEthernet, stats));
          EXPECT_EQ(stats.Dropped(DropReason::kBadTransportChecksum), 1u);
        }
      }
    }
  }
}

TEST(ReceiveTest, CompleteStartIsBoundsChecked) {
  Bytes f = Encode(MakeRoute(NetworkProtocol::kIPv4), true, Bytes(100, 3));
  ReceiveStats stats;
  EXPECT_FALSE(Receive(Frame(f, Rx::kComplete, f.size() + 1),
                       LinkType::kEthernet, stats));
  EXPECT_FALSE(Receive(Frame(f, Rx::kComplete, size_t{0xffffffff}),
                       LinkType::kEthernet, stats));
  EXPECT_EQ(stats.Dropped(DropReason::kBadOffloadMetadata), 2u);
  // A start inside the transport: the sum cannot be used; software decides.
  auto r = Receive(Frame(f, Rx::kComplete, 60), LinkType::kEthernet, stats);
  EXPECT_TRUE(r.has_value());
  EXPECT_EQ(stats.complete_fallback, 1u);
  EXPECT_EQ(stats.checksum_software, 1u);
  // At the very end: the NIC summed nothing; still software.
  r = Receive(Frame(f, Rx::kComplete, f.size()), LinkType::kEthernet, stats);
  EXPECT_TRUE(r.has_value());
  EXPECT_EQ(stats.complete_fallback, 2u);
}

// A malformed-frame case: a mutation of a good frame and the counter it
// must land in.
struct Bad {
  const char* name;
  NetworkProtocol network;
  bool tcp;
  std::function<void(Bytes&, const testing::FrameLayout&)> mutate;
  DropReason reason;
  Rx rx = Rx::kNone;
  size_t csum_start = 0;
};

TEST(ReceiveTest, EveryMalformedFrameIsDroppedWithItsCounter) {
  using L = testing::FrameLayout;
  const auto v4 = NetworkProtocol::kIPv4;
  const auto v6 = NetworkProtocol::kIPv6;
  std::vector<Bad> cases = {
      {"short ethernet", v4, true, [](Bytes& f, const L&) { f.resize(10); },
       DropReason::kTruncated},
      {"short ipv4 header", v4, true,
       [](Bytes& f, const L& l) { f.resize(l.network_offset + 19); },
       DropReason::kTruncated},
      {"short ipv6 header", v6, true,
       [](Bytes& f, const L& l) { f.resize(l.network_offset + 39); },
       DropReason::kTruncated},
      {"cut payload v4", v4, true, [](Bytes& f, const L&) { f.pop_back(); },
       DropReason::kTruncated},
      {"cut payload v6", v6, false, [](Bytes& f, const L&) { f.pop_back(); },
       DropReason::kTruncated},
      {"arp", v4, true, [](Bytes& f, const L&) { f[12] = 0x08, f[13] = 0x06; },
       DropReason::kUnsupported},
      {"three vlan tags", v4, true,
       [](Bytes& f, const L&) {
         Bytes tags = {0x88, 0xa8, 0, 1, 0x81, 0, 0, 2, 0x81, 0, 0, 3};
         f.insert(f.begin() + 12, tags.begin(), tags.end());
       },
       DropReason::kUnsupported},
      {"ip version 5", v4, true,
       [](Bytes& f, const L& l) { f[l.network_offset] = 0x55; },
       DropReason::kMalformed},
      {"version 6 in ipv4 ethertype", v4, true,
       [](Bytes& f, const L& l) { f[l.network_offset] = 0x65; },
       DropReason::kMalformed},
      {"ihl 4", v4, true,
       [](Bytes& f, const L& l) {
         f[l.network_offset] = 0x44;
         FixIPv4Checksum(f, l.network_offset);
       },
       DropReason::kMalformed},
      {"total length below ihl", v4, true,
       [](Bytes& f, const L& l) {
         f[l.network_offset + 2] = 0;
         f[l.network_offset + 3] = 19;
         FixIPv4Checksum(f, l.network_offset);
       },
       DropReason::kMalformed},
      {"ipv4 option length 0", v4, true,
       [](Bytes& f, const L& l) {
         Bytes opt = {7, 0, 0, 0};  // Record Route, length 0
         f.insert(f.begin() + l.network_offset + 20, opt.begin(), opt.end());
         f[l.network_offset] = 0x46;
         f[l.network_offset + 3] += 4;
         FixIPv4Checksum(f, l.network_offset);
       },
       DropReason::kMalformed},
      {"bad ipv4 header checksum", v4, true,
       [](Bytes& f, const L& l) { f[l.network_offset + 10] ^= 0x10; },
       DropReason::kBadIPChecksum},
      {"icmp", v4, true,
       [](Bytes& f, const L& l) {
         f[l.network_offset + 9] = 1;
         FixIPv4Checksum(f, l.network_offset);
       },
       DropReason::kUnsupported},
      {"tcp data offset 4", v4, true,
       [](Bytes& f, const L& l) { f[l.transport_offset + 12] = 0x40; },
       DropReason::kMalformed},
      {"tcp data offset past segment", v6, true,
       [](Bytes& f, const L& l) {
         f.resize(l.transport_offset + 20);
         f[l.network_offset + 5] = 20;  // Payload Length
         f[l.transport_offset + 12] = 0x60;
       },
       DropReason::kMalformed},
      {"tcp option length 0", v4, true,
       [](Bytes& f, const L& l) {
         f[l.transport_offset + 20] = 8;  // Timestamps kind where NOP was
         f[l.transport_offset + 21] = 0;
       },
       DropReason::kMalformed},
      {"tcp segment shorter than header", v4, true,
       [](Bytes& f, const L& l) {
         f.resize(l.transport_offset + 10);
         f[l.network_offset + 3] = 30;
         f[l.network_offset + 2] = 0;
         FixIPv4Checksum(f, l.network_offset);
       },
       DropReason::kMalformed},
      {"payload bit flip tcp v4", v4, true,
       [](Bytes& f, const L&) { f.back() ^= 0x80; },
       DropReason::kBadTransportChecksum},
      {"payload bit flip udp v6", v6, false,
       [](Bytes& f, const L&) { f.back() ^= 0x01; },
       DropReason::kBadTransportChecksum},
      {"address change v6", v6, true,
       [](Bytes& f, const L& l) { f[l.network_offset + 9] ^= 1; },
       DropReason::kBadTransportChecksum},
      {"bad checksum complete", v4, true,
       [](Bytes& f, const L&) { f.back() ^= 0x80; },
       DropReason::kBadTransportChecksum, Rx::kComplete, 14},
      {"udp length 7", v4, false,
       [](Bytes& f, const L& l) { f[l.transport_offset + 5] = 7; },
       DropReason::kMalformed},
      {"udp length past ip payload", v4, false,
       [](Bytes& f, const L& l) { f[l.transport_offset + 5] += 1; },
       DropReason::kMalformed},
      {"udp zero checksum over ipv6", v6, false,
       [](Bytes& f, const L& l) {
         f[l.transport_offset + 6] = f[l.transport_offset + 7] = 0;
       },
       DropReason::kUDPZeroChecksum},
      {"ipv6 payload length past frame", v6, true,
       [](Bytes& f, const L& l) { f[l.network_offset + 4] += 1; },
       DropReason::kTruncated},
      {"ipv6 extension past payload", v6, true,
       [](Bytes& f, const L& l) {
         f[l.network_offset + 6] = 60;  // Destination Options
         f[l.transport_offset + 1] = 200;
       },
       DropReason::kMalformed},
      {"ipv6 jumbogram", v6, true,
       [](Bytes& f, const L& l) {
         f[l.network_offset + 4] = f[l.network_offset + 5] = 0;
         f[l.network_offset + 6] = 0;
       },
       DropReason::kUnsupported},
      {"ipv6 routing header in transit", v6, true,
       [](Bytes& f, const L& l) {
         // Routing header, type 4, segments left 1, then TCP.
         Bytes rh = {6, 0, 4, 1, 0, 0, 0, 0};
         f.insert(f.begin() + l.transport_offset, rh.begin(), rh.end());
         f[l.network_offset + 6] = 43;
         f[l.network_offset + 5] += 8;
       },
       DropReason::kUnsupported},
      {"complete start past end", v4, true, [](Bytes&, const L&) {},
       DropReason::kBadOffloadMetadata, Rx::kComplete, 100000},
  };
  for (const Bad& b : cases) {
    Bytes f = Encode(MakeRoute(b.network, true), b.tcp, Bytes(40, 0x11));
    testing::FrameLayout l = ReferenceLayout(f, true);
    b.mutate(f, l);
    ReceiveStats stats;
    PacketBuffer pkt = Frame(f, b.rx, b.csum_start);
    if (b.rx == Rx::kComplete && b.csum_start > f.size()) {
      pkt.csum_start = static_cast<uint32_t>(b.csum_start);
    }
    EXPECT_FALSE(Receive(std::move(pkt), LinkType::kEthernet, stats)) << b.name;
    EXPECT_EQ(stats.Dropped(b.reason), 1u)
        << b.name << ": want " << ToString(b.reason);
    EXPECT_EQ(stats.TotalDropped(), 1u) << b.name;
    EXPECT_EQ(stats.delivered, 0u) << b.name;
  }
}

// TCPOptionsOf receives a TCP/IPv4 frame whose option area is `area` (a
// multiple of 4 bytes, in place of the encoder's) and returns the options
// Receive decoded, or nullopt if it dropped the frame.
std::optional<header::TCPOptions> TCPOptionsOf(const Bytes& area) {
  Bytes f = Encode(MakeRoute(NetworkProtocol::kIPv4), true, Bytes(7, 0x5a));
  testing::FrameLayout l = ReferenceLayout(f, true);
  const size_t t = l.transport_offset;
  const size_t old_offset = size_t{f[t + 12]} / 16 * 4;
  f.erase(f.begin() + static_cast<ptrdiff_t>(t + 20),
          f.begin() + static_cast<ptrdiff_t>(t + old_offset));
  f.insert(f.begin() + static_cast<ptrdiff_t>(t + 20), area.begin(),
           area.end());
  f[t + 12] = static_cast<uint8_t>(((20 + area.size()) / 4) << 4);
  StoreBig16(&f[l.network_offset + 2],
             static_cast<uint16_t>(f.size() - l.network_offset));
  FixIPv4Checksum(f, l.network_offset);
  f[t + 16] = f[t + 17] = 0;
  StoreBig16(&f[t + 16],
             static_cast<uint16_t>(~ReferenceTransportSum(f, true)));
  ReceiveStats stats;
  std::optional<ReceivedPacket> r =
      Receive(Frame(f, Rx::kNone), LinkType::kEthernet, stats);
  if (!r) {
    EXPECT_EQ(stats.Dropped(DropReason::kMalformed), 1u);
    return std::nullopt;
  }
  EXPECT_TRUE(r->checksum_verified);
  EXPECT_EQ(r->packet.data().Flatten(), Bytes(7, 0x5a));
  return r->tcp->options;
}

TEST(ReceiveTest, TCPOptionLayoutsAllParseTheSame) {
  header::TCPOptions ts;
  ts.timestamps = header::TCPTimestamps{0x01020304, 0xa0b0c0d0};
  // NOP NOP Timestamps (RFC 7323 Appendix A), read directly.
  EXPECT_EQ(TCPOptionsOf({1, 1, 8, 10, 1, 2, 3, 4, 0xa0, 0xb0, 0xc0, 0xd0}),
            ts);
  // Timestamps first, or after an End of Option List: the general parser.
  EXPECT_EQ(TCPOptionsOf({8, 10, 1, 2, 3, 4, 0xa0, 0xb0, 0xc0, 0xd0, 1, 1}),
            ts);
  EXPECT_EQ(TCPOptionsOf(
                {1, 1, 8, 10, 1, 2, 3, 4, 0xa0, 0xb0, 0xc0, 0xd0, 1, 1, 1, 0}),
            ts);
  EXPECT_EQ(TCPOptionsOf({}), header::TCPOptions{});
  // Near misses of the direct layout are judged by the general parser.
  EXPECT_EQ(TCPOptionsOf({1, 1, 8, 9, 1, 2, 3, 4, 0xa0, 0xb0, 0xc0, 0xd0}),
            std::nullopt);
  header::TCPOptions mss;
  mss.mss = 0x0a0b;
  EXPECT_EQ(TCPOptionsOf({1, 1, 2, 4, 0x0a, 0x0b, 0, 0, 0, 0, 0, 0}), mss);
}

TEST(ReceiveTest, UDPWithoutChecksumOverIPv4IsDeliveredUnchecked) {
  Bytes f = Encode(MakeRoute(NetworkProtocol::kIPv4), false, Bytes(9, 1));
  testing::FrameLayout l = ReferenceLayout(f, true);
  f[l.transport_offset + 6] = f[l.transport_offset + 7] = 0;
  f.back() ^= 0xff;  // Not checked, so not noticed.
  ReceiveStats stats;
  auto r = Receive(Frame(f, Rx::kNone), LinkType::kEthernet, stats);
  ASSERT_TRUE(r.has_value());
  EXPECT_FALSE(r->checksum_verified);
  EXPECT_EQ(stats.udp_no_checksum, 1u);
}

TEST(ReceiveTest, UDPShorterThanIPPayloadIsTrimmed) {
  // A UDP Length shorter than the IP payload: the rest is not the
  // datagram's and is not checksummed (RFC 768 pseudo-header length).
  for (Rx rx : {Rx::kNone, Rx::kComplete}) {
    Bytes f = Encode(MakeRoute(NetworkProtocol::kIPv4), false, Bytes(20, 7));
    testing::FrameLayout l = ReferenceLayout(f, true);
    f[l.transport_offset + 5] = 8 + 12;
    // The checksum covers the UDP Length's 20 bytes, not the IP payload.
    Bytes dgram(f.begin() + l.transport_offset,
                f.begin() + l.transport_offset + 20);
    dgram[6] = dgram[7] = 0;
    Bytes pseudo(f.begin() + l.network_offset + 12,
                 f.begin() + l.network_offset + 20);
    pseudo.insert(pseudo.end(), {0, 17, 0, 20});
    uint16_t c =
        static_cast<uint16_t>(~ReferenceSum(dgram, ReferenceSum(pseudo)));
    f[l.transport_offset + 6] = static_cast<uint8_t>(c >> 8);
    f[l.transport_offset + 7] = static_cast<uint8_t>(c);
    ReceiveStats stats;
    auto r = Receive(Frame(f, rx, 14), LinkType::kEthernet, stats);
    ASSERT_TRUE(r.has_value()) << static_cast<int>(rx);
    EXPECT_EQ(r->packet.data().size(), 12u);
  }
}

TEST(ReceiveTest, FragmentsAreHandedUpUnverified) {
  // IPv4: MF set on a datagram whose transport checksum is wrong for the
  // fragment; IPv6: a non-first fragment.
  // 44 bytes of TCP header + 36 of payload: a multiple of 8, as every
  // fragment but the last must be (RFC 791 section 3.2).
  Bytes f = Encode(MakeRoute(NetworkProtocol::kIPv4), true, Bytes(36, 1));
  testing::FrameLayout l = ReferenceLayout(f, true);
  f[l.network_offset + 6] = 0x20;  // MF, offset 0
  FixIPv4Checksum(f, l.network_offset);
  f.back() ^= 1;
  ReceiveStats stats;
  auto r = Receive(Frame(f, Rx::kNone), LinkType::kEthernet, stats);
  ASSERT_TRUE(r.has_value());
  EXPECT_TRUE(r->is_fragment);
  EXPECT_FALSE(r->checksum_verified);
  EXPECT_TRUE(r->parsed.is_first_fragment);
  EXPECT_EQ(r->packet.data().size(), 80u);  // TCP header + payload
  // Not a multiple of 8 with MF set: malformed.
  Bytes odd = Encode(MakeRoute(NetworkProtocol::kIPv4), true, Bytes(37, 1));
  odd[l.network_offset + 6] = 0x20;
  FixIPv4Checksum(odd, l.network_offset);
  EXPECT_FALSE(Receive(Frame(odd, Rx::kNone), LinkType::kEthernet, stats));
  EXPECT_EQ(stats.Dropped(DropReason::kMalformed), 1u);

  Bytes g = Encode(MakeRoute(NetworkProtocol::kIPv6), false, Bytes(16, 2));
  testing::FrameLayout m = ReferenceLayout(g, true);
  Bytes fh = {17, 0, 0x00, 0x08, 0, 0, 0, 9};  // offset 8, last
  g.insert(g.begin() + m.transport_offset, fh.begin(), fh.end());
  g[m.network_offset + 6] = 44;
  g[m.network_offset + 5] += 8;
  r = Receive(Frame(g, Rx::kNone), LinkType::kEthernet, stats);
  ASSERT_TRUE(r.has_value());
  EXPECT_TRUE(r->is_fragment);
  EXPECT_FALSE(r->parsed.is_first_fragment);
  EXPECT_EQ(stats.fragments, 2u);
}

TEST(ReceiveTest, RandomDamageNeverEscapesTheCounters) {
  std::mt19937 rng(99);
  ReceiveStats stats;
  for (int i = 0; i < 4000; ++i) {
    Case c = AllCases()[rng() % AllCases().size()];
    Bytes f = Encode(MakeRoute(c.network, c.ethernet, c.tags), c.tcp,
                     RandomBytes(rng, rng() % 100));
    int damage = 1 + rng() % 4;
    for (int d = 0; d < damage; ++d) {
      switch (rng() % 3) {
        case 0:
          f[rng() % f.size()] = static_cast<uint8_t>(rng());
          break;
        case 1:
          f.resize(rng() % (f.size() + 1));
          break;
        default:
          f.push_back(static_cast<uint8_t>(rng()));
      }
      if (f.empty()) break;
    }
    Rx rx = static_cast<Rx>(rng() % 3);
    PacketBuffer pkt = Frame(f, rx, rng() % (f.size() + 2), 1 + rng() % 4);
    if (rx == Rx::kComplete) pkt.csum = static_cast<uint16_t>(rng());
    Receive(std::move(pkt), c.ethernet ? LinkType::kEthernet : LinkType::kIP,
            stats);
  }
  EXPECT_EQ(stats.received, 4000u);
  EXPECT_EQ(stats.received, stats.delivered + stats.TotalDropped());
  EXPECT_GT(stats.TotalDropped(), 1000u);
}

TEST(ReceiveTest, FrameInATransmitPacketOrWithHeadersConsumed) {
  Bytes f = Encode(MakeRoute(NetworkProtocol::kIPv6), true, Bytes(30, 4));
  ReceiveStats stats;
  // Built with the transmit constructor: all its header area reserved.
  EXPECT_TRUE(
      Receive(PacketBuffer(MakePayload(f, 2)), LinkType::kEthernet, stats));
  // Already partly consumed: not a frame.
  PacketBuffer consumed = PacketBuffer::FromFrame(MakePayload(f, 2));
  ASSERT_TRUE(consumed.Consume(Layer::kLink, 14));
  EXPECT_FALSE(Receive(std::move(consumed), LinkType::kIP, stats));
  EXPECT_EQ(stats.Dropped(DropReason::kUnsupported), 1u);
  EXPECT_EQ(stats.delivered, 1u);
}

TEST(ReceiveTest, DropReasonNames) {
  EXPECT_EQ(ToString(DropReason::kBadTransportChecksum),
            "bad transport checksum");
  EXPECT_EQ(ToString(DropReason::kUDPZeroChecksum),
            "UDP zero checksum over IPv6");
}

}  // namespace
}  // namespace ipsum::tcpip
