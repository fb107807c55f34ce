// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// The exact TSV, JSON and summary text `csum verify` prints.

#include "tools/csum/report.h"

#include <cstdint>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tools/csum/link.h"

namespace ipsum::csum {
namespace {

FieldCheck Judged(Layer layer, Verdict v, uint16_t stored, uint16_t computed,
                  size_t offset) {
  FieldCheck f;
  f.layer = layer;
  f.verdict = v;
  f.has_stored = true;
  f.stored = stored;
  f.offset = offset;
  f.has_computed = true;
  f.computed = computed;
  return f;
}

TEST(AppendTsv, JudgedUnverifiedAndMissingFields) {
  std::string out;
  AppendTsvHeader(out, false);
  AppendTsv(out, "", 3, Judged(Layer::kTCP, Verdict::kBad, 0x1c2d, 0xab, 50));
  FieldCheck offload = Judged(Layer::kTCP, Verdict::kBad, 0, 0xab, 50);
  offload.reason = Reason::kOffload;
  AppendTsv(out, "", 4, offload);
  offload.tso = true;
  AppendTsv(out, "", 5, offload);
  FieldCheck cut;
  cut.layer = Layer::kUDP;
  cut.verdict = Verdict::kUnverified;
  cut.reason = Reason::kTruncated;
  AppendTsv(out, "", 12, cut);
  FieldCheck none;
  none.layer = Layer::kUDP;
  none.verdict = Verdict::kNone;
  none.has_stored = true;
  none.offset = 40;
  AppendTsv(out, "", 13, none);
  FieldCheck inner = Judged(Layer::kGRE, Verdict::kGood, 0x1234, 0x1234, 38);
  inner.ip_depth = 2;
  AppendTsv(out, "", 14, inner);
  FieldCheck quoted;
  quoted.layer = Layer::kUDP;
  quoted.verdict = Verdict::kUnverified;
  quoted.reason = Reason::kQuoted;
  quoted.has_stored = true;
  quoted.stored = 0xbeef;
  quoted.offset = 68;
  quoted.ip_depth = 3;
  AppendTsv(out, "", 15, quoted);
  EXPECT_EQ(out,
            "frame\tlayer\tverdict\tstored\tcomputed\tcsum_off\treason\t"
            "ip_depth\n"
            "3\ttcp\tbad\t0x1c2d\t0x00ab\t50\t\t1\n"
            "4\ttcp\tbad\t0x0000\t0x00ab\t50\toffload\t1\n"
            "5\ttcp\tbad\t0x0000\t0x00ab\t50\toffload,tso\t1\n"
            "12\tudp\tunverified\t\t\t\ttruncated\t1\n"
            "13\tudp\tnone\t0x0000\t\t40\t\t1\n"
            "14\tgre\tgood\t0x1234\t0x1234\t38\t\t2\n"
            "15\tudp\tunverified\t0xbeef\t\t68\tquoted\t3\n");
}

TEST(AppendTsv, FileColumn) {
  std::string out;
  AppendTsvHeader(out, true);
  AppendTsv(out, "a.pcap", 1,
            Judged(Layer::kIPv4, Verdict::kGood, 0xffff, 0, 24));
  EXPECT_EQ(out,
            "file\tframe\tlayer\tverdict\tstored\tcomputed\tcsum_off\treason\t"
            "ip_depth\n"
            "a.pcap\t1\tipv4\tgood\t0xffff\t0x0000\t24\t\t1\n");
}

TEST(AppendJson, SameRecordsWithNulls) {
  std::string out;
  AppendJson(out, "", 7,
             Judged(Layer::kICMPv6, Verdict::kGood, 0x4ae8, 0x4ae8, 56));
  FieldCheck cut;
  cut.layer = Layer::kTCP;
  cut.reason = Reason::kFragment;
  cut.ip_depth = 2;
  AppendJson(out, "we\"ird\n.pcap", 8, cut);
  EXPECT_EQ(out,
            "{\"frame\":7,\"layer\":\"icmpv6\",\"verdict\":\"good\","
            "\"stored\":\"0x4ae8\",\"computed\":\"0x4ae8\",\"csum_off\":56,"
            "\"reason\":null,\"ip_depth\":1}\n"
            "{\"file\":\"we\\\"ird\\u000a.pcap\",\"frame\":8,\"layer\":\"tcp\","
            "\"verdict\":\"unverified\",\"stored\":null,\"computed\":null,"
            "\"csum_off\":null,\"reason\":\"fragment\",\"ip_depth\":2}\n");
}

TEST(FormatSummary, UndecodableFramesByReason) {
  Tally t;
  FrameCheck bad;
  bad.kind = FrameKind::kUndecodable;
  bad.reason = "IPv4 IHL below 5";
  t.Add(bad);
  t.Add(bad);
  bad.reason = "link-layer header truncated";
  t.Add(bad);
  std::string s = FormatSummary("x", t);
  EXPECT_NE(s.find("x, 3 packets (0 ipv4, 0 ipv6, 3 undecodable)\n"
                   "  undecodable: 2 IPv4 IHL below 5, 1 link-layer header "
                   "truncated\n"),
            std::string::npos)
      << s;
}

using Bytes = std::vector<uint8_t>;

TEST(FormatSummary, UnreadInnerDatagramsByReasonAndAnIpRow) {
  // CheckFrame on 4in4 whose inner IHL is 3: an ipv4 frame, its inner
  // datagram one `ip` record.
  Bytes inner(20, 0);
  inner[0] = 0x43;
  Bytes ip = {0x45, 0, 0,  40, 0, 0, 0,  0, 64, 4,
              0,    0, 10, 0,  0, 1, 10, 0, 0,  2};
  ip.insert(ip.end(), inner.begin(), inner.end());
  const FrameCheck c = CheckFrame(static_cast<uint32_t>(LinkType::kRaw), ip);
  Tally t;
  t.Add(c);
  Tally merged;
  merged.Merge(t);
  merged.Merge(t);
  const std::string s = FormatSummary("x", merged);
  EXPECT_NE(s.find("x, 2 packets (2 ipv4, 0 ipv6)\n"
                   "  unread: 2 IPv4 IHL below 5\n"),
            std::string::npos)
      << s;
  EXPECT_NE(s.find("\n  ip              2         0         0         0     "
                   "      2         0\n"),
            std::string::npos)
      << s;
  EXPECT_NE(s.find("  unverified: 2 malformed\n"), std::string::npos) << s;
  // No ip row without such records.
  EXPECT_EQ(FormatSummary("y", Tally{}).find("\n  ip "), std::string::npos);
}

TEST(FormatSummary, NotIPFramesCsumCouldNotFollowByReason) {
  Tally t;
  FrameCheck arp;
  arp.kind = FrameKind::kNotIP;
  t.Add(arp);
  FrameCheck encrypted = arp;
  encrypted.reason = "MACsec frame is encrypted";
  t.Add(encrypted);
  Tally merged;
  merged.Merge(t);
  std::string s = FormatSummary("x", merged);
  EXPECT_NE(s.find("x, 2 packets (0 ipv4, 0 ipv6, 2 not ip)\n"
                   "  not ip: 1 MACsec frame is encrypted\n"),
            std::string::npos)
      << s;
}

TEST(FormatSummary, CountsByLayerAndVerdict) {
  Tally t;
  FrameCheck ip;
  ip.kind = FrameKind::kIPv4;
  ip.field_count = 2;
  ip.fields[0] = Judged(Layer::kIPv4, Verdict::kGood, 1, 1, 24);
  ip.fields[1] = Judged(Layer::kTCP, Verdict::kBad, 1, 2, 50);
  t.Add(ip);
  ip.fields[1].reason = Reason::kOffload;
  ip.fields[1].tso = true;
  ip.fields[0].verdict = Verdict::kUnverified;
  ip.fields[0].reason = Reason::kTruncated;
  t.Add(ip);
  FrameCheck arp;
  arp.kind = FrameKind::kNotIP;
  t.Add(arp);
  // GRE around IPv4 around a quoted UDP header, nested too deep.
  FrameCheck gre;
  gre.kind = FrameKind::kIPv4;
  gre.tunneled = true;
  gre.depth_limited = true;
  gre.field_count = 3;
  gre.fields[0] = Judged(Layer::kGRE, Verdict::kGood, 1, 1, 38);
  gre.fields[1] = Judged(Layer::kIPv4, Verdict::kGood, 1, 1, 52);
  gre.fields[1].ip_depth = 2;
  gre.fields[2] = FieldCheck();
  gre.fields[2].layer = Layer::kUDP;
  gre.fields[2].reason = Reason::kQuoted;
  gre.fields[2].ip_depth = 3;
  t.Add(gre);
  Tally sum;
  sum.Merge(t);
  EXPECT_EQ(sum.Count(Verdict::kBad), 2u);
  EXPECT_EQ(FormatSummary("x.pcap: pcap, ethernet", sum),
            "x.pcap: pcap, ethernet, 4 packets (3 ipv4, 0 ipv6, 1 not ip)\n"
            "  layer      fields  verified      good       bad  unverified"
            "      none\n"
            "  ipv4            3         2         2         0           1"
            "         0\n"
            "  tcp             2         2         0         2           0"
            "         0\n"
            "  udp             1         0         0         0           1"
            "         0\n"
            "  icmpv4          0         0         0         0           0"
            "         0\n"
            "  icmpv6          0         0         0         0           0"
            "         0\n"
            "  udplite         0         0         0         0           0"
            "         0\n"
            "  gre             1         1         1         0           0"
            "         0\n"
            "  total           7         5         3         2           2"
            "         0\n"
            "  bad: 1 offload, 1 unexplained\n"
            "  unverified: 1 truncated, 1 quoted\n"
            "  tso: 1 field judged over the bytes of a TSO super-packet\n"
            "  tunnels: 1 packet carries inner datagrams (1 field at ip_depth "
            "> 1)\n"
            "  depth: 1 packet nests more than 8 IP headers; the rest is not "
            "read\n");
}

}  // namespace
}  // namespace ipsum::csum
