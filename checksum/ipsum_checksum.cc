// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// The C interface (ipsum_checksum.h): thin wrappers over checksum::Checksum
// and checksum::CopyAndChecksum. ipsum_checksum.lds keeps these two the only
// exported symbols of libipsum_checksum.so.

#include "checksum/ipsum_checksum.h"

#include <cstddef>
#include <cstdint>

#include "checksum/checksum.h"

extern "C" {

uint16_t ipsum_checksum(const void* buf, size_t len, uint16_t initial) {
  return ipsum::checksum::Checksum(buf, len, initial);
}

uint16_t ipsum_checksum_copy(void* dst, const void* src, size_t len,
                             uint16_t initial) {
  return ipsum::checksum::CopyAndChecksum(static_cast<uint8_t*>(dst),
                                          static_cast<const uint8_t*>(src), len,
                                          initial);
}

}  // extern "C"
