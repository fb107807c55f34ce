// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Link-layer header decoding for csum; see link.h. This file dispatches on
// the link type and decodes the small host-side headers (loopback, Linux
// cooked, NFLOG, IPoIB); link_decode.h names the rest.

#include "tools/csum/link.h"

#include <algorithm>

#include "checksum/endian.h"
#include "tools/csum/link_decode.h"

namespace ipsum::csum {
namespace {

using link_internal::Frame;
using link_internal::FromCiscoHdlc;
using link_internal::FromEthernet;
using link_internal::FromFrameRelay;
using link_internal::FromPpp;
using link_internal::FromRadiotap;
using link_internal::FromTypedHeader;
using link_internal::Has;
using link_internal::IP;
using link_internal::LoadLittle32;
using link_internal::NotIP;
using link_internal::Truncated;

// BSD address families (sys/socket.h of each system).
constexpr uint32_t kAfInet = 2;
constexpr uint32_t kAfInet6Linux = 10;
constexpr uint32_t kAfInet6NetBsd = 24;
constexpr uint32_t kAfInet6FreeBsd = 28;
constexpr uint32_t kAfInet6Darwin = 30;

constexpr size_t kLoopbackSize = 4;

// IP over InfiniBand: a 40-byte pseudo-header, then RFC 4391 section 6's
// EtherType(2) and reserved(2).
constexpr size_t kIPoIBTypeOffset = 40;
constexpr size_t kIPoIBSize = 44;

// Linux cooked headers (tcpdump.org/linktypes/LINKTYPE_LINUX_SLL{,2}.html).
// SLL:  packet type(2) ARPHRD(2) address length(2) address(8) protocol(2)
// SLL2: protocol(2) reserved(2) ifindex(4) ARPHRD(2) packet type(1)
//       address length(1) address(8)
constexpr size_t kSllSize = 16;
constexpr size_t kSllProtocolOffset = 14;
constexpr size_t kSll2Size = 20;
constexpr size_t kSll2ProtocolOffset = 0;

constexpr uint8_t kCiscoHdlcUnicast = 0x0f;
constexpr uint8_t kCiscoHdlcMulticast = 0x8f;

LinkDecode FromFamily(uint32_t family, size_t offset) {
  switch (family) {
    case kAfInet:
    case kAfInet6Linux:
    case kAfInet6NetBsd:
    case kAfInet6FreeBsd:
    case kAfInet6Darwin:
      return IP(offset);
    default:
      return NotIP(offset);
  }
}

// Linux NFLOG (tcpdump.org/linktypes/LINKTYPE_NFLOG.html): family(1),
// version(1), resource id(2, big-endian), then TLVs of length(2) and
// type(2) in the capturing host's byte order, the length counting the
// 4-byte TLV header, each TLV padded to 4 bytes.
constexpr size_t kNflogHeaderSize = 4;
constexpr size_t kNflogTlvHeaderSize = 4;
constexpr uint16_t kNflogTypeMask = 0x3fff;  // the NLA_F_ flags cleared
constexpr uint16_t kNfulaPayload = 9;

LinkDecode FromNflog(Frame frame) {
  if (!Has(frame, 0, kNflogHeaderSize)) {
    return Truncated("NFLOG header truncated");
  }
  const uint8_t family = frame[0];
  if (family != kAfInet && family != kAfInet6Linux) {
    return NotIP(kNflogHeaderSize);
  }
  size_t offset = kNflogHeaderSize;
  // Attribute types are small: the byte order whose type has a zero
  // high byte is the host's (little-endian when both or neither do).
  bool big_endian = false;
  if (Has(frame, offset, kNflogTlvHeaderSize)) {
    big_endian = frame[offset + 2] == 0 && frame[offset + 3] != 0;
  }
  auto load16 = [&](size_t at) {
    const uint16_t v = LoadBig16(frame.data() + at);
    return big_endian ? v : ByteSwap16(v);
  };
  for (int tlvs = 0; tlvs < kMaxNflogTlvs; ++tlvs) {
    if (offset == frame.size()) {
      return NotIP(offset, "NFLOG record without a payload");
    }
    if (!Has(frame, offset, kNflogTlvHeaderSize)) {
      return Truncated("NFLOG TLV truncated");
    }
    const size_t length = load16(offset);
    const uint16_t type = load16(offset + 2) & kNflogTypeMask;
    if (length < kNflogTlvHeaderSize) {
      return NotIP(offset, "NFLOG TLV length below 4");
    }
    if (type == kNfulaPayload) {
      LinkDecode d = IP(offset + kNflogTlvHeaderSize);
      d.end = offset + length;
      return d;
    }
    offset += (length + 3) & ~size_t{3};
    if (offset > frame.size()) return Truncated("NFLOG TLV truncated");
  }
  return NotIP(offset, "NFLOG record with more than 64 TLVs");
}

}  // namespace

std::string_view LinkTypeName(uint32_t linktype) {
  switch (static_cast<LinkType>(linktype)) {
    case LinkType::kNull:
      return "null";
    case LinkType::kEthernet:
      return "ethernet";
    case LinkType::kPpp:
      return "ppp";
    case LinkType::kPppHdlc:
      return "ppp_hdlc";
    case LinkType::kRaw:
      return "raw";
    case LinkType::kCiscoHdlc:
      return "c_hdlc";
    case LinkType::kFrameRelay:
      return "frelay";
    case LinkType::kLoop:
      return "loop";
    case LinkType::kLinuxSll:
      return "linux_sll";
    case LinkType::kRadiotap:
      return "ieee802_11_radiotap";
    case LinkType::kIPv4:
      return "ipv4";
    case LinkType::kIPv6:
      return "ipv6";
    case LinkType::kNflog:
      return "nflog";
    case LinkType::kIPoIB:
      return "ipoib";
    case LinkType::kLinuxSll2:
      return "linux_sll2";
  }
  return {};
}

bool IsSupportedLinkType(uint32_t linktype) {
  return !LinkTypeName(linktype).empty();
}

LinkDecode DecodeLink(uint32_t linktype, std::span<const uint8_t> frame) {
  switch (static_cast<LinkType>(linktype)) {
    case LinkType::kEthernet:
      return FromEthernet(frame, 0, 0);
    case LinkType::kRaw:
    case LinkType::kIPv4:
    case LinkType::kIPv6:
      // The IP parser checks the version against what it finds.
      return IP(0);
    case LinkType::kNull: {
      if (!Has(frame, 0, kLoopbackSize)) {
        return Truncated("loopback header truncated");
      }
      uint32_t family = LoadLittle32(frame.data());
      if ((family & 0xffff) == 0) family = ByteSwap32(family);
      return FromFamily(family, kLoopbackSize);
    }
    case LinkType::kLoop:
      if (!Has(frame, 0, kLoopbackSize)) {
        return Truncated("loopback header truncated");
      }
      return FromFamily(LoadBig32(frame.data()), kLoopbackSize);
    case LinkType::kLinuxSll:
      return FromTypedHeader(frame, kSllSize, kSllProtocolOffset,
                             "Linux SLL header truncated");
    case LinkType::kLinuxSll2:
      return FromTypedHeader(frame, kSll2Size, kSll2ProtocolOffset,
                             "Linux SLL2 header truncated");
    case LinkType::kPpp:
      return FromPpp(frame);
    case LinkType::kPppHdlc:
      if (Has(frame, 0, 1) &&
          (frame[0] == kCiscoHdlcUnicast || frame[0] == kCiscoHdlcMulticast)) {
        return FromCiscoHdlc(frame);
      }
      return FromPpp(frame);
    case LinkType::kCiscoHdlc:
      return FromCiscoHdlc(frame);
    case LinkType::kFrameRelay:
      return FromFrameRelay(frame);
    case LinkType::kNflog:
      return FromNflog(frame);
    case LinkType::kIPoIB:
      return FromTypedHeader(frame, kIPoIBSize, kIPoIBTypeOffset,
                             "IPoIB header truncated");
    case LinkType::kRadiotap:
      return FromRadiotap(frame);
  }
  return {LinkPayload::kUnsupported, 0, 0, 0, {}};
}

std::span<const uint8_t> LinkPacketBytes(const LinkDecode& link,
                                         std::span<const uint8_t> frame,
                                         size_t& wire_length) {
  if (link.end == 0 && link.trailer == 0) return frame;
  const size_t sent = wire_length != 0 ? wire_length : frame.size();
  size_t end = 0;
  if (link.end != 0) {
    end = std::min(link.end, sent);
  } else if (sent > link.trailer) {
    end = sent - link.trailer;
  }
  end = std::max(end, std::min(link.offset, frame.size()));
  if (wire_length != 0) wire_length = end;
  return frame.first(std::min(end, frame.size()));
}

}  // namespace ipsum::csum
