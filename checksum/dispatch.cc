// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// dispatch.h over the selection that //checksum makes (internal/select.h):
// its refusals as Abseil status codes, and the report for humans.

#include "checksum/dispatch.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "checksum/internal/select.h"
#include "checksum/selection.h"

namespace ipsum::checksum {

using internal::kFunctionNames;
using internal::kFunctions;

absl::StatusOr<Selection> Select(std::string_view forced) {
  Selection s;
  std::string error;
  switch (internal::ChooseCompiled(forced, s, &error)) {
    case internal::Refusal::kNone:
      return s;
    case internal::Refusal::kMalformed:
      return absl::InvalidArgumentError(error);
    case internal::Refusal::kUnknown:
      return absl::NotFoundError(error);
    case internal::Refusal::kUnsupported:
      return absl::FailedPreconditionError(error);
  }
  return absl::InternalError(error);
}

const Selection& Report() { return internal::ProcessSelection(); }

std::string FormatReport() {
  const Selection& s = Report();
  std::string out = "checksum implementations (";
  const char* env = std::getenv(kImplementationEnvVar);
  if (env == nullptr) {
    out += std::string(kImplementationEnvVar) + " unset";
  } else {
    out += std::string(kImplementationEnvVar) + "=" + env;
  }
  out += "):\n";
  for (const ImplementationInfo& info : s.implementations) {
    char line[160];
    if (info.supported && info.sum_gbps > 0) {
      std::snprintf(line, sizeof(line),
                    "  %-12s supported    sum %6.1f GB/s  copy %6.1f GB/s  "
                    "pieces %6.1f GB/s",
                    info.name.c_str(), info.sum_gbps, info.copy_gbps,
                    info.pieces_gbps);
    } else {
      std::snprintf(line, sizeof(line), "  %-12s %s", info.name.c_str(),
                    info.supported ? "supported" : "unsupported by this CPU");
    }
    out += line;
    const bool chosen_for[kFunctions] = {
        info.chosen_for_sum, info.chosen_for_copy, info.chosen_for_pieces};
    const char* separator = "  <- chosen for ";
    for (int f = 0; f < kFunctions; ++f) {
      if (!chosen_for[f]) continue;
      out += separator;
      out += kFunctionNames[f];
      separator = ", ";
    }
    out += "\n";
  }
  const std::string* names[kFunctions] = {&s.sum_name, &s.copy_name,
                                          &s.pieces_name};
  const bool forced[kFunctions] = {s.sum_forced, s.copy_forced,
                                   s.pieces_forced};
  out += "  chosen:";
  for (int f = 0; f < kFunctions; ++f) {
    out += std::string(f == 0 ? " " : ", ") + kFunctionNames[f] + " " +
           *names[f] + (forced[f] ? " (forced)" : "");
  }
  out += "\n";
  if (!s.error.empty()) out += "  refused: " + s.error + "\n";
  return out;
}

}  // namespace ipsum::checksum
