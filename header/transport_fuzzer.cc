// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Fuzzes the transport and link headers on their own: TCP (options
// included), UDP, ICMPv4, ICMPv6 and Ethernet (with its IP payload). The
// first input byte selects the parser (and, for the transports, IPv4 or
// IPv6 for the pseudo-header); the rest is the header and payload, as on the
// wire. The checks are header/internal/fuzz_checks.h's; the bytes sit in an
// exact-size heap block, so ASan catches any overread.

#include <cstddef>
#include <cstdint>

#include "header/internal/fuzz_checks.h"
#include "testing/fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace ipsum::header::fuzzing;
  if (size == 0) return 0;
  const uint8_t selector = data[0];
  ipsum::fuzz::AlignedCopy bytes({data + 1, size - 1}, selector >> 5);
  const Knobs knobs = MakeKnobs(bytes.span());
  const bool v6 = (selector & 8) != 0;
  const Pseudo pseudo = MakePseudo(v6, knobs);
  switch (selector & 7) {
    case 0:
      CheckTCP(bytes.span(), pseudo, /*whole=*/true, knobs);
      break;
    case 1:
      CheckUDP(bytes.span(), pseudo, /*whole=*/true, knobs);
      break;
    case 2:
      CheckICMPv4(bytes.span(), knobs, /*depth=*/0);
      break;
    case 3:
      CheckICMPv6(bytes.span(), MakePseudo(/*v6=*/true, knobs), /*whole=*/true,
                  knobs, /*depth=*/0);
      break;
    case 4:
      CheckTCPOptions(
          bytes.span().first(bytes.size() < 40 ? bytes.size() : 40));
      break;
    default:
      CheckEthernet(bytes.span(), knobs);
      break;
  }
  return 0;
}
