// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// PacketBuffer: Push and Consume over the inline header area.

#include "tcpip/packet_buffer.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <utility>

#include "checksum/checksum.h"

namespace ipsum::tcpip {

PacketBuffer::PacketBuffer(buffer::Buffer&& payload, size_t reserve)
    : data_(std::move(payload)) {
  if (reserve > kHeaderCapacity) std::abort();  // Broken invariant.
  bounds_.start = bounds_.end = static_cast<uint16_t>(reserve);
}

PacketBuffer PacketBuffer::FromFrame(buffer::Buffer&& frame) {
  return PacketBuffer(std::move(frame), 0);
}

void PacketBuffer::MoveMetadataFrom(PacketBuffer& other) {
  network_protocol = other.network_protocol;
  transport_protocol = other.transport_protocol;
  checksum_status = other.checksum_status;
  csum_start = other.csum_start;
  csum_offset = other.csum_offset;
  csum = other.csum;
  gso_type = other.gso_type;
  gso_size = other.gso_size;
  bounds_.start = other.bounds_.start;
  bounds_.end = other.bounds_.end;
  bounds_.slots = other.bounds_.slots;
  if (bounds_.end > bounds_.start) {
    std::memcpy(area_.data() + bounds_.start,
                other.area_.data() + bounds_.start,
                size_t{bounds_.end} - bounds_.start);
  }
  other.bounds_.start = other.bounds_.end = kHeaderCapacity;
  other.bounds_.slots = {};
}

std::span<uint8_t> PacketBuffer::Push(Layer layer, size_t n) {
  // Like gVisor's PacketBuffer.push: running out of reserved bytes means
  // the caller reserved too little, a bug, not input.
  if (n > bounds_.start) std::abort();
  bounds_.start = static_cast<uint16_t>(bounds_.start - n);
  bounds_.slots[static_cast<size_t>(layer)] = {bounds_.start,
                                               static_cast<uint16_t>(n)};
  return {area_.data() + bounds_.start, n};
}

void PacketBuffer::TakeFront(uint8_t* dst, size_t n) {
  if (n == 0) return;
  // A NIC's receive buffer holds the headers in its first view: copy them
  // straight from it rather than through the general CopyOut walk.
  const buffer::View& first = data_.views().front();
  if (n <= first.size()) {
    CopyHeaders(dst, first.data(), n);
  } else {
    data_.CopyOut(0, std::span<uint8_t>(dst, n));
  }
  data_.TrimFront(n);
}

std::optional<std::span<uint8_t>> PacketBuffer::Consume(Layer layer, size_t n) {
  // A packet with no headers yet (one built for transmit and looped back)
  // consumes from the start of the header area.
  if (bounds_.start == bounds_.end) bounds_.start = bounds_.end = 0;
  if (n > data_.size() || n > kHeaderCapacity - bounds_.end)
    return std::nullopt;
  std::span<uint8_t> dst(area_.data() + bounds_.end, n);
  TakeFront(dst.data(), n);
  bounds_.slots[static_cast<size_t>(layer)] = {bounds_.end,
                                               static_cast<uint16_t>(n)};
  bounds_.end = static_cast<uint16_t>(bounds_.end + n);
  return dst;
}

bool PacketBuffer::ConsumeHeadersSlow(size_t link, size_t network,
                                      size_t transport) {
  if (bounds_.start == bounds_.end) bounds_.start = bounds_.end = 0;
  // Each length is checked alone first, so that their sum cannot wrap.
  const size_t room = kHeaderCapacity - bounds_.end;
  if (link > room || network > room || transport > room) return false;
  const size_t n = link + network + transport;
  if (n > data_.size() || n > room) return false;
  TakeFront(area_.data() + bounds_.end, n);
  size_t offset = bounds_.end;
  const size_t lengths[] = {link, network, transport};
  for (size_t i = 0; i < 3; ++i) {
    if (lengths[i] == 0) continue;
    bounds_.slots[i] = {static_cast<uint16_t>(offset),
                        static_cast<uint16_t>(lengths[i])};
    offset += lengths[i];
  }
  bounds_.end = static_cast<uint16_t>(offset);
  return true;
}

buffer::Buffer PacketBuffer::ToBuffer() const {
  buffer::Buffer out = data_.Clone();
  if (bounds_.end > bounds_.start) out.Prepend(headers());
  return out;
}

std::optional<uint16_t> PacketBuffer::Checksum(size_t offset, size_t length,
                                               uint16_t initial) const {
  if (offset > size() || length > size() - offset) return std::nullopt;
  std::span<const uint8_t> h = headers();
  uint16_t sum = initial;
  size_t done = 0;
  if (offset < h.size()) {
    done = std::min(h.size() - offset, length);
    sum = checksum::Checksum(h.subspan(offset, done), sum);
    offset = 0;
  } else {
    offset -= h.size();
  }
  if (done < length) {
    std::optional<uint16_t> rest = data_.Checksum(offset, length - done);
    if (!rest) return std::nullopt;
    // The data part starts `done` bytes into the range: an odd start puts
    // its bytes in the other halves of the words (RFC 1071 section 2(B)).
    sum = checksum::CombineAt(sum, *rest, done);
  }
  return sum;
}

bool PacketBuffer::CopyIn(size_t offset, std::span<const uint8_t> src) {
  if (offset > size() || src.size() > size() - offset) return false;
  std::span<uint8_t> h = headers();
  if (offset < h.size()) {
    size_t n = std::min(h.size() - offset, src.size());
    std::memcpy(h.data() + offset, src.data(), n);
    src = src.subspan(n);
    offset = 0;
  } else {
    offset -= h.size();
  }
  return src.empty() || data_.CopyIn(offset, src);
}

std::vector<uint8_t> PacketBuffer::Flatten() const {
  std::vector<uint8_t> out(size());
  std::span<const uint8_t> h = headers();
  if (!h.empty()) std::memcpy(out.data(), h.data(), h.size());
  data_.CopyOut(0, std::span<uint8_t>(out).subspan(h.size()));
  return out;
}

}  // namespace ipsum::tcpip
