// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// HeaderSum: the Internet checksum of a few dozen bytes (an IPv4 header, a
// pseudo-header, a TCP or UDP header), inline, where checksum::Checksum's
// dispatch into a wide kernel would cost more than the additions. The words
// are added on checksum/arithmetic.h's 64-bit accumulator and folded once.
// Every result equals checksum::Checksum's for the same bytes and initial
// value, 0x0000 only when they are all zero (checksum.h's contract), which
// header_sum_test checks.
//
// Not API: only //tcpip's own sources include it.

#ifndef IPSUM_TCPIP_INTERNAL_HEADER_SUM_H_
#define IPSUM_TCPIP_INTERNAL_HEADER_SUM_H_

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

#include "checksum/arithmetic.h"
#include "checksum/endian.h"

namespace ipsum::tcpip::internal {

using checksum::AddEndAround;
using checksum::Fold;
using checksum::FoldBigEndian;

// AddHostOrder returns `acc` plus the words of `bytes` as the host loads
// them, mod 2^64 - 1 (a multiple of 0xffff, so the fold of the result is
// the sum mod 0xffff), not folded.
inline uint64_t AddHostOrder(std::span<const uint8_t> bytes, uint64_t acc) {
  const uint8_t* p = bytes.data();
  size_t n = bytes.size();
  // Any load of an even number of bytes from an even offset holds whole
  // words, and 2^16 == 1 (mod 0xffff) whatever their place in it.
  for (; n >= 8; p += 8, n -= 8) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    acc = AddEndAround(acc, w);
  }
  if (n >= 4) {
    uint32_t w;
    std::memcpy(&w, p, 4);
    acc = AddEndAround(acc, w);
    p += 4;
    n -= 4;
  }
  if (n >= 2) {
    uint16_t w;
    std::memcpy(&w, p, 2);
    acc = AddEndAround(acc, w);
    p += 2;
    n -= 2;
  }
  if (n != 0) {
    // An odd last byte is the high half of a word padded with zero.
    const uint8_t last[2] = {p[0], 0};
    uint16_t w;
    std::memcpy(&w, last, 2);
    acc = AddEndAround(acc, w);
  }
  return acc;
}

// HostOrderSum is HeaderSum before its final byte swap: the folded sum of
// `bytes` with `initial`, both in host order.
inline uint16_t HostOrderSum(std::span<const uint8_t> bytes, uint16_t initial) {
  return Fold(AddHostOrder(bytes, initial));
}

// HeaderSum returns checksum::Checksum(bytes, initial), computed inline.
//
// The words are added as the host loads them, 8 bytes at a time with
// end-around carry, and the folded sum is byte-swapped once on a
// little-endian host: RFC 1071 section 2(B), the sum is byte-order
// independent, and big-endian loads would cost a swap per word.
inline uint16_t HeaderSum(std::span<const uint8_t> bytes,
                          uint16_t initial = 0) {
  constexpr bool kLittle = std::endian::native == std::endian::little;
  return FoldBigEndian(
      AddHostOrder(bytes, kLittle ? ByteSwap16(initial) : initial));
}

// IsAllOnesSum reports HeaderSum(bytes) == 0xffff, the check of a header
// that carries its own checksum (IPv4's), without HeaderSum's final byte
// swap: 0xffff is the same in either byte order.
inline bool IsAllOnesSum(std::span<const uint8_t> bytes) {
  return HostOrderSum(bytes, 0) == 0xffff;
}

// IPv4PseudoWords returns `acc` plus the IPv4 pseudo-header of the IPv4
// header at `ip` as host-order words (mod 2^64 - 1, as AddHostOrder): its
// addresses at ip + 12 in one 8-byte load, and the protocol and length
// words as the host holds them.
[[gnu::always_inline]] inline uint64_t IPv4PseudoWords(
    const uint8_t* ip, uint8_t protocol, uint16_t transport_length,
    uint64_t acc) {
  constexpr bool kLittle = std::endian::native == std::endian::little;
  uint64_t addresses;
  std::memcpy(&addresses, ip + 12, 8);
  acc = AddEndAround(acc, addresses);
  // Each word less than 2^16, so their sum is one addend.
  const uint64_t rest =
      kLittle ? uint64_t{ByteSwap16(protocol)} + ByteSwap16(transport_length)
              : uint64_t{protocol} + transport_length;
  acc = AddEndAround(acc, rest);
  return acc;
}

// IPv4TransportInitial returns, mod 0xffff (either zero may stand for the
// other), HeaderSum(header, header::PseudoHeaderSum(...)) for the IPv4
// header at `ip` and the transport header `header`: the `initial` with
// which the sum of the transport's payload checks the transport. One
// accumulator, one fold and one byte swap. The common TCP header sizes, 20
// bytes and 32 (with RFC 7323's aligned timestamps), are added as
// straight-line loads, so that nothing here is called out of line from the
// fast path.
[[gnu::always_inline]] inline uint16_t IPv4TransportInitial(
    const uint8_t* ip, std::span<const uint8_t> header, uint8_t protocol,
    uint16_t transport_length) {
  uint64_t acc = IPv4PseudoWords(ip, protocol, transport_length, 0);
  const uint8_t* const p = header.data();
  uint64_t w[4];
  if (header.size() == 20) {
    uint32_t last;
    std::memcpy(w, p, 16);
    std::memcpy(&last, p + 16, 4);
    acc = AddEndAround(acc, w[0]);
    acc = AddEndAround(acc, w[1]);
    acc = AddEndAround(acc, last);
  } else if (header.size() == 32) {
    std::memcpy(w, p, 32);
    acc = AddEndAround(acc, w[0]);
    acc = AddEndAround(acc, w[1]);
    acc = AddEndAround(acc, w[2]);
    acc = AddEndAround(acc, w[3]);
  } else {
    acc = AddHostOrder(header, acc);
  }
  return FoldBigEndian(acc);
}

// EthernetIPv4Initial returns, for a frame `f` of untagged Ethernet and an
// IPv4 header without options whose checksum the caller found valid, the
// `initial` with which the sum of the whole frame checks its transport:
// the pseudo-header's sum less the Ethernet header's (a valid IPv4 header
// sums to one's-complement zero). Equal, mod 0xffff, to
// Subtract(header::PseudoHeaderSum(...), HeaderSum(f's first 34 bytes)),
// from one accumulator and one fold. Reads f[0, 34).
[[gnu::always_inline]] inline uint16_t EthernetIPv4Initial(
    const uint8_t* f, uint8_t protocol, uint16_t transport_length) {
  // Words in host order, as HeaderSum adds them, mod 2^64 - 1 (a multiple
  // of 0xffff), where -x is ~x. The link header's three loads are written
  // out so that they are unrolled wherever this is inlined.
  uint64_t link = 0;
  uint64_t w8;
  uint32_t w4;
  uint16_t w2;
  std::memcpy(&w8, f, 8);
  link = AddEndAround(link, w8);
  std::memcpy(&w4, f + 8, 4);
  link = AddEndAround(link, w4);
  std::memcpy(&w2, f + 12, 2);
  link = AddEndAround(link, w2);
  return FoldBigEndian(
      IPv4PseudoWords(f + 14, protocol, transport_length, ~link));
}

}  // namespace ipsum::tcpip::internal

#endif  // IPSUM_TCPIP_INTERNAL_HEADER_SUM_H_
