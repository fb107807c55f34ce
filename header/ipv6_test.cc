// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Tests of the IPv6 view and the extension header walk: known-answer
// fields and chain, every truncation, each malformation (lying lengths,
// Hop-by-Hop out of place, loops, overlong chains, bad fragments), the AH
// length rule, seeded random chains under ASan, and Encode round trips.

#include "header/ipv6.h"

#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "header/internal/test_util.h"

namespace ipsum::header {
namespace {

using testing::Hex;
using testing::Lcg;

std::vector<uint8_t> ExtPacket() {
  std::vector<uint8_t> f = Hex(testing::kUdpIPv6Extensions);
  return std::vector<uint8_t>(f.begin() + 14, f.end());
}

// Ext is one extension header to build: its Next Header value (as the
// previous header names it) and its bytes, whose first byte Build fills.
using Ext = std::pair<uint8_t, std::vector<uint8_t>>;

// Build returns an IPv6 packet with the headers `exts`, then `upper_len`
// bytes of an upper-layer protocol `upper`.
std::vector<uint8_t> Build(const std::vector<Ext>& exts, uint8_t upper,
                           size_t upper_len) {
  std::vector<uint8_t> p(40);
  IPv6Fields f;
  f.hop_limit = 64;
  f.next_header = exts.empty() ? upper : exts[0].first;
  for (size_t i = 0; i < exts.size(); ++i) {
    std::vector<uint8_t> h = exts[i].second;
    h[0] = i + 1 < exts.size() ? exts[i + 1].first : upper;
    p.insert(p.end(), h.begin(), h.end());
  }
  p.resize(p.size() + upper_len, 0x5a);
  f.payload_length = static_cast<uint16_t>(p.size() - 40);
  EXPECT_EQ(IPv6::Encode(f, p), Error::kOk);
  return p;
}

// Opts returns a Hop-by-Hop or Destination Options header of 8 * (len + 1)
// bytes holding a single PadN.
std::vector<uint8_t> Opts(uint8_t len = 0) {
  std::vector<uint8_t> h(8 * (len + 1), 0);
  h[1] = len;
  h[2] = 1;  // PadN
  h[3] = static_cast<uint8_t>(h.size() - 4);
  return h;
}

std::vector<uint8_t> Frag(uint32_t offset, bool more, uint32_t id) {
  std::vector<uint8_t> h(8);
  EXPECT_EQ(IPv6::EncodeFragmentHeader(0, offset, more, id, h), Error::kOk);
  return h;
}

Error Walk(const std::vector<uint8_t>& p) {
  Result<IPv6> ip = IPv6::Parse(p);
  if (!ip.ok()) return ip.error();
  return ip->WalkExtensionHeaders().error();
}

TEST(IPv6Test, KnownAnswerFields) {
  std::vector<uint8_t> b = ExtPacket();
  Result<IPv6> ip = IPv6::Parse(b);
  ASSERT_TRUE(ip.ok()) << ToString(ip.error());
  EXPECT_EQ(ip->version(), 6);
  EXPECT_EQ(ip->traffic_class(), 0);
  EXPECT_EQ(ip->flow_label(), 0x12345u);
  EXPECT_EQ(ip->payload_length(), 44);
  EXPECT_EQ(ip->next_header(), kProtocolHopByHop);
  EXPECT_EQ(ip->hop_limit(), 64);
  EXPECT_EQ(ip->source().ToString(), "2001:db8::1");
  EXPECT_EQ(ip->destination().ToString(), "2001:db8:0:1::2");
  EXPECT_EQ(ip->payload().size(), 44u);
}

TEST(IPv6Test, KnownAnswerChain) {
  std::vector<uint8_t> b = ExtPacket();
  Result<IPv6Chain> c = IPv6::Parse(b)->WalkExtensionHeaders();
  ASSERT_TRUE(c.ok()) << ToString(c.error());
  EXPECT_EQ(c->protocol, kProtocolUDP);
  EXPECT_EQ(c->offset, 64u);
  EXPECT_EQ(c->upper_length, 20u);
  ASSERT_EQ(c->count, 3);
  EXPECT_EQ(c->headers[0].type, kProtocolHopByHop);
  EXPECT_EQ(c->headers[0].offset, 40);
  EXPECT_EQ(c->headers[0].length, 8);
  EXPECT_EQ(c->headers[1].type, kProtocolDestinationOptions);
  EXPECT_EQ(c->headers[1].offset, 48);
  EXPECT_EQ(c->headers[2].type, kProtocolFragment);
  EXPECT_EQ(c->headers[2].offset, 56);
  EXPECT_TRUE(c->has_fragment_header);
  EXPECT_EQ(c->fragment_id, 0x12345678u);
  EXPECT_EQ(c->fragment_offset, 0u);
  EXPECT_FALSE(c->more_fragments);
  EXPECT_FALSE(c->IsFragment());  // atomic fragment, RFC 6946
  EXPECT_FALSE(c->has_routing_header);
}

TEST(IPv6Test, EveryTruncationIsReported) {
  std::vector<uint8_t> b = ExtPacket();
  for (size_t n = 0; n < b.size(); ++n) {
    std::vector<uint8_t> t(b.begin(), b.begin() + n);
    EXPECT_EQ(IPv6::Parse(t).error(), Error::kTruncated) << n;
    Result<IPv6> prefix = IPv6::ParsePrefix(t);
    if (n < 40) {
      EXPECT_EQ(prefix.error(), Error::kTruncated) << n;
      continue;
    }
    ASSERT_TRUE(prefix.ok()) << n;
    Result<IPv6Chain> c = prefix->WalkExtensionHeaders();
    if (n < 64) {
      EXPECT_EQ(c.error(), Error::kTruncated) << n;
    } else {
      ASSERT_TRUE(c.ok()) << n;
      EXPECT_EQ(c->offset, 64u);
      EXPECT_EQ(c->upper_length, 20u);
    }
  }
}

TEST(IPv6Test, BadVersion) {
  std::vector<uint8_t> b = ExtPacket();
  b[0] = 0x45;
  EXPECT_EQ(IPv6::Parse(b).error(), Error::kBadVersion);
}

TEST(IPv6Test, ViewEndsAtPayloadLength) {
  std::vector<uint8_t> b = ExtPacket();
  b.resize(b.size() + 10, 0xee);
  EXPECT_EQ(IPv6::Parse(b)->bytes().size(), 84u);
}

TEST(IPv6Test, LyingLengthIsBadExtensionHeader) {
  std::vector<uint8_t> b = ExtPacket();
  b[41] = 255;  // Hop-by-Hop claims 2048 bytes
  EXPECT_EQ(Walk(b), Error::kBadExtensionHeader);
  b = ExtPacket();
  b[49] = 5;  // Destination Options claims 48 bytes; 36 remain
  EXPECT_EQ(Walk(b), Error::kBadExtensionHeader);
  // A header that starts at the very end of the payload.
  std::vector<uint8_t> p = Build({{kProtocolDestinationOptions, Opts()}},
                                 kProtocolDestinationOptions, 0);
  EXPECT_EQ(Walk(p), Error::kBadExtensionHeader);
  p = Build({{kProtocolDestinationOptions, Opts()}},
            kProtocolDestinationOptions, 1);
  EXPECT_EQ(Walk(p), Error::kBadExtensionHeader);
}

TEST(IPv6Test, HopByHopMustComeFirst) {
  std::vector<uint8_t> p = Build(
      {{kProtocolDestinationOptions, Opts()}, {kProtocolHopByHop, Opts()}},
      kProtocolTCP, 20);
  EXPECT_EQ(Walk(p), Error::kHopByHopNotFirst);
  p = Build({{kProtocolHopByHop, Opts()}, {kProtocolHopByHop, Opts()}},
            kProtocolTCP, 20);
  EXPECT_EQ(Walk(p), Error::kHopByHopNotFirst);
}

TEST(IPv6Test, ChainLengthIsBounded) {
  std::vector<Ext> exts(kMaxExtensionHeaders,
                        Ext{kProtocolDestinationOptions, Opts()});
  std::vector<uint8_t> p = Build(exts, kProtocolUDP, 8);
  Result<IPv6Chain> c = IPv6::Parse(p)->WalkExtensionHeaders();
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->count, kMaxExtensionHeaders);
  EXPECT_EQ(c->protocol, kProtocolUDP);
  exts.push_back(exts.back());
  EXPECT_EQ(Walk(Build(exts, kProtocolUDP, 8)),
            Error::kTooManyExtensionHeaders);
  // A chain that names itself forever: ends at the bound or the payload.
  std::vector<uint8_t> loop(40 + 8 * 100, 0);
  IPv6Fields f;
  f.payload_length = 800;
  f.next_header = kProtocolDestinationOptions;
  IPv6::Encode(f, loop);
  for (size_t i = 40; i < loop.size(); i += 8) {
    loop[i] = kProtocolDestinationOptions;
  }
  EXPECT_EQ(Walk(loop), Error::kTooManyExtensionHeaders);
}

TEST(IPv6Test, OptionsMustFitTheirHeader) {
  std::vector<uint8_t> h = Opts();
  h[3] = 5;  // PadN of 7 bytes in 6
  EXPECT_EQ(Walk(Build({{kProtocolHopByHop, h}}, kProtocolTCP, 20)),
            Error::kBadOptionLength);
  h = Opts();
  h[2] = 0;  // Pad1 x5, then a type with no room for its length
  h[3] = 0;
  h[4] = 0;
  h[5] = 0;
  h[6] = 0;
  h[7] = 7;
  EXPECT_EQ(Walk(Build({{kProtocolDestinationOptions, h}}, kProtocolTCP, 20)),
            Error::kBadOptionLength);
  h[7] = 0;
  EXPECT_EQ(Walk(Build({{kProtocolDestinationOptions, h}}, kProtocolTCP, 20)),
            Error::kOk);
}

TEST(IPv6Test, AuthenticationHeaderLengthCountsFourOctetUnitsMinusTwo) {
  // RFC 4302 section 2.2: Payload Len 4 is a 24-byte AH (12 bytes of ICV).
  std::vector<uint8_t> ah(24, 0);
  ah[1] = 4;
  std::vector<uint8_t> p =
      Build({{kProtocolAH, ah}, {kProtocolDestinationOptions, Opts()}},
            kProtocolTCP, 20);
  Result<IPv6Chain> c = IPv6::Parse(p)->WalkExtensionHeaders();
  ASSERT_TRUE(c.ok()) << ToString(c.error());
  EXPECT_EQ(c->headers[0].length, 24);
  EXPECT_EQ(c->offset, 40u + 24 + 8);
  EXPECT_EQ(c->protocol, kProtocolTCP);
}

TEST(IPv6Test, RoutingHeaderIsReported) {
  std::vector<uint8_t> rh(24, 0);
  rh[1] = 2;
  rh[2] = 4;  // Segment Routing (RFC 8754)
  rh[3] = 1;
  std::vector<uint8_t> p = Build({{kProtocolRouting, rh}}, kProtocolICMPv6, 8);
  Result<IPv6Chain> c = IPv6::Parse(p)->WalkExtensionHeaders();
  ASSERT_TRUE(c.ok());
  EXPECT_TRUE(c->has_routing_header);
  EXPECT_EQ(c->routing_type, 4);
  EXPECT_EQ(c->segments_left, 1);
  EXPECT_EQ(c->protocol, kProtocolICMPv6);
  EXPECT_EQ(c->offset, 64u);
}

TEST(IPv6Test, EspAndNoNextHeaderEndTheWalk) {
  for (uint8_t last : {kProtocolESP, kProtocolNoNextHeader}) {
    std::vector<uint8_t> p =
        Build({{kProtocolHopByHop, Opts()}}, last, 3);  // any bytes
    Result<IPv6Chain> c = IPv6::Parse(p)->WalkExtensionHeaders();
    ASSERT_TRUE(c.ok());
    EXPECT_EQ(c->protocol, last);
    EXPECT_EQ(c->offset, 48u);
    EXPECT_EQ(c->upper_length, 3u);
  }
}

TEST(IPv6Test, FragmentHeaders) {
  // First fragment: offset 0, M set, 16 bytes of fragmentable data.
  std::vector<uint8_t> p =
      Build({{kProtocolFragment, Frag(0, true, 7)}}, kProtocolUDP, 16);
  Result<IPv6Chain> c = IPv6::Parse(p)->WalkExtensionHeaders();
  ASSERT_TRUE(c.ok());
  EXPECT_TRUE(c->IsFragment());
  EXPECT_EQ(c->fragment_id, 7u);
  EXPECT_EQ(c->protocol, kProtocolUDP);
  EXPECT_EQ(c->offset, 48u);

  // A later fragment stops the walk even if its data looks like a header.
  p = Build({{kProtocolFragment, Frag(1232, false, 7)}},
            kProtocolDestinationOptions, 13);
  c = IPv6::Parse(p)->WalkExtensionHeaders();
  ASSERT_TRUE(c.ok());
  EXPECT_TRUE(c->IsFragment());
  EXPECT_EQ(c->fragment_offset, 1232u);
  EXPECT_EQ(c->protocol, kProtocolDestinationOptions);
  EXPECT_EQ(c->offset, 48u);
  EXPECT_EQ(c->upper_length, 13u);

  // RFC 8200 section 4.5: M set and a length that is not a multiple of 8.
  p = Build({{kProtocolFragment, Frag(0, true, 7)}}, kProtocolUDP, 12);
  EXPECT_EQ(Walk(p), Error::kBadFragment);
  // Offset + length past 65535.
  p = Build({{kProtocolFragment, Frag(65528, false, 7)}}, kProtocolUDP, 8);
  EXPECT_EQ(Walk(p), Error::kBadFragment);
  p = Build({{kProtocolFragment, Frag(65520, false, 7)}}, kProtocolUDP, 8);
  EXPECT_EQ(Walk(p), Error::kOk);
}

TEST(IPv6Test, EncodeFragmentHeaderRejectsBadOffsets) {
  std::vector<uint8_t> h(8);
  EXPECT_EQ(IPv6::EncodeFragmentHeader(17, 12, false, 1, h), Error::kBadField);
  EXPECT_EQ(IPv6::EncodeFragmentHeader(17, 65536, false, 1, h),
            Error::kBadField);
  std::vector<uint8_t> small(7);
  EXPECT_EQ(IPv6::EncodeFragmentHeader(17, 8, false, 1, small),
            Error::kBufferTooSmall);
}

// Random bytes after a fixed header whose Next Header is an extension
// header: whatever the walk returns, ASan checks it stays in bounds.
TEST(IPv6Test, RandomChainsStayInBounds) {
  const uint8_t kinds[] = {kProtocolHopByHop, kProtocolRouting,
                           kProtocolFragment, kProtocolDestinationOptions,
                           kProtocolAH,       kProtocolMobility,
                           kProtocolTCP,      kProtocolUDP};
  Lcg rng(30);
  int ok = 0;
  for (int i = 0; i < 20000; ++i) {
    size_t len = rng.Next() % 300;
    std::vector<uint8_t> p(40 + len);
    rng.Fill(p);
    p[0] = 0x60;
    StoreBig16(&p[4], static_cast<uint16_t>(len));
    p[6] = kinds[rng.Next() % 6];
    for (size_t at = 40; at < p.size(); at += 8) {
      p[at] = kinds[rng.Next() % 8];
      if (at + 1 < p.size()) p[at + 1] &= 3;
    }
    size_t cut = 40 + rng.Next() % (len + 1);
    std::vector<uint8_t> t(p.begin(), p.begin() + cut);
    Result<IPv6> ip = (i % 2) ? IPv6::Parse(p) : IPv6::ParsePrefix(t);
    ASSERT_TRUE(ip.ok());
    Result<IPv6Chain> c = ip->WalkExtensionHeaders();
    if (c.ok()) {
      ++ok;
      EXPECT_LE(c->offset, 40 + len);
      EXPECT_EQ(c->offset + c->upper_length, 40 + len);
      EXPECT_LE(c->count, kMaxExtensionHeaders);
    }
  }
  EXPECT_GT(ok, 0);
}

TEST(IPv6Test, EncodeRoundTrips) {
  std::vector<uint8_t> b = ExtPacket();
  IPv6Fields f = IPv6::Parse(b)->fields();
  std::vector<uint8_t> out(40);
  ASSERT_EQ(IPv6::Encode(f, out), Error::kOk);
  EXPECT_EQ(out, std::vector<uint8_t>(b.begin(), b.begin() + 40));
  Lcg rng(31);
  for (int i = 0; i < 1000; ++i) {
    IPv6Fields g;
    g.traffic_class = rng.Byte();
    g.flow_label = rng.Next() & 0xfffff;
    g.payload_length = static_cast<uint16_t>(rng.Next());
    g.next_header = rng.Byte();
    g.hop_limit = rng.Byte();
    rng.Fill(g.source.bytes);
    rng.Fill(g.destination.bytes);
    ASSERT_EQ(IPv6::Encode(g, out), Error::kOk);
    EXPECT_EQ(IPv6::ParsePrefix(out)->fields(), g);
  }
  f.flow_label = 0x100000;
  EXPECT_EQ(IPv6::Encode(f, out), Error::kBadField);
  std::vector<uint8_t> small(39);
  f.flow_label = 0;
  EXPECT_EQ(IPv6::Encode(f, small), Error::kBufferTooSmall);
}

TEST(IPv6Test, MutableSetters) {
  std::vector<uint8_t> b = ExtPacket();
  MutableIPv6 ip = *MutableIPv6::Parse(b);
  ip.SetTrafficClass(0xb9);
  ip.SetFlowLabel(0xfffff);
  EXPECT_EQ(ip.traffic_class(), 0xb9);
  EXPECT_EQ(ip.dscp(), 46);
  EXPECT_EQ(ip.ecn(), 1);
  EXPECT_EQ(ip.flow_label(), 0xfffffu);
  EXPECT_EQ(ip.version(), 6);
  EXPECT_EQ(ip.DecrementHopLimit(), 63);
  ip.SetHopLimit(0);
  EXPECT_EQ(ip.DecrementHopLimit(), 0);
  IPv6Address a;
  a.bytes[15] = 1;
  ip.SetSource(a);
  ip.SetDestination(a);
  EXPECT_EQ(ip.source().ToString(), "::1");
  EXPECT_EQ(ip.destination(), a);
}

}  // namespace
}  // namespace ipsum::header
