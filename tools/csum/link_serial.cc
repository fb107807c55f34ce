// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// PPP, Cisco HDLC and Frame Relay for csum's link-layer decoding; see
// link.h.

#include "checksum/endian.h"
#include "tools/csum/link.h"
#include "tools/csum/link_decode.h"

namespace ipsum::csum::link_internal {
namespace {

// PPP protocol numbers (RFC 1661, IANA PPP DLL protocol numbers).
constexpr uint16_t kPppIPv4 = 0x0021;
constexpr uint16_t kPppIPv6 = 0x0057;
constexpr uint16_t kPppMpls = 0x0281;
constexpr uint16_t kPppMplsMulticast = 0x0283;
constexpr uint8_t kHdlcAllStations = 0xff;
constexpr size_t kCiscoHdlcSize = 4;  // address, control, EtherType
constexpr size_t kCiscoHdlcTypeOffset = 2;

// Frame Relay (ITU-T Q.922 address, RFC 2427 encapsulation).
constexpr size_t kQ922MaxAddress = 4;
constexpr uint8_t kNlpidPad = 0x00;
constexpr uint8_t kNlpidSnap = 0x80;
constexpr uint8_t kNlpidIPv4 = 0xcc;
constexpr uint8_t kNlpidIPv6 = 0x8e;
constexpr size_t kSnapSize = 5;  // OUI(3), then the EtherType

}  // namespace

// The protocol field is two bytes, or one when protocol-field compression
// left out a leading zero (a protocol's low byte is odd, its high byte
// even).
LinkDecode FromPppProtocol(Frame frame, size_t offset, int depth) {
  if (!Has(frame, offset, 1)) return Truncated("PPP header truncated");
  uint16_t protocol = frame[offset];
  if ((protocol & 1) != 0) {
    offset += 1;
  } else {
    if (!Has(frame, offset, 2)) return Truncated("PPP header truncated");
    protocol = LoadBig16(frame.data() + offset);
    offset += 2;
  }
  switch (protocol) {
    case kPppIPv4:
    case kPppIPv6:
      return IP(offset);
    case kPppMpls:
    case kPppMplsMulticast:
      return FromEtherType(frame, kEtherTypeMpls, offset, depth + 1);
    default:
      return NotIP(offset);
  }
}

// Cisco HDLC: address, control, EtherType.
LinkDecode FromCiscoHdlc(Frame frame) {
  return FromTypedHeader(frame, kCiscoHdlcSize, kCiscoHdlcTypeOffset,
                         "Cisco HDLC header truncated");
}

// PPP, with or without HDLC-like address and control bytes.
LinkDecode FromPpp(Frame frame) {
  size_t offset = 0;
  if (Has(frame, 0, 2) && frame[0] == kHdlcAllStations && frame[1] == kHdlcUi) {
    offset = 2;
  }
  return FromPppProtocol(frame, offset, 0);
}

LinkDecode FromFrameRelay(Frame frame) {
  // The address ends with the byte whose EA bit (bit 0) is set.
  size_t offset = 0;
  for (;;) {
    if (!Has(frame, offset, 1)) {
      return Truncated("Frame Relay address truncated");
    }
    if ((frame[offset++] & 0x01) != 0) break;
    if (offset == kQ922MaxAddress) {
      return NotIP(offset, "Frame Relay address longer than 4 bytes");
    }
  }
  if (offset < 2) return NotIP(offset, "Frame Relay address shorter than 2");
  if (!Has(frame, offset, 2)) return Truncated("Frame Relay header truncated");
  if (frame[offset] != kHdlcUi) {
    // Cisco's encapsulation: an EtherType right after the address.
    return FromEtherType(frame, LoadBig16(frame.data() + offset), offset + 2,
                         0);
  }
  ++offset;
  if (frame[offset] == kNlpidPad) ++offset;
  if (!Has(frame, offset, 1)) return Truncated("Frame Relay header truncated");
  const uint8_t nlpid = frame[offset++];
  switch (nlpid) {
    case kNlpidIPv4:
    case kNlpidIPv6:
      return IP(offset);
    case kNlpidSnap:
      if (!Has(frame, offset, kSnapSize)) {
        return Truncated("Frame Relay SNAP header truncated");
      }
      if (frame[offset] != 0 || frame[offset + 1] != 0 ||
          frame[offset + 2] != 0) {
        return NotIP(offset);  // an OUI's own protocol
      }
      return FromEtherType(frame, LoadBig16(frame.data() + offset + 3),
                           offset + kSnapSize, 0);
    default:
      return NotIP(offset);
  }
}

}  // namespace ipsum::csum::link_internal
