// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Link-layer header decoding for csum; see link.h.

#include "tools/csum/link.h"

#include "checksum/endian.h"

namespace ipsum::csum {
namespace {

constexpr uint16_t kEtherTypeIPv4 = 0x0800;
constexpr uint16_t kEtherTypeIPv6 = 0x86dd;

// BSD address families (sys/socket.h of each system).
constexpr uint32_t kAfInet = 2;
constexpr uint32_t kAfInet6Linux = 10;
constexpr uint32_t kAfInet6NetBsd = 24;
constexpr uint32_t kAfInet6FreeBsd = 28;
constexpr uint32_t kAfInet6Darwin = 30;

// Linux cooked headers (tcpdump.org/linktypes/LINKTYPE_LINUX_SLL{,2}.html).
// SLL:  packet type(2) ARPHRD(2) address length(2) address(8) protocol(2)
// SLL2: protocol(2) reserved(2) ifindex(4) ARPHRD(2) packet type(1)
//       address length(1) address(8)
constexpr size_t kSllSize = 16;
constexpr size_t kSllProtocolOffset = 14;
constexpr size_t kSll2Size = 20;
constexpr size_t kSll2ProtocolOffset = 0;

constexpr size_t kLoopbackSize = 4;

constexpr uint16_t kEtherTypeVlan = 0x8100;  // 802.1Q
constexpr uint16_t kEtherTypeQinQ = 0x88a8;  // 802.1ad
constexpr size_t kVlanTagSize = 4;           // TCI, then the next type
constexpr int kMaxVlanTags = 2;

// FromEtherType continues after a cooked header whose protocol field is
// `ether_type` and which ends at `offset`. A VLAN tag the kernel left in
// the packet (protocol 0x8100 or 0x88a8) is followed by its own type.
LinkDecode FromEtherType(std::span<const uint8_t> frame, uint16_t ether_type,
                         size_t offset) {
  for (int tags = 0;
       (ether_type == kEtherTypeVlan || ether_type == kEtherTypeQinQ) &&
       tags < kMaxVlanTags;
       ++tags) {
    if (frame.size() < offset + kVlanTagSize) {
      return {LinkPayload::kTruncated, 0};
    }
    ether_type = LoadBig16(frame.data() + offset + 2);
    offset += kVlanTagSize;
  }
  if (ether_type == kEtherTypeIPv4 || ether_type == kEtherTypeIPv6) {
    return {LinkPayload::kIP, offset};
  }
  return {LinkPayload::kNotIP, offset};
}

LinkDecode FromFamily(uint32_t family) {
  switch (family) {
    case kAfInet:
    case kAfInet6Linux:
    case kAfInet6NetBsd:
    case kAfInet6FreeBsd:
    case kAfInet6Darwin:
      return {LinkPayload::kIP, kLoopbackSize};
    default:
      return {LinkPayload::kNotIP, kLoopbackSize};
  }
}

}  // namespace

std::string_view LinkTypeName(uint32_t linktype) {
  switch (static_cast<LinkType>(linktype)) {
    case LinkType::kNull:
      return "null";
    case LinkType::kEthernet:
      return "ethernet";
    case LinkType::kRaw:
      return "raw";
    case LinkType::kLoop:
      return "loop";
    case LinkType::kLinuxSll:
      return "linux_sll";
    case LinkType::kIPv4:
      return "ipv4";
    case LinkType::kIPv6:
      return "ipv6";
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
      return {LinkPayload::kEthernet, 0};
    case LinkType::kRaw:
    case LinkType::kIPv4:
    case LinkType::kIPv6:
      // The IP parser checks the version against what it finds.
      return {LinkPayload::kIP, 0};
    case LinkType::kNull: {
      if (frame.size() < kLoopbackSize) return {LinkPayload::kTruncated, 0};
      uint32_t family = ByteSwap32(LoadBig32(frame.data()));  // as if LE
      if ((family & 0xffff) == 0) family = ByteSwap32(family);
      return FromFamily(family);
    }
    case LinkType::kLoop:
      if (frame.size() < kLoopbackSize) return {LinkPayload::kTruncated, 0};
      return FromFamily(LoadBig32(frame.data()));
    case LinkType::kLinuxSll:
      if (frame.size() < kSllSize) return {LinkPayload::kTruncated, 0};
      return FromEtherType(frame, LoadBig16(frame.data() + kSllProtocolOffset),
                           kSllSize);
    case LinkType::kLinuxSll2:
      if (frame.size() < kSll2Size) return {LinkPayload::kTruncated, 0};
      return FromEtherType(frame, LoadBig16(frame.data() + kSll2ProtocolOffset),
                           kSll2Size);
  }
  return {LinkPayload::kUnsupported, 0};
}

}  // namespace ipsum::csum
