// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// PacketQueue: the Endpoint's FIFO of packets to write. Not API.

#ifndef IPSUM_TCPIP_LINK_INTERNAL_PACKET_QUEUE_H_
#define IPSUM_TCPIP_LINK_INTERNAL_PACKET_QUEUE_H_

#include <cstddef>
#include <span>
#include <vector>

#include "tcpip/packet_buffer.h"

namespace ipsum::tcpip::link::internal {

// PacketQueue is a FIFO of packets that keeps its storage: once it has
// held n packets, queueing n again allocates nothing (a deque of packets
// this size allocates a node per packet).
class PacketQueue {
 public:
  bool empty() const { return head_ == items_.size(); }
  size_t size() const { return items_.size() - head_; }
  PacketBuffer& front() { return items_[head_]; }
  // at returns the packet `i` places behind the front (i < size()).
  PacketBuffer& at(size_t i) { return items_[head_ + i]; }
  void push_back(PacketBuffer&& pkt);
  // pop_front releases the front packet's buffers at once.
  void pop_front() { items_[head_++] = PacketBuffer(); }
  // RemoveFront removes the first `k` packets (k <= size(), keep.size()
  // >= k) except those `keep` marks, which stay first, in their order.
  // Removed packets' buffers are released at once.
  void RemoveFront(size_t k, std::span<const bool> keep);

 private:
  std::vector<PacketBuffer> items_;
  size_t head_ = 0;  // items_[0, head_) are spent.
};

}  // namespace ipsum::tcpip::link::internal

#endif  // IPSUM_TCPIP_LINK_INTERNAL_PACKET_QUEUE_H_
