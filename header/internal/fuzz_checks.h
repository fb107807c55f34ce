// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// The properties the header fuzzers (ipv4_fuzzer, ipv6_fuzzer,
// transport_fuzzer) check, shared so that a transport header reached
// through an IP header is checked exactly like one fed directly. Each Check*
// function parses its bytes (which the caller keeps in an exact-size heap
// block, so AddressSanitizer sees any read past them), and for whatever
// parses verifies that
//   - the view stays inside the bytes it was given;
//   - fields() -> Encode -> bytes reproduces the header (reserved bits and
//     the checksum aside), and parsing the encoding gives the same fields;
//   - checksum verification agrees with a byte-at-a-time reference over the
//     pseudo-header built by hand here (so PseudoHeaderSum is checked too);
//   - a freshly computed checksum verifies, and every RFC 1624 incremental
//     update (ports, identifiers, TTL, addresses) leaves it equal to a full
//     recompute.
// A failed property aborts (IPSUM_FUZZ_CHECK). Not API; test-only.

#ifndef IPSUM_HEADER_INTERNAL_FUZZ_CHECKS_H_
#define IPSUM_HEADER_INTERNAL_FUZZ_CHECKS_H_

#include <cstddef>
#include <cstdint>
#include <span>

#include "header/address.h"

namespace ipsum::header::fuzzing {

// Knobs are values a fuzz input supplies for the mutations the checks make
// (new ports, a new TTL, a new address); any value is valid.
struct Knobs {
  uint16_t port_a = 0;
  uint16_t port_b = 0;
  uint8_t ttl = 0;
  uint16_t ident = 0;
  uint32_t flow_label = 0;
  IPv4Address address4;
  IPv6Address address6;
};

// Pseudo holds the addresses of a transport checksum's pseudo-header.
struct Pseudo {
  bool v6 = false;
  IPv4Address source4, destination4;
  IPv6Address source6, destination6;
};

// MakeKnobs derives knobs from a hash of `input`, so that a fuzz input can
// be a plain packet and still steer the mutations.
Knobs MakeKnobs(std::span<const uint8_t> input);

// MakePseudo returns pseudo-header addresses for a transport header fed
// without an IP header: fixed sources, destinations from the knobs.
Pseudo MakePseudo(bool v6, const Knobs& knobs);

// ReferencePseudoSum builds the pseudo-header bytes (RFC 9293 section 3.1
// for IPv4, RFC 8200 section 8.1 for IPv6) and sums them byte by byte.
uint16_t ReferencePseudoSum(const Pseudo& pseudo, uint8_t protocol,
                            uint32_t length);

// CheckIPv4 checks an IPv4 datagram (Parse and ParsePrefix) and, when it is
// whole and not a fragment, its TCP, UDP or ICMPv4 payload. `depth` bounds
// the recursion into ICMP error quotes.
void CheckIPv4(std::span<const uint8_t> bytes, const Knobs& knobs,
               int depth = 0);

// CheckIPv6 checks an IPv6 packet, its extension-header walk and, when it is
// whole and not a fragment, its TCP, UDP or ICMPv6 payload.
void CheckIPv6(std::span<const uint8_t> bytes, const Knobs& knobs,
               int depth = 0);

// CheckTCP checks a TCP segment, its options and its checksum. `whole`
// says `segment` is the entire segment (so the checksum can be verified).
void CheckTCP(std::span<const uint8_t> segment, const Pseudo& pseudo,
              bool whole, const Knobs& knobs);

// CheckTCPOptions checks that a parsed option area encodes and re-parses
// to the same options.
void CheckTCPOptions(std::span<const uint8_t> area);

// CheckUDP checks a UDP datagram (Parse or ParsePrefix) and its checksum
// rules (0 = none over IPv4 only, never 0 when computed).
void CheckUDP(std::span<const uint8_t> datagram, const Pseudo& pseudo,
              bool whole, const Knobs& knobs);

// CheckICMPv4 checks an ICMPv4 message and, for errors, its quote.
void CheckICMPv4(std::span<const uint8_t> message, const Knobs& knobs,
                 int depth);

// CheckICMPv6 checks an ICMPv6 message and, for errors, its quote;
// `pseudo` must be an IPv6 one.
void CheckICMPv6(std::span<const uint8_t> message, const Pseudo& pseudo,
                 bool whole, const Knobs& knobs, int depth);

// CheckEthernet checks an Ethernet header and then its IPv4 or IPv6
// payload.
void CheckEthernet(std::span<const uint8_t> frame, const Knobs& knobs);

}  // namespace ipsum::header::fuzzing

#endif  // IPSUM_HEADER_INTERNAL_FUZZ_CHECKS_H_
