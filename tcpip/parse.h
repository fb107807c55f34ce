// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// The parse step: find the layers of a frame or an IP datagram without
// judging them. `ParseEthernet` and `ParseIP` walk the link, network and
// IPv6 extension headers of the bytes they are given and return a
// `ParsedPacket` that says where each layer starts (offsets from the start of
// the given bytes), how long the IP datagram says it is, whether it is a
// fragment, and which transport protocol follows. Like gVisor's
// `header/parse`, this is its own small step that both the receive path
// (tcpip/receive.h) and the pcap checksum verifier (`csum verify`) build on.
//
// Captures are cut. A datagram whose IP length runs past the bytes present
// (a snaplen shorter than the packet) is still described: its headers and
// offsets are filled in and `truncated` is set, so a verifier can still judge
// the IPv4 header checksum it has. Only when the bytes end inside a header
// the walk must read (the Ethernet header, a VLAN tag, the IPv4 header with
// its options, the IPv6 fixed header or an extension header) is the result
// an error, `ParseError::kTruncated`. The receive path drops both.
//
// What the parse step does not do: verify any checksum, validate IPv4 or TCP
// options, reassemble fragments, or look inside the transport header (it only
// says where it starts). It never reads outside the given span, never
// allocates and never throws.

#ifndef IPSUM_TCPIP_PARSE_H_
#define IPSUM_TCPIP_PARSE_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace ipsum::tcpip {

// NetworkProtocol is the network layer a ParsedPacket carries.
enum class NetworkProtocol : uint8_t {
  // kNone: no IP layer (an Ethernet frame of another EtherType: ARP, LLDP,
  // an 802.3 length field, ...). Not an error.
  kNone = 0,
  kIPv4 = 4,
  kIPv6 = 6,
};

// ParseError is why a parse could not describe a packet's headers. kOk
// means it could (the packet may still be `truncated`: see ParsedPacket).
enum class ParseError : uint8_t {
  // kOk: every header up to the transport header was found.
  kOk = 0,
  // kTruncated: the bytes end inside a header the walk needs (Ethernet, a
  // VLAN tag, the IPv4 header with its options, the IPv6 fixed header or an
  // extension header).
  kTruncated,
  // kMalformed: a field that no valid packet holds: an IP version other
  // than 4 or 6 (or one that contradicts the EtherType), IPv4 IHL < 5, an
  // IPv4 total length below its header length, an IPv6 extension header
  // that runs past the payload length, a Hop-by-Hop header not first.
  kMalformed,
  // kUnsupported: a valid packet this step does not walk: an IPv6
  // jumbogram (RFC 2675), more than two VLAN tags, an extension header
  // chain longer than kMaxExtensionHeaders.
  kUnsupported,
};

// ToString returns the stable name of `e`: "ok", "truncated", "malformed"
// or "unsupported".
constexpr std::string_view ToString(ParseError e) {
  switch (e) {
    case ParseError::kOk:
      return "ok";
    case ParseError::kTruncated:
      return "truncated";
    case ParseError::kMalformed:
      return "malformed";
    case ParseError::kUnsupported:
      return "unsupported";
  }
  return "unknown";
}

// kMaxVlanTags is the number of 802.1Q/802.1ad tags ParseEthernet walks.
inline constexpr size_t kMaxVlanTags = 2;

// kMaxExtensionHeaders bounds the IPv6 extension header walk.
inline constexpr size_t kMaxExtensionHeaders = 16;

// ParsedPacket describes the layers of a frame (ParseEthernet) or an IP
// datagram (ParseIP). Every offset counts from the first byte of the span
// that was parsed. Fields the parse did not reach keep their zero values;
// when `error` is not kOk, the fields describing the layers before the one
// that failed are valid (e.g. a frame whose IPv6 extension chain is cut
// still has its Ethernet fields, `network`, `network_offset`, `ip_length`).
struct ParsedPacket {
  // error is kOk when the walk reached the transport layer (or found no IP
  // layer, `network == kNone`); `reason` then is empty. Otherwise `reason`
  // is a fixed, human-readable sentence ("IPv4 IHL below 5").
  ParseError error = ParseError::kOk;
  std::string_view reason;

  // has_ethernet is true for ParseEthernet. `ether_type` is the EtherType
  // after any VLAN tags; `vlan_count` tags were found, `vlan_tci[0]` the
  // outer one's Tag Control Information (PCP | DEI | VID) and `vlan_tpid`
  // the TPID that introduced it. `link_header_length` is 14 + 4 per tag.
  bool has_ethernet = false;
  uint16_t ether_type = 0;
  uint8_t vlan_count = 0;
  std::array<uint16_t, kMaxVlanTags> vlan_tpid{};
  std::array<uint16_t, kMaxVlanTags> vlan_tci{};
  size_t link_header_length = 0;

  // network is the IP version found, kNone if none.
  NetworkProtocol network = NetworkProtocol::kNone;
  // network_offset is where the IP header starts.
  size_t network_offset = 0;
  // network_header_length is IHL * 4 for IPv4, 40 plus the extension
  // headers walked for IPv6: the transport (or fragment data) starts at
  // network_offset + network_header_length.
  size_t network_header_length = 0;
  // ip_length is the datagram's length as its length field says: IPv4 Total
  // Length, IPv6 40 + Payload Length.
  size_t ip_length = 0;
  // captured_ip_bytes is how much of the datagram is present:
  // min(ip_length, bytes from network_offset to the end of the span).
  size_t captured_ip_bytes = 0;
  // trailing_bytes counts bytes present after the datagram's end (Ethernet
  // padding of a short frame, a trailer); they belong to no layer.
  size_t trailing_bytes = 0;
  // truncated is true when the datagram runs past the bytes present
  // (captured_ip_bytes < ip_length): the headers are described, but a
  // transport checksum cannot be judged.
  bool truncated = false;

  // is_fragment is true for an IPv4 datagram with MF set or a non-zero
  // fragment offset, and for an IPv6 packet with a Fragment header whose
  // offset is non-zero or whose M flag is set (an "atomic fragment", RFC
  // 6946, is a whole packet). is_first_fragment is true for a fragment with
  // offset 0, whose data starts with the transport header; a non-first
  // fragment's data at transport_offset is the middle of a transport
  // payload. fragment_offset is in bytes; fragment_id is the IPv4
  // Identification or the IPv6 Fragment header's Identification.
  bool is_fragment = false;
  bool is_first_fragment = false;
  uint32_t fragment_offset = 0;
  uint32_t fragment_id = 0;

  // ipv6_extension_count is the number of IPv6 extension headers walked.
  // routing_header_offset is the offset of the first Routing header (0 if
  // none) and segments_left its Segments Left; when that is non-zero the
  // destination of the RFC 8200 section 8.1 pseudo-header is not the one
  // in the IPv6 header.
  uint8_t ipv6_extension_count = 0;
  size_t routing_header_offset = 0;
  uint8_t segments_left = 0;

  // transport_protocol is the IPv4 Protocol or the IPv6 Next Header after
  // the last extension header (6 TCP, 17 UDP, 58 ICMPv6, 50 ESP whose
  // contents the walk cannot read, 59 No Next Header, ...).
  // transport_offset is where that protocol's bytes start, equal to
  // network_offset + network_header_length; transport_length is how many
  // bytes the IP length gives it (ip_length - network_header_length), the
  // "upper-layer packet length" of a pseudo-header when not a fragment.
  uint8_t transport_protocol = 0;
  size_t transport_offset = 0;
  size_t transport_length = 0;

  friend bool operator==(const ParsedPacket&, const ParsedPacket&) = default;

  // ok reports whether the headers were all found (error == kOk).
  bool ok() const { return error == ParseError::kOk; }
  // has_transport_header reports whether the transport header starts at
  // transport_offset: an IP packet parsed without error that is not a
  // non-first fragment. The header may still be cut short of the capture.
  bool has_transport_header() const {
    return ok() && network != NetworkProtocol::kNone &&
           (!is_fragment || is_first_fragment);
  }
};

// ParseEthernet describes an Ethernet II frame (the FCS stripped, as NICs
// and captures deliver it) with up to kMaxVlanTags 802.1Q (TPID 0x8100) or
// 802.1ad (TPID 0x88a8) tags. An EtherType of 0x0800 or 0x86dd continues
// into the IP layer as ParseIP does (the IP version must match the
// EtherType); any other leaves `network == kNone` without an error.
ParsedPacket ParseEthernet(std::span<const uint8_t> frame);

// ParseIP describes the IP datagram at the start of `packet`; the version
// comes from the first nibble, 4 or 6.
ParsedPacket ParseIP(std::span<const uint8_t> packet);

// ParseEthernetPrefix is ParseEthernet for a frame of `frame_size` bytes of
// which `prefix` holds only the first (the pulled-up head of a chained
// packet): lengths are judged against `frame_size`, and a header that runs
// past `prefix` but not past `frame_size` is kUnsupported ("headers longer
// than the prefix") rather than kTruncated. A `frame_size` below
// prefix.size() is taken as prefix.size().
ParsedPacket ParseEthernetPrefix(std::span<const uint8_t> prefix,
                                 size_t frame_size);

// ParseIPPrefix is ParseIP for the first bytes, `prefix`, of a datagram
// whose bytes present number `packet_size`, as ParseEthernetPrefix.
ParsedPacket ParseIPPrefix(std::span<const uint8_t> prefix, size_t packet_size);

}  // namespace ipsum::tcpip

#endif  // IPSUM_TCPIP_PARSE_H_
