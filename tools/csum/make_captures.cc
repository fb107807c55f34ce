// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// make_captures writes the test captures of `csum verify` and `csum fix` to
// a directory (testdata/captures), each with its ground truth: NAME.tsv, the
// exact output `csum verify --format=tsv NAME.pcap` must give.
//
//   bazel run //tools/csum:make_captures -- $PWD/testdata/captures
//
// The packets are built with header's encoders, and their checksums with
// header's checksum functions; the ground truth comes from what this program
// did to each packet (which field it corrupted, where it cut the capture,
// which datagram it fragmented), not from csum's verifier. pcap files are
// written by libpcap (pcap_dump); the one pcapng file is written here,
// because libpcap writes no pcapng (the format is a few fixed blocks).
//
// Everything is deterministic: same program, same bytes.

#include <pcap/pcap.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "checksum/checksum.h"
#include "checksum/endian.h"
#include "header/address.h"
#include "header/checksum.h"
#include "header/ethernet.h"
#include "header/icmpv4.h"
#include "header/icmpv6.h"
#include "header/ipv4.h"
#include "header/ipv6.h"
#include "header/protocol.h"
#include "header/tcp.h"
#include "header/udp.h"
#include "tools/csum/link_builders.h"

namespace ipsum::csum {
namespace {

using Bytes = std::vector<uint8_t>;

void Check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "make_captures: %s\n", what);
    std::exit(1);
  }
}

void CheckOk(header::Error e, const char* what) {
  Check(e == header::Error::kOk, what);
}

// Payload returns `n` deterministic pseudo-random bytes.
Bytes Payload(size_t n, uint32_t seed) {
  Bytes b(n);
  uint32_t x = seed * 2654435761u + 12345;
  for (auto& c : b) {
    x = x * 1103515245u + 12345;
    c = static_cast<uint8_t>(x >> 16);
  }
  return b;
}

Bytes Concat(const Bytes& a, const Bytes& b) {
  Bytes r = a;
  r.insert(r.end(), b.begin(), b.end());
  return r;
}

const header::IPv4Address kSrc4 = header::IPv4Address::FromHost(0xc0000201);
const header::IPv4Address kDst4 = header::IPv4Address::FromHost(0xc6336402);

header::IPv6Address V6(uint16_t last) {
  header::IPv6Address a;
  a.bytes = {0x20,
             0x01,
             0x0d,
             0xb8,
             0,
             0,
             0,
             0,
             0,
             0,
             0,
             0,
             0,
             0,
             static_cast<uint8_t>(last >> 8),
             static_cast<uint8_t>(last)};
  return a;
}
const header::IPv6Address kSrc6 = V6(1);
const header::IPv6Address kDst6 = V6(2);

// ---------------------------------------------------------------------------
// Transport messages, checksum field zero until Seal.

// kGRE is GRE with its checksum (RFC 2784); kOther any protocol without a
// checksum, its number in Transport::number.
enum class Proto { kTCP, kUDP, kICMPv4, kICMPv6, kUDPLite, kGRE, kOther };

struct Transport {
  Proto proto = Proto::kTCP;
  Bytes bytes;
  // number is the IP protocol of kOther: 253 (RFC 3692, experimentation)
  // unless a tunnel sets it.
  uint8_t number = 253;
};

uint8_t ProtocolNumber(Proto p) {
  switch (p) {
    case Proto::kTCP:
      return header::kProtocolTCP;
    case Proto::kUDP:
      return header::kProtocolUDP;
    case Proto::kICMPv4:
      return header::kProtocolICMPv4;
    case Proto::kICMPv6:
      return header::kProtocolICMPv6;
    case Proto::kUDPLite:
      return 136;  // RFC 3828
    case Proto::kGRE:
      return 47;
    case Proto::kOther:
      return 253;
  }
  return 0;
}

size_t ChecksumOffset(Proto p) {
  switch (p) {
    case Proto::kTCP:
      return header::TCP::kChecksumOffset;
    case Proto::kUDP:
    case Proto::kUDPLite:
      return header::UDP::kChecksumOffset;
    case Proto::kICMPv4:
    case Proto::kICMPv6:
      return 2;
    case Proto::kGRE:
      return 4;  // RFC 2784 section 2
    case Proto::kOther:
      break;
  }
  return 0;
}

const char* LayerOf(Proto p) {
  switch (p) {
    case Proto::kTCP:
      return "tcp";
    case Proto::kUDP:
      return "udp";
    case Proto::kICMPv4:
      return "icmpv4";
    case Proto::kICMPv6:
      return "icmpv6";
    case Proto::kUDPLite:
      return "udplite";
    case Proto::kGRE:
      return "gre";
    case Proto::kOther:
      break;
  }
  return "";
}

Transport TCP(size_t payload, uint32_t seed) {
  header::TCPFields f;
  f.source_port = 40000 + seed;
  f.destination_port = 443;
  f.seq = 1000 * seed;
  f.ack = 77;
  f.flags = 0x18;  // PSH ACK
  f.window = 65535;
  Bytes b(header::TCP::kMinSize);
  CheckOk(header::TCP::Encode(f, b), "TCP encode");
  return {Proto::kTCP, Concat(b, Payload(payload, seed))};
}

Transport UDP(size_t payload, uint32_t seed) {
  header::UDPFields f;
  f.source_port = 5353;
  f.destination_port = 53000 + seed;
  f.length = static_cast<uint16_t>(header::UDP::kSize + payload);
  Bytes b(header::UDP::kSize);
  CheckOk(header::UDP::Encode(f, b), "UDP encode");
  return {Proto::kUDP, Concat(b, Payload(payload, seed))};
}

// UDPLite is a UDP-Lite datagram (RFC 3828) whose Checksum Coverage is 0:
// the checksum covers all of it, as UDP's would.
Transport UDPLite(size_t payload, uint32_t seed) {
  Transport t = UDP(payload, seed);
  t.proto = Proto::kUDPLite;
  StoreBig16(t.bytes.data() + 4, 0);
  return t;
}

Transport ICMPv4Echo(size_t payload, uint32_t seed, uint8_t type = 8) {
  header::ICMPv4Fields f;
  f.type = type;
  f.ident = static_cast<uint16_t>(seed);
  f.sequence = static_cast<uint16_t>(seed * 3);
  Bytes b(header::ICMPv4::kMinSize);
  CheckOk(header::ICMPv4::Encode(f, b), "ICMPv4 encode");
  return {Proto::kICMPv4, Concat(b, Payload(payload, seed))};
}

Transport ICMPv6Echo(size_t payload, uint32_t seed) {
  header::ICMPv6Fields f;
  f.type = 128;
  f.ident = static_cast<uint16_t>(seed);
  f.sequence = static_cast<uint16_t>(seed * 5);
  Bytes b(header::ICMPv6::kMinSize);
  CheckOk(header::ICMPv6::Encode(f, b), "ICMPv6 encode");
  return {Proto::kICMPv6, Concat(b, Payload(payload, seed))};
}

// TransportChecksum returns the value the transport's checksum field must
// hold: the complement of the sum of the pseudo-header (`pseudo`, 0 for
// ICMPv4) and the message with its checksum field zero. Summed here from a
// zeroed copy rather than by subtracting the stored field, so that a message
// whose bytes are all zero gets ~0 = 0xffff.
uint16_t ComplementOfSum(const Transport& t, uint16_t pseudo) {
  Bytes copy = t.bytes;
  StoreBig16(copy.data() + ChecksumOffset(t.proto), 0);
  return static_cast<uint16_t>(~checksum::Checksum(copy, pseudo));
}

uint16_t TransportChecksum(const Transport& t, uint16_t pseudo) {
  uint16_t c = ComplementOfSum(t, pseudo);
  // RFC 768, RFC 3828 section 3.1.
  if ((t.proto == Proto::kUDP || t.proto == Proto::kUDPLite) && c == 0) {
    c = 0xffff;
  }
  return c;
}

// MakeSumAllOnes rewrites the payload word at `at` (even) so that the
// checksum computed from scratch is 0x0000: the covered bytes then sum to
// 0xffff with the field zero.
void MakeSumAllOnes(Transport& t, size_t at, uint16_t pseudo) {
  StoreBig16(t.bytes.data() + at, 0);
  StoreBig16(t.bytes.data() + at, ComplementOfSum(t, pseudo));
  Check(ComplementOfSum(t, pseudo) == 0, "negative zero construction");
}

// ---------------------------------------------------------------------------
// IP datagrams.

// Datagram is one IP datagram as sent, and where its checksum fields are.
struct Datagram {
  Bytes bytes;
  bool v4 = true;
  // ip_header_length is IHL * 4 (v4) or 40 plus the extension headers (v6).
  size_t ip_header_length = 0;
  uint16_t ip_correct = 0;
  // The transport header, when this datagram carries it.
  bool has_transport_header = false;
  Proto proto = Proto::kOther;
  uint16_t tp_correct = 0;
  // tp_pseudo holds the folded pseudo-header sums with and without the
  // transport length: the values an offloading host stores (TCP, UDP).
  std::optional<std::array<uint16_t, 2>> tp_pseudo;
  // judgeable is false for a fragment.
  bool fragment = false;
  // bad_length: the UDP length contradicts the IP length.
  bool bad_length = false;
  // declared_length is the IP length field's value (v6: 40 + payload
  // length); more than bytes.size() for a lying length, 0 for TSO.
  size_t declared_length = 0;
};

struct V4Options {
  Bytes options;
  // final_destination is the address the pseudo-header carries when a
  // source route is not used up.
  std::optional<header::IPv4Address> final_destination;
  // extra_length is added to Total Length (a lying length, or a TSO
  // super-packet's); zero_length stores 0 there (TSO).
  size_t extra_length = 0;
  bool zero_length = false;
};

Bytes IPv4Header(size_t payload_length, uint8_t protocol, const V4Options& o,
                 bool more_fragments = false, uint32_t fragment_offset = 0,
                 uint16_t id = 0x1234) {
  header::IPv4Fields f;
  f.total_length =
      static_cast<uint16_t>(20 + ((o.options.size() + 3) & ~size_t{3}) +
                            payload_length + o.extra_length);
  f.id = id;
  f.dont_fragment = !more_fragments && fragment_offset == 0;
  f.more_fragments = more_fragments;
  f.fragment_offset = fragment_offset;
  f.ttl = 64;
  f.protocol = protocol;
  f.source = kSrc4;
  f.destination = kDst4;
  f.options = o.options;
  Bytes b(header::IPv4::HeaderSize(f));
  CheckOk(header::IPv4::Encode(f, b), "IPv4 encode");
  if (o.zero_length) {  // what a TSO sender may leave; re-sealed
    StoreBig16(b.data() + 2, 0);
    StoreBig16(b.data() + 10, 0);
    StoreBig16(b.data() + 10, static_cast<uint16_t>(~checksum::Checksum(b)));
  }
  return b;
}

// Number is the IP protocol of `t`.
uint8_t Number(const Transport& t) {
  return t.proto == Proto::kOther ? t.number : ProtocolNumber(t.proto);
}

uint16_t V4Pseudo(const Transport& t, const V4Options& o) {
  if (t.proto == Proto::kICMPv4 || t.proto == Proto::kGRE) return 0;
  return header::PseudoHeaderSum(kSrc4, o.final_destination.value_or(kDst4),
                                 ProtocolNumber(t.proto),
                                 static_cast<uint16_t>(t.bytes.size()));
}

// SealV4 fills in the transport checksum.
uint16_t Seal(Transport& t, uint16_t pseudo) {
  uint16_t c = t.proto == Proto::kOther ? 0 : TransportChecksum(t, pseudo);
  if (t.proto != Proto::kOther) {
    StoreBig16(t.bytes.data() + ChecksumOffset(t.proto), c);
  }
  return c;
}

// OffloadValues returns the pseudo-header sums an offloading host leaves in
// a TCP or UDP checksum field.
template <typename Address>
std::optional<std::array<uint16_t, 2>> OffloadValues(const Transport& t,
                                                     const Address& src,
                                                     const Address& dst) {
  if (t.proto != Proto::kTCP && t.proto != Proto::kUDP) return std::nullopt;
  const uint8_t p = ProtocolNumber(t.proto);
  return std::array<uint16_t, 2>{
      header::PseudoHeaderSum(src, dst, p,
                              static_cast<uint16_t>(t.bytes.size())),
      header::PseudoHeaderSum(src, dst, p, 0)};
}

Datagram V4(Transport t, const V4Options& o = {}) {
  Datagram d;
  d.tp_correct = Seal(t, V4Pseudo(t, o));
  d.tp_pseudo = OffloadValues(t, kSrc4, o.final_destination.value_or(kDst4));
  Bytes ip = IPv4Header(t.bytes.size(), Number(t), o);
  d.ip_header_length = ip.size();
  d.ip_correct = LoadBig16(ip.data() + 10);
  d.bytes = Concat(ip, t.bytes);
  d.declared_length = o.zero_length ? 0 : d.bytes.size() + o.extra_length;
  d.has_transport_header = t.proto != Proto::kOther;
  d.proto = t.proto;
  return d;
}

// V4Fragments splits `t` (sealed over the whole) into two fragments, the
// first carrying `first` bytes of it (a multiple of 8).
std::vector<Datagram> V4Fragments(Transport t, size_t first) {
  V4Options o;
  uint16_t correct = Seal(t, V4Pseudo(t, o));
  std::vector<Datagram> out;
  for (int i = 0; i < 2; ++i) {
    size_t start = i == 0 ? 0 : first;
    size_t end = i == 0 ? first : t.bytes.size();
    Bytes piece(t.bytes.begin() + start, t.bytes.begin() + end);
    Bytes ip = IPv4Header(piece.size(), ProtocolNumber(t.proto), o, i == 0,
                          static_cast<uint32_t>(start), 0x4242);
    Datagram d;
    d.ip_header_length = ip.size();
    d.ip_correct = LoadBig16(ip.data() + 10);
    d.bytes = Concat(ip, piece);
    d.declared_length = d.bytes.size();
    d.has_transport_header = i == 0;
    d.proto = t.proto;
    d.tp_correct = correct;
    d.fragment = true;
    out.push_back(d);
  }
  return out;
}

// An IPv6 extension header of 8 bytes holding one PadN option (Hop-by-Hop
// or Destination Options, RFC 8200 sections 4.3 and 4.6).
Bytes PadOptionsHeader(uint8_t next) { return {next, 0, 1, 4, 0, 0, 0, 0}; }

// A Segment Routing Header (RFC 8754) with two segments; Segment List[0]
// is the final destination.
Bytes SegmentRoutingHeader(uint8_t next, const header::IPv6Address& final_dst,
                           const header::IPv6Address& current) {
  Bytes b = {next, 4, 4, 1, 1, 0, 0, 0};
  b.insert(b.end(), final_dst.bytes.begin(), final_dst.bytes.end());
  b.insert(b.end(), current.bytes.begin(), current.bytes.end());
  return b;
}

// A Routing header of `type` (0: RFC 2460, 2: RFC 6275) listing
// `addresses`, the final destination last, with `segments_left`.
Bytes RoutingHeader(uint8_t next, uint8_t type,
                    const std::vector<header::IPv6Address>& addresses,
                    uint8_t segments_left) {
  Bytes b = {next, static_cast<uint8_t>(2 * addresses.size()),
             type, segments_left,
             0,    0,
             0,    0};
  for (const auto& a : addresses)
    b.insert(b.end(), a.bytes.begin(), a.bytes.end());
  return b;
}

struct V6Options {
  // extension is the extension header chain, built by the caller, whose
  // first header's type is first_type; its last header names the
  // transport.
  Bytes extension;
  uint8_t first_type = 0;
  header::IPv6Address destination = kDst6;
  header::IPv6Address final_destination = kDst6;
};

Bytes IPv6Header(size_t payload_length, uint8_t next_header,
                 const header::IPv6Address& dst) {
  header::IPv6Fields f;
  f.payload_length = static_cast<uint16_t>(payload_length);
  f.next_header = next_header;
  f.hop_limit = 64;
  f.source = kSrc6;
  f.destination = dst;
  Bytes b(header::IPv6::kSize);
  CheckOk(header::IPv6::Encode(f, b), "IPv6 encode");
  return b;
}

uint16_t V6Pseudo(const Transport& t, const header::IPv6Address& dst) {
  if (t.proto == Proto::kGRE) return 0;  // RFC 2784 section 2.5
  return header::PseudoHeaderSum(kSrc6, dst, ProtocolNumber(t.proto),
                                 static_cast<uint32_t>(t.bytes.size()));
}

Datagram V6(Transport t, const V6Options& o = {}) {
  Datagram d;
  d.v4 = false;
  d.tp_correct = Seal(t, V6Pseudo(t, o.final_destination));
  d.tp_pseudo = OffloadValues(t, kSrc6, o.final_destination);
  uint8_t next = o.extension.empty() ? Number(t) : o.first_type;
  Bytes ip =
      IPv6Header(o.extension.size() + t.bytes.size(), next, o.destination);
  ip = Concat(ip, o.extension);
  d.ip_header_length = ip.size();
  d.bytes = Concat(ip, t.bytes);
  d.declared_length = d.bytes.size();
  d.has_transport_header = t.proto != Proto::kOther;
  d.proto = t.proto;
  return d;
}

std::vector<Datagram> V6Fragments(Transport t, size_t first) {
  uint16_t correct = Seal(t, V6Pseudo(t, kDst6));
  std::vector<Datagram> out;
  for (int i = 0; i < 2; ++i) {
    size_t start = i == 0 ? 0 : first;
    size_t end = i == 0 ? first : t.bytes.size();
    Bytes piece(t.bytes.begin() + start, t.bytes.begin() + end);
    Bytes frag(header::IPv6::kFragmentHeaderSize);
    CheckOk(header::IPv6::EncodeFragmentHeader(ProtocolNumber(t.proto),
                                               static_cast<uint32_t>(start),
                                               i == 0, 0xabcdef, frag),
            "fragment header");
    Bytes ip = IPv6Header(frag.size() + piece.size(), header::kProtocolFragment,
                          kDst6);
    ip = Concat(ip, frag);
    Datagram d;
    d.v4 = false;
    d.ip_header_length = ip.size();
    d.bytes = Concat(ip, piece);
    d.declared_length = d.bytes.size();
    d.has_transport_header = i == 0;
    d.proto = t.proto;
    d.tp_correct = correct;
    d.fragment = true;
    out.push_back(d);
  }
  return out;
}

// ---------------------------------------------------------------------------
// Frames and their ground truth.

struct Expect {
  std::string layer;
  std::string verdict;
  std::optional<uint16_t> stored;
  std::optional<uint16_t> computed;
  std::optional<size_t> offset;
  std::string reason;
  // depth is the IP header the field belongs to, 1 for the outermost.
  int depth = 1;
};

struct Frame {
  Bytes bytes;
  size_t caplen = 0;
  std::vector<Expect> expects;
};

// IpRecord is the one record of a datagram csum finds but cannot read
// (layer ip, verify.h), at IP header number `depth`.
Expect IpRecord(const char* reason, int depth) {
  return {"ip", "unverified", {}, {}, {}, reason, depth};
}

// What to do to a datagram's checksum fields once it is framed.
struct Damage {
  std::optional<uint16_t> ip_stored;
  std::optional<uint16_t> tp_stored;
  // caplen cuts the capture (0: keep everything).
  size_t caplen = 0;
};

Damage TpStored(uint16_t v) {
  Damage d;
  d.tp_stored = v;
  return d;
}
Damage IpStored(uint16_t v) {
  Damage d;
  d.ip_stored = v;
  return d;
}
Damage Cut(size_t caplen) {
  Damage d;
  d.caplen = caplen;
  return d;
}

std::string VerdictFor(uint16_t stored, uint16_t correct) {
  // The receiver's check: 0xffff stored where 0x0000 is computed is the
  // same one's-complement zero (see tools/csum/verify.h).
  if (stored == correct || (stored == 0xffff && correct == 0)) return "good";
  return "bad";
}

// Damaged returns `d` with `damage`'s stored values in its checksum fields
// (the cut is the frame's business).
Datagram Damaged(Datagram d, const Damage& damage) {
  if (damage.ip_stored) StoreBig16(d.bytes.data() + 10, *damage.ip_stored);
  if (damage.tp_stored) {
    StoreBig16(d.bytes.data() + d.ip_header_length + ChecksumOffset(d.proto),
               *damage.tp_stored);
  }
  return d;
}

// AddExpects writes down what csum must say about `d`, found at `net` in
// the frame `f`, the IP header number `depth`.
void AddExpects(Frame& f, const Datagram& d, size_t net, int depth) {
  const size_t ip_field = net + 10;
  const size_t tp_field = net + d.ip_header_length + ChecksumOffset(d.proto);
  const size_t captured_end = std::min(f.caplen, net + d.bytes.size());
  // A TSO super-packet: an IPv4 length of 0 or past the frame, nothing cut.
  // It is judged over the bytes the frame has (verify.h).
  const bool tso =
      depth == 1 && d.v4 && f.caplen == f.bytes.size() &&
      (d.declared_length == 0 || net + d.declared_length > f.bytes.size());
  if (d.v4) {
    Expect e{"ipv4", "unverified", {}, {}, {}, "truncated", depth};
    if (ip_field + 2 <= captured_end) {
      e.stored = LoadBig16(f.bytes.data() + ip_field);
      e.offset = ip_field;
      if (net + d.ip_header_length <= captured_end) {
        e.verdict = VerdictFor(*e.stored, d.ip_correct);
        e.computed = d.ip_correct;
        e.reason = e.verdict == "bad" && *e.stored == 0 ? "offload" : "";
      }
    }
    f.expects.push_back(e);
    // A cut IPv4 header hides the transport header from the parse.
    if (net + d.ip_header_length > captured_end) return;
  } else if (net + d.ip_header_length > captured_end) {
    return;
  }
  if (!d.has_transport_header) return;
  if (d.proto == Proto::kICMPv4 && !d.v4) return;
  if (d.proto == Proto::kICMPv6 && d.v4) return;
  Expect e{LayerOf(d.proto), "unverified", {}, {}, {}, "truncated", depth};
  if (tp_field + 2 <= captured_end) {
    e.stored = LoadBig16(f.bytes.data() + tp_field);
    e.offset = tp_field;
    const bool whole = tso || net + d.declared_length <= captured_end;
    if (d.proto == Proto::kUDP && d.v4 && *e.stored == 0) {
      e.verdict = "none";
      e.reason = "";
    } else if (d.fragment) {
      e.reason = "fragment";
    } else if (d.bad_length) {
      e.reason = "bad-length";
    } else if (whole) {
      e.verdict = VerdictFor(*e.stored, d.tp_correct);
      e.computed = d.tp_correct;
      e.reason = "";
      const bool offload =
          d.tp_pseudo && (*e.stored == 0 || *e.stored == (*d.tp_pseudo)[0] ||
                          *e.stored == (*d.tp_pseudo)[1]);
      if (e.verdict == "bad" && offload) e.reason = "offload";
      if (tso) e.reason += e.reason.empty() ? "tso" : ",tso";
    }
  }
  f.expects.push_back(e);
}

// Framed puts `d` behind the link header `link`, applies `damage` and
// writes down what csum must say.
Frame Framed(const Bytes& link, const Datagram& d, const Damage& damage = {},
             size_t pad_to = 0) {
  Frame f;
  f.bytes = Concat(link, Damaged(d, damage).bytes);
  if (f.bytes.size() < pad_to) f.bytes.resize(pad_to, 0);
  f.caplen = damage.caplen ? damage.caplen : f.bytes.size();
  AddExpects(f, d, link.size(), 1);
  return f;
}

// Link headers.
Bytes Ethernet(uint16_t ether_type, int tags = 0) {
  header::EthernetFields f;
  f.destination.bytes = {0x02, 0, 0, 0, 0, 2};
  f.source.bytes = {0x02, 0, 0, 0, 0, 1};
  f.tag_count = static_cast<uint8_t>(tags);
  if (tags == 2) {
    f.tags[0] = header::VlanTag{header::kEtherTypeQinQ, 0, false, 100};
    f.tags[1] = header::VlanTag{header::kEtherTypeVlan, 3, false, 200};
  } else if (tags == 1) {
    f.tags[0] = header::VlanTag{header::kEtherTypeVlan, 0, false, 42};
  }
  f.ether_type = ether_type;
  Bytes b(header::Ethernet::HeaderSize(f));
  CheckOk(header::Ethernet::Encode(f, b), "Ethernet encode");
  return b;
}

uint16_t EtherTypeOf(const Datagram& d) { return d.v4 ? 0x0800 : 0x86dd; }

Bytes Sll(uint16_t protocol) {
  Bytes b = {0, 0, 0, 1, 0, 6, 0x02, 0, 0, 0, 0, 1, 0, 0, 0, 0};
  StoreBig16(b.data() + 14, protocol);
  return b;
}

Bytes Sll2(uint16_t protocol) {
  Bytes b = {0, 0, 0, 0, 0, 0, 0, 2, 0, 1, 0, 6, 0x02, 0, 0, 0, 0, 1, 0, 0};
  StoreBig16(b.data(), protocol);
  return b;
}

// Loopback family: little-endian (the usual capturing host) or big.
Bytes Family(uint32_t family, bool big_endian) {
  Bytes b(4);
  StoreBig32(b.data(), big_endian ? family : ByteSwap32(family));
  return b;
}

// ---------------------------------------------------------------------------
// The packet sets.

// Basic is a few packets of each IP version and transport, one of each
// kind damaged, behind `link_for(datagram)`.
template <typename LinkFor>
std::vector<Frame> Basic(LinkFor link_for, uint32_t seed) {
  std::vector<Frame> out;
  auto add = [&](const Datagram& d, Damage dmg = {}) {
    out.push_back(Framed(link_for(d), d, dmg));
  };
  add(V4(TCP(100, seed + 1)));
  add(V4(UDP(60, seed + 2)));
  add(V4(ICMPv4Echo(32, seed + 3)));
  add(V6(TCP(80, seed + 4)));
  add(V6(UDP(40, seed + 5)));
  add(V6(ICMPv6Echo(24, seed + 6)));
  Datagram bad = V4(TCP(50, seed + 7));
  add(bad, TpStored(static_cast<uint16_t>(bad.tp_correct ^ 0x0100)));
  Datagram bad6 = V6(UDP(30, seed + 8));
  add(bad6, TpStored(static_cast<uint16_t>(bad6.tp_correct + 1)));
  Datagram badip = V4(UDP(20, seed + 9));
  add(badip, IpStored(static_cast<uint16_t>(badip.ip_correct ^ 0x8000)));
  return out;
}

std::vector<Frame> EthernetFrames() {
  std::vector<Frame> out;
  uint32_t seed = 100;
  auto eth = [](const Datagram& d) { return Ethernet(EtherTypeOf(d)); };
  auto add = [&](const Datagram& d, Damage dmg = {}, int tags = 0,
                 size_t pad_to = 0) {
    out.push_back(Framed(Ethernet(EtherTypeOf(d), tags), d, dmg, pad_to));
  };
  for (Frame& f : Basic(eth, seed)) out.push_back(f);

  // VLAN tags.
  add(V4(TCP(64, ++seed)), {}, 1);
  add(V6(UDP(64, ++seed)), {}, 2);
  {
    Datagram d = V4(ICMPv4Echo(16, ++seed));
    add(d, TpStored(static_cast<uint16_t>(d.tp_correct ^ 0x00ff)), 2);
  }
  // ARP: not IP, no records.
  {
    Frame f;
    f.bytes = Concat(Ethernet(header::kEtherTypeARP), Payload(28, ++seed));
    f.bytes.resize(60, 0);
    f.caplen = f.bytes.size();
    out.push_back(f);
  }
  // IPv4 options: NOP, Record Route, End (padding).
  {
    V4Options o;
    o.options = {1, 7, 11, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    add(V4(TCP(40, ++seed), o));
    Datagram d = V4(UDP(40, ++seed), o);
    add(d, IpStored(static_cast<uint16_t>(d.ip_correct + 0x10)));
  }
  // A loose source route not used up: the pseudo-header carries its last
  // address. One used up (pointer past the end): the header's destination.
  {
    V4Options o;
    o.options = {131, 11, 4, 10, 0, 0, 1, 198, 51, 100, 99, 0};
    o.final_destination = header::IPv4Address::FromHost(0xc6336463);
    add(V4(TCP(48, ++seed), o));
    V4Options used;
    used.options = {131, 11, 12, 10, 0, 0, 1, 198, 51, 100, 99, 0};
    add(V4(UDP(48, ++seed), used));
  }
  // IPv6 extension headers: Hop-by-Hop, Destination Options.
  {
    V6Options o;
    o.first_type = header::kProtocolHopByHop;
    o.extension = Concat(PadOptionsHeader(header::kProtocolDestinationOptions),
                         PadOptionsHeader(header::kProtocolUDP));
    add(V6(UDP(50, ++seed), o));
    o.extension = Concat(PadOptionsHeader(header::kProtocolDestinationOptions),
                         PadOptionsHeader(header::kProtocolTCP));
    Datagram d = V6(TCP(50, ++seed), o);
    add(d, TpStored(static_cast<uint16_t>(~d.tp_correct)));
  }
  // A Segment Routing Header with a segment left: the pseudo-header
  // carries Segment List[0], not the header's destination.
  {
    V6Options o;
    o.first_type = header::kProtocolRouting;
    o.destination = V6(0x99);
    o.final_destination = kDst6;
    o.extension = SegmentRoutingHeader(header::kProtocolTCP, kDst6, V6(0x99));
    add(V6(TCP(70, ++seed), o));
    o.extension =
        SegmentRoutingHeader(header::kProtocolICMPv6, kDst6, V6(0x99));
    add(V6(ICMPv6Echo(20, ++seed), o));
  }
  // Routing header type 0 (the final destination last in its list) and
  // type 2 (the home address), each with a segment left.
  {
    V6Options o;
    o.first_type = header::kProtocolRouting;
    o.destination = V6(0x77);
    o.final_destination = kDst6;
    o.extension = RoutingHeader(header::kProtocolUDP, 0, {V6(0x78), kDst6}, 2);
    add(V6(UDP(33, ++seed), o));
    o.extension = RoutingHeader(header::kProtocolTCP, 2, {kDst6}, 1);
    Datagram d = V6(TCP(33, ++seed), o);
    add(d, TpStored(static_cast<uint16_t>(d.tp_correct - 7)));
  }
  // Fragments: the transport checksum of a fragment is unverified, the
  // IPv4 header checksum still judged.
  for (const Datagram& d : V4Fragments(UDP(100, ++seed), 48)) add(d);
  {
    std::vector<Datagram> frags = V4Fragments(TCP(120, ++seed), 64);
    add(frags[0], IpStored(static_cast<uint16_t>(frags[0].ip_correct ^ 1)));
    add(frags[1]);
  }
  for (const Datagram& d : V6Fragments(ICMPv6Echo(100, ++seed), 56)) add(d);
  for (const Datagram& d : V6Fragments(UDP(90, ++seed), 48)) add(d);
  // Zero UDP checksums: none over IPv4, bad over IPv6 (RFC 8200 8.1).
  add(V4(UDP(30, ++seed)), TpStored(0));
  add(V6(UDP(30, ++seed)), TpStored(0));
  // Snaplen cuts: inside the TCP payload (field captured), before the TCP
  // checksum, inside the IPv4 header (field captured, header not), before
  // the IPv4 checksum, inside an IPv6 UDP header.
  add(V4(TCP(200, ++seed)), Cut(14 + 20 + 20 + 10));
  add(V4(TCP(200, ++seed)), Cut(14 + 20 + 10));
  {
    V4Options o;
    o.options = {1, 1, 1, 1, 1, 1, 1, 0};
    add(V4(UDP(10, ++seed), o), Cut(14 + 20));
  }
  add(V4(UDP(10, ++seed)), Cut(14 + 8));
  add(V6(UDP(300, ++seed)), Cut(14 + 40 + 4));
  add(V6(ICMPv6Echo(300, ++seed)), Cut(14 + 40 + 8 + 100));
  // A Total Length that runs past the bytes sent, nothing cut, or a Total
  // Length of 0: TSO super-packets, judged over the bytes the frame has.
  // The same cut by the capture: unverified.
  {
    V4Options o;
    o.extra_length = 64;
    add(V4(TCP(40, ++seed), o));
    V4Options zero;
    zero.zero_length = true;
    add(V4(TCP(1400, ++seed), zero));
    Datagram d = V4(TCP(2000, ++seed), zero);
    add(d, TpStored((*d.tp_pseudo)[1]));
    add(V4(UDP(300, ++seed), o));
    add(V4(TCP(300, ++seed), o), Cut(14 + 20 + 20 + 100));
  }
  // Checksum offload on the capturing host: the TCP or UDP field holds the
  // folded pseudo-header sum (with the length, as Linux leaves it, or
  // without), or zero; an IPv4 header checksum left zero.
  {
    Datagram d = V4(TCP(90, ++seed));
    add(d, TpStored((*d.tp_pseudo)[0]));
    Datagram e = V6(TCP(90, ++seed));
    add(e, TpStored((*e.tp_pseudo)[1]));
    Datagram u = V6(UDP(70, ++seed));
    add(u, TpStored((*u.tp_pseudo)[0]));
    Datagram z = V4(TCP(30, ++seed));
    add(z, TpStored(0));
    Datagram h = V4(UDP(30, ++seed));
    add(h, IpStored(0));
  }
  // A UDP length that contradicts the IP length: past the IP payload, and
  // below the UDP header's own size.
  {
    Transport t = UDP(40, ++seed);
    StoreBig16(t.bytes.data() + 4, 200);
    Datagram d = V4(t);
    d.bad_length = true;
    add(d);
    Transport s6 = UDP(40, ++seed);
    StoreBig16(s6.bytes.data() + 4, 4);
    Datagram d6 = V6(s6);
    d6.bad_length = true;
    add(d6);
  }
  // UDP-Lite covering the whole datagram, over both IP versions, one bad.
  {
    add(V4(UDPLite(50, ++seed)));
    Datagram d = V6(UDPLite(50, ++seed));
    add(d, TpStored(static_cast<uint16_t>(d.tp_correct ^ 0x0f00)));
  }
  // Ethernet padding after a short datagram is no part of it.
  add(V4(UDP(4, ++seed)), {}, 0, 60);
  {
    Datagram d = V4(ICMPv4Echo(2, ++seed));
    add(d, TpStored(static_cast<uint16_t>(d.tp_correct ^ 0x1000)), 0, 60);
  }
  // An IP protocol without a checksum csum knows: only the IPv4 header.
  add(V4(Transport{Proto::kOther, Payload(24, ++seed)}));
  // Negative zero. TCP whose checksum computes to 0x0000, stored as 0x0000
  // and as 0xffff (both good: the same one's-complement zero).
  {
    Transport t = TCP(64, ++seed);
    MakeSumAllOnes(t, 20, V4Pseudo(t, {}));
    Datagram d = V4(t);
    Check(d.tp_correct == 0, "TCP negative zero");
    add(d);
    add(d, TpStored(0xffff));
  }
  // UDP whose checksum computes to 0: transmitted as 0xffff (RFC 768).
  {
    Transport t = UDP(20, ++seed);
    MakeSumAllOnes(t, 8, V4Pseudo(t, {}));
    Datagram d = V4(t);
    Check(d.tp_correct == 0xffff, "UDP zero sent as ones");
    add(d);
  }
  // ICMPv4 Echo Reply with every covered byte zero: ~0 = 0xffff is right,
  // a stored 0x0000 sums to 0x0000 and is bad.
  {
    Transport t = ICMPv4Echo(0, 0, /*type=*/0);
    Datagram d = V4(t);
    Check(d.tp_correct == 0xffff, "all-zero ICMP");
    add(d);
    add(d, TpStored(0x0000));
  }
  // Malformed: IPv4 IHL 3 (undecodable; one `ip` record says so).
  {
    Datagram d = V4(UDP(10, ++seed));
    d.bytes[0] = 0x43;
    Frame f = Framed(Ethernet(0x0800), d);
    f.expects = {IpRecord("malformed", 1)};
    out.push_back(f);
  }
  // A frame that ends inside the Ethernet header.
  {
    Frame f;
    f.bytes = {0x02, 0, 0, 0, 0, 2, 0x02, 0, 0};
    f.caplen = f.bytes.size();
    out.push_back(f);
  }
  return out;
}

// ---------------------------------------------------------------------------
// Tunnels and ICMP errors: datagrams inside datagrams.

// Tunnelled is an inner datagram (damaged as it was sent) wrapped in an
// outer one: `prefix` (the tunnel's own header, and an Ethernet header for
// VXLAN, Geneve and GRE bridging) comes before it in the outer payload.
struct Tunnelled {
  Datagram outer;
  Datagram inner;
  size_t prefix = 0;
};

// UDPTo is a UDP header to `port` (checksum zero until sealed) before
// `payload`.
Transport UDPTo(uint16_t port, const Bytes& payload) {
  header::UDPFields f;
  f.source_port = 49152;
  f.destination_port = port;
  f.length = static_cast<uint16_t>(header::UDP::kSize + payload.size());
  Bytes b(header::UDP::kSize);
  CheckOk(header::UDP::Encode(f, b), "UDP encode");
  return {Proto::kUDP, Concat(b, payload)};
}

// Wrap builds the outer datagram, IPv4 or IPv6, around `inner` behind
// `head`, as `kind` (`number` for kOther), and seals the outer checksum
// over the inner bytes as they were sent.
Tunnelled Wrap(bool outer_v4, const Datagram& inner, Proto kind, uint8_t number,
               const Bytes& head) {
  Transport t{kind, Concat(head, inner.bytes), number};
  Tunnelled r;
  r.inner = inner;
  r.prefix = head.size();
  r.outer = outer_v4 ? V4(t) : V6(t);
  return r;
}

Tunnelled IPinIP(bool outer_v4, const Datagram& inner) {
  return Wrap(outer_v4, inner, Proto::kOther, inner.v4 ? 4 : 41, {});
}

// GRE is a GRE header (RFC 2784, RFC 2890) with the checksum (sealed as
// the outer transport), key and sequence fields asked, carrying `inner`
// directly or, `bridged`, in an Ethernet frame (0x6558).
Tunnelled GRE(bool outer_v4, const Datagram& inner, bool checksum, bool key,
              bool sequence, bool bridged) {
  Bytes h = {static_cast<uint8_t>((checksum ? 0x80 : 0) | (key ? 0x20 : 0) |
                                  (sequence ? 0x10 : 0)),
             0, 0, 0};
  StoreBig16(h.data() + 2, bridged ? 0x6558 : EtherTypeOf(inner));
  if (checksum) h.insert(h.end(), {0, 0, 0, 0});
  if (key) h.insert(h.end(), {0, 0, 0x12, 0x34});
  if (sequence) h.insert(h.end(), {0, 0, 0, 7});
  if (bridged) h = Concat(h, Ethernet(EtherTypeOf(inner)));
  return Wrap(outer_v4, inner, checksum ? Proto::kGRE : Proto::kOther, 47, h);
}

// UDPTunnel wraps `inner` behind `head` in UDP to `port`.
Tunnelled UDPTunnel(bool outer_v4, const Datagram& inner, uint16_t port,
                    const Bytes& head) {
  Tunnelled r;
  r.inner = inner;
  r.prefix = header::UDP::kSize + head.size();
  Transport t = UDPTo(port, Concat(head, inner.bytes));
  r.outer = outer_v4 ? V4(t) : V6(t);
  return r;
}

// VXLAN (RFC 7348): UDP to 4789, the 8-byte header with the I flag and VNI
// 0x123456, then Ethernet.
Tunnelled VXLAN(bool outer_v4, const Datagram& inner) {
  return UDPTunnel(outer_v4, inner, 4789,
                   Concat(Bytes{0x08, 0, 0, 0, 0x12, 0x34, 0x56, 0},
                          Ethernet(EtherTypeOf(inner))));
}

// Geneve (RFC 8926) to 6081 with one 12-byte option (class 0x0102, type
// 0x80, 8 bytes of data) and protocol 0x6558, Ethernet.
Tunnelled Geneve(bool outer_v4, const Datagram& inner) {
  const Bytes h = {3,    0,    0x65, 0x58, 0,    0,    0x2a, 0,  // 3 words
                   0x01, 0x02, 0x80, 2,    0xde, 0xad, 0xbe, 0xef, 1, 2, 3, 4};
  return UDPTunnel(outer_v4, inner, 6081,
                   Concat(h, Ethernet(EtherTypeOf(inner))));
}

// FramedTunnel frames `t` behind Ethernet, the outer datagram damaged by
// `outer_damage`, and writes down both datagrams' fields.
Frame FramedTunnel(const Tunnelled& t, const Damage& outer_damage = {}) {
  const Bytes link = Ethernet(EtherTypeOf(t.outer));
  Frame f = Framed(link, t.outer, outer_damage);
  AddExpects(f, t.inner, link.size() + t.outer.ip_header_length + t.prefix, 2);
  return f;
}

// TunnelFrames covers every tunnel csum follows, good and bad checksums
// inside and out.
std::vector<Frame> TunnelFrames() {
  std::vector<Frame> out;
  uint32_t seed = 2700;
  auto bad_tp = [](const Datagram& d) {
    return Damaged(d, TpStored(static_cast<uint16_t>(d.tp_correct ^ 0x0440)));
  };
  auto bad_ip = [](const Datagram& d) {
    return Damaged(d, IpStored(static_cast<uint16_t>(d.ip_correct ^ 0x0101)));
  };
  auto add = [&](const Tunnelled& t, const Damage& outer_damage = {}) {
    out.push_back(FramedTunnel(t, outer_damage));
  };
  // IP in IP: 4in4, 6in4, 4in6, 6in6; an inner TCP and an inner IPv4
  // header bad, and an outer IPv4 header bad.
  add(IPinIP(true, V4(TCP(60, ++seed))));
  add(IPinIP(true, bad_tp(V4(TCP(60, ++seed)))));
  {
    Tunnelled t = IPinIP(true, bad_ip(V4(UDP(40, ++seed))));
    add(t, IpStored(static_cast<uint16_t>(t.outer.ip_correct ^ 0x2000)));
  }
  add(IPinIP(true, V6(UDP(50, ++seed))));
  add(IPinIP(true, bad_tp(V6(TCP(50, ++seed)))));
  add(IPinIP(false, V4(ICMPv4Echo(24, ++seed))));
  add(IPinIP(false, bad_tp(V4(UDP(30, ++seed)))));
  add(IPinIP(false, V6(ICMPv6Echo(24, ++seed))));
  add(IPinIP(false, bad_tp(V6(UDP(30, ++seed)))));
  // GRE without a checksum, with key and sequence number; with a checksum,
  // good and bad, over a good and a bad inner datagram; over IPv6;
  // bridging Ethernet (0x6558).
  add(GRE(true, V4(TCP(40, ++seed)), false, true, true, false));
  add(GRE(true, V4(UDP(40, ++seed)), true, false, false, false));
  add(GRE(true, bad_tp(V4(TCP(40, ++seed))), true, true, true, false));
  {
    Tunnelled t = GRE(true, V6(TCP(40, ++seed)), true, true, false, false);
    add(t, TpStored(static_cast<uint16_t>(t.outer.tp_correct + 3)));
  }
  add(GRE(false, bad_ip(V4(UDP(30, ++seed))), true, false, true, false));
  add(GRE(true, V4(TCP(30, ++seed)), true, false, false, true));
  // VXLAN: outer UDP checksum good, bad, zero (none, the usual case over
  // IPv4); over IPv6; an inner bad TCP and IPv4 header under a zero outer
  // checksum (fix must leave that zero).
  add(VXLAN(true, V4(TCP(80, ++seed))));
  {
    Tunnelled t = VXLAN(true, V4(UDP(40, ++seed)));
    add(t, TpStored(static_cast<uint16_t>(t.outer.tp_correct ^ 0x8000)));
  }
  add(VXLAN(true, V6(TCP(40, ++seed))), TpStored(0));
  add(VXLAN(true, bad_ip(bad_tp(V4(TCP(40, ++seed))))), TpStored(0));
  add(VXLAN(false, bad_tp(V4(UDP(40, ++seed)))));
  // Geneve with an option: good, an inner bad UDP, the outer bad.
  add(Geneve(true, V4(TCP(40, ++seed))));
  add(Geneve(true, bad_tp(V6(UDP(40, ++seed)))));
  {
    Tunnelled t = Geneve(false, V4(ICMPv4Echo(16, ++seed)));
    add(t, TpStored(static_cast<uint16_t>(t.outer.tp_correct - 1)));
  }
  // A VXLAN frame cut by the capture inside the inner TCP payload: the
  // outer UDP and the inner TCP unverified, the IPv4 headers judged.
  {
    Tunnelled t = VXLAN(true, V4(TCP(200, ++seed)));
    const Bytes link = Ethernet(EtherTypeOf(t.outer));
    const size_t inner_net = link.size() + t.outer.ip_header_length + t.prefix;
    Frame f = Framed(link, t.outer, Cut(inner_net + 20 + 20 + 50));
    AddExpects(f, t.inner, inner_net, 2);
    out.push_back(f);
  }
  // IPv4 in IPv4 nested ten deep, the innermost carrying TCP: csum reads
  // kMaxIPDepth (8) IP headers and marks the frame; only their IPv4 header
  // checksums are reported.
  {
    constexpr int kLevels = 10;
    constexpr int kMaxIPDepth = 8;
    std::vector<Datagram> levels = {V4(TCP(20, ++seed))};
    for (int i = 1; i < kLevels; ++i) {
      levels.push_back(V4(Transport{Proto::kOther, levels.back().bytes, 4}));
    }
    const Bytes link = Ethernet(0x0800);
    Frame f = Framed(link, levels.back());
    for (int depth = 2; depth <= kMaxIPDepth; ++depth) {
      const size_t net = link.size() + 20 * (depth - 1);
      AddExpects(f, levels[kLevels - depth], net, depth);
    }
    out.push_back(f);
  }
  // Datagrams csum cannot read inside a tunnel: one `ip` record at their
  // ip_depth each, after the outer fields. `broken` frames `t` (its inner
  // datagram as built, no expectations for it) with that record.
  auto broken = [&](const Tunnelled& t, const char* reason,
                    const Damage& outer_damage = {}) {
    const Bytes link = Ethernet(EtherTypeOf(t.outer));
    Frame f = Framed(link, t.outer, outer_damage);
    f.expects.push_back(IpRecord(reason, 2));
    out.push_back(f);
  };
  {
    // 4in4 with an inner IHL of 3; GRE (with its checksum) around an inner
    // Total Length below its header; IPv6 in IPv4 with version nibble 5.
    Datagram ihl = V4(UDP(20, ++seed));
    ihl.bytes[0] = 0x43;
    broken(IPinIP(true, ihl), "malformed");
    Datagram total = V4(TCP(20, ++seed));
    StoreBig16(total.bytes.data() + 2, 16);
    broken(GRE(true, total, true, false, false, false), "malformed");
    Datagram version = V6(UDP(20, ++seed));
    version.bytes[0] = 0x50;
    broken(IPinIP(true, version), "malformed");
  }
  {
    // An inner IPv6 header the outer IPv4 length cuts (30 of its 40
    // bytes sent): bad-length. The same cut by the capture: truncated.
    Datagram d6 = V6(UDP(20, ++seed));
    Datagram part = d6;
    part.bytes.resize(30);
    broken(IPinIP(true, part), "bad-length");
    Tunnelled t = IPinIP(false, V6(TCP(20, ++seed)));
    broken(t, "truncated", Cut(14 + 40 + 30));
  }
  {
    // An inner UDP header past the inner IPv4 payload (Total Length 24):
    // the UDP field itself is bad-length.
    Datagram d;
    d.bytes = Concat(IPv4Header(4, 17, {}), UDP(20, ++seed).bytes);
    Tunnelled t = VXLAN(true, d);
    const Bytes link = Ethernet(0x0800);
    Frame f = Framed(link, t.outer);
    const size_t net = link.size() + 20 + t.prefix;
    const uint16_t ip = LoadBig16(f.bytes.data() + net + 10);
    f.expects.push_back({"ipv4", "good", ip, ip, net + 10, "", 2});
    f.expects.push_back({"udp", "unverified", {}, {}, {}, "bad-length", 2});
    out.push_back(f);
  }
  {
    // GRE cut short: two bytes of header, and a key announced past the
    // end of the IPv4 payload (bad-length); a VXLAN header the capture
    // cuts (truncated, the outer UDP too).
    Datagram two = V4(Transport{Proto::kOther, {0x00, 0x00}, 47});
    Frame f = Framed(Ethernet(0x0800), two);
    f.expects.push_back(IpRecord("bad-length", 2));
    out.push_back(f);
    Datagram key =
        V4(Transport{Proto::kOther, {0x20, 0x00, 0x08, 0x00, 0, 0}, 47});
    Frame g = Framed(Ethernet(0x0800), key);
    g.expects.push_back(IpRecord("bad-length", 2));
    out.push_back(g);
    Tunnelled t = VXLAN(true, V4(UDP(20, ++seed)));
    broken(t, "truncated", Cut(14 + 20 + 8 + 4));
    out.back().expects[1] = {
        "udp", "unverified", LoadBig16(out.back().bytes.data() + 14 + 20 + 6),
        {},    14 + 20 + 6,  "truncated",
        1};
  }
  {
    // Versions csum does not read: GRE version 2, Geneve version 1.
    Datagram inner = V4(UDP(20, ++seed));
    Bytes gre = {0x00, 0x02, 0x08, 0x00};
    broken(Wrap(true, inner, Proto::kOther, 47, gre), "unsupported");
    const Bytes h = {0x40, 0, 0x08, 0x00, 0, 0, 0x2a, 0};
    broken(UDPTunnel(true, V4(UDP(20, ++seed)), 6081, h), "unsupported");
  }
  // GRE version 1 (PPTP, RFC 2637): key (payload length, call ID),
  // sequence and acknowledgment numbers, PPP with address and control
  // (IPv4 0x0021): the inner datagram is judged, a bad TCP inside
  // included. An acknowledgment alone carries nothing.
  auto pptp = [&](const Datagram& inner, bool ack) {
    Bytes h = {0x30, static_cast<uint8_t>(0x01 | (ack ? 0x80 : 0)), 0x88, 0x0b};
    const bool data = !inner.bytes.empty();
    if (!data) h[0] = 0x20;  // no sequence number
    const size_t ppp = data ? inner.bytes.size() + 4 : 0;
    h.insert(h.end(), {static_cast<uint8_t>(ppp >> 8),
                       static_cast<uint8_t>(ppp), 0x40, 0x01});
    if (data) h.insert(h.end(), {0, 0, 0, 9});
    if (ack) h.insert(h.end(), {0, 0, 0, 8});
    if (data) h.insert(h.end(), {0xff, 0x03, 0x00, 0x21});
    return Wrap(true, inner, Proto::kOther, 47, h);
  };
  add(pptp(V4(TCP(40, ++seed)), true));
  add(pptp(bad_tp(V4(UDP(40, ++seed))), false));
  {
    Tunnelled t = pptp(Datagram{}, true);
    out.push_back(Framed(Ethernet(0x0800), t.outer));
  }
  // GRE with RFC 1701 routing: the checksum and offset word, one IPv4
  // Source Route Entry and the null one, then the payload; with the
  // checksum bit (judged over the routing too) and without.
  auto routed = [&](const Datagram& inner, bool checksum) {
    Bytes h = {static_cast<uint8_t>(0x40 | (checksum ? 0x80 : 0)), 0, 0x08,
               0x00};
    h.insert(h.end(), {0, 0, 0, 0});                     // checksum, offset
    h.insert(h.end(), {0x08, 0x00, 0, 8});               // SRE: IPv4, 8 bytes
    h.insert(h.end(), {192, 0, 2, 1, 198, 51, 100, 2});  // the route
    h.insert(h.end(), {0, 0, 0, 0});                     // null SRE
    return Wrap(true, inner, checksum ? Proto::kGRE : Proto::kOther, 47, h);
  };
  add(routed(V4(TCP(30, ++seed)), true));
  add(routed(bad_tp(V4(UDP(30, ++seed))), false));
  return out;
}

// QuotingError is an ICMPv4 (`v4`) or ICMPv6 error of `type` and `code`
// quoting the first `quote` bytes of `d`.
Transport QuotingError(bool v4, uint8_t type, uint8_t code, const Datagram& d,
                       size_t quote) {
  Bytes b = {type, code, 0, 0, 0, 0, 0, 0};
  if (!v4 && type == 2) StoreBig32(b.data() + 4, 1280);  // the MTU
  b.insert(b.end(), d.bytes.begin(),
           d.bytes.begin() + std::min(quote, d.bytes.size()));
  return {v4 ? Proto::kICMPv4 : Proto::kICMPv6, b};
}

// QuoteExpects writes down the fields of `quoted`'s first `quote` bytes,
// found at `net` in `f`: unverified, reason `quoted`, at ip_depth `depth`.
// What the quoted datagram carries (a tunnel's inner one) is not read; a
// quoted IPv6 header cut short is one `ip` record.
void QuoteExpects(Frame& f, const Datagram& quoted, size_t net, size_t quote,
                  int depth) {
  const size_t end = net + std::min(quote, quoted.bytes.size());
  auto row = [&](const char* layer, size_t field) {
    Expect x{layer, "unverified", {}, {}, {}, "quoted", depth};
    if (field + 2 <= end) {
      x.stored = LoadBig16(f.bytes.data() + field);
      x.offset = field;
    }
    f.expects.push_back(x);
  };
  if (quoted.v4) row("ipv4", net + 10);
  if (net + quoted.ip_header_length > end) {
    if (!quoted.v4) f.expects.push_back(IpRecord("quoted", depth));
    return;
  }
  if (!quoted.has_transport_header) return;
  row(LayerOf(quoted.proto),
      net + quoted.ip_header_length + ChecksumOffset(quoted.proto));
}

// FramedError frames the error `e` (an ICMP message around `quoted`'s
// first `quote` bytes, as QuotingError made it) and writes down the
// quoted fields at ip_depth 2.
Frame FramedError(const Datagram& e, const Datagram& quoted, size_t quote,
                  const Damage& damage = {}) {
  const Bytes link = Ethernet(EtherTypeOf(e));
  Frame f = Framed(link, e, damage);
  QuoteExpects(f, quoted, link.size() + e.ip_header_length + 8, quote, 2);
  return f;
}

// IcmpErrorFrames are ICMP errors quoting TCP and UDP datagrams: the
// error's checksum judged (two bad), the quote reported, not judged.
std::vector<Frame> IcmpErrorFrames() {
  std::vector<Frame> out;
  uint32_t seed = 2800;
  auto add = [&](bool v4, uint8_t type, uint8_t code, const Datagram& q,
                 size_t quote, bool bad = false) {
    Datagram e = v4 ? V4(QuotingError(true, type, code, q, quote))
                    : V6(QuotingError(false, type, code, q, quote));
    out.push_back(
        FramedError(e, q, quote,
                    bad ? TpStored(static_cast<uint16_t>(e.tp_correct ^ 0x0202))
                        : Damage{}));
  };
  // RFC 792: the IP header and 64 bits of the datagram. TCP's checksum is
  // not in those 8 bytes; UDP's is.
  add(true, 3, 3, V4(UDP(100, ++seed)), 28);
  add(true, 3, 1, V4(TCP(100, ++seed)), 28);
  add(true, 11, 0, V4(UDP(60, ++seed)), 28, true);
  // RFC 1812 4.3.2.3: as much as fits; a bad checksum in a quote is
  // reported, not judged.
  {
    Datagram q = V4(TCP(60, ++seed));
    q = Damaged(q, TpStored(static_cast<uint16_t>(q.tp_correct ^ 0x1111)));
    add(true, 12, 0, q, q.bytes.size());
  }
  add(true, 3, 4, V4(UDP(1400, ++seed)), 576 - 28);
  // ICMPv6 (RFC 4443): Destination Unreachable, Packet Too Big, Time
  // Exceeded, Parameter Problem, each quoting as much as fits.
  add(false, 1, 4, V6(UDP(60, ++seed)), 1232);
  add(false, 2, 0, V6(TCP(1400, ++seed)), 1232);
  add(false, 3, 0, V6(TCP(40, ++seed)), 1232, true);
  add(false, 4, 1, V6(UDP(8, ++seed)), 1232);
  // An Echo Reply is no error: its data is not a quote.
  out.push_back(Framed(Ethernet(0x0800), V4(ICMPv4Echo(48, ++seed, 0))));
  // Quotes of tunnel packets: reported, what they carry not read (IP in
  // IP, GRE with its checksum, VXLAN); an IPv6 header quoted short.
  add(true, 3, 1, IPinIP(true, V4(TCP(40, ++seed))).outer, 80);
  add(true, 11, 0,
      GRE(true, V4(UDP(30, ++seed)), true, false, false, false).outer, 100);
  add(false, 1, 3, VXLAN(false, V4(TCP(40, ++seed))).outer, 1232);
  add(false, 2, 0, V6(TCP(100, ++seed)), 24);
  // ICMP errors inside tunnels: judged at ip_depth 2, their quotes
  // reported at 3 (4in4; 6in4 with a bad ICMPv6 checksum; VXLAN).
  auto tunnelled = [&](Tunnelled (*wrap)(bool, const Datagram&), bool v4,
                       uint8_t type, const Datagram& q, size_t quote,
                       bool bad) {
    Datagram e = v4 ? V4(QuotingError(true, type, 0, q, quote))
                    : V6(QuotingError(false, type, 0, q, quote));
    if (bad)
      e = Damaged(e, TpStored(static_cast<uint16_t>(e.tp_correct ^ 0x0202)));
    const Tunnelled t = wrap(true, e);
    Frame f = FramedTunnel(t);
    QuoteExpects(
        f, q, 14 + t.outer.ip_header_length + t.prefix + e.ip_header_length + 8,
        quote, 3);
    out.push_back(f);
  };
  tunnelled(IPinIP, true, 3, V4(UDP(60, ++seed)), 28, false);
  tunnelled(IPinIP, false, 3, V6(UDP(60, ++seed)), 200, true);
  tunnelled(VXLAN, true, 11, V4(TCP(60, ++seed)), 100, false);
  return out;
}

// ---------------------------------------------------------------------------
// Writers.

void WriteTruth(const std::string& path, const std::vector<Frame>& frames) {
  FILE* f = std::fopen(path.c_str(), "w");
  Check(f != nullptr, "cannot write ground truth");
  std::fputs(
      "frame\tlayer\tverdict\tstored\tcomputed\tcsum_off\treason\tip_depth\n",
      f);
  for (size_t i = 0; i < frames.size(); ++i) {
    for (const Expect& e : frames[i].expects) {
      std::fprintf(f, "%zu\t%s\t%s\t", i + 1, e.layer.c_str(),
                   e.verdict.c_str());
      if (e.stored) std::fprintf(f, "0x%04x", *e.stored);
      std::fputc('\t', f);
      if (e.computed) std::fprintf(f, "0x%04x", *e.computed);
      std::fputc('\t', f);
      if (e.offset) std::fprintf(f, "%zu", *e.offset);
      std::fprintf(f, "\t%s\t%d\n", e.reason.c_str(), e.depth);
    }
  }
  std::fclose(f);
}

constexpr int64_t kBaseTime = 1767225600;  // 2026-01-01 00:00:00 UTC

void WritePcap(const std::string& dir, const std::string& name, int dlt,
               const std::vector<Frame>& frames) {
  pcap_t* dead = pcap_open_dead_with_tstamp_precision(
      dlt, 65535, PCAP_TSTAMP_PRECISION_MICRO);
  Check(dead != nullptr, "pcap_open_dead");
  std::string path = dir + "/" + name + ".pcap";
  pcap_dumper_t* dumper = pcap_dump_open(dead, path.c_str());
  Check(dumper != nullptr, pcap_geterr(dead));
  for (size_t i = 0; i < frames.size(); ++i) {
    pcap_pkthdr h{};
    h.ts.tv_sec = kBaseTime;
    h.ts.tv_usec = static_cast<suseconds_t>(1000 * i);
    h.caplen = static_cast<uint32_t>(frames[i].caplen);
    h.len = static_cast<uint32_t>(frames[i].bytes.size());
    pcap_dump(reinterpret_cast<u_char*>(dumper), &h, frames[i].bytes.data());
  }
  pcap_dump_close(dumper);
  pcap_close(dead);
  WriteTruth(dir + "/" + name + ".tsv", frames);
}

// Little-endian pcapng blocks (pcapng draft, sections 4.1, 4.2, 4.3).
void Le16(Bytes& b, uint16_t v) { b.push_back(v & 0xff), b.push_back(v >> 8); }
void Le32(Bytes& b, uint32_t v) {
  Le16(b, static_cast<uint16_t>(v));
  Le16(b, static_cast<uint16_t>(v >> 16));
}
void Block(Bytes& out, uint32_t type, Bytes body) {
  while (body.size() % 4) body.push_back(0);
  uint32_t total = static_cast<uint32_t>(body.size() + 12);
  Le32(out, type);
  Le32(out, total);
  out.insert(out.end(), body.begin(), body.end());
  Le32(out, total);
}

// WritePcapng writes an Ethernet pcapng with two interfaces (microsecond
// and nanosecond timestamps); odd frames go to the second.
void WritePcapng(const std::string& dir, const std::string& name,
                 const std::vector<Frame>& frames) {
  Bytes out;
  Bytes shb;
  Le32(shb, 0x1a2b3c4d);  // byte-order magic
  Le16(shb, 1);
  Le16(shb, 0);
  Le32(shb, 0xffffffff);  // section length unknown
  Le32(shb, 0xffffffff);
  Block(out, 0x0a0d0d0a, shb);
  for (int i = 0; i < 2; ++i) {
    Bytes idb;
    Le16(idb, 1);  // LINKTYPE_ETHERNET
    Le16(idb, 0);
    Le32(idb, 65535);
    if (i == 1) {
      Le16(idb, 9);  // if_tsresol
      Le16(idb, 1);
      idb.insert(idb.end(), {9, 0, 0, 0});  // 10^-9, padded
      Le32(idb, 0);                         // opt_endofopt
    }
    Block(out, 1, idb);
  }
  for (size_t i = 0; i < frames.size(); ++i) {
    const uint32_t iface = i % 2;
    const uint64_t ts = iface == 0
                            ? uint64_t(kBaseTime) * 1000000 + 1000 * i
                            : uint64_t(kBaseTime) * 1000000000 + 1000001 * i;
    Bytes epb;
    Le32(epb, iface);
    Le32(epb, static_cast<uint32_t>(ts >> 32));
    Le32(epb, static_cast<uint32_t>(ts));
    Le32(epb, static_cast<uint32_t>(frames[i].caplen));
    Le32(epb, static_cast<uint32_t>(frames[i].bytes.size()));
    epb.insert(epb.end(), frames[i].bytes.begin(),
               frames[i].bytes.begin() + frames[i].caplen);
    Block(out, 6, epb);
  }
  std::string path = dir + "/" + name + ".pcapng";
  FILE* f = std::fopen(path.c_str(), "wb");
  Check(f != nullptr, "cannot write pcapng");
  std::fwrite(out.data(), 1, out.size(), f);
  std::fclose(f);
  WriteTruth(dir + "/" + name + ".tsv", frames);
}

// ---------------------------------------------------------------------------
// Link layers and Ethernet shims (link.h): one capture per link type, and
// ethernet-shims.pcap for what can sit between Ethernet and IP.

// WithTrailer appends `n` bytes that follow the packet on the link (a
// MACsec ICV, an FCS); the capture keeps them unless it was cut.
using builders::Be16;
using builders::NflogTlv;

constexpr size_t kIcv = 16;  // MACsec ICV (link.h)

Frame WithTrailer(Frame f, size_t n, uint8_t fill) {
  const bool whole = f.caplen == f.bytes.size();
  f.bytes.insert(f.bytes.end(), n, fill);
  if (whole) f.caplen = f.bytes.size();
  return f;
}

// NoRecords is a frame csum counts without judging any field (not IP, or
// cut inside its link-layer headers).
Frame NoRecords(Bytes bytes, size_t caplen = 0) {
  Frame f;
  f.bytes = std::move(bytes);
  f.caplen = caplen ? caplen : f.bytes.size();
  return f;
}

// MPLS label stack entries, the last one bottom of stack.
Bytes MplsLabels(std::initializer_list<uint32_t> labels) {
  Bytes b;
  size_t i = 0;
  for (uint32_t label : labels) {
    b = Concat(b, builders::MplsLabel(label, ++i == labels.size()));
  }
  return b;
}

uint16_t PppProtocolOf(const Datagram& d) { return d.v4 ? 0x0021 : 0x0057; }

// PPPoE session header for a PPP frame of `ppp_length` bytes (protocol
// field included).
Bytes Pppoe(size_t ppp_length) {
  Bytes b = {0x11, 0x00, 0x12, 0x34};
  Bytes len = Be16(static_cast<uint16_t>(ppp_length));
  b.insert(b.end(), len.begin(), len.end());
  return b;
}

// MACsec SecTAG after its EtherType: TCI (AN 1, SC as asked, E and C as
// asked), short length 0, packet number 7, the SCI when SC is set.
Bytes SecTag(bool sci, bool encrypted = false) {
  uint8_t tci = 0x01;
  if (sci) tci |= 0x20;
  if (encrypted) tci |= 0x0c;
  Bytes b = {tci, 0x00, 0, 0, 0, 7};
  if (sci) b.insert(b.end(), {0x02, 0, 0, 0, 0, 1, 0x00, 0x01});
  return b;
}

// NSH base header and service path header, `words` 4-byte words long
// (MD type 2 for 2 words, MD type 1 with zero context for 6).
Bytes Nsh(uint8_t next, uint8_t words) {
  Bytes b = {0x0f,
             static_cast<uint8_t>(0xc0 | words),
             static_cast<uint8_t>(words == 6 ? 1 : 2),
             next,
             0,
             0,
             42,
             255};
  b.resize(size_t{words} * 4, 0);
  return b;
}

std::vector<Frame> EthernetShimFrames() {
  std::vector<Frame> out;
  uint32_t seed = 1000;
  auto add = [&](const Bytes& link, const Datagram& d, Damage dmg = {},
                 size_t pad_to = 0) {
    out.push_back(Framed(link, d, dmg, pad_to));
  };
  auto bad = [](const Datagram& d) {
    return TpStored(static_cast<uint16_t>(d.tp_correct ^ 0x0101));
  };
  // MPLS: one label, two, behind a VLAN tag, and an Ethernet pseudowire
  // (control word, then the customer's frame).
  add(Concat(Ethernet(0x8847), MplsLabels({100})), V4(TCP(60, ++seed)));
  add(Concat(Ethernet(0x8847), MplsLabels({100, 200})), V6(UDP(40, ++seed)));
  {
    Datagram d = V4(UDP(30, ++seed));
    add(Concat(Ethernet(0x8847, 1), MplsLabels({16, 17, 18})), d, bad(d));
  }
  {
    Datagram d = V4(TCP(40, ++seed));
    Bytes link = Concat(Ethernet(0x8847), MplsLabels({300}));
    link = Concat(link, Bytes{0, 0, 0, 1});  // control word, sequence 1
    add(Concat(link, Ethernet(0x0800)), d);
    // Without a control word: the customer's frame right after the label,
    // its addresses starting with 0x0 (an Intel OUI).
    Bytes customer = Ethernet(0x86dd);
    for (size_t at : {0, 6}) {
      customer[at] = 0x00, customer[at + 1] = 0x1b, customer[at + 2] = 0x21;
    }
    add(Concat(Concat(Ethernet(0x8847), MplsLabels({301})), customer),
        V6(UDP(40, ++seed)));
  }
  // A label stack deeper than csum follows, and one cut short.
  {
    Bytes link = Ethernet(0x8847);
    for (int i = 0; i < 17; ++i) link = Concat(link, MplsLabels({0x1234, 0}));
    out.push_back(NoRecords(Concat(link, V4(UDP(8, ++seed)).bytes)));
    Bytes cut = Concat(Ethernet(0x8847), MplsLabels({1, 2, 3}));
    cut.erase(cut.end() - 6, cut.end());  // inside the second label
    out.push_back(NoRecords(cut));
  }
  // PPPoE sessions, one padded to Ethernet's minimum.
  for (const Datagram& d :
       {V4(TCP(60, ++seed)), V6(UDP(40, ++seed)), V4(UDP(4, ++seed))}) {
    Bytes link = Concat(Ethernet(0x8864), Pppoe(2 + d.bytes.size()));
    link = Concat(link, Be16(PppProtocolOf(d)));
    add(link, d, d.proto == Proto::kTCP ? bad(d) : Damage{}, 60);
  }
  // MACsec with integrity only: SecTAG of 16 bytes (with SCI) and of 8,
  // the ICV after the packet; one capture cut inside the ICV; an
  // encrypted frame (not IP).
  {
    Datagram d = V4(UDP(50, ++seed));
    Bytes link = Concat(Concat(Ethernet(0x88e5), SecTag(true)), Be16(0x0800));
    out.push_back(WithTrailer(Framed(link, d), kIcv, 0xa5));
  }
  {
    Datagram d = V6(TCP(70, ++seed));
    Bytes link = Concat(Concat(Ethernet(0x88e5), SecTag(false)), Be16(0x86dd));
    out.push_back(WithTrailer(Framed(link, d, bad(d)), kIcv, 0x5a));
  }
  {
    Datagram d = V4(TCP(30, ++seed));
    Bytes link = Concat(Concat(Ethernet(0x88e5), SecTag(true)), Be16(0x0800));
    Frame f = WithTrailer(Framed(link, d), kIcv, 0x3c);
    f.caplen = f.bytes.size() - 8;
    out.push_back(f);
  }
  {
    // A TSO super-packet (IPv4 length 0): judged over the bytes before the
    // ICV.
    V4Options tso;
    tso.zero_length = true;
    Datagram d = V4(TCP(300, ++seed), tso);
    Bytes link = Concat(Concat(Ethernet(0x88e5), SecTag(false)), Be16(0x0800));
    out.push_back(WithTrailer(Framed(link, d), kIcv, 0x77));
  }
  out.push_back(NoRecords(Concat(Concat(Ethernet(0x88e5), SecTag(true, true)),
                                 Payload(64, ++seed))));
  // Cisco FabricPath: outer addresses, 0x8903, FTag/TTL, inner frame.
  {
    Datagram d = V4(TCP(40, ++seed));
    Bytes outer = {0x02, 0x00, 0x0a, 0x00, 0x00, 0x01, 0x02, 0x00,
                   0x0b, 0x00, 0x00, 0x02, 0x89, 0x03, 0x00, 0x3f};
    add(Concat(outer, Ethernet(0x0800, 1)), d);
    // With the frame's FCS captured: past the IP length, not the packet's.
    Datagram d6 = V6(UDP(40, ++seed));
    out.push_back(
        WithTrailer(Framed(Concat(outer, Ethernet(0x86dd)), d6), 4, 0xfc));
  }
  // Arista timestamp headers, 64-bit and 48-bit.
  {
    Datagram d = V4(UDP(40, ++seed));
    Bytes link = Ethernet(0xd28b);
    link.insert(link.end(), {0x00, 0x01, 0x00, 0x10, 0x65, 0x00, 0x00, 0x01,
                             0x00, 0x00, 0x03, 0xe8, 0x08, 0x00});
    add(link, d);
  }
  {
    Datagram d = V6(TCP(40, ++seed));
    Bytes link = Ethernet(0xd28b);
    link.insert(link.end(), {0x00, 0x01, 0x00, 0x20, 0x00, 0x01, 0x00, 0x00,
                             0x03, 0xe8, 0x86, 0xdd});
    add(link, d, bad(d));
  }
  // NSH: IPv4 (MD type 2), IPv6 (MD type 1), Ethernet.
  add(Concat(Ethernet(0x894f), Nsh(1, 2)), V4(ICMPv4Echo(24, ++seed)));
  add(Concat(Ethernet(0x894f), Nsh(2, 6)), V6(UDP(24, ++seed)));
  add(Concat(Concat(Ethernet(0x894f), Nsh(3, 2)), Ethernet(0x86dd)),
      V6(TCP(24, ++seed)));
  return out;
}

// PPP frames with and without HDLC-like address and control bytes, and
// with a compressed protocol field; an LCP frame is not IP.
std::vector<Frame> PppFrames(bool hdlc) {
  std::vector<Frame> out = Basic(
      [](const Datagram& d) {
        return Concat(Bytes{0xff, 0x03}, Be16(PppProtocolOf(d)));
      },
      hdlc ? 1300 : 1200);
  if (hdlc) {
    // Cisco PPP with HDLC framing.
    Datagram d = V4(UDP(20, 1310));
    out.push_back(Framed(Bytes{0x0f, 0x00, 0x08, 0x00}, d));
  } else {
    out.push_back(Framed(Be16(0x0021), V4(TCP(20, 1210))));
    out.push_back(Framed(Bytes{0x57}, V6(UDP(20, 1211))));
  }
  out.push_back(
      NoRecords(Bytes{0xff, 0x03, 0xc0, 0x21, 0x01, 0x01, 0x00, 0x04}));
  return out;
}

// Frame Relay: Q.922 address of DLCI 100, then RFC 2427's NLPID or SNAP
// encapsulation, or Cisco's EtherType.
std::vector<Frame> FrameRelayFrames() {
  std::vector<Frame> out = Basic(
      [](const Datagram& d) {
        return Bytes{0x18, 0x41, 0x03,
                     static_cast<uint8_t>(d.v4 ? 0xcc : 0x8e)};
      },
      1400);
  out.push_back(
      Framed(Bytes{0x18, 0x41, 0x03, 0x00, 0x80, 0x00, 0x00, 0x00, 0x86, 0xdd},
             V6(TCP(20, 1410))));
  out.push_back(Framed(Bytes{0x18, 0x41, 0x08, 0x00}, V4(UDP(20, 1411))));
  return out;
}

// NFLOG: header, NFULA_PACKET_HDR, NFULA_PREFIX, NFULA_PAYLOAD (TLVs in
// the capturing host's order: little-endian, one big-endian frame).
Frame NflogFrame(const Datagram& d, bool big_endian, Damage dmg = {}) {
  Bytes link = {static_cast<uint8_t>(d.v4 ? 2 : 10), 0, 0, 5};
  link = Concat(link,
                NflogTlv(1, Concat(Be16(EtherTypeOf(d)), {3, 0}), big_endian));
  link = Concat(link, NflogTlv(10, {'c', 's', 'u', 'm', 0}, big_endian));
  Bytes payload_header = NflogTlv(9, {}, big_endian);
  payload_header[big_endian ? 1 : 0] = static_cast<uint8_t>(4 + d.bytes.size());
  payload_header[big_endian ? 0 : 1] =
      static_cast<uint8_t>((4 + d.bytes.size()) >> 8);
  Frame f = Framed(Concat(link, payload_header), d, dmg);
  return WithTrailer(f, (4 - d.bytes.size() % 4) % 4, 0);
}

std::vector<Frame> NflogFrames() {
  std::vector<Frame> out;
  uint32_t seed = 1500;
  for (const Datagram& d : {V4(TCP(60, ++seed)), V4(UDP(31, ++seed)),
                            V6(ICMPv6Echo(22, ++seed)), V6(TCP(10, ++seed))}) {
    out.push_back(NflogFrame(d, false));
  }
  Datagram bad = V4(UDP(25, ++seed));
  out.push_back(NflogFrame(
      bad, false, TpStored(static_cast<uint16_t>(bad.tp_correct ^ 0x4000))));
  out.push_back(NflogFrame(V6(UDP(21, ++seed)), true));
  return out;
}

// 802.11 behind radiotap: data frames (FromDS; QoS; WDS with four
// addresses) with LLC/SNAP; radiotap with TSFT and Flags announcing an FCS
// on some. A beacon, a protected frame and a null-data frame are not IP.
Bytes Radiotap(bool fcs) {
  if (!fcs) return {0, 0, 8, 0, 0, 0, 0, 0};
  // present: TSFT, Flags; TSFT at 8, Flags at 16.
  Bytes b = {0, 0, 17, 0, 0x03, 0, 0, 0};
  b.insert(b.end(), {1, 2, 3, 4, 5, 6, 7, 8, 0x10});
  return b;
}

Bytes Wlan(uint8_t fc0, uint8_t fc1) {
  Bytes b = {fc0, fc1, 0x2c, 0x00};
  for (uint8_t a = 1; a <= 3; ++a) b.insert(b.end(), {0x02, 0, 0, 0, 0, a});
  b.insert(b.end(), {0x10, 0x00});
  if ((fc1 & 3) == 3) b.insert(b.end(), {0x02, 0, 0, 0, 0, 4});
  if (fc0 & 0x80) b.insert(b.end(), {0x00, 0x00});  // QoS control, TID 0
  return b;
}

Bytes Snap(uint16_t ether_type) {
  return Concat(Bytes{0xaa, 0xaa, 0x03, 0x00, 0x00, 0x00}, Be16(ether_type));
}

std::vector<Frame> RadiotapFrames() {
  std::vector<Frame> out = Basic(
      [](const Datagram& d) {
        return Concat(Concat(Radiotap(false), Wlan(0x08, 0x02)),
                      Snap(EtherTypeOf(d)));
      },
      1600);
  {
    Datagram d = V4(TCP(40, 1610));
    out.push_back(WithTrailer(
        Framed(Concat(Concat(Radiotap(true), Wlan(0x88, 0x01)), Snap(0x0800)),
               d),
        4, 0xee));
  }
  {
    Datagram d = V6(UDP(40, 1611));
    out.push_back(WithTrailer(
        Framed(Concat(Concat(Radiotap(true), Wlan(0x88, 0x03)), Snap(0x86dd)),
               d, TpStored(static_cast<uint16_t>(d.tp_correct ^ 0x0010))),
        4, 0xee));
  }
  out.push_back(NoRecords(Concat(Concat(Radiotap(false), Wlan(0x80, 0x00)),
                                 Payload(40, 1612))));  // beacon
  out.push_back(NoRecords(Concat(
      Concat(Radiotap(false), Wlan(0x88, 0x41)),
      Concat(Payload(8, 1613), Concat(Snap(0x0800), V4(UDP(8, 1614)).bytes)))));
  out.push_back(NoRecords(Concat(Radiotap(false), Wlan(0x48, 0x01))));
  return out;
}

// IP over InfiniBand as Solaris writes it: a 40-byte pseudo-header (the
// GRH of a received packet, or the destination address of a sent one),
// then RFC 4391's EtherType and reserved bytes.
Bytes IPoIB(uint16_t ether_type, bool received) {
  Bytes b;
  if (received) {
    b = {0x60, 0, 0, 0, 0, 0, 0, 0x48};  // version 6, source QPN
    b.insert(b.end(), {0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1});
    b.insert(b.end(), {0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2});
  } else {
    b = {0, 0, 0, 0x49};  // destination QPN and GID, then padding
    b.insert(b.end(), {0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2});
    b.resize(40, 0);
  }
  return Concat(b, Concat(Be16(ether_type), Bytes{0, 0}));
}

std::vector<Frame> IPoIBFrames() {
  std::vector<Frame> out = Basic(
      [](const Datagram& d) { return IPoIB(EtherTypeOf(d), true); }, 1800);
  out.push_back(Framed(IPoIB(0x0800, false), V4(TCP(30, 1810))));
  out.push_back(Framed(IPoIB(0x86dd, false), V6(UDP(30, 1811))));
  return out;
}

void WriteLinkCaptures(const std::string& dir) {
  WritePcap(dir, "ethernet-shims", DLT_EN10MB, EthernetShimFrames());
  WritePcap(dir, "ppp", DLT_PPP, PppFrames(false));
  WritePcap(dir, "ppp_hdlc", DLT_PPP_SERIAL, PppFrames(true));
  WritePcap(dir, "c_hdlc", DLT_C_HDLC,
            Basic(
                [](const Datagram& d) {
                  return Concat(Bytes{0x0f, 0x00}, Be16(EtherTypeOf(d)));
                },
                1700));
  WritePcap(dir, "frelay", DLT_FRELAY, FrameRelayFrames());
  WritePcap(dir, "nflog", DLT_NFLOG, NflogFrames());
  WritePcap(dir, "ipoib", DLT_IPOIB, IPoIBFrames());
  WritePcap(dir, "radiotap", DLT_IEEE802_11_RADIO, RadiotapFrames());
}

int Main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_captures OUTPUT_DIR\n");
    return 2;
  }
  const std::string dir = argv[1];
  WritePcap(dir, "ethernet", DLT_EN10MB, EthernetFrames());
  {
    // Linux cooked, and two frames with an 802.1Q tag left in the packet.
    std::vector<Frame> frames =
        Basic([](const Datagram& d) { return Sll(EtherTypeOf(d)); }, 200);
    for (const Datagram& d : {V4(UDP(20, 250)), V6(TCP(20, 251))}) {
      Bytes link = Sll(0x8100);
      link.insert(link.end(), {0x00, 0x2a, 0, 0});
      StoreBig16(link.data() + 18, EtherTypeOf(d));
      frames.push_back(Framed(link, d));
    }
    WritePcap(dir, "linux_sll", DLT_LINUX_SLL, frames);
  }
  WritePcap(dir, "linux_sll2", DLT_LINUX_SLL2,
            Basic([](const Datagram& d) { return Sll2(EtherTypeOf(d)); }, 300));
  WritePcap(dir, "raw", DLT_RAW,
            Basic([](const Datagram&) { return Bytes{}; }, 400));
  {
    std::vector<Frame> v4, v6;
    for (Frame& f : Basic([](const Datagram&) { return Bytes{}; }, 500)) {
      ((f.bytes[0] >> 4) == 4 ? v4 : v6).push_back(f);
    }
    WritePcap(dir, "ipv4", DLT_IPV4, v4);
    WritePcap(dir, "ipv6", DLT_IPV6, v6);
  }
  {
    // BSD loopback, the family in the capturing host's order: macOS
    // (AF_INET6 30) little-endian, and one frame from a big-endian host.
    int n = 0;
    std::vector<Frame> frames = Basic(
        [&n](const Datagram& d) {
          return Family(d.v4 ? 2 : 30, /*big_endian=*/n++ == 3);
        },
        600);
    WritePcap(dir, "null", DLT_NULL, frames);
  }
  WritePcap(dir, "loop", DLT_LOOP,
            Basic([](const Datagram& d) { return Family(d.v4 ? 2 : 24, true); },
                  700));
  WritePcapng(
      dir, "ethernet-pcapng",
      Basic([](const Datagram& d) { return Ethernet(EtherTypeOf(d)); }, 800));
  WritePcap(dir, "tunnels", DLT_EN10MB, TunnelFrames());
  WritePcap(dir, "icmp-errors", DLT_EN10MB, IcmpErrorFrames());
  WriteLinkCaptures(dir);
  return 0;
}

}  // namespace
}  // namespace ipsum::csum

int main(int argc, char** argv) { return ipsum::csum::Main(argc, argv); }
