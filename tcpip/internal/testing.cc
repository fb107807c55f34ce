// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Test helpers for tcpip; see testing.h.

#include "tcpip/internal/testing.h"

#include <algorithm>

namespace ipsum::tcpip::testing {

uint16_t ReferenceSum(std::span<const uint8_t> data, uint32_t initial) {
  uint64_t sum = initial;
  for (size_t i = 0; i < data.size(); i += 2) {
    uint32_t hi = data[i];
    uint32_t lo = i + 1 < data.size() ? data[i + 1] : 0;
    sum += (hi << 8) | lo;
  }
  while (sum > 0xffff) sum = (sum & 0xffff) + (sum >> 16);
  return static_cast<uint16_t>(sum);
}

std::vector<uint8_t> RandomBytes(std::mt19937& rng, size_t n) {
  std::vector<uint8_t> b(n);
  for (auto& x : b) x = static_cast<uint8_t>(rng());
  return b;
}

buffer::Buffer MakePayload(std::span<const uint8_t> bytes, size_t views) {
  buffer::Buffer b;
  if (views == 0) views = 1;
  size_t per = (bytes.size() + views - 1) / views;
  for (size_t i = 0; i < bytes.size(); i += per) {
    size_t n = std::min(per, bytes.size() - i);
    b.Append(buffer::View::Copy(bytes.subspan(i, n)));
  }
  return b;
}

Route MakeRoute(NetworkProtocol network, bool ethernet, int vlan_tags) {
  Route r;
  r.network = network;
  r.source_v4 = header::IPv4Address::FromHost(0xc0000201);       // 192.0.2.1
  r.destination_v4 = header::IPv4Address::FromHost(0xc0000263);  // .99
  // 2001:db8::1 and 2001:db8::1234:0:ab:cdef.
  r.source_v6.bytes = {0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0,
                       0,    0,    0,    0,    0, 0, 0, 1};
  r.destination_v6.bytes = {0x20, 0x01, 0x0d, 0xb8, 0, 0,    0,    0,
                            0x12, 0x34, 0,    0,    0, 0xab, 0xcd, 0xef};
  r.ttl = 61;
  r.tos = 0x28;
  r.flow_label = network == NetworkProtocol::kIPv6 ? 0x12345 : 0;
  if (ethernet) {
    header::EthernetFields e;
    e.destination.bytes = {0x02, 0, 0x5e, 0x10, 0, 1};
    e.source.bytes = {0x02, 0, 0x5e, 0x10, 0, 2};
    e.tag_count = static_cast<uint8_t>(vlan_tags);
    if (vlan_tags == 2) {
      e.tags[0] = header::VlanTag{header::kEtherTypeQinQ, 1, false, 100};
      e.tags[1] = header::VlanTag{header::kEtherTypeVlan, 3, true, 7};
    } else if (vlan_tags == 1) {
      e.tags[0] = header::VlanTag{header::kEtherTypeVlan, 5, false, 42};
    }
    r.ethernet = e;
  }
  return r;
}

namespace {
uint16_t Load16(std::span<const uint8_t> b, size_t i) {
  return static_cast<uint16_t>((b[i] << 8) | b[i + 1]);
}
}  // namespace

FrameLayout ReferenceLayout(std::span<const uint8_t> frame, bool ethernet) {
  FrameLayout l;
  size_t off = 0;
  if (ethernet) {
    off = 12;
    while (Load16(frame, off) == 0x8100 || Load16(frame, off) == 0x88a8) {
      off += 4;
    }
    off += 2;
  }
  l.network_offset = off;
  l.v4 = (frame[off] >> 4) == 4;
  if (l.v4) {
    l.transport_offset = off + size_t{frame[off] & 0xfu} * 4;
    l.end = off + Load16(frame, off + 2);
    l.protocol = frame[off + 9];
  } else {
    l.transport_offset = off + 40;
    l.end = off + 40 + Load16(frame, off + 4);
    l.protocol = frame[off + 6];
  }
  return l;
}

uint16_t ReferencePseudoSum(std::span<const uint8_t> frame, bool ethernet) {
  FrameLayout l = ReferenceLayout(frame, ethernet);
  size_t len = l.end - l.transport_offset;
  std::vector<uint8_t> pseudo;
  if (l.v4) {
    // RFC 793 section 3.1: source, destination, zero, PTCL, TCP length.
    pseudo.assign(frame.begin() + l.network_offset + 12,
                  frame.begin() + l.network_offset + 20);
    pseudo.insert(pseudo.end(), {0, l.protocol, static_cast<uint8_t>(len >> 8),
                                 static_cast<uint8_t>(len)});
  } else {
    // RFC 8200 section 8.1: source, destination, 32-bit length, 3 zero
    // bytes, next header.
    pseudo.assign(frame.begin() + l.network_offset + 8,
                  frame.begin() + l.network_offset + 40);
    pseudo.insert(pseudo.end(),
                  {0, 0, static_cast<uint8_t>(len >> 8),
                   static_cast<uint8_t>(len), 0, 0, 0, l.protocol});
  }
  return ReferenceSum(pseudo);
}

uint16_t ReferenceTransportSum(std::span<const uint8_t> frame, bool ethernet) {
  FrameLayout l = ReferenceLayout(frame, ethernet);
  return ReferenceSum(
      frame.subspan(l.transport_offset, l.end - l.transport_offset),
      ReferencePseudoSum(frame, ethernet));
}

}  // namespace ipsum::tcpip::testing
