// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Receive: the fast classification shared with VerifyFrame
// (internal/receive_fast.h) plus filling in the packet, and for every other
// frame the general decoder, one layer at a time: the parse step, the
// network header checked with the header package's views, the headers
// consumed in one step, then the transport checksum in the packet's
// offload state.

#include "tcpip/receive.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <optional>
#include <span>
#include <type_traits>
#include <utility>

#include "checksum/checksum.h"
#include "checksum/endian.h"
#include "header/checksum.h"
#include "header/ipv4.h"
#include "header/ipv6.h"
#include "header/protocol.h"
#include "header/tcp.h"
#include "header/udp.h"
#include "tcpip/internal/header_sum.h"
#include "tcpip/internal/receive_common.h"
#include "tcpip/internal/receive_fast.h"
#include "tcpip/internal/receive_general.h"

namespace ipsum::tcpip {

std::string_view ToString(DropReason r) {
  switch (r) {
    case DropReason::kTruncated:
      return "truncated";
    case DropReason::kMalformed:
      return "malformed";
    case DropReason::kUnsupported:
      return "unsupported";
    case DropReason::kBadIPChecksum:
      return "bad IP checksum";
    case DropReason::kBadTransportChecksum:
      return "bad transport checksum";
    case DropReason::kUDPZeroChecksum:
      return "UDP zero checksum over IPv6";
    case DropReason::kBadOffloadMetadata:
      return "bad offload metadata";
  }
  return "unknown";
}

std::string_view ToString(BurstPrefetch p) {
  switch (p) {
    case BurstPrefetch::kFrame:
      return "frame";
    case BurstPrefetch::kHeaders:
      return "headers";
    case BurstPrefetch::kNone:
      return "none";
  }
  return "unknown";
}

uint64_t ReceiveStats::TotalDropped() const {
  uint64_t n = 0;
  for (uint64_t d : dropped) n += d;
  return n;
}

namespace {

using internal::AtParity;
using internal::CountDrop;
using internal::IsOnesComplementZero;

// ---------------------------------------------------------------------------
// The general decoder.

// Fault is why a step of the general decoder drops the packet, or nullopt
// when the decode goes on.
using Fault = std::optional<DropReason>;

DropReason FromParseError(ParseError e) {
  switch (e) {
    case ParseError::kTruncated:
      return DropReason::kTruncated;
    case ParseError::kMalformed:
      return DropReason::kMalformed;
    case ParseError::kOk:
    case ParseError::kUnsupported:
      break;
  }
  return DropReason::kUnsupported;
}

// Complete tracks a CHECKSUM_COMPLETE sum while the frame is cut down to
// its transport bytes: `sum` is the sum of the packet's bytes from `start`
// to its current end, counted from `start`.
struct Complete {
  bool usable = false;
  size_t start = 0;
  uint16_t sum = 0;
};

// TrimTail cuts pkt's data to `keep` bytes; for a usable COMPLETE sum, the
// sum of the bytes cut (which start at packet offset `end`) is taken out.
bool TrimTail(PacketBuffer& pkt, size_t keep, Complete& c) {
  buffer::Buffer& data = pkt.data();
  if (keep > data.size()) return false;
  if (keep == data.size()) return true;
  if (c.usable) {
    size_t end = pkt.headers().size() + keep;  // Packet offset of the cut.
    std::optional<uint16_t> cut = data.Checksum(keep, data.size() - keep);
    if (!cut) return false;
    c.sum = checksum::Subtract(c.sum, AtParity(*cut, end - c.start));
  }
  return data.Truncate(keep);
}

// GeneralDecoder is Receive for every frame the fast classification does
// not take: one method per layer, each a Fault, run in the order of the
// layers so that a packet wrong in several ways is dropped for its
// outermost fault.
class GeneralDecoder {
 public:
  GeneralDecoder(ReceivedPacket& out, LinkType link)
      : out_(out), pkt_(out.packet), p_(out.parsed), link_(link) {}

  // Run decodes the packet, filling in `out`; counts what it did in
  // `stats` (but stats.received) and returns whether it was delivered.
  bool Run(ReceiveStats& stats) {
    Fault fault = Decode(stats);
    if (fault) {
      CountDrop(stats, *fault);
      return false;
    }
    ++stats.delivered;
    return true;
  }

 private:
  Fault Decode(ReceiveStats& stats);
  Fault Parse();
  Fault CheckNetwork();
  Fault CheckTCP();
  Fault CheckUDP();
  Fault CheckTransportSum(ReceiveStats& stats);

  ReceivedPacket& out_;
  PacketBuffer& pkt_;
  ParsedPacket& p_;
  const LinkType link_;
  // The frame's first bytes, in which the parse step found its headers:
  // its first view, or a copy of its first kHeaderCapacity bytes.
  std::span<const uint8_t> prefix_;
  std::array<uint8_t, PacketBuffer::kHeaderCapacity> copy_;
  Complete complete_;
  size_t transport_length_ = 0;
  bool udp_no_checksum_ = false;
};

Fault GeneralDecoder::Decode(ReceiveStats& stats) {
  // `out` may be reused (ReceiveInPlace): every field but `packet` and
  // `parsed` (assigned by the parse step) starts over.
  out_.source_v4 = {};
  out_.destination_v4 = {};
  out_.source_v6 = {};
  out_.destination_v6 = {};
  out_.is_fragment = false;
  out_.checksum_verified = false;
  out_.source_port = 0;
  out_.destination_port = 0;
  out_.tcp.reset();
  // A frame arrives whole in data(), nothing consumed yet.
  if (!pkt_.headers().empty()) return DropReason::kUnsupported;
  // Offload metadata is input too: checked before it is used.
  if (pkt_.checksum_status == ChecksumStatus::kComplete) {
    if (pkt_.csum_start > pkt_.data().size()) {
      return DropReason::kBadOffloadMetadata;
    }
    complete_.start = pkt_.csum_start;
    complete_.sum = pkt_.csum;
  }
  if (Fault f = Parse()) return f;
  if (Fault f = CheckNetwork()) return f;

  // Every header is consumed in one step, so each one's length is known
  // first. The header area must hold the link and network headers.
  if (p_.link_header_length + p_.network_header_length >
      PacketBuffer::kHeaderCapacity) {
    return DropReason::kUnsupported;
  }
  // A COMPLETE sum that starts past the transport header does not cover
  // it: software verifies.
  const bool is_complete = pkt_.checksum_status == ChecksumStatus::kComplete;
  complete_.usable = is_complete && complete_.start <= p_.transport_offset;
  if (is_complete && !complete_.usable) ++stats.complete_fallback;
  // Bytes past the IP length (Ethernet padding) belong to no layer.
  if (!TrimTail(pkt_, p_.transport_offset + p_.transport_length, complete_)) {
    return DropReason::kTruncated;
  }
  pkt_.network_protocol = p_.network;

  if (p_.is_fragment) {
    // Handed up as it is: reassembly is the caller's, and the transport
    // checksum covers the reassembled datagram only.
    if (!pkt_.ConsumeHeaders(p_.link_header_length, p_.network_header_length,
                             0)) {
      return DropReason::kUnsupported;
    }
    out_.is_fragment = true;
    ++stats.fragments;
    return std::nullopt;
  }
  transport_length_ = p_.transport_length;
  if (p_.transport_protocol == header::kProtocolTCP) {
    if (Fault f = CheckTCP()) return f;
  } else if (p_.transport_protocol == header::kProtocolUDP) {
    if (Fault f = CheckUDP()) return f;
  } else {
    return DropReason::kUnsupported;
  }
  return CheckTransportSum(stats);
}

// Parse runs the parse step on the frame's first view when it holds the
// headers (a NIC's receive buffer does: no copy), else on a copy of the
// first kHeaderCapacity bytes. The frame is not modified.
Fault GeneralDecoder::Parse() {
  const buffer::Buffer& data = pkt_.data();
  const size_t frame_size = data.size();
  if (data.view_count() != 0) prefix_ = data.views()[0].span();
  auto parse = [&](std::span<const uint8_t> bytes) {
    return link_ == LinkType::kEthernet ? ParseEthernetPrefix(bytes, frame_size)
                                        : ParseIPPrefix(bytes, frame_size);
  };
  p_ = parse(prefix_);
  const size_t want = std::min(frame_size, PacketBuffer::kHeaderCapacity);
  if (p_.error == ParseError::kUnsupported && prefix_.size() < want) {
    // The headers may run past the first view.
    std::span<uint8_t> c = std::span(copy_).first(want);
    if (!data.CopyOut(0, c)) return DropReason::kTruncated;
    prefix_ = c;
    p_ = parse(prefix_);
  }
  if (!p_.ok()) return FromParseError(p_.error);
  if (p_.network == NetworkProtocol::kNone) return DropReason::kUnsupported;
  if (p_.truncated) return DropReason::kTruncated;
  return std::nullopt;
}

// CheckNetwork validates the IP header with the header package's views and
// takes its addresses.
Fault GeneralDecoder::CheckNetwork() {
  std::span<const uint8_t> net = prefix_.subspan(p_.network_offset);
  if (p_.network == NetworkProtocol::kIPv4) {
    header::Result<header::IPv4> ip = header::IPv4::ParsePrefix(net);
    if (!ip.ok()) return DropReason::kMalformed;
    // RFC 791 section 3.1: the header's own sum is all ones.
    if (!internal::IsAllOnesSum(ip->header())) {
      return DropReason::kBadIPChecksum;
    }
    out_.source_v4 = ip->source();
    out_.destination_v4 = ip->destination();
    return std::nullopt;
  }
  header::Result<header::IPv6> ip = header::IPv6::ParsePrefix(net);
  if (!ip.ok()) return DropReason::kMalformed;
  if (!ip->WalkExtensionHeaders().ok()) return DropReason::kMalformed;
  // RFC 8200 section 8.1: with Segments Left > 0 this node is not the
  // final destination, whose address the pseudo-header needs.
  if (p_.segments_left != 0) return DropReason::kUnsupported;
  out_.source_v6 = ip->source();
  out_.destination_v6 = ip->destination();
  return std::nullopt;
}

// CheckTCP consumes the headers down to the TCP header with its options
// and decodes it.
Fault GeneralDecoder::CheckTCP() {
  using header::TCP;
  if (transport_length_ < TCP::kMinSize) return DropReason::kMalformed;
  // Data Offset, from the prefix when it holds the byte, else from the
  // frame. The prefix is still the frame's first bytes: nothing is
  // consumed yet, and TrimTail only shortened views the packet still holds.
  const size_t at = p_.transport_offset + TCP::kDataOffsetOffset;
  uint8_t offset_byte = 0;
  if (at < prefix_.size()) {
    offset_byte = prefix_[at];
  } else if (!pkt_.data().CopyOut(at, std::span(&offset_byte, 1))) {
    return DropReason::kTruncated;
  }
  // RFC 9293 section 3.1: Data Offset counts 32-bit words, at least 5,
  // within the segment.
  const size_t data_offset = static_cast<size_t>(offset_byte >> 4) * 4;
  if (data_offset < TCP::kMinSize || data_offset > transport_length_) {
    return DropReason::kMalformed;
  }
  if (!pkt_.ConsumeHeaders(p_.link_header_length, p_.network_header_length,
                           data_offset)) {
    return DropReason::kUnsupported;
  }
  header::Result<TCP> tcp = TCP::Parse(pkt_.Header(Layer::kTransport));
  if (!tcp.ok()) return DropReason::kMalformed;
  if (!internal::DecodeTCPInfo(*tcp, out_.tcp.emplace())) {
    return DropReason::kMalformed;
  }
  out_.source_port = tcp->source_port();
  out_.destination_port = tcp->destination_port();
  pkt_.transport_protocol = TransportProtocol::kTCP;
  return std::nullopt;
}

// CheckUDP consumes the headers down to the UDP header, decodes it and
// trims the packet to the datagram's length.
Fault GeneralDecoder::CheckUDP() {
  using header::UDP;
  if (transport_length_ < UDP::kSize) return DropReason::kMalformed;
  if (!pkt_.ConsumeHeaders(p_.link_header_length, p_.network_header_length,
                           UDP::kSize)) {
    return DropReason::kUnsupported;
  }
  header::Result<UDP> udp = UDP::ParsePrefix(pkt_.Header(Layer::kTransport));
  if (!udp.ok()) return DropReason::kMalformed;
  // RFC 768: Length counts the header and the data; it may be shorter than
  // the IP payload (the rest is not the datagram's), never longer.
  const size_t length = udp->length();
  if (length < UDP::kSize || length > transport_length_) {
    return DropReason::kMalformed;
  }
  if (!TrimTail(pkt_, length - UDP::kSize, complete_)) {
    return DropReason::kMalformed;
  }
  transport_length_ = length;
  if (udp->checksum() == 0) {
    // RFC 768: zero means no checksum was sent. RFC 8200 section 8.1:
    // "IPv6 receivers must discard UDP packets containing a zero checksum".
    if (p_.network != NetworkProtocol::kIPv4) {
      return DropReason::kUDPZeroChecksum;
    }
    udp_no_checksum_ = true;
  }
  out_.source_port = udp->source_port();
  out_.destination_port = udp->destination_port();
  pkt_.transport_protocol = TransportProtocol::kUDP;
  return std::nullopt;
}

// CheckTransportSum judges the transport checksum in the packet's offload
// state, the headers consumed and the data trimmed to the transport's
// bytes.
Fault GeneralDecoder::CheckTransportSum(ReceiveStats& stats) {
  if (udp_no_checksum_) {
    ++stats.udp_no_checksum;
    return std::nullopt;
  }
  const ChecksumStatus status = pkt_.checksum_status;
  if (status == ChecksumStatus::kUnnecessary ||
      status == ChecksumStatus::kPartial) {
    // kPartial on receive is a locally built packet looped back, never on
    // a wire: trusted, as Linux's skb_csum_unnecessary does.
    ++stats.checksum_unnecessary;
    out_.checksum_verified = true;
    return std::nullopt;
  }
  const uint8_t protocol = p_.transport_protocol;
  const uint16_t pseudo =
      p_.network == NetworkProtocol::kIPv4
          ? header::PseudoHeaderSum(out_.source_v4, out_.destination_v4,
                                    protocol,
                                    static_cast<uint16_t>(transport_length_))
          : header::PseudoHeaderSum(out_.source_v6, out_.destination_v6,
                                    protocol,
                                    static_cast<uint32_t>(transport_length_));
  const size_t t = p_.transport_offset;
  uint16_t sum;
  if (complete_.usable) {
    // The consumed headers in front of the transport taken out of the
    // NIC's sum leave the transport's, counted from complete.start.
    std::optional<uint16_t> pulled =
        pkt_.Checksum(complete_.start, t - complete_.start);
    if (!pulled) return DropReason::kBadOffloadMetadata;
    sum = checksum::Combine(pseudo,
                            AtParity(checksum::Subtract(complete_.sum, *pulled),
                                     t - complete_.start));
  } else {
    // The transport's bytes: its consumed header (of even length), then
    // all of data(), trimmed to the transport's length.
    std::span<const uint8_t> th = pkt_.Header(Layer::kTransport);
    if (th.size() + pkt_.data().size() != transport_length_) {
      return DropReason::kTruncated;
    }
    sum = pkt_.data().ChecksumAll(internal::HeaderSum(th, pseudo));
  }
  if (!IsOnesComplementZero(sum)) return DropReason::kBadTransportChecksum;
  ++(complete_.usable ? stats.checksum_complete : stats.checksum_software);
  out_.checksum_verified = true;
  return std::nullopt;
}

// Decode is Receive on out.packet, which holds the frame, by the general
// decoder.
bool Decode(ReceivedPacket& out, LinkType link, ReceiveStats& stats) {
  return GeneralDecoder(out, link).Run(stats);
}

// ---------------------------------------------------------------------------
// The fast path: the shared classification and transport check, then the
// packet filled in at fixed offsets.

using internal::FastResult;

// FastParsed is the ParsedPacket of the fast shape of an IP version, but
// for the fields that vary from frame to frame: ip_length,
// captured_ip_bytes, fragment_id (IPv4), transport_protocol and
// transport_length.
template <bool kV4>
constexpr ParsedPacket FastParsed() {
  ParsedPacket p;
  p.has_ethernet = true;
  p.ether_type = kV4 ? header::kEtherTypeIPv4 : header::kEtherTypeIPv6;
  p.link_header_length = kFastLink;
  p.network = kV4 ? NetworkProtocol::kIPv4 : NetworkProtocol::kIPv6;
  p.network_offset = kFastLink;
  p.network_header_length = kFastNetwork<kV4>;
  p.transport_offset = kFastTransport<kV4>;
  return p;
}
template <bool kV4>
constexpr ParsedPacket kFastParsed = FastParsed<kV4>();

// Moves16 copies 16 bytes from s + 16 * k to d + 16 * k for each k.
template <size_t... k>
[[gnu::always_inline]] inline void Moves16(unsigned char* d,
                                           const unsigned char* s,
                                           std::index_sequence<k...>) {
  (std::memcpy(d + 16 * k, s + 16 * k, 16), ...);
}

// CopyInMoves copies `from` to `to` in unrolled 16-byte moves, the last
// overlapping the one before when the size is not a multiple of 16: the
// per-frame templates below are copied so, where a plain assignment or
// zeroing of a struct this size may become `rep movs` or `rep stos`, whose
// start-up costs more than the rest of the fill.
template <typename T>
[[gnu::always_inline]] inline void CopyInMoves(const T& from, T& to) {
  static_assert(std::is_trivially_copyable_v<T> && sizeof(T) >= 16);
  auto* const d = reinterpret_cast<unsigned char*>(&to);
  const auto* const s = reinterpret_cast<const unsigned char*>(&from);
  Moves16(d, s, std::make_index_sequence<sizeof(T) / 16>());
  if constexpr (sizeof(T) % 16 != 0) {
    std::memcpy(d + sizeof(T) - 16, s + sizeof(T) - 16, 16);
  }
}

// kFastTCP is out.tcp as the fast path begins a TCP segment without
// options or with the aligned timestamps: engaged, every field zero.
constexpr std::optional<TCPInfo> kFastTCP{std::in_place};

// FillFast fills in `out` for a frame of the fast shape `s` whose headers
// have been consumed, reading them from the header area.
template <bool kV4>
[[gnu::always_inline]] inline void FillFast(ReceivedPacket& out,
                                            const FastShape& s) {
  PacketBuffer& pkt = out.packet;
  const uint8_t* const h = pkt.headers().data();
  const uint8_t* const ip = h + kFastLink;
  const uint8_t* const tr = h + kFastTransport<kV4>;
  using header::TCP;
  if (s.protocol == header::kProtocolTCP) {
    if (!s.other_options) CopyInMoves(kFastTCP, out.tcp);
    TCPInfo& info = *out.tcp;
    if (s.timestamps) {
      constexpr size_t kTSval = TCP::kMinSize + 4;  // After NOP NOP 8 10.
      info.options.timestamps = header::TCPTimestamps{
          LoadBig32(tr + kTSval), LoadBig32(tr + kTSval + 4)};
    }
    info.seq = LoadBig32(tr + TCP::kSeqOffset);
    info.ack = LoadBig32(tr + TCP::kAckOffset);
    info.flags = tr[TCP::kFlagsOffset];
    info.window = LoadBig16(tr + TCP::kWindowOffset);
    info.urgent_pointer = LoadBig16(tr + TCP::kUrgentPointerOffset);
    pkt.transport_protocol = TransportProtocol::kTCP;
  } else {
    out.tcp.reset();
    pkt.transport_protocol = TransportProtocol::kUDP;
  }
  // TCP and UDP headers start with the same two ports.
  static_assert(TCP::kSourcePortOffset == header::UDP::kSourcePortOffset &&
                TCP::kDestinationPortOffset ==
                    header::UDP::kDestinationPortOffset);
  out.source_port = LoadBig16(tr + TCP::kSourcePortOffset);
  out.destination_port = LoadBig16(tr + TCP::kDestinationPortOffset);
  out.is_fragment = false;
  out.checksum_verified = !s.udp_no_checksum;
  if constexpr (kV4) {
    using header::IPv4;
    out.source_v4 = header::IPv4Address::From(ip + IPv4::kSourceOffset);
    out.destination_v4 =
        header::IPv4Address::From(ip + IPv4::kDestinationOffset);
    out.source_v6 = {};
    out.destination_v6 = {};
    pkt.network_protocol = NetworkProtocol::kIPv4;
  } else {
    using header::IPv6;
    out.source_v4 = {};
    out.destination_v4 = {};
    out.source_v6 = header::IPv6Address::From(ip + IPv6::kSourceOffset);
    out.destination_v6 =
        header::IPv6Address::From(ip + IPv6::kDestinationOffset);
    pkt.network_protocol = NetworkProtocol::kIPv6;
  }
  ParsedPacket& p = out.parsed;
  CopyInMoves(kFastParsed<kV4>, p);
  p.ip_length = kFastNetwork<kV4> + s.transport_length;
  p.captured_ip_bytes = p.ip_length;
  if constexpr (kV4) p.fragment_id = LoadBig16(ip + header::IPv4::kIDOffset);
  p.transport_protocol = s.protocol;
  p.transport_length = s.transport_length;
}

// DecodeFastIP is Receive for a frame of the fast shape, of IP version
// kV4 (first view `first`): VerifyFrame's judgement, then the headers
// consumed in one step and the packet filled in. kNotTaken leaves the
// frame untouched to the general decoder.
template <bool kV4>
[[gnu::always_inline]] inline FastResult DecodeFastIP(
    ReceivedPacket& out, std::span<const uint8_t> first, ReceiveStats& stats) {
  PacketBuffer& pkt = out.packet;
  FastShape s;
  if (!internal::ClassifyPacketFast<kV4>(pkt, first, s, &out.tcp)) {
    return FastResult::kNotTaken;
  }
  if (!internal::FastCheckTransport<kV4>(pkt, first, s, stats)) {
    return FastResult::kDropped;
  }
  if (!pkt.ConsumeHeaders(kFastLink, kFastNetwork<kV4>, s.transport_header)) {
    // Cannot happen (every header is in the first view, within the header
    // area); a broken invariant drops rather than misreads.
    CountDrop(stats, DropReason::kUnsupported);
    return FastResult::kDropped;
  }
  FillFast<kV4>(out, s);
  ++stats.delivered;
  return FastResult::kDelivered;
}

// DecodeFast is DecodeFastIP for the frame's IP version, or kNotTaken.
[[gnu::always_inline]] inline FastResult DecodeFast(ReceivedPacket& out,
                                                    ReceiveStats& stats) {
  std::span<const uint8_t> first;
  switch (internal::PacketFastFamily(out.packet, first)) {
    case FastFamily::kIPv4:
      return DecodeFastIP<true>(out, first, stats);
    case FastFamily::kIPv6:
      return DecodeFastIP<false>(out, first, stats);
    case FastFamily::kNone:
      break;
  }
  return FastResult::kNotTaken;
}

// ReceiveOne is ReceiveInPlace without counting the packet as received.
[[gnu::always_inline]] inline bool ReceiveOne(ReceivedPacket& packet,
                                              LinkType link,
                                              ReceiveStats& stats) {
  if (link == LinkType::kEthernet) {
    FastResult r = DecodeFast(packet, stats);
    if (r != FastResult::kNotTaken) return r == FastResult::kDelivered;
  }
  return Decode(packet, link, stats);
}

}  // namespace

std::optional<ReceivedPacket> Receive(PacketBuffer&& frame, LinkType link,
                                      ReceiveStats& stats) {
  // Built in place and returned by NRVO: the packet moves once, into it.
  std::optional<ReceivedPacket> result(std::in_place);
  result->packet = std::move(frame);
  if (!ReceiveInPlace(*result, link, stats)) result.reset();
  return result;
}

bool ReceiveInPlace(ReceivedPacket& packet, LinkType link,
                    ReceiveStats& stats) {
  ++stats.received;
  if (packet.packet.checksum_status == ChecksumStatus::kNone) {
    // The checksum reads the whole frame after the decode: started now,
    // its lines arrive while the headers are decoded.
    packet.packet.data().Prefetch(internal::kReceivePrefetchBytes);
  }
  return ReceiveOne(packet, link, stats);
}

namespace {

// ReceiveBurstWith is ReceiveBurst with its prefetch policy fixed: one
// loop per policy, each a function of its own (noinline) so that each
// compiles to the loop it would be alone.
template <BurstPrefetch kPolicy>
[[gnu::noinline]] size_t ReceiveBurstWith(std::span<ReceivedPacket> packets,
                                          LinkType link, ReceiveStats& stats,
                                          std::span<bool> delivered) {
  constexpr bool kRequest = kPolicy != BurstPrefetch::kNone;
  constexpr size_t kAhead = internal::kReceiveBurstAhead;
  const size_t count = std::min(packets.size(), delivered.size());
  stats.received += count;
  if constexpr (kRequest) {
    for (size_t i = 0; i < count && i < kAhead; ++i) {
      internal::RequestLines<kPolicy>(packets[i].packet);
    }
  }
  size_t delivered_count = 0;
  for (size_t i = 0; i < count; ++i) {
    if constexpr (kRequest) {
      if (i + kAhead + 1 < count) {
        internal::RequestBufferLines(packets[i + kAhead + 1].packet);
      }
      if (i + kAhead < count) {
        internal::RequestLines<kPolicy>(packets[i + kAhead].packet);
      }
    }
    const bool ok = ReceiveOne(packets[i], link, stats);
    delivered[i] = ok;
    delivered_count += ok;
  }
  return delivered_count;
}

}  // namespace

size_t ReceiveBurst(std::span<ReceivedPacket> packets, LinkType link,
                    ReceiveStats& stats, std::span<bool> delivered,
                    BurstPrefetch prefetch) {
  switch (prefetch) {
    case BurstPrefetch::kHeaders:
      return ReceiveBurstWith<BurstPrefetch::kHeaders>(packets, link, stats,
                                                       delivered);
    case BurstPrefetch::kNone:
      return ReceiveBurstWith<BurstPrefetch::kNone>(packets, link, stats,
                                                    delivered);
    default:  // kFrame, and any value outside the enumeration.
      return ReceiveBurstWith<BurstPrefetch::kFrame>(packets, link, stats,
                                                     delivered);
  }
}

namespace internal {

bool ReceiveGeneralForTesting(ReceivedPacket& packet, LinkType link,
                              ReceiveStats& stats) {
  ++stats.received;
  return Decode(packet, link, stats);
}

bool DecodeGeneral(ReceivedPacket& packet, LinkType link, ReceiveStats& stats) {
  return Decode(packet, link, stats);
}

}  // namespace internal

}  // namespace ipsum::tcpip
