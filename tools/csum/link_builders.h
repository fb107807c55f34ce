// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Byte builders for link-layer headers, shared by link_test and
// make_captures (which writes the bundled captures): each field written
// as its specification lays it out, independently of link.cc's decoders.

#ifndef IPSUM_TOOLS_CSUM_LINK_BUILDERS_H_
#define IPSUM_TOOLS_CSUM_LINK_BUILDERS_H_

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace ipsum::csum::builders {

using Bytes = std::vector<uint8_t>;

// Be16 is `v` in network byte order.
inline Bytes Be16(uint16_t v) {
  return {static_cast<uint8_t>(v >> 8), static_cast<uint8_t>(v)};
}

// MplsLabel is one MPLS label stack entry (RFC 3032): `label`, traffic
// class 0, the bottom-of-stack bit as asked, TTL 64.
inline Bytes MplsLabel(uint32_t label, bool bottom) {
  const uint32_t e = label << 12 | (bottom ? 0x100u : 0u) | 64u;
  return {static_cast<uint8_t>(e >> 24), static_cast<uint8_t>(e >> 16),
          static_cast<uint8_t>(e >> 8), static_cast<uint8_t>(e)};
}

// NflogTlv is one NFLOG TLV: length (4 + value, or `claimed` when nonzero)
// and type in the given byte order, the value, zero padding to 4 bytes.
inline Bytes NflogTlv(uint16_t type, const Bytes& value, bool big_endian,
                      size_t claimed = 0) {
  const uint16_t length =
      static_cast<uint16_t>(claimed != 0 ? claimed : 4 + value.size());
  Bytes b;
  for (uint16_t v : {length, type}) {
    Bytes be = Be16(v);
    if (!big_endian) std::swap(be[0], be[1]);
    b.insert(b.end(), be.begin(), be.end());
  }
  b.insert(b.end(), value.begin(), value.end());
  while (b.size() % 4 != 0) b.push_back(0);
  return b;
}

}  // namespace ipsum::csum::builders

#endif  // IPSUM_TOOLS_CSUM_LINK_BUILDERS_H_
