// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// The parse step: Ethernet (with VLAN tags), IPv4 and the IPv6 extension
// header chain, described from whatever bytes were captured. Every read is
// preceded by a length check against the span; lengths from the packet are
// checked against both the IP length field (malformed when a header runs
// past it) and the bytes present (truncated when it runs past those only).

#include "tcpip/parse.h"

#include <algorithm>

#include "checksum/endian.h"

namespace ipsum::tcpip {
namespace {

// EtherTypes (IEEE 802 numbers).
constexpr uint16_t kEtherTypeIPv4 = 0x0800;
constexpr uint16_t kEtherTypeIPv6 = 0x86dd;
constexpr uint16_t kTpidVlan = 0x8100;  // 802.1Q C-tag
constexpr uint16_t kTpidQinQ = 0x88a8;  // 802.1ad S-tag

// Ethernet II: destination (6), source (6), EtherType or TPID (2); a tag is
// TPID (2) + TCI (2), the TPID sitting where the EtherType would be.
constexpr size_t kEthernetSize = 14;
constexpr size_t kEtherTypeOffset = 12;
constexpr size_t kVlanTagSize = 4;

// IPv4 (RFC 791 section 3.1) field offsets.
constexpr size_t kIPv4MinSize = 20;
constexpr size_t kIPv4TotalLengthOffset = 2;
constexpr size_t kIPv4IdOffset = 4;
constexpr size_t kIPv4FlagsFragmentOffset = 6;
constexpr size_t kIPv4ProtocolOffset = 9;
constexpr uint16_t kIPv4MoreFragments = 0x2000;
constexpr uint16_t kIPv4FragmentOffsetMask = 0x1fff;

// IPv6 (RFC 8200 section 3) field offsets.
constexpr size_t kIPv6Size = 40;
constexpr size_t kIPv6PayloadLengthOffset = 4;
constexpr size_t kIPv6NextHeaderOffset = 6;

// IPv6 Next Header values of the extension headers this walk follows
// (RFC 8200 section 4; IANA "IPv6 Extension Header Types").
constexpr uint8_t kHopByHop = 0;
constexpr uint8_t kRouting = 43;
constexpr uint8_t kFragment = 44;
constexpr uint8_t kAuthentication = 51;
constexpr uint8_t kDestinationOptions = 60;
constexpr uint8_t kMobility = 135;
constexpr uint8_t kHIP = 139;
constexpr uint8_t kShim6 = 140;
constexpr size_t kFragmentHeaderSize = 8;

// The walk fills in one ParsedPacket in place (it is some 150 bytes: not
// copied from step to step).

void Fail(ParsedPacket& p, ParseError e, std::string_view reason) {
  p.error = e;
  p.reason = reason;
}

// Input is what a parse reads: `bytes`, the first bytes of a packet of
// `total` bytes (equal to bytes.size() unless the caller parses a prefix).
struct Input {
  std::span<const uint8_t> bytes;
  size_t total;
};

// Cut reports a header that runs past the bytes present: truncated when
// those are the whole packet, unsupported when only the parsed prefix ends.
void Cut(ParsedPacket& p, const Input& in, std::string_view reason) {
  if (in.total > in.bytes.size()) {
    return Fail(p, ParseError::kUnsupported, "headers longer than the prefix");
  }
  return Fail(p, ParseError::kTruncated, reason);
}

bool IsExtensionHeader(uint8_t next) {
  switch (next) {
    case kHopByHop:
    case kRouting:
    case kFragment:
    case kAuthentication:
    case kDestinationOptions:
    case kMobility:
    case kHIP:
    case kShim6:
      return true;
    default:
      return false;
  }
}

// SetLengths fills ip_length and what follows from it, given that the
// datagram starts at p.network_offset of a packet of `total` bytes.
void SetLengths(ParsedPacket& p, size_t total, size_t ip_length) {
  size_t present = total - p.network_offset;
  p.ip_length = ip_length;
  p.captured_ip_bytes = std::min(present, ip_length);
  p.trailing_bytes = present - p.captured_ip_bytes;
  p.truncated = present < ip_length;
}

void ParseIPv4(ParsedPacket& p, const Input& in) {
  std::span<const uint8_t> h = in.bytes.subspan(p.network_offset);
  p.network = NetworkProtocol::kIPv4;
  if (h.size() < kIPv4MinSize) return Cut(p, in, "IPv4 header truncated");
  size_t ihl = size_t{h[0] & 0x0fu} * 4;
  if (ihl < kIPv4MinSize) {
    return Fail(p, ParseError::kMalformed, "IPv4 IHL below 5");
  }
  size_t total = LoadBig16(h.data() + kIPv4TotalLengthOffset);
  // Lengths first, even when the options are cut: a verifier wants
  // ip_length whatever happens next.
  if (total < ihl) {
    return Fail(p, ParseError::kMalformed,
                "IPv4 total length below header length");
  }
  SetLengths(p, in.total, total);
  if (h.size() < ihl) return Cut(p, in, "IPv4 options truncated");
  p.network_header_length = ihl;
  uint16_t frag = LoadBig16(h.data() + kIPv4FlagsFragmentOffset);
  p.fragment_offset = static_cast<uint32_t>(frag & kIPv4FragmentOffsetMask) * 8;
  p.fragment_id = LoadBig16(h.data() + kIPv4IdOffset);
  // RFC 791 section 3.2: a datagram is a fragment when "more fragments" is
  // set or its fragment offset is not zero.
  p.is_fragment = (frag & kIPv4MoreFragments) != 0 || p.fragment_offset != 0;
  p.is_first_fragment = p.is_fragment && p.fragment_offset == 0;
  p.transport_protocol = h[kIPv4ProtocolOffset];
  p.transport_offset = p.network_offset + ihl;
  p.transport_length = total - ihl;
}

void ParseIPv6(ParsedPacket& p, const Input& in) {
  std::span<const uint8_t> h = in.bytes.subspan(p.network_offset);
  p.network = NetworkProtocol::kIPv6;
  if (h.size() < kIPv6Size) return Cut(p, in, "IPv6 header truncated");
  size_t payload_length = LoadBig16(h.data() + kIPv6PayloadLengthOffset);
  uint8_t next = h[kIPv6NextHeaderOffset];
  // RFC 2675 section 2: a jumbogram has Payload Length 0 and a Jumbo
  // Payload option in a Hop-by-Hop header. Not supported.
  if (payload_length == 0 && next == kHopByHop) {
    return Fail(p, ParseError::kUnsupported, "IPv6 jumbogram");
  }
  size_t ip_length = kIPv6Size + payload_length;
  SetLengths(p, in.total, ip_length);
  size_t present = h.size();  // Bytes readable from the IPv6 header on.
  size_t offset = kIPv6Size;  // From the IPv6 header.
  p.network_header_length = kIPv6Size;
  while (IsExtensionHeader(next)) {
    if (p.ipv6_extension_count == kMaxExtensionHeaders) {
      return Fail(p, ParseError::kUnsupported,
                  "IPv6 extension header chain too long");
    }
    // RFC 8200 section 4.3: the Hop-by-Hop Options header "is restricted
    // to appear immediately after an IPv6 header".
    if (next == kHopByHop && offset != kIPv6Size) {
      return Fail(p, ParseError::kMalformed,
                  "IPv6 hop-by-hop header not first");
    }
    // Every extension header has at least its first two bytes: Next
    // Header and a length (or, for Fragment, a reserved byte).
    if (ip_length - offset < 2) {
      return Fail(p, ParseError::kMalformed,
                  "IPv6 extension header past payload length");
    }
    if (present - offset < 2) {
      return Cut(p, in, "IPv6 extension header truncated");
    }
    size_t length;
    if (next == kFragment) {
      length = kFragmentHeaderSize;
    } else if (next == kAuthentication) {
      // RFC 4302 section 2.2: Payload Len is the length in 4-octet units
      // minus 2.
      length = (size_t{h[offset + 1]} + 2) * 4;
    } else {
      // RFC 8200 section 4.3: Hdr Ext Len is the length "in 8-octet
      // units, not including the first 8 octets".
      length = (size_t{h[offset + 1]} + 1) * 8;
    }
    if (ip_length - offset < length) {
      return Fail(p, ParseError::kMalformed,
                  "IPv6 extension header past payload length");
    }
    if (present - offset < length) {
      return Cut(p, in, "IPv6 extension header truncated");
    }
    const uint8_t* e = h.data() + offset;
    uint8_t this_header = next;
    next = e[0];
    ++p.ipv6_extension_count;
    offset += length;
    p.network_header_length = offset;
    if (this_header == kRouting && p.routing_header_offset == 0) {
      // RFC 8200 section 4.4: Routing Type (byte 2), Segments Left (3).
      p.routing_header_offset = p.network_offset + offset - length;
      p.segments_left = e[3];
    }
    if (this_header == kFragment) {
      // RFC 8200 section 4.5: Fragment Offset (13 bits, 8-octet units),
      // two reserved bits, M; then a 32-bit Identification.
      uint16_t field = LoadBig16(e + 2);
      p.fragment_offset = uint32_t{field & 0xfff8u};
      p.fragment_id = LoadBig32(e + 4);
      bool more = (field & 1) != 0;
      p.is_fragment = more || p.fragment_offset != 0;
      p.is_first_fragment = p.is_fragment && p.fragment_offset == 0;
      // The data of a non-first fragment continues some other packet's
      // bytes: there is no header to walk.
      if (p.fragment_offset != 0) break;
    }
  }
  p.transport_protocol = next;
  p.transport_offset = p.network_offset + offset;
  p.transport_length = ip_length - offset;
}

// ParseNetwork continues into the IP layer at p.network_offset; the
// version nibble chooses, and must match `expected` unless that is kNone.
void ParseNetwork(ParsedPacket& p, const Input& in, NetworkProtocol expected) {
  if (p.network_offset >= in.bytes.size()) {
    p.network = expected;
    return Cut(p, in, "IP header truncated");
  }
  uint8_t version = in.bytes[p.network_offset] >> 4;
  if (version != 4 && version != 6) {
    p.network = expected;
    return Fail(p, ParseError::kMalformed, "IP version is not 4 or 6");
  }
  if (expected != NetworkProtocol::kNone &&
      version != static_cast<uint8_t>(expected)) {
    p.network = expected;
    return Fail(p, ParseError::kMalformed,
                "IP version does not match the EtherType");
  }
  if (version == 4) {
    ParseIPv4(p, in);
  } else {
    ParseIPv6(p, in);
  }
}

void DoParseEthernet(ParsedPacket& p, const Input& in) {
  std::span<const uint8_t> frame = in.bytes;
  p.has_ethernet = true;
  if (frame.size() < kEthernetSize) {
    return Cut(p, in, "Ethernet header truncated");
  }
  size_t offset = kEtherTypeOffset;
  uint16_t type = LoadBig16(frame.data() + offset);
  // IEEE 802.1Q: a TPID where the EtherType would be introduces a 4-byte
  // tag (TPID, TCI); 802.1ad stacks an S-tag in front of a C-tag.
  while (type == kTpidVlan || type == kTpidQinQ) {
    if (p.vlan_count == kMaxVlanTags) {
      return Fail(p, ParseError::kUnsupported, "more than two VLAN tags");
    }
    if (frame.size() - offset < kVlanTagSize + 2) {
      return Cut(p, in, "VLAN tag truncated");
    }
    p.vlan_tpid[p.vlan_count] = type;
    p.vlan_tci[p.vlan_count] = LoadBig16(frame.data() + offset + 2);
    ++p.vlan_count;
    offset += kVlanTagSize;
    type = LoadBig16(frame.data() + offset);
  }
  p.ether_type = type;
  p.link_header_length = offset + 2;
  p.network_offset = p.link_header_length;
  if (type == kEtherTypeIPv4) {
    return ParseNetwork(p, in, NetworkProtocol::kIPv4);
  }
  if (type == kEtherTypeIPv6) {
    return ParseNetwork(p, in, NetworkProtocol::kIPv6);
  }
  p.network_offset = 0;
}

}  // namespace

ParsedPacket ParseEthernet(std::span<const uint8_t> frame) {
  ParsedPacket p;
  DoParseEthernet(p, Input{frame, frame.size()});
  return p;
}

ParsedPacket ParseIP(std::span<const uint8_t> packet) {
  ParsedPacket p;
  ParseNetwork(p, Input{packet, packet.size()}, NetworkProtocol::kNone);
  return p;
}

ParsedPacket ParseEthernetPrefix(std::span<const uint8_t> prefix,
                                 size_t frame_size) {
  ParsedPacket p;
  DoParseEthernet(p, Input{prefix, std::max(frame_size, prefix.size())});
  return p;
}

ParsedPacket ParseIPPrefix(std::span<const uint8_t> prefix,
                           size_t packet_size) {
  ParsedPacket p;
  ParseNetwork(p, Input{prefix, std::max(packet_size, prefix.size())},
               NetworkProtocol::kNone);
  return p;
}

}  // namespace ipsum::tcpip
