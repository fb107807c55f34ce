// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Incremental update of a stored checksum when a field of the data it covers
// changes (RFC 1071 section 2(D), RFC 1624): NAT rewriting an address or a
// port, a router decrementing the TTL. Cost is a few additions, whatever the
// length of the data.
//
// All functions take and return the *stored field* value HC, the complement
// of the sum, in host order (read it with LoadBig16, store it with Put), and
// implement RFC 1624 equation 3:
//
//   HC' = ~(~HC + ~m + m')
//
// with one's-complement (end-around carry) additions, m the old and m' the
// new value of every 16-bit word that changed.
//
// Which zero, 0x0000 or 0xffff: the one's-complement sum C of data that is
// not all zeros is never +0 (0x0000) (RFC 1624 section 3), so a correct
// stored field ~C is never 0xffff. Equation 3 keeps that: the sum inside the
// parentheses is -0 (0xffff) rather than +0 whenever any term is non-zero,
// so the result is 0x0000 rather than 0xffff; it equals the recomputed
// `~Checksum(new data)` for every data that is not all zeros. (Equation 2,
// HC' = HC - ~m - m', gives 0xffff in that case, which no full computation
// gives: RFC 1624's reason to prefer equation 3.) The single exception:
// when the new covered data is all zeros, a full computation gives 0xffff
// and these functions give 0x0000. No real header is all zeros (the IPv4
// version, the pseudo-header's protocol number), so this never arises in a
// stack.
//
// Two callers' duties the arithmetic cannot see:
//   - The field must sit at an even offset of the covered data (every
//     address, port and 16-bit header field does). For a 16-bit value at an
//     odd offset, pass ByteSwap16 of the old and new values (RFC 1071 2(B)).
//   - UDP stores a computed 0x0000 as 0xffff, and 0x0000 there means "no
//     checksum" (RFC 768): leave a zero UDP field alone, and store a 0x0000
//     result as 0xffff.

#ifndef IPSUM_CHECKSUM_UPDATE_H_
#define IPSUM_CHECKSUM_UPDATE_H_

#include <cstddef>
#include <cstdint>
#include <span>

#include "checksum/endian.h"

namespace ipsum::checksum {
namespace update_internal {

// FoldAndComplement folds a 32-bit accumulator of 16-bit terms to 16 bits
// with end-around carries and returns its complement.
constexpr uint16_t FoldAndComplement(uint64_t sum) {
  while (sum >> 16) sum = (sum & 0xffff) + (sum >> 16);
  return static_cast<uint16_t>(~sum);
}

// Terms returns ~m + m' for one 16-bit word, unfolded.
constexpr uint32_t Terms(uint16_t old_word, uint16_t new_word) {
  return uint32_t{static_cast<uint16_t>(~old_word)} + new_word;
}

}  // namespace update_internal

// UpdateChecksum16 returns the stored checksum field after a 16-bit word of
// the covered data changed from `old_value` to `new_value` (host order, at
// an even offset): a port, an IPv4 identification, TTL and protocol
// together. `checksum` is the stored field before the change.
constexpr uint16_t UpdateChecksum16(uint16_t checksum, uint16_t old_value,
                                    uint16_t new_value) {
  return update_internal::FoldAndComplement(
      uint32_t{static_cast<uint16_t>(~checksum)} +
      update_internal::Terms(old_value, new_value));
}

// UpdateChecksum32 returns the stored checksum field after a 32-bit field
// (two 16-bit words at an even offset) changed from `old_value` to
// `new_value`, host order: an IPv4 address, a TCP sequence number.
constexpr uint16_t UpdateChecksum32(uint16_t checksum, uint32_t old_value,
                                    uint32_t new_value) {
  return update_internal::FoldAndComplement(
      uint32_t{static_cast<uint16_t>(~checksum)} +
      update_internal::Terms(static_cast<uint16_t>(old_value >> 16),
                             static_cast<uint16_t>(new_value >> 16)) +
      update_internal::Terms(static_cast<uint16_t>(old_value),
                             static_cast<uint16_t>(new_value)));
}

// UpdateChecksumBytes returns the stored checksum field after the bytes
// `old_bytes` of the covered data (at an even offset) were replaced by
// `new_bytes` of the same, even, length, both in network order as they sit
// in the packet. Every 16-bit word of the field contributes ~m + m'.
// Returns `checksum` unchanged if the lengths differ or are odd, which is a
// caller's bug (checked by the tests, not at run time).
inline uint16_t UpdateChecksumBytes(uint16_t checksum,
                                    std::span<const uint8_t> old_bytes,
                                    std::span<const uint8_t> new_bytes) {
  if (old_bytes.size() != new_bytes.size() || (old_bytes.size() & 1)) {
    return checksum;
  }
  uint64_t sum = static_cast<uint16_t>(~checksum);
  for (size_t i = 0; i < old_bytes.size(); i += 2) {
    sum += update_internal::Terms(LoadBig16(&old_bytes[i]),
                                  LoadBig16(&new_bytes[i]));
  }
  return update_internal::FoldAndComplement(sum);
}

// UpdateChecksumAddress16 returns the stored checksum field after a 16-byte
// field (an IPv6 address, in network order) changed from `old_address` to
// `new_address`: the TCP, UDP or ICMPv6 checksum after NAT66 rewrites the
// pseudo-header.
inline uint16_t UpdateChecksumAddress16(
    uint16_t checksum, std::span<const uint8_t, 16> old_address,
    std::span<const uint8_t, 16> new_address) {
  return UpdateChecksumBytes(checksum, old_address, new_address);
}

}  // namespace ipsum::checksum

#endif  // IPSUM_CHECKSUM_UPDATE_H_
