// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// The C interface (ipsum_checksum.h). ipsum_checksum is an entry point of
// its own, laid out as checksum::Checksum is, rather than a jump to it: the
// size-class tree of native_sum.h's SumShortOr, up to 64 bytes (the headers
// C stacks sum on every packet), then the implementation chosen at run time.
// ipsum_checksum.lds keeps these two the only exported symbols.

// The definition below is the library's symbol: the header's inline path
// for constant lengths, a macro of the same name, stays out of this file.
#define IPSUM_CHECKSUM_NO_INLINE
#include "checksum/ipsum_checksum.h"

#include <cstddef>
#include <cstdint>

#include "checksum/checksum.h"
#include "checksum/internal/active.h"
#include "checksum/internal/native_sum.h"

extern "C" {

uint16_t ipsum_checksum(const void* buf, size_t len, uint16_t initial) {
  namespace internal = ipsum::checksum::internal;
  return internal::SumShortOr<internal::kShortLimit + 1>(
      static_cast<const uint8_t*>(buf), len, initial, internal::CallActiveSum);
}

uint16_t ipsum_checksum_copy(void* dst, const void* src, size_t len,
                             uint16_t initial) {
  return ipsum::checksum::CopyAndChecksum(static_cast<uint8_t*>(dst),
                                          static_cast<const uint8_t*>(src), len,
                                          initial);
}

}  // extern "C"
