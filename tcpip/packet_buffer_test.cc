// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Tests for PacketBuffer: Push on transmit, Consume on receive, the
// checksum and writes across the header area and the payload views.

#include "tcpip/packet_buffer.h"

#include <cstdint>
#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "tcpip/internal/testing.h"

namespace ipsum::tcpip {
namespace {

using testing::MakePayload;
using testing::RandomBytes;
using testing::ReferenceSum;

TEST(PacketBufferTest, PushPutsHeadersInFrontOutermostFirst) {
  PacketBuffer pkt(MakePayload(std::vector<uint8_t>{9, 9, 9}, 2));
  EXPECT_EQ(pkt.reserved(), PacketBuffer::kHeaderCapacity);
  auto t = pkt.Push(Layer::kTransport, 2);
  t[0] = 3;
  t[1] = 3;
  auto n = pkt.Push(Layer::kNetwork, 3);
  std::fill(n.begin(), n.end(), 2);
  auto l = pkt.Push(Layer::kLink, 1);
  l[0] = 1;
  EXPECT_EQ(pkt.Flatten(), (std::vector<uint8_t>{1, 2, 2, 2, 3, 3, 9, 9, 9}));
  EXPECT_EQ(pkt.size(), 9u);
  EXPECT_EQ(pkt.HeaderOffset(Layer::kLink), 0u);
  EXPECT_EQ(pkt.HeaderOffset(Layer::kNetwork), 1u);
  EXPECT_EQ(pkt.HeaderOffset(Layer::kTransport), 4u);
  EXPECT_EQ(pkt.Header(Layer::kNetwork).size(), 3u);
  EXPECT_EQ(pkt.reserved(), PacketBuffer::kHeaderCapacity - 6);
  EXPECT_EQ(pkt.ToBuffer().Flatten(), pkt.Flatten());
}

TEST(PacketBufferDeathTest, PushPastTheReservationAborts) {
  PacketBuffer pkt(buffer::Buffer{}, 4);
  pkt.Push(Layer::kTransport, 4);
  EXPECT_DEATH(pkt.Push(Layer::kNetwork, 1), "");
}

TEST(PacketBufferTest, ConsumeMovesHeaderBytesOutOfTheFrame) {
  std::vector<uint8_t> frame = {1, 1, 2, 2, 2, 3, 4, 5, 6, 7};
  PacketBuffer pkt = PacketBuffer::FromFrame(MakePayload(frame, 4));
  EXPECT_EQ(pkt.reserved(), 0u);
  auto l = pkt.Consume(Layer::kLink, 2);
  ASSERT_TRUE(l);
  EXPECT_EQ(std::vector<uint8_t>(l->begin(), l->end()),
            (std::vector<uint8_t>{1, 1}));
  auto n = pkt.Consume(Layer::kNetwork, 3);  // Straddles two views.
  ASSERT_TRUE(n);
  EXPECT_EQ(std::vector<uint8_t>(n->begin(), n->end()),
            (std::vector<uint8_t>{2, 2, 2}));
  EXPECT_EQ(pkt.data().size(), 5u);
  EXPECT_EQ(pkt.Flatten(), frame);
  EXPECT_EQ(pkt.HeaderOffset(Layer::kNetwork), 2u);
  EXPECT_FALSE(pkt.Consume(Layer::kTransport, 6));  // More than is left.
  EXPECT_EQ(pkt.Flatten(), frame);
}

TEST(PacketBufferTest, ATransmitPacketWithoutHeadersCanBeConsumed) {
  PacketBuffer pkt(MakePayload(std::vector<uint8_t>{1, 2, 3}, 1));
  auto h = pkt.Consume(Layer::kNetwork, 2);
  ASSERT_TRUE(h);
  EXPECT_EQ((*h)[1], 2);
  EXPECT_EQ(pkt.HeaderOffset(Layer::kNetwork), 0u);
  EXPECT_EQ(pkt.Flatten(), (std::vector<uint8_t>{1, 2, 3}));
}

TEST(PacketBufferTest, ConsumeBeyondTheHeaderAreaFails) {
  std::vector<uint8_t> frame(PacketBuffer::kHeaderCapacity + 10, 1);
  PacketBuffer pkt = PacketBuffer::FromFrame(MakePayload(frame, 1));
  EXPECT_TRUE(pkt.Consume(Layer::kLink, PacketBuffer::kHeaderCapacity - 1));
  EXPECT_FALSE(pkt.Consume(Layer::kNetwork, 2));
  EXPECT_EQ(pkt.size(), frame.size());
}

TEST(PacketBufferTest, ConsumeHeadersIsThreeConsumesInOneStep) {
  std::vector<uint8_t> frame = {1, 1, 2, 2, 2, 3, 3, 3, 3, 4, 5, 6};
  for (size_t views : {1, 3, 5}) {  // Headers in one view, or straddling.
    PacketBuffer one = PacketBuffer::FromFrame(MakePayload(frame, views));
    PacketBuffer three = PacketBuffer::FromFrame(MakePayload(frame, views));
    ASSERT_TRUE(one.ConsumeHeaders(2, 3, 4));
    ASSERT_TRUE(three.Consume(Layer::kLink, 2));
    ASSERT_TRUE(three.Consume(Layer::kNetwork, 3));
    ASSERT_TRUE(three.Consume(Layer::kTransport, 4));
    for (Layer l : {Layer::kLink, Layer::kNetwork, Layer::kTransport}) {
      auto a = one.Header(l);
      auto b = three.Header(l);
      EXPECT_EQ(std::vector<uint8_t>(a.begin(), a.end()),
                std::vector<uint8_t>(b.begin(), b.end()));
      EXPECT_EQ(one.HeaderOffset(l), three.HeaderOffset(l));
    }
    EXPECT_EQ(one.data().Flatten(), (std::vector<uint8_t>{4, 5, 6}));
    EXPECT_EQ(one.Flatten(), frame);
  }
}

TEST(PacketBufferTest, ConsumeHeadersOfExactlyTheFirstViewDropsIt) {
  // A header-splitting NIC's frame: the headers (1 + 1 + 1 bytes here) fill
  // the first of four views; the other three stay as they are.
  std::vector<uint8_t> frame = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  PacketBuffer pkt = PacketBuffer::FromFrame(MakePayload(frame, 4));
  ASSERT_EQ(pkt.data().view_count(), 4u);
  std::vector<const uint8_t*> rest;
  for (const buffer::View& v : pkt.data().views().subspan(1)) {
    rest.push_back(v.data());
  }
  ASSERT_TRUE(pkt.ConsumeHeaders(1, 1, 1));
  EXPECT_EQ(pkt.Header(Layer::kLink)[0], 1);
  EXPECT_EQ(pkt.Header(Layer::kNetwork)[0], 2);
  EXPECT_EQ(pkt.Header(Layer::kTransport)[0], 3);
  EXPECT_EQ(pkt.HeaderOffset(Layer::kTransport), 2u);
  ASSERT_EQ(pkt.data().view_count(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(pkt.data().views()[i].data(), rest[i]);  // Not copied.
  }
  EXPECT_EQ(pkt.data().Flatten(),
            std::vector<uint8_t>(frame.begin() + 3, frame.end()));
  EXPECT_EQ(pkt.Flatten(), frame);
}

TEST(PacketBufferTest, ConsumeHeadersWithAZeroLengthLeavesThatLayerOut) {
  std::vector<uint8_t> frame = {2, 2, 3, 4};
  PacketBuffer pkt = PacketBuffer::FromFrame(MakePayload(frame, 2));
  ASSERT_TRUE(pkt.ConsumeHeaders(0, 2, 0));
  EXPECT_TRUE(pkt.Header(Layer::kLink).empty());
  EXPECT_TRUE(pkt.Header(Layer::kTransport).empty());
  EXPECT_EQ(pkt.Header(Layer::kNetwork).size(), 2u);
  EXPECT_EQ(pkt.HeaderOffset(Layer::kNetwork), 0u);
  EXPECT_EQ(pkt.Flatten(), frame);
}

TEST(PacketBufferTest, ConsumeHeadersPastTheDataOrTheAreaChangesNothing) {
  std::vector<uint8_t> frame(PacketBuffer::kHeaderCapacity + 10, 7);
  PacketBuffer pkt = PacketBuffer::FromFrame(MakePayload(frame, 3));
  const size_t huge = ~size_t{0} - 1;  // Sums with the others would wrap.
  EXPECT_FALSE(pkt.ConsumeHeaders(huge, 4, 4));
  EXPECT_FALSE(pkt.ConsumeHeaders(4, huge, 4));
  EXPECT_FALSE(pkt.ConsumeHeaders(100, 100, 100));  // Past the area.
  EXPECT_EQ(pkt.headers().size(), 0u);
  EXPECT_EQ(pkt.data().size(), frame.size());
  PacketBuffer small =
      PacketBuffer::FromFrame(MakePayload(std::vector<uint8_t>(10, 1), 2));
  EXPECT_FALSE(small.ConsumeHeaders(4, 4, 4));  // Past the data.
  EXPECT_EQ(small.data().size(), 10u);
}

TEST(PacketBufferTest, ChecksumOfAnyRangeMatchesReference) {
  std::mt19937 rng(3);
  std::vector<uint8_t> bytes = RandomBytes(rng, 301);
  for (size_t consumed : {0, 1, 14, 33}) {
    PacketBuffer pkt = PacketBuffer::FromFrame(MakePayload(bytes, 5));
    if (consumed) {
      ASSERT_TRUE(pkt.Consume(Layer::kLink, consumed));
    }
    for (size_t off = 0; off <= bytes.size(); off += 7) {
      for (size_t len : {0, 1, 2, 13, 40, 200}) {
        if (off + len > bytes.size()) continue;
        EXPECT_EQ(pkt.Checksum(off, len, 0x1234),
                  ReferenceSum(std::span(bytes).subspan(off, len), 0x1234))
            << consumed << " " << off << " " << len;
      }
    }
    EXPECT_FALSE(pkt.Checksum(bytes.size(), 1));
    EXPECT_FALSE(pkt.Checksum(bytes.size() + 1, 0));
  }
}

TEST(PacketBufferTest, CopyInWritesAcrossHeadersAndCopyOnWriteData) {
  std::vector<uint8_t> bytes(20, 0);
  buffer::Buffer payload = MakePayload(bytes, 2);
  buffer::Buffer shared = payload.Clone();
  PacketBuffer pkt = PacketBuffer::FromFrame(std::move(payload));
  ASSERT_TRUE(pkt.Consume(Layer::kLink, 5));
  std::vector<uint8_t> src = {1, 2, 3, 4};
  ASSERT_TRUE(pkt.CopyIn(3, src));  // Two bytes in headers, two in data.
  std::vector<uint8_t> want(20, 0);
  std::copy(src.begin(), src.end(), want.begin() + 3);
  EXPECT_EQ(pkt.Flatten(), want);
  EXPECT_EQ(shared.Flatten(), bytes);  // The clone kept its bytes.
  EXPECT_FALSE(pkt.CopyIn(18, src));
  EXPECT_EQ(pkt.Flatten(), want);
}

}  // namespace
}  // namespace ipsum::tcpip
