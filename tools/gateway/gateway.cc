// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0

#include "tools/gateway/gateway.h"

#include <algorithm>
#include <cstring>
#include <type_traits>
#include <utility>

#include "absl/strings/str_cat.h"
#include "buffer/buffer.h"
#include "checksum/endian.h"
#include "checksum/update.h"
#include "header/checksum.h"
#include "header/ethernet.h"
#include "header/icmpv4.h"
#include "header/icmpv6.h"
#include "header/ipv4.h"
#include "header/ipv6.h"
#include "header/protocol.h"
#include "tcpip/parse.h"

namespace ipsum::gateway {

using header::IPv4Address;
using header::IPv6Address;
using header::MacAddress;
using tcpip::ChecksumStatus;
using tcpip::GsoType;
using tcpip::Layer;
using tcpip::NetworkProtocol;
using tcpip::PacketBuffer;

namespace {

template <typename A>
inline constexpr bool kV4 = std::is_same_v<A, IPv4Address>;

constexpr uint64_t kSecond = 1000000000;

// Where each family keeps its addresses and TTL in the fixed header.
template <typename A>
A SourceOf(std::span<const uint8_t> net) {
  return A::From(net.data() + (kV4<A> ? 12 : 8));
}
template <typename A>
A DestinationOf(std::span<const uint8_t> net) {
  return A::From(net.data() + (kV4<A> ? 16 : 24));
}

bool IsMulticast(const IPv4Address& a) { return (a.bytes[0] & 0xf0) == 0xe0; }
bool IsMulticast(const IPv6Address& a) { return a.bytes[0] == 0xff; }

// IsGroup reports a destination of many hosts on the link: multicast, or
// IPv4's limited broadcast.
bool IsGroup(const IPv4Address& a) {
  return IsMulticast(a) || a.ToHost() == 0xffffffff;
}
bool IsGroup(const IPv6Address& a) { return IsMulticast(a); }

// IsSpecial reports an address a router neither forwards to nor from, nor
// answers with an ICMP error (RFC 1812 section 5.3.7, RFC 4291 section
// 2.5.6): unspecified, loopback, multicast, limited broadcast, link-local.
bool IsSpecial(const IPv4Address& a) {
  return a.bytes[0] == 0 || a.bytes[0] == 127 || IsGroup(a) ||
         (a.bytes[0] == 169 && a.bytes[1] == 254);
}
bool IsSpecial(const IPv6Address& a) {
  static constexpr IPv6Address kUnspecified{};
  IPv6Address loopback{};
  loopback.bytes[15] = 1;
  return a == kUnspecified || a == loopback || IsGroup(a) ||
         (a.bytes[0] == 0xfe && (a.bytes[1] & 0xc0) == 0x80);
}

// NeighborKey keys both families' neighbours in one table: an IPv4
// address as its IPv4-mapped IPv6 address (RFC 4291 section 2.5.5.2).
IPv6Address NeighborKey(const IPv6Address& a) { return a; }
IPv6Address NeighborKey(const IPv4Address& a) {
  IPv6Address k{};
  k.bytes[10] = k.bytes[11] = 0xff;
  std::memcpy(&k.bytes[12], a.bytes.data(), 4);
  return k;
}

Drop FromReceive(tcpip::DropReason r) {
  switch (r) {
    case tcpip::DropReason::kTruncated:
      return Drop::kTruncated;
    case tcpip::DropReason::kMalformed:
      return Drop::kMalformed;
    case tcpip::DropReason::kUnsupported:
      return Drop::kUnsupported;
    case tcpip::DropReason::kBadIPChecksum:
      return Drop::kBadIPChecksum;
    case tcpip::DropReason::kBadTransportChecksum:
      return Drop::kBadTransportChecksum;
    case tcpip::DropReason::kUDPZeroChecksum:
      return Drop::kUDPZeroChecksum;
    case tcpip::DropReason::kBadOffloadMetadata:
      return Drop::kBadOffloadMetadata;
  }
  return Drop::kUnsupported;
}

Drop FromRewrite(RewriteError e) {
  switch (e) {
    case RewriteError::kMalformed:
      return Drop::kMalformed;
    case RewriteError::kBadOffloadMetadata:
      return Drop::kBadOffloadMetadata;
    default:
      return Drop::kNatUnsupported;
  }
}

// HeaderPrefix returns the frame's first min(size, kHeaderCapacity)
// bytes: its first view when that holds them, else a copy in `copy`.
std::span<const uint8_t> HeaderPrefix(
    const PacketBuffer& pkt,
    std::array<uint8_t, PacketBuffer::kHeaderCapacity>& copy) {
  const buffer::Buffer& data = pkt.data();
  const size_t want = std::min(data.size(), copy.size());
  if (data.view_count() != 0 && data.views()[0].size() >= want) {
    return data.views()[0].span().first(want);
  }
  std::span<uint8_t> c = std::span(copy).first(want);
  data.CopyOut(0, c);
  return c;
}

// Reframe returns `in` with the link header `eth` (none when null) in
// front of its network header: in place when the link header already has
// that size or there is room to push it, else rebuilt around the same
// payload views (the headers copied, no payload byte). A kPartial
// csum_start moves with the network header.
PacketBuffer Reframe(PacketBuffer&& in, const header::EthernetFields* eth) {
  const size_t link = eth ? header::Ethernet::HeaderSize(*eth) : 0;
  auto encode = [eth](std::span<uint8_t> at) {
    if (eth) header::Ethernet::Encode(*eth, at);
  };
  const size_t old_link = in.Header(Layer::kLink).size();
  if (old_link == link && in.HeaderOffset(Layer::kNetwork) == link) {
    encode(in.Header(Layer::kLink));
    return std::move(in);
  }
  if (old_link == 0 && in.HeaderOffset(Layer::kNetwork) == 0 &&
      in.reserved() >= link) {
    if (link != 0) encode(in.Push(Layer::kLink, link));
    if (in.checksum_status == ChecksumStatus::kPartial) {
      in.csum_start += static_cast<uint32_t>(link);
    }
    return std::move(in);
  }
  const std::span<const uint8_t> net = in.Header(Layer::kNetwork);
  const std::span<const uint8_t> th = in.Header(Layer::kTransport);
  const size_t old_network = in.HeaderOffset(Layer::kNetwork);
  PacketBuffer out(std::move(in.data()));
  std::span<uint8_t> t = out.Push(Layer::kTransport, th.size());
  std::copy(th.begin(), th.end(), t.begin());
  std::span<uint8_t> n = out.Push(Layer::kNetwork, net.size());
  std::copy(net.begin(), net.end(), n.begin());
  if (link != 0) encode(out.Push(Layer::kLink, link));
  out.network_protocol = in.network_protocol;
  out.transport_protocol = in.transport_protocol;
  out.checksum_status = in.checksum_status;
  out.csum_start = static_cast<uint32_t>(in.csum_start - old_network + link);
  out.csum_offset = in.csum_offset;
  out.csum = in.csum;
  out.gso_type = in.gso_type;
  out.gso_size = in.gso_size;
  return out;
}

// The ARP packet for IPv4 over Ethernet (RFC 826):
//
//    0                   1                   2                   3
//    0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
//   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//   |     Hardware Type (1)         |     Protocol Type (0x0800)    |
//   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//   |  HLen (6)     |  PLen (4)     |          Operation            |
//   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//   |  Sender Hardware Address (6) | Sender Protocol Address (4)   |
//   |  Target Hardware Address (6) | Target Protocol Address (4)   |
//   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
constexpr size_t kArpSize = 28;
constexpr uint16_t kArpRequest = 1;
constexpr uint16_t kArpReply = 2;

struct Arp {
  uint16_t operation = 0;
  MacAddress sender_mac;
  IPv4Address sender;
  MacAddress target_mac;
  IPv4Address target;
};

std::optional<Arp> DecodeArp(std::span<const uint8_t> b) {
  if (b.size() < kArpSize || LoadBig16(&b[0]) != 1 ||
      LoadBig16(&b[2]) != header::kEtherTypeIPv4 || b[4] != 6 || b[5] != 4) {
    return std::nullopt;
  }
  Arp a;
  a.operation = LoadBig16(&b[6]);
  a.sender_mac = MacAddress::From(&b[8]);
  a.sender = IPv4Address::From(&b[14]);
  a.target_mac = MacAddress::From(&b[18]);
  a.target = IPv4Address::From(&b[24]);
  return a;
}

PacketBuffer EncodeArp(const Arp& a, const MacAddress& eth_destination) {
  PacketBuffer pkt;
  std::span<uint8_t> b = pkt.Push(Layer::kNetwork, kArpSize);
  StoreBig16(&b[0], 1);
  StoreBig16(&b[2], header::kEtherTypeIPv4);
  b[4] = 6;
  b[5] = 4;
  StoreBig16(&b[6], a.operation);
  a.sender_mac.CopyTo(&b[8]);
  a.sender.CopyTo(&b[14]);
  a.target_mac.CopyTo(&b[18]);
  a.target.CopyTo(&b[24]);
  header::EthernetFields eth;
  eth.destination = eth_destination;
  eth.source = a.sender_mac;
  eth.ether_type = header::kEtherTypeARP;
  header::Ethernet::Encode(eth, pkt.Push(Layer::kLink, header::Ethernet::kMinSize));
  return pkt;
}

// Neighbor Discovery (RFC 4861 section 4.3, 4.4): the body after the
// 8-byte ICMPv6 header (whose second word is reserved, or NA's flags) is
// the 16-byte target address, then options; the link-layer address option
// (section 4.6.1) is type 1 (source) or 2 (target), length 1 (8 bytes),
// then the MAC.
constexpr size_t kNdTargetSize = 16;
constexpr uint8_t kNdOptionSourceLinkLayer = 1;
constexpr uint8_t kNdOptionTargetLinkLayer = 2;
constexpr uint8_t kNdHopLimit = 255;
constexpr uint32_t kNaFlagSolicited = 0x40000000;
constexpr uint32_t kNaFlagOverride = 0x20000000;

// FindLinkLayerOption returns the MAC of the first option of `type` in
// the option area `options`; nullopt when absent. A zero length ends the
// walk (RFC 4861 section 4.6: such a packet is invalid).
std::optional<MacAddress> FindLinkLayerOption(std::span<const uint8_t> options,
                                              uint8_t type) {
  size_t i = 0;
  while (options.size() - i >= 8) {
    const size_t length = size_t{options[i + 1]} * 8;
    if (length == 0 || length > options.size() - i) return std::nullopt;
    if (options[i] == type) return MacAddress::From(&options[i + 2]);
    i += length;
  }
  return std::nullopt;
}

// BuildNd returns an NS or NA with a link-layer address option: IPv6 and
// ICMPv6 headers pushed, body in data().
PacketBuffer BuildNd(uint8_t type, uint32_t flags, const IPv6Address& source,
                     const IPv6Address& destination, const IPv6Address& target,
                     const MacAddress& mac) {
  std::array<uint8_t, kNdTargetSize + 8> body{};
  target.CopyTo(body.data());
  body[kNdTargetSize] = type == header::kICMPv6NeighborSolicitation
                            ? kNdOptionSourceLinkLayer
                            : kNdOptionTargetLinkLayer;
  body[kNdTargetSize + 1] = 1;
  mac.CopyTo(&body[kNdTargetSize + 2]);
  PacketBuffer pkt(buffer::Buffer::Copy(body));
  std::span<uint8_t> icmp =
      pkt.Push(Layer::kTransport, header::ICMPv6::kMinSize);
  header::ICMPv6Fields f;
  f.type = type;
  header::ICMPv6::Encode(f, icmp);
  StoreBig32(&icmp[4], flags);
  const uint32_t length = header::ICMPv6::kMinSize + body.size();
  header::Result<header::MutableICMPv6> view =
      header::MutableICMPv6::Parse(icmp);
  view->SetChecksum(view->ComputeChecksum(
      header::PseudoHeaderSum(source, destination, header::kProtocolICMPv6,
                              length),
      pkt.data().ChecksumAll()));
  header::IPv6Fields ip;
  ip.payload_length = static_cast<uint16_t>(length);
  ip.next_header = header::kProtocolICMPv6;
  ip.hop_limit = kNdHopLimit;
  ip.source = source;
  ip.destination = destination;
  header::IPv6::Encode(ip, pkt.Push(Layer::kNetwork, header::IPv6::kSize));
  pkt.network_protocol = NetworkProtocol::kIPv6;
  return pkt;
}

// SolicitedNode returns the solicited-node multicast address of `a`
// (RFC 4291 section 2.7.1): ff02::1:ff00:0/104 followed by the low 24
// bits of `a`.
IPv6Address SolicitedNode(const IPv6Address& a) {
  IPv6Address m{};
  m.bytes[0] = 0xff;
  m.bytes[1] = 0x02;
  m.bytes[11] = 0x01;
  m.bytes[12] = 0xff;
  m.bytes[13] = a.bytes[13];
  m.bytes[14] = a.bytes[14];
  m.bytes[15] = a.bytes[15];
  return m;
}

// MulticastMac returns the MAC an IPv6 multicast address maps to
// (RFC 2464 section 7): 33:33 and the address's last 32 bits.
MacAddress MulticastMac(const IPv6Address& a) {
  MacAddress m;
  m.bytes = {0x33, 0x33, a.bytes[12], a.bytes[13], a.bytes[14], a.bytes[15]};
  return m;
}

constexpr MacAddress kBroadcast{{0xff, 0xff, 0xff, 0xff, 0xff, 0xff}};

}  // namespace

// Verified is what verification learned of a frame, whose headers are then
// consumed: link (kLink), network (kNetwork) and the transport header
// (kTransport: TCP's with options, UDP's and ICMP's 8 bytes; none for a
// fragment or another protocol).
struct Gateway::Verified {
  NetworkProtocol network = NetworkProtocol::kNone;
  // protocol is the transport's protocol number (for a fragment, that of
  // its datagram).
  uint8_t protocol = 0;
  bool fragment = false;
  bool first_fragment = false;
  uint8_t tcp_flags = 0;
};

std::string_view ToString(Drop d) {
  switch (d) {
    case Drop::kTruncated:
      return "truncated";
    case Drop::kMalformed:
      return "malformed";
    case Drop::kUnsupported:
      return "unsupported";
    case Drop::kBadIPChecksum:
      return "bad IPv4 header checksum";
    case Drop::kBadTransportChecksum:
      return "bad transport checksum";
    case Drop::kBadICMPChecksum:
      return "bad ICMP checksum";
    case Drop::kUDPZeroChecksum:
      return "UDP zero checksum over IPv6";
    case Drop::kBadOffloadMetadata:
      return "bad offload metadata";
    case Drop::kNotIP:
      return "not IP";
    case Drop::kNotForUs:
      return "not for us";
    case Drop::kNotForwardable:
      return "not forwardable";
    case Drop::kLocal:
      return "local";
    case Drop::kNoRoute:
      return "no route";
    case Drop::kTTLExceeded:
      return "TTL exceeded";
    case Drop::kTooBig:
      return "too big";
    case Drop::kNatNoMapping:
      return "NAT no mapping";
    case Drop::kNatTableFull:
      return "NAT table full";
    case Drop::kNatUnsupported:
      return "NAT unsupported";
    case Drop::kNeighborUnreachable:
      return "neighbor unreachable";
    case Drop::kNeighborQueueFull:
      return "neighbor queue full";
    case Drop::kEgressFull:
      return "egress full";
  }
  return "unknown";
}

uint64_t Counters::TotalDropped() const {
  uint64_t total = 0;
  for (uint64_t d : dropped) total += d;
  return total;
}

absl::StatusOr<std::unique_ptr<Gateway>> Gateway::Create(Config config) {
  absl::Status s = Validate(config);
  if (!s.ok()) return s;
  return std::unique_ptr<Gateway>(new Gateway(std::move(config)));
}

Gateway::Gateway(Config config) : config_(std::move(config)) {
  for (size_t i = 0; i < config_.interfaces.size(); ++i) {
    for (const PrefixV4& p : config_.interfaces[i].v4) {
      routes_v4_.Add({p, i, std::nullopt});
    }
    for (const PrefixV6& p : config_.interfaces[i].v6) {
      routes_v6_.Add({p, i, std::nullopt});
    }
  }
  for (const auto& r : config_.routes_v4) routes_v4_.Add(r);
  for (const auto& r : config_.routes_v6) routes_v6_.Add(r);
  if (config_.snat) {
    if (config_.snat->inside_v4) nat_v4_.emplace(*config_.snat);
    if (config_.snat->inside_v6) nat_v6_.emplace(*config_.snat);
  }
  counters_.interfaces.resize(config_.interfaces.size());
  neighbors_.resize(config_.interfaces.size());
  icmp_tokens_ = uint64_t{config_.icmp_error_burst} * kSecond;
}

const Counters& Gateway::counters() {
  counters_.nat_entries = 0;
  if (nat_v4_) {
    counters_.nat_v4 = nat_v4_->stats();
    counters_.nat_entries += nat_v4_->size();
  }
  if (nat_v6_) {
    counters_.nat_v6 = nat_v6_->stats();
    counters_.nat_entries += nat_v6_->size();
  }
  return counters_;
}

void Gateway::Handle(size_t ingress, PacketBuffer pkt, uint64_t now_ns,
                     Output& out) {
  ++counters_.received;
  if (ingress >= config_.interfaces.size()) {
    CountDrop(Drop::kUnsupported);
    return;
  }
  InterfaceCounters& ic = counters_.interfaces[ingress];
  ++ic.rx_frames;
  ic.rx_bytes += pkt.size();
  const InterfaceConfig& iface = config_.interfaces[ingress];
  if (iface.mode == LinkMode::kTap) {
    std::array<uint8_t, header::Ethernet::kMinSize> bytes;
    if (!pkt.data().CopyOut(0, bytes)) {
      CountDrop(Drop::kTruncated);
      return;
    }
    header::Result<header::Ethernet> eth = header::Ethernet::Parse(bytes);
    const MacAddress destination = eth->destination();
    if (!destination.IsMulticast() && destination != iface.mac) {
      CountDrop(Drop::kNotForUs);
      return;
    }
    const uint16_t type = LoadBig16(&bytes[12]);
    if (type == header::kEtherTypeARP) {
      HandleArp(ingress, std::move(pkt), now_ns, out);
      return;
    }
    if (type == header::kEtherTypeVlan || type == header::kEtherTypeQinQ) {
      CountDrop(Drop::kUnsupported);
      return;
    }
    if (type != header::kEtherTypeIPv4 && type != header::kEtherTypeIPv6) {
      CountDrop(Drop::kNotIP);
      return;
    }
  }
  if (config_.fault.flip_before != 0) FlipBefore(ingress, pkt);
  Verified v;
  if (!Verify(ingress, pkt, v)) return;
  if (v.network == NetworkProtocol::kIPv4) {
    Forward<IPv4Address>(ingress, std::move(pkt), v, now_ns, out);
  } else {
    Forward<IPv6Address>(ingress, std::move(pkt), v, now_ns, out);
  }
}

bool Gateway::Verify(size_t ingress, PacketBuffer& pkt, Verified& v) {
  const bool tap = config_.interfaces[ingress].mode == LinkMode::kTap;
  const tcpip::LinkType link =
      tap ? tcpip::LinkType::kEthernet : tcpip::LinkType::kIP;
  tcpip::ReceiveStats stats;
  tcpip::VerifiedFrame f;
  size_t link_length = 0;
  size_t network_length = 0;
  size_t transport_length = 0;
  auto parse = [&](std::span<const uint8_t> prefix) {
    return tap ? tcpip::ParseEthernetPrefix(prefix, pkt.size())
               : tcpip::ParseIPPrefix(prefix, pkt.size());
  };
  std::array<uint8_t, PacketBuffer::kHeaderCapacity> copy;
  if (tcpip::VerifyFrame(pkt, link, stats, f)) {
    v.network = f.network;
    link_length = f.network_offset;
    network_length = f.transport_offset - f.network_offset;
    if (f.is_fragment) {
      const tcpip::ParsedPacket p = parse(HeaderPrefix(pkt, copy));
      v.fragment = true;
      v.first_fragment = p.is_first_fragment;
      v.protocol = p.transport_protocol;
      ++counters_.unverified;
    } else {
      v.protocol = f.is_tcp() ? header::kProtocolTCP : header::kProtocolUDP;
      v.tcp_flags = f.tcp_flags();
      transport_length = f.payload_offset - f.transport_offset;
      if (!f.checksum_verified) {
        ++counters_.unverified;  // UDP over IPv4 without a checksum.
      } else if (stats.checksum_unnecessary != 0) {
        ++counters_.verified_trusted;
      } else {
        ++counters_.verified_software;
      }
    }
  } else {
    size_t reason = 0;
    while (reason < stats.dropped.size() && stats.dropped[reason] == 0) {
      ++reason;
    }
    const auto r = static_cast<tcpip::DropReason>(reason);
    if (r != tcpip::DropReason::kUnsupported) {
      CountDrop(FromReceive(r));
      return false;
    }
    // Not TCP or UDP: ICMP, verified here with the parse step and the
    // header package, or another protocol, forwarded unverified.
    const std::span<const uint8_t> prefix = HeaderPrefix(pkt, copy);
    const tcpip::ParsedPacket p = parse(prefix);
    if (!p.ok() || p.network == NetworkProtocol::kNone ||
        p.transport_protocol == header::kProtocolTCP ||
        p.transport_protocol == header::kProtocolUDP ||
        p.transport_offset > prefix.size()) {
      CountDrop(Drop::kUnsupported);
      return false;
    }
    if (p.truncated) {
      CountDrop(Drop::kTruncated);
      return false;
    }
    const bool v4 = p.network == NetworkProtocol::kIPv4;
    const std::span<const uint8_t> net = prefix.subspan(p.network_offset);
    std::optional<uint16_t> pseudo;
    if (v4) {
      header::Result<header::IPv4> ip = header::IPv4::ParsePrefix(net);
      if (!ip.ok()) {
        CountDrop(Drop::kMalformed);
        return false;
      }
      if (!ip->IsChecksumValid()) {
        CountDrop(Drop::kBadIPChecksum);
        return false;
      }
    } else {
      pseudo = header::PseudoHeaderSum(
          SourceOf<IPv6Address>(net), DestinationOf<IPv6Address>(net),
          header::kProtocolICMPv6, static_cast<uint32_t>(p.transport_length));
    }
    v.network = p.network;
    v.protocol = p.transport_protocol;
    link_length = p.network_offset;
    network_length = p.network_header_length;
    const bool icmp = v.protocol == (v4 ? header::kProtocolICMPv4
                                        : header::kProtocolICMPv6);
    if (!icmp) {
      ++counters_.unverified;
    } else {
      if (p.transport_length < header::ICMPv4::kMinSize) {
        CountDrop(Drop::kMalformed);
        return false;
      }
      transport_length = header::ICMPv4::kMinSize;
      if (pkt.checksum_status == ChecksumStatus::kNone ||
          pkt.checksum_status == ChecksumStatus::kComplete) {
        // RFC 792 and RFC 4443 section 2.3: the message (and, for ICMPv6,
        // the pseudo-header) sums to all ones.
        std::optional<uint16_t> sum = pkt.Checksum(
            p.transport_offset, p.transport_length, pseudo.value_or(0));
        if (!sum || *sum != 0xffff) {
          CountDrop(Drop::kBadICMPChecksum);
          return false;
        }
        ++counters_.verified_software;
      } else {
        ++counters_.verified_trusted;
      }
    }
  }
  if (!pkt.ConsumeHeaders(link_length, network_length, transport_length)) {
    CountDrop(Drop::kUnsupported);
    return false;
  }
  // Bytes past the IP datagram (Ethernet padding) are not forwarded.
  const std::span<const uint8_t> net = pkt.Header(Layer::kNetwork);
  const size_t ip_length = v.network == NetworkProtocol::kIPv4
                               ? LoadBig16(&net[2])
                               : header::IPv6::kSize + LoadBig16(&net[4]);
  const size_t headers = network_length + transport_length;
  if (ip_length < headers || !pkt.data().Truncate(ip_length - headers)) {
    CountDrop(Drop::kTruncated);
    return false;
  }
  // Offload metadata is input: a partial checksum must name a field of
  // the transport, a GSO packet must be TCP or UDP of the type's family,
  // with a partial checksum.
  if (pkt.checksum_status == ChecksumStatus::kPartial &&
      (pkt.csum_start < pkt.HeaderOffset(Layer::kNetwork) + network_length ||
       size_t{pkt.csum_start} + pkt.csum_offset + 2 > pkt.size())) {
    CountDrop(Drop::kBadOffloadMetadata);
    return false;
  }
  if (pkt.gso_type != GsoType::kNone) {
    const bool v4 = v.network == NetworkProtocol::kIPv4;
    GsoType want = GsoType::kNone;
    if (v.protocol == header::kProtocolTCP) {
      want = v4 ? GsoType::kTCPv4 : GsoType::kTCPv6;
    } else if (v.protocol == header::kProtocolUDP) {
      want = v4 ? GsoType::kUDPv4 : GsoType::kUDPv6;
    }
    if (pkt.gso_type != want || pkt.gso_size == 0 || v.fragment ||
        pkt.checksum_status != ChecksumStatus::kPartial) {
      CountDrop(Drop::kBadOffloadMetadata);
      return false;
    }
  }
  return true;
}

template <typename A>
bool Gateway::IsLocal(const A& a) const {
  for (const InterfaceConfig& i : config_.interfaces) {
    if constexpr (kV4<A>) {
      for (const PrefixV4& p : i.v4) {
        if (p.address == a) return true;
      }
    } else {
      for (const PrefixV6& p : i.v6) {
        if (p.address == a) return true;
      }
    }
  }
  return false;
}

template <typename A>
std::optional<A> Gateway::SourceFor(size_t interface) const {
  auto first = [](const InterfaceConfig& i) -> std::optional<A> {
    if constexpr (kV4<A>) {
      if (!i.v4.empty()) return i.v4.front().address;
    } else {
      if (!i.v6.empty()) return i.v6.front().address;
    }
    return std::nullopt;
  };
  if (auto a = first(config_.interfaces[interface])) return a;
  for (const InterfaceConfig& i : config_.interfaces) {
    if (auto a = first(i)) return a;
  }
  return std::nullopt;
}

template <typename A>
void Gateway::Forward(size_t ingress, PacketBuffer pkt, const Verified& v,
                      uint64_t now_ns, Output& out) {
  constexpr uint8_t kICMP =
      kV4<A> ? header::kProtocolICMPv4 : header::kProtocolICMPv6;
  constexpr uint8_t kEchoRequest =
      kV4<A> ? header::kICMPv4Echo : header::kICMPv6EchoRequest;
  constexpr uint8_t kEchoReply =
      kV4<A> ? header::kICMPv4EchoReply : header::kICMPv6EchoReply;
  const bool icmp = v.protocol == kICMP && !v.fragment;
  const uint8_t icmp_type =
      icmp ? pkt.Header(Layer::kTransport)[0] : uint8_t{0};

  if constexpr (!kV4<A>) {
    if (icmp && config_.interfaces[ingress].mode == LinkMode::kTap &&
        HandleNeighborDiscovery<A>(ingress, pkt, now_ns, out)) {
      return;
    }
  }

  std::span<uint8_t> net = pkt.Header(Layer::kNetwork);
  const A source = SourceOf<A>(net);
  A destination = DestinationOf<A>(net);

  // Replies to the source NAT's outside address go back to the inside.
  auto* nat = [this]() {
    if constexpr (kV4<A>) {
      return nat_v4_ ? &*nat_v4_ : nullptr;
    } else {
      return nat_v6_ ? &*nat_v6_ : nullptr;
    }
  }();
  A nat_address{};
  if (nat) {
    if constexpr (kV4<A>) {
      nat_address = config_.snat->address_v4;
    } else {
      nat_address = config_.snat->address_v6;
    }
  }
  if (nat && ingress == config_.snat->outside_interface &&
      destination == nat_address && !(icmp && icmp_type == kEchoRequest)) {
    std::span<const uint8_t> th = pkt.Header(Layer::kTransport);
    std::optional<InsideEndpoint<A>> inside;
    if (!v.fragment && (v.protocol == header::kProtocolTCP ||
                        v.protocol == header::kProtocolUDP)) {
      inside = nat->Inbound(v.protocol, source, LoadBig16(&th[0]),
                            LoadBig16(&th[2]), v.tcp_flags, now_ns);
    } else if (icmp && icmp_type == kEchoReply) {
      inside = nat->Inbound(v.protocol, source, 0, LoadBig16(&th[4]), 0,
                            now_ns);
    }
    if (!inside) {
      CountDrop(Drop::kNatNoMapping);
      return;
    }
    RewriteError e = Rewrite(pkt, v.protocol, Side::kDestination,
                             inside->address, inside->port);
    if (e != RewriteError::kOk) {
      CountDrop(FromRewrite(e));
      return;
    }
    ++counters_.nat_inbound;
    destination = inside->address;
  }

  if (IsLocal(destination)) {
    if (icmp && icmp_type == kEchoRequest) {
      AnswerEcho<A>(std::move(pkt), now_ns, out);
    } else {
      CountDrop(Drop::kLocal);
    }
    return;
  }
  if (IsGroup(destination)) {
    ++counters_.multicast;
    return;
  }
  if (IsSpecial(source) || IsSpecial(destination)) {
    CountDrop(Drop::kNotForwardable);
    return;
  }
  std::optional<NextHop<A>> hop;
  if constexpr (kV4<A>) {
    hop = routes_v4_.Lookup(destination);
  } else {
    hop = routes_v6_.Lookup(destination);
  }
  if (!hop) {
    CountDrop(Drop::kNoRoute);
    return;
  }

  // RFC 1812 section 5.3.1, RFC 8200 section 3: a packet whose TTL or Hop
  // Limit would reach zero is discarded with a Time Exceeded message.
  const uint8_t ttl = kV4<A> ? net[8] : net[7];
  if (ttl <= 1) {
    SendIcmpError<A>(ingress, pkt, v,
                     kV4<A> ? header::kICMPv4TimeExceeded
                            : header::kICMPv6TimeExceeded,
                     0, 0, now_ns, out);
    CountDrop(Drop::kTTLExceeded);
    return;
  }
  // What the egress MTU cannot carry: a GSO packet's segments, or the
  // datagram. IPv4 without DF would need fragmenting, which the gateway
  // does not do.
  const uint32_t mtu = config_.interfaces[hop->interface].mtu;
  const size_t headers = net.size() + pkt.Header(Layer::kTransport).size();
  const size_t length = pkt.gso_type != GsoType::kNone
                            ? headers + pkt.gso_size
                            : headers + pkt.data().size();
  if (length > mtu) {
    bool dont_fragment = true;
    if constexpr (kV4<A>) dont_fragment = (net[6] & 0x40) != 0;
    if (dont_fragment) {
      SendIcmpError<A>(ingress, pkt, v,
                       kV4<A> ? header::kICMPv4DestinationUnreachable
                              : header::kICMPv6PacketTooBig,
                       kV4<A> ? header::kICMPv4FragmentationNeeded : 0, mtu,
                       now_ns, out);
    }
    CountDrop(Drop::kTooBig);
    return;
  }
  if constexpr (kV4<A>) {
    header::MutableIPv4::ParsePrefix(net)->DecrementTtl();
  } else {
    header::MutableIPv6::ParsePrefix(net)->DecrementHopLimit();
  }

  // Source NAT towards the outside.
  if (nat && hop->interface == config_.snat->outside_interface &&
      ingress != config_.snat->outside_interface) {
    bool inside;
    if constexpr (kV4<A>) {
      inside = config_.snat->inside_v4->Contains(source);
    } else {
      inside = config_.snat->inside_v6->Contains(source);
    }
    if (inside) {
      std::span<const uint8_t> th = pkt.Header(Layer::kTransport);
      std::optional<uint16_t> port;
      if (v.fragment) {
        CountDrop(Drop::kNatUnsupported);
        return;
      }
      if (v.protocol == header::kProtocolTCP ||
          v.protocol == header::kProtocolUDP) {
        port = nat->Outbound(v.protocol, source, LoadBig16(&th[0]),
                             destination, LoadBig16(&th[2]), v.tcp_flags,
                             now_ns);
      } else if (icmp && icmp_type == kEchoRequest) {
        port = nat->Outbound(v.protocol, source, LoadBig16(&th[4]),
                             destination, 0, 0, now_ns);
      } else {
        CountDrop(Drop::kNatUnsupported);
        return;
      }
      if (!port) {
        CountDrop(Drop::kNatTableFull);
        return;
      }
      RewriteError e =
          Rewrite(pkt, v.protocol, Side::kSource, nat_address, *port);
      if (e != RewriteError::kOk) {
        CountDrop(FromRewrite(e));
        return;
      }
      ++counters_.nat_outbound;
    }
  }
  if (pkt.gso_type != GsoType::kNone) ++counters_.gso_forwarded;
  if (pkt.checksum_status == ChecksumStatus::kPartial) {
    ++counters_.partial_forwarded;
  }
  Emit<A>(hop->interface, hop->address, std::move(pkt), true, now_ns, out);
}

template <typename A>
void Gateway::AnswerEcho(PacketBuffer pkt, uint64_t now_ns, Output& out) {
  std::span<uint8_t> net = pkt.Header(Layer::kNetwork);
  std::span<uint8_t> th = pkt.Header(Layer::kTransport);
  const A source = SourceOf<A>(net);
  const A destination = DestinationOf<A>(net);
  if (IsSpecial(source)) {
    CountDrop(Drop::kNotForwardable);
    return;
  }
  ++counters_.local;
  ++counters_.icmp_echo_replies;
  // Swapping the addresses changes no sum (the pseudo-header's, the IPv4
  // header's): only the type (and the IPv4 TTL) need an update.
  const uint8_t reply =
      kV4<A> ? header::kICMPv4EchoReply : header::kICMPv6EchoReply;
  const uint16_t old_word = LoadBig16(&th[0]);
  th[0] = reply;
  if (pkt.checksum_status != ChecksumStatus::kPartial) {
    StoreBig16(&th[2], checksum::UpdateChecksum16(LoadBig16(&th[2]), old_word,
                                                  LoadBig16(&th[0])));
    if constexpr (kV4<A>) CompleteIcmpv4ZeroChecksum(pkt);
  }
  destination.CopyTo(net.data() + (kV4<A> ? 12 : 8));
  source.CopyTo(net.data() + (kV4<A> ? 16 : 24));
  if constexpr (kV4<A>) {
    header::MutableIPv4::ParsePrefix(net)->SetTtlAndUpdateChecksum(64);
  } else {
    net[7] = 64;
  }
  pkt.gso_type = GsoType::kNone;
  SendLocal<A>(std::move(pkt), source, now_ns, out);
}

bool Gateway::TakeIcmpToken(uint64_t now_ns) {
  const uint64_t cap = uint64_t{config_.icmp_error_burst} * kSecond;
  if (icmp_started_ && now_ns > icmp_last_ns_) {
    const uint64_t elapsed = now_ns - icmp_last_ns_;
    const uint64_t add =
        elapsed > cap ? cap : elapsed * config_.icmp_errors_per_second;
    icmp_tokens_ = std::min(cap, icmp_tokens_ + add);
  }
  icmp_started_ = true;
  icmp_last_ns_ = now_ns;
  if (icmp_tokens_ < kSecond) return false;
  icmp_tokens_ -= kSecond;
  return true;
}

template <typename A>
void Gateway::SendIcmpError(size_t ingress, const PacketBuffer& pkt,
                            const Verified& v, uint8_t type, uint8_t code,
                            uint32_t mtu, uint64_t now_ns, Output& out) {
  // RFC 1812 section 4.3.2.7, RFC 4443 section 2.4 (e): no error about an
  // ICMP error, a fragment other than the first, or a packet from or to
  // an address that names no single host.
  if (v.fragment && !v.first_fragment) return;
  constexpr uint8_t kICMP =
      kV4<A> ? header::kProtocolICMPv4 : header::kProtocolICMPv6;
  if (v.protocol == kICMP && !v.fragment) {
    const uint8_t t = pkt.Header(Layer::kTransport)[0];
    const bool error =
        kV4<A> ? (t == header::kICMPv4DestinationUnreachable ||
                  t == header::kICMPv4SourceQuench ||
                  t == header::kICMPv4Redirect ||
                  t == header::kICMPv4TimeExceeded ||
                  t == header::kICMPv4ParameterProblem)
               : t < 128;
    if (error) return;
  }
  const std::span<const uint8_t> net = pkt.Header(Layer::kNetwork);
  const A to = SourceOf<A>(net);
  if (IsSpecial(to) || IsMulticast(DestinationOf<A>(net))) return;
  std::optional<A> from = SourceFor<A>(ingress);
  if (!from) return;
  if (!TakeIcmpToken(now_ns)) {
    ++counters_.icmp_rate_limited;
    return;
  }
  // The quote: as much of the packet as fits in 576 bytes (RFC 1812
  // section 4.3.2.3) or the IPv6 minimum MTU (RFC 4443 section 2.4 (c)).
  constexpr size_t kIPHeader = kV4<A> ? header::IPv4::kMinSize
                                      : header::IPv6::kSize;
  constexpr size_t kLimit = (kV4<A> ? 576 : 1280) - kIPHeader - 8;
  const std::span<const uint8_t> all = pkt.headers();
  const std::span<const uint8_t> headers =
      all.subspan(pkt.HeaderOffset(Layer::kNetwork));
  buffer::Buffer quote =
      buffer::Buffer::Copy(headers.first(std::min(headers.size(), kLimit)));
  if (headers.size() < kLimit) {
    const size_t more = std::min(kLimit - headers.size(), pkt.data().size());
    quote.Append(std::move(*pkt.data().CloneRange(0, more)));
  }
  const size_t length = 8 + quote.size();
  PacketBuffer e(std::move(quote));
  std::span<uint8_t> icmp = e.Push(Layer::kTransport, 8);
  if constexpr (kV4<A>) {
    header::ICMPv4Fields f;
    f.type = type;
    f.code = code;
    if (type == header::kICMPv4DestinationUnreachable) {
      f.mtu = static_cast<uint16_t>(mtu);
    }
    header::ICMPv4::Encode(f, icmp);
    auto view = header::MutableICMPv4::Parse(icmp);
    view->SetChecksum(view->ComputeChecksum(e.data().ChecksumAll()));
    header::IPv4Fields ip;
    ip.total_length = static_cast<uint16_t>(kIPHeader + length);
    ip.id = next_ip_id_++;
    ip.ttl = 64;
    ip.protocol = header::kProtocolICMPv4;
    ip.source = *from;
    ip.destination = to;
    header::IPv4::Encode(ip, e.Push(Layer::kNetwork, kIPHeader));
    e.network_protocol = NetworkProtocol::kIPv4;
  } else {
    header::ICMPv6Fields f;
    f.type = type;
    f.code = code;
    if (type == header::kICMPv6PacketTooBig) f.mtu = mtu;
    header::ICMPv6::Encode(f, icmp);
    auto view = header::MutableICMPv6::Parse(icmp);
    view->SetChecksum(view->ComputeChecksum(
        header::PseudoHeaderSum(*from, to, header::kProtocolICMPv6,
                                static_cast<uint32_t>(length)),
        e.data().ChecksumAll()));
    header::IPv6Fields ip;
    ip.payload_length = static_cast<uint16_t>(length);
    ip.next_header = header::kProtocolICMPv6;
    ip.hop_limit = 64;
    ip.source = *from;
    ip.destination = to;
    header::IPv6::Encode(ip, e.Push(Layer::kNetwork, kIPHeader));
    e.network_protocol = NetworkProtocol::kIPv6;
  }
  if (type == header::kICMPv4TimeExceeded ||
      (!kV4<A> && type == header::kICMPv6TimeExceeded)) {
    ++counters_.icmp_time_exceeded;
  } else {
    ++counters_.icmp_too_big;
  }
  SendLocal<A>(std::move(e), to, now_ns, out);
}

template <typename A>
void Gateway::SendLocal(PacketBuffer pkt, const A& destination,
                        uint64_t now_ns, Output& out) {
  std::optional<NextHop<A>> hop;
  if constexpr (kV4<A>) {
    hop = routes_v4_.Lookup(destination);
  } else {
    hop = routes_v6_.Lookup(destination);
  }
  if (!hop) {
    ++counters_.local_no_route;
    return;
  }
  Emit<A>(hop->interface, hop->address, std::move(pkt), false, now_ns, out);
}

template <typename A>
void Gateway::Emit(size_t egress, const A& next_hop, PacketBuffer pkt,
                   bool forwarded, uint64_t now_ns, Output& out) {
  const InterfaceConfig& iface = config_.interfaces[egress];
  if (iface.mode == LinkMode::kTun) {
    Transmit(egress, Reframe(std::move(pkt), nullptr), forwarded, out);
    return;
  }
  auto& table = neighbors_[egress];
  const IPv6Address key = NeighborKey(next_hop);
  if (!table.contains(key) && table.size() >= config_.max_neighbors) {
    CountDrop(Drop::kNeighborQueueFull);
    return;
  }
  Neighbor& n = table[key];
  if (n.resolved) {
    header::EthernetFields eth;
    eth.destination = n.mac;
    eth.source = iface.mac;
    eth.ether_type =
        kV4<A> ? header::kEtherTypeIPv4 : header::kEtherTypeIPv6;
    Transmit(egress, Reframe(std::move(pkt), &eth), forwarded, out);
    return;
  }
  if (n.queue.size() >= config_.neighbor_queue) {
    CountDrop(Drop::kNeighborQueueFull);
  } else {
    n.queue.emplace_back(std::move(pkt), forwarded);
  }
  if (n.requests == 0) {
    n.requests = 1;
    n.requested_ns = now_ns;
    SendSolicitation<A>(egress, next_hop, out);
  }
}

void Gateway::Transmit(size_t egress, PacketBuffer pkt, bool forwarded,
                       Output& out) {
  if (config_.fault.flip_after != 0) FlipAfter(pkt);
  const size_t bytes = pkt.size();
  if (!out.Send(egress, std::move(pkt))) {
    CountDrop(Drop::kEgressFull);
    return;
  }
  InterfaceCounters& ic = counters_.interfaces[egress];
  ++ic.tx_frames;
  ic.tx_bytes += bytes;
  if (forwarded) ++counters_.forwarded;
}

template <typename A>
void Gateway::SendSolicitation(size_t interface, const A& target,
                               Output& out) {
  const InterfaceConfig& iface = config_.interfaces[interface];
  std::optional<A> from = SourceFor<A>(interface);
  if (!from) return;
  PacketBuffer pkt;
  if constexpr (kV4<A>) {
    Arp a;
    a.operation = kArpRequest;
    a.sender_mac = iface.mac;
    a.sender = *from;
    a.target = target;
    pkt = EncodeArp(a, kBroadcast);
    ++counters_.arp_requests;
  } else {
    const IPv6Address group = SolicitedNode(target);
    pkt = BuildNd(header::kICMPv6NeighborSolicitation, 0, *from, group,
                  target, iface.mac);
    header::EthernetFields eth;
    eth.destination = MulticastMac(group);
    eth.source = iface.mac;
    eth.ether_type = header::kEtherTypeIPv6;
    pkt = Reframe(std::move(pkt), &eth);
    ++counters_.nd_solicitations;
  }
  Transmit(interface, std::move(pkt), false, out);
}

template <typename A>
void Gateway::Learn(size_t interface, const A& address, const MacAddress& mac,
                    uint64_t now_ns, Output& out) {
  auto& table = neighbors_[interface];
  const IPv6Address key = NeighborKey(address);
  if (mac.IsMulticast() ||
      (!table.contains(key) && table.size() >= config_.max_neighbors)) {
    return;
  }
  Neighbor& n = table[key];
  n.mac = mac;
  if (n.resolved) return;
  n.resolved = true;
  n.requests = 0;
  ++counters_.neighbors_learned;
  std::deque<std::pair<PacketBuffer, bool>> queue = std::move(n.queue);
  for (auto& [pkt, forwarded] : queue) {
    Emit<A>(interface, address, std::move(pkt), forwarded, now_ns, out);
  }
}

void Gateway::HandleArp(size_t ingress, PacketBuffer pkt, uint64_t now_ns,
                        Output& out) {
  std::array<uint8_t, kArpSize> bytes;
  std::optional<Arp> a;
  if (pkt.data().CopyOut(header::Ethernet::kMinSize, bytes)) {
    a = DecodeArp(bytes);
  }
  if (!a) {
    CountDrop(Drop::kMalformed);
    return;
  }
  const InterfaceConfig& iface = config_.interfaces[ingress];
  bool ours = false;
  for (const PrefixV4& p : iface.v4) ours |= p.address == a->target;
  // RFC 826, "Packet Reception": merge the sender if known, add it if the
  // request is for us; answer a request for our address.
  const bool known =
      neighbors_[ingress].contains(NeighborKey(a->sender));
  if ((ours || known) && !IsSpecial(a->sender)) {
    Learn<IPv4Address>(ingress, a->sender, a->sender_mac, now_ns, out);
  }
  ++counters_.local;
  if (ours && a->operation == kArpRequest) {
    Arp reply;
    reply.operation = kArpReply;
    reply.sender_mac = iface.mac;
    reply.sender = a->target;
    reply.target_mac = a->sender_mac;
    reply.target = a->sender;
    ++counters_.arp_replies;
    Transmit(ingress, EncodeArp(reply, a->sender_mac), false, out);
  }
}

template <typename A>
bool Gateway::HandleNeighborDiscovery(size_t ingress, PacketBuffer& pkt,
                                      uint64_t now_ns, Output& out) {
  if constexpr (!kV4<A>) {
    const std::span<const uint8_t> th = pkt.Header(Layer::kTransport);
    const uint8_t type = th[0];
    if (type != header::kICMPv6NeighborSolicitation &&
        type != header::kICMPv6NeighborAdvertisement) {
      return false;
    }
    const std::span<const uint8_t> net = pkt.Header(Layer::kNetwork);
    // RFC 4861 sections 7.1.1 and 7.1.2: Hop Limit 255, code 0, a target.
    const buffer::Buffer& body = pkt.data();
    std::array<uint8_t, 256> copy{};
    const size_t n = std::min(body.size(), copy.size());
    if (net[7] != kNdHopLimit || th[1] != 0 || n < kNdTargetSize ||
        !body.CopyOut(0, std::span(copy).first(n))) {
      CountDrop(Drop::kMalformed);
      return true;
    }
    ++counters_.local;
    const IPv6Address target = IPv6Address::From(copy.data());
    const std::span<const uint8_t> options =
        std::span<const uint8_t>(copy).subspan(kNdTargetSize,
                                               n - kNdTargetSize);
    const IPv6Address source = SourceOf<IPv6Address>(net);
    const InterfaceConfig& iface = config_.interfaces[ingress];
    if (type == header::kICMPv6NeighborAdvertisement) {
      std::optional<MacAddress> mac =
          FindLinkLayerOption(options, kNdOptionTargetLinkLayer);
      // RFC 4861 section 7.2.5: an advertisement for a target with no
      // entry is discarded.
      if (mac && neighbors_[ingress].contains(NeighborKey(target))) {
        Learn<IPv6Address>(ingress, target, *mac, now_ns, out);
      }
      return true;
    }
    bool ours = false;
    for (const PrefixV6& p : iface.v6) ours |= p.address == target;
    if (!ours) return true;
    static constexpr IPv6Address kUnspecified{};
    std::optional<MacAddress> mac =
        FindLinkLayerOption(options, kNdOptionSourceLinkLayer);
    if (source == kUnspecified) return true;  // Duplicate address detection.
    if (mac) Learn<IPv6Address>(ingress, source, *mac, now_ns, out);
    const MacAddress to = mac.value_or(
        MacAddress::From(pkt.Header(Layer::kLink).data() + 6));
    PacketBuffer na =
        BuildNd(header::kICMPv6NeighborAdvertisement,
                kNaFlagSolicited | kNaFlagOverride, target, source, target,
                iface.mac);
    header::EthernetFields eth;
    eth.destination = to;
    eth.source = iface.mac;
    eth.ether_type = header::kEtherTypeIPv6;
    ++counters_.nd_advertisements;
    Transmit(ingress, Reframe(std::move(na), &eth), false, out);
    return true;
  }
  return false;
}

void Gateway::Tick(uint64_t now_ns, Output& out) {
  if (nat_v4_) nat_v4_->Expire(now_ns);
  if (nat_v6_) nat_v6_->Expire(now_ns);
  // Unresolved neighbours: ask again each second; after three
  // unanswered, drop what waits for them (RFC 4861 section 7.3.3's
  // MAX_MULTICAST_SOLICIT, 3).
  constexpr uint32_t kMaxRequests = 3;
  for (size_t i = 0; i < neighbors_.size(); ++i) {
    for (auto it = neighbors_[i].begin(); it != neighbors_[i].end();) {
      Neighbor& n = it->second;
      if (n.resolved || now_ns - n.requested_ns < kSecond) {
        ++it;
        continue;
      }
      if (n.requests >= kMaxRequests) {
        counters_.dropped[static_cast<size_t>(Drop::kNeighborUnreachable)] +=
            n.queue.size();
        neighbors_[i].erase(it++);
        continue;
      }
      ++n.requests;
      n.requested_ns = now_ns;
      const IPv6Address& key = it->first;
      const bool mapped = std::all_of(key.bytes.begin(), key.bytes.begin() + 10,
                                      [](uint8_t b) { return b == 0; }) &&
                          key.bytes[10] == 0xff && key.bytes[11] == 0xff;
      if (mapped) {
        SendSolicitation<IPv4Address>(i, IPv4Address::From(&key.bytes[12]),
                                      out);
      } else {
        SendSolicitation<IPv6Address>(i, key, out);
      }
      ++it;
    }
  }
}

// Fault injection. The bit flipped lies in the transport's bytes, which
// its checksum covers: in the payload when there is one (at a position
// that moves from frame to frame), else in the source port or the ICMP
// type, so that the frame fails its checksum and nothing else.
namespace {

void FlipTransportBit(PacketBuffer& pkt, size_t transport_offset,
                      size_t header_length, size_t end, uint64_t k) {
  size_t at = transport_offset;
  if (end > transport_offset + header_length) {
    const size_t payload = end - transport_offset - header_length;
    at = transport_offset + header_length + (k * 2654435761u) % payload;
  }
  uint8_t b = 0;
  const size_t headers = pkt.headers().size();
  if (at < headers) {
    b = pkt.headers()[at];
  } else {
    pkt.data().CopyOut(at - headers, std::span(&b, 1));
  }
  b ^= static_cast<uint8_t>(1u << (k % 8));
  pkt.CopyIn(at, std::span(&b, 1));
}

}  // namespace

void Gateway::FlipBefore(size_t ingress, PacketBuffer& pkt) {
  if (pkt.checksum_status != ChecksumStatus::kNone) return;
  const bool tap = config_.interfaces[ingress].mode == LinkMode::kTap;
  std::array<uint8_t, PacketBuffer::kHeaderCapacity> copy;
  const std::span<const uint8_t> prefix = HeaderPrefix(pkt, copy);
  const tcpip::ParsedPacket p =
      tap ? tcpip::ParseEthernetPrefix(prefix, pkt.size())
          : tcpip::ParseIPPrefix(prefix, pkt.size());
  if (!p.ok() || p.network == NetworkProtocol::kNone || p.is_fragment ||
      p.truncated) {
    return;
  }
  const size_t t = p.transport_offset;
  size_t header_length = 0;
  uint8_t b[13] = {};
  const bool have = pkt.data().CopyOut(t, std::span(b, sizeof(b)));
  const bool v4 = p.network == NetworkProtocol::kIPv4;
  switch (p.transport_protocol) {
    case header::kProtocolTCP:
      if (!have) return;
      header_length = static_cast<size_t>(b[12] >> 4) * 4;
      break;
    case header::kProtocolUDP:
      if (!have || (b[6] == 0 && b[7] == 0)) return;  // No checksum.
      header_length = 8;
      break;
    case header::kProtocolICMPv4:
    case header::kProtocolICMPv6:
      if (p.transport_protocol != (v4 ? header::kProtocolICMPv4
                                      : header::kProtocolICMPv6)) {
        return;
      }
      header_length = 8;
      break;
    default:
      return;
  }
  const size_t end = t + p.transport_length;
  if (end < t + header_length) return;
  if (++fault_before_seen_ % config_.fault.flip_before != 0) return;
  FlipTransportBit(pkt, t, header_length, end, fault_before_seen_);
  ++counters_.faults_before;
}

void Gateway::FlipAfter(PacketBuffer& pkt) {
  // Only frames whose receiver verifies a complete checksum: a kPartial
  // one is completed after the flip.
  const std::span<const uint8_t> th = pkt.Header(Layer::kTransport);
  const std::span<const uint8_t> net = pkt.Header(Layer::kNetwork);
  if (pkt.checksum_status == ChecksumStatus::kPartial || th.size() < 8 ||
      net.empty()) {
    return;
  }
  const bool v4 = (net[0] >> 4) == 4;
  uint8_t protocol = v4 ? net[9] : net[6];
  if (!v4 && net.size() != header::IPv6::kSize) return;
  if (protocol == header::kProtocolUDP && th[6] == 0 && th[7] == 0) return;
  if (protocol != header::kProtocolTCP && protocol != header::kProtocolUDP &&
      protocol != header::kProtocolICMPv4 &&
      protocol != header::kProtocolICMPv6) {
    return;
  }
  if (++fault_after_seen_ % config_.fault.flip_after != 0) return;
  const size_t t = pkt.HeaderOffset(Layer::kTransport);
  FlipTransportBit(pkt, t, th.size(), pkt.size(), fault_after_seen_);
  ++counters_.faults_after;
}

namespace {

void AppendCounter(std::string& out, bool json, std::string_view name,
                   uint64_t value) {
  if (json) {
    absl::StrAppend(&out, out.size() > 1 ? "," : "", "\"", std::string(name), "\":",
                    value);
  } else {
    absl::StrAppend(&out, std::string(name), " ", value, "\n");
  }
}

std::string Format(const Counters& c, const std::vector<std::string>& names,
                   bool json) {
  std::string out = json ? "{" : "";
  auto add = [&](std::string_view name, uint64_t v) {
    AppendCounter(out, json, name, v);
  };
  add("received", c.received);
  add("forwarded", c.forwarded);
  add("local", c.local);
  add("multicast", c.multicast);
  add("dropped", c.TotalDropped());
  for (size_t i = 0; i < kDropCount; ++i) {
    std::string name =
        absl::StrCat("drop_", std::string(ToString(static_cast<Drop>(i))));
    std::replace(name.begin(), name.end(), ' ', '_');
    add(name, c.dropped[i]);
  }
  add("verified_software", c.verified_software);
  add("verified_trusted", c.verified_trusted);
  add("unverified", c.unverified);
  add("gso_forwarded", c.gso_forwarded);
  add("partial_forwarded", c.partial_forwarded);
  add("icmp_time_exceeded", c.icmp_time_exceeded);
  add("icmp_too_big", c.icmp_too_big);
  add("icmp_echo_replies", c.icmp_echo_replies);
  add("icmp_rate_limited", c.icmp_rate_limited);
  add("local_no_route", c.local_no_route);
  add("nat_outbound", c.nat_outbound);
  add("nat_inbound", c.nat_inbound);
  add("nat_entries", c.nat_entries);
  add("nat_created", c.nat_v4.created + c.nat_v6.created);
  add("nat_expired", c.nat_v4.expired + c.nat_v6.expired);
  add("nat_full", c.nat_v4.full + c.nat_v6.full);
  add("nat_exhausted", c.nat_v4.exhausted + c.nat_v6.exhausted);
  add("arp_replies", c.arp_replies);
  add("arp_requests", c.arp_requests);
  add("nd_advertisements", c.nd_advertisements);
  add("nd_solicitations", c.nd_solicitations);
  add("neighbors_learned", c.neighbors_learned);
  add("faults_before", c.faults_before);
  add("faults_after", c.faults_after);
  for (size_t i = 0; i < c.interfaces.size(); ++i) {
    const std::string n = i < names.size() ? names[i] : absl::StrCat(i);
    const InterfaceCounters& ic = c.interfaces[i];
    add(absl::StrCat(n, ".rx_frames"), ic.rx_frames);
    add(absl::StrCat(n, ".rx_bytes"), ic.rx_bytes);
    add(absl::StrCat(n, ".tx_frames"), ic.tx_frames);
    add(absl::StrCat(n, ".tx_bytes"), ic.tx_bytes);
  }
  if (json) out += "}\n";
  return out;
}

}  // namespace

std::string FormatCounters(const Counters& c,
                           const std::vector<std::string>& names) {
  return Format(c, names, false);
}

std::string FormatCountersJson(const Counters& c,
                               const std::vector<std::string>& names) {
  return Format(c, names, true);
}

}  // namespace ipsum::gateway
