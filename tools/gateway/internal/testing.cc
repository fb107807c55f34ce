// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0

#include "tools/gateway/internal/testing.h"

#include <cstdlib>

#include "buffer/buffer.h"
#include "checksum/endian.h"
#include "header/checksum.h"
#include "header/icmpv4.h"
#include "header/icmpv6.h"
#include "header/ipv4.h"
#include "header/ipv6.h"
#include "header/protocol.h"
#include "tcpip/internal/testing.h"

namespace ipsum::gateway::testing {

using tcpip::PacketBuffer;

bool CaptureOutput::Send(size_t interface, PacketBuffer&& pkt) {
  if (!accept) return false;
  Frame f;
  f.interface = interface;
  f.bytes = pkt.Flatten();
  f.checksum_status = pkt.checksum_status;
  f.csum_start = pkt.csum_start;
  f.csum_offset = pkt.csum_offset;
  f.gso_type = pkt.gso_type;
  f.gso_size = pkt.gso_size;
  frames.push_back(std::move(f));
  return true;
}

header::IPv4Address V4(const char* text) {
  auto a = ParseIPv4(text);
  if (!a.ok()) std::abort();
  return *a;
}

header::IPv6Address V6(const char* text) {
  auto a = ParseIPv6(text);
  if (!a.ok()) std::abort();
  return *a;
}

Config TwoLinks(LinkMode mode) {
  Config c;
  InterfaceConfig in;
  in.name = "in";
  in.mode = mode;
  in.mac.bytes = {0x02, 0, 0, 0, 0, 0x01};
  in.v4.push_back(*ParsePrefixV4("10.1.0.1/24"));
  in.v6.push_back(*ParsePrefixV6("fd01::1/64"));
  InterfaceConfig out = in;
  out.name = "out";
  out.mac.bytes = {0x02, 0, 0, 0, 0, 0x02};
  out.v4 = {*ParsePrefixV4("10.2.0.1/24")};
  out.v6 = {*ParsePrefixV6("fd02::1/64")};
  c.interfaces = {in, out};
  c.routes_v4.push_back({*ParsePrefixV4("10.3.0.0/16"), 1, V4("10.2.0.2")});
  c.routes_v6.push_back({*ParsePrefixV6("fd03::/48"), 1, V6("fd02::2")});
  return c;
}

tcpip::Route RouteV4(const char* source, const char* destination,
                     uint8_t ttl) {
  tcpip::Route r;
  r.network = tcpip::NetworkProtocol::kIPv4;
  r.source_v4 = V4(source);
  r.destination_v4 = V4(destination);
  r.ttl = ttl;
  return r;
}

tcpip::Route RouteV6(const char* source, const char* destination,
                     uint8_t ttl) {
  tcpip::Route r;
  r.network = tcpip::NetworkProtocol::kIPv6;
  r.source_v6 = V6(source);
  r.destination_v6 = V6(destination);
  r.ttl = ttl;
  return r;
}

PacketBuffer Received(const PacketBuffer& pkt) {
  PacketBuffer r = PacketBuffer::FromFrame(pkt.ToBuffer());
  r.checksum_status = pkt.checksum_status;
  r.csum_start = pkt.csum_start;
  r.csum_offset = pkt.csum_offset;
  r.gso_type = pkt.gso_type;
  r.gso_size = pkt.gso_size;
  return r;
}

PacketBuffer Tcp(const tcpip::Route& route, uint16_t source_port,
                 uint16_t destination_port, std::span<const uint8_t> payload,
                 bool partial, uint8_t flags) {
  PacketBuffer pkt(tcpip::testing::MakePayload(payload, 2));
  tcpip::TCPSegment s;
  s.source_port = source_port;
  s.destination_port = destination_port;
  s.seq = 0x01020304;
  s.ack = 0x0a0b0c0d;
  s.flags = flags;
  s.window = 512;
  tcpip::LinkCapabilities link;
  link.tx_checksum_offload = partial;
  if (tcpip::EncodeTCP(route, s, link, pkt) != tcpip::EncodeError::kOk) {
    std::abort();
  }
  return pkt;
}

PacketBuffer Udp(const tcpip::Route& route, uint16_t source_port,
                 uint16_t destination_port, std::span<const uint8_t> payload,
                 bool partial) {
  PacketBuffer pkt(tcpip::testing::MakePayload(payload, 2));
  tcpip::UDPDatagram d;
  d.source_port = source_port;
  d.destination_port = destination_port;
  tcpip::LinkCapabilities link;
  link.tx_checksum_offload = partial;
  if (tcpip::EncodeUDP(route, d, link, pkt) != tcpip::EncodeError::kOk) {
    std::abort();
  }
  return pkt;
}

PacketBuffer Echo(const tcpip::Route& route, bool request, uint16_t ident,
                  uint16_t sequence, std::span<const uint8_t> data) {
  PacketBuffer pkt(buffer::Buffer::Copy(data));
  std::span<uint8_t> icmp = pkt.Push(tcpip::Layer::kTransport, 8);
  const uint16_t payload_sum = pkt.data().ChecksumAll();
  const uint16_t length = static_cast<uint16_t>(8 + data.size());
  if (route.network == tcpip::NetworkProtocol::kIPv4) {
    header::ICMPv4Fields f;
    f.type = request ? header::kICMPv4Echo : header::kICMPv4EchoReply;
    f.ident = ident;
    f.sequence = sequence;
    header::ICMPv4::Encode(f, icmp);
    auto v = header::MutableICMPv4::Parse(icmp);
    v->SetChecksum(v->ComputeChecksum(payload_sum));
    header::IPv4Fields ip;
    ip.total_length = static_cast<uint16_t>(20 + length);
    ip.ttl = route.ttl;
    ip.protocol = header::kProtocolICMPv4;
    ip.source = route.source_v4;
    ip.destination = route.destination_v4;
    header::IPv4::Encode(ip, pkt.Push(tcpip::Layer::kNetwork, 20));
  } else {
    header::ICMPv6Fields f;
    f.type = request ? header::kICMPv6EchoRequest : header::kICMPv6EchoReply;
    f.ident = ident;
    f.sequence = sequence;
    header::ICMPv6::Encode(f, icmp);
    auto v = header::MutableICMPv6::Parse(icmp);
    v->SetChecksum(v->ComputeChecksum(
        header::PseudoHeaderSum(route.source_v6, route.destination_v6,
                                header::kProtocolICMPv6, length),
        payload_sum));
    header::IPv6Fields ip;
    ip.payload_length = length;
    ip.next_header = header::kProtocolICMPv6;
    ip.hop_limit = route.ttl;
    ip.source = route.source_v6;
    ip.destination = route.destination_v6;
    header::IPv6::Encode(ip, pkt.Push(tcpip::Layer::kNetwork, 40));
  }
  pkt.network_protocol = route.network;
  return pkt;
}

bool IPv4HeaderValid(std::span<const uint8_t> frame, size_t network) {
  const size_t length = size_t{frame[network] & 0xfu} * 4;
  return tcpip::testing::ReferenceSum(frame.subspan(network, length)) ==
         0xffff;
}

uint16_t PseudoSum(std::span<const uint8_t> frame, bool ethernet) {
  return tcpip::testing::ReferencePseudoSum(frame, ethernet);
}

uint16_t TransportSum(std::span<const uint8_t> frame, bool ethernet) {
  const tcpip::testing::FrameLayout l =
      tcpip::testing::ReferenceLayout(frame, ethernet);
  if (l.v4 && l.protocol == header::kProtocolICMPv4) {
    return tcpip::testing::ReferenceSum(
        frame.subspan(l.transport_offset, l.end - l.transport_offset));
  }
  return tcpip::testing::ReferenceTransportSum(frame, ethernet);
}

}  // namespace ipsum::gateway::testing
