// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Fuzzes IPv4 parsing (options included), encoding and checksum updates, and
// whatever TCP, UDP or ICMPv4 payload (with its quoted datagram) the input
// carries. The input is an IPv4 datagram, as on the wire; the checks are
// header/internal/fuzz_checks.h's. The bytes sit in an exact-size heap
// block at an input-dependent alignment, so ASan catches any overread.

#include <cstddef>
#include <cstdint>

#include "header/internal/fuzz_checks.h"
#include "testing/fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace ipsum::header::fuzzing;
  ipsum::fuzz::AlignedCopy bytes({data, size}, size % 8);
  CheckIPv4(bytes.span(), MakeKnobs(bytes.span()));
  return 0;
}
