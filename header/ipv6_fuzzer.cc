// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Fuzzes IPv6 parsing, the extension-header walk, encoding, and whatever
// TCP, UDP or ICMPv6 payload (with its quoted packet) the input carries. The
// input is an IPv6 packet, as on the wire; the checks are
// header/internal/fuzz_checks.h's. The bytes sit in an exact-size heap
// block at an input-dependent alignment, so ASan catches any overread.

#include <cstddef>
#include <cstdint>

#include "header/internal/fuzz_checks.h"
#include "testing/fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace ipsum::header::fuzzing;
  ipsum::fuzz::AlignedCopy bytes({data, size}, size % 8);
  CheckIPv6(bytes.span(), MakeKnobs(bytes.span()));
  return 0;
}
