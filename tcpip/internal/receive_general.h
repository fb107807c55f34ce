// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// The receive path's general decoder on its own. ReceiveInPlace first
// offers a frame to the fast classification (receive_fast.h), which takes
// the common shape and leaves every other frame to this decoder; the
// entry points here skip the fast path, so that VerifyFrame can judge the
// other frames with Receive's own code and a test can check, frame by
// frame, that both paths deliver and drop alike.
//
// Not API: only //tcpip's own sources, tests and fuzzers include it.

#ifndef IPSUM_TCPIP_INTERNAL_RECEIVE_GENERAL_H_
#define IPSUM_TCPIP_INTERNAL_RECEIVE_GENERAL_H_

#include "tcpip/receive.h"

namespace ipsum::tcpip::internal {

// DecodeGeneral is the general decoder alone: ReceiveGeneralForTesting
// without counting the packet in stats.received.
bool DecodeGeneral(ReceivedPacket& packet, LinkType link, ReceiveStats& stats);

// ReceiveGeneralForTesting is ReceiveInPlace without the fast path.
bool ReceiveGeneralForTesting(ReceivedPacket& packet, LinkType link,
                              ReceiveStats& stats);

}  // namespace ipsum::tcpip::internal

#endif  // IPSUM_TCPIP_INTERNAL_RECEIVE_GENERAL_H_
