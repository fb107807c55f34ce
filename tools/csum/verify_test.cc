// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// CheckFrame and FixFrame on hand-built frames: a known answer, every
// verdict, the negative-zero rules, cut frames (every prefix of a frame),
// fragments, pseudo-header destinations, and arbitrary bytes on every link
// type. Runs on every target, big-endian mips64 included.

#include "tools/csum/verify.h"

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "checksum/checksum.h"
#include "checksum/endian.h"
#include "gtest/gtest.h"
#include "tools/csum/link.h"

namespace ipsum::csum {
namespace {

using Bytes = std::vector<uint8_t>;

constexpr uint32_t kRaw = static_cast<uint32_t>(LinkType::kRaw);
constexpr uint32_t kEthernet = static_cast<uint32_t>(LinkType::kEthernet);

Bytes Hex(const char* hex) {
  Bytes b;
  for (const char* p = hex; p[0] && p[1]; p += 2) {
    b.push_back(
        static_cast<uint8_t>(std::stoi(std::string(p, 2), nullptr, 16)));
  }
  return b;
}

// An IPv4/TCP packet whose checksums a byte-wise Python sum computed:
// header 0x9c6d, TCP 0xae45.
const char kKnownTcp[] =
    "4500002c1c46400040069c6dc0a80001c0a800c7"
    "30390050000000010000000050027210ae450000"
    "69707375";

// FieldValue is the complement of the sum of `b` with the two bytes at `field`
// read as zero, plus `initial`: what the field must hold.
uint16_t FieldValue(const Bytes& b, size_t start, size_t end, size_t field,
                    uint16_t initial) {
  Bytes copy(b.begin() + start, b.begin() + end);
  copy[field - start] = copy[field - start + 1] = 0;
  return static_cast<uint16_t>(~checksum::Checksum(copy, initial));
}

// IPv4 returns an IPv4 datagram around `transport` with right checksums;
// the transport's is computed into `field` unless it is SIZE_MAX.
Bytes IPv4(uint8_t protocol, Bytes transport, size_t field,
           uint16_t frag_word = 0x4000) {
  // Version/IHL, TOS, length, id, flags/offset, TTL, protocol, checksum,
  // 192.168.0.1 -> 192.168.0.199.
  Bytes ip = {0x45, 0, 0,   0,   0x1c, 0x46, 0,   0,   64, protocol,
              0,    0, 192, 168, 0,    1,    192, 168, 0,  199};
  StoreBig16(ip.data() + 2, static_cast<uint16_t>(20 + transport.size()));
  StoreBig16(ip.data() + 6, frag_word);
  StoreBig16(ip.data() + 10, FieldValue(ip, 0, 20, 10, 0));
  uint16_t pseudo = 0;
  if (protocol != 1) {
    pseudo = checksum::Checksum(std::span<const uint8_t>(ip).subspan(12, 8));
    pseudo = checksum::Combine(pseudo, protocol);
    pseudo = checksum::Combine(pseudo, static_cast<uint16_t>(transport.size()));
  }
  if (field != SIZE_MAX) {
    uint16_t v = FieldValue(transport, 0, transport.size(), field, pseudo);
    if (protocol == 17 && v == 0) v = 0xffff;
    StoreBig16(transport.data() + field, v);
  }
  ip.insert(ip.end(), transport.begin(), transport.end());
  return ip;
}

// IPv6 is IPv4 for IPv6, 2001::1 -> 2001::2.
Bytes IPv6(uint8_t next, Bytes transport, size_t field) {
  Bytes ip(40, 0);
  ip[0] = 0x60;
  StoreBig16(ip.data() + 4, static_cast<uint16_t>(transport.size()));
  ip[6] = next;
  ip[7] = 64;
  ip[8] = ip[24] = 0x20;
  ip[9] = ip[25] = 0x01;
  ip[23] = 1;
  ip[39] = 2;
  uint16_t pseudo =
      checksum::Checksum(std::span<const uint8_t>(ip).subspan(8, 32));
  pseudo = checksum::Combine(pseudo, static_cast<uint16_t>(transport.size()));
  pseudo = checksum::Combine(pseudo, next);
  uint16_t v = FieldValue(transport, 0, transport.size(), field, pseudo);
  if (next == 17 && v == 0) v = 0xffff;
  StoreBig16(transport.data() + field, v);
  ip.insert(ip.end(), transport.begin(), transport.end());
  return ip;
}

Bytes Tcp(size_t payload) {
  // Ports 12345 -> 80, seq 1, data offset 5, SYN, window 0x7210.
  Bytes t = Hex("3039005000000001000000005002721000000000");
  for (size_t i = 0; i < payload; ++i) t.push_back(static_cast<uint8_t>(i * 7));
  return t;
}

Bytes Udp(size_t payload) {
  Bytes u = {0x14, 0xe9, 0xd2, 0x0f, 0, 0, 0, 0};
  StoreBig16(u.data() + 4, static_cast<uint16_t>(8 + payload));
  for (size_t i = 0; i < payload; ++i) u.push_back(static_cast<uint8_t>(i + 1));
  return u;
}

Bytes WithEthernet(const Bytes& ip) {
  Bytes f = {2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1, 0x08, 0x00};
  if ((ip[0] >> 4) == 6) f[12] = 0x86, f[13] = 0xdd;
  f.insert(f.end(), ip.begin(), ip.end());
  return f;
}

TEST(CheckFrame, KnownAnswer) {
  Bytes pkt = Hex(kKnownTcp);
  FrameCheck c = CheckFrame(kRaw, pkt);
  EXPECT_EQ(c.kind, FrameKind::kIPv4);
  ASSERT_EQ(c.field_count, 2);
  EXPECT_EQ(c.fields[0].layer, Layer::kIPv4);
  EXPECT_EQ(c.fields[0].verdict, Verdict::kGood);
  EXPECT_EQ(c.fields[0].computed, 0x9c6d);
  EXPECT_EQ(c.fields[0].offset, 10u);
  EXPECT_EQ(c.fields[1].layer, Layer::kTCP);
  EXPECT_EQ(c.fields[1].verdict, Verdict::kGood);
  EXPECT_EQ(c.fields[1].stored, 0xae45);
  EXPECT_EQ(c.fields[1].computed, 0xae45);
  EXPECT_EQ(c.fields[1].offset, 36u);
}

TEST(CheckFrame, CorruptedChecksumsAreBadAndFixRestoresThem) {
  Bytes frame = WithEthernet(Hex(kKnownTcp));
  frame[14 + 10] ^= 0x01;
  frame[14 + 36 + 1] ^= 0x80;
  FrameCheck c = CheckFrame(kEthernet, frame);
  ASSERT_EQ(c.field_count, 2);
  EXPECT_EQ(c.fields[0].verdict, Verdict::kBad);
  EXPECT_EQ(c.fields[0].computed, 0x9c6d);
  EXPECT_EQ(c.fields[0].offset, 24u);
  EXPECT_EQ(c.fields[1].verdict, Verdict::kBad);
  EXPECT_EQ(c.fields[1].stored, 0xaec5);
  EXPECT_EQ(c.fields[1].offset, 50u);
  EXPECT_EQ(FixFrame(c, frame), 2u);
  EXPECT_EQ(frame, WithEthernet(Hex(kKnownTcp)));
}

TEST(CheckFrame, StoredAllOnesWhereZeroIsComputedIsGood) {
  // Make the TCP data sum to 0xffff with the field zero, so a recompute
  // gives 0x0000; then store the other zero, 0xffff.
  Bytes tcp = Tcp(8);
  Bytes pkt = IPv4(6, tcp, 16);
  // A payload word w becomes w + ~sum: the data then sums to 0xffff.
  StoreBig16(pkt.data() + 40, checksum::Combine(LoadBig16(pkt.data() + 40),
                                                LoadBig16(pkt.data() + 36)));
  StoreBig16(pkt.data() + 36, 0);
  FrameCheck c = CheckFrame(kRaw, pkt);
  ASSERT_EQ(c.field_count, 2);
  ASSERT_EQ(c.fields[1].computed, 0x0000);
  EXPECT_EQ(c.fields[1].verdict, Verdict::kGood);
  StoreBig16(pkt.data() + 36, 0xffff);
  c = CheckFrame(kRaw, pkt);
  EXPECT_EQ(c.fields[1].verdict, Verdict::kGood);
  EXPECT_EQ(c.fields[1].stored, 0xffff);
  EXPECT_EQ(c.fields[1].computed, 0x0000);
  EXPECT_EQ(FixFrame(c, pkt), 0u);  // good fields are left alone
}

TEST(CheckFrame, StoredZeroWhereAllOnesIsComputedIsBad) {
  // ICMPv4 Echo Reply, identifier, sequence and data all zero: ~0 = 0xffff.
  Bytes pkt = IPv4(1, Bytes(8, 0), SIZE_MAX);
  FrameCheck c = CheckFrame(kRaw, pkt);
  ASSERT_EQ(c.field_count, 2);
  EXPECT_EQ(c.fields[1].layer, Layer::kICMPv4);
  EXPECT_EQ(c.fields[1].verdict, Verdict::kBad);
  EXPECT_EQ(c.fields[1].stored, 0x0000);
  EXPECT_EQ(c.fields[1].computed, 0xffff);
  EXPECT_EQ(FixFrame(c, pkt), 1u);
  c = CheckFrame(kRaw, pkt);
  EXPECT_EQ(c.fields[1].verdict, Verdict::kGood);
}

TEST(CheckFrame, ComputedAndVerdictMatchTheReferenceForAnyStoredValue) {
  // ICMPv4 (no pseudo-header) and the IPv4 header with random stored fields,
  // including the residue where the sum has two zeros: ICMP data all zero
  // (sum 0x0000) or made to sum to 0xffff, stored 0x0000 or 0xffff.
  std::mt19937 rng(1071);
  for (int i = 0; i < 4000; ++i) {
    Bytes icmp(8 + rng() % 64);
    if (i % 4 != 0) {
      for (uint8_t& b : icmp) b = static_cast<uint8_t>(rng());
      icmp[0] = 8;  // Echo: an error's quote would add fields
    }
    Bytes pkt = IPv4(1, icmp, SIZE_MAX);
    StoreBig16(pkt.data() + 22, 0);
    if (i % 4 == 1) {
      // A data word w becomes w + ~sum: the data then sums to 0xffff.
      const uint16_t sum = checksum::Checksum(pkt.data() + 20, pkt.size() - 20);
      StoreBig16(pkt.data() + 24,
                 checksum::Combine(LoadBig16(pkt.data() + 24),
                                   static_cast<uint16_t>(~sum)));
    }
    const uint16_t kStored[] = {0x0000, 0xffff, static_cast<uint16_t>(rng())};
    const uint16_t stored = kStored[i % 3];
    StoreBig16(pkt.data() + 22, stored);
    const uint16_t header_stored = static_cast<uint16_t>(rng());
    StoreBig16(pkt.data() + 10, header_stored);

    FrameCheck c = CheckFrame(kRaw, pkt);
    ASSERT_EQ(c.field_count, 2);
    const uint16_t header_want = FieldValue(pkt, 0, 20, 10, 0);
    EXPECT_EQ(c.fields[0].computed, header_want);
    EXPECT_EQ(c.fields[0].verdict,
              header_stored == header_want ||
                      (header_want == 0 && header_stored == 0xffff)
                  ? Verdict::kGood
                  : Verdict::kBad);
    const uint16_t want = FieldValue(pkt, 20, pkt.size(), 22, 0);
    ASSERT_EQ(c.fields[1].layer, Layer::kICMPv4);
    EXPECT_EQ(c.fields[1].computed, want) << "case " << i;
    // See verify.h on negative zero.
    EXPECT_EQ(c.fields[1].verdict,
              stored == want || (want == 0 && stored == 0xffff) ? Verdict::kGood
                                                                : Verdict::kBad)
        << "case " << i;
  }
}

TEST(CheckFrame, ZeroUdpChecksumIsNoneOverIPv4AndBadOverIPv6) {
  Bytes v4 = IPv4(17, Udp(10), 6);
  StoreBig16(v4.data() + 26, 0);
  FrameCheck c = CheckFrame(kRaw, v4);
  ASSERT_EQ(c.field_count, 2);
  EXPECT_EQ(c.fields[1].verdict, Verdict::kNone);
  EXPECT_FALSE(c.fields[1].has_computed);
  EXPECT_EQ(FixFrame(c, v4), 0u);

  Bytes v6 = IPv6(17, Udp(10), 6);
  const uint16_t right = LoadBig16(v6.data() + 46);
  StoreBig16(v6.data() + 46, 0);
  c = CheckFrame(kRaw, v6);
  ASSERT_EQ(c.field_count, 1);
  EXPECT_EQ(c.fields[0].layer, Layer::kUDP);
  EXPECT_EQ(c.fields[0].verdict, Verdict::kBad);
  EXPECT_EQ(c.fields[0].computed, right);
}

TEST(CheckFrame, UdpComputingZeroHoldsAllOnes) {
  Bytes udp = Udp(4);
  Bytes pkt = IPv4(17, udp, 6);
  // Make the data sum to 0xffff: the RFC 768 field is then 0xffff.
  StoreBig16(pkt.data() + 28, checksum::Combine(LoadBig16(pkt.data() + 28),
                                                LoadBig16(pkt.data() + 26)));
  StoreBig16(pkt.data() + 26, 0xffff);
  FrameCheck c = CheckFrame(kRaw, pkt);
  ASSERT_EQ(c.field_count, 2);
  EXPECT_EQ(c.fields[1].computed, 0xffff);
  EXPECT_EQ(c.fields[1].verdict, Verdict::kGood);
}

TEST(CheckFrame, EveryPrefixIsJudgedOnlyWhenCovered) {
  for (const Bytes& ip :
       {IPv4(6, Tcp(40), 16), IPv4(17, Udp(21), 6), IPv6(58, Udp(30), 2)}) {
    const Bytes frame = WithEthernet(ip);
    const FrameCheck whole = CheckFrame(kEthernet, frame);
    for (const FieldCheck& f : whole.checks()) {
      EXPECT_EQ(f.verdict, Verdict::kGood);
    }
    for (size_t n = 0; n < frame.size(); ++n) {
      // A copy of exactly n bytes, so ASan sees any read past them.
      Bytes cut(frame.begin(), frame.begin() + n);
      FrameCheck c = CheckFrame(kEthernet, cut);
      for (const FieldCheck& f : c.checks()) {
        if (f.layer == Layer::kIP) {
          // An IPv6 header cut short: the datagram's one record.
          EXPECT_TRUE(n >= 14 && n < 14 + 40 && ip[0] >> 4 == 6) << n;
          EXPECT_EQ(f.reason, Reason::kTruncated) << n;
          EXPECT_FALSE(f.has_stored) << n;
          continue;
        }
        size_t offset = 0;
        for (const FieldCheck& w : whole.checks()) {
          if (w.layer == f.layer) offset = w.offset;
        }
        if (f.layer == Layer::kIPv4) {
          bool header = n >= 14 + 20;
          EXPECT_EQ(f.verdict == Verdict::kGood, header) << n;
          EXPECT_NE(f.verdict, Verdict::kBad) << n;
        } else {
          EXPECT_EQ(f.verdict, Verdict::kUnverified) << n;
        }
        EXPECT_EQ(f.has_stored, offset + 2 <= n) << n;
        if (f.has_stored) {
          EXPECT_EQ(f.offset, offset);
        }
      }
    }
  }
}

TEST(CheckFrame, IPLengthPastTheBytesIsUnverified) {
  Bytes pkt = IPv4(6, Tcp(20), 16);
  StoreBig16(pkt.data() + 2, static_cast<uint16_t>(pkt.size() + 100));
  StoreBig16(pkt.data() + 10, 0);
  StoreBig16(pkt.data() + 10, FieldValue(pkt, 0, 20, 10, 0));
  FrameCheck c = CheckFrame(kRaw, pkt);
  ASSERT_EQ(c.field_count, 2);
  EXPECT_EQ(c.fields[0].verdict, Verdict::kGood);
  EXPECT_EQ(c.fields[1].verdict, Verdict::kUnverified);
  EXPECT_TRUE(c.fields[1].has_stored);
}

TEST(CheckFrame, FragmentTransportIsUnverifiedHeaderJudged) {
  // First fragment (MF): TCP header present, checksum over the whole
  // datagram unknown.
  Bytes first = IPv4(6, Tcp(16), 16, /*frag_word=*/0x2000);
  FrameCheck c = CheckFrame(kRaw, first);
  ASSERT_EQ(c.field_count, 2);
  EXPECT_EQ(c.fields[0].verdict, Verdict::kGood);
  EXPECT_EQ(c.fields[1].verdict, Verdict::kUnverified);
  EXPECT_TRUE(c.fields[1].has_stored);
  // A later fragment carries no transport header at all.
  Bytes later = IPv4(6, Bytes(16, 0xaa), SIZE_MAX, /*frag_word=*/0x0003);
  c = CheckFrame(kRaw, later);
  ASSERT_EQ(c.field_count, 1);
  EXPECT_EQ(c.fields[0].verdict, Verdict::kGood);
}

TEST(CheckFrame, NotIPAndUndecodable) {
  Bytes arp = {2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1, 0x08, 0x06, 0, 1};
  EXPECT_EQ(CheckFrame(kEthernet, arp).kind, FrameKind::kNotIP);
  Bytes bad_ihl = IPv4(6, Tcp(0), 16);
  bad_ihl[0] = 0x43;
  FrameCheck c = CheckFrame(kRaw, bad_ihl);
  EXPECT_EQ(c.kind, FrameKind::kUndecodable);
  // The datagram's one record says why none of its fields was located.
  ASSERT_EQ(c.field_count, 1);
  EXPECT_EQ(c.fields[0].layer, Layer::kIP);
  EXPECT_EQ(c.fields[0].verdict, Verdict::kUnverified);
  EXPECT_EQ(c.fields[0].reason, Reason::kMalformed);
  EXPECT_EQ(c.fields[0].ip_depth, 1);
  EXPECT_EQ(c.undecoded_depth, 1);
  EXPECT_EQ(c.reason, "IPv4 IHL below 5");
  EXPECT_EQ(CheckFrame(105, arp).kind, FrameKind::kUnsupportedLink);
}

TEST(CheckFrame, ArbitraryBytesOnEveryLinkTypeStayInBounds) {
  std::mt19937 rng(7);
  const uint32_t types[] = {0, 1, 101, 108, 113, 228, 229, 276};
  for (int i = 0; i < 4000; ++i) {
    Bytes b(rng() % 120);
    for (auto& x : b) x = static_cast<uint8_t>(rng());
    // Make IP likely behind each header.
    if (b.size() > 24 && (i & 1)) {
      b[0] = b[4] = b[16] = b[20] = 0x45;
      b[12] = 0x08;
      b[13] = 0x00;
    }
    for (uint32_t t : types) {
      FrameCheck c = CheckFrame(t, b);
      Bytes copy = b;
      FixFrame(c, copy);
      for (const FieldCheck& f : c.checks()) {
        if (f.has_stored) {
          EXPECT_LE(f.offset + 2, b.size());
        }
      }
    }
  }
}

// Describe prints what a FrameCheck says, for failure messages.
std::string Describe(const FrameCheck& c) {
  std::string s = "kind " + std::to_string(static_cast<int>(c.kind)) + " '" +
                  std::string(c.reason) + "' undecoded " +
                  std::to_string(c.undecoded_depth) +
                  (c.tunneled ? " tunneled" : "") +
                  (c.depth_limited ? " depth_limited" : "");
  for (const FieldCheck& f : c.checks()) {
    s += "\n  " + std::string(LayerName(f.layer)) + "@" +
         std::to_string(f.ip_depth) + " " +
         std::string(VerdictName(f.verdict)) + " '" +
         std::string(ReasonName(f.reason)) + "' stored " +
         (f.has_stored ? std::to_string(f.stored) : "-") + " at " +
         std::to_string(f.offset) + " computed " +
         (f.has_computed ? std::to_string(f.computed) : "-") +
         (f.tso ? " tso" : "");
  }
  return s;
}

// TcpWithOptions is Tcp with the option area `options` (a multiple of 4
// bytes) after the fixed header.
Bytes TcpWithOptions(const Bytes& options, size_t payload) {
  Bytes t = Tcp(payload);
  t.insert(t.begin() + 20, options.begin(), options.end());
  t[12] = static_cast<uint8_t>((20 + options.size()) / 4 << 4);
  return t;
}

// UdpTo is Udp to destination port `port`.
Bytes UdpTo(uint16_t port, size_t payload) {
  Bytes u = Udp(payload);
  StoreBig16(u.data() + 2, port);
  return u;
}

// FastLink is a link layer CheckFrame's fast path takes: its type, the
// size of its header, and that header for a datagram of IP version 4 or 6.
struct FastLink {
  uint32_t type;
  size_t size;
  Bytes (*header)(bool v4);
};

const FastLink kFastLinks[] = {
    // Ethernet: to 02:00:00:00:00:02 from 02:00:00:00:00:01.
    {kEthernet, 14,
     [](bool v4) {
       return Hex(v4 ? "0200000000020200000000010800"
                     : "02000000000202000000000186dd");
     }},
    {kRaw, 0, [](bool) { return Bytes{}; }},
    // Linux cooked, version 1: to us, ARPHRD_ETHER, a 6-byte address.
    {113, 16,
     [](bool v4) {
       return Hex(v4 ? "00000001000602000000000100000800"
                     : "000000010006020000000001000086dd");
     }},
    // Linux cooked, version 2: protocol first, interface 3, ARPHRD_ETHER,
    // to us, a 6-byte address.
    {276, 20,
     [](bool v4) {
       return Hex(v4 ? "0800000000000003000100060200000000010000"
                     : "86dd000000000003000100060200000000010000");
     }},
    // BSD loopback: AF_INET or Linux's AF_INET6, little-endian.
    {0, 4, [](bool v4) { return Hex(v4 ? "02000000" : "0a000000"); }},
    // Ethernet with one MPLS label: IP behind a shim.
    {kEthernet, 18,
     [](bool) { return Hex("020000000002020000000001884700010140"); }},
};

// WithLink returns `ip` behind `link`'s header.
Bytes WithLink(const FastLink& link, const Bytes& ip) {
  Bytes f = link.header((ip[0] >> 4) == 4);
  f.insert(f.end(), ip.begin(), ip.end());
  return f;
}

// ExpectFastAsGeneral checks that `frame` of `link_type`, judged at each of
// three wire lengths (unknown, the frame's, longer), gets from CheckFrame
// what the general walk gives, and from the fast path alone the same when
// it takes the frame; returns whether it took it.
bool ExpectFastAsGeneral(uint32_t link_type, const Bytes& frame,
                         const std::string& what) {
  FrameCheck fast;
  const bool taken = CheckFrameFast(link_type, frame, fast);
  for (size_t wire : {size_t{0}, frame.size(), frame.size() + 4}) {
    const FrameCheck got = CheckFrame(link_type, frame, wire);
    const FrameCheck want = CheckFrameGeneral(link_type, frame, wire);
    EXPECT_TRUE(got == want) << what << " wire " << wire << "\nCheckFrame: "
                             << Describe(got)
                             << "\ngeneral walk: " << Describe(want);
    if (taken) {
      EXPECT_TRUE(fast == want) << what << " wire " << wire
                                << "\nfast path: " << Describe(fast)
                                << "\ngeneral walk: " << Describe(want);
    }
  }
  return taken;
}

// CheckFrame judges frames of the fast shape at fixed offsets: whatever it
// says of a frame must be what the general walk says. Each datagram below,
// behind each link layer the fast path takes, and each copy of that frame
// with one byte of its headers (or its last byte) changed, cut short or
// padded, is judged both ways, with the wire length unknown, equal to the
// frame's and longer; the fast path must take the datagrams of the shape
// and refuse the others.
TEST(FastShape, JudgedAsTheGeneralWalkJudges) {
  const Bytes kTimestamps = Hex("0101080a0000000100000002");
  const Bytes kOtherOptions = Hex("020405b40402080a00000001000000020103030700");
  Bytes other = kOtherOptions;
  other.resize(24, 0);  // MSS, SACK-Permitted, Timestamps, Window Scale
  const Bytes kBadOptions = Hex("02020000");  // MSS of length 2
  struct Datagram {
    Bytes bytes;
    bool fast;  // Whether the fast path takes it.
  };
  std::vector<Datagram> datagrams = {
      {IPv4(6, Tcp(0), 16), true},
      {IPv4(6, Tcp(1), 16), true},
      {IPv4(6, Tcp(301), 16), true},
      {IPv4(6, TcpWithOptions(kTimestamps, 40), 16), true},
      {IPv4(6, TcpWithOptions(other, 41), 16), true},
      {IPv4(6, TcpWithOptions(kBadOptions, 9), 16), false},
      {IPv4(17, Udp(30), 6), true},
      {IPv4(17, Udp(31), SIZE_MAX), true},  // no checksum sent
      {IPv4(17, UdpTo(4789, 40), 6), false},  // VXLAN: the walk follows it
      {IPv4(17, UdpTo(6081, 40), 6), false},  // Geneve likewise
      {IPv6(6, Tcp(7), 16), true},
      {IPv6(6, TcpWithOptions(kTimestamps, 100), 16), true},
      {IPv6(17, Udp(13), 6), true},
  };
  // An IPv6 UDP datagram whose field is zero (bad: RFC 8200 8.1).
  datagrams.push_back({datagrams.back().bytes, false});
  StoreBig16(datagrams.back().bytes.data() + 40 + 6, 0);
  for (const FastLink& link : kFastLinks) {
    SCOPED_TRACE(::testing::Message() << "link type " << link.type << ", "
                                      << link.size << "-byte header");
    size_t fast = 0;
    size_t general = 0;
    for (size_t k = 0; k < datagrams.size(); ++k) {
      const Bytes base = WithLink(link, datagrams[k].bytes);
      const std::string what = "datagram " + std::to_string(k);
      EXPECT_EQ(ExpectFastAsGeneral(link.type, base, what), datagrams[k].fast)
          << what;
      std::vector<Bytes> variants;
      for (size_t i = 0; i < base.size(); ++i) {
        if (i >= link.size + 76 && i + 1 != base.size()) continue;
        for (uint8_t v : {uint8_t(base[i] ^ 0xff), uint8_t(base[i] ^ 0x01),
                          uint8_t(0), uint8_t(0xff)}) {
          if (v == base[i]) continue;
          variants.push_back(base);
          variants.back()[i] = v;
        }
      }
      for (size_t cut = 1; cut <= 3; ++cut) {
        variants.emplace_back(base.begin(), base.end() - cut);
      }
      variants.push_back(base);
      variants.back().push_back(0);
      for (const Bytes& f : variants) {
        const bool taken = ExpectFastAsGeneral(link.type, f, what);
        fast += taken;
        general += !taken;
        if (::testing::Test::HasFailure()) return;
      }
    }
    // Both paths judged many frames: the fast one the datagrams of the
    // shape and the copies whose change left it (a payload byte, a
    // checksum), the general walk the rest.
    EXPECT_GT(fast, 500u);
    EXPECT_GT(general, 500u);
  }
}

// The fast path takes a frame whatever its transport checksum field holds,
// but a zero over IPv6 UDP (never valid there: RFC 8200 8.1), and judges
// every value as the general walk does: good, bad, offload, both zeros.
TEST(FastShape, EveryStoredValueAsTheGeneralWalk) {
  struct Case {
    Bytes frame;
    size_t field;
    bool zero_refused;
  };
  const Case cases[] = {
      {WithEthernet(IPv4(6, Tcp(33), 16)), 14 + 20 + 16, false},
      {WithEthernet(IPv4(17, Udp(20), 6)), 14 + 20 + 6, false},
      {WithEthernet(IPv6(17, Udp(20), 6)), 14 + 40 + 6, true},
  };
  for (const Case& c : cases) {
    Bytes f = c.frame;
    for (uint32_t v = 0; v <= 0xffff; ++v) {
      StoreBig16(f.data() + c.field, static_cast<uint16_t>(v));
      FrameCheck fast;
      const bool taken = CheckFrameFast(kEthernet, f, fast);
      ASSERT_EQ(taken, v != 0 || !c.zero_refused) << v;
      const FrameCheck got = CheckFrame(kEthernet, f);
      const FrameCheck want = CheckFrameGeneral(kEthernet, f);
      ASSERT_TRUE(!taken || fast == want) << v;
      ASSERT_TRUE(got == want) << v << "\nCheckFrame: " << Describe(got)
                               << "\ngeneral walk: " << Describe(want);
    }
  }
}

TEST(Names, AreStable) {
  EXPECT_EQ(LayerName(Layer::kICMPv6), "icmpv6");
  EXPECT_EQ(VerdictName(Verdict::kUnverified), "unverified");
  EXPECT_EQ(VerdictName(Verdict::kNone), "none");
}

// PseudoSum is the folded pseudo-header sum of the IPv4 datagram `ip`
// with transport length `length`, built here from the address bytes.
uint16_t PseudoSum(const Bytes& ip, uint16_t length) {
  uint16_t pseudo =
      checksum::Checksum(std::span<const uint8_t>(ip).subspan(12, 8));
  pseudo = checksum::Combine(pseudo, ip[9]);
  return checksum::Combine(pseudo, length);
}

TEST(Reason, GoodAndNoneHaveNone) {
  FrameCheck c = CheckFrame(kRaw, IPv4(6, Tcp(10), 16));
  ASSERT_EQ(c.field_count, 2);
  EXPECT_EQ(c.fields[1].verdict, Verdict::kGood);
  EXPECT_EQ(c.fields[1].reason, Reason::kNone);
  Bytes u = IPv4(17, Udp(10), SIZE_MAX);
  c = CheckFrame(kRaw, u);
  EXPECT_EQ(c.fields[1].verdict, Verdict::kNone);
  EXPECT_EQ(c.fields[1].reason, Reason::kNone);
}

TEST(Reason, OffloadPseudoHeaderSumWithAndWithoutLength) {
  for (uint8_t proto : {uint8_t{6}, uint8_t{17}}) {
    Bytes t = proto == 6 ? Tcp(33) : Udp(33);
    const size_t field = proto == 6 ? 16 : 6;
    Bytes ip = IPv4(proto, t, field);
    for (uint16_t length : {static_cast<uint16_t>(t.size()), uint16_t{0}}) {
      Bytes f = ip;
      StoreBig16(f.data() + 20 + field, PseudoSum(ip, length));
      FrameCheck c = CheckFrame(kRaw, f);
      ASSERT_EQ(c.field_count, 2);
      EXPECT_EQ(c.fields[1].verdict, Verdict::kBad);
      EXPECT_EQ(c.fields[1].reason, Reason::kOffload) << int{proto};
    }
    // Any other wrong value has no reason.
    Bytes f = ip;
    StoreBig16(f.data() + 20 + field,
               static_cast<uint16_t>(PseudoSum(ip, 0) + 1));
    FrameCheck c = CheckFrame(kRaw, f);
    EXPECT_EQ(c.fields[1].verdict, Verdict::kBad);
    EXPECT_EQ(c.fields[1].reason, Reason::kNone);
  }
}

TEST(Reason, OffloadZero) {
  // TCP over IPv4 and UDP over IPv6 with the field zero; an IPv4 header
  // checksum left zero.
  Bytes tcp = IPv4(6, Tcp(12), 16);
  StoreBig16(tcp.data() + 36, 0);
  FrameCheck c = CheckFrame(kRaw, tcp);
  EXPECT_EQ(c.fields[1].verdict, Verdict::kBad);
  EXPECT_EQ(c.fields[1].reason, Reason::kOffload);
  Bytes udp6 = IPv6(17, Udp(12), 6);
  StoreBig16(udp6.data() + 46, 0);
  c = CheckFrame(kRaw, udp6);
  ASSERT_EQ(c.field_count, 1);
  EXPECT_EQ(c.fields[0].verdict, Verdict::kBad);
  EXPECT_EQ(c.fields[0].reason, Reason::kOffload);
  Bytes hdr = IPv4(6, Tcp(12), 16);
  StoreBig16(hdr.data() + 10, 0);
  c = CheckFrame(kRaw, hdr);
  EXPECT_EQ(c.fields[0].verdict, Verdict::kBad);
  EXPECT_EQ(c.fields[0].reason, Reason::kOffload);
  EXPECT_EQ(c.fields[1].reason, Reason::kNone);
}

TEST(Reason, IcmpZeroIsNotOffload) {
  // ICMP checksums are the stack's own: a bad zero there has no reason.
  Bytes echo = {8, 0, 0, 0, 0, 1, 0, 2, 'a', 'b'};
  Bytes ip = IPv4(1, echo, 2);
  StoreBig16(ip.data() + 22, 0);
  FrameCheck c = CheckFrame(kRaw, ip);
  EXPECT_EQ(c.fields[1].verdict, Verdict::kBad);
  EXPECT_EQ(c.fields[1].reason, Reason::kNone);
}

TEST(Reason, Truncated) {
  Bytes ip = IPv4(6, Tcp(40), 16);
  // Cut inside the payload, before the field, inside the IPv4 header.
  for (size_t cut : {size_t{50}, size_t{30}, size_t{15}}) {
    FrameCheck c = CheckFrame(kRaw, std::span<const uint8_t>(ip).first(cut));
    for (const FieldCheck& f : c.checks()) {
      if (f.verdict == Verdict::kUnverified) {
        EXPECT_EQ(f.reason, Reason::kTruncated) << cut;
      }
    }
    EXPECT_EQ(c.fields[c.field_count - 1].verdict, Verdict::kUnverified);
  }
}

TEST(Reason, Fragment) {
  // More Fragments set: the first fragment, whose UDP length covers more
  // than it carries, is a fragment, not a bad length.
  Bytes u = Udp(32);
  StoreBig16(u.data() + 4, 300);
  FrameCheck c = CheckFrame(kRaw, IPv4(17, u, 6, 0x2000));
  ASSERT_EQ(c.field_count, 2);
  EXPECT_EQ(c.fields[1].verdict, Verdict::kUnverified);
  EXPECT_EQ(c.fields[1].reason, Reason::kFragment);
}

TEST(Reason, UdpLengthContradictsIpLength) {
  // Past the IP payload, and below the UDP header: bad-length. Short of it,
  // the rest is padding and the datagram is judged over its UDP length.
  for (uint16_t length :
       {uint16_t{41}, uint16_t{500}, uint16_t{7}, uint16_t{0}}) {
    Bytes u = Udp(32);
    StoreBig16(u.data() + 4, length);
    for (bool v6 : {false, true}) {
      Bytes ip = v6 ? IPv6(17, u, 6) : IPv4(17, u, 6);
      FrameCheck c = CheckFrame(kRaw, ip);
      const FieldCheck& f = c.fields[c.field_count - 1];
      EXPECT_EQ(f.layer, Layer::kUDP);
      EXPECT_EQ(f.verdict, Verdict::kUnverified) << length << v6;
      EXPECT_EQ(f.reason, Reason::kBadLength) << length << v6;
      EXPECT_FALSE(f.has_computed);
    }
  }
  // A UDP length of 20 in a 40-byte IP payload: judged over 20 bytes.
  Bytes u = Udp(12);
  Bytes padded = u;
  padded.resize(40, 0xee);
  Bytes ip = IPv4(17, padded, SIZE_MAX);
  const uint16_t pseudo = PseudoSum(ip, 20);
  StoreBig16(ip.data() + 26, FieldValue(ip, 20, 40, 26, pseudo));
  FrameCheck c = CheckFrame(kRaw, ip);
  EXPECT_EQ(c.fields[1].verdict, Verdict::kGood);
  EXPECT_EQ(c.fields[1].reason, Reason::kNone);
}

TEST(Reason, IpLengthTooShortForTheField) {
  // Total Length 24 leaves the TCP checksum outside the datagram.
  Bytes ip = IPv4(6, Tcp(0), 16);
  StoreBig16(ip.data() + 2, 24);
  StoreBig16(ip.data() + 10, 0);
  StoreBig16(ip.data() + 10, FieldValue(ip, 0, 20, 10, 0));
  FrameCheck c = CheckFrame(kRaw, ip);
  ASSERT_EQ(c.field_count, 2);
  EXPECT_EQ(c.fields[0].verdict, Verdict::kGood);
  EXPECT_EQ(c.fields[1].verdict, Verdict::kUnverified);
  EXPECT_EQ(c.fields[1].reason, Reason::kBadLength);
}

TEST(Reason, Names) {
  EXPECT_EQ(ReasonName(Reason::kNone), "");
  EXPECT_EQ(ReasonName(Reason::kOffload), "offload");
  EXPECT_EQ(ReasonName(Reason::kTruncated), "truncated");
  EXPECT_EQ(ReasonName(Reason::kFragment), "fragment");
  EXPECT_EQ(ReasonName(Reason::kBadLength), "bad-length");
  EXPECT_EQ(ReasonName(Reason::kRoutingHeader), "routing-header");
  EXPECT_EQ(ReasonName(Reason::kMalformed), "malformed");
  EXPECT_EQ(ReasonName(Reason::kUnsupported), "unsupported");
  EXPECT_EQ(LayerName(Layer::kIP), "ip");
}

// TsoFrame is an Ethernet IPv4/TCP frame carrying `payload` bytes whose
// Total Length is then set to `total` (the header checksum re-sealed); the
// TCP checksum covers the bytes present, the pseudo-header their length
// (32 bits, as a sender past 64 KiB sums it).
Bytes TsoFrame(size_t payload, uint16_t total) {
  Bytes t = Tcp(payload);
  Bytes ip = {0x45, 0, 0,  0, 0x1c, 0x46, 0x40, 0, 64, 6,
              0,    0, 10, 0, 0,    1,    10,   0, 0,  2};
  StoreBig16(ip.data() + 2, total);
  StoreBig16(ip.data() + 10, FieldValue(ip, 0, 20, 10, 0));
  uint16_t pseudo =
      checksum::Checksum(std::span<const uint8_t>(ip).subspan(12, 8));
  pseudo = checksum::Combine(pseudo, 6);
  pseudo = checksum::Combine(pseudo, static_cast<uint16_t>(t.size()));
  pseudo = checksum::Combine(pseudo, static_cast<uint16_t>(t.size() >> 16));
  StoreBig16(t.data() + 16, FieldValue(t, 0, t.size(), 16, pseudo));
  ip.insert(ip.end(), t.begin(), t.end());
  return WithEthernet(ip);
}

TEST(Tso, ZeroTotalLengthJudgedOverTheFrame) {
  Bytes f = TsoFrame(3000, 0);
  FrameCheck c = CheckFrame(kEthernet, f, f.size());
  ASSERT_EQ(c.field_count, 2);
  EXPECT_EQ(c.kind, FrameKind::kIPv4);
  EXPECT_EQ(c.fields[0].verdict, Verdict::kGood);
  EXPECT_FALSE(c.fields[0].tso);
  EXPECT_EQ(c.fields[1].verdict, Verdict::kGood);
  EXPECT_TRUE(c.fields[1].tso);
  EXPECT_EQ(c.fields[1].reason, Reason::kNone);
  // Damaged, it is bad, and FixFrame repairs it.
  f[f.size() - 1] ^= 0x40;
  c = CheckFrame(kEthernet, f, f.size());
  EXPECT_EQ(c.fields[1].verdict, Verdict::kBad);
  EXPECT_EQ(FixFrame(c, f), 1u);
  EXPECT_EQ(CheckFrame(kEthernet, f, f.size()).fields[1].verdict,
            Verdict::kGood);
}

TEST(Tso, LengthPastTheFrameNothingCut) {
  Bytes f = TsoFrame(500, 20 + 20 + 1500);
  FrameCheck c = CheckFrame(kEthernet, f, f.size());
  ASSERT_EQ(c.field_count, 2);
  EXPECT_EQ(c.fields[1].verdict, Verdict::kGood);
  EXPECT_TRUE(c.fields[1].tso);
  // The capture cut it (wire length larger), or the wire length is
  // unknown: the datagram is truncated.
  for (size_t wire : {f.size() + 1000, size_t{0}}) {
    c = CheckFrame(kEthernet, f, wire);
    ASSERT_EQ(c.field_count, 2);
    EXPECT_EQ(c.fields[1].verdict, Verdict::kUnverified);
    EXPECT_EQ(c.fields[1].reason, Reason::kTruncated);
    EXPECT_FALSE(c.fields[1].tso);
  }
}

TEST(Tso, ZeroLengthWithoutWireLengthIsUndecodable) {
  Bytes f = TsoFrame(100, 0);
  EXPECT_EQ(CheckFrame(kEthernet, f).kind, FrameKind::kUndecodable);
  EXPECT_EQ(CheckFrame(kEthernet, f, f.size() + 1).kind,
            FrameKind::kUndecodable);
}

TEST(Tso, SuperPacketPast64KiB) {
  Bytes f = TsoFrame(70000, 0);
  FrameCheck c = CheckFrame(kEthernet, f, f.size());
  ASSERT_EQ(c.field_count, 2);
  EXPECT_EQ(c.fields[1].verdict, Verdict::kGood);
  EXPECT_TRUE(c.fields[1].tso);
}

TEST(Tso, OffloadedSuperPacket) {
  // The usual TSO capture: the TCP field holds the pseudo-header sum
  // without the length.
  Bytes f = TsoFrame(4000, 0);
  uint16_t pseudo =
      checksum::Checksum(std::span<const uint8_t>(f).subspan(14 + 12, 8));
  pseudo = checksum::Combine(pseudo, 6);
  StoreBig16(f.data() + 14 + 20 + 16, pseudo);
  FrameCheck c = CheckFrame(kEthernet, f, f.size());
  EXPECT_EQ(c.fields[1].verdict, Verdict::kBad);
  EXPECT_EQ(c.fields[1].reason, Reason::kOffload);
  EXPECT_TRUE(c.fields[1].tso);
}

// UdpLite is an IPv4 UDP-Lite datagram of `payload` bytes with Checksum
// Coverage `coverage`, its checksum computed here over the covered bytes
// (0: all) and a pseudo-header carrying the whole length (RFC 3828 3.1).
Bytes UdpLite(size_t payload, uint16_t coverage) {
  Bytes u = Udp(payload);
  StoreBig16(u.data() + 4, coverage);
  Bytes ip = IPv4(136, u, SIZE_MAX);
  const size_t covered = coverage == 0 ? u.size() : coverage;
  uint16_t v = FieldValue(ip, 20, 20 + covered, 26,
                          PseudoSum(ip, static_cast<uint16_t>(u.size())));
  if (v == 0) v = 0xffff;
  StoreBig16(ip.data() + 26, v);
  return ip;
}

TEST(UdpLite, ChecksumOverTheDeclaredCoverage) {
  for (uint16_t coverage :
       {uint16_t{0}, uint16_t{8}, uint16_t{20}, uint16_t{48}}) {
    Bytes ip = UdpLite(40, coverage);
    FrameCheck c = CheckFrame(kRaw, ip);
    ASSERT_EQ(c.field_count, 2);
    EXPECT_EQ(c.fields[1].layer, Layer::kUDPLite);
    EXPECT_EQ(c.fields[1].verdict, Verdict::kGood) << coverage;
    // A byte past the coverage changes nothing; one inside makes it bad.
    if (coverage != 0 && coverage < 48) {
      Bytes outside = ip;
      outside.back() ^= 0x55;
      EXPECT_EQ(CheckFrame(kRaw, outside).fields[1].verdict, Verdict::kGood);
    }
    Bytes inside = ip;
    inside[20 + 7] ^= 0x55;  // the checksum's low byte: always covered
    EXPECT_EQ(CheckFrame(kRaw, inside).fields[1].verdict, Verdict::kBad);
  }
  // Zero is no "no checksum" here: bad.
  Bytes zero = UdpLite(40, 0);
  StoreBig16(zero.data() + 26, 0);
  EXPECT_EQ(CheckFrame(kRaw, zero).fields[1].verdict, Verdict::kBad);
}

TEST(UdpLite, IllegalCoverageIsBadLength) {
  for (uint16_t coverage : {uint16_t{1}, uint16_t{7}, uint16_t{49}}) {
    Bytes ip = UdpLite(40, 8);
    StoreBig16(ip.data() + 24, coverage);
    FrameCheck c = CheckFrame(kRaw, ip);
    EXPECT_EQ(c.fields[1].verdict, Verdict::kUnverified) << coverage;
    EXPECT_EQ(c.fields[1].reason, Reason::kBadLength) << coverage;
  }
  EXPECT_EQ(LayerName(Layer::kUDPLite), "udplite");
}

TEST(Reason, UnreadRoutingHeader) {
  // An IPv6 Routing header of type 3 (RPL, RFC 6554) with a segment left:
  // the final destination is in a form csum does not read.
  Bytes udp = Udp(8);
  Bytes ip = IPv6(43, udp, 6);
  const Bytes routing = {17, 2, 3, 1, 0, 0, 0, 0, 0, 0, 0, 0,
                         0,  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  ip.insert(ip.begin() + 40, routing.begin(), routing.end());
  StoreBig16(ip.data() + 4, static_cast<uint16_t>(ip.size() - 40));
  FrameCheck c = CheckFrame(kRaw, ip);
  ASSERT_EQ(c.field_count, 1);
  EXPECT_EQ(c.fields[0].layer, Layer::kUDP);
  EXPECT_EQ(c.fields[0].verdict, Verdict::kUnverified);
  EXPECT_EQ(c.fields[0].reason, Reason::kRoutingHeader);
}

// Vxlan is a UDP datagram to port 4789 carrying `inner` in an Ethernet
// frame, with its checksum computed unless `zero`.
Bytes Vxlan(const Bytes& inner, bool zero) {
  Bytes u = {0xc0, 0x00, 0x12, 0xb5, 0, 0, 0,    0,   // UDP to 4789
             0x08, 0,    0,    0,    0, 0, 0x2a, 0};  // VXLAN, VNI 42
  const Bytes eth = WithEthernet(inner);
  u.insert(u.end(), eth.begin(), eth.end());
  StoreBig16(u.data() + 4, static_cast<uint16_t>(u.size()));
  Bytes ip = IPv4(17, u, zero ? SIZE_MAX : 6);
  return ip;
}

TEST(CheckFrame, TunnelsNumberTheirFieldsByIPDepth) {
  // VXLAN (outer IPv4 + UDP) around Ethernet around IPv4 + TCP.
  const Bytes frame = Vxlan(IPv4(6, Tcp(30), 16), false);
  FrameCheck c = CheckFrame(kRaw, frame);
  ASSERT_EQ(c.field_count, 4);
  EXPECT_TRUE(c.tunneled);
  EXPECT_FALSE(c.depth_limited);
  const Layer layers[] = {Layer::kIPv4, Layer::kUDP, Layer::kIPv4, Layer::kTCP};
  const int depths[] = {1, 1, 2, 2};
  const size_t offsets[] = {10, 26, 20 + 8 + 8 + 14 + 10,
                            20 + 8 + 8 + 14 + 20 + 16};
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(c.fields[i].layer, layers[i]) << i;
    EXPECT_EQ(c.fields[i].ip_depth, depths[i]) << i;
    EXPECT_EQ(c.fields[i].offset, offsets[i]) << i;
    EXPECT_EQ(c.fields[i].verdict, Verdict::kGood) << i;
  }
}

TEST(FixFrame, FixesInnerFirstAndUpdatesTheOuterUdpChecksum) {
  // The inner TCP checksum bad, the outer UDP one computed over it (good):
  // fixing the inner field makes the outer one wrong unless updated too.
  Bytes inner = IPv4(6, Tcp(31), 16);
  inner[36] ^= 0x5a;
  for (bool zero : {false, true}) {
    SCOPED_TRACE(zero);
    Bytes frame = Vxlan(inner, zero);
    const FrameCheck c = CheckFrame(kRaw, frame);
    ASSERT_EQ(c.field_count, 4);
    EXPECT_EQ(c.fields[1].verdict, zero ? Verdict::kNone : Verdict::kGood);
    EXPECT_EQ(c.fields[3].verdict, Verdict::kBad);
    EXPECT_EQ(FixFrame(c, frame), zero ? 1u : 2u);
    const FrameCheck again = CheckFrame(kRaw, frame);
    for (const FieldCheck& f : again.checks()) {
      EXPECT_NE(f.verdict, Verdict::kBad) << LayerName(f.layer);
    }
    EXPECT_EQ(LoadBig16(frame.data() + 26) == 0, zero);
  }
}

TEST(CheckFrame, GreChecksumIsJudgedAndFixed) {
  // GRE with checksum and key around IPv4 + UDP, then the GRE checksum
  // and the inner UDP checksum damaged.
  Bytes gre = {0xa0, 0, 0x08, 0x00, 0, 0, 0, 0, 0, 0, 0x12, 0x34};
  const Bytes inner = IPv4(17, Udp(21), 6);
  gre.insert(gre.end(), inner.begin(), inner.end());
  // No pseudo-header (RFC 2784 section 2.5): summed here.
  Bytes frame = IPv4(47, gre, SIZE_MAX);
  StoreBig16(frame.data() + 24, FieldValue(frame, 20, frame.size(), 24, 0));
  FrameCheck c = CheckFrame(kRaw, frame);
  ASSERT_EQ(c.field_count, 4);
  EXPECT_EQ(c.fields[1].layer, Layer::kGRE);
  EXPECT_EQ(c.fields[1].verdict, Verdict::kGood);
  EXPECT_EQ(c.fields[1].computed, FieldValue(frame, 20, frame.size(), 24, 0));
  EXPECT_EQ(c.fields[3].layer, Layer::kUDP);
  EXPECT_EQ(c.fields[3].ip_depth, 2);
  frame[24] ^= 1;
  frame[20 + 12 + 20 + 6] ^= 0x80;
  c = CheckFrame(kRaw, frame);
  EXPECT_EQ(c.fields[1].verdict, Verdict::kBad);
  EXPECT_EQ(c.fields[3].verdict, Verdict::kBad);
  EXPECT_EQ(FixFrame(c, frame), 2u);
  c = CheckFrame(kRaw, frame);
  EXPECT_EQ(c.fields[1].verdict, Verdict::kGood);
  EXPECT_EQ(c.fields[3].verdict, Verdict::kGood);
  // Without the C bit there is no GRE row.
  Bytes plain = {0x20, 0, 0x08, 0x00, 0, 0, 0x12, 0x34};
  plain.insert(plain.end(), inner.begin(), inner.end());
  c = CheckFrame(kRaw, IPv4(47, plain, SIZE_MAX));
  ASSERT_EQ(c.field_count, 3);
  EXPECT_EQ(c.fields[1].layer, Layer::kIPv4);
  EXPECT_EQ(c.fields[1].ip_depth, 2);
}

TEST(CheckFrame, NestingIsBoundedByMaxIPDepth) {
  Bytes frame = IPv4(17, Udp(4), 6);
  for (size_t i = 1; i < kMaxIPDepth + 3; ++i) {
    frame = IPv4(4, frame, SIZE_MAX);
  }
  const FrameCheck c = CheckFrame(kRaw, frame);
  EXPECT_TRUE(c.depth_limited);
  ASSERT_EQ(c.field_count, kMaxIPDepth);
  for (size_t i = 0; i < kMaxIPDepth; ++i) {
    EXPECT_EQ(c.fields[i].ip_depth, i + 1);
    EXPECT_EQ(c.fields[i].verdict, Verdict::kGood);
  }
}

TEST(CheckFrame, IcmpErrorQuotesAreReportedNotJudged) {
  // Destination Unreachable quoting an IPv4 + UDP datagram whose UDP
  // checksum is wrong: the error is judged, the quote is not.
  Bytes quoted = IPv4(17, Udp(40), 6);
  quoted[26] ^= 0xff;
  Bytes icmp = {3, 3, 0, 0, 0, 0, 0, 0};
  icmp.insert(icmp.end(), quoted.begin(), quoted.begin() + 28);
  Bytes frame = IPv4(1, icmp, 2);
  FrameCheck c = CheckFrame(kRaw, frame);
  ASSERT_EQ(c.field_count, 4);
  EXPECT_EQ(c.fields[1].layer, Layer::kICMPv4);
  EXPECT_EQ(c.fields[1].verdict, Verdict::kGood);
  for (int i : {2, 3}) {
    EXPECT_EQ(c.fields[i].verdict, Verdict::kUnverified);
    EXPECT_EQ(c.fields[i].reason, Reason::kQuoted);
    EXPECT_EQ(c.fields[i].ip_depth, 2);
    EXPECT_TRUE(c.fields[i].has_stored);
    EXPECT_FALSE(c.fields[i].has_computed);
  }
  EXPECT_FALSE(c.tunneled);
  EXPECT_EQ(FixFrame(c, frame), 0u);
  // An Echo Request's data is no quote.
  icmp[0] = 8;
  c = CheckFrame(kRaw, IPv4(1, icmp, 2));
  EXPECT_EQ(c.field_count, 2);
  EXPECT_EQ(ReasonName(Reason::kQuoted), "quoted");
  EXPECT_EQ(LayerName(Layer::kGRE), "gre");
}

// Fields of `c` as "layer/verdict/reason/depth" strings, in order.
std::vector<std::string> Rows(const FrameCheck& c) {
  std::vector<std::string> rows;
  for (const FieldCheck& f : c.checks()) {
    rows.push_back(std::string(LayerName(f.layer)) + "/" +
                   std::string(VerdictName(f.verdict)) + "/" +
                   std::string(ReasonName(f.reason)) + "/" +
                   std::to_string(f.ip_depth));
  }
  return rows;
}

using Strings = std::vector<std::string>;

TEST(Unread, MalformedInnerDatagramIsOneRecordAtItsDepth) {
  Bytes inner = IPv4(17, Udp(8), 6);
  inner[0] = 0x43;  // IHL 3
  FrameCheck c = CheckFrame(kRaw, IPv4(4, inner, SIZE_MAX));
  EXPECT_EQ(c.kind, FrameKind::kIPv4);
  EXPECT_EQ(Rows(c), (Strings{"ipv4/good//1", "ip/unverified/malformed/2"}));
  EXPECT_EQ(c.undecoded_depth, 2);
  EXPECT_EQ(c.reason, "IPv4 IHL below 5");
  EXPECT_TRUE(c.tunneled);
  // A version nibble of 5 in 6in4: malformed too.
  Bytes v6 = IPv6(17, Udp(8), 6);
  v6[0] = 0x50;
  EXPECT_EQ(Rows(CheckFrame(kRaw, IPv4(41, v6, SIZE_MAX))),
            (Strings{"ipv4/good//1", "ip/unverified/malformed/2"}));
}

TEST(Unread, InnerHeaderCutByTheOuterLengthOrByTheCapture) {
  const Bytes v6 = IPv6(17, Udp(8), 6);
  // The outer IPv4 datagram carries 30 of the inner header's 40 bytes.
  const Bytes part(v6.begin(), v6.begin() + 30);
  EXPECT_EQ(Rows(CheckFrame(kRaw, IPv4(41, part, SIZE_MAX))),
            (Strings{"ipv4/good//1", "ip/unverified/bad-length/2"}));
  // The whole sent, the capture keeping 30 bytes of it.
  Bytes whole = IPv4(41, v6, SIZE_MAX);
  whole.resize(20 + 30);
  EXPECT_EQ(Rows(CheckFrame(kRaw, whole)),
            (Strings{"ipv4/good//1", "ip/unverified/truncated/2"}));
  // An inner IPv4 header cut the same two ways: its header field says so.
  Bytes v4 = IPv4(6, Tcp(0), 16);
  Bytes cut4(v4.begin(), v4.begin() + 16);
  EXPECT_EQ(Rows(CheckFrame(kRaw, IPv4(4, cut4, SIZE_MAX))),
            (Strings{"ipv4/good//1", "ipv4/unverified/bad-length/2"}));
}

TEST(Unread, EveryPrefixOfATunnelReportsTheInnerDatagram) {
  // VXLAN around Ethernet around IPv4 + TCP, captured to every length
  // past the outer UDP header: a record at ip_depth 2 each time.
  const Bytes frame = Vxlan(IPv4(6, Tcp(10), 16), false);
  for (size_t n = 20 + 8; n < frame.size(); ++n) {
    const Bytes cut(frame.begin(), frame.begin() + n);
    const FrameCheck c = CheckFrame(kRaw, cut);
    constexpr size_t kInnerIP = 20 + 8 + 8 + 14;
    // Past the inner IPv4 header, its field is judged and the cut TCP
    // segment's is the one left unverified.
    const bool header = n >= kInnerIP + 20;
    ASSERT_EQ(c.field_count, header ? 4 : 3) << n;
    const FieldCheck& f = c.fields[c.field_count - 1];
    EXPECT_EQ(f.ip_depth, 2) << n;
    EXPECT_EQ(f.verdict, Verdict::kUnverified) << n;
    EXPECT_EQ(f.reason, Reason::kTruncated) << n;
    EXPECT_EQ(f.layer, header         ? Layer::kTCP
                       : n < kInnerIP ? Layer::kIP
                                      : Layer::kIPv4)
        << n;
  }
}

// Gre returns IPv4 protocol 47 around `header` (flags first) and `inner`.
Bytes Gre(Bytes header, const Bytes& inner) {
  header.insert(header.end(), inner.begin(), inner.end());
  return IPv4(47, header, SIZE_MAX);
}

TEST(Gre, HeaderCutIsOneRecord) {
  EXPECT_EQ(Rows(CheckFrame(kRaw, Gre({0x00, 0x00}, {}))),
            (Strings{"ipv4/good//1", "ip/unverified/bad-length/2"}));
  // The key bit announces four bytes the datagram does not carry.
  EXPECT_EQ(Rows(CheckFrame(kRaw, Gre({0x20, 0, 0x08, 0, 0, 0}, {}))),
            (Strings{"ipv4/good//1", "ip/unverified/bad-length/2"}));
  // A keepalive (no payload) carries nothing: no record.
  EXPECT_EQ(Rows(CheckFrame(kRaw, Gre({0x00, 0x00, 0x08, 0x00}, {}))),
            (Strings{"ipv4/good//1"}));
  // Version 2: unsupported.
  EXPECT_EQ(Rows(CheckFrame(
                kRaw, Gre({0x00, 0x02, 0x08, 0x00}, IPv4(6, Tcp(0), 16)))),
            (Strings{"ipv4/good//1", "ip/unverified/unsupported/2"}));
}

TEST(Gre, Version1CarriesPpp) {
  // RFC 2637: K, S and A set, version 1, protocol 0x880b; payload length,
  // call ID, sequence, acknowledgment; PPP ff 03 00 21 (IPv4).
  const Bytes inner = IPv4(6, Tcp(4), 16);
  Bytes h = {0x30, 0x81, 0x88, 0x0b, 0, 0, 0, 7, 0, 0, 0, 1, 0, 0, 0, 2};
  StoreBig16(h.data() + 4, static_cast<uint16_t>(inner.size() + 4));
  h.insert(h.end(), {0xff, 0x03, 0x00, 0x21});
  EXPECT_EQ(Rows(CheckFrame(kRaw, Gre(h, inner))),
            (Strings{"ipv4/good//1", "ipv4/good//2", "tcp/good//2"}));
  // An acknowledgment alone (no S, no payload).
  EXPECT_EQ(
      Rows(CheckFrame(
          kRaw, Gre({0x20, 0x81, 0x88, 0x0b, 0, 0, 0, 7, 0, 0, 0, 2}, {}))),
      (Strings{"ipv4/good//1"}));
}

TEST(Gre, RoutingIsSteppedOver) {
  // RFC 1701: R set, so the checksum and offset word is there; one SRE of
  // 8 bytes, then the null SRE.
  const Bytes inner = IPv4(17, Udp(4), 6);
  const Bytes h = {0x40, 0, 0x08, 0x00, 0, 0, 0, 0, 0x08, 0x00, 0, 8,
                   1,    2, 3,    4,    5, 6, 7, 8, 0,    0,    0, 0};
  EXPECT_EQ(Rows(CheckFrame(kRaw, Gre(h, inner))),
            (Strings{"ipv4/good//1", "ipv4/good//2", "udp/good//2"}));
  // Routing that runs past the datagram.
  const Bytes cut(h.begin(), h.begin() + 14);
  EXPECT_EQ(Rows(CheckFrame(kRaw, Gre(cut, {}))),
            (Strings{"ipv4/good//1", "ip/unverified/bad-length/2"}));
}

TEST(CheckFrame, IcmpErrorInsideATunnelAndTunnelInsideAQuote) {
  // 4in4 around an ICMP error quoting IPv4 + UDP: the error judged at
  // ip_depth 2, the quote reported at 3.
  const Bytes quoted = IPv4(17, Udp(40), 6);
  Bytes icmp = {3, 3, 0, 0, 0, 0, 0, 0};
  icmp.insert(icmp.end(), quoted.begin(), quoted.begin() + 28);
  const Bytes error = IPv4(1, icmp, 2);
  EXPECT_EQ(Rows(CheckFrame(kRaw, IPv4(4, error, SIZE_MAX))),
            (Strings{"ipv4/good//1", "ipv4/good//2", "icmpv4/good//2",
                     "ipv4/unverified/quoted/3", "udp/unverified/quoted/3"}));
  // An error quoting a 4in4 packet: the quoted header reported, its inner
  // datagram not read.
  const Bytes tunnel = IPv4(4, IPv4(6, Tcp(0), 16), SIZE_MAX);
  Bytes icmp2 = {11, 0, 0, 0, 0, 0, 0, 0};
  icmp2.insert(icmp2.end(), tunnel.begin(), tunnel.end());
  const FrameCheck c = CheckFrame(kRaw, IPv4(1, icmp2, 2));
  EXPECT_EQ(Rows(c), (Strings{"ipv4/good//1", "icmpv4/good//1",
                              "ipv4/unverified/quoted/2"}));
  EXPECT_FALSE(c.tunneled);
  // A quoted IPv6 header cut short: its one record, quoted.
  Bytes icmp6 = {1, 0, 0, 0, 0, 0, 0, 0};
  const Bytes q6 = IPv6(17, Udp(8), 6);
  icmp6.insert(icmp6.end(), q6.begin(), q6.begin() + 24);
  const FrameCheck d = CheckFrame(kRaw, IPv6(58, icmp6, 2));
  EXPECT_EQ(Rows(d), (Strings{"icmpv6/good//1", "ip/unverified/quoted/2"}));
  EXPECT_EQ(d.undecoded_depth, 0);
}

}  // namespace
}  // namespace ipsum::csum
