// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// VerifyFrame and VerifyBurst (receive.h): Receive's judgement of a frame
// without taking it apart. The common shape is judged by the fast
// classification and transport check Receive uses (internal/
// receive_fast.h), every other frame by Receive's general decoder on a
// clone of the frame, so that both count and drop exactly as Receive does.

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>

#include "buffer/buffer.h"
#include "header/protocol.h"
#include "header/tcp.h"
#include "header/udp.h"
#include "tcpip/internal/header_bytes.h"
#include "tcpip/internal/receive_common.h"
#include "tcpip/internal/receive_fast.h"
#include "tcpip/internal/receive_general.h"
#include "tcpip/packet_buffer.h"
#include "tcpip/receive.h"

namespace ipsum::tcpip {
namespace {

using internal::CountDrop;
using internal::FastResult;

static_assert(sizeof(VerifiedFrame) == 32);

// kTCPHeadBytes and kUDPHeadBytes are how many of the transport header's
// first bytes VerifiedFrame::transport_head holds.
constexpr size_t kTCPHeadBytes = 16;
constexpr size_t kUDPHeadBytes = header::UDP::kSize;

// VerifyFastIP is VerifyFrame for a frame of the fast shape, of IP version
// kV4 (first view `first`): the judgement Receive's fast path makes,
// described in `out` with nothing consumed or copied but the transport
// header's first bytes. kNotTaken leaves the frame to VerifyGeneral.
template <bool kV4>
[[gnu::always_inline]] inline FastResult VerifyFastIP(
    const PacketBuffer& frame, std::span<const uint8_t> first,
    ReceiveStats& stats, VerifiedFrame& out) {
  FastShape s;
  if (!internal::ClassifyPacketFast<kV4>(frame, first, s, nullptr)) {
    return FastResult::kNotTaken;
  }
  if (!internal::FastCheckTransport<kV4>(frame, first, s, stats)) {
    return FastResult::kDropped;
  }
  constexpr size_t kT = kFastTransport<kV4>;
  const bool tcp = s.protocol == header::kProtocolTCP;
  out.network_offset = kFastLink;
  out.transport_offset = static_cast<uint16_t>(kT);
  out.payload_offset = static_cast<uint16_t>(kT + s.transport_header);
  out.network = kV4 ? NetworkProtocol::kIPv4 : NetworkProtocol::kIPv6;
  out.transport = tcp ? TransportProtocol::kTCP : TransportProtocol::kUDP;
  out.payload_end = static_cast<uint32_t>(frame.data().size());
  out.is_fragment = false;
  out.checksum_verified = !s.udp_no_checksum;
  // Copied while the header's line is at hand (ClassifyFast: the first
  // view holds the whole header); UDP's 8 bytes are followed by zeros.
  const uint8_t* const t = first.data() + kT;
  std::memcpy(out.transport_head.data(), t, kUDPHeadBytes);
  if (tcp) {
    std::memcpy(out.transport_head.data() + kUDPHeadBytes, t + kUDPHeadBytes,
                kTCPHeadBytes - kUDPHeadBytes);
  } else {
    std::memset(out.transport_head.data() + kUDPHeadBytes, 0,
                kTCPHeadBytes - kUDPHeadBytes);
  }
  ++stats.delivered;
  return FastResult::kDelivered;
}

// VerifyFast is VerifyFastIP for the frame's IP version, or kNotTaken.
[[gnu::always_inline]] inline FastResult VerifyFast(const PacketBuffer& frame,
                                                    ReceiveStats& stats,
                                                    VerifiedFrame& out) {
  std::span<const uint8_t> first;
  switch (internal::PacketFastFamily(frame, first)) {
    case FastFamily::kIPv4:
      return VerifyFastIP<true>(frame, first, stats, out);
    case FastFamily::kIPv6:
      return VerifyFastIP<false>(frame, first, stats, out);
    case FastFamily::kNone:
      break;
  }
  return FastResult::kNotTaken;
}

// VerifyGeneral is VerifyFrame for every frame VerifyFast does not take:
// Receive's general decoder on a clone of the frame, whose views share the
// frame's chunks (no payload byte is copied; the headers are, into the
// clone's header area), then the result described.
bool VerifyGeneral(const PacketBuffer& frame, LinkType link,
                   ReceiveStats& stats, VerifiedFrame& out) {
  // The general decoder's first check, which the clone (of data() alone)
  // would lose.
  if (!frame.headers().empty()) {
    CountDrop(stats, DropReason::kUnsupported);
    return false;
  }
  ReceivedPacket r;
  r.packet = PacketBuffer::FromFrame(frame.data().Clone());
  r.packet.checksum_status = frame.checksum_status;
  r.packet.csum_start = frame.csum_start;
  r.packet.csum = frame.csum;
  if (!internal::DecodeGeneral(r, link, stats)) return false;
  const ParsedPacket& p = r.parsed;
  const std::span<const uint8_t> header = r.packet.Header(Layer::kTransport);
  const size_t payload = p.transport_offset + header.size();
  out.network_offset = static_cast<uint16_t>(p.network_offset);
  out.transport_offset = static_cast<uint16_t>(p.transport_offset);
  out.payload_offset = static_cast<uint16_t>(payload);
  out.network = p.network;
  out.transport = r.packet.transport_protocol;
  out.payload_end = static_cast<uint32_t>(payload + r.packet.data().size());
  out.is_fragment = r.is_fragment;
  out.checksum_verified = r.checksum_verified;
  out.transport_head = {};
  if (!r.is_fragment) {
    const size_t n = std::min(
        header.size(),
        r.packet.transport_protocol == TransportProtocol::kTCP ? kTCPHeadBytes
                                                               : kUDPHeadBytes);
    std::copy_n(header.begin(), n, out.transport_head.begin());
  }
  return true;
}

// VerifyOne is VerifyFrame without counting the frame as received.
[[gnu::always_inline]] inline bool VerifyOne(const PacketBuffer& frame,
                                             LinkType link,
                                             ReceiveStats& stats,
                                             VerifiedFrame& out) {
  if (link == LinkType::kEthernet) {
    FastResult r = VerifyFast(frame, stats, out);
    if (r != FastResult::kNotTaken) return r == FastResult::kDelivered;
  }
  return VerifyGeneral(frame, link, stats, out);
}

}  // namespace

bool VerifyFrame(const PacketBuffer& frame, LinkType link, ReceiveStats& stats,
                 VerifiedFrame& out) {
  ++stats.received;
  // As ReceiveInPlace: a frame to sum in software is on its way while its
  // headers are judged.
  if (frame.checksum_status == ChecksumStatus::kNone) {
    frame.data().Prefetch(internal::kReceivePrefetchBytes);
  }
  return VerifyOne(frame, link, stats, out);
}

namespace {

// VerifyBurstWith is VerifyBurst with its prefetch policy fixed, one loop
// per policy and a function of its own, as ReceiveBurst's.
template <BurstPrefetch kPolicy>
[[gnu::noinline]] size_t VerifyBurstWith(std::span<const PacketBuffer> frames,
                                         LinkType link, ReceiveStats& stats,
                                         std::span<VerifiedFrame> out,
                                         std::span<bool> delivered) {
  constexpr bool kRequest = kPolicy != BurstPrefetch::kNone;
  constexpr size_t kAhead = internal::kReceiveBurstAhead;
  const size_t count = std::min({frames.size(), out.size(), delivered.size()});
  stats.received += count;
  if constexpr (kRequest) {
    for (size_t i = 0; i < count && i < kAhead; ++i) {
      internal::RequestLines<kPolicy>(frames[i]);
    }
  }
  // Raw pointers, not the spans' operator[]: GCC 12 then steps them
  // rather than scaling the index on each iteration.
  const PacketBuffer* const frame = frames.data();
  VerifiedFrame* const described = out.data();
  size_t delivered_count = 0;
  for (size_t i = 0; i < count; ++i) {
    if constexpr (kRequest) {
      if (i + kAhead + 1 < count) {
        internal::RequestBufferLines(frames[i + kAhead + 1]);
      }
      if (i + kAhead < count) {
        internal::RequestLines<kPolicy>(frames[i + kAhead]);
      }
    }
    const bool ok = VerifyOne(frame[i], link, stats, described[i]);
    delivered[i] = ok;
    delivered_count += ok;
  }
  return delivered_count;
}

}  // namespace

size_t VerifyBurst(std::span<const PacketBuffer> frames, LinkType link,
                   ReceiveStats& stats, std::span<VerifiedFrame> out,
                   std::span<bool> delivered, BurstPrefetch prefetch) {
  switch (prefetch) {
    case BurstPrefetch::kHeaders:
      return VerifyBurstWith<BurstPrefetch::kHeaders>(frames, link, stats, out,
                                                      delivered);
    case BurstPrefetch::kNone:
      return VerifyBurstWith<BurstPrefetch::kNone>(frames, link, stats, out,
                                                   delivered);
    default:  // kFrame, and any value outside the enumeration.
      return VerifyBurstWith<BurstPrefetch::kFrame>(frames, link, stats, out,
                                                    delivered);
  }
}

namespace internal {

std::span<const uint8_t> CopyHeaderBytes(
    const PacketBuffer& frame, const VerifiedFrame& v,
    std::span<uint8_t, PacketBuffer::kHeaderCapacity> scratch) {
  const size_t n = std::min<size_t>(v.payload_offset, scratch.size());
  if (!frame.data().CopyOut(0, scratch.first(n))) return {};
  return scratch.first(n);
}

}  // namespace internal

std::optional<TCPInfo> ReadTCPInfo(std::span<const uint8_t> headers,
                                   const VerifiedFrame& v) {
  if (v.transport != TransportProtocol::kTCP ||
      v.transport_offset > v.payload_offset ||
      v.payload_offset > headers.size()) {
    return std::nullopt;
  }
  header::Result<header::TCP> tcp = header::TCP::Parse(headers.subspan(
      v.transport_offset, v.payload_offset - v.transport_offset));
  if (!tcp.ok()) return std::nullopt;
  TCPInfo info;
  if (!internal::DecodeTCPInfo(*tcp, info)) return std::nullopt;
  return info;
}

}  // namespace ipsum::tcpip
