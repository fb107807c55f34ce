// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0

#include "tcpip/link/internal/packet_queue.h"

#include <array>
#include <cstdint>
#include <deque>
#include <vector>

#include "buffer/buffer.h"
#include "gtest/gtest.h"
#include "tcpip/packet_buffer.h"

namespace ipsum::tcpip::link::internal {
namespace {

PacketBuffer Marked(uint8_t id) {
  const uint8_t b[1] = {id};
  return PacketBuffer(buffer::Buffer::Copy(b));
}

// Ids returns the queue's packets' marks, front first, emptying it.
std::vector<uint8_t> Drain(PacketQueue& q) {
  std::vector<uint8_t> ids;
  while (!q.empty()) {
    ids.push_back(q.front().Flatten().at(0));
    q.pop_front();
  }
  return ids;
}

// Against a std::deque of the marks, with enough pops between pushes that
// push_back compacts its storage.
TEST(PacketQueueTest, IsFirstInFirstOutAcrossCompaction) {
  PacketQueue q;
  std::deque<uint8_t> model;
  uint8_t next = 0;
  for (int round = 0; round < 5; ++round) {
    for (int i = 0; i < 100; ++i) {
      model.push_back(next);
      q.push_back(Marked(next++));
    }
    for (int i = 0; i < 90; ++i) {
      ASSERT_EQ(q.front().Flatten().at(0), model.front()) << "round " << round;
      q.pop_front();
      model.pop_front();
    }
    ASSERT_EQ(q.size(), model.size());
    EXPECT_EQ(q.at(3).Flatten().at(0), model[3]);
  }
  EXPECT_EQ(Drain(q), std::vector<uint8_t>(model.begin(), model.end()));
}

TEST(PacketQueueTest, RemoveFrontKeepsTheMarkedFirstInOrder) {
  PacketQueue q;
  for (uint8_t i = 0; i < 8; ++i) q.push_back(Marked(i));
  // Of the first 6, keep 1, 2 and 4; 6 and 7 were not in the batch.
  const std::array<bool, 6> keep = {false, true, true, false, true, false};
  q.RemoveFront(6, keep);
  EXPECT_EQ(q.size(), 5u);
  q.push_back(Marked(8));
  EXPECT_EQ(Drain(q), (std::vector<uint8_t>{1, 2, 4, 6, 7, 8}));
}

TEST(PacketQueueTest, RemoveFrontOfAllOrNone) {
  PacketQueue q;
  for (uint8_t i = 0; i < 4; ++i) q.push_back(Marked(i));
  const std::array<bool, 4> none = {false, false, false, false};
  q.RemoveFront(4, none);
  EXPECT_TRUE(q.empty());
  for (uint8_t i = 0; i < 4; ++i) q.push_back(Marked(i));
  const std::array<bool, 4> all = {true, true, true, true};
  q.RemoveFront(4, all);
  q.RemoveFront(0, all);
  EXPECT_EQ(Drain(q), (std::vector<uint8_t>{0, 1, 2, 3}));
}

}  // namespace
}  // namespace ipsum::tcpip::link::internal
