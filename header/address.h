// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Link and network addresses as small value types: `MacAddress` (6 bytes),
// `IPv4Address` (4 bytes) and `IPv6Address` (16 bytes). Each holds its bytes
// in network order, exactly as they appear on the wire, so copying one in or
// out of a header is a memcpy and needs no byte swapping. `ToString` formats
// the conventional text form (RFC 5952 for IPv6); it allocates, so it is for
// logs and tools, not the data path.

#ifndef IPSUM_HEADER_ADDRESS_H_
#define IPSUM_HEADER_ADDRESS_H_

#include <array>
#include <compare>
#include <cstdint>
#include <cstring>
#include <string>

#include "checksum/endian.h"

namespace ipsum::header {

// MacAddress is a 48-bit IEEE 802 MAC address in wire order.
struct MacAddress {
  // kSize is the length of a MAC address in bytes.
  static constexpr size_t kSize = 6;

  std::array<uint8_t, kSize> bytes{};

  // From reads a MAC address from `p[0..5]`.
  static MacAddress From(const uint8_t* p) {
    MacAddress a;
    std::memcpy(a.bytes.data(), p, kSize);
    return a;
  }
  // CopyTo writes the address to `p[0..5]`.
  void CopyTo(uint8_t* p) const { std::memcpy(p, bytes.data(), kSize); }
  // IsBroadcast reports whether this is ff:ff:ff:ff:ff:ff.
  bool IsBroadcast() const;
  // IsMulticast reports whether the group bit (I/G, the low bit of the
  // first byte) is set; broadcast is multicast.
  bool IsMulticast() const { return (bytes[0] & 1) != 0; }
  // ToString formats the address as "02:00:5e:10:00:01".
  std::string ToString() const;

  friend auto operator<=>(const MacAddress&, const MacAddress&) = default;
};

// IPv4Address is a 32-bit IPv4 address in wire order.
struct IPv4Address {
  // kSize is the length of an IPv4 address in bytes.
  static constexpr size_t kSize = 4;

  std::array<uint8_t, kSize> bytes{};

  // From reads an IPv4 address from `p[0..3]`.
  static IPv4Address From(const uint8_t* p) {
    IPv4Address a;
    std::memcpy(a.bytes.data(), p, kSize);
    return a;
  }
  // FromHost makes the address whose value, in host order, is `v`:
  // FromHost(0xc0000201) is 192.0.2.1.
  static IPv4Address FromHost(uint32_t v) {
    IPv4Address a;
    StoreBig32(a.bytes.data(), v);
    return a;
  }
  // ToHost returns the address as a host-order integer.
  uint32_t ToHost() const { return LoadBig32(bytes.data()); }
  // CopyTo writes the address to `p[0..3]`.
  void CopyTo(uint8_t* p) const { std::memcpy(p, bytes.data(), kSize); }
  // ToString formats the address in dotted decimal, "192.0.2.1".
  std::string ToString() const;

  friend auto operator<=>(const IPv4Address&, const IPv4Address&) = default;
};

// IPv6Address is a 128-bit IPv6 address in wire order.
struct IPv6Address {
  // kSize is the length of an IPv6 address in bytes.
  static constexpr size_t kSize = 16;

  std::array<uint8_t, kSize> bytes{};

  // From reads an IPv6 address from `p[0..15]`.
  static IPv6Address From(const uint8_t* p) {
    IPv6Address a;
    std::memcpy(a.bytes.data(), p, kSize);
    return a;
  }
  // CopyTo writes the address to `p[0..15]`.
  void CopyTo(uint8_t* p) const { std::memcpy(p, bytes.data(), kSize); }
  // ToString formats the address in the canonical text form of RFC 5952
  // section 4: lower-case hex, leading zeros dropped, the longest run of two
  // or more zero groups (the first, on a tie) replaced by "::", and an
  // IPv4-mapped address as "::ffff:192.0.2.1".
  std::string ToString() const;

  friend auto operator<=>(const IPv6Address&, const IPv6Address&) = default;
};

}  // namespace ipsum::header

#endif  // IPSUM_HEADER_ADDRESS_H_
