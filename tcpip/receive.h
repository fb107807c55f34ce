// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Receive: decode and validate a frame, Ethernet (with VLAN tags) or bare
// IP, then IPv4 (header checksum, options; fragments are handed up
// unverified, not reassembled) or IPv6 (extension header chain), then TCP
// or UDP with the transport checksum verified over the chained payload.
// Malformed packets are ordinary input: each drop is counted by reason in
// ReceiveStats; nothing throws, nothing reads out of bounds.
//
// The checksum is judged in the packet's checksum_status, the states of
// Linux's skb->ip_summed: kNone, summed in software where the payload lies;
// kUnnecessary (or kPartial, a looped-back local packet, as Linux's
// skb_csum_unnecessary), trusted; kComplete, the NIC's sum from csum_start
// less the sums of the bytes in front of and behind the transport (each
// at its offset's parity, RFC 1071 2(B)), plus the pseudo-header's. As the
// subtraction may leave either zero, 0x0000 and 0xffff both pass (RFC 1624
// section 3). A csum_start past the frame is a drop; past the transport
// header, software verifies.
//
// VerifyFrame gives Receive's verdict without taking the frame apart. Both
// judge the common shape (untagged Ethernet, IPv4 without options or IPv6
// without extension headers, TCP or UDP, every header in the first view)
// by one fixed-offset classification and every other frame by one general
// decoder, which give the same results (receive_fast_test, receive_fuzzer).

#ifndef IPSUM_TCPIP_RECEIVE_H_
#define IPSUM_TCPIP_RECEIVE_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "checksum/endian.h"
#include "header/address.h"
#include "header/tcp.h"
#include "tcpip/internal/header_bytes.h"
#include "tcpip/packet_buffer.h"
#include "tcpip/parse.h"

namespace ipsum::tcpip {

// DropReason is why Receive dropped a packet.
enum class DropReason : uint8_t {
  // kTruncated: the frame ends before its headers do, or before the length
  // its IP header declares (a cut frame).
  kTruncated = 0,
  // kMalformed: a field no valid packet holds: IP version, IPv4 IHL or
  // total length, an IPv4, IPv6 or TCP option's length, an extension
  // header past the payload, TCP data offset, UDP length.
  kMalformed,
  // kUnsupported: not IP (another EtherType), a transport other than TCP
  // and UDP, an IPv6 jumbogram, more than two VLAN tags, headers longer
  // than the header area.
  kUnsupported,
  // kBadIPChecksum: the IPv4 header checksum is wrong.
  kBadIPChecksum,
  // kBadTransportChecksum: the TCP or UDP checksum is wrong.
  kBadTransportChecksum,
  // kUDPZeroChecksum: a UDP checksum of 0 over IPv6, which RFC 8200
  // section 8.1 says receivers must discard.
  kUDPZeroChecksum,
  // kBadOffloadMetadata: offload metadata that does not fit the packet
  // (a CHECKSUM_COMPLETE start past the end of the frame).
  kBadOffloadMetadata,
};

// kDropReasonCount is the number of DropReason values: one more than the
// last enumerator's.
inline constexpr size_t kDropReasonCount =
    static_cast<size_t>(DropReason::kBadOffloadMetadata) + 1;

// ToString returns the stable name of `r`, e.g. "bad transport checksum".
std::string_view ToString(DropReason r);

// ReceiveStats counts what Receive did, per packet.
struct ReceiveStats {
  // received counts every packet given to Receive; each is then either
  // delivered or dropped for exactly one reason.
  uint64_t received = 0;
  uint64_t delivered = 0;
  std::array<uint64_t, kDropReasonCount> dropped{};

  // Of the delivered: how the transport checksum was judged.
  uint64_t checksum_software = 0;     // kNone, or kComplete fallback
  uint64_t checksum_unnecessary = 0;  // kUnnecessary
  uint64_t checksum_complete = 0;     // kComplete, by subtraction
  // complete_fallback counts kComplete packets whose csum_start lay past
  // the transport header, verified in software instead.
  uint64_t complete_fallback = 0;
  // udp_no_checksum counts IPv4 UDP datagrams sent without a checksum.
  uint64_t udp_no_checksum = 0;
  // fragments counts IP fragments handed up unverified.
  uint64_t fragments = 0;

  // Dropped returns the count for `reason`.
  uint64_t Dropped(DropReason reason) const {
    return dropped[static_cast<size_t>(reason)];
  }
  // TotalDropped returns the drops for every reason.
  uint64_t TotalDropped() const;

  friend bool operator==(const ReceiveStats&, const ReceiveStats&) = default;
};

// LinkType is what a frame starts with.
enum class LinkType : uint8_t {
  kEthernet,
  // kIP: the frame is an IP datagram (a tun device, a loopback).
  kIP,
};

// TCPInfo is a received TCP segment's header, decoded.
struct TCPInfo {
  uint32_t seq = 0;
  uint32_t ack = 0;
  uint8_t flags = 0;
  uint16_t window = 0;
  uint16_t urgent_pointer = 0;
  header::TCPOptions options;

  friend bool operator==(const TCPInfo&, const TCPInfo&) = default;
};

// ReceivedPacket is what Receive hands up.
struct ReceivedPacket {
  // packet holds the consumed headers (packet.Header(Layer::k*)) and, in
  // packet.data(), the transport payload (for a fragment: the fragment's
  // data after the IP headers), trimmed to the length the headers declare.
  PacketBuffer packet;
  // parsed is the parse step's description of the frame as received.
  ParsedPacket parsed;
  // network addresses; the unused family is zero.
  header::IPv4Address source_v4;
  header::IPv4Address destination_v4;
  header::IPv6Address source_v6;
  header::IPv6Address destination_v6;
  // is_fragment: an IP fragment, handed up with no transport decoded and
  // its checksum unverified (reassembly is not this layer's job).
  bool is_fragment = false;
  // checksum_verified: the transport checksum was verified (in software,
  // by the NIC or from the NIC's sum). False for fragments and for IPv4 UDP
  // sent without a checksum.
  bool checksum_verified = false;
  // Transport ports (TCP and UDP), and the TCP header when TCP.
  uint16_t source_port = 0;
  uint16_t destination_port = 0;
  std::optional<TCPInfo> tcp;
};

// Receive decodes and validates `frame` (frame.data() holds the frame;
// checksum_status, csum_start and csum say what the NIC did) and returns
// the packet, or counts the reason in `stats` and returns nullopt. The
// frame is moved in (taken by rvalue reference so that it moves once, into
// the result) and is left empty either way.
std::optional<ReceivedPacket> Receive(PacketBuffer&& frame, LinkType link,
                                      ReceiveStats& stats);

// ReceiveInPlace is Receive without moving the packet: the form for a
// driver that builds each frame in place, in a ReceivedPacket it reuses.
// `packet.packet` holds the frame (as Receive's `frame`); every other field
// of `packet` is overwritten. Returns true with `packet` as Receive would
// return it, or counts the drop in `stats` and returns false, leaving
// `packet` in an unspecified but valid state (destroy or reuse it). Receive
// is this plus two moves of the packet, in and out.
bool ReceiveInPlace(ReceivedPacket& packet, LinkType link, ReceiveStats& stats);

// BurstPrefetch says which lines of the frames ahead ReceiveBurst and
// VerifyBurst ask the CPU for while they work on the current one. It
// changes their speed only, never a verdict, a field or a count. Which is
// fastest depends on where the frames are, which the caller knows and the
// library does not (DPDK leaves prefetching to the application for the
// same reason): kHeaders suits a ring that fits in L2, kFrame one beyond
// the caches (docs/benchmarking.md). A value outside the enumeration is
// taken as kFrame.
enum class BurstPrefetch : uint8_t {
  // kFrame (the default): for a frame that software will sum
  // (checksum_status kNone), every line of its first 1536 bytes, so that
  // the lines of a frame in memory arrive while the frames before it are
  // worked on; for any other frame, the line that holds its headers.
  kFrame,
  // kHeaders: the line that holds the headers, whatever the frame; the
  // payload's lines are left to the checksum's own loads and the CPU's
  // hardware prefetchers. For frames in the caches (a ring that fits in
  // L2).
  kHeaders,
  // kNone: nothing is requested: for a driver that prefetches the frames
  // itself.
  kNone,
};

// ToString names a BurstPrefetch: "frame", "headers", "none".
std::string_view ToString(BurstPrefetch p);

// ReceiveBurst is ReceiveInPlace on each of `packets` in turn (a driver's
// vector of frames built in place, as DPDK's rx_burst and VPP's frames hand
// them over), with delivered[i] set to what ReceiveInPlace returns for
// packets[i]: the same fields, the same counts in `stats`, the same drops.
// Only the first min(packets.size(), delivered.size()) packets are
// received. Returns how many were delivered.
//
// The difference is speed only: while it decodes one frame, ReceiveBurst
// has already asked for the lines of the next two as `prefetch` says and,
// unless it is kNone, for the list of views of the third, so that a
// frame's memory latency overlaps the work on the frames before it.
size_t ReceiveBurst(std::span<ReceivedPacket> packets, LinkType link,
                    ReceiveStats& stats, std::span<bool> delivered,
                    BurstPrefetch prefetch = BurstPrefetch::kFrame);

// ---------------------------------------------------------------------------
// Verify: Receive's judgement (the same verdict, the same counters, every
// check, every offload state) without taking the frame apart. Receive
// copies the headers, trims the payload and decodes every field; a stack
// that reads two or three fields of most segments need not pay for that.
// VerifyFrame leaves the frame as it is and describes it in 32 bytes: where
// each layer starts, where the payload ends, and the transport header's
// first 16 bytes (as Linux's TCP_SKB_CB holds sequence numbers and flags).
// Other fields are read in place when asked for, as DPDK's mbuf keeps
// l2_len / l3_len / l4_len:
//
//   VerifiedFrame v;
//   if (VerifyFrame(frame, LinkType::kEthernet, stats, v)) {
//     uint16_t port = v.destination_port();
//     uint32_t seq = v.tcp_seq();
//     std::array<uint8_t, PacketBuffer::kHeaderCapacity> scratch;
//     std::span<const uint8_t> h = HeaderBytes(frame, v, scratch);
//     std::optional<TCPInfo> tcp = ReadTCPInfo(h, v);  // With the options.
//     std::optional<buffer::Buffer> payload =
//         frame.data().CloneRange(v.payload_offset, v.payload_length());
//   }

// VerifiedFrame describes a frame VerifyFrame accepted. Offsets count from
// the frame's first byte.
struct VerifiedFrame {
  // network_offset is where the IP header starts: 14, plus 4 per VLAN tag,
  // for LinkType::kEthernet; 0 for LinkType::kIP.
  uint16_t network_offset = 0;
  // transport_offset is where the TCP or UDP header starts (for a
  // fragment: where the fragment's data starts).
  uint16_t transport_offset = 0;
  // payload_offset is where the transport's payload starts: after the TCP
  // header with its options or the UDP header (for a fragment, equal to
  // transport_offset). payload_offset <= PacketBuffer::kHeaderCapacity.
  uint16_t payload_offset = 0;
  // network and transport are the protocols found; transport is kNone for
  // a fragment.
  NetworkProtocol network = NetworkProtocol::kNone;
  TransportProtocol transport = TransportProtocol::kNone;
  // payload_end is one past the payload's last byte: the end of the IP
  // datagram, or of a UDP datagram shorter than its IP payload. Bytes from
  // here to the frame's end (Ethernet padding) belong to no layer.
  uint32_t payload_end = 0;
  // is_fragment and checksum_verified are ReceivedPacket's.
  bool is_fragment = false;
  bool checksum_verified = false;
  // transport_head holds the transport header's first bytes as they lie in
  // the frame (network byte order): for TCP its first 16 (ports, sequence
  // and acknowledgment numbers, data offset, flags, window), for UDP its 8
  // and then 8 zeros; for a fragment, zeros. The accessors below decode
  // it.
  alignas(8) std::array<uint8_t, 16> transport_head{};

  // payload_length is the payload's size in bytes.
  size_t payload_length() const { return payload_end - payload_offset; }

  // The ports of a TCP segment or UDP datagram, Receive's
  // ReceivedPacket::source_port and destination_port (0 for a fragment).
  uint16_t source_port() const { return LoadBig16(&transport_head[0]); }
  uint16_t destination_port() const { return LoadBig16(&transport_head[2]); }
  // is_tcp: transport is kTCP. A TCP segment's sequence and acknowledgment
  // numbers, flags and window, ReceivedPacket::tcp's seq, ack, flags and
  // window; 0 when transport is not kTCP.
  bool is_tcp() const { return transport == TransportProtocol::kTCP; }
  uint32_t tcp_seq() const {
    return is_tcp() ? LoadBig32(&transport_head[4]) : 0;
  }
  uint32_t tcp_ack() const {
    return is_tcp() ? LoadBig32(&transport_head[8]) : 0;
  }
  uint8_t tcp_flags() const { return is_tcp() ? transport_head[13] : 0; }
  uint16_t tcp_window() const {
    return is_tcp() ? LoadBig16(&transport_head[14]) : 0;
  }

  friend bool operator==(const VerifiedFrame&, const VerifiedFrame&) = default;
};

// VerifyFrame judges `frame` as Receive would (frame.data() holds the
// frame, nothing consumed; checksum_status, csum_start and csum say what
// the NIC did): returns true and describes it in `out`, or counts the
// reason in `stats` and returns false (`out` is then unspecified). The
// counts are Receive's, to the counter. `frame` is not modified.
bool VerifyFrame(const PacketBuffer& frame, LinkType link, ReceiveStats& stats,
                 VerifiedFrame& out);

// VerifyBurst is VerifyFrame on each of `frames`, with out[i] and
// delivered[i] what VerifyFrame gives frames[i], and the lines of the
// next frames requested ahead as ReceiveBurst does (as `prefetch` says).
// Only the first min(frames.size(), out.size(), delivered.size()) frames
// are verified. Returns how many were accepted.
size_t VerifyBurst(std::span<const PacketBuffer> frames, LinkType link,
                   ReceiveStats& stats, std::span<VerifiedFrame> out,
                   std::span<bool> delivered,
                   BurstPrefetch prefetch = BurstPrefetch::kFrame);

// HeaderBytes returns the frame's bytes [0, v.payload_offset), every header
// VerifyFrame checked: a span into the frame's first view when it holds
// them (no copy; inline, a compare and a branch), else a copy in `scratch`.
// `v` must be what VerifyFrame returned for `frame`.
inline std::span<const uint8_t> HeaderBytes(
    const PacketBuffer& frame, const VerifiedFrame& v,
    std::span<uint8_t, PacketBuffer::kHeaderCapacity> scratch) {
  const buffer::Buffer& data = frame.data();
  if (data.view_count() != 0 && data.views()[0].size() >= v.payload_offset) {
    return data.views()[0].span().first(v.payload_offset);
  }
  return internal::CopyHeaderBytes(frame, v, scratch);
}

// ReadTCPInfo decodes the TCP header of a frame VerifyFrame accepted, from
// `headers` (HeaderBytes): Receive's ReceivedPacket::tcp. nullopt when the
// frame is not a TCP segment (UDP, a fragment) or `headers` is too short.
std::optional<TCPInfo> ReadTCPInfo(std::span<const uint8_t> headers,
                                   const VerifiedFrame& v);

}  // namespace ipsum::tcpip

#endif  // IPSUM_TCPIP_RECEIVE_H_
