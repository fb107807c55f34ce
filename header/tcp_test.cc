// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Tests of the TCP view and options: known-answer fields, options and
// checksum, every truncation, malformed option lists, option and header
// Encode round trips, chained-payload checksums, and RFC 1624 updates (NAPT
// ports, NAT addresses) against a full recompute on seeded random segments.

#include "header/tcp.h"

#include <vector>

#include "checksum/checksum.h"
#include "gtest/gtest.h"
#include "header/checksum.h"
#include "header/internal/test_util.h"
#include "header/ipv4.h"
#include "header/protocol.h"

namespace ipsum::header {
namespace {

using testing::Hex;
using testing::Lcg;
using testing::ReferenceSum;

constexpr size_t kSegmentOffset = 14 + 20;

std::vector<uint8_t> SynSegment() {
  std::vector<uint8_t> f = Hex(testing::kTcpSyn);
  return std::vector<uint8_t>(f.begin() + kSegmentOffset, f.end());
}

const IPv4Address kSrc = IPv4Address::FromHost(0xc0000201);  // 192.0.2.1
const IPv4Address kDst = IPv4Address::FromHost(0xc6336402);  // 198.51.100.2

// ReferenceChecksum builds the RFC 793 pseudo-header as bytes and sums it
// with the segment (checksum field zeroed) using the test's own code.
uint16_t ReferenceChecksum(const IPv4Address& src, const IPv4Address& dst,
                           std::span<const uint8_t> segment) {
  std::vector<uint8_t> b(src.bytes.begin(), src.bytes.end());
  b.insert(b.end(), dst.bytes.begin(), dst.bytes.end());
  b.push_back(0);
  b.push_back(kProtocolTCP);
  b.push_back(static_cast<uint8_t>(segment.size() >> 8));
  b.push_back(static_cast<uint8_t>(segment.size()));
  size_t at = b.size();
  b.insert(b.end(), segment.begin(), segment.end());
  b[at + 16] = b[at + 17] = 0;
  return static_cast<uint16_t>(~ReferenceSum(b));
}

TEST(TCPTest, KnownAnswerFields) {
  std::vector<uint8_t> b = SynSegment();
  Result<TCP> tcp = TCP::Parse(b);
  ASSERT_TRUE(tcp.ok()) << ToString(tcp.error());
  EXPECT_EQ(tcp->source_port(), 50000);
  EXPECT_EQ(tcp->destination_port(), 80);
  EXPECT_EQ(tcp->seq(), 0x01020304u);
  EXPECT_EQ(tcp->ack(), 0u);
  EXPECT_EQ(tcp->data_offset(), 40u);
  EXPECT_EQ(tcp->flags(), kTCPFlagSyn);
  EXPECT_EQ(tcp->window(), 0xfaf0);
  EXPECT_EQ(tcp->checksum(), 0x9930);
  EXPECT_EQ(tcp->urgent_pointer(), 0);
  EXPECT_EQ(tcp->options().size(), 20u);
  EXPECT_TRUE(tcp->payload().empty());
}

TEST(TCPTest, KnownAnswerOptions) {
  std::vector<uint8_t> b = SynSegment();
  Result<TCPOptions> o = TCP::Parse(b)->ParseOptions();
  ASSERT_TRUE(o.ok()) << ToString(o.error());
  EXPECT_EQ(o->mss, 1460);
  EXPECT_TRUE(o->sack_permitted);
  ASSERT_TRUE(o->timestamps.has_value());
  EXPECT_EQ(o->timestamps->value, 1u);
  EXPECT_EQ(o->timestamps->echo_reply, 0u);
  EXPECT_EQ(o->window_scale, 7);
  EXPECT_EQ(o->sack_block_count, 0);
}

TEST(TCPTest, KnownAnswerChecksum) {
  std::vector<uint8_t> b = SynSegment();
  TCP tcp = *TCP::Parse(b);
  uint16_t pseudo = PseudoHeaderSum(kSrc, kDst, kProtocolTCP, b.size());
  EXPECT_TRUE(tcp.IsChecksumValid(pseudo));
  EXPECT_EQ(tcp.ComputeChecksum(pseudo), 0x9930);
  EXPECT_EQ(ReferenceChecksum(kSrc, kDst, b), 0x9930);
  // The pseudo-header's addresses and length are covered.
  EXPECT_FALSE(
      tcp.IsChecksumValid(PseudoHeaderSum(kDst, kDst, kProtocolTCP, b.size())));
  EXPECT_FALSE(tcp.IsChecksumValid(
      PseudoHeaderSum(kSrc, kDst, kProtocolTCP, b.size() + 2)));
}

TEST(TCPTest, ChecksumOverChainedPayload) {
  Lcg rng(10);
  for (int i = 0; i < 500; ++i) {
    size_t payload = rng.Next() % 1500;
    std::vector<uint8_t> b(40 + payload);
    rng.Fill(b);
    b[12] = 0xa0;  // data offset 40
    for (size_t j = 20; j < 40; ++j) b[j] = kOptionNop;
    MutableTCP tcp = *MutableTCP::Parse(b);
    uint16_t pseudo = PseudoHeaderSum(kSrc, kDst, kProtocolTCP, b.size());
    // Sum the payload in pieces of odd and even lengths, as a chain of
    // buffers would hold it.
    checksum::Checksummer c;
    size_t at = 40;
    while (at < b.size()) {
      size_t n = std::min<size_t>(1 + rng.Next() % 97, b.size() - at);
      c.Add(&b[at], n);
      at += n;
    }
    tcp.SetChecksum(tcp.ComputeChecksum(pseudo, c.Sum()));
    EXPECT_EQ(tcp.checksum(), ReferenceChecksum(kSrc, kDst, b)) << i;
    EXPECT_TRUE(tcp.IsChecksumValid(pseudo, c.Sum()));
    EXPECT_TRUE(tcp.IsChecksumValid(pseudo));
  }
}

TEST(TCPTest, EveryTruncationIsReported) {
  std::vector<uint8_t> b = SynSegment();
  for (size_t n = 0; n < b.size(); ++n) {
    std::vector<uint8_t> t(b.begin(), b.begin() + n);
    EXPECT_EQ(TCP::Parse(t).error(), Error::kTruncated) << n;
  }
  EXPECT_TRUE(TCP::Parse(b).ok());
}

TEST(TCPTest, DataOffsetBelowFiveIsBadHeaderLength) {
  std::vector<uint8_t> b = SynSegment();
  for (uint8_t off = 0; off < 5; ++off) {
    b[12] = static_cast<uint8_t>(off << 4);
    EXPECT_EQ(TCP::Parse(b).error(), Error::kBadHeaderLength);
  }
}

Error ParseOptionBytes(std::vector<uint8_t> area) {
  // An exact-size copy, so that ASan flags any read past the area.
  return ParseTCPOptions(area).error();
}

TEST(TCPTest, MalformedOptionListsAreReported) {
  EXPECT_EQ(ParseOptionBytes({2, 0, 5, 0xb4}), Error::kBadOptionLength);
  EXPECT_EQ(ParseOptionBytes({2, 1, 5, 0xb4}), Error::kBadOptionLength);
  EXPECT_EQ(ParseOptionBytes({2, 5, 5, 0xb4}), Error::kBadOptionLength);
  EXPECT_EQ(ParseOptionBytes({1, 1, 1, 2}), Error::kBadOptionLength);
  EXPECT_EQ(ParseOptionBytes({99, 0}), Error::kBadOptionLength);
  EXPECT_EQ(ParseOptionBytes({99, 1}), Error::kBadOptionLength);
  EXPECT_EQ(ParseOptionBytes({2, 3, 5, 0}), Error::kBadOptionLength);
  EXPECT_EQ(ParseOptionBytes({3, 4, 7, 0}), Error::kBadOptionLength);
  EXPECT_EQ(ParseOptionBytes({4, 3, 0, 0}), Error::kBadOptionLength);
  EXPECT_EQ(ParseOptionBytes({8, 8, 0, 0, 0, 0, 0, 0}),
            Error::kBadOptionLength);
  EXPECT_EQ(ParseOptionBytes({5, 2, 1, 1}), Error::kBadOptionLength);
  EXPECT_EQ(ParseOptionBytes({5, 11, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}),
            Error::kBadOptionLength);
  std::vector<uint8_t> five_blocks = {5, 42};
  five_blocks.resize(42);
  EXPECT_EQ(ParseOptionBytes(five_blocks), Error::kBadOptionLength);
}

TEST(TCPTest, UnknownOptionsAreSkippedAndEndStopsTheWalk) {
  // Unknown kind 30 (MPTCP) with 4 data bytes, then MSS, then EOL and
  // bytes that would be malformed if they were read.
  Result<TCPOptions> o = ParseTCPOptions(
      std::vector<uint8_t>{30, 6, 1, 2, 3, 4, 2, 4, 0x05, 0xdc, 0, 2, 0, 0xff});
  ASSERT_TRUE(o.ok()) << ToString(o.error());
  EXPECT_EQ(o->mss, 1500);
  EXPECT_FALSE(o->window_scale.has_value());
  EXPECT_TRUE(ParseTCPOptions({}).ok());
}

TEST(TCPTest, SackBlocksAreParsed) {
  Result<TCPOptions> o = ParseTCPOptions(
      std::vector<uint8_t>{1, 1,  5,    18,   0,    0,    0, 10, 0, 0,
                           0, 20, 0xff, 0xff, 0xff, 0xf0, 0, 0,  0, 5});
  ASSERT_TRUE(o.ok()) << ToString(o.error());
  ASSERT_EQ(o->sack_block_count, 2);
  EXPECT_EQ(o->sack_blocks[0], (SackBlock{10, 20}));
  EXPECT_EQ(o->sack_blocks[1], (SackBlock{0xfffffff0, 5}));
}

TEST(TCPTest, OptionsEncodeRoundTripsEveryCombination) {
  for (int mask = 0; mask < 32; ++mask) {
    for (uint8_t blocks = 0; blocks <= 4; ++blocks) {
      TCPOptions o;
      if (mask & 1) o.mss = 1220;
      if (mask & 2) o.window_scale = 14;
      if (mask & 4) o.sack_permitted = true;
      if (mask & 8) o.timestamps = TCPTimestamps{0xdeadbeef, 0x01020304};
      if (!(mask & 16) && blocks > 0) continue;
      o.sack_block_count = blocks;
      for (uint8_t i = 0; i < blocks; ++i) {
        o.sack_blocks[i] = SackBlock{1000u * i, 1000u * i + 500};
      }
      std::vector<uint8_t> out(TCPOptionsSize(o));
      Result<size_t> n = EncodeTCPOptions(o, out);
      if (TCPOptionsSize(o) > 40) {
        EXPECT_EQ(n.error(), Error::kBadField);
        continue;
      }
      ASSERT_TRUE(n.ok()) << mask << " " << int{blocks};
      EXPECT_EQ(*n, out.size());
      EXPECT_EQ(*n % 4, 0u);
      Result<TCPOptions> back = ParseTCPOptions(out);
      ASSERT_TRUE(back.ok());
      EXPECT_EQ(*back, o) << mask << " " << int{blocks};
    }
  }
}

TEST(TCPTest, OptionsEncodeMatchesTheKnownAnswerLayoutSize) {
  TCPOptions o;
  o.mss = 1460;
  o.sack_permitted = true;
  o.timestamps = TCPTimestamps{1, 0};
  o.window_scale = 7;
  std::vector<uint8_t> out(20);
  ASSERT_EQ(*EncodeTCPOptions(o, out), 20u);
  EXPECT_EQ(out, Hex("020405b4 0402080a 00000001 00000000 01030307"));
  std::vector<uint8_t> small(19);
  EXPECT_EQ(EncodeTCPOptions(o, small).error(), Error::kBufferTooSmall);
  o.sack_block_count = 5;
  EXPECT_EQ(EncodeTCPOptions(o, out).error(), Error::kBadField);
}

TEST(TCPTest, EncodeReproducesKnownAnswer) {
  std::vector<uint8_t> b = SynSegment();
  TCPFields f = TCP::Parse(b)->fields();
  std::vector<uint8_t> out(40);
  ASSERT_EQ(TCP::Encode(f, out), Error::kOk);
  EXPECT_EQ(out, b);
  std::vector<uint8_t> small(39);
  EXPECT_EQ(TCP::Encode(f, small), Error::kBufferTooSmall);
  const uint8_t odd[3] = {1, 1, 1};
  f.options = odd;
  EXPECT_EQ(TCP::Encode(f, out), Error::kBadField);
}

TEST(TCPTest, EncodeRoundTripsRandomFields) {
  Lcg rng(11);
  for (int i = 0; i < 1000; ++i) {
    uint8_t options[40];
    size_t nopts = rng.Next() % 11 * 4;
    rng.Fill(options);
    TCPFields f;
    f.source_port = static_cast<uint16_t>(rng.Next());
    f.destination_port = static_cast<uint16_t>(rng.Next());
    f.seq = rng.Next();
    f.ack = rng.Next();
    f.flags = rng.Byte();
    f.window = static_cast<uint16_t>(rng.Next());
    f.checksum = static_cast<uint16_t>(rng.Next());
    f.urgent_pointer = static_cast<uint16_t>(rng.Next());
    f.options = std::span<const uint8_t>(options, nopts);
    std::vector<uint8_t> out(20 + nopts);
    ASSERT_EQ(TCP::Encode(f, out), Error::kOk);
    TCPFields g = TCP::Parse(out)->fields();
    EXPECT_EQ(g.source_port, f.source_port);
    EXPECT_EQ(g.destination_port, f.destination_port);
    EXPECT_EQ(g.seq, f.seq);
    EXPECT_EQ(g.ack, f.ack);
    EXPECT_EQ(g.flags, f.flags);
    EXPECT_EQ(g.window, f.window);
    EXPECT_EQ(g.checksum, f.checksum);
    EXPECT_EQ(g.urgent_pointer, f.urgent_pointer);
    EXPECT_TRUE(std::equal(g.options.begin(), g.options.end(),
                           f.options.begin(), f.options.end()));
  }
}

TEST(TCPTest, NatUpdatesMatchRecompute) {
  Lcg rng(12);
  for (int i = 0; i < 20000; ++i) {
    size_t size = 20 + rng.Next() % 64;
    std::vector<uint8_t> b(size);
    rng.Fill(b);
    b[12] = 0x50;
    IPv4Address src = IPv4Address::FromHost(rng.Next());
    IPv4Address dst = IPv4Address::FromHost(rng.Next());
    MutableTCP tcp = *MutableTCP::Parse(b);
    tcp.SetChecksum(ReferenceChecksum(src, dst, b));
    switch (i % 4) {
      case 0:
        tcp.SetSourcePortAndUpdateChecksum(static_cast<uint16_t>(rng.Next()));
        break;
      case 1:
        tcp.SetDestinationPortAndUpdateChecksum(
            static_cast<uint16_t>(rng.Next()));
        break;
      case 2: {
        IPv4Address n = IPv4Address::FromHost(rng.Next());
        tcp.UpdateChecksumForAddressChange(src.bytes, n.bytes);
        src = n;
        break;
      }
      case 3: {
        IPv4Address n = IPv4Address::FromHost(rng.Next());
        tcp.UpdateChecksumForAddressChange(dst.bytes, n.bytes);
        dst = n;
        break;
      }
    }
    EXPECT_EQ(tcp.checksum(), ReferenceChecksum(src, dst, b)) << i;
    EXPECT_TRUE(
        tcp.IsChecksumValid(PseudoHeaderSum(src, dst, kProtocolTCP, b.size())));
  }
}

// A TCP checksum of 0x0000 is an ordinary value (the sum was 0xffff):
// updates from and to it must agree with a recompute.
TEST(TCPTest, PortRewriteThroughZeroChecksumMatchesRecompute) {
  std::vector<uint8_t> b = SynSegment();
  MutableTCP tcp = *MutableTCP::Parse(b);
  int zeros = 0;
  for (uint32_t port = 0; port <= 0xffff; ++port) {
    tcp.SetSourcePort(static_cast<uint16_t>(port));
    tcp.SetChecksum(ReferenceChecksum(kSrc, kDst, b));
    if (tcp.checksum() != 0) continue;
    ++zeros;
    tcp.SetDestinationPortAndUpdateChecksum(8080);
    EXPECT_EQ(tcp.checksum(), ReferenceChecksum(kSrc, kDst, b));
    tcp.SetDestinationPortAndUpdateChecksum(80);
    EXPECT_EQ(tcp.checksum(), 0);
  }
  EXPECT_EQ(zeros, 1);
}

TEST(TCPTest, MutableSettersWriteTheirFields) {
  std::vector<uint8_t> b = SynSegment();
  MutableTCP tcp = *MutableTCP::Parse(b);
  tcp.SetSourcePort(1);
  tcp.SetDestinationPort(2);
  tcp.SetSeq(3);
  tcp.SetAck(4);
  tcp.SetFlags(kTCPFlagAck | kTCPFlagFin);
  tcp.SetWindow(5);
  tcp.SetUrgentPointer(6);
  tcp.SetChecksum(7);
  TCPFields f = tcp.fields();
  EXPECT_EQ(f.source_port, 1);
  EXPECT_EQ(f.destination_port, 2);
  EXPECT_EQ(f.seq, 3u);
  EXPECT_EQ(f.ack, 4u);
  EXPECT_EQ(f.flags, 0x11);
  EXPECT_EQ(f.window, 5);
  EXPECT_EQ(f.urgent_pointer, 6);
  EXPECT_EQ(f.checksum, 7);
  EXPECT_EQ(b[13], 0x11);
}

}  // namespace
}  // namespace ipsum::header
