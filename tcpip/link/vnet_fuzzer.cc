// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Fuzzes the endpoint's receive decode, the hostile input of a sandbox's
// link: a virtio-net header and the frame behind it, as read() returns
// them, then what the gateway does with the packet. The input is
//
//   control (1 byte) | virtio_net_hdr_v1 (12 bytes) | frame
//
// where control's bit 0 picks the mode (TUN: IP first, TAP: Ethernet
// first) and bits 1-7 into how many views the frame is split. Properties:
//   - the verdict is the one the rules say (flags, checksum offsets,
//     hdr_len, GSO type, ECN, gso_size, NEEDS_CSUM: checked here byte by
//     byte, independently); only a GSO frame's match against its headers
//     is left to the decode (kNone or kRxGsoMismatch);
//   - how the frame is chained changes nothing;
//   - an accepted frame is the input's bytes, and its metadata encodes
//     (EncodeVnetHeader) to a header that decodes to the same metadata;
//   - the receive path's verdict (VerifyFrame, as the gateway checks it)
//     and, for a GSO frame, software segmentation (the transmit path's
//     fallback) run on it; every segment is a valid packet whose
//     checksums the receive path verifies, and the segments carry the
//     frame's payload, gso_size bytes at most each.

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "buffer/buffer.h"
#include "tcpip/gso.h"
#include "tcpip/internal/testing.h"
#include "tcpip/link/endpoint.h"
#include "tcpip/link/internal/vnet.h"
#include "tcpip/packet_buffer.h"
#include "tcpip/receive.h"
#include "testing/fuzz/fuzz_util.h"

namespace ipsum::tcpip::link {
namespace {

using Bytes = std::vector<uint8_t>;

// Chain returns `frame` as a Buffer of 1 to 64 views, each in its own
// chunk, as `seed` says.
buffer::Buffer Chain(std::span<const uint8_t> frame, uint8_t seed) {
  return testing::MakePayload(frame, static_cast<size_t>(seed % 64) + 1);
}

uint16_t LE16(std::span<const uint8_t> h, size_t i) {
  return static_cast<uint16_t>(h[i] | h[i + 1] << 8);
}

// Expected is the verdict by the rules, written out; kRxGsoMismatch stands
// for "kNone or kRxGsoMismatch" (the GSO frame's headers decide).
DropReason Expected(std::span<const uint8_t> h, size_t size) {
  if (size == 0) return DropReason::kRxShortRead;
  const uint8_t flags = h[0], gso = h[1];
  if (flags > 3 || flags == 3) return DropReason::kRxFlags;
  const bool partial = flags == 1;
  const size_t start = LE16(h, 6), offset = LE16(h, 8);
  if (partial && start >= size) return DropReason::kRxCsumStart;
  if (partial && start + offset + 2 > size) return DropReason::kRxCsumOffset;
  if (LE16(h, 2) > size) return DropReason::kRxHdrLen;
  if (gso & 0x80) return DropReason::kRxGsoEcn;
  if (gso != 0 && gso != 1 && gso != 4 && gso != 5) {
    return DropReason::kRxGsoType;
  }
  if (gso == 0) return DropReason::kNone;
  if (LE16(h, 4) == 0) return DropReason::kRxGsoSize;
  if (!partial) return DropReason::kRxGsoNoCsum;
  return DropReason::kRxGsoMismatch;
}

bool SameMetadata(const PacketBuffer& a, const PacketBuffer& b) {
  return a.checksum_status == b.checksum_status &&
         a.csum_start == b.csum_start && a.csum_offset == b.csum_offset &&
         a.gso_type == b.gso_type && a.gso_size == b.gso_size &&
         a.network_protocol == b.network_protocol &&
         a.transport_protocol == b.transport_protocol;
}

void Run(std::span<const uint8_t> input) {
  fuzz::Reader r(input);
  const uint8_t control = r.U8();
  const DeviceMode mode = control & 1 ? DeviceMode::kTap : DeviceMode::kTun;
  const LinkType link =
      mode == DeviceMode::kTap ? LinkType::kEthernet : LinkType::kIP;
  fuzz::AlignedCopy header(r.Bytes(kVnetHeaderSize), control);
  fuzz::AlignedCopy frame(r.Rest(), 0);
  const std::span<const uint8_t> h = header.span();
  const std::span<const uint8_t> f = frame.span();

  PacketBuffer pkt;
  const DropReason got =
      DecodeVnetFrame(h, Chain(f, static_cast<uint8_t>(control >> 1)), mode,
                      pkt);
  if (h.size() < kVnetHeaderSize) {
    IPSUM_FUZZ_CHECK(got == DropReason::kRxShortRead);
    return;
  }
  const DropReason want = Expected(h, f.size());
  if (want == DropReason::kRxGsoMismatch) {
    IPSUM_FUZZ_CHECK(got == DropReason::kNone ||
                     got == DropReason::kRxGsoMismatch);
  } else {
    IPSUM_FUZZ_CHECK(got == want);
  }
  // Another chain, the same verdict and packet.
  PacketBuffer again;
  IPSUM_FUZZ_CHECK(DecodeVnetFrame(h, Chain(f, 0), mode, again) == got);
  if (got != DropReason::kNone) return;
  IPSUM_FUZZ_CHECK(SameMetadata(pkt, again));
  const Bytes flat = pkt.Flatten();
  IPSUM_FUZZ_CHECK(flat.size() == f.size() &&
                   std::equal(flat.begin(), flat.end(), f.begin()));

  // Encoded back, the header says the same.
  std::array<uint8_t, kVnetHeaderSize> encoded;
  EncodeVnetHeader(pkt, encoded);
  PacketBuffer back;
  IPSUM_FUZZ_CHECK(DecodeVnetFrame(encoded, Chain(f, 0), mode, back) ==
                   DropReason::kNone);
  IPSUM_FUZZ_CHECK(SameMetadata(pkt, back));

  // The gateway's check of the packet.
  ReceiveStats stats;
  VerifiedFrame verified;
  VerifyFrame(pkt, link, stats, verified);

  if (pkt.gso_type == GsoType::kNone) return;
  const std::optional<internal::FrameLayout> l =
      internal::ParseFrameLayout(again.data(), mode);
  IPSUM_FUZZ_CHECK(l.has_value());
  const size_t payload =
      l->transport_end - l->transport_offset - l->transport_length;
  const uint16_t mss = pkt.gso_size;
  std::optional<PacketBuffer> layered =
      internal::WithLayers(std::move(pkt), mode);
  IPSUM_FUZZ_CHECK(layered.has_value());
  std::vector<PacketBuffer> segments;
  if (SegmentGsoPacket(std::move(*layered), LinkCapabilities{}, segments) !=
      EncodeError::kOk) {
    return;  // Headers the encoders do not reproduce: a counted drop.
  }
  size_t carried = 0;
  for (const PacketBuffer& s : segments) {
    IPSUM_FUZZ_CHECK(s.data().size() <= mss);
    carried += s.data().size();
    const PacketBuffer wire = PacketBuffer::FromFrame(s.ToBuffer());
    IPSUM_FUZZ_CHECK(VerifyFrame(wire, link, stats, verified));
    IPSUM_FUZZ_CHECK(verified.checksum_verified);
  }
  IPSUM_FUZZ_CHECK(carried == payload);
}

}  // namespace
}  // namespace ipsum::tcpip::link

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ipsum::tcpip::link::Run(std::span<const uint8_t>(data, size));
  return 0;
}
