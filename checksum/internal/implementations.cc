// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// The table of checksum implementations built into this binary (impl.h).
// Each implementation lives in its own source file and Bazel target and
// declares its `Implementation` in its own header (portable.h, ...). To add
// one: include its header under the same `#if` that selects its target in
// BUILD.bazel, and list its entry in the table under that `#if`. Entries are
// listed whether or not this CPU supports them; callers ask `supported()`.

#include <span>

#include "checksum/internal/impl.h"
#include "checksum/internal/portable.h"

// Fast-path headers, one per instruction set, go here, each under the guard
// of the architecture its target is built for.
#if defined(__x86_64__)
#include "checksum/internal/x86.h"
#endif
#if defined(__aarch64__)
#include "checksum/internal/arm64_neon.h"
#endif

namespace ipsum::checksum::internal {

std::span<const Implementation> CompiledImplementations() {
  // A function-local static: the entries are defined in other translation
  // units, and this copy is made on first use, after they are initialized,
  // even when the first use is another file's static initializer (the
  // benchmark registers one benchmark per entry that way).
  static const Implementation kTable[] = {
    kPortable,  // First, always: the fallback.
#if defined(__x86_64__)
    // x86-64 fast paths.
    kX86Sse2,
    kX86Adx,
    kX86Avx2,
    kX86Avx512,
#endif
#if defined(__aarch64__)
    // AArch64 fast paths.
    kArm64Neon,
#endif
  };
  return kTable;
}

}  // namespace ipsum::checksum::internal
