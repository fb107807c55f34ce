// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Text formatting of the address types.

#include "header/address.h"

#include <cstdio>
#include <string>

namespace ipsum::header {

bool MacAddress::IsBroadcast() const {
  for (uint8_t b : bytes) {
    if (b != 0xff) return false;
  }
  return true;
}

std::string MacAddress::ToString() const {
  char buf[18];
  std::snprintf(buf, sizeof(buf), "%02x:%02x:%02x:%02x:%02x:%02x", bytes[0],
                bytes[1], bytes[2], bytes[3], bytes[4], bytes[5]);
  return buf;
}

std::string IPv4Address::ToString() const {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "%u.%u.%u.%u", bytes[0], bytes[1], bytes[2],
                bytes[3]);
  return buf;
}

std::string IPv6Address::ToString() const {
  uint16_t groups[8];
  for (int i = 0; i < 8; ++i) groups[i] = LoadBig16(&bytes[2 * i]);

  // RFC 5952 section 5: an IPv4-mapped address (::ffff:0:0/96) shows its
  // last 32 bits in dotted decimal.
  bool mapped = groups[5] == 0xffff;
  for (int i = 0; i < 5; ++i) mapped = mapped && groups[i] == 0;
  if (mapped) {
    return "::ffff:" + IPv4Address::From(&bytes[12]).ToString();
  }

  // RFC 5952 section 4.2: "::" replaces the longest run of consecutive zero
  // groups, the first one on a tie, and never a single zero group (4.2.2).
  int best_start = -1, best_len = 0;
  for (int i = 0; i < 8;) {
    if (groups[i] != 0) {
      ++i;
      continue;
    }
    int j = i;
    while (j < 8 && groups[j] == 0) ++j;
    if (j - i > best_len) {
      best_start = i;
      best_len = j - i;
    }
    i = j;
  }
  if (best_len < 2) best_start = -1;

  std::string out;
  char buf[8];
  for (int i = 0; i < 8; ++i) {
    if (i == best_start) {
      out += "::";
      i += best_len - 1;
      continue;
    }
    if (!out.empty() && out.back() != ':') out += ':';
    // RFC 5952 sections 4.1 and 4.3: no leading zeros, lower case.
    std::snprintf(buf, sizeof(buf), "%x", groups[i]);
    out += buf;
  }
  return out;
}

}  // namespace ipsum::header
