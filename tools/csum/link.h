// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// The link-layer headers a capture can start its packets with, decoded far
// enough to find the IP packet behind them. Link types are the LINKTYPE_
// values a pcap or pcapng file stores (tcpdump.org/linktypes.html), not the
// DLT_ values libpcap hands out, which differ between systems for raw IP
// (DLT_RAW is 12 or 14) and loopback; the capture reader maps them
// (LinkTypeFromDlt). Ethernet frames are left whole to tcpip::ParseEthernet,
// which walks their VLAN tags; every other link header is tiny and decoded
// here, and the IP packet after it goes to tcpip::ParseIP.
//
// No libpcap here: this compiles and is tested on every target, big-endian
// mips64 included.

#ifndef IPSUM_TOOLS_CSUM_LINK_H_
#define IPSUM_TOOLS_CSUM_LINK_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace ipsum::csum {

// LinkType is a LINKTYPE_ value: the link-layer header type of a capture.
// Only the types below are decoded; others are counted as "not IP".
enum class LinkType : uint32_t {
  // kNull is BSD loopback: a 4-byte address family in the capturing host's
  // byte order.
  kNull = 0,
  // kEthernet is Ethernet II, with or without 802.1Q / 802.1ad tags.
  kEthernet = 1,
  // kRaw is raw IP, version taken from the first nibble.
  kRaw = 101,
  // kLoop is OpenBSD loopback: kNull with the family in network order.
  kLoop = 108,
  // kLinuxSll is the Linux "cooked" header, version 1 (16 bytes). For
  // both versions, up to two VLAN tags left in the packet (protocol 0x8100
  // or 0x88a8) are stepped over.
  kLinuxSll = 113,
  // kIPv4 is raw IPv4.
  kIPv4 = 228,
  // kIPv6 is raw IPv6.
  kIPv6 = 229,
  // kLinuxSll2 is the Linux "cooked" header, version 2 (20 bytes).
  kLinuxSll2 = 276,
};

// LinkTypeName returns a short stable name for `linktype` ("ethernet",
// "raw", "linux_sll", ...), or an empty view for a type DecodeLink does not
// know.
std::string_view LinkTypeName(uint32_t linktype);

// IsSupportedLinkType reports whether DecodeLink knows `linktype`.
bool IsSupportedLinkType(uint32_t linktype);

// LinkPayload is what DecodeLink found in a frame.
enum class LinkPayload : uint8_t {
  // kEthernet: the frame is an Ethernet frame; give all of it to
  // tcpip::ParseEthernet.
  kEthernet,
  // kIP: an IP packet (either version) starts at `offset`.
  kIP,
  // kNotIP: the link header names another protocol (ARP, ...).
  kNotIP,
  // kTruncated: the frame ends inside the link-layer header.
  kTruncated,
  // kUnsupported: DecodeLink does not know the link type.
  kUnsupported,
};

// LinkDecode is the result of DecodeLink.
struct LinkDecode {
  LinkPayload payload = LinkPayload::kUnsupported;
  // offset is where the network-layer packet starts in the frame (0 for
  // kEthernet: the whole frame is passed on).
  size_t offset = 0;
};

// DecodeLink reads the link-layer header of `frame`, a packet of link type
// `linktype`, and says where its IP packet starts. It reads no byte outside
// `frame`.
//
// For BSD loopback (kNull) the family is in the byte order of the machine
// that captured, which the file does not record: a value whose low 16 bits
// are zero is taken as big-endian (families are small numbers). AF_INET is 2
// everywhere; AF_INET6 is 10 (Linux), 24 (NetBSD, OpenBSD), 28 (FreeBSD) or
// 30 (macOS) and all four are accepted, as libpcap's own filters do.
LinkDecode DecodeLink(uint32_t linktype, std::span<const uint8_t> frame);

}  // namespace ipsum::csum

#endif  // IPSUM_TOOLS_CSUM_LINK_H_
