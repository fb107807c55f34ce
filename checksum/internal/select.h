// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// The process-wide selection behind internal/active.h's pointers, and the
// table-driven choice it shares with dispatch.h's Select, without Abseil: a
// program that only sums depends on //checksum, which makes this selection
// on first use, and not on //checksum:dispatch's status types.
//
// Not API: only //checksum's own sources and tests include it.

#ifndef IPSUM_CHECKSUM_INTERNAL_SELECT_H_
#define IPSUM_CHECKSUM_INTERNAL_SELECT_H_

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "checksum/internal/impl.h"
#include "checksum/selection.h"

namespace ipsum::checksum::internal {

// The three functions a selection chooses, and their names in
// IPSUM_CHECKSUM_IMPL.
enum Function { kSum, kCopy, kPieces, kFunctions };
inline constexpr const char* kFunctionNames[kFunctions] = {"sum", "copy",
                                                           "pieces"};

// Refusal is why a forced choice was refused; dispatch.h's Select turns it
// into a status code.
enum class Refusal {
  kNone,         // accepted
  kMalformed,    // InvalidArgumentError
  kUnknown,      // NotFoundError
  kUnsupported,  // FailedPreconditionError
};

// Choose is dispatch.h's Select over `table` (non-empty, its first entry
// always supported: the portable one): fills in `out` and returns kNone,
// or returns why `forced` is refused, with the message in `*error`.
Refusal Choose(std::span<const Implementation> table, std::string_view forced,
               Selection& out, std::string* error);

// ChooseCompiled is Choose over CompiledImplementations(), less those
// hidden by HideForTesting.
Refusal ChooseCompiled(std::string_view forced, Selection& out,
                       std::string* error);

// SelectFromEnvironment is the process-wide selection given the value of
// IPSUM_CHECKSUM_IMPL (null when unset): ChooseCompiled(value), or, when
// that refuses it, a line on stderr and an automatic choice whose `error`
// says why.
Selection SelectFromEnvironment(const char* value);

// ProcessSelection returns the process-wide selection, made on first use,
// and installs its functions behind internal/active.h's pointers.
const Selection& ProcessSelection();

// HideForTesting makes the selection treat the named implementations as
// unsupported by this CPU: never timed, never chosen, refused when forced.
// For tests only: call it before any other thread uses the dispatcher, and
// before the first checksum for it to affect the process-wide selection.
// An empty list hides none.
void HideForTesting(std::vector<std::string> names);

}  // namespace ipsum::checksum::internal

#endif  // IPSUM_CHECKSUM_INTERNAL_SELECT_H_
