// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// The fast shape: the layout almost every frame a host sends or receives
// has, recognised at fixed offsets. Untagged Ethernet II (ClassifyFast;
// ClassifyFastIP for a datagram behind a link header of another kind); an
// IPv4 header without options, not a fragment, with a right header
// checksum, or an IPv6 header without extension headers; TCP with a valid
// option list, or UDP whose length is the IP payload's (with a checksum, over
// IPv6); the datagram exactly the rest of the frame (nothing cut off, no
// padding).
//
// This is the one definition of that shape. The receive path
// (internal/receive_fast.h) delivers such frames without its general
// decoder, and `csum verify` judges them without its general walk; each
// holds its fast path to the same results as its general path, by test and
// by fuzzer, so a frame the classification refuses costs only the time it
// took to refuse it.

#ifndef IPSUM_TCPIP_FAST_SHAPE_H_
#define IPSUM_TCPIP_FAST_SHAPE_H_

#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>

#include "checksum/endian.h"
#include "header/address.h"
#include "header/checksum.h"
#include "header/ethernet.h"
#include "header/ipv4.h"
#include "header/ipv6.h"
#include "header/protocol.h"
#include "header/tcp.h"
#include "header/udp.h"
#include "tcpip/internal/header_sum.h"

namespace ipsum::tcpip {

// The fast shape's layout: untagged Ethernet II, then an IPv4 header
// without options (kV4) or an IPv6 header without extension headers.
inline constexpr size_t kFastLink = header::Ethernet::kMinSize;
template <bool kV4>
inline constexpr size_t kFastNetwork =
    kV4 ? header::IPv4::kMinSize : header::IPv6::kSize;
template <bool kV4>
inline constexpr size_t kFastTransport = kFastLink + kFastNetwork<kV4>;

// FastShape is what ClassifyFast found of a frame it accepted.
struct FastShape {
  size_t transport_header;  // The TCP header with its options, or 8 (UDP).
  size_t transport_length;  // The IP payload: the rest of the frame.
  uint8_t protocol;         // kProtocolTCP or kProtocolUDP.
  bool udp_no_checksum;     // UDP over IPv4 sent without a checksum.
  bool timestamps;          // TCP options exactly NOP NOP Timestamps.
  bool other_options;       // TCP options of any other (valid) layout.
};

// FastFamily is the IP version of a frame that may have the fast shape.
enum class FastFamily : uint8_t { kNone, kIPv4, kIPv6 };

// FastFamilyOf returns the family whose EtherType and IP version the frame
// whose first bytes are `first` starts with; kNone for bytes too short for
// Ethernet, IPv4 and TCP headers (a UDP frame that short is padded, so not
// the fast shape), or any other protocol.
[[gnu::always_inline]] inline FastFamily FastFamilyOf(
    std::span<const uint8_t> first) {
  if (first.size() < kFastTransport<true> + header::TCP::kMinSize) {
    return FastFamily::kNone;
  }
  // The EtherType and the IP header's version nibble, in one load.
  constexpr uint32_t kIPv4 = uint32_t{header::kEtherTypeIPv4} << 16 | 0x4000;
  constexpr uint32_t kIPv6 = uint32_t{header::kEtherTypeIPv6} << 16 | 0x6000;
  const uint32_t type_and_version =
      LoadBig32(first.data() + header::Ethernet::kEtherTypeOffset) &
      0xfffff000u;
  if (type_and_version == kIPv4) return FastFamily::kIPv4;
  if (type_and_version == kIPv6) return FastFamily::kIPv6;
  return FastFamily::kNone;
}

// IsAlignedTimestamps reports whether the TCP option area `area` is the
// layout RFC 7323 Appendix A recommends and most stacks send on every
// segment once timestamps are on: NOP NOP Timestamps, the values at bytes
// 4 and 8. Such an area is always a valid option list.
[[gnu::always_inline]] inline bool IsAlignedTimestamps(
    std::span<const uint8_t> area) {
  constexpr size_t kAlignedTimestampsSize = 12;
  constexpr uint32_t kTimestampsLength = 10;
  constexpr uint32_t kLead =
      uint32_t{header::kOptionNop} << 24 | uint32_t{header::kOptionNop} << 16 |
      uint32_t{header::kTCPOptionTimestamps} << 8 | kTimestampsLength;
  return area.size() == kAlignedTimestampsSize &&
         LoadBig32(area.data()) == kLead;
}

// ValidTCPOptions is ClassifyFast's default judge of a TCP option list of
// another layout than none or NOP NOP Timestamps.
struct ValidTCPOptions {
  bool operator()(std::span<const uint8_t> area) const {
    return header::ParseTCPOptions(area).ok();
  }
};

// kFastMinIP is the fewest bytes of a datagram the fast shape's tests
// read: an IPv4 header and a TCP header, both without options.
inline constexpr size_t kFastMinIP =
    header::IPv4::kMinSize + header::TCP::kMinSize;

// FastIPFamilyOf returns the family a datagram whose first bytes are `ip`
// may have the fast shape's IP layer in, by its version nibble; kNone for
// fewer than kFastMinIP bytes or another version. For link layers that
// carry IP without Ethernet (raw IP, Linux cooked captures).
[[gnu::always_inline]] inline FastFamily FastIPFamilyOf(
    std::span<const uint8_t> ip) {
  if (ip.size() < kFastMinIP) return FastFamily::kNone;
  switch (ip[0] >> 4) {
    case 4:
      return FastFamily::kIPv4;
    case 6:
      return FastFamily::kIPv6;
    default:
      return FastFamily::kNone;
  }
}

// ClassifyFastIP is the fast shape's test of everything after the link
// layer: whether the datagram of `ip_size` bytes (the rest of the frame)
// whose first bytes are `ip_first` (at least kFastMinIP of them, of the
// family FastIPFamilyOf or FastFamilyOf gave: kIPv4 for kV4) has the shape
// with every header in `ip_first`, described in `s`. A TCP option list of
// another layout than none or NOP NOP Timestamps is handed to
// `options(area)`, which returns whether it is valid (and may keep what it
// parsed); it is called only when every other test passed. Nothing is
// modified but `s`.
template <bool kV4, typename OptionsCheck = ValidTCPOptions>
[[gnu::always_inline]] inline bool ClassifyFastIP(
    std::span<const uint8_t> ip_first, size_t ip_size, FastShape& s,
    OptionsCheck&& options = {}) {
  constexpr size_t kN = kFastNetwork<kV4>;
  const uint8_t* const ip = ip_first.data();
  size_t ip_length;  // The datagram's, by its header.
  uint8_t protocol;
  if constexpr (kV4) {
    using header::IPv4;
    constexpr uint8_t kVersion4IHL5 = 0x45;
    if (ip[IPv4::kVersionIHLOffset] != kVersion4IHL5) return false;
    ip_length = LoadBig16(ip + IPv4::kTotalLengthOffset);
    // The reserved bit and DF do not matter here; MF or an offset do.
    if ((LoadBig16(ip + IPv4::kFlagsFragmentOffset) &
         IPv4::kMoreFragmentsAndOffsetMask) != 0) {
      return false;
    }
    protocol = ip[IPv4::kProtocolOffset];
  } else {
    using header::IPv6;
    if (ip_first.size() < kN + header::TCP::kMinSize) return false;
    ip_length =
        IPv6::kSize + size_t{LoadBig16(ip + IPv6::kPayloadLengthOffset)};
    protocol = ip[IPv6::kNextHeaderOffset];
  }
  // Also makes the datagram longer than its IP header: the frame holds a
  // transport header.
  if (ip_length != ip_size) return false;
  if constexpr (kV4) {
    if (!internal::IsAllOnesSum(ip_first.first(kN))) return false;
  }
  const size_t transport_length = ip_length - kN;
  const uint8_t* const t = ip + kN;
  size_t transport_header;
  bool udp_no_checksum = false;
  if (protocol == header::kProtocolTCP) {
    transport_header =
        static_cast<size_t>(t[header::TCP::kDataOffsetOffset] >> 4) * 4;
    if (transport_header < header::TCP::kMinSize ||
        transport_header > transport_length) {
      return false;
    }
  } else if (protocol == header::kProtocolUDP) {
    using header::UDP;
    if (LoadBig16(t + UDP::kLengthOffset) != transport_length) return false;
    transport_header = UDP::kSize;
    // RFC 768: zero means no checksum was sent, allowed over IPv4 only
    // (RFC 8200 section 8.1).
    udp_no_checksum = LoadBig16(t + UDP::kChecksumOffset) == 0;
    if (udp_no_checksum && !kV4) return false;
  } else {
    return false;
  }
  if (kN + transport_header > ip_first.size()) return false;
  // None and NOP NOP Timestamps cannot be bad; any other layout is judged
  // now.
  bool timestamps = false;
  bool other_options = false;
  if (protocol == header::kProtocolTCP) {
    const std::span<const uint8_t> area = ip_first.subspan(
        kN + header::TCP::kMinSize, transport_header - header::TCP::kMinSize);
    timestamps = IsAlignedTimestamps(area);
    if (!timestamps && !area.empty()) {
      if (!options(area)) return false;
      other_options = true;
    }
  }
  s.transport_header = transport_header;
  s.transport_length = transport_length;
  s.protocol = protocol;
  s.udp_no_checksum = udp_no_checksum;
  s.timestamps = timestamps;
  s.other_options = other_options;
  return true;
}

// ClassifyFast reports whether the frame of `frame_size` bytes whose first
// bytes are `first` (FastFamilyOf gave it kIPv4 for kV4, kIPv6 otherwise)
// has the fast shape with every header in `first`, and describes it in
// `s`: ClassifyFastIP of what follows the Ethernet header.
template <bool kV4, typename OptionsCheck = ValidTCPOptions>
[[gnu::always_inline]] inline bool ClassifyFast(std::span<const uint8_t> first,
                                                size_t frame_size, FastShape& s,
                                                OptionsCheck&& options = {}) {
  return ClassifyFastIP<kV4>(first.subspan(kFastLink), frame_size - kFastLink,
                             s, std::forward<OptionsCheck>(options));
}

// FastPseudoSum is the pseudo-header's sum of the IPv4 header without
// options (kV4) or IPv6 header without extension headers at `ip`, for a
// transport of `transport_length` bytes of `protocol`.
template <bool kV4>
[[gnu::always_inline]] inline uint16_t FastPseudoSum(const uint8_t* ip,
                                                     uint8_t protocol,
                                                     size_t transport_length) {
  if constexpr (kV4) {
    using header::IPv4;
    return header::PseudoHeaderSum(
        header::IPv4Address::From(ip + IPv4::kSourceOffset),
        header::IPv4Address::From(ip + IPv4::kDestinationOffset), protocol,
        static_cast<uint16_t>(transport_length));
  } else {
    using header::IPv6;
    return header::PseudoHeaderSum(
        header::IPv6Address::From(ip + IPv6::kSourceOffset),
        header::IPv6Address::From(ip + IPv6::kDestinationOffset), protocol,
        static_cast<uint32_t>(transport_length));
  }
}

}  // namespace ipsum::tcpip

#endif  // IPSUM_TCPIP_FAST_SHAPE_H_
