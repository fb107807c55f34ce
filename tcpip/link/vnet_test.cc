// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Tests of the virtio-net header's decode and encode against hand-built
// header bytes: every flag and GSO type, and every kind of lying metadata
// (a counted drop by its own reason, never a read outside the input). The
// frames come from the encoders; where their layers lie comes from the
// hand-written reference layout (tcpip/internal/testing.h).

#include <array>
#include <cstdint>
#include <vector>

#include "buffer/buffer.h"
#include "gtest/gtest.h"
#include "tcpip/internal/testing.h"
#include "tcpip/link/endpoint.h"
#include "tcpip/packet_buffer.h"
#include "tcpip/transmit.h"

namespace ipsum::tcpip::link {
namespace {

using Bytes = std::vector<uint8_t>;
using Header = std::array<uint8_t, 12>;

// VnetHeader builds the 12 bytes by hand, little-endian as virtio 1.0.
Header VnetHeader(uint8_t flags, uint8_t gso_type, uint16_t hdr_len,
                  uint16_t gso_size, uint16_t csum_start,
                  uint16_t csum_offset) {
  return {flags,
          gso_type,
          static_cast<uint8_t>(hdr_len),
          static_cast<uint8_t>(hdr_len >> 8),
          static_cast<uint8_t>(gso_size),
          static_cast<uint8_t>(gso_size >> 8),
          static_cast<uint8_t>(csum_start),
          static_cast<uint8_t>(csum_start >> 8),
          static_cast<uint8_t>(csum_offset),
          static_cast<uint8_t>(csum_offset >> 8),
          0,
          0};
}

// Frame is a TCP or UDP packet as the kernel would hand it over with
// offloads on: a partial checksum (the pseudo-header sum in the field).
struct Frame {
  Bytes bytes;
  size_t transport_offset = 0;
};

Frame MakeFrame(NetworkProtocol n, bool tcp, DeviceMode mode,
                size_t payload = 3000) {
  Route route = testing::MakeRoute(n, mode == DeviceMode::kTap);
  LinkCapabilities partial;
  partial.tx_checksum_offload = true;
  PacketBuffer pkt(testing::MakePayload(Bytes(payload, 0x5a), 2));
  EncodeError e;
  if (tcp) {
    TCPSegment s;
    s.source_port = 1;
    s.destination_port = 2;
    s.flags = 0x18;
    s.options.timestamps = header::TCPTimestamps{1, 2};  // 32-byte header.
    e = EncodeTCP(route, s, partial, pkt);
  } else {
    e = EncodeUDP(route, UDPDatagram{3, 4}, partial, pkt);
  }
  EXPECT_EQ(e, EncodeError::kOk);
  Frame f;
  f.bytes = pkt.Flatten();
  f.transport_offset =
      testing::ReferenceLayout(f.bytes, mode == DeviceMode::kTap)
          .transport_offset;
  return f;
}

DropReason Decode(const Header& h, const Bytes& frame, DeviceMode mode,
                  PacketBuffer& out, size_t views = 1) {
  return DecodeVnetFrame(h, testing::MakePayload(frame, views), mode, out);
}

constexpr DeviceMode kModes[] = {DeviceMode::kTun, DeviceMode::kTap};

TEST(DecodeVnetFrameTest, NoFlagsIsChecksumNone) {
  for (DeviceMode mode : kModes) {
    Frame f = MakeFrame(NetworkProtocol::kIPv4, true, mode);
    PacketBuffer p;
    ASSERT_EQ(Decode(VnetHeader(0, 0, 0, 0, 0, 0), f.bytes, mode, p),
              DropReason::kNone);
    EXPECT_EQ(p.checksum_status, ChecksumStatus::kNone);
    EXPECT_EQ(p.gso_type, GsoType::kNone);
    EXPECT_EQ(p.gso_size, 0);
    EXPECT_TRUE(p.headers().empty());
    EXPECT_EQ(p.data().Flatten(), f.bytes);  // The whole frame.
  }
}

TEST(DecodeVnetFrameTest, DataValidIsChecksumUnnecessary) {
  Frame f = MakeFrame(NetworkProtocol::kIPv6, false, DeviceMode::kTun);
  PacketBuffer p;
  ASSERT_EQ(Decode(VnetHeader(2, 0, 0, 0, 0, 0), f.bytes, DeviceMode::kTun, p),
            DropReason::kNone);
  EXPECT_EQ(p.checksum_status, ChecksumStatus::kUnnecessary);
}

TEST(DecodeVnetFrameTest, NeedsCsumIsPartialWithItsOffsets) {
  for (DeviceMode mode : kModes) {
    for (bool tcp : {true, false}) {
      Frame f = MakeFrame(NetworkProtocol::kIPv4, tcp, mode);
      const uint16_t off = tcp ? 16 : 6;
      PacketBuffer p;
      ASSERT_EQ(Decode(VnetHeader(1, 0, 0, 0, f.transport_offset, off),
                       f.bytes, mode, p),
                DropReason::kNone);
      EXPECT_EQ(p.checksum_status, ChecksumStatus::kPartial);
      EXPECT_EQ(p.csum_start, f.transport_offset);
      EXPECT_EQ(p.csum_offset, off);
      // Completing it gives the checksum the reference accepts.
      ASSERT_TRUE(ResolvePartialChecksum(p));
      EXPECT_EQ(testing::ReferenceTransportSum(p.Flatten(),
                                               mode == DeviceMode::kTap),
                0xffff);
    }
  }
}

TEST(DecodeVnetFrameTest, EveryGsoTypeInEveryMode) {
  struct Case {
    NetworkProtocol network;
    bool tcp;
    uint8_t wire;
    GsoType want;
  };
  const Case cases[] = {
      {NetworkProtocol::kIPv4, true, 1, GsoType::kTCPv4},
      {NetworkProtocol::kIPv6, true, 4, GsoType::kTCPv6},
      {NetworkProtocol::kIPv4, false, 5, GsoType::kUDPv4},
      {NetworkProtocol::kIPv6, false, 5, GsoType::kUDPv6},
  };
  for (DeviceMode mode : kModes) {
    for (const Case& c : cases) {
      Frame f = MakeFrame(c.network, c.tcp, mode);
      const uint16_t hl = static_cast<uint16_t>(f.transport_offset +
                                                (c.tcp ? 32 : 8));
      PacketBuffer p;
      // Headers split over views, too: the decode walks a copy of the head.
      for (size_t views : {1, 7}) {
        ASSERT_EQ(Decode(VnetHeader(1, c.wire, hl, 1448, f.transport_offset,
                                    c.tcp ? 16 : 6),
                         f.bytes, mode, p, views),
                  DropReason::kNone)
            << static_cast<int>(c.wire);
        EXPECT_EQ(p.gso_type, c.want);
        EXPECT_EQ(p.gso_size, 1448);
        EXPECT_EQ(p.network_protocol, c.network);
        EXPECT_EQ(p.transport_protocol,
                  c.tcp ? TransportProtocol::kTCP : TransportProtocol::kUDP);
        EXPECT_EQ(p.Flatten(), f.bytes);
      }
    }
  }
}

TEST(DecodeVnetFrameTest, TheFrameIsNotCopied) {
  Frame f = MakeFrame(NetworkProtocol::kIPv4, false, DeviceMode::kTun);
  buffer::Buffer frame = buffer::Buffer::Copy(f.bytes);
  const uint8_t* first = frame.views()[0].data();
  PacketBuffer p;
  ASSERT_EQ(DecodeVnetFrame(VnetHeader(0, 0, 0, 0, 0, 0), std::move(frame),
                            DeviceMode::kTun, p),
            DropReason::kNone);
  EXPECT_EQ(p.data().views()[0].data(), first);
}

// Each lie, with the frame it is told about, and its reason.
TEST(DecodeVnetFrameTest, LyingMetadataIsDroppedByItsReason) {
  const DeviceMode tun = DeviceMode::kTun;
  Frame v4 = MakeFrame(NetworkProtocol::kIPv4, true, tun);
  Frame v6 = MakeFrame(NetworkProtocol::kIPv6, true, tun);
  Frame u4 = MakeFrame(NetworkProtocol::kIPv4, false, tun);
  const uint16_t size = static_cast<uint16_t>(v4.bytes.size());
  const uint16_t t = static_cast<uint16_t>(v4.transport_offset);  // 20
  struct Case {
    const char* what;
    Header h;
    const Bytes* frame;
    DropReason want;
  };
  // A fragment: IPv4 with MF set (the IPv4 header checksum does not
  // matter to the decode).
  Bytes fragment = v4.bytes;
  fragment[6] |= 0x20;
  // IP total length past the frame's end.
  Bytes cut = v4.bytes;
  cut.resize(60);
  // A TCP header whose data offset runs past the datagram.
  Bytes tiny(v4.bytes.begin(), v4.bytes.begin() + 40);
  tiny[2] = 0;
  tiny[3] = 40;
  tiny[32] = 0xf0;
  const Case cases[] = {
      {"unknown flag RSC_INFO", VnetHeader(4, 0, 0, 0, 0, 0), &v4.bytes,
       DropReason::kRxFlags},
      {"unknown flag 0x80", VnetHeader(0x80, 0, 0, 0, 0, 0), &v4.bytes,
       DropReason::kRxFlags},
      {"NEEDS_CSUM and DATA_VALID", VnetHeader(3, 0, 0, 0, t, 16), &v4.bytes,
       DropReason::kRxFlags},
      {"csum_start at the end", VnetHeader(1, 0, 0, 0, size, 0), &v4.bytes,
       DropReason::kRxCsumStart},
      {"csum_start far past", VnetHeader(1, 0, 0, 0, 0xffff, 0), &v4.bytes,
       DropReason::kRxCsumStart},
      {"field one byte past",
       VnetHeader(1, 0, 0, 0, t, static_cast<uint16_t>(size - t - 1)),
       &v4.bytes, DropReason::kRxCsumOffset},
      {"csum_offset huge", VnetHeader(1, 0, 0, 0, t, 0xffff), &v4.bytes,
       DropReason::kRxCsumOffset},
      {"hdr_len past", VnetHeader(0, 0, static_cast<uint16_t>(size + 1), 0, 0,
                                  0),
       &v4.bytes, DropReason::kRxHdrLen},
      {"GSO ECN", VnetHeader(1, 0x81, 52, 1448, t, 16), &v4.bytes,
       DropReason::kRxGsoEcn},
      {"GSO UFO", VnetHeader(1, 3, 28, 1448, t, 6), &u4.bytes,
       DropReason::kRxGsoType},
      {"GSO type 2", VnetHeader(1, 2, 52, 1448, t, 16), &v4.bytes,
       DropReason::kRxGsoType},
      {"GSO type 6", VnetHeader(1, 6, 52, 1448, t, 16), &v4.bytes,
       DropReason::kRxGsoType},
      {"GSO size 0", VnetHeader(1, 1, 52, 0, t, 16), &v4.bytes,
       DropReason::kRxGsoSize},
      {"GSO without NEEDS_CSUM", VnetHeader(0, 1, 52, 1448, 0, 0), &v4.bytes,
       DropReason::kRxGsoNoCsum},
      {"GSO with DATA_VALID only", VnetHeader(2, 4, 72, 1448, 0, 0),
       &v6.bytes, DropReason::kRxGsoNoCsum},
      {"TCPV4 on IPv6", VnetHeader(1, 1, 72, 1448, 40, 16), &v6.bytes,
       DropReason::kRxGsoMismatch},
      {"TCPV6 on IPv4", VnetHeader(1, 4, 52, 1448, t, 16), &v4.bytes,
       DropReason::kRxGsoMismatch},
      {"TCPV4 on UDP", VnetHeader(1, 1, 28, 1448, t, 6), &u4.bytes,
       DropReason::kRxGsoMismatch},
      {"UDP_L4 on TCP", VnetHeader(1, 5, 28, 1448, t, 6), &v4.bytes,
       DropReason::kRxGsoMismatch},
      {"csum_start not the transport header",
       VnetHeader(1, 1, 52, 1448, t + 4, 16), &v4.bytes,
       DropReason::kRxGsoMismatch},
      {"csum_offset not TCP's", VnetHeader(1, 1, 52, 1448, t, 6), &v4.bytes,
       DropReason::kRxGsoMismatch},
      {"GSO on a fragment", VnetHeader(1, 1, 52, 1448, t, 16), &fragment,
       DropReason::kRxGsoMismatch},
      {"GSO on a cut datagram", VnetHeader(1, 1, 52, 1448, t, 16), &cut,
       DropReason::kRxGsoMismatch},
      {"GSO with a TCP header past the datagram",
       VnetHeader(1, 1, 40, 1448, t, 16), &tiny, DropReason::kRxGsoMismatch},
  };
  for (const Case& c : cases) {
    PacketBuffer p;
    EXPECT_EQ(Decode(c.h, *c.frame, tun, p), c.want) << c.what;
  }
  // The same frames whose lie is taken back decode: each case above fails
  // on its lie, not on something else.
  PacketBuffer p;
  EXPECT_EQ(Decode(VnetHeader(1, 0, 0, 0, static_cast<uint16_t>(size - 2), 0),
                   v4.bytes, tun, p),
            DropReason::kNone);
  EXPECT_EQ(Decode(VnetHeader(1, 0, 0, 0, t,
                              static_cast<uint16_t>(size - t - 2)),
                   v4.bytes, tun, p),
            DropReason::kNone);
  EXPECT_EQ(Decode(VnetHeader(0, 0, size, 0, 0, 0), v4.bytes, tun, p),
            DropReason::kNone);
  EXPECT_EQ(Decode(VnetHeader(1, 1, 52, 1448, t, 16), v4.bytes, tun, p),
            DropReason::kNone);
  EXPECT_EQ(Decode(VnetHeader(1, 4, 72, 1448, 40, 16), v6.bytes, tun, p),
            DropReason::kNone);
  EXPECT_EQ(Decode(VnetHeader(1, 5, 28, 1448, t, 6), u4.bytes, tun, p),
            DropReason::kNone);
}

TEST(DecodeVnetFrameTest, ShortInputs) {
  Frame f = MakeFrame(NetworkProtocol::kIPv4, true, DeviceMode::kTun);
  Header h = VnetHeader(0, 0, 0, 0, 0, 0);
  PacketBuffer p;
  EXPECT_EQ(DecodeVnetFrame(std::span(h).first(11), buffer::Buffer::Copy(f.bytes),
                            DeviceMode::kTun, p),
            DropReason::kRxShortRead);
  EXPECT_EQ(DecodeVnetFrame(h, buffer::Buffer(), DeviceMode::kTun, p),
            DropReason::kRxShortRead);
  // A GSO header on frames cut anywhere inside the headers: each a drop,
  // none a read past the bytes (ASan).
  for (size_t n = 1; n < 60; ++n) {
    Bytes cut(f.bytes.begin(), f.bytes.begin() + n);
    const DropReason r = Decode(VnetHeader(1, 1, 0, 1448, 20, 16), cut,
                                DeviceMode::kTun, p);
    EXPECT_NE(r, DropReason::kNone) << n;
  }
}

// EncodeVnetHeader against hand-built bytes, and back through the decode.
TEST(EncodeVnetHeaderTest, EveryStatusAndGsoType) {
  for (DeviceMode mode : kModes) {
    for (bool tcp : {true, false}) {
      for (NetworkProtocol n : {NetworkProtocol::kIPv4,
                                NetworkProtocol::kIPv6}) {
        Frame f = MakeFrame(n, tcp, mode);
        const uint16_t t = static_cast<uint16_t>(f.transport_offset);
        const uint16_t off = tcp ? 16 : 6;
        PacketBuffer p = PacketBuffer::FromFrame(buffer::Buffer::Copy(f.bytes));
        Header got;

        p.checksum_status = ChecksumStatus::kNone;
        EncodeVnetHeader(p, got);
        EXPECT_EQ(got, VnetHeader(0, 0, 0, 0, 0, 0));

        p.checksum_status = ChecksumStatus::kComplete;
        EncodeVnetHeader(p, got);
        EXPECT_EQ(got, VnetHeader(0, 0, 0, 0, 0, 0));

        p.checksum_status = ChecksumStatus::kUnnecessary;
        EncodeVnetHeader(p, got);
        EXPECT_EQ(got, VnetHeader(2, 0, 0, 0, 0, 0));

        p.checksum_status = ChecksumStatus::kPartial;
        p.csum_start = t;
        p.csum_offset = off;
        EncodeVnetHeader(p, got);
        EXPECT_EQ(got, VnetHeader(1, 0, t + off + 2, 0, t, off));

        const GsoType type =
            tcp ? (n == NetworkProtocol::kIPv4 ? GsoType::kTCPv4
                                               : GsoType::kTCPv6)
                : (n == NetworkProtocol::kIPv4 ? GsoType::kUDPv4
                                               : GsoType::kUDPv6);
        const uint8_t wire =
            tcp ? (n == NetworkProtocol::kIPv4 ? 1 : 4) : 5;
        p.gso_type = type;
        p.gso_size = 1400;
        EncodeVnetHeader(p, got);
        // hdr_len: through the TCP header with its 12 bytes of options.
        EXPECT_EQ(got, VnetHeader(1, wire, t + (tcp ? 32 : 8), 1400, t, off));

        PacketBuffer back;
        ASSERT_EQ(DecodeVnetFrame(got, buffer::Buffer::Copy(f.bytes), mode,
                                  back),
                  DropReason::kNone);
        EXPECT_EQ(back.checksum_status, ChecksumStatus::kPartial);
        EXPECT_EQ(back.csum_start, t);
        EXPECT_EQ(back.csum_offset, off);
        EXPECT_EQ(back.gso_type, type);
        EXPECT_EQ(back.gso_size, 1400);
      }
    }
  }
}

TEST(EncodeVnetHeaderTest, HeadersInTheHeaderAreaCountToo) {
  // An encoder's packet: headers pushed into the header area, payload in
  // data(); csum_start counts from the first header byte.
  Route route = testing::MakeRoute(NetworkProtocol::kIPv6, true);
  LinkCapabilities partial;
  partial.tx_checksum_offload = true;
  PacketBuffer p(testing::MakePayload(Bytes(5000, 1), 3));
  TCPSegment s;
  ASSERT_EQ(EncodeTCP(route, s, partial, p), EncodeError::kOk);
  p.gso_type = GsoType::kTCPv6;
  p.gso_size = 1000;
  Header got;
  EncodeVnetHeader(p, got);
  EXPECT_EQ(got, VnetHeader(1, 4, 14 + 40 + 20, 1000, 54, 16));
}

TEST(DropReasonTest, EveryReasonHasItsOwnName) {
  std::vector<std::string_view> names;
  for (size_t i = 0; i < kNumDropReasons; ++i) {
    std::string_view s = ToString(static_cast<DropReason>(i));
    EXPECT_NE(s, "unknown");
    for (std::string_view o : names) EXPECT_NE(s, o);
    names.push_back(s);
  }
  EndpointCounters c;
  c.drops[static_cast<size_t>(DropReason::kRxGsoSize)] = 3;
  EXPECT_NE(c.ToString().find("drop_rx_gso_size=3"), std::string::npos);
  EXPECT_EQ(c.total_dropped(), 3u);
}

}  // namespace
}  // namespace ipsum::tcpip::link
