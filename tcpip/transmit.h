// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Transmit: encode a TCP segment or a UDP datagram, over IPv4 or IPv6 and
// optionally Ethernet, into a PacketBuffer whose data() already holds the
// payload. Each layer Pushes its header into the packet's header area; the
// payload is never copied.
//
// The transport checksum takes one of two forms, chosen by the link:
//
//   - Software (LinkCapabilities::tx_checksum_offload false): the checksum
//     field is complete. The payload is summed where it lies, view by view
//     (buffer::Buffer::Checksum), and that sum is combined with the sums of
//     the transport header and the pseudo-header; nothing is copied. A
//     caller that already knows the payload's sum (GSO, which sums each
//     segment's piece once; a retransmit queue) passes it in instead.
//
//   - Offload (tx_checksum_offload true): as Linux's CHECKSUM_PARTIAL, the
//     field holds the pseudo-header's sum, not complemented, and the packet
//     carries csum_start (the transport header's offset) and csum_offset
//     (the field's offset within it). The NIC sums from csum_start to the
//     end and stores the complement; software never reads the payload.
//     ResolvePartialChecksum does what the NIC does.
//
// IPv4 header checksums are always computed in software (20 to 60 bytes).

#ifndef IPSUM_TCPIP_TRANSMIT_H_
#define IPSUM_TCPIP_TRANSMIT_H_

#include <cstdint>
#include <optional>
#include <string_view>

#include "header/address.h"
#include "header/ethernet.h"
#include "header/tcp.h"
#include "tcpip/packet_buffer.h"
#include "tcpip/parse.h"

namespace ipsum::tcpip {

// Route is where a packet goes: the network layer's addresses and fields,
// and the link header, if any, in front of it.
struct Route {
  // network is kIPv4 or kIPv6; it picks which addresses are used.
  NetworkProtocol network = NetworkProtocol::kIPv4;
  header::IPv4Address source_v4;
  header::IPv4Address destination_v4;
  header::IPv6Address source_v6;
  header::IPv6Address destination_v6;
  // ttl is the IPv4 Time to Live or the IPv6 Hop Limit.
  uint8_t ttl = 64;
  // tos is the IPv4 Type of Service or the IPv6 Traffic Class byte.
  uint8_t tos = 0;
  // flow_label is the IPv6 Flow Label (20 bits).
  uint32_t flow_label = 0;
  // dont_fragment sets IPv4's DF, as TCP with path MTU discovery does
  // (RFC 1191).
  bool dont_fragment = true;
  // ethernet, when set, is the link header; its ether_type is filled in by
  // the encoder from `network`.
  std::optional<header::EthernetFields> ethernet;
};

// TCPSegment holds a TCP segment's header fields.
struct TCPSegment {
  uint16_t source_port = 0;
  uint16_t destination_port = 0;
  uint32_t seq = 0;
  uint32_t ack = 0;
  // flags holds the control bits, header::kTCPFlag*.
  uint8_t flags = 0;
  uint16_t window = 0;
  uint16_t urgent_pointer = 0;
  // options are encoded by header::EncodeTCPOptions.
  header::TCPOptions options;
  // ip_id is the IPv4 Identification (of the first segment, for GSO/TSO,
  // whose later segments count up from it).
  uint16_t ip_id = 0;
};

// UDPDatagram holds a UDP datagram's header fields.
struct UDPDatagram {
  uint16_t source_port = 0;
  uint16_t destination_port = 0;
  // ip_id is the IPv4 Identification.
  uint16_t ip_id = 0;
  // no_checksum sends a Checksum of 0, "the transmitter generated no
  // checksum" (RFC 768). IPv4 only: RFC 8200 section 8.1 forbids it over
  // IPv6, and the encoder refuses.
  bool no_checksum = false;
};

// EncodeError is why an encoder built nothing. The packet is unchanged.
enum class EncodeError : uint8_t {
  // kOk: the packet was built.
  kOk = 0,
  // kTooLarge: the datagram's length does not fit its IP length field (or
  // the link's TSO limit), or an MSS of 0 was given.
  kTooLarge,
  // kBadField: a field cannot be encoded (TCP options over 40 bytes, a
  // flow label over 20 bits, an invalid VLAN tag, UDP without a checksum
  // over IPv6, a network protocol of kNone).
  kBadField,
  // kNoHeadroom: the packet's reserved header area is smaller than the
  // headers.
  kNoHeadroom,
};

// ToString returns the stable name of `e`, e.g. "too large".
std::string_view ToString(EncodeError e);

// EncodeTCP pushes a TCP header described by `segment`, then the IP header
// of `route`, then its Ethernet header (if any), in front of the payload in
// pkt.data(), and sets pkt's metadata (protocols; checksum_status kNone with
// a complete checksum, or kPartial with csum_start/csum_offset when
// `link.tx_checksum_offload`). No payload byte is copied.
EncodeError EncodeTCP(const Route& route, const TCPSegment& segment,
                      const LinkCapabilities& link, PacketBuffer& pkt);

// EncodeTCPWithPayloadSum is EncodeTCP for a caller that knows
// `payload_sum`, checksum::Checksum of pkt.data(): software mode uses it
// instead of reading the payload.
EncodeError EncodeTCPWithPayloadSum(const Route& route,
                                    const TCPSegment& segment,
                                    const LinkCapabilities& link,
                                    uint16_t payload_sum, PacketBuffer& pkt);

// EncodeUDP is EncodeTCP for a UDP datagram. A computed checksum of 0 is
// sent as 0xffff (RFC 768).
EncodeError EncodeUDP(const Route& route, const UDPDatagram& datagram,
                      const LinkCapabilities& link, PacketBuffer& pkt);

// ResolvePartialChecksum does what a NIC does with a kPartial packet: sums
// the bytes from csum_start to the end of the packet (the field's
// pseudo-header sum included), stores the complement at csum_start +
// csum_offset (0xffff for a UDP result of 0) and sets checksum_status to
// kNone. Returns false, changing nothing, if the packet is not kPartial or
// its offsets do not lie inside it. The field may lie in the header area
// or in data() (a copy-on-write write there).
bool ResolvePartialChecksum(PacketBuffer& pkt);

}  // namespace ipsum::tcpip

#endif  // IPSUM_TCPIP_TRANSMIT_H_
