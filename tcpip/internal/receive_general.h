// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// The receive path's general decoder on its own, for tests and fuzzers.
// ReceiveInPlace first offers a frame to its fast path (receive.cc,
// DecodeFast), which takes the common shape and leaves every other frame
// to the general decoder; this entry point skips the fast path, so that a
// test can check, frame by frame, that both deliver and drop alike.
//
// Not API: only //tcpip's own tests and fuzzers include it.

#ifndef IPSUM_TCPIP_INTERNAL_RECEIVE_GENERAL_H_
#define IPSUM_TCPIP_INTERNAL_RECEIVE_GENERAL_H_

#include "tcpip/receive.h"

namespace ipsum::tcpip::internal {

// ReceiveGeneralForTesting is ReceiveInPlace without the fast path.
bool ReceiveGeneralForTesting(ReceivedPacket& packet, LinkType link,
                              ReceiveStats& stats);

}  // namespace ipsum::tcpip::internal

#endif  // IPSUM_TCPIP_INTERNAL_RECEIVE_GENERAL_H_
