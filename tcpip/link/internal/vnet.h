// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// The virtio-net header's wire constants (Linux include/uapi/linux/
// virtio_net.h and if_tun.h; Debian 12's headers predate USO, so they are
// spelled here) and the frame walk the decode and the transmit path share.
// Not API.

#ifndef IPSUM_TCPIP_LINK_INTERNAL_VNET_H_
#define IPSUM_TCPIP_LINK_INTERNAL_VNET_H_

#include <cstddef>
#include <cstdint>
#include <optional>

#include "buffer/buffer.h"
#include "tcpip/link/endpoint.h"
#include "tcpip/packet_buffer.h"
#include "tcpip/parse.h"

namespace ipsum::tcpip::link::internal {

// virtio_net_hdr_v1.flags.
inline constexpr uint8_t kFlagNeedsCsum = 1;  // VIRTIO_NET_HDR_F_NEEDS_CSUM
inline constexpr uint8_t kFlagDataValid = 2;  // VIRTIO_NET_HDR_F_DATA_VALID

// virtio_net_hdr_v1.gso_type.
inline constexpr uint8_t kGsoNone = 0;   // VIRTIO_NET_HDR_GSO_NONE
inline constexpr uint8_t kGsoTCPv4 = 1;  // VIRTIO_NET_HDR_GSO_TCPV4
inline constexpr uint8_t kGsoUDP = 3;    // VIRTIO_NET_HDR_GSO_UDP (UFO)
inline constexpr uint8_t kGsoTCPv6 = 4;  // VIRTIO_NET_HDR_GSO_TCPV6
inline constexpr uint8_t kGsoUDPL4 = 5;  // VIRTIO_NET_HDR_GSO_UDP_L4
inline constexpr uint8_t kGsoEcn = 0x80;  // VIRTIO_NET_HDR_GSO_ECN

// TUNSETOFFLOAD bits.
inline constexpr unsigned kTunCsum = 0x01;  // TUN_F_CSUM
inline constexpr unsigned kTunTso4 = 0x02;  // TUN_F_TSO4
inline constexpr unsigned kTunTso6 = 0x04;  // TUN_F_TSO6
inline constexpr unsigned kTunUso4 = 0x20;  // TUN_F_USO4
inline constexpr unsigned kTunUso6 = 0x40;  // TUN_F_USO6

// Where the transport checksum field lies in its header.
inline constexpr uint16_t kTCPChecksumOffset = 16;
inline constexpr uint16_t kUDPChecksumOffset = 6;

// FrameLayout is where a TCP or UDP frame's headers lie, offsets from its
// first byte.
struct FrameLayout {
  NetworkProtocol network = NetworkProtocol::kNone;
  TransportProtocol transport = TransportProtocol::kNone;
  size_t link_length = 0;       // Ethernet (+ VLAN tags); 0 for kTun.
  size_t network_length = 0;    // IP header with options / extensions.
  size_t transport_offset = 0;  // == link_length + network_length.
  size_t transport_length = 0;  // TCP header with options, or UDP's 8.
  size_t transport_end = 0;     // Where the IP datagram ends.
};

// ParseFrameLayout walks `frame` (Ethernet first for kTap, IP first for
// kTun): nullopt unless it is an unfragmented, uncut IPv4/IPv6 TCP or UDP
// packet whose transport header lies inside the datagram. Copies at most
// PacketBuffer::kHeaderCapacity bytes of the frame's head to read them.
std::optional<FrameLayout> ParseFrameLayout(const buffer::Buffer& frame,
                                            DeviceMode mode);

// WithLayers returns `pkt` with its link, network and transport headers in
// the header area, by layer, as SegmentGsoPacket reads them: as it is when
// they are there, else rebuilt from its bytes (the headers copied, the
// payload's views shared, bytes past the IP datagram dropped), metadata
// kept. nullopt when the bytes are no TCP/UDP packet ParseFrameLayout
// accepts.
std::optional<PacketBuffer> WithLayers(PacketBuffer&& pkt, DeviceMode mode);

}  // namespace ipsum::tcpip::link::internal

#endif  // IPSUM_TCPIP_LINK_INTERNAL_VNET_H_
