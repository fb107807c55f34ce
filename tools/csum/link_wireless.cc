// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Radiotap and 802.11 for csum's link-layer decoding; see link.h.

#include "checksum/endian.h"
#include "tools/csum/link.h"
#include "tools/csum/link_decode.h"

namespace ipsum::csum::link_internal {
namespace {

// Radiotap (radiotap.org): version(1) pad(1) length(2) present(4), all
// little-endian, more present words while bit 31 is set; the fields follow,
// each aligned to its size. Only Flags (bit 1) is read, after TSFT (bit 0,
// 8 bytes), for its "frame has FCS" bit.
constexpr size_t kRadiotapMinSize = 8;
constexpr int kRadiotapMaxPresentWords = 16;
constexpr uint32_t kRadiotapTsft = 1u << 0;
constexpr uint32_t kRadiotapFlags = 1u << 1;
constexpr uint32_t kRadiotapExt = 1u << 31;
constexpr uint8_t kRadiotapFlagFcs = 0x10;
constexpr size_t kFcsSize = 4;

// 802.11 (IEEE 802.11-2020 9.2.4): frame control(2) duration(2) three
// addresses(18) sequence control(2); a fourth address when both DS bits are
// set; QoS control(2) in QoS subtypes, and HT control(4) after it when the
// +HTC/Order bit is set.
constexpr size_t kWlanHeaderSize = 24;
constexpr uint8_t kWlanTypeData = 2;
constexpr uint8_t kWlanSubtypeNoData = 0x4;
constexpr uint8_t kWlanSubtypeQos = 0x8;
constexpr uint8_t kWlanToFromDs = 0x03;
constexpr uint8_t kWlanProtected = 0x40;
constexpr uint8_t kWlanOrder = 0x80;
constexpr uint8_t kWlanAmsdu = 0x80;  // QoS control, first byte
constexpr size_t kLlcSnapSize = 8;    // AA AA 03, OUI(3), EtherType

LinkDecode FromWlan(Frame frame, size_t h) {
  if (!Has(frame, h, 2)) return Truncated("802.11 header truncated");
  const uint8_t fc0 = frame[h];
  const uint8_t fc1 = frame[h + 1];
  const uint8_t subtype = fc0 >> 4;
  if ((fc0 & 0x03) != 0 || ((fc0 >> 2) & 0x03) != kWlanTypeData) {
    return NotIP(h);  // management or control: not IP, like ARP
  }
  if ((subtype & kWlanSubtypeNoData) != 0) {
    return NotIP(h);  // null data and CF frames: no body
  }
  if ((fc1 & kWlanProtected) != 0) {
    return NotIP(h, "802.11 frame is protected (encrypted)");
  }
  size_t length = kWlanHeaderSize;
  if ((fc1 & kWlanToFromDs) == kWlanToFromDs) length += 6;
  if ((subtype & kWlanSubtypeQos) != 0) {
    if (!Has(frame, h, length + 2)) {
      return Truncated("802.11 header truncated");
    }
    if ((frame[h + length] & kWlanAmsdu) != 0) {
      return NotIP(h, "802.11 A-MSDU");
    }
    length += 2;
    if ((fc1 & kWlanOrder) != 0) length += 4;
  }
  const size_t llc = h + length;
  if (!Has(frame, llc, kLlcSnapSize)) {
    return Truncated("802.11 header or LLC/SNAP truncated");
  }
  const uint8_t* p = frame.data() + llc;
  const bool rfc1042 = p[3] == 0 && p[4] == 0 && p[5] == 0;
  const bool bridge_tunnel = p[3] == 0 && p[4] == 0 && p[5] == 0xf8;
  if (p[0] != 0xaa || p[1] != 0xaa || p[2] != 0x03 ||
      !(rfc1042 || bridge_tunnel)) {
    return NotIP(llc, "802.11 body without an LLC/SNAP header");
  }
  return FromEtherType(frame, LoadBig16(p + 6), llc + kLlcSnapSize, 0);
}

}  // namespace

LinkDecode FromRadiotap(Frame frame) {
  if (!Has(frame, 0, kRadiotapMinSize)) {
    return Truncated("radiotap header truncated");
  }
  if (frame[0] != 0) return NotIP(0, "radiotap header of an unknown version");
  const size_t length = frame[2] | size_t{frame[3]} << 8;
  if (length < kRadiotapMinSize) {
    return NotIP(0, "radiotap length below 8 bytes");
  }
  if (!Has(frame, 0, length)) return Truncated("radiotap header truncated");
  const uint32_t present = LoadLittle32(frame.data() + 4);
  size_t fields = kRadiotapMinSize;  // past the present words
  for (int words = 1;
       (LoadLittle32(frame.data() + fields - 4) & kRadiotapExt) != 0;
       ++words, fields += 4) {
    if (words == kRadiotapMaxPresentWords || fields + 4 > length) {
      return NotIP(0, "radiotap present words run past the header");
    }
  }
  bool fcs = false;
  if ((present & kRadiotapFlags) != 0) {
    if ((present & kRadiotapTsft) != 0)
      fields = ((fields + 7) & ~size_t{7}) + 8;
    if (fields >= length) {
      return NotIP(0, "radiotap fields run past the header");
    }
    fcs = (frame[fields] & kRadiotapFlagFcs) != 0;
  }
  LinkDecode d = FromWlan(frame, length);
  if (fcs && d.end == 0 && d.trailer == 0) d.trailer = kFcsSize;
  return d;
}

}  // namespace ipsum::csum::link_internal
