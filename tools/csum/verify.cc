// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Checksum verdicts for one frame; see verify.h. All offsets below count from
// the first byte of the frame.

#include "tools/csum/verify.h"

#include <algorithm>
#include <cassert>
#include <optional>

#include "checksum/checksum.h"
#include "checksum/endian.h"
#include "header/address.h"
#include "header/checksum.h"
#include "header/protocol.h"
#include "tcpip/fast_shape.h"
#include "tcpip/parse.h"
#include "tools/csum/link.h"

namespace ipsum::csum {
namespace {

using tcpip::NetworkProtocol;
using tcpip::ParsedPacket;
using tcpip::ParseError;

// Where each checksum field sits in its header.
constexpr size_t kIPv4ChecksumOffset = 10;       // RFC 791 section 3.1
constexpr size_t kTCPChecksumOffset = 16;        // RFC 9293 section 3.1
constexpr size_t kUDPChecksumOffset = 6;         // RFC 768
constexpr size_t kUDPLengthOffset = 4;           // RFC 768
constexpr size_t kUDPHeaderSize = 8;             // RFC 768
constexpr size_t kUDPDestinationPortOffset = 2;  // RFC 768
constexpr size_t kICMPChecksumOffset = 2;        // RFC 792, RFC 4443 2.1
constexpr size_t kUDPLiteCoverageOffset = 4;     // RFC 3828 section 3.1
constexpr uint8_t kProtocolUDPLite = 136;        // RFC 3828 section 5
constexpr uint8_t kProtocolIPIP = 4;             // RFC 2003, RFC 2473
constexpr uint8_t kProtocolIPv6 = 41;            // RFC 4213, RFC 2473
constexpr uint8_t kProtocolGRE = 47;             // RFC 2784

// GRE (RFC 2784 section 2, RFC 2890 section 2): flags and version, then
// the protocol type; checksum and reserved, key and sequence number follow
// when their bits are set. RFC 1701 section 2.1: with the routing bit the
// checksum and offset word is there too, and a list of Source Route
// Entries (address family, SRE offset, SRE length, then that many bytes)
// ends the header, closed by one with family 0 and length 0. RFC 2637
// section 4.1 (version 1, PPTP): the key field holds the payload length
// and call ID, and an acknowledgment number follows the sequence number
// when the A bit is set.
constexpr uint16_t kGREChecksumPresent = 0x8000;
constexpr uint16_t kGRERoutingPresent = 0x4000;
constexpr uint16_t kGREKeyPresent = 0x2000;
constexpr uint16_t kGRESequencePresent = 0x1000;
constexpr uint16_t kGREAckPresent = 0x0080;  // version 1
constexpr uint16_t kGREVersion = 0x0007;
constexpr size_t kGREChecksumOffset = 4;
constexpr size_t kGREBaseHeader = 4;
constexpr size_t kGREOptionalField = 4;
constexpr size_t kGRESREHeader = 4;
constexpr size_t kMaxGRESREs = 64;

// UDP tunnels, by destination port: VXLAN (RFC 7348 section 5, an 8-byte
// header, then Ethernet) and Geneve (RFC 8926 section 3.4: version and
// option length, flags, protocol type, VNI; the options, in 4-byte words,
// follow the 8-byte base header).
constexpr uint16_t kPortVXLAN = 4789;
constexpr uint16_t kPortGeneve = 6081;

// UDPDestinationPort returns the destination port of the UDP header at
// `udp`; IsTunnelPort whether the walk follows a tunnel to that port.
inline uint16_t UDPDestinationPort(const uint8_t* udp) {
  return LoadBig16(udp + kUDPDestinationPortOffset);
}
inline bool IsTunnelPort(uint16_t port) {
  return port == kPortVXLAN || port == kPortGeneve;
}
constexpr size_t kVXLANHeader = 8;
constexpr size_t kGeneveBaseHeader = 8;
constexpr size_t kGeneveProtocolOffset = 2;
constexpr uint16_t kEtherTypeIPv4 = 0x0800;
constexpr uint16_t kEtherTypeIPv6 = 0x86dd;
constexpr uint16_t kEtherTypeBridging = 0x6558;  // Transparent Ethernet
constexpr uint16_t kEtherTypePPP = 0x880b;       // RFC 2637 section 4.1

// ICMP errors that quote the datagram that caused them, after the 8-byte
// ICMP header (RFC 792; RFC 4443 sections 3.1 to 3.4).
constexpr size_t kICMPHeader = 8;

constexpr size_t kIPv4SourceOffset = 12;
constexpr size_t kIPv4DestinationOffset = 16;
constexpr size_t kIPv4MinHeader = 20;
constexpr size_t kIPv6SourceOffset = 8;
constexpr size_t kIPv6DestinationOffset = 24;

// IPv4 options that name a final destination (RFC 791 section 3.1).
constexpr uint8_t kOptionLooseSourceRoute = 131;
constexpr uint8_t kOptionStrictSourceRoute = 137;

// IPv6 Routing header types whose final destination is at offset 8
// (type 2, type 4) or last in the address list (type 0).
constexpr uint8_t kRoutingType0 = 0;  // RFC 2460 (deprecated, RFC 5095)
constexpr uint8_t kRoutingType2 = 2;  // RFC 6275 6.4
constexpr uint8_t kRoutingType4 = 4;  // RFC 8754 (SRH): Segment List[0]
constexpr size_t kRoutingAddressesOffset = 8;

// Datagram is the outermost IP datagram of a frame, located in it.
struct Datagram {
  std::span<const uint8_t> frame;
  // parsed is null for a frame of the fast shape (CheckFastShape), whose
  // judging reads the rest of this and no parse.
  const ParsedPacket* parsed;
  // base is the offset of the bytes tcpip parsed (after a non-Ethernet link
  // header); the parse's offsets are relative to it.
  size_t base;
  // network is where the IP header starts; captured_end is one past the
  // last byte of the datagram present in the frame.
  size_t network;
  size_t captured_end;
  // tso: the datagram is judged over the bytes the frame has; see
  // IsTsoSuperPacket.
  bool tso;
  // depth numbers the IP header: 1 for the outermost.
  uint8_t depth;
  // cut is why bytes of the datagram past the end of `frame` are missing:
  // kTruncated when the capture ends there, kBadLength when the datagram
  // around this one does.
  Reason cut;
};

// NextField returns the slot of `out`'s next field, reset, with `layer` and
// `depth` set; Add counts it. Fields are built where they are kept: one
// assembled elsewhere field by field and then copied would be reloaded
// whole before its narrow stores complete, which stalls.
FieldCheck& NextField(FrameCheck& out, Layer layer, uint8_t depth) {
  FieldCheck& f = out.fields[out.field_count];
  f = FieldCheck{};
  f.layer = layer;
  f.ip_depth = depth;
  return f;
}

// ReadStored fills in the stored value and offset of the field at byte
// `field` of the frame when it is captured.
void ReadStored(const Datagram& d, size_t field, FieldCheck& f) {
  if (field + 2 <= d.captured_end) {
    f.has_stored = true;
    f.stored = LoadBig16(d.frame.data() + field);
    f.offset = static_cast<uint32_t>(field);
  }
}

// Judge computes the checksum of frame[start, end) plus `pseudo_sum`, with
// the field at `f.offset` (inside the range, at an even distance from
// `start`) read as zero, and sets the verdict. The range must be captured.
void Judge(const Datagram& d, size_t start, size_t end, uint16_t pseudo_sum,
           bool udp, FieldCheck& f) {
  // One pass over the range, field included, then the field taken back out
  // by adding its complement (RFC 1624 section 3). That is the sum with the
  // field read as zero, except where one's-complement arithmetic has two
  // zeros: there it always comes out 0xffff (Combine gives 0x0000 only for
  // 0 + 0, and a range summing to 0x0000 holds a field of 0x0000), while the
  // sum wanted is 0x0000 when the other bytes and `pseudo_sum` are all zero.
  // So a 0xffff is summed again on either side of the field, which settles
  // it (verify_test checks both zeros, stored and computed).
  uint16_t sum = checksum::Combine(
      checksum::Checksum(d.frame.subspan(start, end - start), pseudo_sum),
      static_cast<uint16_t>(~f.stored));
  if (sum == 0xffff) {
    const size_t field = f.offset;
    sum = checksum::Checksum(d.frame.subspan(start, field - start), pseudo_sum);
    // The bytes after the field start at an even offset of the range, so
    // the running sum carries straight on.
    sum = checksum::Checksum(d.frame.subspan(field + 2, end - field - 2), sum);
  }
  uint16_t computed = static_cast<uint16_t>(~sum);
  // RFC 768: "If the computed checksum is zero, it is transmitted as all
  // ones".
  if (udp && computed == 0) computed = 0xffff;
  f.has_computed = true;
  f.computed = computed;
  // RFC 1071 section 1: the receiver's check passes when the sum over the
  // data and the field "is all 1 bits". Both zeros of a stored field are
  // judged by it: see verify.h on negative zero.
  f.verdict = checksum::Combine(sum, f.stored) == 0xffff ? Verdict::kGood
                                                         : Verdict::kBad;
}

// CoveredCaptured reports whether frame[start, end) holds the field and is
// all present.
bool CoveredCaptured(const Datagram& d, const FieldCheck& f, size_t end) {
  return f.has_stored && end <= d.captured_end;
}

// IPv4FinalDestination returns the address the pseudo-header carries: the
// last address of a loose or strict source route that is not used up (RFC
// 791 section 3.1: the pointer names the next address), else the
// Destination Address field.
header::IPv4Address IPv4FinalDestination(const Datagram& d, size_t ihl) {
  const uint8_t* ip = d.frame.data() + d.network;
  header::IPv4Address dst =
      header::IPv4Address::From(ip + kIPv4DestinationOffset);
  std::span<const uint8_t> options =
      d.frame.subspan(d.network + kIPv4MinHeader, ihl - kIPv4MinHeader);
  header::WalkOptions(options, [&](const header::Option& o) {
    if (o.kind != kOptionLooseSourceRoute &&
        o.kind != kOptionStrictSourceRoute) {
      return header::Error::kOk;
    }
    // data = pointer, route data. The pointer counts from the option's
    // first byte (kind = 1); an address is left when pointer + 3 <= length.
    if (o.data.size() >= 5) {
      size_t pointer = o.data[0];
      size_t length = o.data.size() + 2;
      if (pointer >= 4 && pointer + 3 <= length) {
        dst = header::IPv4Address::From(o.data.data() + o.data.size() - 4);
      }
    }
    return header::Error::kOk;
  });
  return dst;
}

// IPv6FinalDestination sets `dst` to the destination of the RFC 8200
// section 8.1 pseudo-header; false when a Routing header hides it in a form
// csum does not read.
bool IPv6FinalDestination(const Datagram& d, header::IPv6Address& dst) {
  const ParsedPacket& p = *d.parsed;
  const uint8_t* ip = d.frame.data() + d.network;
  dst = header::IPv6Address::From(ip + kIPv6DestinationOffset);
  if (p.routing_header_offset == 0 || p.segments_left == 0) return true;
  // The parse walked the Routing header, so all of it is present.
  const size_t rh = d.base + p.routing_header_offset;
  if (rh + kRoutingAddressesOffset > d.frame.size()) return false;
  const uint8_t* h = d.frame.data() + rh;
  const size_t length = (size_t{h[1]} + 1) * 8;
  const uint8_t type = h[2];
  if (rh + length > d.frame.size()) return false;
  size_t address;
  if (type == kRoutingType2 || type == kRoutingType4) {
    address = kRoutingAddressesOffset;
  } else if (type == kRoutingType0) {
    size_t n = h[1] / 2;
    if (n == 0) return false;
    address = kRoutingAddressesOffset + (n - 1) * header::IPv6Address::kSize;
  } else {
    return false;
  }
  if (address + header::IPv6Address::kSize > length) return false;
  dst = header::IPv6Address::From(h + address);
  return true;
}

// ParseLinkPayload parses what an Ethernet or IP link type carries.
ParsedPacket ParseLinkPayload(const LinkDecode& link,
                              std::span<const uint8_t> frame) {
  if (link.payload == LinkPayload::kEthernet) {
    return tcpip::ParseEthernet(frame.subspan(link.offset));
  }
  return tcpip::ParseIP(frame.subspan(link.offset));
}

constexpr size_t kIPv4TotalLengthOffset = 2;
constexpr size_t kIPv4MaxHeader = 60;
constexpr size_t kEthernetMaxHeader = 14 + 4 * tcpip::kMaxVlanTags;

// IsTsoSuperPacket reports whether `parsed` is an IPv4 datagram sent with
// segmentation offload: the capture cut nothing (`wire_length` is the
// frame's size) and its whole header is present, yet its Total Length is 0
// or runs past the frame. Wireshark (ip.tso_support) then takes the
// datagram to be the bytes the frame has.
bool IsTsoSuperPacket(const ParsedPacket& parsed, size_t base,
                      std::span<const uint8_t> frame, size_t wire_length) {
  if (wire_length != frame.size() || parsed.network != NetworkProtocol::kIPv4) {
    return false;
  }
  const size_t network = base + parsed.network_offset;
  if (network + kIPv4MinHeader > frame.size()) return false;
  const size_t ihl = size_t{frame[network] & 0x0fu} * 4;
  if (ihl < kIPv4MinHeader || network + ihl > frame.size()) return false;
  const size_t total =
      LoadBig16(frame.data() + network + kIPv4TotalLengthOffset);
  return total == 0 || network + total > frame.size();
}

// ParseTso parses a datagram IsTsoSuperPacket accepted, as if its Total
// Length were the bytes the frame has from its first byte on: the link and
// IP headers are copied and the length patched (tcpip parses only headers),
// then the lengths, which may pass 16 bits, are set.
ParsedPacket ParseTso(const LinkDecode& link, const ParsedPacket& first,
                      std::span<const uint8_t> frame) {
  std::array<uint8_t, kEthernetMaxHeader + kIPv4MaxHeader> head;
  const size_t network = link.offset + first.network_offset;
  const size_t ihl = size_t{frame[network] & 0x0fu} * 4;
  const size_t present = frame.size() - network;
  const size_t n = first.network_offset + ihl;  // <= head.size()
  std::copy_n(frame.data() + link.offset, n, head.data());
  StoreBig16(head.data() + first.network_offset + kIPv4TotalLengthOffset,
             static_cast<uint16_t>(std::min<size_t>(present, 0xffff)));
  const std::span<const uint8_t> prefix(head.data(), n);
  const size_t size = frame.size() - link.offset;
  ParsedPacket p = link.payload == LinkPayload::kEthernet
                       ? tcpip::ParseEthernetPrefix(prefix, size)
                       : tcpip::ParseIPPrefix(prefix, size);
  p.ip_length = present;
  p.captured_ip_bytes = present;
  p.trailing_bytes = 0;
  p.truncated = false;
  if (p.ok() && p.network_header_length == ihl) {
    p.transport_length = present - ihl;
  }
  return p;
}

// Add counts `f`, the slot NextField returned.
void Add(FrameCheck& out, [[maybe_unused]] const FieldCheck& f) {
  assert(&f == &out.fields[out.field_count]);
  ++out.field_count;
}

// Unverified records `f`, the slot NextField returned, as unverified for
// `reason`.
void Unverified(FrameCheck& out, FieldCheck& f, Reason reason) {
  f.verdict = Verdict::kUnverified;
  f.reason = reason;
  Add(out, f);
}

// MarkOffload gives a bad field the reason `offload` when its stored value
// is one an offloading host leaves: zero, or one of `pseudo_sums` (the
// folded pseudo-header sums with and without the transport length).
void MarkOffload(FieldCheck& f, std::span<const uint16_t> pseudo_sums) {
  if (f.verdict != Verdict::kBad) return;
  bool offload = f.stored == 0;
  for (uint16_t p : pseudo_sums) offload = offload || f.stored == p;
  if (offload) f.reason = Reason::kOffload;
}

// PseudoSums holds the pseudo-header sum of a transport ([0]) and the same
// without the transport length ([1]), which some offloading hosts store.
using PseudoSums = std::array<uint16_t, 2>;

// PseudoSumsOf returns the PseudoSums of `length` bytes of `protocol` from
// `src` to `dst` over IPv4. A TSO datagram's length may pass 16 bits: its
// high half is one more 16-bit word of the sum.
PseudoSums PseudoSumsOf(header::IPv4Address src, header::IPv4Address dst,
                        uint8_t protocol, size_t length) {
  return {
      checksum::Combine(header::PseudoHeaderSum(src, dst, protocol,
                                                static_cast<uint16_t>(length)),
                        static_cast<uint16_t>(length >> 16)),
      header::PseudoHeaderSum(src, dst, protocol, 0)};
}

// PseudoSumsOf returns the PseudoSums of `length` bytes of `protocol` from
// `src` to `dst` over IPv6.
PseudoSums PseudoSumsOf(const header::IPv6Address& src,
                        const header::IPv6Address& dst, uint8_t protocol,
                        size_t length) {
  return {header::PseudoHeaderSum(src, dst, protocol,
                                  static_cast<uint32_t>(length)),
          header::PseudoHeaderSum(src, dst, protocol, 0)};
}

// CheckIPv4Header judges the header checksum when the whole header is
// captured.
void CheckIPv4Header(const Datagram& d, FrameCheck& out) {
  const ParsedPacket& p = *d.parsed;
  FieldCheck& f = NextField(out, Layer::kIPv4, d.depth);
  ReadStored(d, d.network + kIPv4ChecksumOffset, f);
  if (p.ok()) {
    const size_t end = d.network + p.network_header_length;
    if (CoveredCaptured(d, f, end)) {
      Judge(d, d.network, end, 0, false, f);
      MarkOffload(f, {});
      return Add(out, f);
    }
  }
  Unverified(out, f, d.cut);
}

// CheckTransport judges the TCP, UDP, UDP-Lite, ICMPv4, ICMPv6 or GRE
// checksum of a datagram whose transport header starts at `t`.
void CheckTransport(const Datagram& d, FrameCheck& out) {
  const ParsedPacket& p = *d.parsed;
  const bool v4 = p.network == NetworkProtocol::kIPv4;
  const size_t t = d.base + p.transport_offset;
  // The datagram as its length field declares it; its captured part ends
  // at d.captured_end.
  const size_t declared_end = t + p.transport_length;
  Layer layer;
  size_t field_offset;
  switch (p.transport_protocol) {
    case header::kProtocolTCP:
      layer = Layer::kTCP;
      field_offset = kTCPChecksumOffset;
      break;
    case header::kProtocolUDP:
      layer = Layer::kUDP;
      field_offset = kUDPChecksumOffset;
      break;
    case kProtocolUDPLite:
      layer = Layer::kUDPLite;
      field_offset = kUDPChecksumOffset;
      break;
    case header::kProtocolICMPv4:
      if (!v4) return;
      layer = Layer::kICMPv4;
      field_offset = kICMPChecksumOffset;
      break;
    case header::kProtocolICMPv6:
      if (v4) return;
      layer = Layer::kICMPv6;
      field_offset = kICMPChecksumOffset;
      break;
    case kProtocolGRE:
      // RFC 2784 section 2.2: the C bit says whether the checksum is there.
      if (t + 2 > std::min(declared_end, d.captured_end) ||
          (LoadBig16(d.frame.data() + t) & kGREChecksumPresent) == 0) {
        return;
      }
      layer = Layer::kGRE;
      field_offset = kGREChecksumOffset;
      break;
    default:
      return;
  }
  // A field the IP length leaves out is not part of the datagram.
  FieldCheck& f = NextField(out, layer, d.depth);
  if (t + field_offset + 2 > declared_end) {
    return Unverified(out, f, Reason::kBadLength);
  }
  ReadStored(d, t + field_offset, f);
  if (!f.has_stored) return Unverified(out, f, d.cut);

  // UDP's length may cover less than the IP payload (the rest is padding a
  // receiver trims), never more.
  size_t end = declared_end;
  size_t length = p.transport_length;
  if (layer == Layer::kUDP && v4 && f.stored == 0) {
    f.verdict = Verdict::kNone;  // RFC 768: no checksum was generated.
    return Add(out, f);
  }
  // A fragment's transport checksum covers the reassembled datagram (and a
  // UDP length there covers more than this fragment).
  if (p.is_fragment) return Unverified(out, f, Reason::kFragment);
  if (layer == Layer::kUDP) {
    if (t + kUDPHeaderSize > d.captured_end) {
      return Unverified(out, f, d.cut);
    }
    length = LoadBig16(d.frame.data() + t + kUDPLengthOffset);
    if (length < kUDPHeaderSize || length > p.transport_length) {
      return Unverified(out, f, Reason::kBadLength);
    }
    end = t + length;
  } else if (layer == Layer::kUDPLite) {
    if (t + kUDPHeaderSize > d.captured_end) {
      return Unverified(out, f, d.cut);
    }
    // RFC 3828 section 3.1: coverage 0 is the whole datagram; below the
    // header or past the datagram the packet is discarded.
    size_t coverage = LoadBig16(d.frame.data() + t + kUDPLiteCoverageOffset);
    if (coverage == 0) coverage = p.transport_length;
    if (coverage < kUDPHeaderSize || coverage > p.transport_length) {
      return Unverified(out, f, Reason::kBadLength);
    }
    end = t + coverage;
  }
  if (end > d.captured_end) return Unverified(out, f, d.cut);

  PseudoSums pseudo = {0, 0};
  const uint8_t* ip = d.frame.data() + d.network;
  if (layer == Layer::kICMPv4 || layer == Layer::kGRE) {
    // No pseudo-header (RFC 792, RFC 2784 section 2.5).
  } else if (v4) {
    pseudo = PseudoSumsOf(header::IPv4Address::From(ip + kIPv4SourceOffset),
                          IPv4FinalDestination(d, p.network_header_length),
                          p.transport_protocol, length);
  } else {
    header::IPv6Address dst;
    if (!IPv6FinalDestination(d, dst)) {
      return Unverified(out, f, Reason::kRoutingHeader);
    }
    pseudo = PseudoSumsOf(header::IPv6Address::From(ip + kIPv6SourceOffset),
                          dst, p.transport_protocol, length);
  }
  // UDP and UDP-Lite send a computed zero as all ones (RFC 768, RFC 3828
  // section 3.1).
  Judge(d, t, end, pseudo[0], layer == Layer::kUDP || layer == Layer::kUDPLite,
        f);
  f.tso = d.tso;
  // Hosts offload the TCP and UDP checksums; ICMP's are computed by the
  // stack, so a bad one there has no offload explanation.
  if (layer == Layer::kTCP || layer == Layer::kUDP) MarkOffload(f, pseudo);
  Add(out, f);
}

// CheckFastShape judges a frame whose IP datagram, at `n` and the rest of
// the frame, has the fast shape's IP layer (tcpip/fast_shape.h) of IP
// version kV4, into `out`, which must be fresh: the FrameCheck the general
// walk gives the same frame (verify_test and verify_fuzzer compare the
// two), read at fixed offsets. False, with `out` untouched, for any other
// datagram, and for UDP to a tunnel's port, which the walk follows.
template <bool kV4>
[[gnu::always_inline]] inline bool CheckFastShape(
    std::span<const uint8_t> frame, size_t n, FrameCheck& out) {
  const std::span<const uint8_t> datagram = frame.subspan(n);
  tcpip::FastShape s;
  if (!tcpip::ClassifyFastIP<kV4>(datagram, datagram.size(), s)) {
    return false;
  }
  const size_t t = n + tcpip::kFastNetwork<kV4>;
  const bool udp = s.protocol == header::kProtocolUDP;
  if (udp && IsTunnelPort(UDPDestinationPort(frame.data() + t))) return false;
  // The whole datagram is captured, and is the rest of the frame.
  const Datagram d = {.frame = frame,
                      .parsed = nullptr,
                      .base = n,
                      .network = n,
                      .captured_end = frame.size(),
                      .tso = false,
                      .depth = 1,
                      .cut = Reason::kTruncated};
  out.kind = kV4 ? FrameKind::kIPv4 : FrameKind::kIPv6;
  if constexpr (kV4) {
    FieldCheck& f = NextField(out, Layer::kIPv4, 1);
    ReadStored(d, n + kIPv4ChecksumOffset, f);
    Judge(d, n, t, 0, false, f);
    MarkOffload(f, {});
    Add(out, f);
  }
  FieldCheck& f = NextField(out, udp ? Layer::kUDP : Layer::kTCP, 1);
  ReadStored(d, t + (udp ? kUDPChecksumOffset : kTCPChecksumOffset), f);
  if (s.udp_no_checksum) {
    f.verdict = Verdict::kNone;  // RFC 768: no checksum was generated.
    Add(out, f);
    return true;
  }
  const uint8_t* ip = frame.data() + n;
  const uint16_t pseudo =
      tcpip::FastPseudoSum<kV4>(ip, s.protocol, s.transport_length);
  Judge(d, t, frame.size(), pseudo, udp, f);
  // The sum without the length matters only to a bad field.
  if (f.verdict == Verdict::kBad) {
    MarkOffload(
        f, PseudoSums{pseudo, tcpip::FastPseudoSum<kV4>(ip, s.protocol, 0)});
  }
  Add(out, f);
  return true;
}

}  // namespace

std::string_view LayerName(Layer layer) {
  switch (layer) {
    case Layer::kIPv4:
      return "ipv4";
    case Layer::kTCP:
      return "tcp";
    case Layer::kUDP:
      return "udp";
    case Layer::kICMPv4:
      return "icmpv4";
    case Layer::kICMPv6:
      return "icmpv6";
    case Layer::kUDPLite:
      return "udplite";
    case Layer::kGRE:
      return "gre";
    case Layer::kIP:
      return "ip";
  }
  return "?";
}

std::string_view ReasonName(Reason reason) {
  switch (reason) {
    case Reason::kNone:
      return "";
    case Reason::kOffload:
      return "offload";
    case Reason::kTruncated:
      return "truncated";
    case Reason::kFragment:
      return "fragment";
    case Reason::kBadLength:
      return "bad-length";
    case Reason::kRoutingHeader:
      return "routing-header";
    case Reason::kQuoted:
      return "quoted";
    case Reason::kMalformed:
      return "malformed";
    case Reason::kUnsupported:
      return "unsupported";
  }
  return "?";
}

std::string_view VerdictName(Verdict verdict) {
  switch (verdict) {
    case Verdict::kGood:
      return "good";
    case Verdict::kBad:
      return "bad";
    case Verdict::kUnverified:
      return "unverified";
    case Verdict::kNone:
      return "none";
  }
  return "?";
}

namespace {

// Inner is what a datagram carries that csum follows: the bytes
// frame[start, end) of link type `linktype` (raw IP, Ethernet or PPP),
// `end` being where the datagram around it ends, and `cut` why bytes past
// `end` are missing (Datagram::cut). `quoted`: an ICMP error's quote. A
// tunnel header csum cannot read sets `broken` (the reason of the `ip`
// field, see verify.h) and `sentence` instead.
struct Inner {
  uint32_t linktype = 0;
  size_t start = 0;
  size_t end = 0;
  Reason cut = Reason::kTruncated;
  bool quoted = false;
  Reason broken = Reason::kNone;
  std::string_view sentence;
};

// Payload is the bytes a datagram (or a UDP datagram in it) carries:
// [start, end) present, `declared` where its length says it ends, `cut`
// why bytes past `end` are missing when end < declared.
struct Payload {
  size_t start;
  size_t end;
  size_t declared;
  Reason cut;

  // Missing returns why the bytes up to `needed`, past `end`, are absent.
  Reason Missing(size_t needed) const {
    return needed > declared ? Reason::kBadLength : cut;
  }
};

// Broken sets `in` to a tunnel header csum cannot read; returns true, as
// that is a datagram to report.
bool Broken(Inner& in, Reason reason, std::string_view sentence) {
  in.broken = reason;
  in.sentence = sentence;
  return true;
}

// Follow sets `in` to the datagram of link type `link` at `start` of `p`,
// after a tunnel header that ends there (`what` names it when cut short).
// False when the tunnel carries nothing (a GRE keepalive, a PPTP
// acknowledgment).
bool Follow(const Payload& p, LinkType link, size_t start,
            std::string_view what, Inner& in) {
  if (start > p.end) return Broken(in, p.Missing(start), what);
  if (start == p.declared) return false;
  in = Inner{};
  in.linktype = static_cast<uint32_t>(link);
  in.start = start;
  in.end = p.end;
  in.cut = p.end < p.declared ? p.cut : Reason::kBadLength;
  return true;
}

// ByEtherType follows what a GRE or Geneve protocol type names at `start`
// of `p`; false for a type csum does not follow.
bool ByEtherType(uint16_t type, const Payload& p, size_t start,
                 std::string_view what, Inner& in) {
  switch (type) {
    case kEtherTypeIPv4:
    case kEtherTypeIPv6:
      return Follow(p, LinkType::kRaw, start, what, in);
    case kEtherTypeBridging:
      return Follow(p, LinkType::kEthernet, start, what, in);
    case kEtherTypePPP:
      return Follow(p, LinkType::kPpp, start, what, in);
    default:
      return false;
  }
}

// FindGRE follows the GRE packet that is `p`: version 0 (RFC 2784, RFC
// 2890, RFC 1701 routing) or 1 (RFC 2637).
bool FindGRE(const uint8_t* b, const Payload& p, Inner& in) {
  const size_t t = p.start;
  if (t + kGREBaseHeader > p.end) {
    return Broken(in, p.Missing(t + kGREBaseHeader), "GRE header truncated");
  }
  const uint16_t flags = LoadBig16(b + t);
  const uint16_t version = flags & kGREVersion;
  if (version > 1)
    return Broken(in, Reason::kUnsupported, "GRE version above 1");
  const size_t words =
      ((flags & (kGREChecksumPresent | kGRERoutingPresent)) != 0) +
      ((flags & kGREKeyPresent) != 0) + ((flags & kGRESequencePresent) != 0) +
      (version == 1 && (flags & kGREAckPresent) != 0);
  size_t h = t + kGREBaseHeader + kGREOptionalField * words;
  if (flags & kGRERoutingPresent) {
    for (size_t i = 0;; ++i) {
      if (i == kMaxGRESREs) {
        return Broken(in, Reason::kUnsupported, "GRE routing too long");
      }
      if (h + kGRESREHeader > p.end) {
        return Broken(in, p.Missing(h + kGRESREHeader),
                      "GRE routing truncated");
      }
      const uint16_t family = LoadBig16(b + h);
      const size_t length = b[h + 3];
      h += kGRESREHeader + length;
      if (family == 0 && length == 0) break;
    }
  }
  return ByEtherType(LoadBig16(b + t + 2), p, h, "GRE header truncated", in);
}

// IsQuotingError reports whether an ICMP message of `type` quotes a
// datagram: ICMPv4 Destination Unreachable (3), Source Quench (4),
// Redirect (5), Time Exceeded (11), Parameter Problem (12); ICMPv6
// Destination Unreachable (1), Packet Too Big (2), Time Exceeded (3),
// Parameter Problem (4).
bool IsQuotingError(bool v4, uint8_t type) {
  if (v4) return (type >= 3 && type <= 5) || type == 11 || type == 12;
  return type >= 1 && type <= 4;
}

// FindInner locates the tunnelled or quoted datagram `d` carries, if any,
// within the captured bytes of `d`'s payload, or the tunnel header that
// keeps csum from it (Inner::broken).
bool FindInner(const Datagram& d, Inner& in) {
  const ParsedPacket& p = *d.parsed;
  if (!p.has_transport_header() || p.is_fragment) return false;
  const size_t t = d.base + p.transport_offset;
  const size_t declared = t + p.transport_length;
  const Payload ip = {t, std::min(declared, d.captured_end), declared, d.cut};
  if (t > ip.end) return false;
  const uint8_t* b = d.frame.data();
  const bool v4 = p.network == NetworkProtocol::kIPv4;
  switch (p.transport_protocol) {
    case kProtocolIPIP:
    case kProtocolIPv6:
      return Follow(ip, LinkType::kRaw, t, "", in);
    case kProtocolGRE:
      return FindGRE(b, ip, in);
    case header::kProtocolUDP: {
      // A UDP header cut short or a UDP length past the IP payload is
      // reported on the UDP field (CheckTransport).
      if (t + kUDPHeaderSize > ip.end) return false;
      const size_t length = LoadBig16(b + t + kUDPLengthOffset);
      if (length < kUDPHeaderSize || length > p.transport_length) return false;
      const Payload udp = {t + kUDPHeaderSize, std::min(t + length, ip.end),
                           t + length, ip.cut};
      const size_t u = udp.start;
      const uint16_t port = UDPDestinationPort(b + t);
      if (!IsTunnelPort(port)) return false;
      if (port == kPortVXLAN) {
        return ByEtherType(kEtherTypeBridging, udp, u + kVXLANHeader,
                           "VXLAN header truncated", in);
      }
      // Geneve.
      if (u + kGeneveBaseHeader > udp.end) {
        return Broken(in, udp.Missing(u + kGeneveBaseHeader),
                      "Geneve header truncated");
      }
      if ((b[u] >> 6) != 0) {
        return Broken(in, Reason::kUnsupported, "Geneve version above 0");
      }
      const size_t options = size_t{b[u] & 0x3fu} * 4;
      return ByEtherType(LoadBig16(b + u + kGeneveProtocolOffset), udp,
                         u + kGeneveBaseHeader + options,
                         "Geneve options truncated", in);
    }
    case header::kProtocolICMPv4:
    case header::kProtocolICMPv6:
      if (v4 != (p.transport_protocol == header::kProtocolICMPv4) ||
          t + kICMPHeader >= ip.end || !IsQuotingError(v4, b[t])) {
        return false;
      }
      in = Inner{};
      in.linktype = static_cast<uint32_t>(LinkType::kRaw);
      in.start = t + kICMPHeader;
      in.end = ip.end;
      in.cut = ip.end < declared ? ip.cut : Reason::kBadLength;
      in.quoted = true;
      return true;
    default:
      return false;
  }
}

// Undecoded records the datagram at `depth` whose headers csum cannot read
// (verify.h): one field of layer ip, unverified for `reason` (`quoted` in a
// quote), and `sentence` for the summary.
void Undecoded(FrameCheck& out, uint8_t depth, Reason reason,
               std::string_view sentence, bool quoted) {
  Unverified(out, NextField(out, Layer::kIP, depth),
             quoted ? Reason::kQuoted : reason);
  if (quoted) return;
  out.undecoded_depth = depth;
  out.reason = sentence;
}

// ParseReason is the reason of the `ip` field for a parse that failed,
// `cut` for one cut short.
Reason ParseReason(const ParsedPacket& parsed, Reason cut) {
  switch (parsed.error) {
    case ParseError::kMalformed:
      return Reason::kMalformed;
    case ParseError::kUnsupported:
      return Reason::kUnsupported;
    default:
      return cut;
  }
}

// JudgeParsed judges the datagram `parsed` describes, the parsed bytes
// starting at `base` in `frame` (which ends where the datagram around this
// one ends, `cut` saying why bytes past it are missing), the IP header
// number `depth`. The outermost sets the frame's kind; a quoted one's
// fields are all `quoted`. Returns whether the datagram carries one csum
// follows (or a tunnel header it cannot read), and sets `inner` to it.
bool JudgeParsed(const ParsedPacket& parsed, std::span<const uint8_t> frame,
                 size_t base, bool tso, uint8_t depth, bool quoted, Reason cut,
                 FrameCheck& out, Inner& inner) {
  const bool outermost = depth == 1;
  if (parsed.network == NetworkProtocol::kNone) {
    if (parsed.ok()) {
      // No IP inside (ARP, ...): nothing to judge.
      if (outermost) out.kind = FrameKind::kNotIP;
      return false;
    }
    if (outermost && parsed.has_ethernet) {
      // The captured frame ends or goes wrong before any IP header.
      out.kind = FrameKind::kUndecodable;
      out.reason = parsed.reason;
      return false;
    }
  }
  if (!parsed.ok() && (parsed.error != ParseError::kTruncated ||
                       parsed.network == NetworkProtocol::kNone)) {
    // Fields no valid packet holds, or no IP header at all: nothing can be
    // located with trust.
    if (outermost) out.kind = FrameKind::kUndecodable;
    Undecoded(out, depth, ParseReason(parsed, cut), parsed.reason, quoted);
    return false;
  }
  Datagram d;
  d.frame = frame;
  d.parsed = &parsed;
  d.base = base;
  d.network = d.base + parsed.network_offset;
  d.tso = tso;
  d.depth = depth;
  d.cut = cut;
  d.captured_end = frame.size();
  if (parsed.ok()) {
    d.captured_end = d.network + parsed.captured_ip_bytes;
  } else if (d.network + parsed.ip_length < frame.size() &&
             parsed.ip_length != 0) {
    d.captured_end = d.network + parsed.ip_length;
  }
  const bool v4 = parsed.network == NetworkProtocol::kIPv4;
  if (outermost) {
    out.kind = v4 ? FrameKind::kIPv4 : FrameKind::kIPv6;
    out.reason = parsed.reason;  // empty when ok
  }
  const uint8_t first = out.field_count;
  if (v4) CheckIPv4Header(d, out);
  if (parsed.has_transport_header()) CheckTransport(d, out);
  // An IPv6 header or extension header cut short: no field to report it.
  if (out.field_count == first && !parsed.ok()) {
    Undecoded(out, depth, cut, parsed.reason, quoted);
  }
  if (quoted) {
    for (uint8_t i = first; i < out.field_count; ++i) {
      FieldCheck& f = out.fields[i];
      f.verdict = Verdict::kUnverified;
      f.reason = Reason::kQuoted;
      f.has_computed = false;
      f.computed = 0;
    }
    return false;
  }
  return FindInner(d, inner);
}

// CoversInner reports whether `outer` is a judged checksum whose bytes
// include those of every field at a greater IP depth: a UDP or GRE
// checksum, the only ones csum follows tunnels behind.
bool CoversInner(const FieldCheck& outer) {
  return outer.has_computed &&
         (outer.layer == Layer::kUDP || outer.layer == Layer::kGRE);
}

// CheckInner judges the datagrams inside the outermost one, from `next`
// at IP depth 2 inwards, down to kMaxIPDepth.
void CheckInner(std::span<const uint8_t> frame, Inner next, FrameCheck& out) {
  for (uint8_t depth = 2;; ++depth) {
    if (depth > kMaxIPDepth) {
      out.depth_limited = true;
      return;
    }
    out.tunneled |= !next.quoted;
    if (next.broken != Reason::kNone) {
      return Undecoded(out, depth, next.broken, next.sentence, next.quoted);
    }
    const std::span<const uint8_t> bytes = frame.first(next.end);
    const std::span<const uint8_t> at = bytes.subspan(next.start);
    const LinkDecode link = DecodeLink(next.linktype, at);
    if (link.payload == LinkPayload::kTruncated) {
      return Undecoded(out, depth, next.cut, link.reason, next.quoted);
    }
    if (link.payload != LinkPayload::kEthernet &&
        link.payload != LinkPayload::kIP) {
      return;  // Not IP (ARP, PPP's LCP, ...).
    }
    const ParsedPacket parsed = ParseLinkPayload(link, at);
    Inner inner;
    if (!JudgeParsed(parsed, bytes, next.start + link.offset, false, depth,
                     next.quoted, next.cut, out, inner)) {
      return;
    }
    next = inner;
  }
}

// CheckGeneral is CheckFrameGeneral into `out`, which must be fresh, for
// a frame whose link layer decodes as `link`.
void CheckGeneral(const LinkDecode& link, std::span<const uint8_t> frame,
                  size_t wire_length, FrameCheck& out) {
  switch (link.payload) {
    case LinkPayload::kUnsupported:
      out.kind = FrameKind::kUnsupportedLink;
      return;
    case LinkPayload::kTruncated:
      out.kind = FrameKind::kUndecodable;
      out.reason = link.reason;
      return;
    case LinkPayload::kNotIP:
      out.kind = FrameKind::kNotIP;
      out.reason = link.reason;
      return;
    case LinkPayload::kEthernet:
    case LinkPayload::kIP:
      break;
  }
  // Link-layer trailers (a MACsec ICV, an FCS) are not the packet's.
  frame = LinkPacketBytes(link, frame, wire_length);
  // Built in place by the parse (no default-constructed packet assigned
  // over afterwards).
  const ParsedPacket parsed = ParseLinkPayload(link, frame);
  Inner inner;
  bool found;
  if (IsTsoSuperPacket(parsed, link.offset, frame, wire_length)) {
    found = JudgeParsed(ParseTso(link, parsed, frame), frame, link.offset, true,
                        1, false, Reason::kTruncated, out, inner);
  } else {
    found = JudgeParsed(parsed, frame, link.offset, false, 1, false,
                        Reason::kTruncated, out, inner);
  }
  if (found) CheckInner(frame, inner, out);
}

// CheckFast judges `frame` into `out` (fresh) by CheckFastShape when its
// datagram, at `n`, has the fast shape's IP layer of `family`.
[[gnu::always_inline]] inline bool CheckFast(tcpip::FastFamily family,
                                             std::span<const uint8_t> frame,
                                             size_t n, FrameCheck& out) {
  switch (family) {
    case tcpip::FastFamily::kIPv4:
      return CheckFastShape<true>(frame, n, out);
    case tcpip::FastFamily::kIPv6:
      return CheckFastShape<false>(frame, n, out);
    case tcpip::FastFamily::kNone:
      break;
  }
  return false;
}

// FastOrLink judges `frame` into `out` (fresh) by the fast path and returns
// nullopt, or leaves `out` untouched and returns the frame's link decode,
// from which the general walk goes on.
[[gnu::always_inline]] inline std::optional<LinkDecode> FastOrLink(
    uint32_t linktype, std::span<const uint8_t> frame, FrameCheck& out) {
  // Untagged Ethernet, most frames of most captures, is recognised without
  // a link decode, its offsets constants.
  const bool ethernet = linktype == static_cast<uint32_t>(LinkType::kEthernet);
  if (ethernet &&
      CheckFast(tcpip::FastFamilyOf(frame), frame, tcpip::kFastLink, out)) {
    return std::nullopt;
  }
  // Any other link layer that ends where IP starts and has nothing after
  // the packet (raw IP, Linux cooked headers, loopback, MPLS, ...). The
  // wire length cannot matter to those: a datagram that is exactly the
  // rest of the frame is no TSO super-packet. Untagged Ethernet's datagram
  // was tried above and is not tried again.
  const LinkDecode link = DecodeLink(linktype, frame);
  if (link.payload == LinkPayload::kIP && link.end == 0 && link.trailer == 0 &&
      link.offset <= frame.size() &&
      !(ethernet && link.offset == tcpip::kFastLink) &&
      CheckFast(tcpip::FastIPFamilyOf(frame.subspan(link.offset)), frame,
                link.offset, out)) {
    return std::nullopt;
  }
  return link;
}

}  // namespace

FrameCheck CheckFrame(uint32_t linktype, std::span<const uint8_t> frame,
                      size_t wire_length) {
  FrameCheck out;
  if (const std::optional<LinkDecode> link = FastOrLink(linktype, frame, out)) {
    CheckGeneral(*link, frame, wire_length, out);
  }
  return out;
}

bool CheckFrameFast(uint32_t linktype, std::span<const uint8_t> frame,
                    FrameCheck& out) {
  out = FrameCheck();
  return !FastOrLink(linktype, frame, out).has_value();
}

FrameCheck CheckFrameGeneral(uint32_t linktype, std::span<const uint8_t> frame,
                             size_t wire_length) {
  FrameCheck out;
  CheckGeneral(DecodeLink(linktype, frame), frame, wire_length, out);
  return out;
}

size_t FixFrame(const FrameCheck& check, std::span<uint8_t> frame) {
  // Innermost first: a fixed field changes the sum of every outer UDP or
  // GRE checksum covering it, which is updated before its turn comes.
  std::array<FieldCheck, kMaxFieldsPerFrame> fields;
  std::copy(check.checks().begin(), check.checks().end(), fields.begin());
  // moved[j]: a field fields[j] covers was changed.
  std::array<bool, kMaxFieldsPerFrame> moved{};
  size_t changed = 0;
  for (size_t i = check.field_count; i-- > 0;) {
    const FieldCheck& f = fields[i];
    if (!f.has_stored || !f.has_computed ||
        size_t{f.offset} + 2 > frame.size()) {
      continue;
    }
    const uint16_t old = LoadBig16(frame.data() + f.offset);
    if (f.verdict != Verdict::kBad && !(moved[i] && old != f.computed)) {
      continue;
    }
    checksum::Put(frame.data() + f.offset, f.computed);
    ++changed;
    for (size_t j = 0; j < i; ++j) {
      FieldCheck& outer = fields[j];
      if (outer.ip_depth >= f.ip_depth || !CoversInner(outer)) continue;
      moved[j] = true;
      // RFC 1624 equation 3, HC' = ~(~HC + ~m + m'), with the word taken
      // in the byte order of the outer sum: fields start at an even
      // offset of their header, so the two headers' parity is the fields'.
      uint16_t m = old;
      uint16_t m2 = f.computed;
      if ((f.offset - outer.offset) % 2 != 0) {
        m = ByteSwap16(m);
        m2 = ByteSwap16(m2);
      }
      uint16_t c = static_cast<uint16_t>(~checksum::Combine(
          checksum::Combine(static_cast<uint16_t>(~outer.computed),
                            static_cast<uint16_t>(~m)),
          m2));
      if (outer.layer == Layer::kUDP && c == 0) c = 0xffff;
      outer.computed = c;
    }
  }
  return changed;
}

bool FixMayChange(const FrameCheck& check, const FieldCheck& field) {
  if (field.verdict == Verdict::kBad) return true;
  if (!CoversInner(field)) return false;
  for (const FieldCheck& inner : check.checks()) {
    if (inner.verdict == Verdict::kBad && inner.ip_depth > field.ip_depth) {
      return true;
    }
  }
  return false;
}

}  // namespace ipsum::csum
