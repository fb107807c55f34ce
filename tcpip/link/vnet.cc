// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// The virtio-net header's decode and encode (endpoint.h): pure functions
// over bytes, shared by the Endpoint and the fuzz target.

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <utility>

#include "buffer/buffer.h"
#include "tcpip/link/endpoint.h"
#include "tcpip/link/internal/vnet.h"
#include "tcpip/packet_buffer.h"
#include "tcpip/parse.h"

namespace ipsum::tcpip::link {
namespace {

uint16_t LoadLE16(const uint8_t* p) {
  return static_cast<uint16_t>(p[0] | (p[1] << 8));
}

void StoreLE16(uint8_t* p, uint32_t v) {
  p[0] = static_cast<uint8_t>(v);
  p[1] = static_cast<uint8_t>(v >> 8);
}

// ByteAt returns the packet's byte at `offset` (headers then data), or
// nullopt past its end.
std::optional<uint8_t> ByteAt(const PacketBuffer& pkt, size_t offset) {
  std::span<const uint8_t> h = pkt.headers();
  if (offset < h.size()) return h[offset];
  uint8_t b;
  if (!pkt.data().CopyOut(offset - h.size(), std::span<uint8_t>(&b, 1))) {
    return std::nullopt;
  }
  return b;
}

}  // namespace

namespace internal {

std::optional<FrameLayout> ParseFrameLayout(const buffer::Buffer& frame,
                                            DeviceMode mode) {
  std::array<uint8_t, PacketBuffer::kHeaderCapacity> prefix;
  const size_t n = std::min(frame.size(), prefix.size());
  if (!frame.CopyOut(0, std::span<uint8_t>(prefix.data(), n))) {
    return std::nullopt;
  }
  const std::span<const uint8_t> p(prefix.data(), n);
  const ParsedPacket parsed = mode == DeviceMode::kTap
                                  ? ParseEthernetPrefix(p, frame.size())
                                  : ParseIPPrefix(p, frame.size());
  if (!parsed.has_transport_header() || parsed.is_fragment ||
      parsed.truncated) {
    return std::nullopt;
  }
  FrameLayout l;
  l.network = parsed.network;
  l.link_length = parsed.network_offset;
  l.network_length = parsed.network_header_length;
  l.transport_offset = parsed.transport_offset;
  l.transport_end = parsed.network_offset + parsed.ip_length;
  if (parsed.transport_protocol == 6) {
    l.transport = TransportProtocol::kTCP;
    // The data offset (byte 12's high nibble) must lie in the prefix.
    if (l.transport_offset + 13 > n) return std::nullopt;
    l.transport_length = static_cast<size_t>(prefix[l.transport_offset + 12] >> 4) * 4;
    if (l.transport_length < 20) return std::nullopt;
  } else if (parsed.transport_protocol == 17) {
    l.transport = TransportProtocol::kUDP;
    l.transport_length = 8;
  } else {
    return std::nullopt;
  }
  if (l.transport_offset + l.transport_length > l.transport_end) {
    return std::nullopt;
  }
  return l;
}

std::optional<PacketBuffer> WithLayers(PacketBuffer&& pkt, DeviceMode mode) {
  if (!pkt.Header(Layer::kNetwork).empty() &&
      !pkt.Header(Layer::kTransport).empty() &&
      (mode == DeviceMode::kTun || !pkt.Header(Layer::kLink).empty())) {
    return std::move(pkt);
  }
  buffer::Buffer bytes = pkt.ToBuffer();
  const std::optional<FrameLayout> l =
      ParseFrameLayout(bytes, mode);
  if (!l.has_value()) return std::nullopt;
  PacketBuffer out = PacketBuffer::FromFrame(std::move(bytes));
  if (l->link_length != 0 &&
      !out.Consume(Layer::kLink, l->link_length).has_value()) {
    return std::nullopt;
  }
  if (!out.Consume(Layer::kNetwork, l->network_length).has_value() ||
      !out.Consume(Layer::kTransport, l->transport_length).has_value()) {
    return std::nullopt;
  }
  // Bytes past the IP datagram (Ethernet padding) are no payload.
  const size_t payload = l->transport_end - l->transport_offset -
                         l->transport_length;
  if (out.data().size() > payload) out.data().Truncate(payload);
  out.network_protocol = l->network;
  out.transport_protocol = l->transport;
  out.checksum_status = pkt.checksum_status;
  out.csum_start = pkt.csum_start;
  out.csum_offset = pkt.csum_offset;
  out.gso_type = pkt.gso_type;
  out.gso_size = pkt.gso_size;
  return out;
}

}  // namespace internal

DropReason DecodeVnetFrame(std::span<const uint8_t> vnet_hdr,
                           buffer::Buffer frame, DeviceMode mode,
                           PacketBuffer& out) {
  using namespace internal;  // NOLINT: the wire constants.
  if (vnet_hdr.size() < kVnetHeaderSize || frame.empty()) {
    return DropReason::kRxShortRead;
  }
  const uint8_t flags = vnet_hdr[0];
  const uint8_t raw_gso = vnet_hdr[1];
  const uint16_t hdr_len = LoadLE16(&vnet_hdr[2]);
  const uint16_t gso_size = LoadLE16(&vnet_hdr[4]);
  const uint16_t csum_start = LoadLE16(&vnet_hdr[6]);
  const uint16_t csum_offset = LoadLE16(&vnet_hdr[8]);
  const size_t size = frame.size();

  if ((flags & ~(kFlagNeedsCsum | kFlagDataValid)) != 0 ||
      (flags & kFlagNeedsCsum && flags & kFlagDataValid)) {
    return DropReason::kRxFlags;
  }
  const bool partial = (flags & kFlagNeedsCsum) != 0;
  if (partial) {
    if (csum_start >= size) return DropReason::kRxCsumStart;
    if (size_t{csum_start} + csum_offset + 2 > size) {
      return DropReason::kRxCsumOffset;
    }
  }
  if (hdr_len > size) return DropReason::kRxHdrLen;
  if (raw_gso & kGsoEcn) return DropReason::kRxGsoEcn;

  GsoType gso = GsoType::kNone;
  switch (raw_gso) {
    case kGsoNone:
      break;
    case kGsoTCPv4:
      gso = GsoType::kTCPv4;
      break;
    case kGsoTCPv6:
      gso = GsoType::kTCPv6;
      break;
    case kGsoUDPL4:
      gso = GsoType::kUDPv4;  // Or v6: the IP header decides below.
      break;
    default:
      return DropReason::kRxGsoType;
  }

  NetworkProtocol network = NetworkProtocol::kNone;
  TransportProtocol transport = TransportProtocol::kNone;
  if (gso != GsoType::kNone) {
    if (gso_size == 0) return DropReason::kRxGsoSize;
    if (!partial) return DropReason::kRxGsoNoCsum;
    const std::optional<FrameLayout> l = ParseFrameLayout(frame, mode);
    if (!l.has_value()) return DropReason::kRxGsoMismatch;
    const bool tcp = gso != GsoType::kUDPv4;
    const NetworkProtocol want =
        gso == GsoType::kTCPv6 ? NetworkProtocol::kIPv6 : NetworkProtocol::kIPv4;
    if (tcp && l->network != want) return DropReason::kRxGsoMismatch;
    if (l->transport !=
        (tcp ? TransportProtocol::kTCP : TransportProtocol::kUDP)) {
      return DropReason::kRxGsoMismatch;
    }
    if (csum_start != l->transport_offset ||
        csum_offset != (tcp ? kTCPChecksumOffset : kUDPChecksumOffset)) {
      return DropReason::kRxGsoMismatch;
    }
    if (gso == GsoType::kUDPv4 && l->network == NetworkProtocol::kIPv6) {
      gso = GsoType::kUDPv6;
    }
    network = l->network;
    transport = l->transport;
  }

  out = PacketBuffer::FromFrame(std::move(frame));
  out.network_protocol = network;
  out.transport_protocol = transport;
  out.checksum_status = partial                    ? ChecksumStatus::kPartial
                        : flags & kFlagDataValid ? ChecksumStatus::kUnnecessary
                                                 : ChecksumStatus::kNone;
  out.csum_start = partial ? csum_start : 0;
  out.csum_offset = partial ? csum_offset : 0;
  out.csum = 0;
  out.gso_type = gso;
  out.gso_size = gso == GsoType::kNone ? 0 : gso_size;
  return DropReason::kNone;
}

void EncodeVnetHeader(const PacketBuffer& pkt, std::span<uint8_t, 12> out) {
  using namespace internal;  // NOLINT: the wire constants.
  uint8_t flags = 0;
  uint32_t hdr_len = 0;
  if (pkt.checksum_status == ChecksumStatus::kPartial) {
    flags = kFlagNeedsCsum;
    hdr_len = pkt.csum_start + pkt.csum_offset + 2;
  } else if (pkt.checksum_status == ChecksumStatus::kUnnecessary) {
    flags = kFlagDataValid;
  }
  uint8_t gso = kGsoNone;
  switch (pkt.gso_type) {
    case GsoType::kNone:
      break;
    case GsoType::kTCPv4:
      gso = kGsoTCPv4;
      break;
    case GsoType::kTCPv6:
      gso = kGsoTCPv6;
      break;
    case GsoType::kUDPv4:
    case GsoType::kUDPv6:
      gso = kGsoUDPL4;
      break;
  }
  if (gso != kGsoNone) {
    // Ethernet + IP + transport header: csum_start plus the TCP data offset
    // (20 if it cannot be read) or UDP's 8.
    size_t transport = 8;
    if (gso != kGsoUDPL4) {
      const std::optional<uint8_t> doff = ByteAt(pkt, pkt.csum_start + 12);
      transport = doff.has_value() && (*doff >> 4) >= 5 ? (*doff >> 4) * 4 : 20;
    }
    hdr_len = pkt.csum_start + transport;
  }
  out[0] = flags;
  out[1] = gso;
  StoreLE16(&out[2], hdr_len);
  StoreLE16(&out[4], gso == kGsoNone ? 0 : pkt.gso_size);
  StoreLE16(&out[6], flags == kFlagNeedsCsum ? pkt.csum_start : 0);
  StoreLE16(&out[8], flags == kFlagNeedsCsum ? pkt.csum_offset : 0);
  StoreLE16(&out[10], 0);
}

}  // namespace ipsum::tcpip::link
