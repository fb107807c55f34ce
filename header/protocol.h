// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// IP protocol numbers (the IPv4 Protocol and IPv6 Next Header values, IANA
// "Assigned Internet Protocol Numbers") that this package knows, and the
// type-length-value option walk that IPv4 (RFC 791 section 3.1) and TCP
// (RFC 9293 section 3.1) options share.

#ifndef IPSUM_HEADER_PROTOCOL_H_
#define IPSUM_HEADER_PROTOCOL_H_

#include <cstddef>
#include <cstdint>
#include <span>

#include "header/error.h"

namespace ipsum::header {

// IP protocol and IPv6 Next Header numbers.
inline constexpr uint8_t kProtocolHopByHop = 0;             // RFC 8200 4.3
inline constexpr uint8_t kProtocolICMPv4 = 1;               // RFC 792
inline constexpr uint8_t kProtocolTCP = 6;                  // RFC 9293
inline constexpr uint8_t kProtocolUDP = 17;                 // RFC 768
inline constexpr uint8_t kProtocolRouting = 43;             // RFC 8200 4.4
inline constexpr uint8_t kProtocolFragment = 44;            // RFC 8200 4.5
inline constexpr uint8_t kProtocolESP = 50;                 // RFC 4303
inline constexpr uint8_t kProtocolAH = 51;                  // RFC 4302
inline constexpr uint8_t kProtocolICMPv6 = 58;              // RFC 4443
inline constexpr uint8_t kProtocolNoNextHeader = 59;        // RFC 8200 4.7
inline constexpr uint8_t kProtocolDestinationOptions = 60;  // RFC 8200 4.6
inline constexpr uint8_t kProtocolMobility = 135;           // RFC 6275
inline constexpr uint8_t kProtocolHIP = 139;                // RFC 7401
inline constexpr uint8_t kProtocolShim6 = 140;              // RFC 5533

// IPVersion says which IP a transport header travels over, where that
// changes the rules (UDP's zero checksum).
enum class IPVersion : uint8_t { kV4 = 4, kV6 = 6 };

// Option is one type-length-value option of an IPv4 or TCP header.
struct Option {
  // kind is the option-type (IPv4) or kind (TCP) byte.
  uint8_t kind;
  // data is the option's data: its bytes after the kind and length bytes.
  std::span<const uint8_t> data;
};

// kOptionEnd (End of Option List) and kOptionNop (No-Operation) are the
// single-byte options that IPv4 and TCP share.
inline constexpr uint8_t kOptionEnd = 0;
inline constexpr uint8_t kOptionNop = 1;

// WalkOptions calls `visit(const Option&) -> Error` on each option of the
// IPv4 or TCP option area `area` except End of Option List and No-Operation,
// and stops at End of Option List (the bytes after it are padding) or at the
// first error `visit` returns. Every other option is "an option-kind octet,
// an option-length octet, and the actual option-data octets", the length
// counting all three (RFC 791 section 3.1, RFC 9293 section 3.1): a length
// below 2, or one that runs past the end of `area`, is kBadOptionLength, and
// no byte past `area` is read.
template <typename Visit>
Error WalkOptions(std::span<const uint8_t> area, Visit&& visit) {
  size_t i = 0;
  while (i < area.size()) {
    uint8_t kind = area[i];
    if (kind == kOptionEnd) return Error::kOk;
    if (kind == kOptionNop) {
      ++i;
      continue;
    }
    if (area.size() - i < 2) return Error::kBadOptionLength;
    uint8_t length = area[i + 1];
    if (length < 2 || length > area.size() - i) return Error::kBadOptionLength;
    Error e = visit(Option{kind, area.subspan(i + 2, length - 2)});
    if (e != Error::kOk) return e;
    i += length;
  }
  return Error::kOk;
}

}  // namespace ipsum::header

#endif  // IPSUM_HEADER_PROTOCOL_H_
