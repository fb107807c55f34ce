// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// The receive path's fast classification and transport check, shared by
// Receive (receive.cc) and VerifyFrame (verify.cc): one judgement of the
// fast shape (tcpip/fast_shape.h), almost every frame a host receives,
// read at fixed offsets. Every other frame is left to the general decoder,
// which counts every drop but a bad transport checksum; receive_fast_test
// and receive_fuzzer hold both paths to the same verdicts and counters.
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
#include "header/tcp.h"
#include "tcpip/fast_shape.h"
#include "tcpip/internal/header_sum.h"
#include "tcpip/internal/receive_common.h"
#include "tcpip/packet_buffer.h"
#include "tcpip/receive.h"

namespace ipsum::tcpip::internal {

// FastResult is what a fast path did with a frame: delivered it, dropped
// it for a bad transport checksum, or left it untouched to the general
// decoder.
enum class FastResult : uint8_t { kDelivered, kDropped, kNotTaken };

// PacketFastFamily returns FastFamilyOf the frame `pkt` holds, its first
// view in `first`; kNone for a packet with consumed headers or no view.
[[gnu::always_inline]] inline FastFamily PacketFastFamily(
    const PacketBuffer& pkt, std::span<const uint8_t>& first) {
  const buffer::Buffer& data = pkt.data();
  if (!pkt.headers().empty() || data.view_count() == 0) {
    return FastFamily::kNone;
  }
  first = data.views()[0].span();
  return FastFamilyOf(first);
}

// ClassifyPacketFast is ClassifyFast for the frame `pkt` holds (first view
// `first`, of the family PacketFastFamily gave), which also refuses a
// CHECKSUM_COMPLETE start past the transport header. Nothing is modified
// but `s` and, when `tcp` is given and the option list has another layout
// than none or NOP NOP Timestamps, *tcp, engaged with those options.
template <bool kV4>
[[gnu::always_inline]] inline bool ClassifyPacketFast(
    const PacketBuffer& pkt, std::span<const uint8_t> first, FastShape& s,
    std::optional<TCPInfo>* tcp) {
  // A COMPLETE start past the frame is the general path's drop, one past
  // the transport header its software fallback.
  if (pkt.checksum_status == ChecksumStatus::kComplete &&
      pkt.csum_start > kFastTransport<kV4>) {
    return false;
  }
  const size_t size = pkt.data().size();
  if (tcp == nullptr) return ClassifyFast<kV4>(first, size, s);
  return ClassifyFast<kV4>(first, size, s,
                           [tcp](std::span<const uint8_t> area) {
                             header::Result<header::TCPOptions> options =
                                 header::ParseTCPOptions(area);
                             if (!options.ok()) return false;
                             tcp->emplace().options = *options;
                             return true;
                           });
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
      initial = IPv4TransportInitial(ip, header, s.protocol,
                                     static_cast<uint16_t>(s.transport_length));
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
    return data.ChecksumAll(checksum::Subtract(
        FastPseudoSum<kV4>(ip, s.protocol, s.transport_length),
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
