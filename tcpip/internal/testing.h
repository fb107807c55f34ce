// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Test helpers for tcpip (not API): an obviously-right byte-at-a-time
// Internet checksum, payloads spread over several views, routes, and a
// reference verifier that reads the frames the encoders build with offsets
// written out by hand from the RFC diagrams, independent of the header
// package.

#ifndef IPSUM_TCPIP_INTERNAL_TESTING_H_
#define IPSUM_TCPIP_INTERNAL_TESTING_H_

#include <cstddef>
#include <cstdint>
#include <random>
#include <span>
#include <vector>

#include "buffer/buffer.h"
#include "tcpip/transmit.h"

namespace ipsum::tcpip::testing {

// ReferenceSum is RFC 1071's sum, a byte pair at a time, folded at the end:
// the sum of `data` added to `initial`, not complemented.
uint16_t ReferenceSum(std::span<const uint8_t> data, uint32_t initial = 0);

// RandomBytes returns `n` bytes from `rng`.
std::vector<uint8_t> RandomBytes(std::mt19937& rng, size_t n);

// MakePayload returns `bytes` as a Buffer of `views` views (as even as
// possible, each in its own chunk; fewer when bytes is shorter).
buffer::Buffer MakePayload(std::span<const uint8_t> bytes, size_t views);

// MakeRoute returns a route over `network` with fixed documentation
// addresses (192.0.2.0/24, 2001:db8::/32), with an Ethernet header carrying
// `vlan_tags` tags (0..2) when `ethernet`.
Route MakeRoute(NetworkProtocol network, bool ethernet = true,
                int vlan_tags = 0);

// FrameLayout is where the encoders' frames keep their layers.
struct FrameLayout {
  size_t network_offset = 0;
  size_t transport_offset = 0;
  size_t end = 0;  // End of the IP datagram.
  bool v4 = true;
  uint8_t protocol = 0;
};

// ReferenceLayout finds the layers of a frame built by the encoders
// (Ethernet with 0-2 tags or none, IPv4 without options or IPv6 without
// extension headers), by hand.
FrameLayout ReferenceLayout(std::span<const uint8_t> frame, bool ethernet);

// ReferenceTransportSum returns the reference sum of the pseudo-header and
// the transport bytes of `frame`: 0xffff when the checksum is right.
uint16_t ReferenceTransportSum(std::span<const uint8_t> frame, bool ethernet);

// ReferencePseudoSum returns the reference sum of the pseudo-header alone.
uint16_t ReferencePseudoSum(std::span<const uint8_t> frame, bool ethernet);

}  // namespace ipsum::tcpip::testing

#endif  // IPSUM_TCPIP_INTERNAL_TESTING_H_
