// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// IPSUM_PINNED_LAYOUT, for the entry points that inline native_sum.h's
// SumShortOr. Not API: only //checksum's own sources include it.

#ifndef IPSUM_CHECKSUM_INTERNAL_LAYOUT_H_
#define IPSUM_CHECKSUM_INTERNAL_LAYOUT_H_

// IPSUM_PINNED_LAYOUT places a function's code on fixed 32-byte fetch
// blocks, whatever address the linker gives it: the function starts on a
// 64-byte boundary and every block reached only by a jump (the size-class
// tree's nodes and classes, each after a `ret`) on a 32-byte one; the
// padding is never executed. At about six cycles a call, a path that
// touches one more block, or takes a branch that straddles two, costs a
// cycle, so with GCC's defaults (functions on 16 bytes, jump targets on 8)
// the time of one size class moved with unrelated code: the same
// instructions at the four 16-byte placements modulo 64 (fastpath_benchmark
// relinked with a pad before checksum.o) ran 28 bytes in 1.45-1.51 ns at
// two and up to 1.75 ns at the other two, 20 bytes likewise up to 1.71 ns.
// The instructions are the same with and without it (objdump).
#if defined(__GNUC__) && !defined(__clang__)
#define IPSUM_PINNED_LAYOUT \
  [[gnu::aligned(64), gnu::optimize("align-jumps=32")]]
#else
#define IPSUM_PINNED_LAYOUT [[gnu::aligned(64)]]
#endif

#endif  // IPSUM_CHECKSUM_INTERNAL_LAYOUT_H_
