// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// The receive path's general decoder on its own, for tests and fuzzers.
// ReceiveInPlace first offers a frame to its fast path (receive.cc,
// DecodeFast), which takes the common shape and leaves every other frame
// to the general decoder; this entry point skips the fast path, so that a
// test can check, frame by frame, that both deliver and drop alike.
//
// Also what verify.cc (VerifyFrame) shares with receive.cc: the general
// decoder, and how much and how far ahead the receive loops prefetch.
//
// Not API: only //tcpip's own sources, tests and fuzzers include it.

#ifndef IPSUM_TCPIP_INTERNAL_RECEIVE_GENERAL_H_
#define IPSUM_TCPIP_INTERNAL_RECEIVE_GENERAL_H_

#include <cstddef>

#include "tcpip/receive.h"

namespace ipsum::tcpip::internal {

// kReceivePrefetchBytes is how much of a frame the receive paths prefetch
// before verifying it in software: a standard Ethernet frame (receive.cc).
inline constexpr size_t kReceivePrefetchBytes = 1536;

// kReceiveBurstAhead is how many frames ahead of the one it decodes
// ReceiveBurst (and VerifyBurst) requests a frame's lines, and
// kReceiveBurstAhead + 1 how many ahead the lines of its Buffer; measured
// in receive.cc.
inline constexpr size_t kReceiveBurstAhead = 2;

// DecodeGeneral is the general decoder alone: ReceiveGeneralForTesting
// without counting the packet in stats.received.
bool DecodeGeneral(ReceivedPacket& packet, LinkType link, ReceiveStats& stats);

// ReceiveGeneralForTesting is ReceiveInPlace without the fast path.
bool ReceiveGeneralForTesting(ReceivedPacket& packet, LinkType link,
                              ReceiveStats& stats);

}  // namespace ipsum::tcpip::internal

#endif  // IPSUM_TCPIP_INTERNAL_RECEIVE_GENERAL_H_
