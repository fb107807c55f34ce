// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// The AArch64 NEON (Advanced SIMD) path: its entry in the implementation
// table. The code is in arm64_neon.cc. Declared on AArch64 only.

#ifndef IPSUM_CHECKSUM_INTERNAL_ARM64_NEON_H_
#define IPSUM_CHECKSUM_INTERNAL_ARM64_NEON_H_

#include "checksum/internal/impl.h"

namespace ipsum::checksum::internal {

#if defined(__aarch64__)
// kArm64Neon is "arm64_neon": 128-bit vectors, pairwise add-accumulate.
// Supported when the kernel reports HWCAP_ASIMD (always, on AArch64 Linux).
extern const Implementation kArm64Neon;
#endif

}  // namespace ipsum::checksum::internal

#endif  // IPSUM_CHECKSUM_INTERNAL_ARM64_NEON_H_
