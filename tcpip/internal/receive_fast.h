// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// The receive path's fast classification and transport check, shared by
// Receive (receive.cc) and VerifyFrame (verify.cc): one judgement of the
// shape almost every frame a host receives has, read at fixed offsets.
// Every other frame is left to the general decoder, which counts every
// drop but a bad transport checksum; receive_fast_test and receive_fuzzer
// hold both paths to the same verdicts and counters.
//
// Not API: only //tcpip's own sources include it.

#ifndef IPSUM_TCPIP_INTERNAL_RECEIVE_FAST_H_
#define IPSUM_TCPIP_INTERNAL_RECEIVE_FAST_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "buffer/buffer.h"
#include "checksum/checksum.h"
#include "checksum/endian.h"
#include "header/address.h"
#include "header/ethernet.h"
#include "header/ipv4.h"
#include "header/ipv6.h"
#include "header/protocol.h"
#include "header/tcp.h"
#include "header/udp.h"
#include "tcpip/internal/header_sum.h"
#include "tcpip/internal/receive_common.h"
#include "tcpip/packet_buffer.h"
#include "tcpip/receive.h"

namespace ipsum::tcpip::internal {

// The fast shape's layout: untagged Ethernet II, then an IPv4 header
// without options (kV4) or an IPv6 header without extension headers.
inline constexpr size_t kFastLink = header::Ethernet::kMinSize;
template <bool kV4>
inline constexpr size_t kFastNetwork =
    kV4 ? header::IPv4::kMinSize : header::IPv6::kSize;
template <bool kV4>
inline constexpr size_t kFastTransport = kFastLink + kFastNetwork<kV4>;

// FastResult is what a fast path did with a frame: delivered it, dropped
// it for a bad transport checksum, or left it untouched to the general
// decoder.
enum class FastResult : uint8_t { kDelivered, kDropped, kNotTaken };

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

// FastFamilyOf returns the family whose EtherType and IP version `pkt`'s
// frame starts with, its first view in `first`; kNone for a packet with
// consumed headers, no view, a first view too short for IPv4 and TCP
// headers (a UDP frame that short is padded, so not the fast shape), or
// any other protocol.
[[gnu::always_inline]] inline FastFamily FastFamilyOf(
    const PacketBuffer& pkt, std::span<const uint8_t>& first) {
  const buffer::Buffer& data = pkt.data();
  if (!pkt.headers().empty() || data.view_count() == 0) {
    return FastFamily::kNone;
  }
  first = data.views()[0].span();
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

// ClassifyFast reports whether `pkt`'s frame (first view `first`, of the
// family FastFamilyOf gave) has the fast shape, and describes it in `s`:
// IPv4 without options, not a fragment, with a valid header checksum, or
// IPv6 without extension headers; TCP with a valid data offset and option
// list, or UDP whose length is the IP payload's (with a checksum, over
// IPv6); the IP datagram exactly the rest of the frame (nothing cut off,
// no padding); every header in the first view; a CHECKSUM_COMPLETE start
// at most at the transport header. Nothing is modified but `s` and, when
// `tcp` is given and the option list has another layout than none or NOP
// NOP Timestamps, *tcp, engaged with those options.
template <bool kV4>
[[gnu::always_inline]] inline bool ClassifyFast(
    const PacketBuffer& pkt, std::span<const uint8_t> first, FastShape& s,
    std::optional<TCPInfo>* tcp) {
  constexpr size_t kT = kFastTransport<kV4>;
  const uint8_t* const ip = first.data() + kFastLink;
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
    if (first.size() < kT + header::TCP::kMinSize) return false;
    ip_length = IPv6::kSize + size_t{LoadBig16(ip + IPv6::kPayloadLengthOffset)};
    protocol = ip[IPv6::kNextHeaderOffset];
  }
  // Also makes the datagram longer than its IP header: the frame holds a
  // transport header.
  if (ip_length != pkt.data().size() - kFastLink) return false;
  if constexpr (kV4) {
    if (!IsAllOnesSum(first.subspan(kFastLink, kFastNetwork<kV4>))) {
      return false;
    }
  }
  const size_t transport_length = ip_length - kFastNetwork<kV4>;
  const uint8_t* const t = first.data() + kT;
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
  if (kT + transport_header > first.size()) return false;
  // A COMPLETE start past the frame is the general path's drop, one past
  // the transport header its software fallback.
  if (pkt.checksum_status == ChecksumStatus::kComplete && pkt.csum_start > kT) {
    return false;
  }
  // A bad option list is the general path's drop. None and NOP NOP
  // Timestamps cannot be bad; any other layout is parsed now.
  bool timestamps = false;
  bool other_options = false;
  if (protocol == header::kProtocolTCP) {
    const std::span<const uint8_t> area = first.subspan(
        kT + header::TCP::kMinSize, transport_header - header::TCP::kMinSize);
    timestamps = IsAlignedTimestamps(area);
    if (!timestamps && !area.empty()) {
      if (tcp != nullptr) {
        header::Result<header::TCPOptions> options =
            header::ParseTCPOptions(area);
        if (!options.ok()) return false;
        tcp->emplace().options = *options;
      } else if (!header::ParseTCPOptions(area).ok()) {
        return false;
      }
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

// FastPseudoSum is the pseudo-header's sum of the IPv4 (kV4) or IPv6
// header at `ip`.
template <bool kV4>
[[gnu::always_inline]] inline uint16_t FastPseudoSum(const uint8_t* ip,
                                                     uint8_t protocol,
                                                     size_t transport_length) {
  if constexpr (kV4) {
    using header::IPv4;
    return PseudoSum(header::IPv4Address::From(ip + IPv4::kSourceOffset),
                     header::IPv4Address::From(ip + IPv4::kDestinationOffset),
                     protocol, static_cast<uint16_t>(transport_length));
  } else {
    using header::IPv6;
    return PseudoSum(header::IPv6Address::From(ip + IPv6::kSourceOffset),
                     header::IPv6Address::From(ip + IPv6::kDestinationOffset),
                     protocol, static_cast<uint32_t>(transport_length));
  }
}

// FastSoftwareSum is the sum that checks the transport of a frame of the
// fast shape (zero in one's complement when it is right), summed in place.
// When the first view ends where the payload starts (a header-splitting
// NIC), the transport header and pseudo-header seed the sum of the views
// after it; otherwise the whole frame is summed from a seed that takes
// out the link and network headers (an even length, so the transport's
// bytes keep their parity; over IPv4 the valid header sums to zero).
template <bool kV4>
[[gnu::always_inline]] inline uint16_t FastSoftwareSum(
    const buffer::Buffer& data, std::span<const uint8_t> first,
    const FastShape& s) {
  constexpr size_t kT = kFastTransport<kV4>;
  const uint8_t* const f = first.data();
  const uint8_t* const ip = f + kFastLink;
  if (first.size() == kT + s.transport_header) {
    const std::span<const uint8_t> header(f + kT, s.transport_header);
    uint16_t initial;
    if constexpr (kV4) {
      initial = IPv4TransportInitial(
          ip, header, s.protocol, static_cast<uint16_t>(s.transport_length));
    } else {
      initial = HeaderSum(
          header, FastPseudoSum<kV4>(ip, s.protocol, s.transport_length));
    }
    return data.ChecksumViews(1, initial);
  }
  if constexpr (kV4) {
    return data.ChecksumAll(EthernetIPv4Initial(
        f, s.protocol, static_cast<uint16_t>(s.transport_length)));
  } else {
    return data.ChecksumAll(
        checksum::Subtract(FastPseudoSum<kV4>(ip, s.protocol,
                                              s.transport_length),
                           HeaderSum(std::span(f, kT))));
  }
}

// FastCheckTransport judges the transport checksum of a frame ClassifyFast
// accepted, in its offload state, and counts how in `stats` (a bad sum as
// a drop). Returns false for a bad sum. The packet's checksum_verified is
// then !s.udp_no_checksum. Nothing in the frame is modified.
template <bool kV4>
[[gnu::always_inline]] inline bool FastCheckTransport(
    const PacketBuffer& frame, std::span<const uint8_t> first,
    const FastShape& s, ReceiveStats& stats) {
  const ChecksumStatus status = frame.checksum_status;
  const bool complete = status == ChecksumStatus::kComplete;
  if (!s.udp_no_checksum && (status == ChecksumStatus::kNone || complete)) {
    constexpr size_t kT = kFastTransport<kV4>;
    uint16_t sum;
    if (complete) {
      // The NIC's sum less that of the bytes from csum_start (at most kT)
      // to the transport header: the transport's sum, from csum_start.
      const size_t start = frame.csum_start;
      const uint8_t* const f = first.data();
      const uint16_t pulled = HeaderSum(std::span(f + start, kT - start));
      sum = checksum::Combine(
          FastPseudoSum<kV4>(f + kFastLink, s.protocol, s.transport_length),
          AtParity(checksum::Subtract(frame.csum, pulled), kT - start));
    } else {
      sum = FastSoftwareSum<kV4>(frame.data(), first, s);
    }
    if (!IsOnesComplementZero(sum)) {
      CountDrop(stats, DropReason::kBadTransportChecksum);
      return false;
    }
    ++(complete ? stats.checksum_complete : stats.checksum_software);
  } else if (s.udp_no_checksum) {
    ++stats.udp_no_checksum;
  } else {
    ++stats.checksum_unnecessary;  // kUnnecessary, or kPartial looped back.
  }
  return true;
}

}  // namespace ipsum::tcpip::internal

#endif  // IPSUM_TCPIP_INTERNAL_RECEIVE_FAST_H_
