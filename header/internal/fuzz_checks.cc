// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// The header fuzzers' properties; see fuzz_checks.h.

#include "header/internal/fuzz_checks.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "checksum/checksum.h"
#include "header/address.h"
#include "header/checksum.h"
#include "header/error.h"
#include "header/ethernet.h"
#include "header/icmpv4.h"
#include "header/icmpv6.h"
#include "header/internal/test_util.h"
#include "header/ipv4.h"
#include "header/ipv6.h"
#include "header/protocol.h"
#include "header/tcp.h"
#include "header/udp.h"
#include "testing/fuzz/fuzz_util.h"

namespace ipsum::header::fuzzing {
namespace {

using Bytes = std::vector<uint8_t>;
using testing::ReferenceSum;

constexpr int kMaxDepth = 2;
constexpr uint8_t kProtocolICMPv4 = 1;
constexpr uint8_t kProtocolTCP = 6;
constexpr uint8_t kProtocolUDP = 17;
constexpr uint8_t kProtocolICMPv6 = 58;

bool Equal(std::span<const uint8_t> a, std::span<const uint8_t> b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
}

// Inside reports whether `inner` lies within `outer`.
bool Inside(std::span<const uint8_t> inner, std::span<const uint8_t> outer) {
  if (inner.empty()) return true;
  return inner.data() >= outer.data() &&
         inner.data() + inner.size() <= outer.data() + outer.size();
}

uint16_t PseudoSum(const Pseudo& p, uint8_t protocol, uint32_t length) {
  const uint16_t sum =
      p.v6 ? PseudoHeaderSum(p.source6, p.destination6, protocol, length)
           : PseudoHeaderSum(p.source4, p.destination4, protocol,
                             static_cast<uint16_t>(length));
  IPSUM_FUZZ_CHECK(ReferencePseudoSum(p, protocol, length) == sum ||
                   // Both 0x0000 and 0xffff are a one's-complement zero.
                   (sum | ReferencePseudoSum(p, protocol, length)) == 0xffff);
  return sum;
}

bool SameIPv4Fields(const IPv4Fields& a, const IPv4Fields& b) {
  return a.tos == b.tos && a.total_length == b.total_length && a.id == b.id &&
         a.dont_fragment == b.dont_fragment &&
         a.more_fragments == b.more_fragments &&
         a.fragment_offset == b.fragment_offset && a.ttl == b.ttl &&
         a.protocol == b.protocol && a.source == b.source &&
         a.destination == b.destination && Equal(a.options, b.options);
}

bool SameTCPFields(const TCPFields& a, const TCPFields& b) {
  return a.source_port == b.source_port &&
         a.destination_port == b.destination_port && a.seq == b.seq &&
         a.ack == b.ack && a.flags == b.flags && a.window == b.window &&
         a.checksum == b.checksum && a.urgent_pointer == b.urgent_pointer &&
         Equal(a.options, b.options);
}

// CheckTransportOf checks the upper-layer bytes of an IP packet.
void CheckTransportOf(uint8_t protocol, std::span<const uint8_t> bytes,
                      const Pseudo& pseudo, bool whole, const Knobs& knobs,
                      int depth) {
  switch (protocol) {
    case kProtocolTCP:
      CheckTCP(bytes, pseudo, whole, knobs);
      break;
    case kProtocolUDP:
      CheckUDP(bytes, pseudo, whole, knobs);
      break;
    case kProtocolICMPv4:
      if (!pseudo.v6 && whole) CheckICMPv4(bytes, knobs, depth + 1);
      break;
    case kProtocolICMPv6:
      if (pseudo.v6) CheckICMPv6(bytes, pseudo, whole, knobs, depth + 1);
      break;
    default:
      break;
  }
}

}  // namespace

Knobs MakeKnobs(std::span<const uint8_t> input) {
  // FNV-1a over the input, then a generator from the hash.
  uint64_t h = 0xcbf29ce484222325;
  for (uint8_t b : input) h = (h ^ b) * 0x100000001b3;
  auto next = [&h] {
    h = h * 6364136223846793005 + 1442695040888963407;
    return static_cast<uint32_t>(h >> 32);
  };
  Knobs k;
  k.port_a = static_cast<uint16_t>(next());
  k.port_b = static_cast<uint16_t>(next());
  k.ttl = static_cast<uint8_t>(next());
  k.ident = static_cast<uint16_t>(next());
  k.flow_label = next();
  k.address4 = IPv4Address::FromHost(next());
  for (auto& b : k.address6.bytes) b = static_cast<uint8_t>(next());
  return k;
}

Pseudo MakePseudo(bool v6, const Knobs& knobs) {
  Pseudo p;
  p.v6 = v6;
  p.source4 = IPv4Address::FromHost(0xc0000201);  // 192.0.2.1
  p.destination4 = IPv4Address::FromHost(knobs.port_a * 0x10001u);
  p.source6.bytes = {0x20, 0x01, 0x0d, 0xb8};  // 2001:db8::
  p.destination6 = knobs.address6;
  return p;
}

uint16_t ReferencePseudoSum(const Pseudo& p, uint8_t protocol,
                            uint32_t length) {
  Bytes b;
  if (p.v6) {
    b.insert(b.end(), p.source6.bytes.begin(), p.source6.bytes.end());
    b.insert(b.end(), p.destination6.bytes.begin(), p.destination6.bytes.end());
    b.push_back(static_cast<uint8_t>(length >> 24));
    b.push_back(static_cast<uint8_t>(length >> 16));
    b.push_back(static_cast<uint8_t>(length >> 8));
    b.push_back(static_cast<uint8_t>(length));
    b.insert(b.end(), {0, 0, 0, protocol});
  } else {
    b.insert(b.end(), p.source4.bytes.begin(), p.source4.bytes.end());
    b.insert(b.end(), p.destination4.bytes.begin(), p.destination4.bytes.end());
    b.insert(b.end(), {0, protocol, static_cast<uint8_t>(length >> 8),
                       static_cast<uint8_t>(length)});
  }
  return ReferenceSum(b);
}

void CheckIPv4(std::span<const uint8_t> bytes, const Knobs& knobs, int depth) {
  const Result<IPv4> whole = IPv4::Parse(bytes);
  const Result<IPv4> prefix = IPv4::ParsePrefix(bytes);
  if (whole.ok()) {
    IPSUM_FUZZ_CHECK(prefix.ok());
    IPSUM_FUZZ_CHECK(SameIPv4Fields(whole->fields(), prefix->fields()));
    IPSUM_FUZZ_CHECK(whole->bytes().size() == whole->total_length());
  }
  if (!prefix.ok()) return;
  const IPv4& ip = *prefix;
  IPSUM_FUZZ_CHECK(ip.version() == 4);
  IPSUM_FUZZ_CHECK(ip.header_length() >= IPv4::kMinSize &&
                   ip.header_length() <= IPv4::kMaxSize);
  IPSUM_FUZZ_CHECK(ip.header_length() <= bytes.size());
  IPSUM_FUZZ_CHECK(ip.total_length() >= ip.header_length());
  IPSUM_FUZZ_CHECK(Inside(ip.bytes(), bytes) && Inside(ip.payload(), bytes) &&
                   Inside(ip.options(), bytes));
  IPSUM_FUZZ_CHECK(ip.IsChecksumValid() ==
                   (ReferenceSum(ip.header()) == 0xffff));

  // fields() -> Encode reproduces the header, checksum aside, and the
  // encoding parses to the same fields with a valid checksum.
  const IPv4Fields fields = ip.fields();
  IPSUM_FUZZ_CHECK(IPv4::HeaderSize(fields) == ip.header_length());
  Bytes encoded(IPv4::HeaderSize(fields));
  IPSUM_FUZZ_CHECK(IPv4::Encode(fields, encoded) == Error::kOk);
  Bytes original(ip.header().begin(), ip.header().end());
  encoded[10] = encoded[11] = original[10] = original[11] = 0;
  original[6] &= 0x7f;  // The reserved flag bit is no field.
  IPSUM_FUZZ_CHECK(encoded == original);
  IPSUM_FUZZ_CHECK(
      IPv4::Encode(fields, std::span(encoded).first(encoded.size() - 1)) ==
      Error::kBufferTooSmall);
  IPSUM_FUZZ_CHECK(IPv4::Encode(fields, encoded) == Error::kOk);
  {
    const Result<IPv4> again = IPv4::ParsePrefix(encoded);
    IPSUM_FUZZ_CHECK(again.ok());
    IPSUM_FUZZ_CHECK(again->IsChecksumValid());
    IPSUM_FUZZ_CHECK(SameIPv4Fields(again->fields(), fields));
  }

  // Incremental updates on a header with a computed checksum stay equal to
  // a full recompute.
  {
    Result<MutableIPv4> m = MutableIPv4::ParsePrefix(encoded);
    IPSUM_FUZZ_CHECK(m.ok());
    m->UpdateChecksum();
    m->SetTtlAndUpdateChecksum(knobs.ttl);
    IPSUM_FUZZ_CHECK(m->ttl() == knobs.ttl);
    IPSUM_FUZZ_CHECK(m->checksum() == m->ComputeChecksum());
    const uint8_t ttl = m->DecrementTtl();
    IPSUM_FUZZ_CHECK(ttl == (knobs.ttl == 0 ? 0 : knobs.ttl - 1));
    IPSUM_FUZZ_CHECK(m->checksum() == m->ComputeChecksum());
    m->SetSourceAndUpdateChecksum(knobs.address4);
    IPSUM_FUZZ_CHECK(m->source() == knobs.address4);
    IPSUM_FUZZ_CHECK(m->checksum() == m->ComputeChecksum());
    m->SetDestinationAndUpdateChecksum(ip.source());
    IPSUM_FUZZ_CHECK(m->checksum() == m->ComputeChecksum());
    IPSUM_FUZZ_CHECK(m->IsChecksumValid());
  }

  // The payload: whole unfragmented datagrams get the full transport
  // checks; a first fragment's header is checked as a prefix.
  if (depth > kMaxDepth || ip.fragment_offset() != 0) return;
  Pseudo pseudo;
  pseudo.source4 = ip.source();
  pseudo.destination4 = ip.destination();
  const bool complete = whole.ok() && !ip.IsFragment();
  CheckTransportOf(ip.protocol(), complete ? whole->payload() : ip.payload(),
                   pseudo, complete, knobs, depth);
}

void CheckIPv6(std::span<const uint8_t> bytes, const Knobs& knobs, int depth) {
  const Result<IPv6> whole = IPv6::Parse(bytes);
  const Result<IPv6> prefix = IPv6::ParsePrefix(bytes);
  if (whole.ok()) {
    IPSUM_FUZZ_CHECK(prefix.ok());
    IPSUM_FUZZ_CHECK(whole->bytes().size() ==
                     IPv6::kSize + whole->payload_length());
  }
  if (!prefix.ok()) return;
  const IPv6& ip = *prefix;
  IPSUM_FUZZ_CHECK(ip.version() == 6);
  IPSUM_FUZZ_CHECK(Inside(ip.bytes(), bytes) && Inside(ip.payload(), bytes));

  // The fixed header is all fields: the encoding is the header.
  const IPv6Fields fields = ip.fields();
  Bytes encoded(IPv6::kSize);
  IPSUM_FUZZ_CHECK(IPv6::Encode(fields, encoded) == Error::kOk);
  IPSUM_FUZZ_CHECK(Equal(encoded, ip.header()));
  {
    Result<MutableIPv6> m = MutableIPv6::ParsePrefix(encoded);
    IPSUM_FUZZ_CHECK(m.ok());
    IPSUM_FUZZ_CHECK(m->fields() == fields);
    m->SetFlowLabel(knobs.flow_label);
    IPSUM_FUZZ_CHECK(m->flow_label() == (knobs.flow_label & 0xfffff));
    m->SetTrafficClass(knobs.ttl);
    IPSUM_FUZZ_CHECK(m->traffic_class() == knobs.ttl);
    IPSUM_FUZZ_CHECK(m->flow_label() == (knobs.flow_label & 0xfffff));
    IPSUM_FUZZ_CHECK(m->payload_length() == fields.payload_length);
    const uint8_t hop = m->DecrementHopLimit();
    IPSUM_FUZZ_CHECK(hop == (fields.hop_limit == 0 ? 0 : fields.hop_limit - 1));
  }

  const Result<IPv6Chain> chain = ip.WalkExtensionHeaders();
  if (whole.ok()) {
    // With every byte present, the prefix view walks the same chain.
    const Result<IPv6Chain> whole_chain = whole->WalkExtensionHeaders();
    IPSUM_FUZZ_CHECK(whole_chain.error() == chain.error());
    if (whole_chain.ok() && chain.ok()) {
      IPSUM_FUZZ_CHECK(whole_chain->protocol == chain->protocol);
      IPSUM_FUZZ_CHECK(whole_chain->offset == chain->offset);
      IPSUM_FUZZ_CHECK(whole_chain->upper_length == chain->upper_length);
      IPSUM_FUZZ_CHECK(whole_chain->count == chain->count);
    }
  }
  if (!chain.ok()) return;
  const size_t end = IPv6::kSize + ip.payload_length();
  IPSUM_FUZZ_CHECK(chain->count <= kMaxExtensionHeaders);
  size_t at = IPv6::kSize;
  for (size_t i = 0; i < chain->count; ++i) {
    const IPv6ExtensionHeader& h = chain->headers[i];
    IPSUM_FUZZ_CHECK(h.offset == at);
    IPSUM_FUZZ_CHECK(h.length >= 8);
    at += h.length;
    IPSUM_FUZZ_CHECK(at <= end);
    IPSUM_FUZZ_CHECK(at <= ip.bytes().size());
    if (h.type == 44) {
      // The Fragment header re-encodes to itself, reserved bits aside.
      IPSUM_FUZZ_CHECK(h.length == IPv6::kFragmentHeaderSize);
      IPSUM_FUZZ_CHECK(chain->has_fragment_header);
      Bytes frag(IPv6::kFragmentHeaderSize);
      const uint8_t* orig = ip.bytes().data() + h.offset;
      IPSUM_FUZZ_CHECK(
          IPv6::EncodeFragmentHeader(orig[0], chain->fragment_offset,
                                     chain->more_fragments, chain->fragment_id,
                                     frag) == Error::kOk);
      Bytes want(orig, orig + IPv6::kFragmentHeaderSize);
      want[1] = 0;
      want[3] &= 0xf9;
      // A later Fragment header may have overwritten the chain's values;
      // compare only the last one.
      bool last = true;
      for (size_t j = i + 1; j < chain->count; ++j) {
        if (chain->headers[j].type == 44) last = false;
      }
      if (last) IPSUM_FUZZ_CHECK(frag == want);
    }
  }
  IPSUM_FUZZ_CHECK(chain->offset == at);
  IPSUM_FUZZ_CHECK(chain->upper_length == end - at);

  if (depth > kMaxDepth || chain->fragment_offset != 0) return;
  if (chain->protocol == 59 || chain->protocol == 50) return;
  Pseudo pseudo;
  pseudo.v6 = true;
  pseudo.source6 = ip.source();
  pseudo.destination6 = ip.destination();
  const bool complete =
      whole.ok() && !chain->IsFragment() && !chain->has_routing_header;
  std::span<const uint8_t> upper = ip.bytes().subspan(chain->offset);
  if (complete) upper = upper.first(chain->upper_length);
  CheckTransportOf(chain->protocol, upper, pseudo, complete, knobs, depth);
}

void CheckTCPOptions(std::span<const uint8_t> area) {
  const Result<TCPOptions> options = ParseTCPOptions(area);
  if (!options.ok()) {
    IPSUM_FUZZ_CHECK(options.error() == Error::kBadOptionLength);
    return;
  }
  IPSUM_FUZZ_CHECK(options->sack_block_count <= kMaxSackBlocks);
  const size_t size = TCPOptionsSize(*options);
  IPSUM_FUZZ_CHECK(size % 4 == 0);
  Bytes encoded(size);
  const Result<size_t> n = EncodeTCPOptions(*options, encoded);
  if (size > 40) {
    IPSUM_FUZZ_CHECK(!n.ok() && n.error() == Error::kBadField);
    return;
  }
  IPSUM_FUZZ_CHECK(n.ok() && *n == size);
  const Result<TCPOptions> again = ParseTCPOptions(encoded);
  IPSUM_FUZZ_CHECK(again.ok());
  IPSUM_FUZZ_CHECK(*again == *options);
  if (size > 0) {
    const Result<size_t> small =
        EncodeTCPOptions(*options, std::span(encoded).first(size - 1));
    IPSUM_FUZZ_CHECK(!small.ok() && small.error() == Error::kBufferTooSmall);
  }
}

void CheckTCP(std::span<const uint8_t> segment, const Pseudo& pseudo,
              bool whole, const Knobs& knobs) {
  const Result<TCP> tcp = TCP::Parse(segment);
  if (!tcp.ok()) return;
  IPSUM_FUZZ_CHECK(tcp->data_offset() >= TCP::kMinSize &&
                   tcp->data_offset() <= TCP::kMaxSize &&
                   tcp->data_offset() <= segment.size());
  IPSUM_FUZZ_CHECK(Inside(tcp->options(), segment) &&
                   Inside(tcp->payload(), segment));
  CheckTCPOptions(tcp->options());

  // fields() -> Encode -> the header, reserved bits aside.
  const TCPFields fields = tcp->fields();
  Bytes encoded(tcp->data_offset());
  IPSUM_FUZZ_CHECK(TCP::Encode(fields, encoded) == Error::kOk);
  Bytes original(tcp->header().begin(), tcp->header().end());
  original[12] &= 0xf0;
  encoded[12] &= 0xf0;
  IPSUM_FUZZ_CHECK(encoded == original);
  {
    const Result<TCP> again = TCP::Parse(encoded);
    IPSUM_FUZZ_CHECK(again.ok());
    IPSUM_FUZZ_CHECK(SameTCPFields(again->fields(), fields));
  }
  if (!whole) return;

  const uint16_t ps = PseudoSum(pseudo, kProtocolTCP, segment.size());
  IPSUM_FUZZ_CHECK(tcp->IsChecksumValid(ps) ==
                   (ReferenceSum(segment, ps) == 0xffff));
  Bytes w(segment.begin(), segment.end());
  Result<MutableTCP> m = MutableTCP::Parse(w);
  IPSUM_FUZZ_CHECK(m.ok());
  m->SetChecksum(m->ComputeChecksum(ps));
  IPSUM_FUZZ_CHECK(m->IsChecksumValid(ps));
  IPSUM_FUZZ_CHECK(ReferenceSum(w, ps) == 0xffff);
  m->SetSourcePortAndUpdateChecksum(knobs.port_a);
  IPSUM_FUZZ_CHECK(m->source_port() == knobs.port_a);
  IPSUM_FUZZ_CHECK(m->checksum() == m->ComputeChecksum(ps));
  m->SetDestinationPortAndUpdateChecksum(knobs.port_b);
  IPSUM_FUZZ_CHECK(m->checksum() == m->ComputeChecksum(ps));
  // NAT rewrites the source address.
  Pseudo moved = pseudo;
  if (pseudo.v6) {
    moved.source6 = knobs.address6;
    m->UpdateChecksumForAddressChange(pseudo.source6.bytes,
                                      moved.source6.bytes);
  } else {
    moved.source4 = knobs.address4;
    m->UpdateChecksumForAddressChange(pseudo.source4.bytes,
                                      moved.source4.bytes);
  }
  const uint16_t ps2 = PseudoSum(moved, kProtocolTCP, segment.size());
  IPSUM_FUZZ_CHECK(m->checksum() == m->ComputeChecksum(ps2));
  IPSUM_FUZZ_CHECK(m->IsChecksumValid(ps2));
}

void CheckUDP(std::span<const uint8_t> datagram, const Pseudo& pseudo,
              bool whole, const Knobs& knobs) {
  const Result<UDP> full = UDP::Parse(datagram);
  const Result<UDP> prefix = UDP::ParsePrefix(datagram);
  if (full.ok()) {
    IPSUM_FUZZ_CHECK(prefix.ok());
    IPSUM_FUZZ_CHECK(full->bytes().size() == full->length());
  }
  if (!prefix.ok()) return;
  IPSUM_FUZZ_CHECK(prefix->length() >= UDP::kSize);
  IPSUM_FUZZ_CHECK(Inside(prefix->bytes(), datagram) &&
                   Inside(prefix->payload(), datagram));
  const UDPFields fields = prefix->fields();
  Bytes encoded(UDP::kSize);
  IPSUM_FUZZ_CHECK(UDP::Encode(fields, encoded) == Error::kOk);
  IPSUM_FUZZ_CHECK(Equal(encoded, prefix->header()));
  if (!whole || !full.ok()) return;

  const UDP& udp = *full;
  const uint16_t ps = PseudoSum(pseudo, kProtocolUDP, udp.length());
  const IPVersion version = pseudo.v6 ? IPVersion::kV6 : IPVersion::kV4;
  const bool ref_valid = ReferenceSum(udp.bytes(), ps) == 0xffff;
  if (udp.checksum() == 0) {
    IPSUM_FUZZ_CHECK(udp.IsChecksumValid(ps, version) == !pseudo.v6);
  } else {
    IPSUM_FUZZ_CHECK(udp.IsChecksumValid(ps, version) == ref_valid);
  }
  Bytes w(udp.bytes().begin(), udp.bytes().end());
  Result<MutableUDP> m = MutableUDP::Parse(w);
  IPSUM_FUZZ_CHECK(m.ok());
  const uint16_t c = m->ComputeChecksum(ps);
  IPSUM_FUZZ_CHECK(c != 0);
  m->SetChecksum(c);
  IPSUM_FUZZ_CHECK(m->IsChecksumValid(ps, IPVersion::kV4));
  IPSUM_FUZZ_CHECK(m->IsChecksumValid(ps, IPVersion::kV6));
  m->SetSourcePortAndUpdateChecksum(knobs.port_a);
  IPSUM_FUZZ_CHECK(m->checksum() == m->ComputeChecksum(ps));
  m->SetDestinationPortAndUpdateChecksum(knobs.port_b);
  IPSUM_FUZZ_CHECK(m->checksum() == m->ComputeChecksum(ps));
  Pseudo moved = pseudo;
  if (pseudo.v6) {
    moved.source6 = knobs.address6;
    m->UpdateChecksumForAddressChange(pseudo.source6.bytes,
                                      moved.source6.bytes);
  } else {
    moved.source4 = knobs.address4;
    m->UpdateChecksumForAddressChange(pseudo.source4.bytes,
                                      moved.source4.bytes);
  }
  const uint16_t ps2 = PseudoSum(moved, kProtocolUDP, udp.length());
  IPSUM_FUZZ_CHECK(m->checksum() == m->ComputeChecksum(ps2));
  // "No checksum" stays none through every update.
  m->SetChecksum(0);
  m->SetSourcePortAndUpdateChecksum(knobs.port_b);
  m->SetDestinationPortAndUpdateChecksum(knobs.port_a);
  m->UpdateChecksumForAddressChange(
      pseudo.v6 ? std::span<const uint8_t>(moved.source6.bytes)
                : std::span<const uint8_t>(moved.source4.bytes),
      pseudo.v6 ? std::span<const uint8_t>(pseudo.source6.bytes)
                : std::span<const uint8_t>(pseudo.source4.bytes));
  IPSUM_FUZZ_CHECK(m->checksum() == 0);
}

void CheckICMPv4(std::span<const uint8_t> message, const Knobs& knobs,
                 int depth) {
  const Result<ICMPv4> icmp = ICMPv4::Parse(message);
  if (!icmp.ok()) return;
  IPSUM_FUZZ_CHECK(Inside(icmp->bytes(), message));
  IPSUM_FUZZ_CHECK(icmp->IsChecksumValid() ==
                   (ReferenceSum(icmp->bytes()) == 0xffff));
  const ICMPv4Fields fields = icmp->fields();
  Bytes encoded(ICMPv4::kMinSize);
  IPSUM_FUZZ_CHECK(ICMPv4::Encode(fields, encoded) == Error::kOk);
  {
    const Result<ICMPv4> again = ICMPv4::Parse(encoded);
    IPSUM_FUZZ_CHECK(again.ok());
    IPSUM_FUZZ_CHECK(again->fields() == fields);
  }
  Bytes w(icmp->bytes().begin(), icmp->bytes().end());
  Result<MutableICMPv4> m = MutableICMPv4::Parse(w);
  IPSUM_FUZZ_CHECK(m.ok());
  m->SetChecksum(m->ComputeChecksum());
  IPSUM_FUZZ_CHECK(m->IsChecksumValid());
  IPSUM_FUZZ_CHECK(ReferenceSum(w) == 0xffff);
  m->SetIdentAndUpdateChecksum(knobs.ident);
  IPSUM_FUZZ_CHECK(m->ident() == knobs.ident);
  IPSUM_FUZZ_CHECK(m->checksum() == m->ComputeChecksum());
  if (icmp->IsError() && depth <= kMaxDepth) {
    const Result<IPv4> quote = icmp->ParseQuotedPacket();
    if (quote.ok()) CheckIPv4(icmp->payload(), knobs, depth + 1);
  }
}

void CheckICMPv6(std::span<const uint8_t> message, const Pseudo& pseudo,
                 bool whole, const Knobs& knobs, int depth) {
  const Result<ICMPv6> icmp = ICMPv6::Parse(message);
  if (!icmp.ok()) return;
  IPSUM_FUZZ_CHECK(Inside(icmp->bytes(), message));
  const ICMPv6Fields fields = icmp->fields();
  Bytes encoded(ICMPv6::kMinSize);
  IPSUM_FUZZ_CHECK(ICMPv6::Encode(fields, encoded) == Error::kOk);
  {
    const Result<ICMPv6> again = ICMPv6::Parse(encoded);
    IPSUM_FUZZ_CHECK(again.ok());
    IPSUM_FUZZ_CHECK(again->fields() == fields);
  }
  if (icmp->IsError() && depth <= kMaxDepth) {
    const Result<IPv6> quote = icmp->ParseQuotedPacket();
    if (quote.ok()) CheckIPv6(icmp->payload(), knobs, depth + 1);
  }
  if (!whole) return;
  const uint16_t ps = PseudoSum(pseudo, kProtocolICMPv6, message.size());
  IPSUM_FUZZ_CHECK(icmp->IsChecksumValid(ps) ==
                   (ReferenceSum(message, ps) == 0xffff));
  Bytes w(message.begin(), message.end());
  Result<MutableICMPv6> m = MutableICMPv6::Parse(w);
  IPSUM_FUZZ_CHECK(m.ok());
  m->SetChecksum(m->ComputeChecksum(ps));
  IPSUM_FUZZ_CHECK(m->IsChecksumValid(ps));
  m->SetIdentAndUpdateChecksum(knobs.ident);
  IPSUM_FUZZ_CHECK(m->checksum() == m->ComputeChecksum(ps));
  Pseudo moved = pseudo;
  moved.source6 = knobs.address6;
  m->UpdateChecksumForAddressChange(pseudo.source6.bytes, moved.source6.bytes);
  const uint16_t ps2 = PseudoSum(moved, kProtocolICMPv6, message.size());
  IPSUM_FUZZ_CHECK(m->checksum() == m->ComputeChecksum(ps2));
}

void CheckEthernet(std::span<const uint8_t> frame, const Knobs& knobs) {
  const Result<Ethernet> eth = Ethernet::Parse(frame);
  if (!eth.ok()) {
    IPSUM_FUZZ_CHECK(frame.size() < Ethernet::kMaxSize);
    return;
  }
  IPSUM_FUZZ_CHECK(eth->tag_count() <= 2);
  IPSUM_FUZZ_CHECK(eth->header_size() <= frame.size());
  IPSUM_FUZZ_CHECK(Inside(eth->payload(), frame));
  const EthernetFields fields = eth->fields();
  Bytes encoded(Ethernet::HeaderSize(fields));
  IPSUM_FUZZ_CHECK(encoded.size() == eth->header_size());
  IPSUM_FUZZ_CHECK(Ethernet::Encode(fields, encoded) == Error::kOk);
  IPSUM_FUZZ_CHECK(Equal(encoded, frame.first(eth->header_size())));
  switch (eth->ether_type()) {
    case kEtherTypeIPv4:
      CheckIPv4(eth->payload(), knobs);
      break;
    case kEtherTypeIPv6:
      CheckIPv6(eth->payload(), knobs);
      break;
    default:
      break;
  }
}

}  // namespace ipsum::header::fuzzing
