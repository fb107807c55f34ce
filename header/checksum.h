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
//   - UDP's variant of the RFC 1624 incremental update (checksum/update.h
//     does the arithmetic), whose 0 means "no checksum".
//
// Every `*Sum` value here is a folded, not complemented one's-complement sum
// (checksum::Checksum); every `*Checksum` value is what a header's checksum
// field holds (the complement).

#ifndef IPSUM_HEADER_CHECKSUM_H_
#define IPSUM_HEADER_CHECKSUM_H_

#include <cstddef>
#include <cstdint>
#include <span>

#include "checksum/arithmetic.h"
#include "checksum/checksum.h"
#include "checksum/endian.h"
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
// Inline: stacks call it once per packet, where a call would cost more than
// its five additions. 0x0000 only when every word is zero.
inline uint16_t PseudoHeaderSum(const IPv4Address& source,
                                const IPv4Address& destination,
                                uint8_t protocol, uint16_t length) {
  // The zero byte and PTCL form one big-endian word whose value is PTCL.
  return checksum::Fold(uint64_t{LoadBig32(source.bytes.data())} +
                        LoadBig32(destination.bytes.data()) + protocol +
                        length);
}

// PseudoHeaderSum returns the sum of the IPv6 pseudo-header of RFC 8200
// section 8.1: source and destination address, the 32-bit upper-layer packet
// length, three zero bytes and the Next Header value of the upper-layer
// protocol (not of an extension header). `destination` is the final one when
// a Routing header is present.
inline uint16_t PseudoHeaderSum(const IPv6Address& source,
                                const IPv6Address& destination,
                                uint8_t next_header, uint32_t length) {
  // Ten 32-bit words (length included) and a byte: far below 2^64.
  uint64_t acc = uint64_t{length} + next_header;
  for (size_t i = 0; i < IPv6Address::kSize; i += 4) {
    acc += LoadBig32(source.bytes.data() + i);
    acc += LoadBig32(destination.bytes.data() + i);
  }
  return checksum::Fold(acc);
}

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

// UpdateUDPChecksum returns a UDP checksum field's new value after 16-bit
// words of the data it covers whose sum was `old_sum` are replaced by words
// whose sum is `new_sum` (RFC 1624 section 3, eqn. 3, as
// checksum::UpdateChecksum16), with UDP's two rules: a stored 0 ("no
// checksum was computed", RFC 768) stays 0, and a result of 0 is stored as
// 0xffff, as a full computation would store it. Other protocols' fields use
// checksum/update.h directly.
uint16_t UpdateUDPChecksum(uint16_t checksum, uint16_t old_sum,
                           uint16_t new_sum);

}  // namespace ipsum::header

#endif  // IPSUM_HEADER_CHECKSUM_H_
