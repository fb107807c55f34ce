// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Tests for the parse step. Frames are built byte by byte here, from the
// RFC diagrams, not with the header package's encoders, so the test is an
// independent reference. Every prefix of every frame is parsed as well (the
// snaplen cut), and random bytes, under ASan in CI, to prove nothing is read
// outside the span.

#include "tcpip/parse.h"

#include <cstdint>
#include <random>
#include <vector>

#include "checksum/endian.h"
#include "gtest/gtest.h"

namespace ipsum::tcpip {
namespace {

using Bytes = std::vector<uint8_t>;

void Put16(Bytes& b, uint16_t v) {
  b.push_back(static_cast<uint8_t>(v >> 8));
  b.push_back(static_cast<uint8_t>(v));
}

void Put32(Bytes& b, uint32_t v) {
  Put16(b, static_cast<uint16_t>(v >> 16));
  Put16(b, static_cast<uint16_t>(v));
}

// EthernetHeader returns dst, src, then each (tpid, tci) tag, then `type`.
Bytes EthernetHeader(uint16_t type,
                     std::vector<std::pair<uint16_t, uint16_t>> tags = {}) {
  Bytes b = {0x02, 0, 0, 0, 0, 1, 0x02, 0, 0, 0, 0, 2};
  for (auto [tpid, tci] : tags) {
    Put16(b, tpid);
    Put16(b, tci);
  }
  Put16(b, type);
  return b;
}

// IPv4Header returns an RFC 791 header; `options` are appended as given and
// IHL counts them (padded to 4 by the caller). The checksum is left 0: the
// parse step does not look at it.
Bytes IPv4Header(uint16_t total_length, uint8_t protocol, uint16_t frag = 0,
                 Bytes options = {}, uint8_t ihl_override = 0) {
  size_t ihl = ihl_override ? ihl_override : (20 + options.size()) / 4;
  Bytes b;
  b.push_back(static_cast<uint8_t>(0x40 | ihl));
  b.push_back(0);
  Put16(b, total_length);
  Put16(b, 0x1234);  // ID
  Put16(b, frag);
  b.push_back(64);
  b.push_back(protocol);
  Put16(b, 0);
  Put32(b, 0xc0000201);
  Put32(b, 0xc0000202);
  b.insert(b.end(), options.begin(), options.end());
  return b;
}

// IPv6Header returns an RFC 8200 fixed header.
Bytes IPv6Header(uint16_t payload_length, uint8_t next_header) {
  Bytes b;
  Put32(b, 0x60000000);
  Put16(b, payload_length);
  b.push_back(next_header);
  b.push_back(64);
  for (int i = 0; i < 32; ++i) b.push_back(static_cast<uint8_t>(i));
  return b;
}

// ExtensionHeader returns an 8*(len8+1)-byte options/routing header.
Bytes ExtensionHeader(uint8_t next, uint8_t len8, uint8_t b2 = 0,
                      uint8_t b3 = 0) {
  Bytes b(8 * (size_t{len8} + 1), 0);
  b[0] = next;
  b[1] = len8;
  b[2] = b2;
  b[3] = b3;
  if (b.size() > 4) b[4] = 1;  // PadN covering the rest
  return b;
}

Bytes FragmentHeader(uint8_t next, uint32_t offset, bool more, uint32_t id) {
  Bytes b;
  b.push_back(next);
  b.push_back(0);
  Put16(b, static_cast<uint16_t>(offset | (more ? 1 : 0)));
  Put32(b, id);
  return b;
}

Bytes Cat(std::initializer_list<Bytes> parts) {
  Bytes out;
  for (const Bytes& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

Bytes Zeros(size_t n) { return Bytes(n, 0); }

TEST(ParseEthernet, IPv4TCPOffsets) {
  Bytes f = Cat({EthernetHeader(0x0800), IPv4Header(40 + 5, 6), Zeros(25)});
  ParsedPacket p = ParseEthernet(f);
  ASSERT_TRUE(p.ok()) << p.reason;
  EXPECT_TRUE(p.reason.empty());
  EXPECT_TRUE(p.has_ethernet);
  EXPECT_EQ(p.ether_type, 0x0800);
  EXPECT_EQ(p.vlan_count, 0);
  EXPECT_EQ(p.link_header_length, 14u);
  EXPECT_EQ(p.network, NetworkProtocol::kIPv4);
  EXPECT_EQ(p.network_offset, 14u);
  EXPECT_EQ(p.network_header_length, 20u);
  EXPECT_EQ(p.ip_length, 45u);
  EXPECT_EQ(p.captured_ip_bytes, 45u);
  EXPECT_EQ(p.trailing_bytes, 0u);
  EXPECT_FALSE(p.truncated);
  EXPECT_FALSE(p.is_fragment);
  EXPECT_FALSE(p.is_first_fragment);
  EXPECT_EQ(p.transport_protocol, 6);
  EXPECT_EQ(p.transport_offset, 34u);
  EXPECT_EQ(p.transport_length, 25u);
  EXPECT_TRUE(p.has_transport_header());
}

TEST(ParseEthernet, SingleVlanTag) {
  Bytes f = Cat({EthernetHeader(0x86dd, {{0x8100, 0xa00b}}), IPv6Header(8, 17),
                 Zeros(8)});
  ParsedPacket p = ParseEthernet(f);
  ASSERT_TRUE(p.ok()) << p.reason;
  EXPECT_EQ(p.vlan_count, 1);
  EXPECT_EQ(p.vlan_tpid[0], 0x8100);
  EXPECT_EQ(p.vlan_tci[0], 0xa00b);
  EXPECT_EQ(p.ether_type, 0x86dd);
  EXPECT_EQ(p.link_header_length, 18u);
  EXPECT_EQ(p.network, NetworkProtocol::kIPv6);
  EXPECT_EQ(p.network_offset, 18u);
  EXPECT_EQ(p.transport_offset, 58u);
  EXPECT_EQ(p.transport_protocol, 17);
  EXPECT_EQ(p.ip_length, 48u);
}

TEST(ParseEthernet, QinQTags) {
  Bytes f = Cat({EthernetHeader(0x0800, {{0x88a8, 0x0064}, {0x8100, 0x0005}}),
                 IPv4Header(28, 17), Zeros(8)});
  ParsedPacket p = ParseEthernet(f);
  ASSERT_TRUE(p.ok()) << p.reason;
  EXPECT_EQ(p.vlan_count, 2);
  EXPECT_EQ(p.vlan_tpid[0], 0x88a8);
  EXPECT_EQ(p.vlan_tci[0], 0x0064);
  EXPECT_EQ(p.vlan_tpid[1], 0x8100);
  EXPECT_EQ(p.vlan_tci[1], 0x0005);
  EXPECT_EQ(p.network_offset, 22u);
  EXPECT_EQ(p.transport_offset, 42u);
}

TEST(ParseEthernet, ThreeTagsUnsupported) {
  Bytes f =
      Cat({EthernetHeader(0x0800, {{0x88a8, 1}, {0x8100, 2}, {0x8100, 3}}),
           IPv4Header(20, 17)});
  ParsedPacket p = ParseEthernet(f);
  EXPECT_EQ(p.error, ParseError::kUnsupported);
  EXPECT_FALSE(p.reason.empty());
  EXPECT_EQ(p.network, NetworkProtocol::kNone);
}

TEST(ParseEthernet, OtherEtherTypeIsNoNetworkNotError) {
  Bytes f = Cat({EthernetHeader(0x0806), Zeros(28)});
  ParsedPacket p = ParseEthernet(f);
  EXPECT_TRUE(p.ok());
  EXPECT_EQ(p.ether_type, 0x0806);
  EXPECT_EQ(p.network, NetworkProtocol::kNone);
  EXPECT_FALSE(p.has_transport_header());
}

TEST(ParseEthernet, ShortHeaderAndTagTruncated) {
  Bytes f = EthernetHeader(0x0800);
  for (size_t n = 0; n < 14; ++n) {
    EXPECT_EQ(ParseEthernet(std::span(f).first(n)).error,
              ParseError::kTruncated);
  }
  Bytes tagged = EthernetHeader(0x0800, {{0x8100, 7}});
  for (size_t n = 14; n < 18; ++n) {
    ParsedPacket p = ParseEthernet(std::span(tagged).first(n));
    EXPECT_EQ(p.error, ParseError::kTruncated) << n;
  }
  // The tags are whole but no IP byte follows.
  ParsedPacket p = ParseEthernet(tagged);
  EXPECT_EQ(p.error, ParseError::kTruncated);
  EXPECT_EQ(p.network, NetworkProtocol::kIPv4);
  EXPECT_EQ(p.network_offset, 18u);
}

TEST(ParseEthernet, VersionMustMatchEtherType) {
  Bytes f = Cat({EthernetHeader(0x0800), IPv6Header(0, 59)});
  ParsedPacket p = ParseEthernet(f);
  EXPECT_EQ(p.error, ParseError::kMalformed);
  EXPECT_EQ(p.network, NetworkProtocol::kIPv4);
}

TEST(ParseEthernet, PaddingIsTrailingBytes) {
  // A 28-byte UDP/IPv4 datagram padded to the 60-byte Ethernet minimum.
  Bytes f =
      Cat({EthernetHeader(0x0800), IPv4Header(28, 17), Zeros(8), Zeros(18)});
  ParsedPacket p = ParseEthernet(f);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p.ip_length, 28u);
  EXPECT_EQ(p.captured_ip_bytes, 28u);
  EXPECT_EQ(p.trailing_bytes, 18u);
  EXPECT_FALSE(p.truncated);
  EXPECT_EQ(p.transport_length, 8u);
}

TEST(ParseIP, SnaplenCutIsTruncatedButDescribed) {
  Bytes d = Cat({IPv4Header(1500, 6), Zeros(1480)});
  ParsedPacket p = ParseIP(std::span(d).first(68));
  ASSERT_TRUE(p.ok()) << p.reason;
  EXPECT_TRUE(p.truncated);
  EXPECT_EQ(p.ip_length, 1500u);
  EXPECT_EQ(p.captured_ip_bytes, 68u);
  EXPECT_EQ(p.network_header_length, 20u);
  EXPECT_EQ(p.transport_offset, 20u);
  EXPECT_EQ(p.transport_length, 1480u);
  EXPECT_TRUE(p.has_transport_header());
}

TEST(ParseIP, IPv4HeaderCutIsAnError) {
  Bytes d = Cat({IPv4Header(40, 6), Zeros(20)});
  for (size_t n = 0; n < 20; ++n) {
    ParsedPacket p = ParseIP(std::span(d).first(n));
    EXPECT_EQ(p.error, ParseError::kTruncated) << n;
  }
}

TEST(ParseIP, IPv4OptionsCutIsAnErrorButLengthKnown) {
  Bytes opts = {1, 1, 1, 0};  // NOP NOP NOP EOL
  Bytes d = Cat({IPv4Header(44, 6, 0, opts), Zeros(20)});
  ParsedPacket whole = ParseIP(d);
  ASSERT_TRUE(whole.ok());
  EXPECT_EQ(whole.network_header_length, 24u);
  EXPECT_EQ(whole.transport_offset, 24u);
  EXPECT_EQ(whole.transport_length, 20u);
  ParsedPacket cut = ParseIP(std::span(d).first(22));
  EXPECT_EQ(cut.error, ParseError::kTruncated);
  EXPECT_EQ(cut.ip_length, 44u);
  EXPECT_TRUE(cut.truncated);
}

TEST(ParseIP, IPv4BadLengthsMalformed) {
  EXPECT_EQ(ParseIP(Cat({IPv4Header(40, 6, 0, {}, 4), Zeros(20)})).error,
            ParseError::kMalformed);  // IHL 4
  EXPECT_EQ(ParseIP(Cat({IPv4Header(19, 6), Zeros(20)})).error,
            ParseError::kMalformed);  // total < 20
  Bytes opts(8, 1);
  EXPECT_EQ(ParseIP(Cat({IPv4Header(24, 6, 0, opts), Zeros(20)})).error,
            ParseError::kMalformed);  // total 24 < IHL 28
}

TEST(ParseIP, BadVersionMalformed) {
  Bytes d = Cat({IPv4Header(20, 6)});
  d[0] = 0x55;
  ParsedPacket p = ParseIP(d);
  EXPECT_EQ(p.error, ParseError::kMalformed);
  EXPECT_EQ(p.network, NetworkProtocol::kNone);
  EXPECT_EQ(ParseIP({}).error, ParseError::kTruncated);
}

TEST(ParseIP, IPv4Fragments) {
  // MF set, offset 0: the first fragment.
  ParsedPacket first = ParseIP(Cat({IPv4Header(36, 17, 0x2000), Zeros(16)}));
  ASSERT_TRUE(first.ok());
  EXPECT_TRUE(first.is_fragment);
  EXPECT_TRUE(first.is_first_fragment);
  EXPECT_EQ(first.fragment_offset, 0u);
  EXPECT_EQ(first.fragment_id, 0x1234u);
  EXPECT_TRUE(first.has_transport_header());
  // Offset 16 bytes (2 units), MF clear: the last fragment.
  ParsedPacket last = ParseIP(Cat({IPv4Header(28, 17, 2), Zeros(8)}));
  ASSERT_TRUE(last.ok());
  EXPECT_TRUE(last.is_fragment);
  EXPECT_FALSE(last.is_first_fragment);
  EXPECT_EQ(last.fragment_offset, 16u);
  EXPECT_FALSE(last.has_transport_header());
  // DF alone is not a fragment.
  ParsedPacket df = ParseIP(Cat({IPv4Header(28, 17, 0x4000), Zeros(8)}));
  EXPECT_FALSE(df.is_fragment);
}

TEST(ParseIP, IPv6ExtensionChain) {
  // Hop-by-Hop (8), Routing (24, segments left 2), Destination Options
  // (16), Fragment (8, first fragment), then TCP.
  Bytes payload =
      Cat({ExtensionHeader(43, 0), ExtensionHeader(60, 2, 4, 2),
           ExtensionHeader(44, 1), FragmentHeader(6, 0, true, 77), Zeros(24)});
  Bytes d =
      Cat({IPv6Header(static_cast<uint16_t>(payload.size()), 0), payload});
  ParsedPacket p = ParseIP(d);
  ASSERT_TRUE(p.ok()) << p.reason;
  EXPECT_EQ(p.network, NetworkProtocol::kIPv6);
  EXPECT_EQ(p.ipv6_extension_count, 4);
  EXPECT_EQ(p.network_header_length, 40u + 8 + 24 + 16 + 8);
  EXPECT_EQ(p.transport_offset, 96u);
  EXPECT_EQ(p.transport_protocol, 6);
  EXPECT_EQ(p.transport_length, 24u);
  EXPECT_EQ(p.routing_header_offset, 48u);
  EXPECT_EQ(p.segments_left, 2);
  EXPECT_TRUE(p.is_fragment);
  EXPECT_TRUE(p.is_first_fragment);
  EXPECT_EQ(p.fragment_id, 77u);
  EXPECT_EQ(p.ip_length, d.size());
}

TEST(ParseIP, IPv6NonFirstFragmentStops) {
  // Offset 1448 bytes, last fragment; what follows is data that happens to
  // look like a Hop-by-Hop header.
  Bytes payload = Cat({FragmentHeader(0, 1448, false, 9), Zeros(16)});
  ParsedPacket p = ParseIP(
      Cat({IPv6Header(static_cast<uint16_t>(payload.size()), 44), payload}));
  ASSERT_TRUE(p.ok()) << p.reason;
  EXPECT_TRUE(p.is_fragment);
  EXPECT_FALSE(p.is_first_fragment);
  EXPECT_EQ(p.fragment_offset, 1448u);
  EXPECT_EQ(p.transport_protocol, 0);
  EXPECT_EQ(p.transport_offset, 48u);
  EXPECT_FALSE(p.has_transport_header());
}

TEST(ParseIP, IPv6AtomicFragmentIsWhole) {
  Bytes payload = Cat({FragmentHeader(17, 0, false, 9), Zeros(8)});
  ParsedPacket p = ParseIP(
      Cat({IPv6Header(static_cast<uint16_t>(payload.size()), 44), payload}));
  ASSERT_TRUE(p.ok());
  EXPECT_FALSE(p.is_fragment);
  EXPECT_EQ(p.transport_protocol, 17);
  EXPECT_EQ(p.transport_offset, 48u);
}

TEST(ParseIP, IPv6AuthenticationHeaderLength) {
  // RFC 4302 section 2.2: Payload Len 4 means (4 + 2) * 4 = 24 bytes.
  Bytes ah(24, 0);
  ah[0] = 17;
  ah[1] = 4;
  Bytes payload = Cat({ah, Zeros(8)});
  ParsedPacket p = ParseIP(
      Cat({IPv6Header(static_cast<uint16_t>(payload.size()), 51), payload}));
  ASSERT_TRUE(p.ok()) << p.reason;
  EXPECT_EQ(p.transport_offset, 64u);
  EXPECT_EQ(p.transport_protocol, 17);
}

TEST(ParseIP, IPv6HopByHopNotFirstMalformed) {
  Bytes payload = Cat({ExtensionHeader(0, 0), ExtensionHeader(6, 0)});
  ParsedPacket p = ParseIP(
      Cat({IPv6Header(static_cast<uint16_t>(payload.size()), 60), payload}));
  EXPECT_EQ(p.error, ParseError::kMalformed);
}

TEST(ParseIP, IPv6ExtensionPastPayloadLengthMalformed) {
  // Destination Options claims 16 bytes; the payload length gives 8.
  Bytes d = Cat({IPv6Header(8, 60), ExtensionHeader(6, 1)});
  ParsedPacket p = ParseIP(d);
  EXPECT_EQ(p.error, ParseError::kMalformed);
  // A payload length of 1 cannot even hold the first two bytes.
  EXPECT_EQ(ParseIP(Cat({IPv6Header(1, 60), Zeros(8)})).error,
            ParseError::kMalformed);
}

TEST(ParseIP, IPv6ExtensionCutByCaptureTruncated) {
  Bytes payload = Cat({ExtensionHeader(6, 3), Zeros(20)});
  Bytes d =
      Cat({IPv6Header(static_cast<uint16_t>(payload.size()), 60), payload});
  for (size_t n = 40; n < 72; ++n) {
    ParsedPacket p = ParseIP(std::span(d).first(n));
    EXPECT_EQ(p.error, ParseError::kTruncated) << n;
    EXPECT_EQ(p.network, NetworkProtocol::kIPv6);
    EXPECT_EQ(p.ip_length, d.size());
    EXPECT_TRUE(p.truncated);
  }
  ParsedPacket p = ParseIP(std::span(d).first(72));
  EXPECT_TRUE(p.ok());
  EXPECT_TRUE(p.truncated);
  EXPECT_EQ(p.transport_offset, 72u);
}

TEST(ParseIP, IPv6JumbogramUnsupported) {
  Bytes d = Cat({IPv6Header(0, 0), ExtensionHeader(6, 0)});
  EXPECT_EQ(ParseIP(d).error, ParseError::kUnsupported);
}

TEST(ParseIP, IPv6TooManyExtensionHeadersUnsupported) {
  Bytes payload;
  for (size_t i = 0; i < kMaxExtensionHeaders + 1; ++i) {
    payload = Cat({payload, ExtensionHeader(60, 0)});
  }
  ParsedPacket p = ParseIP(
      Cat({IPv6Header(static_cast<uint16_t>(payload.size()), 60), payload}));
  EXPECT_EQ(p.error, ParseError::kUnsupported);
}

TEST(ParseIP, IPv6NoNextHeaderAndESP) {
  ParsedPacket none = ParseIP(IPv6Header(0, 59));
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(none.transport_protocol, 59);
  EXPECT_EQ(none.transport_length, 0u);
  ParsedPacket esp = ParseIP(Cat({IPv6Header(16, 50), Zeros(16)}));
  ASSERT_TRUE(esp.ok());
  EXPECT_EQ(esp.transport_protocol, 50);
  EXPECT_EQ(esp.transport_offset, 40u);
}

TEST(ParseIP, ToStringNames) {
  EXPECT_EQ(ToString(ParseError::kOk), "ok");
  EXPECT_EQ(ToString(ParseError::kTruncated), "truncated");
  EXPECT_EQ(ToString(ParseError::kMalformed), "malformed");
  EXPECT_EQ(ToString(ParseError::kUnsupported), "unsupported");
}

TEST(ParsePrefix, LengthsComeFromTheWholePacket) {
  Bytes f = Cat({EthernetHeader(0x0800), IPv4Header(1500, 6), Zeros(1480)});
  ParsedPacket p = ParseEthernetPrefix(std::span(f).first(64), f.size());
  ASSERT_TRUE(p.ok()) << p.reason;
  EXPECT_FALSE(p.truncated);
  EXPECT_EQ(p.captured_ip_bytes, 1500u);
  EXPECT_EQ(p.transport_offset, 34u);
  // The whole packet is 100 bytes: cut by the capture.
  ParsedPacket cut = ParseEthernetPrefix(std::span(f).first(64), 100);
  ASSERT_TRUE(cut.ok());
  EXPECT_TRUE(cut.truncated);
  EXPECT_EQ(cut.captured_ip_bytes, 86u);
  // A header longer than the prefix is not the packet's fault.
  ParsedPacket long_header =
      ParseEthernetPrefix(std::span(f).first(30), f.size());
  EXPECT_EQ(long_header.error, ParseError::kUnsupported);
  ParsedPacket ip = ParseIPPrefix(std::span(f).subspan(14, 20), 1500);
  ASSERT_TRUE(ip.ok());
  EXPECT_FALSE(ip.truncated);
  EXPECT_EQ(ip.transport_length, 1480u);
}

// Every prefix of a valid frame parses without reading past it, and an
// offset it reports never exceeds the bytes it was given.
TEST(Parse, EveryPrefixStaysInBounds) {
  Bytes payload =
      Cat({ExtensionHeader(44, 1), FragmentHeader(6, 0, false, 1), Zeros(20)});
  std::vector<Bytes> frames = {
      Cat({EthernetHeader(0x0800, {{0x8100, 1}}),
           IPv4Header(48, 6, 0, {7, 3, 4, 0, 1, 1, 1, 0}), Zeros(20)}),
      Cat({EthernetHeader(0x86dd),
           IPv6Header(static_cast<uint16_t>(payload.size()), 0), payload}),
  };
  for (const Bytes& f : frames) {
    for (size_t n = 0; n <= f.size(); ++n) {
      // A copy of exactly n bytes, so ASan sees any read past it.
      Bytes cut(f.begin(), f.begin() + n);
      ParsedPacket p = ParseEthernet(cut);
      if (p.ok() && p.network != NetworkProtocol::kNone) {
        EXPECT_LE(p.transport_offset, n);
        EXPECT_EQ(p.captured_ip_bytes + p.network_offset, n);
        EXPECT_EQ(p.truncated, n < f.size());
      }
    }
  }
}

TEST(Parse, RandomBytesStayInBounds) {
  std::mt19937 rng(1);
  for (int i = 0; i < 20000; ++i) {
    Bytes b(rng() % 120);
    for (auto& x : b) x = static_cast<uint8_t>(rng());
    if (b.size() > 0 && (i & 1)) b[0] = (i & 2) ? 0x45 : 0x60;
    ParsedPacket p = (i & 4) ? ParseIP(b) : ParseEthernet(b);
    if (p.ok() && p.network != NetworkProtocol::kNone) {
      EXPECT_LE(p.transport_offset, b.size());
      EXPECT_LE(p.network_offset + p.captured_ip_bytes + p.trailing_bytes,
                b.size());
    }
  }
}

}  // namespace
}  // namespace ipsum::tcpip
