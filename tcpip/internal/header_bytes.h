// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// The out-of-line half of HeaderBytes (receive.h), which is inline.
//
// Not API: only receive.h and //tcpip's own sources include it.

#ifndef IPSUM_TCPIP_INTERNAL_HEADER_BYTES_H_
#define IPSUM_TCPIP_INTERNAL_HEADER_BYTES_H_

#include <cstdint>
#include <span>

#include "tcpip/packet_buffer.h"

namespace ipsum::tcpip {

struct VerifiedFrame;

namespace internal {

// CopyHeaderBytes is HeaderBytes' copy into `scratch`, for headers that
// run past the frame's first view.
std::span<const uint8_t> CopyHeaderBytes(
    const PacketBuffer& frame, const VerifiedFrame& v,
    std::span<uint8_t, PacketBuffer::kHeaderCapacity> scratch);

}  // namespace internal
}  // namespace ipsum::tcpip

#endif  // IPSUM_TCPIP_INTERNAL_HEADER_BYTES_H_
