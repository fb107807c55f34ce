// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// The decoders link.cc's DecodeLink dispatches to, shared by the files that
// implement them (link_ether.cc: EtherTypes, VLAN tags and shims;
// link_serial.cc: PPP, Cisco HDLC, Frame Relay; link_wireless.cc: radiotap
// and 802.11). Not part of csum's interface.

#ifndef IPSUM_TOOLS_CSUM_LINK_DECODE_H_
#define IPSUM_TOOLS_CSUM_LINK_DECODE_H_

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "checksum/endian.h"
#include "tools/csum/link.h"

namespace ipsum::csum::link_internal {

using Frame = std::span<const uint8_t>;

inline constexpr uint16_t kEtherTypeIPv4 = 0x0800;
inline constexpr uint16_t kEtherTypeIPv6 = 0x86dd;
inline constexpr uint16_t kEtherTypeMpls = 0x8847;
inline constexpr uint8_t kHdlcUi = 0x03;  // HDLC unnumbered information

inline LinkDecode IP(size_t offset) {
  return {LinkPayload::kIP, offset, 0, 0, {}};
}
inline LinkDecode NotIP(size_t offset, std::string_view reason = {}) {
  return {LinkPayload::kNotIP, offset, 0, 0, reason};
}
inline LinkDecode Truncated(std::string_view reason) {
  return {LinkPayload::kTruncated, 0, 0, 0, reason};
}

// Has reports whether `frame` holds `n` bytes from `offset` on.
inline bool Has(Frame frame, size_t offset, size_t n) {
  return offset <= frame.size() && frame.size() - offset >= n;
}

inline uint32_t LoadLittle32(const uint8_t* p) {
  return ByteSwap32(LoadBig32(p));
}

// FromEthernet decodes the Ethernet frame starting at `start`. A frame
// whose type (after its VLAN tags) is no shim goes whole to
// tcpip::ParseEthernet, which also reports a cut header or tag.
LinkDecode FromEthernet(Frame frame, size_t start, int depth);

// FromEtherType continues after a header whose type field is `type` and
// which ends at `offset`: VLAN tags, then IP or a shim. `depth` counts the
// link-layer headers already followed (kMaxLinkDepth).
LinkDecode FromEtherType(Frame frame, uint16_t type, size_t offset, int depth);

// FromTypedHeader decodes a fixed header of `size` bytes with an EtherType
// at `type_offset` (Linux cooked, Cisco HDLC, IPoIB), or names it cut.
LinkDecode FromTypedHeader(Frame frame, size_t size, size_t type_offset,
                           std::string_view truncated);

// FromPppProtocol decodes a PPP protocol field at `offset` and what it
// names.
LinkDecode FromPppProtocol(Frame frame, size_t offset, int depth);

// The link types of link_serial.cc and link_wireless.cc (link.h).
LinkDecode FromPpp(Frame frame);
LinkDecode FromCiscoHdlc(Frame frame);
LinkDecode FromFrameRelay(Frame frame);
LinkDecode FromRadiotap(Frame frame);

}  // namespace ipsum::csum::link_internal

#endif  // IPSUM_TOOLS_CSUM_LINK_DECODE_H_
