// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Tests for segmentation: software GSO checked segment by segment against
// segments encoded one at a time; TSO packets segmented "by the NIC"
// (SegmentGsoPacket) equal to software GSO; segments share the send's
// chunks; every segment decodes with a valid checksum.

#include "tcpip/gso.h"

#include <cstdint>
#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "header/tcp.h"
#include "tcpip/internal/testing.h"
#include "tcpip/receive.h"
#include "tcpip/transmit.h"

namespace ipsum::tcpip {
namespace {

using testing::MakePayload;
using testing::MakeRoute;
using testing::RandomBytes;
using Bytes = std::vector<uint8_t>;

TCPSegment MakeSegment(uint8_t flags) {
  TCPSegment s;
  s.source_port = 12345;
  s.destination_port = 80;
  s.seq = 0xffff0000;  // Wraps within a 64 KiB send.
  s.ack = 42;
  s.flags = flags;
  s.window = 1000;
  s.options.timestamps = header::TCPTimestamps{1, 2};
  s.ip_id = 0xfffe;  // Wraps too.
  return s;
}

// OneAtATime encodes the segments GSO should produce, each on its own.
std::vector<Bytes> OneAtATime(const Route& route, const TCPSegment& s,
                              uint16_t mss, const LinkCapabilities& link,
                              const Bytes& payload) {
  std::vector<Bytes> out;
  size_t count = payload.empty() ? 1 : (payload.size() + mss - 1) / mss;
  for (size_t i = 0; i < count; ++i) {
    size_t off = i * mss;
    size_t n = std::min<size_t>(mss, payload.size() - off);
    TCPSegment f = s;
    f.seq = static_cast<uint32_t>(s.seq + off);
    f.ip_id = static_cast<uint16_t>(s.ip_id + i);
    if (i != 0) f.flags &= static_cast<uint8_t>(~header::kTCPFlagCwr);
    if (i + 1 != count) {
      f.flags &=
          static_cast<uint8_t>(~(header::kTCPFlagFin | header::kTCPFlagPsh));
    }
    PacketBuffer pkt(MakePayload(std::span(payload).subspan(off, n), 1));
    EXPECT_EQ(EncodeTCP(route, f, link, pkt), EncodeError::kOk);
    out.push_back(pkt.Flatten());
  }
  return out;
}

std::vector<Bytes> Flatten(const std::vector<PacketBuffer>& pkts) {
  std::vector<Bytes> out;
  for (const PacketBuffer& p : pkts) out.push_back(p.Flatten());
  return out;
}

const uint8_t kAllFlags = header::kTCPFlagAck | header::kTCPFlagPsh |
                          header::kTCPFlagFin | header::kTCPFlagCwr |
                          header::kTCPFlagEce;

TEST(GsoTest, SegmentsEqualSegmentsEncodedOneAtATime) {
  std::mt19937 rng(2);
  for (NetworkProtocol n : {NetworkProtocol::kIPv4, NetworkProtocol::kIPv6}) {
    Route route = MakeRoute(n, true, n == NetworkProtocol::kIPv6 ? 1 : 0);
    for (uint16_t mss : {536, 1441, 1448}) {
      for (size_t size :
           {size_t{0}, size_t{1}, size_t{mss} - 1, size_t{mss}, size_t{mss} + 1,
            size_t{3} * mss, size_t{10007}, kMaxSendSize}) {
        for (bool offload : {false, true}) {
          LinkCapabilities link;
          link.tx_checksum_offload = offload;
          Bytes payload = RandomBytes(rng, size);
          std::vector<PacketBuffer> segs;
          ASSERT_EQ(SegmentTCP(route, MakeSegment(kAllFlags), mss, link,
                               MakePayload(payload, 7), segs),
                    EncodeError::kOk);
          std::vector<Bytes> want =
              OneAtATime(route, MakeSegment(kAllFlags), mss, link, payload);
          ASSERT_EQ(segs.size(), want.size()) << size;
          std::vector<Bytes> got = Flatten(segs);
          for (size_t i = 0; i < want.size(); ++i) {
            ASSERT_EQ(got[i], want[i])
                << "mss=" << mss << " size=" << size << " segment " << i
                << " offload=" << offload;
            EXPECT_EQ(segs[i].checksum_status, offload
                                                   ? ChecksumStatus::kPartial
                                                   : ChecksumStatus::kNone);
          }
        }
      }
    }
  }
}

TEST(GsoTest, SegmentsShareTheSendsChunks) {
  Bytes payload(20000, 0xab);
  buffer::Buffer send = MakePayload(payload, 3);
  buffer::Buffer keep = send.Clone();
  std::vector<PacketBuffer> segs;
  ASSERT_EQ(SegmentTCP(MakeRoute(NetworkProtocol::kIPv4), MakeSegment(0), 1448,
                       LinkCapabilities{}, std::move(send), segs),
            EncodeError::kOk);
  size_t bytes = 0;
  for (const PacketBuffer& s : segs) {
    for (const buffer::View& v : s.data().views()) {
      bool shared = false;
      for (const buffer::View& k : keep.views()) {
        shared |= v.SharesChunkWith(k);
      }
      EXPECT_TRUE(shared);
      bytes += v.size();
    }
  }
  EXPECT_EQ(bytes, payload.size());
}

TEST(GsoTest, EverySegmentDecodesAndThePayloadReassembles) {
  std::mt19937 rng(8);
  for (NetworkProtocol n : {NetworkProtocol::kIPv4, NetworkProtocol::kIPv6}) {
    Bytes payload = RandomBytes(rng, kMaxSendSize);
    std::vector<PacketBuffer> segs;
    ASSERT_EQ(SegmentTCP(MakeRoute(n), MakeSegment(kAllFlags), 1460,
                         LinkCapabilities{}, MakePayload(payload, 5), segs),
              EncodeError::kOk);
    ASSERT_EQ(segs.size(), (kMaxSendSize + 1459) / 1460);
    ReceiveStats stats;
    Bytes joined;
    uint32_t seq = MakeSegment(0).seq;
    for (size_t i = 0; i < segs.size(); ++i) {
      auto r = Receive(PacketBuffer::FromFrame(segs[i].ToBuffer()),
                       LinkType::kEthernet, stats);
      ASSERT_TRUE(r.has_value()) << i;
      EXPECT_TRUE(r->checksum_verified);
      EXPECT_EQ(r->tcp->seq, seq);
      bool first = i == 0, last = i + 1 == segs.size();
      EXPECT_EQ((r->tcp->flags & header::kTCPFlagCwr) != 0, first);
      EXPECT_EQ((r->tcp->flags & header::kTCPFlagFin) != 0, last);
      EXPECT_EQ((r->tcp->flags & header::kTCPFlagPsh) != 0, last);
      EXPECT_NE(r->tcp->flags & header::kTCPFlagEce, 0);
      Bytes part = r->packet.data().Flatten();
      seq += static_cast<uint32_t>(part.size());
      joined.insert(joined.end(), part.begin(), part.end());
      if (n == NetworkProtocol::kIPv4) {
        // Identification counts up from the first segment's, wrapping.
        std::span<const uint8_t> ip = r->packet.Header(Layer::kNetwork);
        EXPECT_EQ((ip[4] << 8) | ip[5], (0xfffe + i) & 0xffff);
      }
    }
    EXPECT_EQ(joined, payload);
    EXPECT_EQ(stats.delivered, segs.size());
  }
}

TEST(GsoTest, TSOPacketSegmentedByTheNICEqualsSoftwareGSO) {
  std::mt19937 rng(4);
  for (NetworkProtocol n : {NetworkProtocol::kIPv4, NetworkProtocol::kIPv6}) {
    for (uint32_t tso_max : {65536u, 20000u}) {
      for (size_t size : {size_t{3000}, size_t{30001}, kMaxSendSize}) {
        Route route = MakeRoute(n, true);
        Bytes payload = RandomBytes(rng, size);
        LinkCapabilities tso;
        tso.tx_checksum_offload = true;
        tso.tso_max_size = tso_max;
        std::vector<PacketBuffer> packets;
        ASSERT_EQ(SendTCP(route, MakeSegment(kAllFlags), 1448, tso,
                          MakePayload(payload, 3), packets),
                  EncodeError::kOk);
        size_t expect_max = std::min<size_t>(tso_max, 65535 + 14);
        for (const PacketBuffer& p : packets) {
          EXPECT_LE(p.size(), expect_max);
          EXPECT_EQ(p.checksum_status, ChecksumStatus::kPartial);
          if (p.data().size() > 1448) {
            EXPECT_EQ(p.gso_size, 1448);
            EXPECT_EQ(p.gso_type, n == NetworkProtocol::kIPv4
                                      ? GsoType::kTCPv4
                                      : GsoType::kTCPv6);
          }
        }
        if (size == kMaxSendSize || (tso_max == 20000 && size > 20000)) {
          EXPECT_GT(packets.size(), 1u);
        } else {
          EXPECT_EQ(packets.size(), 1u);
        }
        // What the NIC puts on the wire: complete checksums.
        std::vector<PacketBuffer> wire;
        for (PacketBuffer& p : packets) {
          if (p.gso_type == GsoType::kNone) {
            ASSERT_TRUE(ResolvePartialChecksum(p));
            wire.push_back(std::move(p));
          } else {
            ASSERT_EQ(SegmentGsoPacket(std::move(p), LinkCapabilities{}, wire),
                      EncodeError::kOk);
          }
        }
        std::vector<PacketBuffer> soft;
        ASSERT_EQ(SegmentTCP(route, MakeSegment(kAllFlags), 1448,
                             LinkCapabilities{}, MakePayload(payload, 3), soft),
                  EncodeError::kOk);
        ASSERT_EQ(Flatten(wire), Flatten(soft)) << size << " " << tso_max;
      }
    }
  }
}

TEST(GsoTest, SendTCPWithoutTSOSegmentsInSoftware) {
  Bytes payload(5000, 1);
  std::vector<PacketBuffer> out;
  ASSERT_EQ(SendTCP(MakeRoute(NetworkProtocol::kIPv4), MakeSegment(0), 1460,
                    LinkCapabilities{}, MakePayload(payload, 1), out),
            EncodeError::kOk);
  EXPECT_EQ(out.size(), 4u);
  for (const PacketBuffer& p : out) EXPECT_EQ(p.gso_type, GsoType::kNone);
  out.clear();
  ASSERT_EQ(SendTCP(MakeRoute(NetworkProtocol::kIPv4), MakeSegment(0), 1460,
                    LinkCapabilities{}, MakePayload(Bytes(1460, 1), 1), out),
            EncodeError::kOk);
  EXPECT_EQ(out.size(), 1u);
}

TEST(GsoTest, Errors) {
  std::vector<PacketBuffer> out;
  EXPECT_EQ(SegmentTCP(MakeRoute(NetworkProtocol::kIPv4), MakeSegment(0), 0,
                       LinkCapabilities{}, MakePayload(Bytes(10, 0), 1), out),
            EncodeError::kTooLarge);
  EXPECT_EQ(SegmentTCP(MakeRoute(NetworkProtocol::kIPv4), MakeSegment(0), 1460,
                       LinkCapabilities{},
                       MakePayload(Bytes(kMaxSendSize + 1, 0), 2), out),
            EncodeError::kTooLarge);
  PacketBuffer plain(MakePayload(Bytes(10, 0), 1));
  ASSERT_EQ(EncodeTCP(MakeRoute(NetworkProtocol::kIPv4), MakeSegment(0),
                      LinkCapabilities{}, plain),
            EncodeError::kOk);
  EXPECT_EQ(SegmentGsoPacket(std::move(plain), LinkCapabilities{}, out),
            EncodeError::kBadField);
  EXPECT_TRUE(out.empty());
}

TEST(GsoTest, AnEncodeErrorLeavesOutAsItWas) {
  std::vector<PacketBuffer> out;
  ASSERT_EQ(SegmentTCP(MakeRoute(NetworkProtocol::kIPv4), MakeSegment(0), 100,
                       LinkCapabilities{}, MakePayload(Bytes(150, 3), 1), out),
            EncodeError::kOk);
  ASSERT_EQ(out.size(), 2u);
  std::vector<uint8_t> kept = out[1].Flatten();
  Route bad = MakeRoute(NetworkProtocol::kIPv4);
  bad.ethernet->tag_count = 3;  // Every segment fails to encode.
  for (bool offload : {false, true}) {
    LinkCapabilities link;
    link.tx_checksum_offload = offload;
    link.tso_max_size = offload ? 65535 : 0;
    EXPECT_EQ(SegmentTCP(bad, MakeSegment(0), 100, link,
                         MakePayload(Bytes(1000, 4), 3), out),
              EncodeError::kBadField);
    EXPECT_EQ(SendTCP(bad, MakeSegment(0), 100, link,
                      MakePayload(Bytes(1000, 4), 3), out),
              EncodeError::kBadField);
    ASSERT_EQ(out.size(), 2u);
    EXPECT_EQ(out[1].Flatten(), kept);
  }
}


// A USO packet segmented as a USO NIC (or Linux's __udp_gso_segment) does,
// judged segment by segment with the hand-written reference: each a
// datagram of its own, UDP and IP lengths of its piece, IPv4 Identification
// counting up, checksums right, payload pieces in order.
TEST(GsoTest, UDPSegmentationGivesDatagramsWithTheirOwnChecksums) {
  std::mt19937 rng(7);
  for (NetworkProtocol n : {NetworkProtocol::kIPv4, NetworkProtocol::kIPv6}) {
    for (bool ethernet : {false, true}) {
      for (bool offload : {false, true}) {
        for (size_t size : {size_t{0}, size_t{1000}, size_t{4200},
                            size_t{65507 - 40}}) {
          const uint16_t mss = 1400;
          Route route = MakeRoute(n, ethernet);
          Bytes payload = RandomBytes(rng, size);
          LinkCapabilities partial;
          partial.tx_checksum_offload = true;
          PacketBuffer uso(MakePayload(payload, 3));
          UDPDatagram d;
          d.source_port = 5353;
          d.destination_port = 53;
          d.ip_id = 0xffff;  // Wraps.
          ASSERT_EQ(EncodeUDP(route, d, partial, uso), EncodeError::kOk);
          uso.gso_type = n == NetworkProtocol::kIPv4 ? GsoType::kUDPv4
                                                     : GsoType::kUDPv6;
          uso.gso_size = mss;
          LinkCapabilities link;
          link.tx_checksum_offload = offload;
          std::vector<PacketBuffer> out;
          ASSERT_EQ(SegmentGsoPacket(std::move(uso), link, out),
                    EncodeError::kOk);
          const size_t count = size == 0 ? 1 : (size + mss - 1) / mss;
          ASSERT_EQ(out.size(), count);
          for (size_t i = 0; i < count; ++i) {
            PacketBuffer& p = out[i];
            EXPECT_EQ(p.gso_type, GsoType::kNone);
            if (offload) {
              ASSERT_EQ(p.checksum_status, ChecksumStatus::kPartial);
              ASSERT_TRUE(ResolvePartialChecksum(p));
            }
            const Bytes f = p.Flatten();
            const testing::FrameLayout l =
                testing::ReferenceLayout(f, ethernet);
            const size_t piece = std::min<size_t>(mss, size - i * mss);
            ASSERT_EQ(l.end, f.size());
            ASSERT_EQ(l.end - l.transport_offset, 8 + piece);
            EXPECT_EQ(l.protocol, 17);
            // UDP length, then the piece of the payload.
            EXPECT_EQ((f[l.transport_offset + 4] << 8) |
                          f[l.transport_offset + 5],
                      static_cast<int>(8 + piece));
            EXPECT_TRUE(std::equal(f.begin() + l.transport_offset + 8, f.end(),
                                   payload.begin() + i * mss));
            EXPECT_EQ(testing::ReferenceTransportSum(f, ethernet), 0xffff);
            if (l.v4) {
              const auto hdr = std::span(f).subspan(l.network_offset, 20);
              EXPECT_EQ(testing::ReferenceSum(hdr), 0xffff);
              EXPECT_EQ((hdr[4] << 8) | hdr[5],
                        static_cast<int>((0xffff + i) & 0xffff));
            }
          }
        }
      }
    }
  }
}

TEST(GsoTest, UDPSegmentationRefusesAMismatchedPacket) {
  // A TCP packet labelled USO, and a USO label of the wrong IP version.
  PacketBuffer tcp(MakePayload(Bytes(3000, 1), 1));
  LinkCapabilities partial;
  partial.tx_checksum_offload = true;
  ASSERT_EQ(EncodeTCP(MakeRoute(NetworkProtocol::kIPv4), MakeSegment(0),
                      partial, tcp),
            EncodeError::kOk);
  tcp.gso_type = GsoType::kUDPv4;
  tcp.gso_size = 1000;
  std::vector<PacketBuffer> out;
  EXPECT_EQ(SegmentGsoPacket(std::move(tcp), partial, out),
            EncodeError::kBadField);
  PacketBuffer udp(MakePayload(Bytes(3000, 1), 1));
  ASSERT_EQ(EncodeUDP(MakeRoute(NetworkProtocol::kIPv4), UDPDatagram{},
                      partial, udp),
            EncodeError::kOk);
  udp.gso_type = GsoType::kUDPv6;
  udp.gso_size = 1000;
  EXPECT_EQ(SegmentGsoPacket(std::move(udp), partial, out),
            EncodeError::kBadField);
  EXPECT_TRUE(out.empty());
}

}  // namespace
}  // namespace ipsum::tcpip
