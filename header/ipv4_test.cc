// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Tests of the IPv4 view: known-answer fields and checksum, every
// truncation, each malformation, Encode round trips, and RFC 1624 updates
// (TTL, NAT) against a full recompute on seeded random headers.

#include "header/ipv4.h"

#include <cstring>
#include <vector>

#include "gtest/gtest.h"
#include "header/internal/test_util.h"

namespace ipsum::header {
namespace {

using testing::Hex;
using testing::Lcg;
using testing::ReferenceSum;

constexpr size_t kEthernet = 14;

std::vector<uint8_t> SynIp() {
  std::vector<uint8_t> f = Hex(testing::kTcpSyn);
  return std::vector<uint8_t>(f.begin() + kEthernet, f.end());
}

std::vector<uint8_t> OptionsIp() {
  std::vector<uint8_t> f = Hex(testing::kUdpIPv4Options);
  return std::vector<uint8_t>(f.begin() + kEthernet, f.end());
}

// ReferenceHeaderChecksum is the RFC 791 header checksum computed with the
// test's own summing code, the stored field read as zero.
uint16_t ReferenceHeaderChecksum(std::span<const uint8_t> header) {
  std::vector<uint8_t> copy(header.begin(), header.end());
  copy[10] = copy[11] = 0;
  return static_cast<uint16_t>(~ReferenceSum(copy));
}

TEST(IPv4Test, KnownAnswerFields) {
  std::vector<uint8_t> b = SynIp();
  Result<IPv4> ip = IPv4::Parse(b);
  ASSERT_TRUE(ip.ok()) << ToString(ip.error());
  EXPECT_EQ(ip->version(), 4);
  EXPECT_EQ(ip->header_length(), 20u);
  EXPECT_EQ(ip->tos(), 0);
  EXPECT_EQ(ip->total_length(), 60);
  EXPECT_EQ(ip->id(), 0x1c46);
  EXPECT_TRUE(ip->dont_fragment());
  EXPECT_FALSE(ip->more_fragments());
  EXPECT_EQ(ip->fragment_offset(), 0u);
  EXPECT_FALSE(ip->IsFragment());
  EXPECT_EQ(ip->ttl(), 64);
  EXPECT_EQ(ip->protocol(), kProtocolTCP);
  EXPECT_EQ(ip->checksum(), 0x323f);
  EXPECT_EQ(ip->source().ToString(), "192.0.2.1");
  EXPECT_EQ(ip->destination().ToString(), "198.51.100.2");
  EXPECT_TRUE(ip->options().empty());
  EXPECT_EQ(ip->payload().size(), 40u);
  EXPECT_EQ(ip->payload_length(), 40u);
}

TEST(IPv4Test, KnownAnswerChecksum) {
  for (const std::vector<uint8_t>& b : {SynIp(), OptionsIp()}) {
    Result<IPv4> ip = IPv4::Parse(b);
    ASSERT_TRUE(ip.ok());
    EXPECT_TRUE(ip->IsChecksumValid());
    EXPECT_EQ(ip->ComputeChecksum(), ip->checksum());
    EXPECT_EQ(ip->ComputeChecksum(), ReferenceHeaderChecksum(ip->header()));
  }
}

TEST(IPv4Test, ChecksumDetectsAFlippedBit) {
  std::vector<uint8_t> b = SynIp();
  for (size_t bit = 0; bit < 20 * 8; ++bit) {
    std::vector<uint8_t> c = b;
    c[bit / 8] ^= static_cast<uint8_t>(1 << (bit % 8));
    Result<IPv4> ip = IPv4::ParsePrefix(c);
    if (!ip.ok()) continue;  // version or IHL broken
    EXPECT_FALSE(ip->IsChecksumValid()) << "bit " << bit;
  }
}

TEST(IPv4Test, OptionsAreParsed) {
  std::vector<uint8_t> b = OptionsIp();
  Result<IPv4> ip = IPv4::Parse(b);
  ASSERT_TRUE(ip.ok()) << ToString(ip.error());
  EXPECT_EQ(ip->header_length(), 24u);
  EXPECT_EQ(ip->ttl(), 1);
  EXPECT_EQ(ip->protocol(), kProtocolUDP);
  ASSERT_EQ(ip->options().size(), 4u);
  int seen = 0;
  Error e = WalkOptions(ip->options(), [&](const Option& o) {
    EXPECT_EQ(o.kind, IPv4::kOptionRouterAlert);
    EXPECT_EQ(o.data.size(), 2u);
    ++seen;
    return Error::kOk;
  });
  EXPECT_EQ(e, Error::kOk);
  EXPECT_EQ(seen, 1);
  EXPECT_EQ(ip->payload().size(), 20u);
}

TEST(IPv4Test, EveryTruncationIsReported) {
  for (const std::vector<uint8_t>& b : {SynIp(), OptionsIp()}) {
    size_t ihl = (b[0] & 0xf) * 4;
    for (size_t n = 0; n < b.size(); ++n) {
      std::vector<uint8_t> t(b.begin(), b.begin() + n);  // exact size: ASan
      EXPECT_EQ(IPv4::Parse(t).error(), Error::kTruncated) << n;
      Result<IPv4> prefix = IPv4::ParsePrefix(t);
      if (n < ihl) {
        EXPECT_EQ(prefix.error(), Error::kTruncated) << n;
      } else {
        ASSERT_TRUE(prefix.ok()) << n;
        EXPECT_EQ(prefix->payload().size(), n - ihl);
        EXPECT_EQ(prefix->payload_length(), b.size() - ihl);
      }
    }
    EXPECT_TRUE(IPv4::Parse(b).ok());
  }
}

TEST(IPv4Test, TrailingBytesAreNotPartOfTheView) {
  std::vector<uint8_t> b = SynIp();
  b.resize(b.size() + 6, 0xee);  // Ethernet minimum-frame padding
  Result<IPv4> ip = IPv4::Parse(b);
  ASSERT_TRUE(ip.ok());
  EXPECT_EQ(ip->bytes().size(), 60u);
  EXPECT_EQ(ip->payload().size(), 40u);
}

TEST(IPv4Test, MalformedHeadersGetTypedErrors) {
  std::vector<uint8_t> b = OptionsIp();
  auto parse = [](std::vector<uint8_t> v) { return IPv4::Parse(v).error(); };
  {
    auto v = b;
    v[0] = 0x66;
    EXPECT_EQ(parse(v), Error::kBadVersion);
  }
  {
    auto v = b;
    v[0] = 0x44;
    EXPECT_EQ(parse(v), Error::kBadHeaderLength);
  }
  {
    auto v = b;
    v[0] = 0x4f;  // 60-byte header in a 44-byte packet
    EXPECT_EQ(parse(v), Error::kTruncated);
  }
  {
    auto v = b;
    StoreBig16(&v[2], 23);  // below IHL * 4 = 24
    EXPECT_EQ(parse(v), Error::kBadTotalLength);
  }
  for (uint8_t len : {0, 1, 2, 3, 5, 255}) {
    auto v = b;
    v[21] = len;  // Router Alert option length
    EXPECT_EQ(parse(v), Error::kBadOptionLength) << int{len};
  }
  {
    auto v = b;
    v[20] = 1;  // NOP, NOP, NOP, then a kind with no room for its length
    v[21] = 1;
    v[22] = 1;
    v[23] = 7;
    EXPECT_EQ(parse(v), Error::kBadOptionLength);
  }
  {
    auto v = b;
    v[20] = 0;  // End of Option List: the rest is padding, not checked
    v[21] = 0xff;
    EXPECT_EQ(parse(v), Error::kOk);
  }
  {
    auto v = b;
    StoreBig16(&v[6], 0x1fff);  // offset 65528 + 20 payload bytes
    EXPECT_EQ(parse(v), Error::kBadFragment);
  }
  {
    auto v = b;
    StoreBig16(&v[6], 0x2000);  // MF with a 20-byte payload
    EXPECT_EQ(parse(v), Error::kBadFragment);
  }
}

// WithOptions returns a valid header carrying `options` (a multiple of 4).
std::vector<uint8_t> WithOptions(std::vector<uint8_t> options) {
  IPv4Fields f;
  f.options = options;
  f.total_length = static_cast<uint16_t>(IPv4::HeaderSize(f));
  std::vector<uint8_t> out(f.total_length);
  EXPECT_EQ(IPv4::Encode(f, out), Error::kOk);
  return out;
}

TEST(IPv4Test, KnownOptionsAreValidated) {
  auto parse = [](std::vector<uint8_t> options) {
    return IPv4::Parse(WithOptions(options)).error();
  };
  // Record route with room for one address, pointer 4: valid; pointer 3
  // points into the option's own header.
  EXPECT_EQ(parse({7, 7, 4, 0, 0, 0, 0, 0}), Error::kOk);
  EXPECT_EQ(parse({7, 7, 3, 0, 0, 0, 0, 0}), Error::kBadOption);
  EXPECT_EQ(parse({131, 2, 1, 1}), Error::kBadOptionLength);
  EXPECT_EQ(parse({137, 3, 4, 1}), Error::kOk);  // full: pointer > length
  // Timestamp: length at least 4, pointer at least 5.
  EXPECT_EQ(parse({68, 4, 5, 0}), Error::kOk);
  EXPECT_EQ(parse({68, 4, 4, 0}), Error::kBadOption);
  EXPECT_EQ(parse({68, 3, 5, 1}), Error::kBadOptionLength);
  // An unknown option is accepted by its length.
  EXPECT_EQ(parse({0x99, 4, 0, 0}), Error::kOk);
}

TEST(IPv4Test, FragmentFields) {
  std::vector<uint8_t> b = SynIp();  // 40-byte payload: a multiple of 8
  MutableIPv4 ip = *MutableIPv4::Parse(b);
  ip.SetFragment(false, true, 0);
  EXPECT_TRUE(ip.IsFragment());
  EXPECT_TRUE(ip.more_fragments());
  EXPECT_FALSE(ip.dont_fragment());
  ip.SetFragment(false, false, 1480);
  EXPECT_TRUE(ip.IsFragment());
  EXPECT_EQ(ip.fragment_offset(), 1480u);
  EXPECT_EQ(LoadBig16(&b[6]), 1480 / 8);
  EXPECT_TRUE(IPv4::Parse(b).ok());
  ip.SetFragment(true, false, 0);
  EXPECT_FALSE(ip.IsFragment());
  EXPECT_EQ(LoadBig16(&b[6]), 0x4000);
}

void ExpectFieldsEqual(const IPv4Fields& a, const IPv4Fields& b) {
  EXPECT_EQ(a.tos, b.tos);
  EXPECT_EQ(a.total_length, b.total_length);
  EXPECT_EQ(a.id, b.id);
  EXPECT_EQ(a.dont_fragment, b.dont_fragment);
  EXPECT_EQ(a.more_fragments, b.more_fragments);
  EXPECT_EQ(a.fragment_offset, b.fragment_offset);
  EXPECT_EQ(a.ttl, b.ttl);
  EXPECT_EQ(a.protocol, b.protocol);
  EXPECT_EQ(a.source, b.source);
  EXPECT_EQ(a.destination, b.destination);
  EXPECT_EQ(std::vector<uint8_t>(a.options.begin(), a.options.end()),
            std::vector<uint8_t>(b.options.begin(), b.options.end()));
}

TEST(IPv4Test, EncodeReproducesKnownAnswers) {
  for (const std::vector<uint8_t>& b : {SynIp(), OptionsIp()}) {
    IPv4Fields f = IPv4::Parse(b)->fields();
    std::vector<uint8_t> out(IPv4::HeaderSize(f), 0xaa);
    ASSERT_EQ(IPv4::Encode(f, out), Error::kOk);
    EXPECT_EQ(out, std::vector<uint8_t>(b.begin(), b.begin() + out.size()));
    Result<IPv4> again = IPv4::ParsePrefix(out);
    ASSERT_TRUE(again.ok());
    ExpectFieldsEqual(again->fields(), f);
  }
}

TEST(IPv4Test, EncodeRoundTripsRandomFields) {
  Lcg rng(1);
  for (int i = 0; i < 2000; ++i) {
    IPv4Fields f;
    uint8_t options[40];
    size_t nopts = rng.Next() % 11 * 4;
    std::memset(options, kOptionNop, nopts);
    f.options = std::span<const uint8_t>(options, nopts);
    f.tos = rng.Byte();
    f.id = static_cast<uint16_t>(rng.Next());
    f.dont_fragment = rng.Next() & 1;
    f.more_fragments = rng.Next() & 1;
    size_t payload = (rng.Next() % 100) * 8;
    f.total_length = static_cast<uint16_t>(IPv4::HeaderSize(f) + payload);
    f.fragment_offset = (rng.Next() % 1000) * 8;
    f.ttl = rng.Byte();
    f.protocol = rng.Byte();
    f.source = IPv4Address::FromHost(rng.Next());
    f.destination = IPv4Address::FromHost(rng.Next());
    std::vector<uint8_t> out(f.total_length);
    ASSERT_EQ(IPv4::Encode(f, out), Error::kOk);
    Result<IPv4> ip = IPv4::Parse(out);
    ASSERT_TRUE(ip.ok()) << ToString(ip.error());
    ExpectFieldsEqual(ip->fields(), f);
    EXPECT_TRUE(ip->IsChecksumValid());
    EXPECT_EQ(ip->checksum(), ReferenceHeaderChecksum(ip->header()));
  }
}

TEST(IPv4Test, EncodePadsOptionsWithZeros) {
  IPv4Fields f;
  const uint8_t ra[] = {0x94, 0x04, 0x00, 0x00, 0x01};  // RA + NOP
  f.options = ra;
  f.total_length = 28;
  f.ttl = 1;
  std::vector<uint8_t> out(28, 0xaa);
  ASSERT_EQ(IPv4::Encode(f, out), Error::kOk);
  EXPECT_EQ(out[0], 0x47);
  EXPECT_EQ(out[24], 0x01);
  EXPECT_EQ(out[25], 0);
  EXPECT_EQ(out[26], 0);
  EXPECT_EQ(out[27], 0);
  EXPECT_TRUE(IPv4::Parse(out)->IsChecksumValid());
}

TEST(IPv4Test, EncodeRejectsBadFieldsAndSmallBuffers) {
  IPv4Fields f;
  f.total_length = 20;
  std::vector<uint8_t> out(19);
  EXPECT_EQ(IPv4::Encode(f, out), Error::kBufferTooSmall);
  out.resize(60);
  f.total_length = 19;
  EXPECT_EQ(IPv4::Encode(f, out), Error::kBadField);
  f.total_length = 100;
  f.fragment_offset = 7;
  EXPECT_EQ(IPv4::Encode(f, out), Error::kBadField);
  f.fragment_offset = 0;
  uint8_t options[41] = {};
  f.options = options;
  EXPECT_EQ(IPv4::Encode(f, out), Error::kBadField);
}

// RandomHeader writes a valid IPv4 header (IHL 5..15, NOP options) with
// random fields and a correct checksum to `b`.
std::vector<uint8_t> RandomHeader(Lcg& rng) {
  size_t ihl = 5 + rng.Next() % 11;
  std::vector<uint8_t> b(ihl * 4);
  rng.Fill(b);
  b[0] = static_cast<uint8_t>(0x40 | ihl);
  StoreBig16(&b[2], static_cast<uint16_t>(ihl * 4));
  StoreBig16(&b[6], 0);
  for (size_t i = 20; i < b.size(); ++i) b[i] = kOptionNop;
  MutableIPv4 ip = *MutableIPv4::Parse(b);
  ip.UpdateChecksum();
  return b;
}

TEST(IPv4Test, DecrementTtlMatchesRecompute) {
  Lcg rng(2);
  for (int i = 0; i < 20000; ++i) {
    std::vector<uint8_t> b = RandomHeader(rng);
    MutableIPv4 ip = *MutableIPv4::Parse(b);
    uint8_t ttl = ip.ttl();
    EXPECT_EQ(ip.DecrementTtl(), ttl == 0 ? 0 : ttl - 1);
    EXPECT_EQ(ip.checksum(), ip.ComputeChecksum()) << i;
    EXPECT_EQ(ip.checksum(), ReferenceHeaderChecksum(ip.header())) << i;
  }
}

// RFC 1624 section 3: eqn. 2 of RFC 1141 yields 0xffff where a recompute
// yields 0x0000. Search the identification values for headers whose
// decremented checksum is 0x0000 and check that the update gets there.
TEST(IPv4Test, DecrementTtlReachesZeroChecksumLikeRecompute) {
  std::vector<uint8_t> b = SynIp();
  int zero_results = 0;
  for (uint32_t id = 0; id <= 0xffff; ++id) {
    std::vector<uint8_t> c = b;
    MutableIPv4 ip = *MutableIPv4::Parse(c);
    ip.SetId(static_cast<uint16_t>(id));
    ip.UpdateChecksum();
    ip.DecrementTtl();
    ASSERT_EQ(ip.checksum(), ip.ComputeChecksum()) << id;
    if (ip.checksum() == 0) {
      ++zero_results;
      // And onwards from a stored 0x0000.
      ip.DecrementTtl();
      ASSERT_EQ(ip.checksum(), ip.ComputeChecksum()) << id;
      ip.SetTtlAndUpdateChecksum(64);
      ASSERT_EQ(ip.checksum(), ip.ComputeChecksum()) << id;
    }
  }
  EXPECT_GT(zero_results, 0);
}

TEST(IPv4Test, DecrementTtlLeavesZeroAlone) {
  std::vector<uint8_t> b = SynIp();
  MutableIPv4 ip = *MutableIPv4::Parse(b);
  ip.SetTtl(0);
  ip.UpdateChecksum();
  EXPECT_EQ(ip.DecrementTtl(), 0);
  EXPECT_EQ(ip.ttl(), 0);
  EXPECT_TRUE(ip.IsChecksumValid());
}

TEST(IPv4Test, AddressRewriteMatchesRecompute) {
  Lcg rng(3);
  for (int i = 0; i < 20000; ++i) {
    std::vector<uint8_t> b = RandomHeader(rng);
    MutableIPv4 ip = *MutableIPv4::Parse(b);
    if (i % 2) {
      ip.SetSourceAndUpdateChecksum(IPv4Address::FromHost(rng.Next()));
    } else {
      ip.SetDestinationAndUpdateChecksum(IPv4Address::FromHost(rng.Next()));
    }
    EXPECT_EQ(ip.checksum(), ReferenceHeaderChecksum(ip.header())) << i;
  }
}

TEST(IPv4Test, MutableSettersWriteTheirFields) {
  std::vector<uint8_t> b = SynIp();
  MutableIPv4 ip = *MutableIPv4::Parse(b);
  ip.SetTos(0xb8);
  ip.SetTotalLength(60);
  ip.SetId(0xabcd);
  ip.SetTtl(3);
  ip.SetProtocol(kProtocolUDP);
  ip.SetSource(IPv4Address::FromHost(0x0a000001));
  ip.SetDestination(IPv4Address::FromHost(0x0a000002));
  ip.UpdateChecksum();
  EXPECT_EQ(ip.dscp(), 46);
  EXPECT_EQ(ip.ecn(), 0);
  EXPECT_EQ(ip.id(), 0xabcd);
  EXPECT_EQ(ip.ttl(), 3);
  EXPECT_EQ(ip.protocol(), kProtocolUDP);
  EXPECT_EQ(ip.source().ToString(), "10.0.0.1");
  EXPECT_EQ(ip.destination().ToHost(), 0x0a000002u);
  EXPECT_TRUE(ip.IsChecksumValid());
  EXPECT_EQ(ip.checksum(), ReferenceHeaderChecksum(ip.header()));
}

}  // namespace
}  // namespace ipsum::header
