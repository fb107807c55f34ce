// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Test helpers for the gateway (not API): an Output that keeps what is
// sent, a two-interface configuration, packets built by tcpip's encoders
// and the header package as a link would hand them over, and a reference
// check of every checksum of a frame that reads the bytes by hand
// (tcpip/internal/testing.h's byte-at-a-time sums).

#ifndef IPSUM_TOOLS_GATEWAY_INTERNAL_TESTING_H_
#define IPSUM_TOOLS_GATEWAY_INTERNAL_TESTING_H_

#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "header/address.h"
#include "tcpip/packet_buffer.h"
#include "tcpip/transmit.h"
#include "tools/gateway/config.h"
#include "tools/gateway/gateway.h"

namespace ipsum::gateway::testing {

// CaptureOutput keeps every frame sent, flattened, with its metadata.
class CaptureOutput : public Output {
 public:
  struct Frame {
    size_t interface = 0;
    std::vector<uint8_t> bytes;
    tcpip::ChecksumStatus checksum_status = tcpip::ChecksumStatus::kNone;
    uint32_t csum_start = 0;
    uint16_t csum_offset = 0;
    tcpip::GsoType gso_type = tcpip::GsoType::kNone;
    uint16_t gso_size = 0;
  };
  bool Send(size_t interface, tcpip::PacketBuffer&& pkt) override;
  std::vector<Frame> frames;
  // accept: when false, Send refuses (a full queue).
  bool accept = true;
};

// Addresses of TwoLinks: "in" (0) 10.1.0.1/24 fd01::1/64, "out" (1)
// 10.2.0.1/24 fd02::1/64, hosts .2 / ::2 on each, and a route to
// 10.3.0.0/16 / fd03::/48 via the host on "out".
header::IPv4Address V4(const char* text);
header::IPv6Address V6(const char* text);
Config TwoLinks(LinkMode mode = LinkMode::kTun);

// Route returns a tcpip::Route between two addresses (TTL 64), with an
// Ethernet header to `mac` when `ethernet`.
tcpip::Route RouteV4(const char* source, const char* destination,
                     uint8_t ttl = 64);
tcpip::Route RouteV6(const char* source, const char* destination,
                     uint8_t ttl = 64);

// Received returns `pkt` as a link hands it to Gateway::Handle: data() the
// whole frame, the offload metadata kept.
tcpip::PacketBuffer Received(const tcpip::PacketBuffer& pkt);

// Tcp and Udp build a segment / datagram of `payload` with a complete
// checksum, or a partial one (`partial`).
tcpip::PacketBuffer Tcp(const tcpip::Route& route, uint16_t source_port,
                        uint16_t destination_port,
                        std::span<const uint8_t> payload, bool partial,
                        uint8_t flags = 0x10);
tcpip::PacketBuffer Udp(const tcpip::Route& route, uint16_t source_port,
                        uint16_t destination_port,
                        std::span<const uint8_t> payload, bool partial);

// Echo builds an ICMPv4 / ICMPv6 echo request (or reply) over `route`.
tcpip::PacketBuffer Echo(const tcpip::Route& route, bool request,
                         uint16_t ident, uint16_t sequence,
                         std::span<const uint8_t> data);

// IPv4HeaderValid reports whether the IPv4 header at `network` sums to
// 0xffff by the byte-at-a-time reference.
bool IPv4HeaderValid(std::span<const uint8_t> frame, size_t network);

// TransportSum returns the reference sum of the pseudo-header (none for
// ICMPv4) and the transport bytes of the frame: 0xffff when its checksum
// is right. `ethernet`: the frame starts with an Ethernet header.
uint16_t TransportSum(std::span<const uint8_t> frame, bool ethernet);

// PseudoSum returns the reference sum of the frame's pseudo-header.
uint16_t PseudoSum(std::span<const uint8_t> frame, bool ethernet);

}  // namespace ipsum::gateway::testing

#endif  // IPSUM_TOOLS_GATEWAY_INTERNAL_TESTING_H_
