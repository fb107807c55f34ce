// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Fuzzes the transmit path and segmentation: EncodeTCP, EncodeUDP,
// SegmentTCP (software GSO) and SendTCP (with TSO packets then cut by
// SegmentGsoPacket, as a NIC would), over IPv4 or IPv6, with or without
// Ethernet and VLAN tags, software or offloaded checksums, random header
// fields and TCP options, and a payload chained over views of random
// lengths (some sharing chunks). The input is read field by field
// (testing/fuzz/fuzz_util.h's Reader; zeros past its end).
//
// Properties: an encoder either fails and appends nothing, or every packet
// it produces (kPartial ones completed by ResolvePartialChecksum, TSO ones
// segmented) is delivered by the software receive path with its checksum
// verified; the segments carry the payload in order, each at most MSS bytes
// (TSO packets whole MSS multiples), with sequence numbers and IPv4
// Identifications counting up and CWR only on the first segment, FIN and
// PSH only on the last; ports, ack, window and options are as given. With
// valid fields (a 20-bit flow label, valid VLAN tags, options that fit,
// UDP checksums over IPv6) encoding must succeed.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "buffer/buffer.h"
#include "header/ethernet.h"
#include "header/tcp.h"
#include "tcpip/gso.h"
#include "tcpip/packet_buffer.h"
#include "tcpip/receive.h"
#include "tcpip/transmit.h"
#include "testing/fuzz/fuzz_util.h"

namespace ipsum::tcpip {
namespace {

using Bytes = std::vector<uint8_t>;

enum Op : uint8_t { kEncodeTCP = 0, kEncodeUDP, kSendTCP, kSegmentTCP };

struct Case {
  Op op;
  Route route;
  TCPSegment segment;
  UDPDatagram datagram;
  LinkCapabilities link;
  uint16_t mss = 0;
  Bytes payload;
  // valid: every field is encodable, so the encoder must succeed.
  bool valid = true;
};

header::TCPOptions ReadOptions(fuzz::Reader& in, bool& valid) {
  header::TCPOptions o;
  const uint8_t which = in.U8();
  if (which & 1) o.mss = in.U16();
  if (which & 2) o.window_scale = in.U8();
  o.sack_permitted = (which & 4) != 0;
  if (which & 8) o.timestamps = header::TCPTimestamps{in.U32(), in.U32()};
  o.sack_block_count = (which >> 4) % 6;  // 5 is invalid.
  for (size_t i = 0; i < std::min<size_t>(o.sack_block_count, 4); ++i) {
    o.sack_blocks[i] = header::SackBlock{in.U32(), in.U32()};
  }
  if (o.sack_block_count > header::kMaxSackBlocks ||
      header::TCPOptionsSize(o) > 40) {
    valid = false;
  }
  return o;
}

Case ReadCase(fuzz::Reader& in) {
  Case c;
  const uint8_t mode = in.U8();
  c.op = static_cast<Op>(mode & 3);
  const bool v6 = (mode & 4) != 0;
  const int link_kind = (mode >> 3) & 3;  // none, Ethernet + 0..2 tags.
  c.link.tx_checksum_offload = (mode & 0x20) != 0;
  const bool tso = (mode & 0x40) != 0;

  Route& r = c.route;
  r.network = v6 ? NetworkProtocol::kIPv6 : NetworkProtocol::kIPv4;
  r.source_v4 = header::IPv4Address::FromHost(in.U32());
  r.destination_v4 = header::IPv4Address::FromHost(in.U32());
  for (size_t i = 0; i < 16; i += 4) {
    const uint32_t a = in.U32();
    r.source_v6.bytes[i] = static_cast<uint8_t>(a >> 24);
    r.source_v6.bytes[i + 1] = static_cast<uint8_t>(a >> 16);
    r.destination_v6.bytes[i + 2] = static_cast<uint8_t>(a >> 8);
    r.destination_v6.bytes[i + 3] = static_cast<uint8_t>(a);
  }
  r.ttl = in.U8();
  r.tos = in.U8();
  const uint8_t flow = in.U8();
  r.flow_label = (flow & 0x80) ? 0x100000u | flow : flow * 0x1111u;
  if (v6 && r.flow_label > 0xfffff) c.valid = false;
  r.dont_fragment = in.Bool();
  if (link_kind != 0) {
    header::EthernetFields e;
    e.source.bytes = {0x02, 0, 0, 0, 0, in.U8()};
    e.destination.bytes = {0x02, 0, 0, 0, 1, in.U8()};
    e.tag_count = static_cast<uint8_t>(link_kind - 1);
    for (size_t i = 0; i < e.tag_count; ++i) {
      const uint16_t tci = in.U16();
      const uint8_t tpid = in.U8();
      e.tags[i].tpid =
          (tpid & 1) ? header::kEtherTypeQinQ : header::kEtherTypeVlan;
      if (tpid & 0x80) {
        e.tags[i].tpid = 0x1234;  // Invalid.
        c.valid = false;
      }
      e.tags[i].pcp = static_cast<uint8_t>(tci >> 13);
      e.tags[i].dei = (tci & 0x1000) != 0;
      e.tags[i].vid = tci & 0x0fff;
    }
    r.ethernet = e;
  }

  TCPSegment& s = c.segment;
  s.source_port = in.U16();
  s.destination_port = in.U16();
  s.seq = in.U32();
  s.ack = in.U32();
  s.flags = in.U8();
  s.window = in.U16();
  s.urgent_pointer = in.U16();
  s.ip_id = in.U16();
  s.options = ReadOptions(in, c.valid);
  c.datagram.source_port = s.source_port;
  c.datagram.destination_port = s.destination_port;
  c.datagram.ip_id = s.ip_id;
  c.datagram.no_checksum = (s.flags & 0x80) && (mode & 0x80);
  if (c.op == kEncodeUDP && v6 && c.datagram.no_checksum) c.valid = false;

  c.mss = in.U16() % 9001;
  if (c.mss == 0 && (c.op == kSendTCP || c.op == kSegmentTCP)) {
    c.valid = false;
  }
  if (tso) c.link.tso_max_size = uint32_t{in.U16()} * 2;

  // The payload: at most 64 segments' worth, so that an MSS of 1 stays
  // cheap; past kMaxSendSize (or an IP length field) is a legal error.
  size_t length =
      in.U16() % 4 == 0 ? in.U16() + size_t{in.U8()} * 8 : in.U16() % 3000;
  if (c.op == kSendTCP || c.op == kSegmentTCP) {
    length =
        std::min<size_t>(length, size_t{std::max<uint16_t>(c.mss, 1)} * 64);
    if (length > kMaxSendSize) c.valid = false;
  } else if (length > 65000) {
    c.valid = false;
  }
  const uint8_t fill = in.U8();
  c.payload.resize(length);
  for (size_t i = 0; i < length; ++i) {
    c.payload[i] = static_cast<uint8_t>(i * fill + (i >> 8));
  }
  return c;
}

// Chain returns `bytes` as a Buffer of views of lengths from `in`, every
// third view shared with a clone that outlives nothing but the call.
buffer::Buffer Chain(std::span<const uint8_t> bytes, fuzz::Reader& in) {
  buffer::Buffer b;
  size_t at = 0;
  int i = 0;
  while (at < bytes.size()) {
    size_t n = std::min<size_t>(bytes.size() - at, 1 + in.U16() % 2048);
    if (in.empty()) n = bytes.size() - at;
    buffer::View v = buffer::View::Copy(bytes.subspan(at, n), i % 2 ? 0 : 7);
    if (++i % 3 == 0) {
      buffer::View shared = v;  // The chunk is shared while appended.
      b.Append(shared);
    } else {
      b.Append(std::move(v));
    }
    at += n;
  }
  return b;
}

// Expect holds what the next segment must carry.
struct Expect {
  size_t offset = 0;  // Payload bytes before this segment.
  size_t index = 0;   // Segments before this one.
};

// CheckDelivered receives `pkt` as the software receive path does and
// checks it against the case; `first`/`last` say where it sits in the send.
void CheckDelivered(const Case& c, PacketBuffer pkt, Expect& at, bool first,
                    bool last, size_t max_payload) {
  if (pkt.checksum_status == ChecksumStatus::kPartial) {
    IPSUM_FUZZ_CHECK(ResolvePartialChecksum(pkt));
  }
  IPSUM_FUZZ_CHECK(pkt.checksum_status == ChecksumStatus::kNone);
  PacketBuffer frame = PacketBuffer::FromFrame(pkt.ToBuffer());
  ReceiveStats stats;
  const LinkType link = c.route.ethernet ? LinkType::kEthernet : LinkType::kIP;
  std::optional<ReceivedPacket> r = Receive(std::move(frame), link, stats);
  IPSUM_FUZZ_CHECK(r.has_value());
  const bool udp = c.op == kEncodeUDP;
  IPSUM_FUZZ_CHECK(r->checksum_verified == !(udp && c.datagram.no_checksum));
  IPSUM_FUZZ_CHECK(!r->is_fragment);
  IPSUM_FUZZ_CHECK(r->source_port == c.segment.source_port);
  IPSUM_FUZZ_CHECK(r->destination_port == c.segment.destination_port);
  const Bytes got = r->packet.data().Flatten();
  IPSUM_FUZZ_CHECK(got.size() <= max_payload || max_payload == 0);
  IPSUM_FUZZ_CHECK(at.offset + got.size() <= c.payload.size());
  IPSUM_FUZZ_CHECK(
      std::equal(got.begin(), got.end(), c.payload.begin() + at.offset));
  if (c.route.network == NetworkProtocol::kIPv4) {
    const auto ip = r->packet.Header(Layer::kNetwork);
    IPSUM_FUZZ_CHECK(ip.size() >= 20);
    const uint16_t id = static_cast<uint16_t>(ip[4] << 8 | ip[5]);
    const uint16_t want =
        udp ? c.datagram.ip_id
            : static_cast<uint16_t>(c.segment.ip_id + at.index);
    IPSUM_FUZZ_CHECK(id == want);
  }
  if (!udp) {
    IPSUM_FUZZ_CHECK(r->tcp.has_value());
    const TCPInfo& t = *r->tcp;
    IPSUM_FUZZ_CHECK(t.seq == static_cast<uint32_t>(c.segment.seq + at.offset));
    IPSUM_FUZZ_CHECK(t.ack == c.segment.ack);
    IPSUM_FUZZ_CHECK(t.window == c.segment.window);
    IPSUM_FUZZ_CHECK(t.options == c.segment.options);
    uint8_t flags = c.segment.flags;
    if (!first) flags &= static_cast<uint8_t>(~header::kTCPFlagCwr);
    if (!last) {
      flags &=
          static_cast<uint8_t>(~(header::kTCPFlagFin | header::kTCPFlagPsh));
    }
    IPSUM_FUZZ_CHECK(t.flags == flags);
  }
  at.offset += got.size();
  at.index += 1;
}

}  // namespace
}  // namespace ipsum::tcpip

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace ipsum::tcpip;
  ipsum::fuzz::Reader in({data, size});
  const Case c = ReadCase(in);
  ipsum::buffer::Buffer payload = Chain(c.payload, in);
  IPSUM_FUZZ_CHECK(payload.size() == c.payload.size());

  std::vector<PacketBuffer> out;
  EncodeError e = EncodeError::kOk;
  switch (c.op) {
    case kEncodeTCP:
    case kEncodeUDP: {
      PacketBuffer pkt(std::move(payload));
      e = c.op == kEncodeTCP ? EncodeTCP(c.route, c.segment, c.link, pkt)
                             : EncodeUDP(c.route, c.datagram, c.link, pkt);
      if (e != EncodeError::kOk) {
        // Unchanged: no header pushed, the payload intact.
        IPSUM_FUZZ_CHECK(pkt.headers().empty());
        IPSUM_FUZZ_CHECK(pkt.data().Flatten() == c.payload);
      } else {
        out.push_back(std::move(pkt));
      }
      break;
    }
    case kSendTCP:
      e = SendTCP(c.route, c.segment, c.mss, c.link, std::move(payload), out);
      break;
    case kSegmentTCP:
      e = SegmentTCP(c.route, c.segment, c.mss, c.link, std::move(payload),
                     out);
      break;
  }
  if (e != EncodeError::kOk) {
    IPSUM_FUZZ_CHECK(out.empty());
    // Valid fields may still be too large for a datagram or a TSO limit.
    IPSUM_FUZZ_CHECK(!c.valid || e == EncodeError::kTooLarge);
    return 0;
  }

  // Cut TSO packets as the NIC would, into a flat list of segments.
  std::vector<PacketBuffer> segments;
  const bool segmented = c.op == kSendTCP || c.op == kSegmentTCP;
  for (size_t i = 0; i < out.size(); ++i) {
    PacketBuffer& p = out[i];
    if (p.gso_type == GsoType::kNone) {
      segments.push_back(std::move(p));
      continue;
    }
    IPSUM_FUZZ_CHECK(c.op == kSendTCP && c.link.tso_max_size != 0);
    IPSUM_FUZZ_CHECK(p.gso_size == c.mss);
    IPSUM_FUZZ_CHECK(p.size() <= c.link.tso_max_size);
    IPSUM_FUZZ_CHECK(i + 1 == out.size() || p.data().size() % c.mss == 0);
    LinkCapabilities nic;  // A NIC completes the checksums.
    const EncodeError g = SegmentGsoPacket(std::move(p), nic, segments);
    IPSUM_FUZZ_CHECK(g == EncodeError::kOk);
  }
  IPSUM_FUZZ_CHECK(!segments.empty());
  if (segmented && !c.payload.empty()) {
    IPSUM_FUZZ_CHECK(segments.size() == (c.payload.size() + c.mss - 1) / c.mss);
  }

  Expect at;
  for (size_t i = 0; i < segments.size(); ++i) {
    CheckDelivered(c, std::move(segments[i]), at, i == 0,
                   i + 1 == segments.size(), segmented ? c.mss : 0);
  }
  IPSUM_FUZZ_CHECK(at.offset == c.payload.size());
  return 0;
}
