// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// VerifyFrame and VerifyBurst (receive.h): Receive's judgement of a frame
// without taking it apart. The common shape is judged here at fixed
// offsets (MatchFast, VerifyFast), every other frame by Receive's own
// general decoder on a clone of the frame (VerifyGeneral), so that both
// count and drop exactly as Receive does.

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>

#include "buffer/buffer.h"
#include "checksum/checksum.h"
#include "checksum/endian.h"
#include "header/address.h"
#include "header/protocol.h"
#include "header/tcp.h"
#include "header/udp.h"
#include "tcpip/internal/header_sum.h"
#include "tcpip/internal/receive_general.h"
#include "tcpip/packet_buffer.h"
#include "tcpip/receive.h"

namespace ipsum::tcpip {
namespace {

using checksum::Combine;
using checksum::Subtract;

// AtParity, IsOnesComplementZero and IsAlignedTimestamps are receive.cc's
// (see there), which keeps its own so that its code is compiled as it was
// measured.
uint16_t AtParity(uint16_t sum, size_t offset) {
  return (offset & 1) ? ByteSwap16(sum) : sum;
}
bool IsOnesComplementZero(uint16_t sum) { return sum == 0 || sum == 0xffff; }
// (NOP, NOP, then option kind 8, Timestamps, of length 10: RFC 7323
// Appendix A's layout, 12 bytes.)
[[gnu::always_inline]] inline bool IsAlignedTimestamps(
    std::span<const uint8_t> area) {
  return area.size() == 12 && LoadBig32(area.data()) == 0x0101080au;
}

// RequestLines is ReceiveBurst's (receive.cc): with kFrame, the whole
// frame when software will sum it, else the line that holds the headers;
// with kHeaders only that line.
template <BurstPrefetch kPolicy>
[[gnu::always_inline]] inline void RequestLines(const PacketBuffer& frame) {
  static_assert(kPolicy == BurstPrefetch::kFrame ||
                kPolicy == BurstPrefetch::kHeaders);
  const buffer::Buffer& data = frame.data();
  if (kPolicy == BurstPrefetch::kFrame &&
      frame.checksum_status == ChecksumStatus::kNone) {
    data.Prefetch(internal::kReceivePrefetchBytes);
  } else if (data.view_count() != 0) {
    __builtin_prefetch(data.views()[0].data());
  }
}

// FastShape is what MatchFast found of a frame of DecodeFast's shape.
struct FastShape {
  size_t transport_header;  // The TCP header with its options, or 8.
  size_t transport_length;  // The IP payload's length: the rest of the frame.
  uint8_t protocol;         // kProtocolTCP or kProtocolUDP.
  bool udp_no_checksum;     // A UDP checksum of 0 (over IPv4).
};

// MatchFast reports whether `pkt`'s frame has the shape receive.cc's
// DecodeFast takes (see there): untagged Ethernet, IPv4 without options
// and not a fragment, with a valid header checksum, or IPv6 without
// extension headers; TCP with a valid data offset and option list, or UDP
// whose length is the IP payload's; exactly as long as the IP header says;
// every header in the first view; a CHECKSUM_COMPLETE start at most at the
// transport header. Judged in the first view without changing anything;
// the shape described in `s`. VerifyFast has found `pkt` without consumed
// headers, its first view `first` at least 54 bytes long, and the
// EtherType and IP version of IPv4 (kV4) or IPv6: one function per IP
// version, whose header lengths and offsets are constants.
//
// The same checks as DecodeFast's, written again rather than shared:
// with DecodeFast built on this function (GCC 12, -O2), ReceiveBurst
// compiled to other code and ran 6-8% slower with the headers at the
// front (tcpip_benchmark, BM_ReceiveBurst/none/front:1/frames:128 28.7-29.1
// -> 30.7-31.6 ns, two alternations; unnecessary 14.5-14.7 -> 15.9-16.4),
// and keeping DecodeFast's text beside a shared helper was worse still
// (37-38 ns). receive_fast_test and receive_fuzzer hold the two to the
// same verdicts on every frame they generate.
template <bool kV4>
[[gnu::always_inline]] inline bool MatchFast(const PacketBuffer& pkt,
                                             std::span<const uint8_t> first,
                                             FastShape& s) {
  const buffer::Buffer& data = pkt.data();
  constexpr size_t kLink = 14;  // Ethernet II, untagged.
  const uint8_t* f = first.data();
  const uint8_t* n = f + kLink;  // The IP header.
  const size_t frame_size = data.size();
  constexpr size_t network_header = kV4 ? 20 : 40;  // IP header length.
  size_t ip_length;  // The datagram's, by its header.
  uint8_t protocol;
  if constexpr (kV4) {
    // IPv4 without options (IHL 5).
    if (n[0] != 0x45) return false;
    ip_length = LoadBig16(n + 2);
    // Neither More Fragments nor a Fragment Offset (the reserved bit and
    // DF are not the general path's business either).
    if ((LoadBig16(n + 6) & 0x3fffu) != 0) return false;
    protocol = n[9];
  } else {
    // IPv6, the transport header right after it (no extension header).
    if (first.size() < kLink + 40 + header::TCP::kMinSize) return false;
    ip_length = 40 + size_t{LoadBig16(n + 4)};
    protocol = n[6];
  }
  constexpr bool v4 = kV4;
  // The datagram is the whole rest of the frame, so nothing is cut off or
  // padded (and, the frame holding a transport header, longer than the
  // IP header).
  if (ip_length != frame_size - kLink) return false;
  if constexpr (v4) {
    if (!internal::IsAllOnesSum(first.subspan(kLink, 20))) return false;
  }
  constexpr size_t kT = kLink + network_header;  // The transport header.
  const size_t transport_length = ip_length - network_header;
  const uint8_t* t = f + kT;
  size_t transport_header;
  bool udp_no_checksum = false;
  if (protocol == header::kProtocolTCP) {
    transport_header = static_cast<size_t>(t[12] >> 4) * 4;
    if (transport_header < header::TCP::kMinSize ||
        transport_header > transport_length) {
      return false;
    }
  } else if (protocol == header::kProtocolUDP) {
    if (LoadBig16(t + 4) != transport_length) return false;
    transport_header = header::UDP::kSize;
    // RFC 768: a zero checksum means none was sent, allowed over IPv4;
    // over IPv6 the general path drops it (RFC 8200 section 8.1).
    udp_no_checksum = LoadBig16(t + 6) == 0;
    if (udp_no_checksum && !v4) return false;
  } else {
    return false;
  }
  if (kT + transport_header > first.size()) return false;
  // Offload metadata: a COMPLETE sum that starts past the frame's end is
  // the general path's drop; one that starts past the transport header is
  // its fallback.
  if (pkt.checksum_status == ChecksumStatus::kComplete && pkt.csum_start > kT) {
    return false;
  }

  // A bad TCP option list is the general path's drop. The common layouts,
  // none and NOP NOP Timestamps, cannot be bad; any other is parsed.
  if (protocol == header::kProtocolTCP) {
    const std::span<const uint8_t> area = first.subspan(
        kT + header::TCP::kMinSize, transport_header - header::TCP::kMinSize);
    if (!area.empty() && !IsAlignedTimestamps(area) &&
        !header::ParseTCPOptions(area).ok()) {
      return false;
    }
  }
  s.transport_header = transport_header;
  s.transport_length = transport_length;
  s.protocol = protocol;
  s.udp_no_checksum = udp_no_checksum;
  return true;
}

static_assert(sizeof(VerifiedFrame) == 32);

// PseudoSumAt is the pseudo-header's sum of the IPv4 (kV4) or IPv6 header
// at `ip`. A function, not a lambda in VerifyFastIP: GCC 12 built the
// lambda's closure on the stack for every frame, whether it was called or
// not.
template <bool kV4>
[[gnu::always_inline]] inline uint16_t PseudoSumAt(const uint8_t* ip,
                                                   uint8_t protocol,
                                                   size_t transport_length) {
  if constexpr (kV4) {
    return internal::PseudoSum(header::IPv4Address::From(ip + 12),
                               header::IPv4Address::From(ip + 16), protocol,
                               static_cast<uint16_t>(transport_length));
  } else {
    return internal::PseudoSum(header::IPv6Address::From(ip + 8),
                               header::IPv6Address::From(ip + 24), protocol,
                               static_cast<uint32_t>(transport_length));
  }
}

// FastResult is what VerifyFast did with a frame.
enum class FastResult : uint8_t { kDelivered, kDropped, kNotTaken };

// VerifyFast is receive.cc's DecodeFast for VerifyFrame: the frames
// MatchFast takes, judged as DecodeFast judges them (and so as the general
// path does), and described in `out` with nothing consumed, nothing copied
// and no field decoded. Every other frame, and every frame the general
// path would drop for anything but its transport checksum, is left to
// VerifyGeneral (kNotTaken), so that those drops are counted in one place.
template <bool kV4>
[[gnu::always_inline]] inline FastResult VerifyFastIP(
    const PacketBuffer& frame, std::span<const uint8_t> first,
    ReceiveStats& stats, VerifiedFrame& out) {
  FastShape s;
  if (!MatchFast<kV4>(frame, first, s)) return FastResult::kNotTaken;
  constexpr size_t kLink = 14;  // Ethernet II, untagged.
  const buffer::Buffer& data = frame.data();
  const uint8_t* const f = first.data();
  const uint8_t* const ip = f + kLink;
  constexpr bool v4 = kV4;
  constexpr size_t kT = kLink + (v4 ? 20 : 40);  // The transport header.
  const size_t payload = kT + s.transport_header;
  const bool tcp = s.protocol == header::kProtocolTCP;
  const ChecksumStatus status = frame.checksum_status;
  const bool complete = status == ChecksumStatus::kComplete;
  if (!s.udp_no_checksum && (status == ChecksumStatus::kNone || complete)) {
    uint16_t sum;
    if (complete) {
      // As DecodeFast: the NIC's sum less that of the bytes from csum_start
      // (at most kT, MatchFast checked) to the transport header.
      const size_t start = frame.csum_start;
      const uint16_t pulled =
          internal::HeaderSum(std::span(f + start, kT - start));
      sum = Combine(PseudoSumAt<kV4>(ip, s.protocol, s.transport_length),
                    AtParity(Subtract(frame.csum, pulled), kT - start));
    } else {
      // The transport's bytes where they lie, as ReceiveBurst sums the
      // payload's views: each view in place, no array of pieces (the
      // gathered form it replaces, kept on Zen 5, ran 55.7-60.5 ns a frame
      // against 41.4-42.4 with the headers at the front of the first view,
      // BM_VerifyBurst/none/frames:128 on a Xeon with two 512-bit vector
      // pipes, six alternated processes). With the headers in a view of
      // their own, the views after it, after the transport header's sum
      // (Buffer::ChecksumViews): the payload's two or three views take the
      // sum's path for a few pieces, not its loop for the frame's four
      // (front:0 47.9-66.5 ns against 57.3-93.5, five alternated pairs,
      // when the loop took any first piece of 64 bytes or more; since
      // checksum::ChecksumPieces sums such a header view on its own, the
      // whole frame costs 26 instructions a frame more than this, so this
      // stays). Otherwise the whole frame (Buffer::ChecksumAll;
      // MatchFast: the datagram is the rest of the frame) less the link and
      // network headers' sum, an even length, so the transport's bytes keep
      // their parity. Over IPv4 that initial value comes from one
      // accumulator (EthernetIPv4Initial: the IPv4 header, valid, sums to
      // zero), not from a pseudo-header sum and a headers' sum folded
      // apart: BM_VerifyBurst/none/prefetch:headers/front:1/frames:128
      // 38.9-39.2 ns against 40.7-41.5 (prefetch:frame 40.9-42.0 against
      // 43.6-44.8), the two quieter of three alternated processes.
      if (first.size() == payload) {
        const std::span<const uint8_t> header(f + kT, s.transport_header);
        uint16_t initial;
        if constexpr (v4) {
          initial = internal::IPv4TransportInitial(
              ip, header, s.protocol,
              static_cast<uint16_t>(s.transport_length));
        } else {
          initial = internal::HeaderSum(
              header, PseudoSumAt<kV4>(ip, s.protocol, s.transport_length));
        }
        // The payload is the views after the first (without
        // Buffer::Checksum's search for the offset: 68 instructions a frame
        // fewer in BM_VerifyBurst's pass, callgrind).
        sum = data.ChecksumViews(1, initial);
      } else if (v4) {
        sum = data.ChecksumAll(internal::EthernetIPv4Initial(
            f, s.protocol, static_cast<uint16_t>(s.transport_length)));
      } else {
        sum = data.ChecksumAll(
            Subtract(PseudoSumAt<kV4>(ip, s.protocol, s.transport_length),
                     internal::HeaderSum(std::span(f, kT))));
      }
    }
    if (!IsOnesComplementZero(sum)) {
      ++stats.dropped[static_cast<size_t>(DropReason::kBadTransportChecksum)];
      return FastResult::kDropped;
    }
    ++(complete ? stats.checksum_complete : stats.checksum_software);
  } else if (s.udp_no_checksum) {
    ++stats.udp_no_checksum;
  } else {
    ++stats.checksum_unnecessary;  // kUnnecessary, or kPartial looped back.
  }
  out.network_offset = kLink;
  out.transport_offset = static_cast<uint16_t>(kT);
  out.payload_offset = static_cast<uint16_t>(payload);
  out.network = v4 ? NetworkProtocol::kIPv4 : NetworkProtocol::kIPv6;
  out.transport = tcp ? TransportProtocol::kTCP : TransportProtocol::kUDP;
  out.payload_end = static_cast<uint32_t>(data.size());
  out.is_fragment = false;
  out.checksum_verified = !s.udp_no_checksum;
  // The transport header's first 16 bytes (TCP's header has 20 or more)
  // or 8 (UDP's), copied while its line is at hand (MatchFast: the first
  // view holds the whole header).
  std::memcpy(out.transport_head.data(), f + kT, 8);
  if (tcp) {
    std::memcpy(out.transport_head.data() + 8, f + kT + 8, 8);
  } else {
    std::memset(out.transport_head.data() + 8, 0, 8);
  }
  ++stats.delivered;
  return FastResult::kDelivered;
}

// VerifyFast is VerifyFastIP for the IP version the frame's EtherType and
// first IP byte give, or kNotTaken: a frame with consumed headers (the
// general path's drop), no view, a first view shorter than IPv4 and TCP
// headers, or another network protocol. Two functions, not one with the
// version a variable: with the IP header's length and the transport's
// offset constants, VerifyBurst's loop took 182 instructions a frame
// instead of 225, besides the sum (callgrind, which counts instructions
// exactly, on BM_VerifyBurst/none/prefetch:headers/front:1/frames:128 with
// IPSUM_CHECKSUM_IMPL=x86_avx2, as valgrind 3.19 runs no AVX-512), and 160
// with PseudoSumAt, IsAllOnesSum and EthernetIPv4Initial inlined.
[[gnu::always_inline]] inline FastResult VerifyFast(const PacketBuffer& frame,
                                                    ReceiveStats& stats,
                                                    VerifiedFrame& out) {
  const buffer::Buffer& data = frame.data();
  if (!frame.headers().empty() || data.view_count() == 0) {
    return FastResult::kNotTaken;
  }
  // The shortest frame taken: IPv4 and a TCP header without options, or a
  // UDP one with 12 bytes of data (shorter UDP frames are padded, so
  // general).
  const std::span<const uint8_t> first = data.views()[0].span();
  if (first.size() < 14 + 20 + header::TCP::kMinSize) {
    return FastResult::kNotTaken;
  }
  // EtherType (bytes 12-13) and the IP header's first byte.
  const uint32_t type_and_version = LoadBig32(first.data() + 12) & 0xfffff000u;
  if (type_and_version == 0x08004000u) {
    return VerifyFastIP<true>(frame, first, stats, out);
  }
  if (type_and_version == 0x86dd6000u) {
    return VerifyFastIP<false>(frame, first, stats, out);
  }
  return FastResult::kNotTaken;
}

// VerifyGeneral is VerifyFrame for every frame VerifyFast does not take:
// Receive's general path (Decode) on a clone of the frame, whose views
// share the frame's chunks (no payload byte is copied; the headers are,
// into the clone's header area), then the result described. Slower than
// VerifyFast, as the general path is slower than DecodeFast, and judged
// exactly as Receive judges the frame because it is Receive's own code.
bool VerifyGeneral(const PacketBuffer& frame, LinkType link,
                   ReceiveStats& stats, VerifiedFrame& out) {
  // Decode's first check, which the clone (of data() alone) would lose.
  if (!frame.headers().empty()) {
    ++stats.dropped[static_cast<size_t>(DropReason::kUnsupported)];
    return false;
  }
  ReceivedPacket r;
  r.packet = PacketBuffer::FromFrame(frame.data().Clone());
  r.packet.checksum_status = frame.checksum_status;
  r.packet.csum_start = frame.csum_start;
  r.packet.csum = frame.csum;
  if (!internal::DecodeGeneral(r, link, stats)) return false;
  const ParsedPacket& p = r.parsed;
  const size_t payload =
      p.transport_offset + r.packet.Header(Layer::kTransport).size();
  out.network_offset = static_cast<uint16_t>(p.network_offset);
  out.transport_offset = static_cast<uint16_t>(p.transport_offset);
  out.payload_offset = static_cast<uint16_t>(payload);
  out.network = p.network;
  out.transport = r.packet.transport_protocol;
  out.payload_end = static_cast<uint32_t>(payload + r.packet.data().size());
  out.is_fragment = r.is_fragment;
  out.checksum_verified = r.checksum_verified;
  // The transport header's first bytes, as VerifyFastIP copies them: 16 of
  // TCP's, 8 of UDP's, none of a fragment.
  out.transport_head = {};
  if (!r.is_fragment) {
    const std::span<const uint8_t> header = r.packet.Header(Layer::kTransport);
    const size_t n = std::min<size_t>(
        header.size(),
        r.packet.transport_protocol == TransportProtocol::kTCP ? 16 : 8);
    std::copy_n(header.begin(), n, out.transport_head.begin());
  }
  return true;
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
  if (link == LinkType::kEthernet) {
    FastResult r = VerifyFast(frame, stats, out);
    if (r != FastResult::kNotTaken) return r == FastResult::kDelivered;
  }
  return VerifyGeneral(frame, link, stats, out);
}

namespace {

// VerifyBurstWith is VerifyBurst with its prefetch policy fixed, one loop
// per policy and a function of its own, as ReceiveBurstWith (receive.cc,
// which says why), and ReceiveBurst's loop (see there for what is
// requested how far ahead, and why).
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
      RequestLines<kPolicy>(frames[i]);
    }
  }
  size_t delivered_count = 0;
  for (size_t i = 0; i < count; ++i) {
    if constexpr (kRequest) {
      if (i + kAhead + 1 < count) {
        const char* const views =
            reinterpret_cast<const char*>(&frames[i + kAhead + 1].data());
        __builtin_prefetch(views);
        __builtin_prefetch(views + 64);
      }
      if (i + kAhead < count) RequestLines<kPolicy>(frames[i + kAhead]);
    }
    FastResult r = FastResult::kNotTaken;
    if (link == LinkType::kEthernet) r = VerifyFast(frames[i], stats, out[i]);
    const bool ok = r != FastResult::kNotTaken
                        ? r == FastResult::kDelivered
                        : VerifyGeneral(frames[i], link, stats, out[i]);
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
  if (!tcp->options().empty()) {
    header::Result<header::TCPOptions> options =
        header::ParseTCPOptions(tcp->options());
    if (!options.ok()) return std::nullopt;
    info.options = *options;
  }
  info.seq = tcp->seq();
  info.ack = tcp->ack();
  info.flags = tcp->flags();
  info.window = tcp->window();
  info.urgent_pointer = tcp->urgent_pointer();
  return info;
}

}  // namespace ipsum::tcpip
