// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// What Receive (receive.cc) and VerifyFrame (verify.cc) share besides the
// fast classification: one's-complement checks, drop counting, and how
// much and how far ahead the receive loops prefetch.
//
// Not API: only //tcpip's own sources include it.

#ifndef IPSUM_TCPIP_INTERNAL_RECEIVE_COMMON_H_
#define IPSUM_TCPIP_INTERNAL_RECEIVE_COMMON_H_

#include <cstddef>
#include <cstdint>
#include <span>

#include "buffer/buffer.h"
#include "checksum/endian.h"
#include "header/protocol.h"
#include "header/tcp.h"
#include "tcpip/fast_shape.h"
#include "tcpip/packet_buffer.h"
#include "tcpip/receive.h"

namespace ipsum::tcpip::internal {

// kReceivePrefetchBytes is how much of a frame the receive paths prefetch
// before verifying it in software: a standard Ethernet frame. The lines
// of a longer frame are fetched by the checksum's own loads.
inline constexpr size_t kReceivePrefetchBytes = 1536;

// kReceiveBurstAhead is how many frames ahead of the one they decode the
// burst loops request a frame's lines, and kReceiveBurstAhead + 1 how many
// ahead the lines of its Buffer (where the frame's views lie): far enough
// for a frame's memory latency to overlap the work on the two before it.
inline constexpr size_t kReceiveBurstAhead = 2;

// CountDrop counts a dropped packet for `reason`.
inline void CountDrop(ReceiveStats& stats, DropReason reason) {
  ++stats.dropped[static_cast<size_t>(reason)];
}

// AtParity returns `sum`, the sum of bytes that start `offset` bytes into
// a checksummed range, as it counts in the range's sum: byte-swapped when
// the offset is odd (RFC 1071 section 2(B)). It is its own inverse.
inline uint16_t AtParity(uint16_t sum, size_t offset) {
  return (offset & 1) ? ByteSwap16(sum) : sum;
}

// IsOnesComplementZero reports whether `sum` is zero in one's-complement
// arithmetic, where 0x0000 and 0xffff are both zero (RFC 1624 section 3):
// a check by subtraction may leave either.
inline bool IsOnesComplementZero(uint16_t sum) {
  return sum == 0 || sum == 0xffff;
}

// DecodeTCPInfo decodes `tcp` into `info` (default-constructed), options
// included, and returns true, or returns false for a malformed option list.
// The aligned timestamps layout is read directly; header::ParseTCPOptions
// gives the same result for it.
inline bool DecodeTCPInfo(const header::TCP& tcp, TCPInfo& info) {
  const std::span<const uint8_t> area = tcp.options();
  if (IsAlignedTimestamps(area)) {
    info.options.timestamps =
        header::TCPTimestamps{LoadBig32(&area[4]), LoadBig32(&area[8])};
  } else if (!area.empty()) {
    header::Result<header::TCPOptions> parsed = header::ParseTCPOptions(area);
    if (!parsed.ok()) return false;
    info.options = *parsed;
  }
  info.seq = tcp.seq();
  info.ack = tcp.ack();
  info.flags = tcp.flags();
  info.window = tcp.window();
  info.urgent_pointer = tcp.urgent_pointer();
  return true;
}

// RequestLines starts the lines the receive path will read of `frame` on
// their way, and returns at once: with kFrame, the first
// kReceivePrefetchBytes when software will sum the frame, else the line
// that holds its headers; with kHeaders only that line.
template <BurstPrefetch kPolicy>
[[gnu::always_inline]] inline void RequestLines(const PacketBuffer& frame) {
  static_assert(kPolicy == BurstPrefetch::kFrame ||
                kPolicy == BurstPrefetch::kHeaders);
  const buffer::Buffer& data = frame.data();
  if (kPolicy == BurstPrefetch::kFrame &&
      frame.checksum_status == ChecksumStatus::kNone) {
    data.Prefetch(kReceivePrefetchBytes);
  } else if (data.view_count() != 0) {
    __builtin_prefetch(data.views()[0].data());
  }
}

// RequestBufferLines starts the lines of `frame`'s Buffer, which say
// where its views lie, on their way.
[[gnu::always_inline]] inline void RequestBufferLines(
    const PacketBuffer& frame) {
  const char* const views = reinterpret_cast<const char*>(&frame.data());
  __builtin_prefetch(views);
  __builtin_prefetch(views + 64);
}

}  // namespace ipsum::tcpip::internal

#endif  // IPSUM_TCPIP_INTERNAL_RECEIVE_COMMON_H_
