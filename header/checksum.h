// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// The checksum arithmetic the protocol headers share, on top of
// //checksum:checksum:
//
//   - Pseudo-header sums for TCP, UDP and ICMPv6 over IPv4 (RFC 793 section
//     3.1, RFC 768) and over IPv6 (RFC 8200 section 8.1).
//   - Computing and verifying a transport checksum from a pseudo-header sum,
//     the transport header's bytes and the *sum* of the payload, so a caller
//     whose payload sits in a chained buffer can sum it piecewise.
//   - RFC 1624 incremental updates, for NAT (an address or port changes) and
//     forwarding (the TTL changes), with the RFC's corner cases handled.
//
// Every `*Sum` value here is a folded, not complemented one's-complement sum
// (checksum::Checksum); every `*Checksum` value is what a header's checksum
// field holds (the complement).
//
// The RFC 1624 helpers overlap with checksum/update.h, which was being
// written at the same time; they are kept here, named for what they do to a
// *checksum field*, until the two are merged.

#ifndef IPSUM_HEADER_CHECKSUM_H_
#define IPSUM_HEADER_CHECKSUM_H_

#include <cstddef>
#include <cstdint>
#include <span>

#include "checksum/checksum.h"
#include "header/address.h"

namespace ipsum::header {

// PseudoHeaderSum returns the sum of the IPv4 pseudo-header of RFC 793
// section 3.1 (also RFC 768):
//
//   +--------+--------+--------+--------+
//   |           Source Address          |
//   +--------+--------+--------+--------+
//   |         Destination Address       |
//   +--------+--------+--------+--------+
//   |  zero  |  PTCL  |    TCP Length   |
//   +--------+--------+--------+--------+
//
// `length` is the transport header plus payload, in bytes.
uint16_t PseudoHeaderSum(const IPv4Address& source,
                         const IPv4Address& destination, uint8_t protocol,
                         uint16_t length);

// PseudoHeaderSum returns the sum of the IPv6 pseudo-header of RFC 8200
// section 8.1: source and destination address, the 32-bit upper-layer packet
// length, three zero bytes and the Next Header value of the upper-layer
// protocol (not of an extension header). `destination` is the final one when
// a Routing header is present.
uint16_t PseudoHeaderSum(const IPv6Address& source,
                         const IPv6Address& destination, uint8_t next_header,
                         uint32_t length);

// ComputeTransportChecksum returns the value to store in a TCP, UDP or
// ICMPv6 checksum field: the complement of the sum of the pseudo-header
// (`pseudo_sum`), of `header` with the 16-bit checksum field at
// `checksum_offset` read as zero whatever it holds, and of the payload that
// follows `header` (`payload_sum`, its sum computed from offset 0). The
// caller applies UDP's "0 is sent as 0xffff" rule (UDP does, via
// UDP::ComputeChecksum). `checksum_offset + 2` must be <= header.size().
uint16_t ComputeTransportChecksum(uint16_t pseudo_sum,
                                  std::span<const uint8_t> header,
                                  size_t checksum_offset, uint16_t payload_sum);

// IsTransportChecksumValid reports whether the pseudo-header, `header` (its
// checksum field included) and the payload sum to 0xffff (RFC 1071 section
// 1: "If the result is all 1 bits, the check succeeds").
bool IsTransportChecksumValid(uint16_t pseudo_sum,
                              std::span<const uint8_t> header,
                              uint16_t payload_sum);

// UpdateChecksum returns a checksum field's new value after 16-bit words of
// the data it covers whose sum was `old_sum` are replaced by words whose sum
// is `new_sum`, by RFC 1624 section 3, equation 3:
//
//   HC' = ~(~HC + ~m + m')
//
// The result equals a full recompute over any data that is not all zero
// (every IP and transport header): where the equation gives the "negative
// zero" 0xffff that a recompute never yields (RFC 1624 section 3, the case of
// section 2's example), it returns 0x0000 instead. The replaced words must
// sit at even offsets of the checksummed data. Not for UDP fields, whose 0
// means "no checksum": see UpdateUDPChecksum.
uint16_t UpdateChecksum(uint16_t checksum, uint16_t old_sum, uint16_t new_sum);

// UpdateChecksum16 is UpdateChecksum for one changed 16-bit word.
inline uint16_t UpdateChecksum16(uint16_t checksum, uint16_t old_word,
                                 uint16_t new_word) {
  return UpdateChecksum(checksum, old_word, new_word);
}

// UpdateChecksumBytes is UpdateChecksum for a changed run of bytes (an
// address): `old_bytes` and `new_bytes` have the same even length and start
// at the same even offset of the checksummed data.
uint16_t UpdateChecksumBytes(uint16_t checksum,
                             std::span<const uint8_t> old_bytes,
                             std::span<const uint8_t> new_bytes);

// UpdateUDPChecksum is UpdateChecksum for a UDP checksum field: a stored 0
// ("no checksum was computed", RFC 768) stays 0, and a result of 0 is stored
// as 0xffff, as a full computation would store it.
uint16_t UpdateUDPChecksum(uint16_t checksum, uint16_t old_sum,
                           uint16_t new_sum);

}  // namespace ipsum::header

#endif  // IPSUM_HEADER_CHECKSUM_H_
