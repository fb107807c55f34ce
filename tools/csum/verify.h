// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// The verdicts of `csum verify` for one captured frame: the link layer
// (link.h), then tcpip::ParseEthernet / tcpip::ParseIP for the layers, then
// the checksum of every checksum field in the frame's IP datagrams (the
// outermost, and those in tunnels, below): the IPv4 header (RFC 791
// section 3.1), TCP (RFC 9293 section 3.1), UDP (RFC 768; RFC 8200 section 8.1
// over IPv6), ICMPv4 (RFC 792) and ICMPv6 (RFC 4443 section 2.3), and UDP-Lite
// (RFC 3828: over the Checksum Coverage it declares, 0 meaning the whole
// datagram; the pseudo-header carries the whole datagram's length; a zero field
// is bad, as the checksum is mandatory; a coverage of 1 to 7 or past the
// datagram is `bad-length`). `FixFrame` writes the right value into every field
// judged bad, for `csum fix`.
//
// Tunnels. Behind the outermost datagram csum follows IP in IP (IPv4
// protocol 4 and IPv6 next header 4: RFC 2003, RFC 2473; protocol 41:
// RFC 4213 6in4 and RFC 2473 6in6), GRE (protocol 47, RFC 2784 and RFC
// 2890, and RFC 1701's source routes stepped over; version 1, PPTP's
// enhanced GRE of RFC 2637, with its acknowledgment number; carrying IPv4,
// IPv6, Ethernet 0x6558 or PPP 0x880b), VXLAN (UDP destination port 4789,
// RFC 7348) and Geneve (UDP destination port 6081, RFC 8926, options
// stepped over, carrying Ethernet, IPv4 or IPv6). An Ethernet frame inside
// goes through the same link decode as a captured one (DecodeLink), and so
// does PPP. Every datagram met is judged like the outermost, its fields
// numbered by `ip_depth` (1 is the outermost IP header), down to kMaxIPDepth
// headers; a frame that nests deeper is marked `depth_limited` and the headers
// past the limit are not read. GRE's own optional checksum (RFC 2784
// section 2.5: the GRE header and payload, no pseudo-header) is the layer
// `gre`. An inner datagram is bounded by the outer one (its IP payload, or the
// UDP length), never read past it; a fragment's payload is not followed.
//
// Nothing is dropped silently: a datagram csum finds (the outermost, or one
// a tunnel carries) whose headers it cannot read, or a tunnel header that
// is cut or of a version csum does not read, gives one record of layer
// `ip` at the ip_depth the datagram has (or would have), `unverified`,
// with the reason `malformed`, `unsupported`, `truncated` (the capture cut
// it) or `bad-length` (the datagram around it ends first); the walk stops
// there. An outermost one also makes the frame kUndecodable.
//
// ICMP errors. ICMPv4 Destination Unreachable, Source Quench, Redirect,
// Time Exceeded and Parameter Problem (RFC 792) and ICMPv6 Destination
// Unreachable, Packet Too Big, Time Exceeded and Parameter Problem (RFC
// 4443) quote the datagram that caused them. The error's own checksum is
// judged; the quoted datagram's IPv4 and transport checksum fields are
// reported at the next `ip_depth` as `unverified` with the reason `quoted`,
// never judged: a quote is usually cut short, and what it shows is the
// packet as the reporting router saw it (its TTL and checksum updated on
// the way), not a packet on this link. Quoted means reported and not
// followed: what a quoted datagram carries (a tunnel's inner datagram, the
// quote of a quoted ICMP error) is not read, and a quote whose headers
// csum cannot read gives its `ip` record with the reason `quoted`. An ICMP
// error inside a tunnel is judged, and its quote reported, as one outside.
//
// Verdicts:
//   good        the covered bytes (and pseudo-header) sum to 0xffff, the
//               receiver's check of RFC 1071 section 1;
//   bad         they do not;
//   unverified  the verdict cannot be known: a covered byte is not in the
//               capture (snaplen cut, or an IP length that runs past the
//               bytes captured), the datagram is a fragment (a transport
//               checksum covers the reassembled datagram), or a length
//               field contradicts the one around it;
//   none        UDP over IPv4 whose checksum field is 0: "the transmitter
//               generated no checksum" (RFC 768). Over IPv6 a zero UDP
//               checksum is bad: RFC 8200 section 8.1 requires one.
// An IPv4 header checksum is judged whenever the header itself was
// captured, whatever happened to the rest of the datagram.
//
// Segmentation offload (TSO/GSO). A capture taken on the sending host can
// hold a "super-packet" the NIC will cut into segments: its IPv4 Total
// Length is 0 or larger than the frame although the capture cut nothing
// (the wire length CheckFrame is given equals the bytes captured). As
// Wireshark does (its ip.tso_support), csum then takes the datagram to be
// the bytes the frame has, judges its transport checksum over them (the
// pseudo-header carrying that length), and marks the field `tso`. Without
// a wire length such a datagram is cut short: its transport `unverified`.
//
// Every bad and unverified verdict carries a Reason. A bad IPv4, TCP or UDP
// checksum whose stored value is zero, or the folded pseudo-header sum with
// or without the transport length, is `offload`: the capturing host handed
// the packet to a NIC that fills the checksum in on the way out, and the
// capture saw it before the NIC did. Any other bad value has no reason.
//
// Negative zero. One's-complement arithmetic has two zeros, 0x0000 and
// 0xffff. A sender that computes a checksum from scratch stores ~sum; the sum
// of data that is not all zero is never 0x0000 (end-around carry turns it
// into 0xffff), so the stored value is 0x0000 when the sum is 0xffff and is
// never 0xffff. But a router or NAT that updates a checksum incrementally
// with RFC 1141's equation (RFC 1624 section 3 shows the case) can leave
// 0xffff where a recompute gives 0x0000. Both are the same number, and the
// receiver's check -- the whole, field included, sums to 0xffff -- accepts
// both, as Linux, the BSDs and gVisor do. csum judges by that check, so a
// stored 0xffff where 0x0000 is computed is `good` (its `computed` column
// still shows 0x0000, the from-scratch value, so the difference is visible,
// and `fix` leaves it alone). The converse, a stored 0x0000 where 0xffff is
// computed, can only happen when every covered byte is zero -- an ICMPv4
// message without a pseudo-header, e.g. an Echo Reply with identifier,
// sequence and data all zero -- and there the whole sums to 0x0000, which
// no receiver accepts: `bad`, and `fix` stores 0xffff. (UDP has its own rule
// for the zero it computes: RFC 768 transmits it as 0xffff, so 0xffff is
// the only right value there.)
//
// IPv6 with a Routing header whose Segments Left is not zero: the
// pseudo-header carries the final destination (RFC 8200 section 8.1), read
// from the Routing header for types 0, 2 and 4 (RFC 8754 Segment List[0]);
// other types are `unverified`. IPv4 loose and strict source routes (RFC
// 791 section 3.1) whose route is not yet used up likewise name the final
// destination as the last address of the option (RFC 9293 section 3.1,
// "the final destination").
//
// No libpcap here: this compiles and is tested on every target.

#ifndef IPSUM_TOOLS_CSUM_VERIFY_H_
#define IPSUM_TOOLS_CSUM_VERIFY_H_

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <new>
#include <span>
#include <string_view>
#include <type_traits>

namespace ipsum::csum {

// Layer names the checksum field a record is about.
enum class Layer : uint8_t {
  kIPv4,
  kTCP,
  kUDP,
  kICMPv4,
  kICMPv6,
  kUDPLite,
  kGRE,
  // kIP is an IP datagram csum found (the outermost, or one a tunnel or an
  // ICMP error carries) whose headers it could not read: no checksum field
  // of it can be located, and this one record, always unverified, says why.
  kIP,
};

// kLayerCount is the number of Layer values.
inline constexpr size_t kLayerCount = 8;

// LayerName returns "ipv4", "tcp", "udp", "icmpv4", "icmpv6", "udplite",
// "gre" or "ip".
std::string_view LayerName(Layer layer);

// Verdict is the judgement of one checksum field; see the file comment.
enum class Verdict : uint8_t { kGood, kBad, kUnverified, kNone };

// kVerdictCount is the number of Verdict values.
inline constexpr size_t kVerdictCount = 4;

// VerdictName returns "good", "bad", "unverified" or "none".
std::string_view VerdictName(Verdict verdict);

// Reason says why a field is bad or unverified; kNone for good and none
// verdicts, and for a bad value that matches no known cause.
enum class Reason : uint8_t {
  kNone,
  // bad: the stored value is the one an offloading host leaves (zero, or
  // the folded pseudo-header sum); see the file comment.
  kOffload,
  // unverified: a covered byte is not in the capture.
  kTruncated,
  // unverified: the datagram is a fragment.
  kFragment,
  // unverified: a length field contradicts the one around it (a UDP length
  // below 8 or past the IP payload, an IP length too short to hold the
  // field).
  kBadLength,
  // unverified: an IPv6 Routing header of a type csum does not read hides
  // the pseudo-header's final destination.
  kRoutingHeader,
  // unverified: the field belongs to a datagram quoted in an ICMP error,
  // which is reported, not judged.
  kQuoted,
  // unverified (layer ip): the headers hold values no valid packet has (an
  // IP version other than 4 or 6, an IPv4 IHL below 5, a length below the
  // header's own, an IPv6 extension header past the payload length).
  kMalformed,
  // unverified (layer ip): a valid header csum does not read (an IPv6
  // jumbogram, too long an extension chain, more than two VLAN tags, a GRE
  // version above 1 or more than 64 GRE source route entries, a Geneve
  // version above 0).
  kUnsupported,
};

// kReasonCount is the number of Reason values.
inline constexpr size_t kReasonCount = 9;

// ReasonName returns "", "offload", "truncated", "fragment", "bad-length",
// "routing-header", "quoted", "malformed" or "unsupported".
std::string_view ReasonName(Reason reason);

// FieldCheck is the verdict on one checksum field of a frame.
struct FieldCheck {
  Layer layer = Layer::kIPv4;
  Verdict verdict = Verdict::kUnverified;
  Reason reason = Reason::kNone;
  // ip_depth numbers the IP header the field belongs to, or follows: 1 for
  // the outermost, 2 for a datagram inside it (tunnelled or quoted), ...
  uint8_t ip_depth = 1;
  // has_stored is true when the field's two bytes are in the capture; then
  // `stored` is its value and `offset` where it starts, counted from the
  // first byte of the frame, link-layer header included (a captured frame
  // is under 4 GiB: its length field has 32 bits in every format).
  bool has_stored = false;
  uint16_t stored = 0;
  uint32_t offset = 0;
  // has_computed is true for good and bad verdicts; `computed` is the value
  // the field should hold (see the file comment on negative zero).
  bool has_computed = false;
  // tso is true for a transport field judged over the bytes of a TSO
  // super-packet (see the file comment), whatever its verdict.
  bool tso = false;
  uint16_t computed = 0;

  friend bool operator==(const FieldCheck&, const FieldCheck&) = default;
};

static_assert(std::is_trivially_copyable_v<FieldCheck>);

// FrameKind classifies a frame for the summary.
enum class FrameKind : uint8_t {
  // kIPv4, kIPv6: an IP datagram was found (it may be truncated).
  kIPv4,
  kIPv6,
  // kNotIP: the link layer carries something else (ARP, ...).
  kNotIP,
  // kUndecodable: the frame ends inside the link or IP headers, or they
  // hold values no valid packet has; `reason` says which.
  kUndecodable,
  // kUnsupportedLink: the capture's link type is not one csum decodes.
  kUnsupportedLink,
};

// kMaxIPDepth bounds the IP headers CheckFrame follows in one frame.
inline constexpr size_t kMaxIPDepth = 8;

// kMaxFieldsPerFrame bounds FrameCheck::fields: per IP header, the IPv4
// header checksum and one checksum after it (transport or GRE).
inline constexpr size_t kMaxFieldsPerFrame = 2 * kMaxIPDepth;

// FieldSlots holds a FrameCheck's fields: kMaxFieldsPerFrame slots whose
// bytes are left uninitialized until a field is stored, so that creating a
// FrameCheck, once per packet, costs no clearing of slots it will not use.
// Only slots below FrameCheck::field_count may be read.
class FieldSlots {
 public:
  FieldCheck& operator[](size_t i) {
    return *std::launder(reinterpret_cast<FieldCheck*>(bytes_) + i);
  }
  const FieldCheck& operator[](size_t i) const {
    return *std::launder(reinterpret_cast<const FieldCheck*>(bytes_) + i);
  }
  const FieldCheck* data() const { return &(*this)[0]; }

 private:
  // An array of unsigned char creates the FieldCheck objects stored into it
  // implicitly (C++20 [intro.object]): FieldCheck is an implicit-lifetime
  // type.
  alignas(
      FieldCheck) unsigned char bytes_[kMaxFieldsPerFrame * sizeof(FieldCheck)];
};

// FrameCheck is the result of CheckFrame: what the frame is and the
// checksum fields met in its IP datagrams, in header order (outer first).
struct FrameCheck {
  // kind describes the outermost datagram.
  FrameKind kind = FrameKind::kUndecodable;
  // reason is a fixed sentence for kUndecodable frames, for kNotIP frames
  // whose link layer csum cannot follow (link.h), for a frame with a
  // datagram whose headers csum could not read (undecoded_depth), and for
  // an outermost datagram cut short (the parse's); else empty.
  std::string_view reason;
  // undecoded_depth is the ip_depth of the datagram whose headers csum
  // could not read, recorded as a field of layer kIP (the walk stops
  // there, so there is at most one); 0 when none. A quoted datagram's is
  // not recorded here: quotes are reported, not judged.
  uint8_t undecoded_depth = 0;
  // tunneled is true when a datagram inside a tunnel was found;
  // depth_limited when one more was nested past kMaxIPDepth headers.
  bool tunneled = false;
  bool depth_limited = false;
  uint8_t field_count = 0;
  FieldSlots fields;

  // checks returns fields[0, field_count).
  std::span<const FieldCheck> checks() const {
    return std::span<const FieldCheck>(fields.data(), field_count);
  }

  // Two checks are equal when they say the same of a frame: every member
  // and the fields below field_count (the reasons compared as text).
  friend bool operator==(const FrameCheck& a, const FrameCheck& b) {
    return a.kind == b.kind && a.reason == b.reason &&
           a.undecoded_depth == b.undecoded_depth && a.tunneled == b.tunneled &&
           a.depth_limited == b.depth_limited &&
           std::ranges::equal(a.checks(), b.checks());
  }
};

// CheckFrame judges every checksum field of `frame`, a captured packet of
// link type `linktype` (a LINKTYPE_ value, link.h) whose length on the
// wire was `wire_length` (the capture record's original length; 0 when
// unknown). It reads no byte outside `frame`, does not allocate and does
// not throw.
//
// Most frames of most captures have tcpip's fast shape (tcpip/fast_shape.h:
// IPv4 without options or IPv6 without extension headers, TCP or UDP,
// nothing cut or padded) behind untagged Ethernet or a link header that
// ends where IP starts (raw IP, Linux cooked, loopback, ...); those are
// judged at fixed offsets, with the result the general walk gives.
FrameCheck CheckFrame(uint32_t linktype, std::span<const uint8_t> frame,
                      size_t wire_length = 0);

// CheckFrameGeneral is CheckFrame with every frame taken through the
// general walk, the fast shape's too: the reference CheckFrame's fast
// path is tested against.
FrameCheck CheckFrameGeneral(uint32_t linktype, std::span<const uint8_t> frame,
                             size_t wire_length = 0);

// CheckFrameFast is CheckFrame's fast path alone: for a frame it takes, it
// sets `out` to what CheckFrame returns and returns true; for any other it
// returns false and leaves `out` a fresh FrameCheck. CheckFrame is this,
// else the general walk. For tests that must know which path judged.
bool CheckFrameFast(uint32_t linktype, std::span<const uint8_t> frame,
                    FrameCheck& out);

// FixFrame stores `computed` into every field of `check` judged bad; `frame`
// must be the bytes `check` was computed from. Inner fields are fixed
// first, and a judged UDP or GRE checksum of an outer datagram that covers
// a changed field is brought up to date (RFC 1624 section 3), so that a
// frame fixed is judged all good again; that may change an outer field
// that was good. Returns the number of fields changed. Unverified and none
// fields are left alone (a UDP checksum of zero over IPv4 stays zero).
size_t FixFrame(const FrameCheck& check, std::span<uint8_t> frame);

// FixMayChange reports whether FixFrame may change `field` of `check`: it
// is judged bad, or it is a judged UDP or GRE checksum of a datagram around
// one with a bad field.
bool FixMayChange(const FrameCheck& check, const FieldCheck& field);

}  // namespace ipsum::csum

#endif  // IPSUM_TOOLS_CSUM_VERIFY_H_
