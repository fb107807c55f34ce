// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Transmit: TCP and UDP over IPv4/IPv6 (+ Ethernet) into a PacketBuffer.
// Everything that can fail is checked before the first Push, so a failed
// encode leaves the packet as it was.

#include "tcpip/transmit.h"

#include <array>
#include <cstdlib>
#include <cstring>

#include "checksum/checksum.h"
#include "checksum/endian.h"
#include "header/checksum.h"
#include "header/ipv4.h"
#include "header/ipv6.h"
#include "header/protocol.h"
#include "header/udp.h"
#include "tcpip/internal/header_sum.h"

namespace ipsum::tcpip {
namespace {

// kMaxFlowLabel is the largest 20-bit IPv6 Flow Label.
constexpr uint32_t kMaxFlowLabel = 0xfffff;

// TransportHeader is a transport header built on the stack before it is
// pushed: its bytes (checksum field zero) and where the field is.
struct TransportHeader {
  uint8_t protocol;
  std::span<const uint8_t> bytes;
  size_t checksum_offset;
  // no_checksum leaves the field 0 (UDP over IPv4 only).
  bool no_checksum;
  // zero_as_ones stores a computed 0 as 0xffff (UDP, RFC 768).
  bool zero_as_ones;
};

// Encode pushes `th`, the IP header and the link header in front of
// pkt.data(); `payload_sum` is the payload's sum if the caller knows it.
EncodeError Encode(const Route& route, const LinkCapabilities& link,
                   const TransportHeader& th, uint16_t ip_id,
                   std::optional<uint16_t> payload_sum, PacketBuffer& pkt) {
  const bool v4 = route.network == NetworkProtocol::kIPv4;
  if (!v4 && route.network != NetworkProtocol::kIPv6) {
    return EncodeError::kBadField;
  }
  if (!v4 && (th.no_checksum || route.flow_label > kMaxFlowLabel)) {
    return EncodeError::kBadField;
  }
  const size_t transport_length = th.bytes.size() + pkt.data().size();
  const size_t network_header =
      v4 ? header::IPv4::kMinSize : header::IPv6::kSize;
  // IPv4 Total Length counts its own header; IPv6 Payload Length does not
  // (RFC 791 section 3.1; RFC 8200 section 3). Both are 16 bits.
  const size_t length_field =
      v4 ? network_header + transport_length : transport_length;
  if (length_field > 0xffff) return EncodeError::kTooLarge;

  std::array<uint8_t, header::Ethernet::kMaxSize> eth{};
  size_t eth_size = 0;
  if (route.ethernet) {
    header::EthernetFields f = *route.ethernet;
    f.ether_type = v4 ? header::kEtherTypeIPv4 : header::kEtherTypeIPv6;
    if (f.tag_count > 2) return EncodeError::kBadField;
    eth_size = header::Ethernet::HeaderSize(f);
    if (header::Ethernet::Encode(f, eth) != header::Error::kOk) {
      return EncodeError::kBadField;
    }
  }
  if (th.bytes.size() + network_header + eth_size > pkt.reserved()) {
    return EncodeError::kNoHeadroom;
  }

  // Transport header and its checksum.
  std::span<uint8_t> t = pkt.Push(Layer::kTransport, th.bytes.size());
  std::memcpy(t.data(), th.bytes.data(), th.bytes.size());
  // The pseudo-header and header sums are inline (header/checksum.h,
  // header_sum.h): a few dozen bytes, cheaper to add than to dispatch to
  // the wide kernel.
  uint16_t pseudo = v4 ? header::PseudoHeaderSum(
                             route.source_v4, route.destination_v4, th.protocol,
                             static_cast<uint16_t>(transport_length))
                       : header::PseudoHeaderSum(
                             route.source_v6, route.destination_v6, th.protocol,
                             static_cast<uint32_t>(transport_length));
  pkt.checksum_status = ChecksumStatus::kNone;
  pkt.csum_offset = 0;
  if (th.no_checksum) {
    checksum::Put(t.data() + th.checksum_offset, 0);
  } else if (link.tx_checksum_offload) {
    // Linux CHECKSUM_PARTIAL: the field holds the pseudo-header's sum, not
    // complemented (tcp_v4_send_check: th->check = ~tcp_v4_check(len,
    // saddr, daddr, 0)), and the NIC adds the rest.
    checksum::Put(t.data() + th.checksum_offset, pseudo);
    pkt.checksum_status = ChecksumStatus::kPartial;
    pkt.csum_offset = static_cast<uint16_t>(th.checksum_offset);
  } else {
    uint16_t psum = payload_sum ? *payload_sum : pkt.data().ChecksumAll();
    // header::ComputeTransportChecksum's sum: the header with its field
    // read as zero (here: set to zero, then summed whole), then the payload
    // at the header's length.
    checksum::Put(t.data() + th.checksum_offset, 0);
    uint16_t sum =
        checksum::CombineAt(internal::HeaderSum(t, pseudo), psum, t.size());
    uint16_t c = static_cast<uint16_t>(~sum);
    if (c == 0 && th.zero_as_ones) c = 0xffff;
    checksum::Put(t.data() + th.checksum_offset, c);
  }

  // Network header.
  if (v4) {
    header::IPv4Fields f;
    f.tos = route.tos;
    f.total_length = static_cast<uint16_t>(length_field);
    f.id = ip_id;
    f.dont_fragment = route.dont_fragment;
    f.ttl = route.ttl;
    f.protocol = th.protocol;
    f.source = route.source_v4;
    f.destination = route.destination_v4;
    std::span<uint8_t> n = pkt.Push(Layer::kNetwork, network_header);
    if (header::IPv4::Encode(f, n) != header::Error::kOk) std::abort();
  } else {
    header::IPv6Fields f;
    f.traffic_class = route.tos;
    f.flow_label = route.flow_label;
    f.payload_length = static_cast<uint16_t>(length_field);
    f.next_header = th.protocol;
    f.hop_limit = route.ttl;
    f.source = route.source_v6;
    f.destination = route.destination_v6;
    std::span<uint8_t> n = pkt.Push(Layer::kNetwork, network_header);
    if (header::IPv6::Encode(f, n) != header::Error::kOk) std::abort();
  }

  if (eth_size != 0) {
    std::span<uint8_t> l = pkt.Push(Layer::kLink, eth_size);
    std::memcpy(l.data(), eth.data(), eth_size);
  }

  pkt.network_protocol = route.network;
  pkt.transport_protocol = static_cast<TransportProtocol>(th.protocol);
  pkt.csum_start = static_cast<uint32_t>(pkt.HeaderOffset(Layer::kTransport));
  return EncodeError::kOk;
}

EncodeError EncodeTCPImpl(const Route& route, const TCPSegment& segment,
                          const LinkCapabilities& link,
                          std::optional<uint16_t> payload_sum,
                          PacketBuffer& pkt) {
  std::array<uint8_t, header::TCP::kMaxSize> bytes{};
  size_t options_size = header::TCPOptionsSize(segment.options);
  if (options_size > header::TCP::kMaxSize - header::TCP::kMinSize) {
    return EncodeError::kBadField;
  }
  std::span<uint8_t> options =
      std::span(bytes).subspan(header::TCP::kMinSize, options_size);
  header::Result<size_t> written =
      header::EncodeTCPOptions(segment.options, options);
  if (!written.ok()) return EncodeError::kBadField;
  header::TCPFields f;
  f.source_port = segment.source_port;
  f.destination_port = segment.destination_port;
  f.seq = segment.seq;
  f.ack = segment.ack;
  f.flags = segment.flags;
  f.window = segment.window;
  f.checksum = 0;
  f.urgent_pointer = segment.urgent_pointer;
  f.options = options.first(*written);
  size_t size = header::TCP::kMinSize + *written;
  if (header::TCP::Encode(f, std::span(bytes).first(size)) !=
      header::Error::kOk) {
    return EncodeError::kBadField;
  }
  TransportHeader th{header::kProtocolTCP, std::span(bytes).first(size),
                     header::TCP::kChecksumOffset, false, false};
  return Encode(route, link, th, segment.ip_id, payload_sum, pkt);
}

}  // namespace

std::string_view ToString(EncodeError e) {
  switch (e) {
    case EncodeError::kOk:
      return "ok";
    case EncodeError::kTooLarge:
      return "too large";
    case EncodeError::kBadField:
      return "bad field";
    case EncodeError::kNoHeadroom:
      return "no headroom";
  }
  return "unknown";
}

EncodeError EncodeTCP(const Route& route, const TCPSegment& segment,
                      const LinkCapabilities& link, PacketBuffer& pkt) {
  return EncodeTCPImpl(route, segment, link, std::nullopt, pkt);
}

EncodeError EncodeTCPWithPayloadSum(const Route& route,
                                    const TCPSegment& segment,
                                    const LinkCapabilities& link,
                                    uint16_t payload_sum, PacketBuffer& pkt) {
  return EncodeTCPImpl(route, segment, link, payload_sum, pkt);
}

EncodeError EncodeUDP(const Route& route, const UDPDatagram& datagram,
                      const LinkCapabilities& link, PacketBuffer& pkt) {
  size_t length = header::UDP::kSize + pkt.data().size();
  if (length > 0xffff) return EncodeError::kTooLarge;
  std::array<uint8_t, header::UDP::kSize> bytes{};
  header::UDPFields f;
  f.source_port = datagram.source_port;
  f.destination_port = datagram.destination_port;
  f.length = static_cast<uint16_t>(length);
  f.checksum = 0;
  if (header::UDP::Encode(f, bytes) != header::Error::kOk) {
    return EncodeError::kBadField;
  }
  TransportHeader th{header::kProtocolUDP, bytes, header::UDP::kChecksumOffset,
                     datagram.no_checksum, true};
  return Encode(route, link, th, datagram.ip_id, std::nullopt, pkt);
}

bool ResolvePartialChecksum(PacketBuffer& pkt) {
  if (pkt.checksum_status != ChecksumStatus::kPartial) return false;
  size_t start = pkt.csum_start;
  size_t size = pkt.size();
  // The field must lie inside the packet; so must the summed bytes.
  if (start > size || size - start < size_t{pkt.csum_offset} + 2) {
    return false;
  }
  std::optional<uint16_t> sum = pkt.Checksum(start, size - start);
  if (!sum) return false;
  uint16_t c = static_cast<uint16_t>(~*sum);
  if (c == 0 && pkt.transport_protocol == TransportProtocol::kUDP) c = 0xffff;
  std::array<uint8_t, 2> field;
  StoreBig16(field.data(), c);
  if (!pkt.CopyIn(start + pkt.csum_offset, field)) return false;
  pkt.checksum_status = ChecksumStatus::kNone;
  return true;
}

}  // namespace ipsum::tcpip
