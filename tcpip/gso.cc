// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Software GSO, TSO packets, and the NIC's segmentation of them.

#include "tcpip/gso.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "header/ethernet.h"
#include "header/ipv4.h"
#include "header/ipv6.h"
#include "header/protocol.h"
#include "header/tcp.h"
#include "header/udp.h"

namespace ipsum::tcpip {
namespace {

// SegmentFields returns the fields of segment `index` of `count` that
// starts `offset` payload bytes into the send (Linux tcp_gso_segment: CWR
// on the first segment only, FIN and PSH on the last only).
TCPSegment SegmentFields(const TCPSegment& s, size_t index, size_t count,
                         size_t offset) {
  TCPSegment f = s;
  // RFC 9293 section 3.4: sequence numbers are modulo 2^32.
  f.seq = static_cast<uint32_t>(s.seq + offset);
  f.ip_id = static_cast<uint16_t>(s.ip_id + index);
  if (index != 0) f.flags &= static_cast<uint8_t>(~header::kTCPFlagCwr);
  if (index + 1 != count) {
    f.flags &=
        static_cast<uint8_t>(~(header::kTCPFlagFin | header::kTCPFlagPsh));
  }
  return f;
}

// HeaderBytes returns the size of the headers EncodeTCP pushes for
// `route` and `segment`, or nullopt if the options cannot be encoded.
std::optional<size_t> HeaderBytes(const Route& route,
                                  const TCPSegment& segment) {
  size_t options = header::TCPOptionsSize(segment.options);
  if (options > header::TCP::kMaxSize - header::TCP::kMinSize) {
    return std::nullopt;
  }
  size_t h = header::TCP::kMinSize + options;
  h += route.network == NetworkProtocol::kIPv4 ? header::IPv4::kMinSize
                                               : header::IPv6::kSize;
  if (route.ethernet) h += header::Ethernet::HeaderSize(*route.ethernet);
  return h;
}

}  // namespace

EncodeError SegmentTCP(const Route& route, const TCPSegment& segment,
                       uint16_t mss, const LinkCapabilities& link,
                       buffer::Buffer payload, std::vector<PacketBuffer>& out) {
  if (mss == 0 || payload.size() > kMaxSendSize) return EncodeError::kTooLarge;
  const size_t total = payload.size();
  const size_t count = total == 0 ? 1 : (total + mss - 1) / mss;
  // Segments are built in place at the end of `out` (no local vector, no
  // second move of each packet); on an error those appended are erased, so
  // `out` keeps only what it held.
  const size_t first = out.size();
  out.reserve(first + count);
  size_t offset = 0;
  for (size_t i = 0; i < count; ++i) {
    // Split keeps the piece in `payload` and returns the rest: views are
    // shared or cut, bytes are not copied.
    size_t n = std::min<size_t>(mss, payload.size());
    std::optional<buffer::Buffer> rest = payload.Split(n);
    if (!rest) {  // Cannot happen: n <= size.
      out.erase(out.begin() + static_cast<ptrdiff_t>(first), out.end());
      return EncodeError::kTooLarge;
    }
    PacketBuffer& pkt = out.emplace_back(std::move(payload));
    payload = std::move(*rest);
    TCPSegment f = SegmentFields(segment, i, count, offset);
    EncodeError e;
    if (link.tx_checksum_offload) {
      e = EncodeTCP(route, f, link, pkt);
    } else {
      // Each piece is summed once, here, and the sum is combined with the
      // segment's own header and pseudo-header sums.
      e = EncodeTCPWithPayloadSum(route, f, link, pkt.data().ChecksumAll(),
                                  pkt);
    }
    if (e != EncodeError::kOk) {
      out.erase(out.begin() + static_cast<ptrdiff_t>(first), out.end());
      return e;
    }
    offset += n;
  }
  return EncodeError::kOk;
}

EncodeError SendTCP(const Route& route, const TCPSegment& segment, uint16_t mss,
                    const LinkCapabilities& link, buffer::Buffer payload,
                    std::vector<PacketBuffer>& out) {
  if (mss == 0 || payload.size() > kMaxSendSize) return EncodeError::kTooLarge;
  if (payload.size() <= mss) {
    PacketBuffer pkt(std::move(payload));
    EncodeError e = EncodeTCP(route, segment, link, pkt);
    if (e == EncodeError::kOk) out.push_back(std::move(pkt));
    return e;
  }
  if (link.tso_max_size == 0 || !link.tx_checksum_offload) {
    return SegmentTCP(route, segment, mss, link, std::move(payload), out);
  }
  std::optional<size_t> headers = HeaderBytes(route, segment);
  if (!headers) return EncodeError::kBadField;
  // The largest payload one TSO packet carries: within the NIC's limit and
  // what the IP length field can say (IPv4 Total Length counts the IP
  // header, IPv6 Payload Length does not), in whole segments.
  const bool v4 = route.network == NetworkProtocol::kIPv4;
  size_t link_header =
      route.ethernet ? header::Ethernet::HeaderSize(*route.ethernet) : 0;
  size_t ip_header = v4 ? header::IPv4::kMinSize : header::IPv6::kSize;
  size_t tcp_header = *headers - link_header - ip_header;
  size_t limit = 0xffff - tcp_header - (v4 ? ip_header : 0);
  if (link.tso_max_size > *headers) {
    limit = std::min<size_t>(limit, link.tso_max_size - *headers);
  } else {
    limit = 0;
  }
  limit -= limit % mss;
  if (limit <= mss) {
    return SegmentTCP(route, segment, mss, link, std::move(payload), out);
  }
  const size_t total = payload.size();
  const size_t chunks = (total + limit - 1) / limit;
  // Built in place at the end of `out`, erased again on an error, as in
  // SegmentTCP.
  const size_t first = out.size();
  out.reserve(first + chunks);
  auto fail = [&out, first](EncodeError e) {
    out.erase(out.begin() + static_cast<ptrdiff_t>(first), out.end());
    return e;
  };
  size_t offset = 0;
  for (size_t c = 0; c < chunks; ++c) {
    size_t n = std::min(limit, payload.size());
    std::optional<buffer::Buffer> rest = payload.Split(n);
    if (!rest) return fail(EncodeError::kTooLarge);
    PacketBuffer& pkt = out.emplace_back(std::move(payload));
    payload = std::move(*rest);
    // The chunk's first segment number decides its IP ID; its flags are
    // those of a chunk among chunks (the NIC then applies them per
    // segment: SegmentGsoPacket).
    TCPSegment f = SegmentFields(segment, c, chunks, offset);
    f.ip_id = static_cast<uint16_t>(segment.ip_id + offset / mss);
    EncodeError e = EncodeTCP(route, f, link, pkt);
    if (e != EncodeError::kOk) return fail(e);
    if (n > mss) {
      pkt.gso_type = route.network == NetworkProtocol::kIPv4 ? GsoType::kTCPv4
                                                             : GsoType::kTCPv6;
      pkt.gso_size = mss;
    }
    offset += n;
  }
  return EncodeError::kOk;
}

namespace {

// RouteFromHeaders fills `route` (and `ip_id`) from the link and network
// headers of `pkt`, which must be IPv4 without options or IPv6 without
// extension headers (`v4` says which), unfragmented, carrying `protocol`.
bool RouteFromHeaders(const PacketBuffer& pkt, bool v4, uint8_t protocol,
                      Route& route, uint16_t& ip_id) {
  std::span<const uint8_t> l = pkt.Header(Layer::kLink);
  if (!l.empty()) {
    header::Result<header::Ethernet> eth = header::Ethernet::Parse(l);
    if (!eth.ok()) return false;
    route.ethernet = eth->fields();
  }
  std::span<const uint8_t> n = pkt.Header(Layer::kNetwork);
  if (v4) {
    header::Result<header::IPv4> ip = header::IPv4::ParsePrefix(n);
    if (!ip.ok() || ip->header_length() != header::IPv4::kMinSize ||
        ip->IsFragment() || ip->protocol() != protocol) {
      return false;
    }
    route.network = NetworkProtocol::kIPv4;
    route.source_v4 = ip->source();
    route.destination_v4 = ip->destination();
    route.ttl = ip->ttl();
    route.tos = ip->tos();
    route.dont_fragment = ip->dont_fragment();
    ip_id = ip->id();
  } else {
    header::Result<header::IPv6> ip = header::IPv6::ParsePrefix(n);
    if (!ip.ok() || n.size() != header::IPv6::kSize ||
        ip->next_header() != protocol) {
      return false;
    }
    route.network = NetworkProtocol::kIPv6;
    route.source_v6 = ip->source();
    route.destination_v6 = ip->destination();
    route.ttl = ip->hop_limit();
    route.tos = ip->traffic_class();
    route.flow_label = ip->flow_label();
  }
  return true;
}

// SegmentUDP cuts a USO packet's payload into gso_size-byte datagrams, each
// encoded by EncodeUDP with the packet's ports and addresses, the IPv4
// Identification counting up per datagram (Linux __udp_gso_segment).
EncodeError SegmentUDP(PacketBuffer& pkt, const LinkCapabilities& link,
                       std::vector<PacketBuffer>& out) {
  Route route;
  UDPDatagram d;
  if (!RouteFromHeaders(pkt, pkt.gso_type == GsoType::kUDPv4,
                        header::kProtocolUDP, route, d.ip_id)) {
    return EncodeError::kBadField;
  }
  header::Result<header::UDP> udp =
      header::UDP::ParsePrefix(pkt.Header(Layer::kTransport));
  if (!udp.ok()) return EncodeError::kBadField;
  d.source_port = udp->source_port();
  d.destination_port = udp->destination_port();
  buffer::Buffer payload = std::move(pkt.data());
  if (payload.size() > kMaxSendSize) return EncodeError::kTooLarge;
  const size_t mss = pkt.gso_size;
  const size_t count =
      payload.empty() ? 1 : (payload.size() + mss - 1) / mss;
  const size_t first = out.size();
  out.reserve(first + count);
  const uint16_t id = d.ip_id;
  for (size_t i = 0; i < count; ++i) {
    std::optional<buffer::Buffer> rest =
        payload.Split(std::min(mss, payload.size()));
    PacketBuffer& seg = out.emplace_back(std::move(payload));
    if (rest) payload = std::move(*rest);
    d.ip_id = static_cast<uint16_t>(id + i);
    const EncodeError e = EncodeUDP(route, d, link, seg);
    if (e != EncodeError::kOk) {
      out.erase(out.begin() + static_cast<ptrdiff_t>(first), out.end());
      return e;
    }
  }
  return EncodeError::kOk;
}

}  // namespace

EncodeError SegmentGsoPacket(PacketBuffer pkt, const LinkCapabilities& link,
                             std::vector<PacketBuffer>& out) {
  if (pkt.gso_type == GsoType::kNone || pkt.gso_size == 0) {
    return EncodeError::kBadField;
  }
  if (pkt.gso_type == GsoType::kUDPv4 || pkt.gso_type == GsoType::kUDPv6) {
    return SegmentUDP(pkt, link, out);
  }
  Route route;
  TCPSegment s;
  if (!RouteFromHeaders(pkt, pkt.gso_type == GsoType::kTCPv4,
                        header::kProtocolTCP, route, s.ip_id)) {
    return EncodeError::kBadField;
  }
  header::Result<header::TCP> tcp =
      header::TCP::Parse(pkt.Header(Layer::kTransport));
  if (!tcp.ok()) return EncodeError::kBadField;
  header::Result<header::TCPOptions> options = tcp->ParseOptions();
  if (!options.ok()) return EncodeError::kBadField;
  s.source_port = tcp->source_port();
  s.destination_port = tcp->destination_port();
  s.seq = tcp->seq();
  s.ack = tcp->ack();
  s.flags = tcp->flags();
  s.window = tcp->window();
  s.urgent_pointer = tcp->urgent_pointer();
  s.options = *options;
  return SegmentTCP(route, s, pkt.gso_size, link, std::move(pkt.data()), out);
}

}  // namespace ipsum::tcpip
