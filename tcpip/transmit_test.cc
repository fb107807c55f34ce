// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Tests for the TCP/UDP encoders: every frame is checked against the
// reference checksum and hand-written offsets of tcpip/internal/testing.h,
// in software mode and in the offload form (then resolved as a NIC would).

#include "tcpip/transmit.h"

#include <cstdint>
#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "header/tcp.h"
#include "tcpip/internal/testing.h"
#include "tcpip/packet_buffer.h"

namespace ipsum::tcpip {
namespace {

using testing::MakePayload;
using testing::MakeRoute;
using testing::RandomBytes;
using testing::ReferenceLayout;
using testing::ReferencePseudoSum;
using testing::ReferenceSum;
using testing::ReferenceTransportSum;

uint16_t Load16(const std::vector<uint8_t>& b, size_t i) {
  return static_cast<uint16_t>((b[i] << 8) | b[i + 1]);
}
uint32_t Load32(const std::vector<uint8_t>& b, size_t i) {
  return (uint32_t{Load16(b, i)} << 16) | Load16(b, i + 2);
}

TCPSegment MakeSegment() {
  TCPSegment s;
  s.source_port = 40000;
  s.destination_port = 443;
  s.seq = 0xfffffff0;
  s.ack = 0x01020304;
  s.flags = header::kTCPFlagAck | header::kTCPFlagPsh;
  s.window = 29200;
  s.options.timestamps = header::TCPTimestamps{123456, 654321};
  s.ip_id = 0xbeef;
  return s;
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
      for (int tags = 0; tags <= 2; ++tags)
        cases.push_back({n, tcp, true, tags});
    }
  }
  return cases;
}

EncodeError EncodeCase(const Case& c, const LinkCapabilities& link,
                       PacketBuffer& pkt) {
  Route r = MakeRoute(c.network, c.ethernet, c.tags);
  if (c.tcp) return EncodeTCP(r, MakeSegment(), link, pkt);
  UDPDatagram d;
  d.source_port = 5353;
  d.destination_port = 53;
  d.ip_id = 7;
  return EncodeUDP(r, d, link, pkt);
}

TEST(EncodeTest, SoftwareChecksumMatchesReference) {
  std::mt19937 rng(42);
  for (const Case& c : AllCases()) {
    for (size_t size : {0, 1, 2, 3, 17, 255, 1000, 1460, 1461}) {
      for (size_t views : {1, 3}) {
        std::vector<uint8_t> payload = RandomBytes(rng, size);
        PacketBuffer pkt(MakePayload(payload, views));
        ASSERT_EQ(EncodeCase(c, LinkCapabilities{}, pkt), EncodeError::kOk);
        EXPECT_EQ(pkt.checksum_status, ChecksumStatus::kNone);
        std::vector<uint8_t> f = pkt.Flatten();
        testing::FrameLayout l = ReferenceLayout(f, c.ethernet);
        SCOPED_TRACE(::testing::Message()
                     << "v4=" << l.v4 << " tcp=" << c.tcp << " eth="
                     << c.ethernet << " tags=" << c.tags << " size=" << size);
        EXPECT_EQ(l.end, f.size());
        EXPECT_EQ(l.v4, c.network == NetworkProtocol::kIPv4);
        EXPECT_EQ(l.protocol, c.tcp ? 6 : 17);
        EXPECT_EQ(ReferenceTransportSum(f, c.ethernet), 0xffff);
        if (l.v4) {
          EXPECT_EQ(ReferenceSum(std::span(f).subspan(l.network_offset, 20)),
                    0xffff);
          EXPECT_EQ(Load16(f, l.network_offset + 4), c.tcp ? 0xbeef : 7);
          EXPECT_EQ(f[l.network_offset + 8], 61);           // TTL
          EXPECT_EQ(f[l.network_offset + 6] & 0x40, 0x40);  // DF
        } else {
          EXPECT_EQ(Load32(f, l.network_offset) & 0xfffff, 0x12345u);
          EXPECT_EQ(f[l.network_offset + 7], 61);  // Hop Limit
        }
        size_t t = l.transport_offset;
        size_t header = c.tcp ? static_cast<size_t>(f[t + 12] >> 4) * 4 : 8;
        if (c.tcp) {
          EXPECT_EQ(Load16(f, t), 40000);
          EXPECT_EQ(Load32(f, t + 4), 0xfffffff0u);
          EXPECT_EQ(Load32(f, t + 8), 0x01020304u);
          EXPECT_EQ(f[t + 13], header::kTCPFlagAck | header::kTCPFlagPsh);
          EXPECT_EQ(header, 32u);  // 20 + NOP NOP Timestamps
          EXPECT_EQ(f[t + 22], header::kTCPOptionTimestamps);
          EXPECT_EQ(Load32(f, t + 24), 123456u);
        } else {
          EXPECT_EQ(Load16(f, t + 4), 8 + size);
          EXPECT_NE(Load16(f, t + 6), 0);
        }
        EXPECT_EQ(std::vector<uint8_t>(f.begin() + t + header, f.end()),
                  payload);
        EXPECT_EQ(pkt.HeaderOffset(Layer::kTransport), t);
        EXPECT_EQ(pkt.HeaderOffset(Layer::kNetwork), l.network_offset);
      }
    }
  }
}

TEST(EncodeTest, PayloadIsNotCopied) {
  std::mt19937 rng(1);
  std::vector<uint8_t> bytes = RandomBytes(rng, 1500);
  buffer::Buffer payload = MakePayload(bytes, 3);
  buffer::Buffer keep = payload.Clone();
  for (bool offload : {false, true}) {
    PacketBuffer pkt(payload.Clone());
    LinkCapabilities link;
    link.tx_checksum_offload = offload;
    ASSERT_EQ(
        EncodeTCP(MakeRoute(NetworkProtocol::kIPv4), MakeSegment(), link, pkt),
        EncodeError::kOk);
    ASSERT_EQ(pkt.data().view_count(), 3u);
    for (size_t i = 0; i < 3; ++i) {
      EXPECT_TRUE(pkt.data().views()[i].SharesChunkWith(keep.views()[i]));
    }
  }
}

TEST(EncodeTest, OffloadCarriesPseudoHeaderSumAndResolvesToSoftware) {
  std::mt19937 rng(7);
  LinkCapabilities offload;
  offload.tx_checksum_offload = true;
  for (const Case& c : AllCases()) {
    for (size_t size : {0, 1, 7, 1460}) {
      std::vector<uint8_t> payload = RandomBytes(rng, size);
      PacketBuffer soft(MakePayload(payload, 3));
      ASSERT_EQ(EncodeCase(c, LinkCapabilities{}, soft), EncodeError::kOk);
      PacketBuffer part(MakePayload(payload, 3));
      ASSERT_EQ(EncodeCase(c, offload, part), EncodeError::kOk);
      std::vector<uint8_t> f = part.Flatten();
      testing::FrameLayout l = ReferenceLayout(f, c.ethernet);
      EXPECT_EQ(part.checksum_status, ChecksumStatus::kPartial);
      EXPECT_EQ(part.csum_start, l.transport_offset);
      EXPECT_EQ(part.csum_offset, c.tcp ? 16 : 6);
      // Linux CHECKSUM_PARTIAL: the pseudo-header's sum, not complemented.
      EXPECT_EQ(Load16(f, l.transport_offset + part.csum_offset),
                ReferencePseudoSum(f, c.ethernet));
      ASSERT_TRUE(ResolvePartialChecksum(part));
      EXPECT_EQ(part.checksum_status, ChecksumStatus::kNone);
      EXPECT_EQ(part.Flatten(), soft.Flatten());
      EXPECT_FALSE(ResolvePartialChecksum(part));  // No longer partial.
    }
  }
}

TEST(EncodeTest, ResolveRejectsOffsetsOutsideThePacket) {
  LinkCapabilities offload;
  offload.tx_checksum_offload = true;
  PacketBuffer pkt(MakePayload(std::vector<uint8_t>(10, 1), 1));
  ASSERT_EQ(
      EncodeTCP(MakeRoute(NetworkProtocol::kIPv4), MakeSegment(), offload, pkt),
      EncodeError::kOk);
  std::vector<uint8_t> before = pkt.Flatten();
  pkt.csum_start = static_cast<uint32_t>(pkt.size() + 1);
  EXPECT_FALSE(ResolvePartialChecksum(pkt));
  pkt.csum_start = static_cast<uint32_t>(pkt.size() - 1);  // Field past end.
  EXPECT_FALSE(ResolvePartialChecksum(pkt));
  pkt.csum_start = 0;
  pkt.csum_offset = 0xffff;
  EXPECT_FALSE(ResolvePartialChecksum(pkt));
  EXPECT_EQ(pkt.Flatten(), before);
  EXPECT_EQ(pkt.checksum_status, ChecksumStatus::kPartial);
}

// A datagram whose checksum computes to 0 is sent with 0xffff (RFC 768).
TEST(EncodeTest, UDPComputedZeroIsSentAsOnes) {
  for (NetworkProtocol n : {NetworkProtocol::kIPv4, NetworkProtocol::kIPv6}) {
    for (bool offload : {false, true}) {
      // Choose the last payload word so that everything sums to 0xffff.
      std::vector<uint8_t> payload = {1, 2, 3, 4, 0, 0};
      UDPDatagram d;
      d.source_port = 1;
      d.destination_port = 2;
      PacketBuffer probe(MakePayload(payload, 1));
      ASSERT_EQ(EncodeUDP(MakeRoute(n, false), d, LinkCapabilities{}, probe),
                EncodeError::kOk);
      std::vector<uint8_t> f = probe.Flatten();
      testing::FrameLayout l = ReferenceLayout(f, false);
      f[l.transport_offset + 6] = f[l.transport_offset + 7] = 0;
      uint16_t rest = ReferenceTransportSum(f, false);
      uint16_t word = static_cast<uint16_t>(~rest);
      payload[4] = static_cast<uint8_t>(word >> 8);
      payload[5] = static_cast<uint8_t>(word);
      PacketBuffer pkt(MakePayload(payload, 2));
      LinkCapabilities link;
      link.tx_checksum_offload = offload;
      ASSERT_EQ(EncodeUDP(MakeRoute(n, false), d, link, pkt), EncodeError::kOk);
      if (offload) {
        ASSERT_TRUE(ResolvePartialChecksum(pkt));
      }
      std::vector<uint8_t> g = pkt.Flatten();
      EXPECT_EQ(Load16(g, l.transport_offset + 6), 0xffff);
      EXPECT_EQ(ReferenceTransportSum(g, false), 0xffff);
    }
  }
}

TEST(EncodeTest, UDPWithoutChecksumIPv4OnlyNeverOverIPv6) {
  UDPDatagram d;
  d.no_checksum = true;
  PacketBuffer v4(MakePayload(std::vector<uint8_t>(5, 9), 1));
  ASSERT_EQ(
      EncodeUDP(MakeRoute(NetworkProtocol::kIPv4), d, LinkCapabilities{}, v4),
      EncodeError::kOk);
  std::vector<uint8_t> f = v4.Flatten();
  EXPECT_EQ(Load16(f, 34 + 6), 0);
  PacketBuffer v6(MakePayload(std::vector<uint8_t>(5, 9), 1));
  EXPECT_EQ(
      EncodeUDP(MakeRoute(NetworkProtocol::kIPv6), d, LinkCapabilities{}, v6),
      EncodeError::kBadField);
  EXPECT_EQ(v6.size(), 5u);  // Unchanged.
}

TEST(EncodeTest, ErrorsLeaveThePacketUnchanged) {
  LinkCapabilities link;
  // IPv4: 20 + 20 (TCP, no options) + payload must fit 65535.
  TCPSegment plain;
  {
    PacketBuffer ok(MakePayload(std::vector<uint8_t>(65535 - 40, 0), 4));
    EXPECT_EQ(EncodeTCP(MakeRoute(NetworkProtocol::kIPv4), plain, link, ok),
              EncodeError::kOk);
    PacketBuffer big(MakePayload(std::vector<uint8_t>(65535 - 39, 0), 4));
    EXPECT_EQ(EncodeTCP(MakeRoute(NetworkProtocol::kIPv4), plain, link, big),
              EncodeError::kTooLarge);
    EXPECT_TRUE(big.headers().empty());
    // IPv6 Payload Length excludes the fixed header.
    PacketBuffer v6(MakePayload(std::vector<uint8_t>(65535 - 20, 0), 4));
    EXPECT_EQ(EncodeTCP(MakeRoute(NetworkProtocol::kIPv6), plain, link, v6),
              EncodeError::kOk);
  }
  {
    PacketBuffer small(MakePayload(std::vector<uint8_t>(10, 0), 1), 40);
    EXPECT_EQ(
        EncodeTCP(MakeRoute(NetworkProtocol::kIPv4, false), plain, link, small),
        EncodeError::kOk);
    PacketBuffer smaller(MakePayload(std::vector<uint8_t>(10, 0), 1), 39);
    EXPECT_EQ(EncodeTCP(MakeRoute(NetworkProtocol::kIPv4, false), plain, link,
                        smaller),
              EncodeError::kNoHeadroom);
    EXPECT_TRUE(smaller.headers().empty());
  }
  {
    Route r = MakeRoute(NetworkProtocol::kIPv4, true, 1);
    r.ethernet->tags[0].vid = 5000;
    PacketBuffer pkt(MakePayload(std::vector<uint8_t>(10, 0), 1));
    EXPECT_EQ(EncodeTCP(r, plain, link, pkt), EncodeError::kBadField);
    EXPECT_TRUE(pkt.headers().empty());
  }
  {
    TCPSegment s;
    s.options.mss = 1460;
    s.options.timestamps = header::TCPTimestamps{1, 2};
    s.options.sack_block_count = 4;  // 12 + 2 + 34 > 40
    PacketBuffer pkt(MakePayload(std::vector<uint8_t>(10, 0), 1));
    EXPECT_EQ(EncodeTCP(MakeRoute(NetworkProtocol::kIPv4), s, link, pkt),
              EncodeError::kBadField);
    EXPECT_TRUE(pkt.headers().empty());
  }
  {
    Route r = MakeRoute(NetworkProtocol::kIPv6);
    r.flow_label = 0x100000;
    PacketBuffer pkt(MakePayload(std::vector<uint8_t>(10, 0), 1));
    EXPECT_EQ(EncodeTCP(r, plain, link, pkt), EncodeError::kBadField);
    r.network = NetworkProtocol::kNone;
    EXPECT_EQ(EncodeTCP(r, plain, link, pkt), EncodeError::kBadField);
  }
  EXPECT_EQ(ToString(EncodeError::kTooLarge), "too large");
}

TEST(EncodeTest, TCPOptionsAreEncodedByTheHeaderPackage) {
  TCPSegment s = MakeSegment();
  s.flags = header::kTCPFlagSyn;
  s.options = {};
  s.options.mss = 1460;
  s.options.window_scale = 7;
  s.options.sack_permitted = true;
  PacketBuffer pkt(buffer::Buffer{});
  ASSERT_EQ(EncodeTCP(MakeRoute(NetworkProtocol::kIPv4, false), s,
                      LinkCapabilities{}, pkt),
            EncodeError::kOk);
  std::vector<uint8_t> f = pkt.Flatten();
  size_t t = 20;
  size_t data_offset = static_cast<size_t>(f[t + 12] >> 4) * 4;
  ASSERT_EQ(data_offset, 20 + header::TCPOptionsSize(s.options));
  header::Result<header::TCPOptions> parsed =
      header::ParseTCPOptions(std::span(f).subspan(t + 20, data_offset - 20));
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(*parsed, s.options);
  // MSS first (RFC 9293 section 3.2: kind 2, length 4).
  EXPECT_EQ(f[t + 20], 2);
  EXPECT_EQ(f[t + 21], 4);
  EXPECT_EQ(Load16(f, t + 22), 1460);
  EXPECT_EQ(ReferenceTransportSum(f, false), 0xffff);
}

}  // namespace
}  // namespace ipsum::tcpip
