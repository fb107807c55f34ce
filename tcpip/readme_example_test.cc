// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// The README's example of the packet layers ("Using the packet layers"),
// compiled and run, so that the text a user copies works: a 4 KiB send cut
// into segments in software (GSO), each segment then received on the other
// side, judged without being taken apart (VerifyBurst), and its fields read
// from the record. The code between the BEGIN and END lines is the README's.

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "buffer/buffer.h"
#include "gtest/gtest.h"
#include "header/address.h"
#include "header/ethernet.h"
#include "header/tcp.h"
#include "tcpip/gso.h"
#include "tcpip/packet_buffer.h"
#include "tcpip/receive.h"
#include "tcpip/transmit.h"

namespace {

TEST(ReadmeExampleTest, SendAndVerify) {
  const std::vector<uint8_t> data(4096, 0x5a);
  // BEGIN README
  namespace buffer = ipsum::buffer;
  namespace header = ipsum::header;
  namespace tcpip = ipsum::tcpip;

  // Where the segments go, and the header fields of the first.
  tcpip::Route route;
  route.network = tcpip::NetworkProtocol::kIPv4;
  route.source_v4 = header::IPv4Address::FromHost(0xc0000201);  // 192.0.2.1
  route.destination_v4 =
      header::IPv4Address::FromHost(0xc6336402);  // 198.51.100.2
  route.ethernet = header::EthernetFields{};  // MAC addresses left zero here.
  tcpip::TCPSegment segment;
  segment.source_port = 49152;
  segment.destination_port = 443;
  segment.seq = 1000;
  segment.ack = 1;
  segment.flags = header::kTCPFlagAck | header::kTCPFlagPsh;
  segment.window = 65535;

  // Transmit: a link without offloads, so the send is cut into segments of
  // at most 1448 bytes in software, each checksum complete. The payload is
  // never copied: each segment's views share the send's chunks.
  tcpip::LinkCapabilities link;
  std::vector<tcpip::PacketBuffer> segments;
  // kOk, or why nothing was appended (tcpip::ToString(error)).
  tcpip::EncodeError error = tcpip::SendTCP(
      route, segment, /*mss=*/1448, link, buffer::Buffer::Copy(data), segments);

  // Receive: frames as a driver hands them over (here, each segment's bytes
  // copied into a frame of its own), checksum_status kNone (the NIC did not
  // verify), judged in a burst without being taken apart.
  std::vector<tcpip::PacketBuffer> frames;
  for (const tcpip::PacketBuffer& s : segments) {
    frames.push_back(
        tcpip::PacketBuffer::FromFrame(buffer::Buffer::Copy(s.Flatten())));
  }
  tcpip::ReceiveStats stats;
  std::vector<tcpip::VerifiedFrame> verified(frames.size());
  auto delivered = std::make_unique<bool[]>(frames.size());
  tcpip::VerifyBurst(frames, tcpip::LinkType::kEthernet, stats, verified,
                     std::span(delivered.get(), frames.size()),
                     tcpip::BurstPrefetch::kHeaders);
  for (size_t i = 0; i < frames.size(); ++i) {
    if (!delivered[i]) continue;  // Counted in stats.dropped, by reason.
    const tcpip::VerifiedFrame& v = verified[i];
    // The fields a stack reads first, from the record.
    uint32_t seq = v.tcp_seq();
    uint16_t port = v.destination_port();
    // The payload, sharing the frame's chunks.
    std::optional<buffer::Buffer> payload =
        frames[i].data().CloneRange(v.payload_offset, v.payload_length());
    // END README
    EXPECT_EQ(seq, 1000 + 1448 * i);
    EXPECT_EQ(port, 443);
    ASSERT_TRUE(payload.has_value());
    EXPECT_EQ(
        payload->Flatten(),
        std::vector<uint8_t>(
            data.begin() + 1448 * i,
            data.begin() + std::min<size_t>(data.size(), 1448 * (i + 1))));
  }
  EXPECT_EQ(error, tcpip::EncodeError::kOk);
  EXPECT_EQ(segments.size(), 3u);
  EXPECT_EQ(stats.delivered, 3u);
  EXPECT_EQ(stats.checksum_software, 3u);
}

}  // namespace
