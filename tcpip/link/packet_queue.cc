// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0

#include "tcpip/link/internal/packet_queue.h"

#include <cstddef>
#include <utility>

namespace ipsum::tcpip::link::internal {

void PacketQueue::push_back(PacketBuffer&& pkt) {
  if (head_ == items_.size()) {
    items_.clear();  // Keeps the capacity.
    head_ = 0;
  } else if (head_ >= 64 && 2 * head_ >= items_.size()) {
    // Amortized: at least as many packets were queued since the last move.
    items_.erase(items_.begin(), items_.begin() + static_cast<ptrdiff_t>(head_));
    head_ = 0;
  }
  items_.push_back(std::move(pkt));
}

void PacketQueue::RemoveFront(size_t k, std::span<const bool> keep) {
  size_t w = head_ + k;  // Kept packets fill [w, head_ + k).
  for (size_t i = k; i-- > 0;) {
    if (!keep[i]) continue;
    --w;
    if (w != head_ + i) items_[w] = std::move(items_[head_ + i]);
  }
  for (size_t j = head_; j < w; ++j) items_[j] = PacketBuffer();
  head_ = w;
}

}  // namespace ipsum::tcpip::link::internal
