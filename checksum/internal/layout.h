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
// padding is never executed. A short sum takes a few cycles, so one more
// fetch block, or a branch straddling two, is a visible share of it: without
// the pin the time of one size class moved with unrelated code. The
// instructions are the same with and without it (docs/design.md).
#if defined(__GNUC__) && !defined(__clang__)
#define IPSUM_PINNED_LAYOUT \
  [[gnu::aligned(64), gnu::optimize("align-jumps=32")]]
#else
#define IPSUM_PINNED_LAYOUT [[gnu::aligned(64)]]
#endif

#endif  // IPSUM_CHECKSUM_INTERNAL_LAYOUT_H_
