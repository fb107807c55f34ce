// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// EtherTypes for csum's link-layer decoding: VLAN tags and the shims
// between Ethernet and IP; see link.h.

#include <optional>

#include "checksum/endian.h"
#include "tools/csum/link.h"
#include "tools/csum/link_decode.h"

namespace ipsum::csum::link_internal {
namespace {

constexpr uint16_t kEtherTypeVlan = 0x8100;  // 802.1Q
constexpr uint16_t kEtherTypeQinQ = 0x88a8;  // 802.1ad
constexpr uint16_t kEtherTypeMplsMulticast = 0x8848;
constexpr uint16_t kEtherTypePppoeSession = 0x8864;
constexpr uint16_t kEtherTypeMacsec = 0x88e5;
constexpr uint16_t kEtherTypeFabricPath = 0x8903;
constexpr uint16_t kEtherTypeNsh = 0x894f;
constexpr uint16_t kEtherTypeArista = 0xd28b;

constexpr size_t kEthernetAddresses = 12;  // destination, source
constexpr size_t kVlanTagSize = 4;         // TCI, then the next type
constexpr int kMaxVlanTags = 2;

// SkipVlanTags steps over up to kMaxVlanTags 802.1Q / 802.1ad tags whose
// TPID is `type`, leaving `type` and `offset` at the type that follows.
// Returns false if the frame ends inside a tag.
bool SkipVlanTags(Frame frame, uint16_t& type, size_t& offset) {
  for (int tags = 0; (type == kEtherTypeVlan || type == kEtherTypeQinQ) &&
                     tags < kMaxVlanTags;
       ++tags) {
    if (!Has(frame, offset, kVlanTagSize)) return false;
    type = LoadBig16(frame.data() + offset + 2);
    offset += kVlanTagSize;
  }
  return true;
}

// CarriesIP reports whether the Ethernet header at `start` has, after its
// VLAN tags, the type of IPv4 or IPv6.
bool CarriesIP(Frame frame, size_t start) {
  size_t offset = start + kEthernetAddresses;
  if (!Has(frame, offset, 2)) return false;
  uint16_t type = LoadBig16(frame.data() + offset);
  offset += 2;
  return SkipVlanTags(frame, type, offset) &&
         (type == kEtherTypeIPv4 || type == kEtherTypeIPv6);
}

// MPLS (RFC 3032): 4-byte label stack entries up to the one with the
// bottom-of-stack bit. What follows carries no type, so it is guessed from
// its first nibble, as tshark does: 4 or 6 is IP; 0 is an Ethernet
// pseudowire, either behind a control word (RFC 4385) or without one (a
// destination address starting with 0x0). tshark picks between the two
// by its OUI database; csum takes the frame without a control word if it
// carries IP, else the one behind it.
constexpr size_t kMplsEntrySize = 4;
constexpr size_t kPwControlWordSize = 4;

LinkDecode FromMpls(Frame frame, size_t offset, int depth) {
  for (int labels = 0;; ++labels) {
    if (labels == kMaxMplsLabels) {
      return NotIP(offset, "MPLS label stack deeper than 16 labels");
    }
    if (!Has(frame, offset, kMplsEntrySize)) {
      return Truncated("MPLS label stack truncated");
    }
    const bool bottom = (frame[offset + 2] & 0x01) != 0;
    offset += kMplsEntrySize;
    if (bottom) break;
  }
  if (!Has(frame, offset, 1)) return Truncated("MPLS payload missing");
  switch (frame[offset] >> 4) {
    case 4:
    case 6:
      return IP(offset);
    case 0:
      if (CarriesIP(frame, offset))
        return FromEthernet(frame, offset, depth + 1);
      if (!Has(frame, offset, kPwControlWordSize)) {
        return Truncated("pseudowire control word truncated");
      }
      return FromEthernet(frame, offset + kPwControlWordSize, depth + 1);
    default:
      return NotIP(offset, "MPLS payload is neither IP nor a pseudowire");
  }
}

// PPPoE session stage (RFC 2516): version/type 0x11, code 0, session id,
// length of the PPP frame, then PPP's protocol field.
constexpr size_t kPppoeSize = 6;
constexpr uint8_t kPppoeVersionType = 0x11;

LinkDecode FromPppoe(Frame frame, size_t offset, int depth) {
  if (!Has(frame, offset, kPppoeSize)) {
    return Truncated("PPPoE header truncated");
  }
  if (frame[offset] != kPppoeVersionType || frame[offset + 1] != 0) {
    return NotIP(offset, "PPPoE header is not a version 1 session frame");
  }
  const size_t end = offset + kPppoeSize + LoadBig16(frame.data() + offset + 4);
  LinkDecode d = FromPppProtocol(frame, offset + kPppoeSize, depth);
  if (d.payload == LinkPayload::kIP && d.end == 0) d.end = end;
  return d;
}

// MACsec (IEEE 802.1AE) SecTAG after its EtherType: TCI/AN(1), short
// length(1), packet number(4), and an 8-byte SCI when TCI.SC is set. With
// TCI.E and TCI.C clear the secure data is the plaintext frame body,
// starting with its own EtherType, and an ICV follows it.
constexpr size_t kSecTagSize = 6;
constexpr size_t kSciSize = 8;
constexpr uint8_t kTciVersion = 0x80;
constexpr uint8_t kTciSc = 0x20;
constexpr uint8_t kTciEncrypted = 0x08;
constexpr uint8_t kTciChanged = 0x04;
constexpr uint8_t kShortLengthMask = 0x3f;

LinkDecode FromMacsec(Frame frame, size_t offset, int depth) {
  if (!Has(frame, offset, kSecTagSize)) {
    return Truncated("MACsec SecTAG truncated");
  }
  const uint8_t tci = frame[offset];
  if ((tci & kTciVersion) != 0) {
    return NotIP(offset, "MACsec SecTAG of an unknown version");
  }
  if ((tci & (kTciEncrypted | kTciChanged)) != 0) {
    return NotIP(offset, "MACsec frame is encrypted");
  }
  const size_t short_length = frame[offset + 1] & kShortLengthMask;
  offset += kSecTagSize + ((tci & kTciSc) != 0 ? kSciSize : 0);
  const size_t data = offset;
  if (!Has(frame, offset, 2)) return Truncated("MACsec SecTAG truncated");
  LinkDecode d = FromEtherType(frame, LoadBig16(frame.data() + offset),
                               offset + 2, depth + 1);
  if (d.end == 0 && d.trailer == 0) {
    if (short_length != 0) {
      d.end = data + short_length;
    } else {
      d.trailer = kMacsecIcvSize;
    }
  }
  return d;
}

// Arista's timestamp header (EtherType 0xd28b), as tcpdump reads it:
// subtype(2) 0x0001, version(2), then a 64-bit (versions 0x0010, 0x0110)
// or 48-bit (0x0020, 0x0120) timestamp, then the frame's own EtherType.
constexpr size_t kAristaSize = 4;
constexpr uint16_t kAristaTimestamp = 0x0001;

LinkDecode FromArista(Frame frame, size_t offset, int depth) {
  if (!Has(frame, offset, kAristaSize)) {
    return Truncated("Arista header truncated");
  }
  const uint16_t subtype = LoadBig16(frame.data() + offset);
  const uint16_t version = LoadBig16(frame.data() + offset + 2);
  size_t stamp = 0;
  if (subtype == kAristaTimestamp) {
    switch (version) {
      case 0x0010:
      case 0x0110:
        stamp = 8;
        break;
      case 0x0020:
      case 0x0120:
        stamp = 6;
        break;
    }
  }
  if (stamp == 0) {
    return NotIP(offset, "Arista header of an unknown subtype or version");
  }
  offset += kAristaSize + stamp;
  if (!Has(frame, offset, 2)) return Truncated("Arista header truncated");
  return FromEtherType(frame, LoadBig16(frame.data() + offset), offset + 2,
                       depth + 1);
}

// NSH (RFC 8300): version(2 bits) O U TTL(6) length(6, in 4-byte words,
// the whole NSH header) U(4) MD type(4) next protocol(8), then the service
// path header and context headers up to `length`.
constexpr size_t kNshMinSize = 8;
enum NshNext : uint8_t {
  kNshIPv4 = 1,
  kNshIPv6 = 2,
  kNshEthernet = 3,
  kNshNsh = 4,
  kNshMpls = 5,
};

LinkDecode FromNsh(Frame frame, size_t offset, int depth) {
  if (!Has(frame, offset, 4)) return Truncated("NSH header truncated");
  if ((frame[offset] >> 6) != 0) {
    return NotIP(offset, "NSH header of an unknown version");
  }
  const size_t length = size_t{frame[offset + 1] & 0x3fu} * 4;
  const uint8_t next = frame[offset + 3];
  if (length < kNshMinSize) return NotIP(offset, "NSH length below 8 bytes");
  if (!Has(frame, offset, length)) return Truncated("NSH header truncated");
  offset += length;
  switch (next) {
    case kNshIPv4:
    case kNshIPv6:
      return IP(offset);
    case kNshEthernet:
      return FromEthernet(frame, offset, depth + 1);
    case kNshNsh:
      return FromEtherType(frame, kEtherTypeNsh, offset, depth + 1);
    case kNshMpls:
      return FromEtherType(frame, kEtherTypeMpls, offset, depth + 1);
    default:
      return NotIP(offset);
  }
}

// FromShim decodes the shim of EtherType `type` whose header starts at
// `offset`, or returns nothing if `type` names no shim.
std::optional<LinkDecode> FromShim(Frame frame, uint16_t type, size_t offset,
                                   int depth) {
  if (depth >= kMaxLinkDepth) {
    return NotIP(offset, "link-layer headers nested more than 8 deep");
  }
  switch (type) {
    case kEtherTypeMpls:
    case kEtherTypeMplsMulticast:
      return FromMpls(frame, offset, depth);
    case kEtherTypePppoeSession:
      return FromPppoe(frame, offset, depth);
    case kEtherTypeMacsec:
      return FromMacsec(frame, offset, depth);
    case kEtherTypeArista:
      return FromArista(frame, offset, depth);
    case kEtherTypeNsh:
      return FromNsh(frame, offset, depth);
    case kEtherTypeFabricPath:
      // Cisco FabricPath: the outer addresses and this type are followed
      // by a 2-byte FTag/TTL, then the inner Ethernet frame.
      if (!Has(frame, offset, 2)) return Truncated("FabricPath tag truncated");
      return FromEthernet(frame, offset + 2, depth + 1);
  }
  return std::nullopt;
}

}  // namespace

LinkDecode FromEthernet(Frame frame, size_t start, int depth) {
  const LinkDecode whole{LinkPayload::kEthernet, start, 0, 0, {}};
  size_t offset = start + kEthernetAddresses;
  if (!Has(frame, offset, 2)) return whole;
  uint16_t type = LoadBig16(frame.data() + offset);
  // Untagged IP, most frames of most captures, needs no walk.
  if (type == kEtherTypeIPv4 || type == kEtherTypeIPv6) return whole;
  offset += 2;
  if (!SkipVlanTags(frame, type, offset)) return whole;
  return FromShim(frame, type, offset, depth).value_or(whole);
}

LinkDecode FromEtherType(Frame frame, uint16_t type, size_t offset, int depth) {
  if (!SkipVlanTags(frame, type, offset)) {
    return Truncated("VLAN tag truncated");
  }
  if (type == kEtherTypeIPv4 || type == kEtherTypeIPv6) return IP(offset);
  return FromShim(frame, type, offset, depth).value_or(NotIP(offset));
}

LinkDecode FromTypedHeader(Frame frame, size_t size, size_t type_offset,
                           std::string_view truncated) {
  if (!Has(frame, 0, size)) return Truncated(truncated);
  return FromEtherType(frame, LoadBig16(frame.data() + type_offset), size, 0);
}

}  // namespace ipsum::csum::link_internal
