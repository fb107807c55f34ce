// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// The link-layer headers a capture can start its packets with, decoded far
// enough to find the IP packet behind them. Link types are the LINKTYPE_
// values a pcap or pcapng file stores (tcpdump.org/linktypes.html), not the
// DLT_ values libpcap hands out, which differ between systems for raw IP
// (DLT_RAW is 12 or 14) and loopback.
//
// Every EtherType met, in an Ethernet frame or behind another link header,
// goes through one decoder: up to two VLAN tags, then the shims csum steps
// over (MPLS, PPPoE session, MACsec without encryption, Cisco FabricPath,
// Arista's timestamp header, NSH), each of which may lead to IP, to another
// shim or to an inner Ethernet frame (bounded by kMaxLinkDepth). An Ethernet
// frame that carries IP directly is left whole to tcpip::ParseEthernet.
//
// No libpcap here: this compiles and is tested on every target, big-endian
// mips64 included.

#ifndef IPSUM_TOOLS_CSUM_LINK_H_
#define IPSUM_TOOLS_CSUM_LINK_H_

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace ipsum::csum {

// LinkType is a LINKTYPE_ value: the link-layer header type of a capture.
// Only the types below are decoded; others are counted as "unsupported".
enum class LinkType : uint32_t {
  // kNull is BSD loopback: a 4-byte address family in the capturing host's
  // byte order.
  kNull = 0,
  // kEthernet is Ethernet II, with or without 802.1Q / 802.1ad tags and the
  // shims named in the file comment.
  kEthernet = 1,
  // kPpp is PPP (RFC 1661), with or without the 0xff 0x03 address and
  // control bytes of HDLC-like framing; a 1-byte protocol field (RFC 1661
  // protocol-field compression) is accepted.
  kPpp = 9,
  // kPppHdlc is PPP in HDLC-like framing (RFC 1662; first byte 0xff) or
  // Cisco PPP with HDLC framing (first byte 0x0f or 0x8f).
  kPppHdlc = 50,
  // kRaw is raw IP, version taken from the first nibble.
  kRaw = 101,
  // kCiscoHdlc is Cisco HDLC: address, control, then an EtherType.
  kCiscoHdlc = 104,
  // kFrameRelay is Frame Relay: a 2- to 4-byte Q.922 address, then either
  // RFC 2427 multiprotocol encapsulation (control 0x03, NLPID IPv4, IPv6
  // or SNAP) or Cisco's (an EtherType).
  kFrameRelay = 107,
  // kLoop is OpenBSD loopback: kNull with the family in network order.
  kLoop = 108,
  // kLinuxSll is the Linux "cooked" header, version 1 (16 bytes).
  kLinuxSll = 113,
  // kRadiotap is 802.11 behind a radiotap header: unencrypted data and
  // QoS data frames with an RFC 1042 or 802.1H LLC/SNAP header. An FCS the
  // radiotap Flags field announces is left out of the packet.
  kRadiotap = 127,
  // kIPv4 is raw IPv4.
  kIPv4 = 228,
  // kIPv6 is raw IPv6.
  kIPv6 = 229,
  // kNflog is Linux NFLOG: a 4-byte header (address family, version,
  // resource id), then TLVs in the capturing host's byte order, one of
  // which (NFULA_PAYLOAD) holds the packet.
  kNflog = 239,
  // kIPoIB is IP over InfiniBand as Solaris writes it and Wireshark reads
  // it: a 40-byte pseudo-header (a received packet's GRH, or a sent one's
  // destination address), then RFC 4391 section 6's 2-byte EtherType and 2
  // reserved bytes.
  kIPoIB = 242,
  // kLinuxSll2 is the Linux "cooked" header, version 2 (20 bytes).
  kLinuxSll2 = 276,
};

// kMaxLinkDepth bounds the link-layer headers DecodeLink follows inside one
// frame (shims and inner Ethernet frames, not counting VLAN tags or MPLS
// labels, which have their own bounds): a frame nested deeper is not IP.
inline constexpr int kMaxLinkDepth = 8;

// kMaxMplsLabels bounds an MPLS label stack.
inline constexpr int kMaxMplsLabels = 16;

// kMaxNflogTlvs bounds the TLVs of an NFLOG record read before its payload.
inline constexpr int kMaxNflogTlvs = 64;

// kMacsecIcvSize is the Integrity Check Value at the end of a MACsec frame
// (the 16 bytes of the default cipher suites, GCM-AES-128 and -256).
inline constexpr size_t kMacsecIcvSize = 16;

// LinkTypeName returns a short stable name for `linktype` ("ethernet",
// "raw", "linux_sll", ...), or an empty view for a type DecodeLink does not
// know.
std::string_view LinkTypeName(uint32_t linktype);

// IsSupportedLinkType reports whether DecodeLink knows `linktype`.
bool IsSupportedLinkType(uint32_t linktype);

// LinkPayload is what DecodeLink found in a frame.
enum class LinkPayload : uint8_t {
  // kEthernet: an Ethernet frame that carries IP (or something else, but
  // no shim) starts at `offset`; give frame[offset..] to
  // tcpip::ParseEthernet, which walks its VLAN tags. `offset` is 0 unless
  // the frame is an inner one (behind FabricPath, an MPLS pseudowire, NSH).
  kEthernet,
  // kIP: an IP packet (either version) starts at `offset`.
  kIP,
  // kNotIP: the link layer carries something else (ARP, LCP, an 802.11
  // management frame, ...) or something csum cannot follow (an encrypted
  // MACsec or 802.11 frame, a label stack too deep); `reason` says which
  // for the latter.
  kNotIP,
  // kTruncated: the frame ends inside a link-layer header; `reason` names it.
  kTruncated,
  // kUnsupported: DecodeLink does not know the link type.
  kUnsupported,
};

// LinkDecode is the result of DecodeLink.
struct LinkDecode {
  LinkPayload payload = LinkPayload::kUnsupported;
  // offset is where the Ethernet frame (kEthernet) or IP packet (kIP)
  // starts in the frame.
  size_t offset = 0;
  // end, when nonzero, is where the packet ends in the frame as sent,
  // because a length field of the link layer says so (PPPoE, NFLOG, a
  // MACsec short length). It may lie past the captured bytes.
  size_t end = 0;
  // trailer is the number of bytes at the end of the frame as sent that
  // follow the packet (a MACsec ICV, an 802.11 FCS); used when `end` is 0.
  size_t trailer = 0;
  // reason is a fixed sentence for kTruncated and for a kNotIP frame csum
  // cannot follow; empty otherwise.
  std::string_view reason;
};

// DecodeLink reads the link-layer headers of `frame`, a packet of link type
// `linktype`, and says where its IP packet starts. It reads no byte outside
// `frame`, does not allocate, and every loop in it is bounded.
//
// For BSD loopback (kNull) the family is in the byte order of the machine
// that captured, which the file does not record: a value whose low 16 bits
// are zero is taken as big-endian (families are small numbers). AF_INET is 2
// everywhere; AF_INET6 is 10 (Linux), 24 (NetBSD, OpenBSD), 28 (FreeBSD) or
// 30 (macOS) and all four are accepted, as libpcap's own filters do. NFLOG's
// TLV byte order is guessed the same way, from its first TLV's type.
LinkDecode DecodeLink(uint32_t linktype, std::span<const uint8_t> frame);

// LinkPacketBytes returns the captured bytes of `frame` up to where the
// packet `link` found ends (before `link.end` or `link.trailer`), so that
// offsets into it stay those of the frame, and sets `wire_length` (the
// frame's length as sent) to the packet's end as sent. A `wire_length` of 0
// means unknown: the frame is taken as not cut, and 0 is left.
std::span<const uint8_t> LinkPacketBytes(const LinkDecode& link,
                                         std::span<const uint8_t> frame,
                                         size_t& wire_length);

}  // namespace ipsum::csum

#endif  // IPSUM_TOOLS_CSUM_LINK_H_
