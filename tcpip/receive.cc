// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Receive: parse step, header validation with the header package's views,
// the headers consumed in one step, then the transport checksum in the
// packet's offload state.

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
#include "header/ipv4.h"
#include "header/ipv6.h"
#include "header/protocol.h"
#include "header/udp.h"
#include "tcpip/internal/header_sum.h"
#include "tcpip/internal/receive_general.h"

namespace ipsum::tcpip {
namespace {

using checksum::Combine;
using checksum::CombineAt;
using checksum::Subtract;

// AtParity returns `sum`, the sum of bytes that start `offset` bytes into a
// checksummed range, as it counts in the range's sum: byte-swapped when the
// offset is odd (RFC 1071 section 2(B)). It is its own inverse.
uint16_t AtParity(uint16_t sum, size_t offset) {
  return (offset & 1) ? ByteSwap16(sum) : sum;
}

// IsOnesComplementZero reports whether `sum` is zero in one's-complement
// arithmetic, where 0x0000 and 0xffff are both zero (RFC 1624 section 3).
bool IsOnesComplementZero(uint16_t sum) { return sum == 0 || sum == 0xffff; }

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
    c.sum = Subtract(c.sum, AtParity(*cut, end - c.start));
  }
  return data.Truncate(keep);
}

// IsAlignedTimestamps reports whether the TCP option area `area` is the
// layout RFC 7323 Appendix A recommends and most stacks send on every
// segment once timestamps are on: NOP NOP Timestamps, the values at bytes
// 4 and 8.
[[gnu::always_inline]] inline bool IsAlignedTimestamps(
    std::span<const uint8_t> area) {
  constexpr size_t kAlignedTimestampsSize = 12;
  constexpr uint32_t kNop = 1;
  constexpr uint32_t kTimestampsLength = 10;
  // The four bytes compared at once (one load, not four).
  constexpr uint32_t kLead = kNop << 24 | kNop << 16 |
                             uint32_t{header::kTCPOptionTimestamps} << 8 |
                             kTimestampsLength;
  return area.size() == kAlignedTimestampsSize &&
         LoadBig32(area.data()) == kLead;
}

// ParseOptions parses a TCP option area, `area`, into `options`
// (default-constructed) and returns true, or returns false for a malformed
// option list. NOP NOP Timestamps (IsAlignedTimestamps) is read directly;
// anything else goes through header::ParseTCPOptions. Both give the same
// result for that layout.
[[gnu::always_inline]] inline bool ParseOptions(std::span<const uint8_t> area,
                                                header::TCPOptions& options) {
  if (area.empty()) return true;
  if (IsAlignedTimestamps(area)) {
    options.timestamps =
        header::TCPTimestamps{LoadBig32(&area[4]), LoadBig32(&area[8])};
    return true;
  }
  header::Result<header::TCPOptions> parsed = header::ParseTCPOptions(area);
  if (!parsed.ok()) return false;
  options = *parsed;
  return true;
}

}  // namespace

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

// kPrefetchBytes is how much of a frame ReceiveInPlace prefetches before
// verifying it in software: a standard Ethernet frame. The lines of a
// longer frame past it are fetched by the checksum's own loads, many at a
// time, by then with nothing else to wait for.
constexpr size_t kPrefetchBytes = internal::kReceivePrefetchBytes;

// FastParsed returns the ParsedPacket of DecodeFast's shape, untagged
// Ethernet and IPv4 without options (v4) or IPv6 without extension headers,
// but for the fields that vary from frame to frame: ip_length,
// captured_ip_bytes, fragment_id (IPv4), transport_protocol and
// transport_length.
constexpr ParsedPacket FastParsed(bool v4) {
  ParsedPacket p;
  p.has_ethernet = true;
  p.ether_type = v4 ? 0x0800 : 0x86dd;
  p.link_header_length = 14;
  p.network = v4 ? NetworkProtocol::kIPv4 : NetworkProtocol::kIPv6;
  p.network_offset = 14;
  p.network_header_length = v4 ? 20 : 40;
  p.transport_offset = p.link_header_length + p.network_header_length;
  return p;
}

// kFastParsed holds FastParsed(false) and FastParsed(true).
constexpr ParsedPacket kFastParsed[2] = {FastParsed(false), FastParsed(true)};

// Moves16 copies 16 bytes from s + 16 * k to d + 16 * k for each k.
template <size_t... k>
[[gnu::always_inline]] inline void Moves16(unsigned char* d,
                                           const unsigned char* s,
                                           std::index_sequence<k...>) {
  (std::memcpy(d + 16 * k, s + 16 * k, 16), ...);
}
// CopyInMoves copies `from` to `to` in 16-byte moves, unrolled, the last
// one overlapping the one before when the size is not a multiple of 16: a
// plain assignment of the 144-byte ParsedPacket may become `rep movsq`.
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

// kFastTCP is out.tcp as DecodeFast begins a TCP segment without options
// or with NOP NOP Timestamps: engaged, every field zero. Copied in five
// 16-byte moves, where `emplace()` took nine stores (five 16-byte zeros,
// the three options' engaged bytes again, its own engaged byte).
// Measured and not kept: one template per layout (timestamps engaged in the
// second, so the value is stored without the engaged test), seq and ack
// stored as one 8-byte value (LoadBig64, rotated on little-endian hosts)
// and flags, window and urgent pointer as another, with CopyHeaders' 64-
// and 32-byte memcpys as unrolled 16-byte ones (without that GCC made
// them `rep movsl`, +34 instructions a frame): callgrind 307.5 -> 302.4
// self instructions per frame (BM_ReceiveBurst/unnecessary/front:1), 315.5
// -> 301.4 (front:0), 4 stores fewer, yet slower in tcpip_benchmark
// (frames:128, 3 alternated processes): unnecessary/front:1 14.3-15.1 ->
// 15.9-16.3 ns, front:0 19.3-19.5 -> 20.3-20.7 ns, none/front:0 over
// BM_RawChecksumFrames/views/ahead:0 2.05-2.10 -> 2.13-2.21x.
constexpr std::optional<TCPInfo> kFastTCP{std::in_place};

// FastResult is what DecodeFast did with a frame.
enum class FastResult : uint8_t { kDelivered, kDropped, kNotTaken };

// DecodeFast decodes the frame almost every host receives almost all the
// time: Ethernet II without VLAN tags; IPv4 without options, not a
// fragment, with a valid header checksum, or IPv6 without extension
// headers; TCP (with a valid data offset and option list) or UDP (whose
// length is the IP payload's); exactly as long as the IP header says, so no
// Ethernet padding to trim; all the headers in the frame's first view. It reads
// that shape at fixed offsets, with none of the general path's walks, views
// and re-parses: it checks the shape in the first view, consumes the headers
// in one step before it stores anything in the packet, and reads the fields
// from the header area.
//
// Every other frame is left untouched to the general path (kNotTaken):
// other shapes, and every frame the general path would drop before the
// transport checksum (malformed, truncated, unsupported, bad IP checksum,
// bad offload metadata), so that those reasons are counted in one place.
// For the frames it takes, DecodeFast delivers, or drops for a bad
// transport checksum, exactly as the general path would: field for field
// and counter for counter, which receive_test checks against
// internal::ReceiveGeneralForTesting on every frame shape it generates.
[[gnu::always_inline]] inline FastResult DecodeFast(ReceivedPacket& out,
                                                    ReceiveStats& stats) {
  PacketBuffer& pkt = out.packet;
  buffer::Buffer& data = pkt.data();
  if (!pkt.headers().empty() || data.view_count() == 0) {
    return FastResult::kNotTaken;
  }
  constexpr size_t kLink = 14;  // Ethernet II, untagged.
  const std::span<const uint8_t> first = data.views()[0].span();
  // The shortest frame taken: IPv4 and a TCP header without options, or a
  // UDP one with 12 bytes of data (shorter UDP frames are padded, so
  // general).
  if (first.size() < kLink + 20 + header::TCP::kMinSize) {
    return FastResult::kNotTaken;
  }
  const uint8_t* f = first.data();
  const uint8_t* n = f + kLink;  // The IP header.
  const size_t frame_size = data.size();
  // EtherType (bytes 12-13) and the IP header's first byte.
  const uint32_t type_and_version = LoadBig32(f + 12) & 0xfffff000u;
  size_t network_header;  // IPv4 or IPv6 header length.
  size_t ip_length;       // The datagram's, by its header.
  uint8_t protocol;
  if (type_and_version == 0x08004000u) {
    // IPv4 without options (IHL 5).
    if (n[0] != 0x45) return FastResult::kNotTaken;
    network_header = 20;
    ip_length = LoadBig16(n + 2);
    // Neither More Fragments nor a Fragment Offset (the reserved bit and
    // DF are not the general path's business either).
    if ((LoadBig16(n + 6) & 0x3fffu) != 0) return FastResult::kNotTaken;
    protocol = n[9];
  } else if (type_and_version == 0x86dd6000u) {
    // IPv6, the transport header right after it (no extension header).
    network_header = 40;
    if (first.size() < kLink + 40 + header::TCP::kMinSize) {
      return FastResult::kNotTaken;
    }
    ip_length = 40 + size_t{LoadBig16(n + 4)};
    protocol = n[6];
  } else {
    return FastResult::kNotTaken;
  }
  const bool v4 = network_header == 20;
  // The datagram is the whole rest of the frame, so nothing is cut off or
  // padded (and, the frame holding a transport header, longer than the
  // IP header).
  if (ip_length != frame_size - kLink) return FastResult::kNotTaken;
  if (v4 && internal::HeaderSum(first.subspan(kLink, 20)) != 0xffff) {
    return FastResult::kNotTaken;
  }
  const size_t kT = kLink + network_header;  // The transport header.
  const size_t transport_length = ip_length - network_header;
  const uint8_t* t = f + kT;
  size_t transport_header;
  bool udp_no_checksum = false;
  if (protocol == header::kProtocolTCP) {
    transport_header = static_cast<size_t>(t[12] >> 4) * 4;
    if (transport_header < header::TCP::kMinSize ||
        transport_header > transport_length) {
      return FastResult::kNotTaken;
    }
  } else if (protocol == header::kProtocolUDP) {
    if (LoadBig16(t + 4) != transport_length) return FastResult::kNotTaken;
    transport_header = header::UDP::kSize;
    // RFC 768: a zero checksum means none was sent, allowed over IPv4;
    // over IPv6 the general path drops it (RFC 8200 section 8.1).
    udp_no_checksum = LoadBig16(t + 6) == 0;
    if (udp_no_checksum && !v4) return FastResult::kNotTaken;
  } else {
    return FastResult::kNotTaken;
  }
  if (kT + transport_header > first.size()) return FastResult::kNotTaken;
  // Offload metadata: a COMPLETE sum that starts past the frame's end is
  // the general path's drop; one that starts past the transport header is
  // its fallback.
  const ChecksumStatus status = pkt.checksum_status;
  const bool complete = status == ChecksumStatus::kComplete;
  if (complete && pkt.csum_start > kT) return FastResult::kNotTaken;

  // A TCP option list is checked before anything is consumed: a bad one is
  // the general path's drop. The common layouts, none and NOP NOP
  // Timestamps, cannot be bad and are read after the consume; any other is
  // parsed now.
  bool timestamps = false;
  bool other_options = false;
  if (protocol == header::kProtocolTCP) {
    const std::span<const uint8_t> area = first.subspan(
        kT + header::TCP::kMinSize, transport_header - header::TCP::kMinSize);
    timestamps = IsAlignedTimestamps(area);
    if (!timestamps && !area.empty()) {
      if (!ParseOptions(area, out.tcp.emplace().options)) {
        out.tcp.reset();
        return FastResult::kNotTaken;
      }
      other_options = true;
    }
  }

  // One step: the 14 + 20 (or 40) + header bytes move to the header area,
  // and data() keeps the transport payload, exactly transport_length -
  // transport_header bytes (the frame ends where the IP datagram does).
  // Done before anything is stored in `out`, whose byte-wide fields may
  // alias anything: GCC then still knows what the checks above found (no
  // header yet, all of them in the first view), and ConsumeHeaders' own
  // checks of the same fold away.
  if (!pkt.ConsumeHeaders(kLink, network_header, transport_header)) {
    // Cannot happen (the headers are in the first view, at most 114 bytes);
    // kept so that a broken invariant drops rather than misreads.
    ++stats.dropped[static_cast<size_t>(DropReason::kUnsupported)];
    return FastResult::kDropped;
  }
  // From here the headers are read from the header area: with the headers
  // in a view of their own, the consume released the first view's chunk.
  const uint8_t* const h = pkt.headers().data();
  const uint8_t* const ip = h + kLink;
  const uint8_t* const tr = h + kT;

  if (protocol == header::kProtocolTCP) {
    if (!other_options) CopyInMoves(kFastTCP, out.tcp);
    TCPInfo& info = *out.tcp;
    if (timestamps) {
      constexpr size_t kTSval = header::TCP::kMinSize + 4;
      info.options.timestamps = header::TCPTimestamps{
          LoadBig32(tr + kTSval), LoadBig32(tr + kTSval + 4)};
    }
    info.seq = LoadBig32(tr + 4);
    info.ack = LoadBig32(tr + 8);
    info.flags = tr[13];
    info.window = LoadBig16(tr + 14);
    info.urgent_pointer = LoadBig16(tr + 18);
    pkt.transport_protocol = TransportProtocol::kTCP;
  } else {
    out.tcp.reset();
    pkt.transport_protocol = TransportProtocol::kUDP;
  }
  out.source_port = LoadBig16(tr);
  out.destination_port = LoadBig16(tr + 2);
  out.is_fragment = false;
  out.checksum_verified = false;
  if (v4) {
    out.source_v4 = header::IPv4Address::From(ip + 12);
    out.destination_v4 = header::IPv4Address::From(ip + 16);
    out.source_v6 = {};
    out.destination_v6 = {};
    pkt.network_protocol = NetworkProtocol::kIPv4;
  } else {
    out.source_v4 = {};
    out.destination_v4 = {};
    out.source_v6 = header::IPv6Address::From(ip + 8);
    out.destination_v6 = header::IPv6Address::From(ip + 24);
    pkt.network_protocol = NetworkProtocol::kIPv6;
  }

  // What the parse step says of this shape: the family's template, copied
  // in 16-byte moves, and the fields that vary from frame to frame (not
  // `p = ParsedPacket{}` and then the fields that differ: gcc zeroes the
  // 144-byte struct with `rep stosq`, whose start-up alone cost more than
  // the rest of this function; nor each field stored, 27 stores). 13
  // stores instead of 27 and 4 instructions more (callgrind, 303 -> 307
  // per frame), yet faster within L2 (tcpip_benchmark, frames:128, 3
  // alternated processes: BM_ReceiveBurst/unnecessary/front:1 15.1-15.6
  // -> 14.5-15.0 ns): with some 80 stores a frame, the store pipes bound
  // the decode as much as the instruction count does.
  ParsedPacket& p = out.parsed;
  CopyInMoves(kFastParsed[v4], p);
  p.ip_length = ip_length;
  p.captured_ip_bytes = ip_length;
  if (v4) p.fragment_id = LoadBig16(ip + 4);
  p.transport_protocol = protocol;
  p.transport_length = transport_length;

  if (udp_no_checksum) {
    ++stats.udp_no_checksum;
  } else if (status == ChecksumStatus::kUnnecessary ||
             status == ChecksumStatus::kPartial) {
    ++stats.checksum_unnecessary;
    out.checksum_verified = true;
  } else {
    const uint16_t pseudo =
        v4 ? internal::PseudoSum(out.source_v4, out.destination_v4, protocol,
                                 static_cast<uint16_t>(transport_length))
           : internal::PseudoSum(out.source_v6, out.destination_v6, protocol,
                                 static_cast<uint32_t>(transport_length));
    uint16_t sum;
    if (complete) {
      // The NIC's sum less that of the bytes from csum_start to the
      // transport header: the transport's sum, counted from csum_start.
      const size_t start = pkt.csum_start;
      const uint16_t pulled =
          internal::HeaderSum(std::span(h + start, kT - start));
      sum = Combine(pseudo, AtParity(Subtract(pkt.csum, pulled), kT - start));
    } else {
      sum = data.ChecksumAll(
          internal::HeaderSum(std::span(tr, transport_header), pseudo));
    }
    if (!IsOnesComplementZero(sum)) {
      ++stats.dropped[static_cast<size_t>(DropReason::kBadTransportChecksum)];
      return FastResult::kDropped;
    }
    ++(complete ? stats.checksum_complete : stats.checksum_software);
    out.checksum_verified = true;
  }
  ++stats.delivered;
  return FastResult::kDelivered;
}

// Decode is Receive on out.packet, which holds the frame; it fills in
// `out` and returns true, or counts the drop and returns false: the
// general path, for every frame DecodeFast does not take.
bool Decode(ReceivedPacket& out, LinkType link, ReceiveStats& stats) {
  auto drop = [&stats](DropReason r) {
    ++stats.dropped[static_cast<size_t>(r)];
    return false;
  };
  // `out` may be reused (ReceiveInPlace): every field but `packet` and
  // `parsed` (assigned by the parse step below) starts over.
  out.source_v4 = {};
  out.destination_v4 = {};
  out.source_v6 = {};
  out.destination_v6 = {};
  out.is_fragment = false;
  out.checksum_verified = false;
  out.source_port = 0;
  out.destination_port = 0;
  out.tcp.reset();
  PacketBuffer& pkt = out.packet;
  // A frame arrives whole in data(); nothing consumed yet.
  if (!pkt.headers().empty()) return drop(DropReason::kUnsupported);
  buffer::Buffer& data = pkt.data();
  const size_t frame_size = data.size();

  // Offload metadata is input too: check it before using it.
  Complete complete;
  if (pkt.checksum_status == ChecksumStatus::kComplete) {
    if (pkt.csum_start > frame_size) {
      return drop(DropReason::kBadOffloadMetadata);
    }
    complete.start = pkt.csum_start;
    complete.sum = pkt.csum;
  }

  // The parse step, on the frame's first view when it holds the headers
  // (a NIC's receive buffer does: no copy), else on a copy of the first
  // kHeaderCapacity bytes on the stack. The frame is not modified.
  std::array<uint8_t, PacketBuffer::kHeaderCapacity> copy;
  std::span<const uint8_t> prefix;
  if (data.view_count() != 0) prefix = data.views()[0].span();
  auto parse = [&](std::span<const uint8_t> bytes) {
    return link == LinkType::kEthernet ? ParseEthernetPrefix(bytes, frame_size)
                                       : ParseIPPrefix(bytes, frame_size);
  };
  ParsedPacket& p = out.parsed;
  p = parse(prefix);
  const size_t want = std::min(frame_size, PacketBuffer::kHeaderCapacity);
  if (p.error == ParseError::kUnsupported && prefix.size() < want) {
    // The headers may run past the first view.
    std::span<uint8_t> c = std::span(copy).first(want);
    if (!data.CopyOut(0, c)) return drop(DropReason::kTruncated);
    prefix = c;
    p = parse(prefix);
  }
  if (!p.ok()) return drop(FromParseError(p.error));
  if (p.network == NetworkProtocol::kNone) {
    return drop(DropReason::kUnsupported);
  }
  if (p.truncated) return drop(DropReason::kTruncated);

  // Validate the network header with the header package's views.
  std::span<const uint8_t> net = prefix.subspan(p.network_offset);
  if (p.network == NetworkProtocol::kIPv4) {
    header::Result<header::IPv4> ip = header::IPv4::ParsePrefix(net);
    if (!ip.ok()) return drop(DropReason::kMalformed);
    // RFC 791 section 3.1, Header Checksum: "the 16 bit one's complement
    // of the one's complement sum of all 16 bit words in the header".
    // (ip->IsChecksumValid(), with the inline sum.)
    if (internal::HeaderSum(ip->header()) != 0xffff) {
      return drop(DropReason::kBadIPChecksum);
    }
    out.source_v4 = ip->source();
    out.destination_v4 = ip->destination();
  } else {
    header::Result<header::IPv6> ip = header::IPv6::ParsePrefix(net);
    if (!ip.ok()) return drop(DropReason::kMalformed);
    header::Result<header::IPv6Chain> chain = ip->WalkExtensionHeaders();
    if (!chain.ok()) return drop(DropReason::kMalformed);
    // RFC 8200 section 8.1: with Segments Left > 0 this node is not the
    // final destination, whose address the pseudo-header needs.
    if (p.segments_left != 0) return drop(DropReason::kUnsupported);
    out.source_v6 = ip->source();
    out.destination_v6 = ip->destination();
  }

  // The transport header's length comes from the prefix (or the frame)
  // before anything is consumed, so that all the headers are consumed in
  // one step. The checks run in the order of the layers, so a packet wrong
  // in several ways is dropped for its outermost fault.
  //
  // The header area must hold the link and network headers.
  const size_t below = p.link_header_length + p.network_header_length;
  if (below > PacketBuffer::kHeaderCapacity) {
    return drop(DropReason::kUnsupported);
  }
  const size_t t = p.transport_offset;  // Packet offset of the transport.
  // A COMPLETE sum that starts past the transport header does not cover
  // it: unusable, software verifies.
  complete.usable =
      pkt.checksum_status == ChecksumStatus::kComplete && complete.start <= t;
  if (pkt.checksum_status == ChecksumStatus::kComplete && !complete.usable) {
    ++stats.complete_fallback;
  }
  // Bytes past the IP length (Ethernet padding) belong to no layer.
  if (!TrimTail(pkt, t + p.transport_length, complete)) {
    return drop(DropReason::kTruncated);
  }
  pkt.network_protocol = p.network;

  if (p.is_fragment) {
    // Handed up as it is: reassembly is the caller's, and the transport
    // checksum covers the reassembled datagram only.
    if (!pkt.ConsumeHeaders(p.link_header_length, p.network_header_length, 0)) {
      return drop(DropReason::kUnsupported);
    }
    out.is_fragment = true;
    ++stats.fragments;
    ++stats.delivered;
    return true;
  }

  const bool v4 = p.network == NetworkProtocol::kIPv4;
  uint8_t protocol = p.transport_protocol;
  size_t transport_length = p.transport_length;
  bool udp_no_checksum = false;
  if (protocol == header::kProtocolTCP) {
    if (transport_length < header::TCP::kMinSize) {
      return drop(DropReason::kMalformed);
    }
    // Data Offset, from the prefix when it holds the byte, else from the
    // frame. The prefix is still the frame's first bytes: nothing was
    // consumed yet, and TrimTail only shortened the views, whose chunks
    // the packet still holds.
    constexpr size_t kDataOffsetByte = 12;
    uint8_t offset_byte = 0;
    if (t + kDataOffsetByte < prefix.size()) {
      offset_byte = prefix[t + kDataOffsetByte];
    } else if (!data.CopyOut(t + kDataOffsetByte, std::span(&offset_byte, 1))) {
      return drop(DropReason::kTruncated);
    }
    // RFC 9293 section 3.1, Data Offset: "The number of 32-bit words in
    // the TCP header"; at least 5, and within the segment.
    size_t data_offset = static_cast<size_t>(offset_byte >> 4) * 4;
    if (data_offset < header::TCP::kMinSize || data_offset > transport_length) {
      return drop(DropReason::kMalformed);
    }
    if (!pkt.ConsumeHeaders(p.link_header_length, p.network_header_length,
                            data_offset)) {
      return drop(DropReason::kUnsupported);
    }
    header::Result<header::TCP> tcp =
        header::TCP::Parse(pkt.Header(Layer::kTransport));
    if (!tcp.ok()) return drop(DropReason::kMalformed);
    TCPInfo& info = out.tcp.emplace();
    if (!ParseOptions(tcp->options(), info.options)) {
      return drop(DropReason::kMalformed);
    }
    info.seq = tcp->seq();
    info.ack = tcp->ack();
    info.flags = tcp->flags();
    info.window = tcp->window();
    info.urgent_pointer = tcp->urgent_pointer();
    out.source_port = tcp->source_port();
    out.destination_port = tcp->destination_port();
    pkt.transport_protocol = TransportProtocol::kTCP;
  } else if (protocol == header::kProtocolUDP) {
    if (transport_length < header::UDP::kSize) {
      return drop(DropReason::kMalformed);
    }
    if (!pkt.ConsumeHeaders(p.link_header_length, p.network_header_length,
                            header::UDP::kSize)) {
      return drop(DropReason::kUnsupported);
    }
    header::Result<header::UDP> udp =
        header::UDP::ParsePrefix(pkt.Header(Layer::kTransport));
    if (!udp.ok()) return drop(DropReason::kMalformed);
    // RFC 768: Length "is the length in octets of this user datagram
    // including this header and the data"; it may be shorter than the IP
    // payload (the rest is not the datagram's), never longer.
    size_t length = udp->length();
    if (length < header::UDP::kSize || length > transport_length) {
      return drop(DropReason::kMalformed);
    }
    if (!TrimTail(pkt, length - header::UDP::kSize, complete)) {
      return drop(DropReason::kMalformed);
    }
    transport_length = length;
    if (udp->checksum() == 0) {
      // RFC 768: "An all zero transmitted checksum value means that the
      // transmitter generated no checksum". RFC 8200 section 8.1: "IPv6
      // receivers must discard UDP packets containing a zero checksum".
      if (!v4) return drop(DropReason::kUDPZeroChecksum);
      udp_no_checksum = true;
    }
    out.source_port = udp->source_port();
    out.destination_port = udp->destination_port();
    pkt.transport_protocol = TransportProtocol::kUDP;
  } else {
    return drop(DropReason::kUnsupported);
  }

  if (udp_no_checksum) {
    ++stats.udp_no_checksum;
  } else if (pkt.checksum_status == ChecksumStatus::kUnnecessary ||
             pkt.checksum_status == ChecksumStatus::kPartial) {
    // kPartial on receive is a locally built packet looped back, never on
    // a wire: trusted, as Linux's skb_csum_unnecessary does.
    ++stats.checksum_unnecessary;
    out.checksum_verified = true;
  } else {
    uint16_t pseudo =
        v4 ? internal::PseudoSum(out.source_v4, out.destination_v4, protocol,
                                 static_cast<uint16_t>(transport_length))
           : internal::PseudoSum(out.source_v6, out.destination_v6, protocol,
                                 static_cast<uint32_t>(transport_length));
    uint16_t sum;
    if (complete.usable) {
      // Take the consumed headers in front of the transport out of the
      // NIC's sum; what is left is the transport's sum, counted from
      // complete.start, so its parity is t - start.
      std::optional<uint16_t> pulled =
          pkt.Checksum(complete.start, t - complete.start);
      if (!pulled) return drop(DropReason::kBadOffloadMetadata);
      uint16_t transport =
          AtParity(Subtract(complete.sum, *pulled), t - complete.start);
      sum = Combine(pseudo, transport);
    } else {
      // The transport's bytes are its header, consumed (of even length: a
      // TCP header is whole 32-bit words, a UDP header 8 bytes), then all
      // of data(), trimmed to the transport's length above.
      std::span<const uint8_t> th = pkt.Header(Layer::kTransport);
      if (th.size() + data.size() != transport_length) {
        return drop(DropReason::kTruncated);
      }
      sum = data.ChecksumAll(internal::HeaderSum(th, pseudo));
    }
    // RFC 1071 section 1: "If the result is all 1 bits, the check
    // succeeds"; with a subtraction in the way, 0x0000 is the same number.
    if (!IsOnesComplementZero(sum)) {
      return drop(DropReason::kBadTransportChecksum);
    }
    ++(complete.usable ? stats.checksum_complete : stats.checksum_software);
    out.checksum_verified = true;
  }

  ++stats.delivered;
  return true;
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

namespace {

// RequestLines starts the lines the receive path will read of `frame` on
// their way, and returns at once. With kFrame: the whole frame when
// software will sum it, else the line that holds the headers; with kHeaders
// only that line (kNone requests nothing and does not call it).
//
// Every line is hinted, within L2 as well: a hint on every other line only
// (from 128-byte boundaries, half the instructions, leaving the pair's
// other line to the hardware's adjacent-line prefetch) was slower
// everywhere. tcpip_benchmark, BM_ReceiveBurst/none, d750786 and that
// alternated, 3 processes each: frames:32768, front:1 97-101 -> 195-200 ns
// (against BM_RawChecksumFrames/views/ahead:1 83-85), front:0 96-110 ->
// 198-202; frames:128, front:1 31.0-32.9 -> 34.1-34.5, front:0 38.0-39.3
// -> 39.6-40.7. Within L2 the hints brought the payload's lines to L1
// ahead of the sum there (Zen 5). On the Xeon of sessions 11-13 they cost
// time within L2 instead, which BurstPrefetch::kHeaders leaves out
// (docs/performance-history.md, session 13).
template <BurstPrefetch kPolicy>
void RequestLines(const PacketBuffer& frame) {
  static_assert(kPolicy == BurstPrefetch::kFrame ||
                kPolicy == BurstPrefetch::kHeaders);
  const buffer::Buffer& data = frame.data();
  if (kPolicy == BurstPrefetch::kFrame &&
      frame.checksum_status == ChecksumStatus::kNone) {
    data.Prefetch(kPrefetchBytes);
  } else if (data.view_count() != 0) {
    __builtin_prefetch(data.views()[0].data());
  }
}

// kBurstAhead is how many frames ahead of the one it decodes ReceiveBurst
// requests a frame's lines (RequestLines), and kBurstAhead + 1 how many
// ahead the lines of the packet's Buffer, which say where the frame's
// views lie. tcpip_benchmark, BM_ReceiveBurst/none, frames:32768, headers
// at the front / in their own view, ns per frame: 1 ahead 118 / 152, 2
// ahead 107 / 131, 3 ahead 111 / 142, 4 ahead 109 / 141; without the
// Buffer's lines (2 ahead) 113-116 / 170-176, and with every line of the
// ReceivedPacket requested for writing as well 117 / 138. Requesting
// whole groups of 4 to 16 frames at once, then decoding the group, then
// summing its payloads one after the other (stages, as VPP's nodes run
// them) was slower at every size: 142-180 / 175-196 cold, and 38-42 ns
// against 34-35 for ReceiveInPlace within L2 (headers at the front): the
// decode is not waiting on its loads there but on the core, and a whole
// group's prefetches at once fill the core's miss buffers. (The figures
// above are of separate processes, each against its own raw checksum of
// 80-86 ns with ahead:1.) With RequestLines and the per-frame decode
// forced inline into ReceiveBurst (one ReceiveOne shared with
// ReceiveInPlace), GCC laid the loop out otherwise and the ring within L2
// took 40.7 ns instead of 33.4, in two alternations of the binaries.
constexpr size_t kBurstAhead = internal::kReceiveBurstAhead;

}  // namespace

bool ReceiveInPlace(ReceivedPacket& packet, LinkType link,
                    ReceiveStats& stats) {
  ++stats.received;
  if (packet.packet.checksum_status == ChecksumStatus::kNone) {
    // The checksum will read the whole frame, but only after the decode,
    // whose loads and branches come first: started now, the frame's lines
    // arrive from memory while the headers are decoded. Measured on a ring
    // of frames beyond every cache (tcpip_benchmark, frames:32768), 210 ->
    // 147 ns per frame with the headers at the front of the first view;
    // within L2 (frames:128) no change.
    packet.packet.data().Prefetch(kPrefetchBytes);
  }
  if (link == LinkType::kEthernet) {
    FastResult r = DecodeFast(packet, stats);
    if (r != FastResult::kNotTaken) return r == FastResult::kDelivered;
  }
  return Decode(packet, link, stats);
}

namespace {

// ReceiveBurstWith is ReceiveBurst with its prefetch policy fixed, one loop
// per policy, each a function of its own (noinline), so that each compiles
// to the loop it would be alone. Inlined, the three into ReceiveBurst, GCC
// 12 made each loop twice as slow: BM_ReceiveBurst/none/front:1/frames:128
// 104-127 ns a frame with any policy, against 48-55 for either build
// before the policies.
template <BurstPrefetch kPolicy>
[[gnu::noinline]] size_t ReceiveBurstWith(std::span<ReceivedPacket> packets,
                                          LinkType link, ReceiveStats& stats,
                                          std::span<bool> delivered) {
  constexpr bool kRequest = kPolicy != BurstPrefetch::kNone;
  const size_t count = std::min(packets.size(), delivered.size());
  stats.received += count;
  if constexpr (kRequest) {
    for (size_t i = 0; i < count && i < kBurstAhead; ++i) {
      RequestLines<kPolicy>(packets[i].packet);
    }
  }
  size_t delivered_count = 0;
  for (size_t i = 0; i < count; ++i) {
    if constexpr (kRequest) {
      if (i + kBurstAhead + 1 < count) {
        const char* const views = reinterpret_cast<const char*>(
            &packets[i + kBurstAhead + 1].packet.data());
        __builtin_prefetch(views);
        __builtin_prefetch(views + 64);
      }
      if (i + kBurstAhead < count) {
        RequestLines<kPolicy>(packets[i + kBurstAhead].packet);
      }
    }
    ReceivedPacket& packet = packets[i];
    FastResult r = FastResult::kNotTaken;
    if (link == LinkType::kEthernet) r = DecodeFast(packet, stats);
    const bool ok = r != FastResult::kNotTaken ? r == FastResult::kDelivered
                                               : Decode(packet, link, stats);
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
