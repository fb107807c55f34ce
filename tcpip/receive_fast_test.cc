// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// The receive path's fast path against its general path. ReceiveInPlace
// offers every Ethernet frame to the fast classification first
// (internal/receive_fast.h, which VerifyFrame shares), which takes one common
// shape (untagged IPv4 without options or IPv6 without extension headers,
// TCP or UDP, headers in the first view, no padding) and leaves every other
// frame to the general decoder. Whatever it takes it must deliver, or drop,
// exactly as the general path would: the same verdict, the same counters and,
// when delivered, the same packet field for field. These tests run both on the
// same frames, valid and damaged at every header byte, in every checksum state
// and view layout, and compare everything. ReceiveBurst, which runs the
// same decode over a vector of frames with the next frames' lines requested
// ahead, is compared with ReceiveInPlace the same way, frame by frame.
// VerifyFrame and VerifyBurst, which judge a frame as Receive does without
// taking it apart, must give the same verdicts and counters on every one of
// these frames, and describe what Receive delivers: the same offsets,
// payload bytes, header bytes and TCP fields.

#include <algorithm>
#include <array>
#include <cstdint>
#include <iterator>
#include <optional>
#include <random>
#include <span>
#include <vector>

#include "buffer/buffer.h"
#include "checksum/endian.h"
#include "gtest/gtest.h"
#include "header/tcp.h"
#include "tcpip/internal/receive_general.h"
#include "tcpip/internal/testing.h"
#include "tcpip/receive.h"
#include "tcpip/transmit.h"

namespace ipsum::tcpip {
namespace {

using testing::MakeRoute;
using testing::RandomBytes;
using testing::ReferenceSum;
using Bytes = std::vector<uint8_t>;

// RxState is the offload metadata a frame arrives with.
struct RxState {
  ChecksumStatus status = ChecksumStatus::kNone;
  uint32_t csum_start = 0;
  uint16_t csum = 0;
};

// Build returns `bytes` as a received frame cut into views at `cuts`
// (ascending offsets inside the frame), each view in a chunk of its own.
PacketBuffer Build(const Bytes& bytes, const std::vector<size_t>& cuts,
                   const RxState& rx) {
  buffer::Buffer b;
  size_t from = 0;
  for (size_t cut : cuts) {
    if (cut > from && cut < bytes.size()) {
      b.Append(buffer::View::Copy(std::span(bytes).subspan(from, cut - from)));
      from = cut;
    }
  }
  if (from < bytes.size()) {
    b.Append(buffer::View::Copy(std::span(bytes).subspan(from)));
  }
  PacketBuffer pkt = PacketBuffer::FromFrame(std::move(b));
  pkt.checksum_status = rx.status;
  pkt.csum_start = rx.csum_start;
  pkt.csum = rx.csum;
  return pkt;
}

void ExpectSameStats(const ReceiveStats& a, const ReceiveStats& b) {
  EXPECT_EQ(a.received, b.received);
  EXPECT_EQ(a.delivered, b.delivered);
  EXPECT_EQ(a.dropped, b.dropped);
  EXPECT_EQ(a.checksum_software, b.checksum_software);
  EXPECT_EQ(a.checksum_unnecessary, b.checksum_unnecessary);
  EXPECT_EQ(a.checksum_complete, b.checksum_complete);
  EXPECT_EQ(a.complete_fallback, b.complete_fallback);
  EXPECT_EQ(a.udp_no_checksum, b.udp_no_checksum);
  EXPECT_EQ(a.fragments, b.fragments);
  // Every field, including any added after the list above.
  EXPECT_TRUE(a == b);
}

Bytes HeaderBytes(const PacketBuffer& p, Layer layer) {
  std::span<const uint8_t> h = p.Header(layer);
  return Bytes(h.begin(), h.end());
}

// ExpectSamePacket expects two delivered packets to be the same, field for
// field.
void ExpectSamePacket(const ReceivedPacket& fast,
                      const ReceivedPacket& general) {
  EXPECT_EQ(fast.parsed, general.parsed);
  EXPECT_EQ(fast.source_v4.bytes, general.source_v4.bytes);
  EXPECT_EQ(fast.destination_v4.bytes, general.destination_v4.bytes);
  EXPECT_EQ(fast.source_v6.bytes, general.source_v6.bytes);
  EXPECT_EQ(fast.destination_v6.bytes, general.destination_v6.bytes);
  EXPECT_EQ(fast.is_fragment, general.is_fragment);
  EXPECT_EQ(fast.checksum_verified, general.checksum_verified);
  EXPECT_EQ(fast.source_port, general.source_port);
  EXPECT_EQ(fast.destination_port, general.destination_port);
  EXPECT_EQ(fast.tcp, general.tcp);
  const PacketBuffer& a = fast.packet;
  const PacketBuffer& b = general.packet;
  EXPECT_EQ(a.network_protocol, b.network_protocol);
  EXPECT_EQ(a.transport_protocol, b.transport_protocol);
  for (Layer l : {Layer::kLink, Layer::kNetwork, Layer::kTransport}) {
    EXPECT_EQ(HeaderBytes(a, l), HeaderBytes(b, l));
    EXPECT_EQ(a.HeaderOffset(l), b.HeaderOffset(l));
  }
  EXPECT_EQ(Bytes(a.headers().begin(), a.headers().end()),
            Bytes(b.headers().begin(), b.headers().end()));
  EXPECT_EQ(a.data().Flatten(), b.data().Flatten());
  EXPECT_EQ(a.data().size(), b.data().size());
}

// ExpectSameAsReceived expects `v`, what VerifyFrame found of `frame`, to
// describe what Receive delivered of the same frame, `r`: the same layers
// at the same offsets, the same payload bytes, and the same fields when
// read from the frame (HeaderBytes, ReadTCPInfo) as Receive decoded; and
// `frame` to be what it was, `bytes`, nothing consumed.
void ExpectSameAsReceived(const PacketBuffer& frame, const Bytes& bytes,
                          const VerifiedFrame& v, const ReceivedPacket& r) {
  EXPECT_TRUE(frame.headers().empty());
  EXPECT_EQ(frame.data().Flatten(), bytes);
  EXPECT_EQ(v.network, r.parsed.network);
  EXPECT_EQ(v.network, r.packet.network_protocol);
  EXPECT_EQ(v.transport, r.packet.transport_protocol);
  EXPECT_EQ(v.network_offset, r.parsed.network_offset);
  EXPECT_EQ(v.transport_offset, r.parsed.transport_offset);
  EXPECT_EQ(v.payload_offset, r.packet.headers().size());
  EXPECT_EQ(v.payload_length(), r.packet.data().size());
  EXPECT_EQ(v.is_fragment, r.is_fragment);
  EXPECT_EQ(v.checksum_verified, r.checksum_verified);
  std::optional<buffer::Buffer> payload =
      frame.data().CloneRange(v.payload_offset, v.payload_length());
  ASSERT_TRUE(payload.has_value());
  EXPECT_EQ(payload->Flatten(), r.packet.data().Flatten());
  std::array<uint8_t, PacketBuffer::kHeaderCapacity> scratch;
  std::span<const uint8_t> h = HeaderBytes(frame, v, scratch);
  EXPECT_EQ(Bytes(h.begin(), h.end()),
            Bytes(r.packet.headers().begin(), r.packet.headers().end()));
  EXPECT_EQ(ReadTCPInfo(h, v), r.tcp);
  if (!v.is_fragment) {
    ASSERT_GE(h.size(), v.transport_offset + 4u);
    EXPECT_EQ(LoadBig16(&h[v.transport_offset]), r.source_port);
    EXPECT_EQ(LoadBig16(&h[v.transport_offset + 2]), r.destination_port);
  }
  // The fields VerifiedFrame carries are Receive's, and its transport_head
  // the header's first bytes as the frame holds them: 16 of TCP's, 8 of
  // UDP's and then zeros, zeros for a fragment.
  EXPECT_EQ(v.source_port(), r.source_port);
  EXPECT_EQ(v.destination_port(), r.destination_port);
  EXPECT_EQ(v.is_tcp(), r.tcp.has_value());
  const TCPInfo tcp = r.tcp.value_or(TCPInfo{});
  EXPECT_EQ(v.tcp_seq(), tcp.seq);
  EXPECT_EQ(v.tcp_ack(), tcp.ack);
  EXPECT_EQ(v.tcp_flags(), tcp.flags);
  EXPECT_EQ(v.tcp_window(), tcp.window);
  std::array<uint8_t, 16> head{};
  if (!v.is_fragment) {
    const size_t n = v.is_tcp() ? 16 : 8;
    ASSERT_GE(h.size(), v.transport_offset + n);
    std::copy_n(h.begin() + v.transport_offset, n, head.begin());
  }
  EXPECT_EQ(v.transport_head, head);
}

// Compare runs `bytes` through ReceiveInPlace and through the general path
// alone, each on its own copy built the same way, into packets that held
// another frame before (as a driver reuses them), and expects the same
// outcome; and through VerifyFrame, on a third copy, which must judge it
// as ReceiveInPlace does and describe what it delivers. Returns whether
// the frame was delivered.
bool Compare(const Bytes& bytes, const std::vector<size_t>& cuts,
             const RxState& rx, ReceivedPacket& fast, ReceivedPacket& general) {
  fast.packet = Build(bytes, cuts, rx);
  general.packet = Build(bytes, cuts, rx);
  const PacketBuffer frame = Build(bytes, cuts, rx);
  ReceiveStats fs, gs, vs;
  bool fok = ReceiveInPlace(fast, LinkType::kEthernet, fs);
  bool gok =
      internal::ReceiveGeneralForTesting(general, LinkType::kEthernet, gs);
  VerifiedFrame v;
  bool vok = VerifyFrame(frame, LinkType::kEthernet, vs, v);
  EXPECT_EQ(fok, gok);
  EXPECT_EQ(vok, fok);
  ExpectSameStats(fs, gs);
  ExpectSameStats(vs, fs);
  if (!fok || !gok) return false;
  ExpectSamePacket(fast, general);
  if (vok) ExpectSameAsReceived(frame, bytes, v, fast);
  return true;
}

// Segment returns a TCP segment whose options are one of several layouts:
// none, the aligned timestamps alone (the layout the fast path reads
// directly), timestamps with SACK blocks, MSS with window scale.
TCPSegment Segment(int options) {
  TCPSegment s;
  s.source_port = 49152;
  s.destination_port = 443;
  s.seq = 0xfffffff0;
  s.ack = 0x12345678;
  s.flags = header::kTCPFlagAck | header::kTCPFlagPsh;
  s.window = 29200;
  s.urgent_pointer = 0;
  switch (options % 4) {
    case 0:
      break;
    case 1:
      s.options.timestamps = header::TCPTimestamps{0x01020304, 0xa0b0c0d0};
      break;
    case 2:
      s.options.timestamps = header::TCPTimestamps{7, 8};
      s.options.sack_block_count = 2;
      s.options.sack_blocks[0] = header::SackBlock{100, 200};
      s.options.sack_blocks[1] = header::SackBlock{300, 400};
      break;
    case 3:
      s.options.mss = 1460;
      s.options.window_scale = 7;
      s.options.sack_permitted = true;
      break;
  }
  return s;
}

// Encode returns the frame bytes of an untagged Ethernet/IPv4 TCP or UDP
// packet carrying `payload`, checksums complete.
Bytes Encode(bool tcp, int options, const Bytes& payload, int vlan_tags = 0,
             NetworkProtocol network = NetworkProtocol::kIPv4) {
  PacketBuffer pkt(testing::MakePayload(payload, 2));
  Route route = MakeRoute(network, true, vlan_tags);
  EncodeError e;
  if (tcp) {
    e = EncodeTCP(route, Segment(options), LinkCapabilities{}, pkt);
  } else {
    UDPDatagram d;
    d.source_port = 5353;
    d.destination_port = 53;
    e = EncodeUDP(route, d, LinkCapabilities{}, pkt);
  }
  EXPECT_EQ(e, EncodeError::kOk);
  return pkt.Flatten();
}

// FixIPv4Checksum recomputes the checksum of the IPv4 header at byte 14,
// so that damage elsewhere in it reaches the checks that follow.
void FixIPv4Checksum(Bytes& f) {
  constexpr size_t kOff = 14;
  if (f.size() < kOff + 20) return;
  size_t ihl = size_t{f[kOff] & 0xfu} * 4;
  ihl = std::min(std::max<size_t>(ihl, 20), f.size() - kOff);
  f[kOff + 10] = f[kOff + 11] = 0;
  auto c =
      static_cast<uint16_t>(~ReferenceSum(std::span(f).subspan(kOff, ihl)));
  f[kOff + 10] = static_cast<uint8_t>(c >> 8);
  f[kOff + 11] = static_cast<uint8_t>(c);
}

// States returns the offload states to try on a frame of `size` bytes.
std::vector<RxState> States(const Bytes& f) {
  std::vector<RxState> out;
  out.push_back({ChecksumStatus::kNone, 0, 0});
  out.push_back({ChecksumStatus::kUnnecessary, 0, 0});
  out.push_back({ChecksumStatus::kPartial, 34, 16});
  for (size_t start : {size_t{0}, size_t{13}, size_t{14}, size_t{33},
                       size_t{34}, size_t{35}, f.size(), f.size() + 1}) {
    RxState s{ChecksumStatus::kComplete, static_cast<uint32_t>(start), 0};
    if (start <= f.size()) s.csum = ReferenceSum(std::span(f).subspan(start));
    out.push_back(s);
  }
  return out;
}

// Layouts returns view cuts to try: the headers at the front of one view
// or a few, split at and around the header boundaries, and alone in the
// first view with the payload in three more, as a header-splitting NIC
// leaves them (UDP, TCP without options, TCP with the aligned timestamps,
// over IPv4 and IPv6).
std::vector<std::vector<size_t>> Layouts(size_t size) {
  std::vector<std::vector<size_t>> layouts = {
      {},       {size / 2}, {200, 700, 1100}, {54}, {66}, {65},
      {67, 68}, {14},       {34, 60},         {53}, {74}, {85},
      {86, 87}, {size - 1}};
  for (size_t headers : {42, 54, 62, 66, 74, 86}) {
    layouts.push_back({headers, headers + 500, headers + 1000});
  }
  return layouts;
}

TEST(ReceiveFastTest, ValidFramesMatchTheGeneralPath) {
  std::mt19937 rng(1);
  ReceivedPacket fast, general;
  int delivered = 0;
  for (NetworkProtocol network :
       {NetworkProtocol::kIPv4, NetworkProtocol::kIPv6}) {
    for (bool tcp : {true, false}) {
      for (int options = 0; options < 4; ++options) {
        for (size_t size : {0, 1, 6, 7, 12, 13, 100, 1447, 1448, 1460}) {
          Bytes f = Encode(tcp, options, RandomBytes(rng, size), 0, network);
          for (const RxState& rx : States(f)) {
            for (const auto& cuts : Layouts(f.size())) {
              SCOPED_TRACE(::testing::Message()
                           << "tcp " << tcp << " options " << options
                           << " size " << size << " status "
                           << static_cast<int>(rx.status) << " start "
                           << rx.csum_start << " cuts " << cuts.size());
              delivered += Compare(f, cuts, rx, fast, general);
            }
          }
          if (!tcp) break;  // UDP has no options.
        }
      }
    }
  }
  EXPECT_GT(delivered, 2000);
}

TEST(ReceiveFastTest, OtherShapesMatchTheGeneralPath) {
  std::mt19937 rng(2);
  ReceivedPacket fast, general;
  for (bool tcp : {true, false}) {
    Bytes payload = RandomBytes(rng, 300);
    // VLAN tags: never the fast path's; delivered all the same.
    for (int tags = 1; tags <= 2; ++tags) {
      EXPECT_TRUE(
          Compare(Encode(tcp, 1, payload, tags), {}, {}, fast, general));
      EXPECT_TRUE(Compare(Encode(tcp, 1, payload, tags, NetworkProtocol::kIPv6),
                          {}, {}, fast, general));
    }
    // An IPv6 extension header (Destination Options, 8 bytes of padding)
    // in front of the transport header.
    Bytes e = Encode(tcp, 1, payload, 0, NetworkProtocol::kIPv6);
    const uint8_t next = e[20];
    e.insert(e.begin() + 54, {next, 0, 1, 4, 0, 0, 0, 0});
    e[20] = 60;
    uint16_t plen = static_cast<uint16_t>((e[18] << 8 | e[19]) + 8);
    e[18] = static_cast<uint8_t>(plen >> 8);
    e[19] = static_cast<uint8_t>(plen);
    EXPECT_TRUE(Compare(e, {}, {}, fast, general));
    // Ethernet padding after a short datagram.
    Bytes f = Encode(tcp, 0, RandomBytes(rng, 2));
    while (f.size() < 60) f.push_back(0xee);
    EXPECT_TRUE(Compare(f, {}, {}, fast, general));
    // An IPv4 header with options (IHL 6: a NOP option and 3 EOLs).
    Bytes g = Encode(tcp, 0, payload);
    g.insert(g.begin() + 34, {1, 0, 0, 0});
    g[14] = 0x46;
    uint16_t total = static_cast<uint16_t>((g[16] << 8 | g[17]) + 4);
    g[16] = static_cast<uint8_t>(total >> 8);
    g[17] = static_cast<uint8_t>(total);
    FixIPv4Checksum(g);
    Compare(g, {}, {}, fast, general);
  }
}

TEST(ReceiveFastTest, DamagedFramesMatchTheGeneralPath) {
  std::mt19937 rng(3);
  ReceivedPacket fast, general;
  int delivered = 0, dropped = 0;
  for (int round = 0; round < 6000; ++round) {
    const bool tcp = round % 3 != 0;
    const NetworkProtocol network =
        round % 5 < 3 ? NetworkProtocol::kIPv4 : NetworkProtocol::kIPv6;
    Bytes f =
        Encode(tcp, round % 4, RandomBytes(rng, rng() % 1500), 0, network);
    // One to three header bytes (the first 100) set to random values, or
    // to a value chosen to pass the check before it.
    const int n = 1 + static_cast<int>(rng() % 3);
    for (int k = 0; k < n; ++k) {
      size_t at = rng() % std::min<size_t>(100, f.size());
      f[at] = static_cast<uint8_t>(rng());
    }
    switch (rng() % 6) {
      case 0:
        f.resize(f.size() - rng() % std::min<size_t>(f.size(), 80));
        break;
      case 1:
        for (size_t k = rng() % 40; k > 0; --k) f.push_back(0);
        break;
      default:
        break;
    }
    if (rng() % 2) FixIPv4Checksum(f);
    std::vector<RxState> states = States(f);
    const RxState& rx = states[rng() % states.size()];
    std::vector<std::vector<size_t>> layouts = Layouts(f.size());
    const auto& cuts = layouts[rng() % layouts.size()];
    SCOPED_TRACE(::testing::Message() << "round " << round);
    if (Compare(f, cuts, rx, fast, general)) {
      ++delivered;
    } else {
      ++dropped;
    }
  }
  // Both outcomes are exercised often.
  EXPECT_GT(delivered, 300);
  EXPECT_GT(dropped, 300);
}

TEST(ReceiveFastTest, VerifiedFrameCarriesTheTransportFields) {
  std::mt19937 rng(7);
  for (NetworkProtocol network :
       {NetworkProtocol::kIPv4, NetworkProtocol::kIPv6}) {
    for (int vlan_tags : {0, 1}) {  // The fast path, then the general one.
      SCOPED_TRACE(::testing::Message()
                   << "IPv6 " << (network == NetworkProtocol::kIPv6)
                   << " VLAN tags " << vlan_tags);
      const Bytes payload = RandomBytes(rng, 100);
      ReceiveStats stats;
      VerifiedFrame v;
      const Bytes segment = Encode(true, 1, payload, vlan_tags, network);
      ASSERT_TRUE(VerifyFrame(Build(segment, {}, RxState{}),
                              LinkType::kEthernet, stats, v));
      // Segment's fields.
      EXPECT_TRUE(v.is_tcp());
      EXPECT_EQ(v.source_port(), 49152);
      EXPECT_EQ(v.destination_port(), 443);
      EXPECT_EQ(v.tcp_seq(), 0xfffffff0u);
      EXPECT_EQ(v.tcp_ack(), 0x12345678u);
      EXPECT_EQ(v.tcp_flags(), header::kTCPFlagAck | header::kTCPFlagPsh);
      EXPECT_EQ(v.tcp_window(), 29200);
      // Data offset 8 (32 bytes: the timestamps).
      EXPECT_EQ(v.transport_head[12], 0x80);

      const Bytes datagram = Encode(false, 0, payload, vlan_tags, network);
      ASSERT_TRUE(VerifyFrame(Build(datagram, {}, RxState{}),
                              LinkType::kEthernet, stats, v));
      EXPECT_FALSE(v.is_tcp());
      EXPECT_EQ(v.source_port(), 5353);
      EXPECT_EQ(v.destination_port(), 53);
      EXPECT_EQ(LoadBig16(&v.transport_head[4]), 8 + payload.size());
      EXPECT_EQ(v.tcp_seq(), 0u);
      EXPECT_EQ(v.tcp_ack(), 0u);
      EXPECT_EQ(v.tcp_flags(), 0);
      EXPECT_EQ(v.tcp_window(), 0);
      for (size_t i = 8; i < 16; ++i) EXPECT_EQ(v.transport_head[i], 0);
    }
  }
}

TEST(ReceiveFastTest, EveryTCPDataOffsetAndUDPLength) {
  std::mt19937 rng(4);
  ReceivedPacket fast, general;
  Bytes payload = RandomBytes(rng, 64);
  for (int doff = 0; doff < 16; ++doff) {
    Bytes f = Encode(true, 1, payload);
    f[34 + 12] = static_cast<uint8_t>((doff << 4) | (f[34 + 12] & 0x0f));
    for (const RxState& rx : States(f)) Compare(f, {}, rx, fast, general);
  }
  for (int delta = -9; delta <= 2; ++delta) {
    Bytes f = Encode(false, 0, payload);
    uint16_t length = static_cast<uint16_t>((f[38] << 8 | f[39]) + delta);
    f[38] = static_cast<uint8_t>(length >> 8);
    f[39] = static_cast<uint8_t>(length);
    for (const RxState& rx : States(f)) Compare(f, {}, rx, fast, general);
  }
  // A UDP checksum of zero: none sent, delivered unverified.
  Bytes f = Encode(false, 0, payload);
  f[40] = f[41] = 0;
  for (const RxState& rx : States(f)) Compare(f, {}, rx, fast, general);
}

// Burst receives `frames` (each with its cuts and offload state) with
// ReceiveBurst, `burst` at a time with `prefetch`, into `many`, and one by
// one with ReceiveInPlace into `one` (both vectors reused across calls, as
// a driver reuses its ring), and expects the same verdicts, counters and
// packets; then VerifyBurst the same way. Returns the frames delivered.
int Burst(const std::vector<Bytes>& frames,
          const std::vector<std::vector<size_t>>& cuts,
          const std::vector<RxState>& rx, LinkType link, size_t burst,
          BurstPrefetch prefetch, std::vector<ReceivedPacket>& many,
          std::vector<ReceivedPacket>& one) {
  const size_t n = frames.size();
  many.resize(n);
  one.resize(n);
  for (size_t i = 0; i < n; ++i) {
    many[i].packet = Build(frames[i], cuts[i], rx[i]);
    one[i].packet = Build(frames[i], cuts[i], rx[i]);
  }
  ReceiveStats many_stats, one_stats;
  std::vector<uint8_t> many_ok(n), one_ok(n);
  size_t many_count = 0;
  for (size_t at = 0; at < n; at += burst) {
    const size_t m = std::min(burst, n - at);
    bool ok[64];
    many_count += ReceiveBurst(std::span(many).subspan(at, m), link, many_stats,
                               std::span(ok, m), prefetch);
    for (size_t i = 0; i < m; ++i) many_ok[at + i] = ok[i];
  }
  int delivered = 0;
  for (size_t i = 0; i < n; ++i) {
    one_ok[i] = ReceiveInPlace(one[i], link, one_stats);
    delivered += one_ok[i];
  }
  EXPECT_EQ(many_count, static_cast<size_t>(delivered));
  ExpectSameStats(many_stats, one_stats);
  // VerifyBurst over the same frames, `burst` at a time, into results that
  // hold the previous burst's.
  std::vector<PacketBuffer> frames_in(n);
  for (size_t i = 0; i < n; ++i)
    frames_in[i] = Build(frames[i], cuts[i], rx[i]);
  std::vector<VerifiedFrame> verified(std::min<size_t>(burst, n));
  std::vector<uint8_t> verify_ok(n);
  ReceiveStats verify_stats;
  size_t verify_count = 0;
  for (size_t at = 0; at < n; at += burst) {
    const size_t m = std::min(burst, n - at);
    bool ok[64];
    verify_count +=
        VerifyBurst(std::span(frames_in).subspan(at, m), link, verify_stats,
                    verified, std::span(ok, m), prefetch);
    for (size_t i = 0; i < m; ++i) {
      verify_ok[at + i] = ok[i];
      SCOPED_TRACE(::testing::Message() << "verified frame " << at + i);
      EXPECT_EQ(ok[i], one_ok[at + i]);
      if (ok[i] && one_ok[at + i]) {
        ExpectSameAsReceived(frames_in[at + i], frames[at + i], verified[i],
                             one[at + i]);
      }
    }
  }
  EXPECT_EQ(verify_count, static_cast<size_t>(delivered));
  ExpectSameStats(verify_stats, one_stats);
  for (size_t i = 0; i < n; ++i) {
    SCOPED_TRACE(::testing::Message() << "frame " << i);
    EXPECT_EQ(many_ok[i], one_ok[i]);
    if (many_ok[i] && one_ok[i]) ExpectSamePacket(many[i], one[i]);
  }
  return delivered;
}

// kPrefetches is every BurstPrefetch, and a value outside the enumeration
// (taken as kFrame).
constexpr BurstPrefetch kPrefetches[] = {
    BurstPrefetch::kFrame, BurstPrefetch::kHeaders, BurstPrefetch::kNone,
    static_cast<BurstPrefetch>(200)};

TEST(ReceiveFastTest, BurstMatchesOneAtATime) {
  std::mt19937 rng(5);
  std::vector<ReceivedPacket> many, one;
  int delivered = 0, total = 0;
  // Each prefetch policy in turn, so that each meets several burst sizes
  // and both links.
  size_t turn = 0;
  for (LinkType link : {LinkType::kEthernet, LinkType::kIP}) {
    for (size_t burst : {1, 2, 3, 4, 5, 16, 33, 64}) {
      // Two rounds into the same packets: the second finds them holding
      // the first's results.
      for (int round = 0; round < 2; ++round) {
        const BurstPrefetch prefetch =
            kPrefetches[turn++ % std::size(kPrefetches)];
        std::vector<Bytes> frames;
        std::vector<std::vector<size_t>> cuts;
        std::vector<RxState> rx;
        for (int k = 0; k < 150; ++k) {
          const bool tcp = rng() % 3 != 0;
          const NetworkProtocol network =
              rng() % 2 ? NetworkProtocol::kIPv4 : NetworkProtocol::kIPv6;
          Bytes f = Encode(tcp, static_cast<int>(rng() % 4),
                           RandomBytes(rng, rng() % 1500),
                           static_cast<int>(rng() % 8 == 0), network);
          // A third of the frames damaged in a header byte (the IPv4
          // checksum then fixed or not), or cut short, or padded.
          switch (rng() % 9) {
            case 0:
              f[rng() % std::min<size_t>(100, f.size())] =
                  static_cast<uint8_t>(rng());
              if (rng() % 2) FixIPv4Checksum(f);
              break;
            case 1:
              f.resize(f.size() - rng() % std::min<size_t>(f.size(), 80));
              break;
            case 2:
              for (size_t j = 1 + rng() % 40; j > 0; --j) f.push_back(0);
              break;
            default:
              break;
          }
          if (link == LinkType::kIP) {
            f.erase(f.begin(), f.begin() + std::min<size_t>(14, f.size()));
          }
          std::vector<RxState> states = States(f);
          std::vector<std::vector<size_t>> layouts = Layouts(f.size());
          rx.push_back(states[rng() % states.size()]);
          cuts.push_back(layouts[rng() % layouts.size()]);
          frames.push_back(std::move(f));
        }
        SCOPED_TRACE(::testing::Message()
                     << "link " << static_cast<int>(link) << " burst " << burst
                     << " round " << round << " prefetch "
                     << static_cast<int>(prefetch));
        delivered += Burst(frames, cuts, rx, link, burst, prefetch, many, one);
        total += static_cast<int>(frames.size());
      }
    }
  }
  // Both outcomes are exercised often.
  EXPECT_GT(delivered, total / 3);
  EXPECT_LT(delivered, total - total / 10);
}

TEST(ReceiveFastTest, BurstPrefetchNames) {
  EXPECT_EQ(ToString(BurstPrefetch::kFrame), "frame");
  EXPECT_EQ(ToString(BurstPrefetch::kHeaders), "headers");
  EXPECT_EQ(ToString(BurstPrefetch::kNone), "none");
  EXPECT_EQ(ToString(static_cast<BurstPrefetch>(200)), "unknown");
}

TEST(ReceiveFastTest, BurstReceivesAsManyAsItHasResultsFor) {
  std::mt19937 rng(6);
  std::vector<ReceivedPacket> packets(5);
  Bytes f = Encode(true, 1, RandomBytes(rng, 500));
  for (ReceivedPacket& p : packets) p.packet = Build(f, {}, {});
  ReceiveStats stats;
  bool ok[3] = {false, false, false};
  EXPECT_EQ(ReceiveBurst(packets, LinkType::kEthernet, stats, ok), 3u);
  EXPECT_EQ(stats.received, 3u);
  EXPECT_EQ(stats.delivered, 3u);
  EXPECT_TRUE(ok[0] && ok[1] && ok[2]);
  // The last two are as they were handed over.
  for (size_t i = 3; i < 5; ++i) {
    EXPECT_TRUE(packets[i].packet.headers().empty());
    EXPECT_EQ(packets[i].packet.data().Flatten(), f);
  }
  EXPECT_EQ(ReceiveBurst({}, LinkType::kEthernet, stats, ok), 0u);
  EXPECT_EQ(stats.received, 3u);
}

}  // namespace
}  // namespace ipsum::tcpip
