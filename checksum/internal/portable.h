// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// The portable implementation's entry in the implementation table. It runs
// on every CPU and is the fallback the dispatcher always has. The functions
// themselves, PortableSum and PortableCopySum, are declared in impl.h.
// Every fast path declares its own entry the same way, in its own header,
// and implementations.cc lists them.

#ifndef IPSUM_CHECKSUM_INTERNAL_PORTABLE_H_
#define IPSUM_CHECKSUM_INTERNAL_PORTABLE_H_

#include "checksum/internal/impl.h"

namespace ipsum::checksum::internal {

// kPortable is the portable implementation: name "portable", always
// supported, PortableSum and PortableCopySum. Constant-initialized, so it
// may be read during static initialization.
extern const Implementation kPortable;

}  // namespace ipsum::checksum::internal

#endif  // IPSUM_CHECKSUM_INTERNAL_PORTABLE_H_
