// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// The selection of internal/select.h and the cached function pointers of
// internal/active.h. Nothing here calls an implementation whose supported()
// said no: unsupported entries are listed but never timed or chosen.

#include "checksum/internal/select.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "checksum/internal/active.h"
#include "checksum/internal/impl.h"

namespace ipsum::checksum::internal {
namespace {

// The workloads: a full-size Ethernet payload and a 64-byte one at an odd
// address, the two shapes that dominate a stack's checksum calls; for the
// sum of pieces the same bytes as a segment in three views and a 64-byte
// one in two, each list led by a piece of odd length, as the lists are that
// ChecksumPieces hands to the implementation whole (an even header piece
// it sums on its own).
constexpr size_t kLarge = 1500;
constexpr size_t kSmall = 64;
// Each trial runs kRounds of (one large + one small) call, so that even the
// fastest implementation's trial spans many ticks of a coarse virtual
// machine clock; the minimum over kTrials trials is kept, which discards
// interrupts and cold caches. The selection's cost is dispatch_benchmark's.
constexpr int kRounds = 16;
constexpr int kTrials = 9;
// A later table entry (the table goes from plain to wide) wins unless it is
// more than kTieMargin slower than the best so far: measurement noise must
// not pick SSE2 over AVX2 by a fraction of a percent.
constexpr double kTieMargin = 1.03;

using Clock = std::chrono::steady_clock;

// Speeds is what Measure found for each function: the best trial's time and
// the throughput in GB/s.
struct Speeds {
  double ns[kFunctions];
  double gbps[kFunctions];
};

// Nanoseconds returns the time from t0 to t1.
double Nanoseconds(Clock::time_point t0, Clock::time_point t1) {
  return std::chrono::duration<double, std::nano>(t1 - t0).count();
}

// Measure times `impl` (which must be supported) on each function's
// workload. The calls are independent (initial 0), as a stack's calls for
// different packets are: throughput, not latency.
Speeds Measure(const Implementation& impl) {
  alignas(64) uint8_t src[kLarge + kSmall + 64];
  alignas(64) uint8_t dst[kLarge + kSmall + 64];
  for (size_t i = 0; i < sizeof(src); ++i) {
    src[i] = static_cast<uint8_t>(i * 167 + 13);
  }
  const uint8_t* large = src;
  const uint8_t* small = src + kLarge + 1;
  const std::span<const uint8_t> large_pieces[] = {
      {large, 511}, {large + 511, 600}, {large + 1111, kLarge - 1111}};
  const std::span<const uint8_t> small_pieces[] = {{small, 31},
                                                   {small + 31, kSmall - 31}};
  constexpr size_t kStride = sizeof(std::span<const uint8_t>);
  unsigned sink = 0;
  double best[kFunctions];
  for (double& b : best) b = std::numeric_limits<double>::infinity();
  for (int t = -1; t < kTrials; ++t) {  // Trial -1 warms up.
    const Clock::time_point t0 = Clock::now();
    for (int r = 0; r < kRounds; ++r) {
      sink += impl.sum(large, kLarge, 0);
      sink += impl.sum(small, kSmall, 0);
    }
    const Clock::time_point t1 = Clock::now();
    for (int r = 0; r < kRounds; ++r) {
      sink += impl.copy_sum(dst, large, kLarge, 0);
      sink += impl.copy_sum(dst + kLarge + 1, small, kSmall, 0);
    }
    const Clock::time_point t2 = Clock::now();
    for (int r = 0; r < kRounds; ++r) {
      sink += impl.sum_pieces(large_pieces, 3, kStride, 0);
      sink += impl.sum_pieces(small_pieces, 2, kStride, 0);
    }
    const Clock::time_point t3 = Clock::now();
    if (t < 0) continue;
    best[kSum] = std::min(best[kSum], Nanoseconds(t0, t1));
    best[kCopy] = std::min(best[kCopy], Nanoseconds(t1, t2));
    best[kPieces] = std::min(best[kPieces], Nanoseconds(t2, t3));
  }
  __asm__ volatile("" : : "r"(sink));  // Keep the calls' results alive.
  Speeds speeds;
  const double bytes = double{kRounds} * (kLarge + kSmall);
  for (int f = 0; f < kFunctions; ++f) {
    // Guard against a clock too coarse to see a trial.
    speeds.ns[f] = std::max(best[f], 1.0);
    speeds.gbps[f] = bytes / speeds.ns[f];
  }
  return speeds;
}

// Forced is a parsed IPSUM_CHECKSUM_IMPL: the implementation named for
// each function, empty where the choice is left to measurement.
struct Forced {
  std::string_view name[kFunctions];
};

// ParseForced parses IPSUM_CHECKSUM_IMPL's syntax (dispatch.h): items
// separated by commas, each `name` or `function:name`. Returns nullopt,
// with the reason in `*error`, for a malformed value.
std::optional<Forced> ParseForced(std::string_view value, std::string* error) {
  Forced forced;
  if (value.empty()) return forced;
  std::string_view bare;
  bool named[kFunctions] = {};
  size_t start = 0;
  while (start <= value.size()) {
    size_t end = value.find(',', start);
    if (end == std::string_view::npos) end = value.size();
    const std::string_view item = value.substr(start, end - start);
    start = end + 1;
    const size_t colon = item.find(':');
    const std::string_view name =
        colon == std::string_view::npos ? item : item.substr(colon + 1);
    const auto invalid = [&](const std::string& why) {
      *error = "malformed checksum implementation \"" + std::string(value) +
               "\": " + why;
      return std::nullopt;
    };
    if (name.empty()) return invalid("empty implementation name");
    if (colon == std::string_view::npos) {
      if (!bare.empty()) return invalid("more than one name for all functions");
      bare = name;
      continue;
    }
    const std::string_view function = item.substr(0, colon);
    int f = 0;
    while (f < kFunctions && function != kFunctionNames[f]) ++f;
    if (f == kFunctions) {
      return invalid("unknown function \"" + std::string(function) +
                     "\" (sum, copy or pieces)");
    }
    if (named[f]) {
      return invalid("\"" + std::string(function) + "\" given twice");
    }
    named[f] = true;
    forced.name[f] = name;
  }
  for (std::string_view& name : forced.name) {
    if (name.empty()) name = bare;
  }
  return forced;
}

std::string Names(std::span<const Implementation> table, bool supported_only) {
  std::string names;
  for (const Implementation& impl : table) {
    if (supported_only && !impl.supported()) continue;
    if (!names.empty()) names += ", ";
    names += impl.name;
  }
  return names;
}

// The implementations HideForTesting hides from the selection.
std::vector<std::string>& Hidden() {
  static std::vector<std::string>* const hidden = new std::vector<std::string>;
  return *hidden;
}

bool Unsupported() { return false; }

// The process-wide selection, made on first use. Leaked on purpose: usable
// until the very end of the process, including from other objects'
// destructors.
const Selection& Made() {
  static const Selection* const selection =
      new Selection(SelectFromEnvironment(std::getenv(kImplementationEnvVar)));
  return *selection;
}

uint16_t ResolveSum(const uint8_t* data, size_t len, uint16_t initial) {
  return ProcessSelection().sum(data, len, initial);
}

uint16_t ResolveCopySum(uint8_t* dst, const uint8_t* src, size_t len,
                        uint16_t initial) {
  return ProcessSelection().copy_sum(dst, src, len, initial);
}

uint16_t ResolveSumPieces(const std::span<const uint8_t>* pieces, size_t count,
                          size_t stride, uint16_t initial) {
  return ProcessSelection().sum_pieces(pieces, count, stride, initial);
}

}  // namespace

constinit std::atomic<SumFn> active_sum{&ResolveSum};
constinit std::atomic<CopySumFn> active_copy_sum{&ResolveCopySum};
constinit std::atomic<SumPiecesFn> active_sum_pieces{&ResolveSumPieces};

const Selection& ProcessSelection() {
  const Selection& s = Made();
  active_sum.store(s.sum, std::memory_order_relaxed);
  active_copy_sum.store(s.copy_sum, std::memory_order_relaxed);
  active_sum_pieces.store(s.sum_pieces, std::memory_order_relaxed);
  return s;
}

void HideForTesting(std::vector<std::string> names) {
  Hidden() = std::move(names);
}

Refusal Choose(std::span<const Implementation> table, std::string_view forced,
               Selection& out, std::string* error) {
  const std::optional<Forced> parsed = ParseForced(forced, error);
  if (!parsed) return Refusal::kMalformed;
  Selection s;
  s.implementations.reserve(table.size());
  for (const Implementation& impl : table) {
    ImplementationInfo info;
    info.name = impl.name;
    info.supported = impl.supported();
    s.implementations.push_back(std::move(info));
  }

  // chosen[f] is the table index chosen for function f.
  size_t chosen[kFunctions];
  bool measure = false;
  for (int f = 0; f < kFunctions; ++f) {
    const std::string_view name = parsed->name[f];
    chosen[f] = table.size();
    if (name.empty()) {
      measure = true;
      continue;
    }
    for (size_t i = 0; i < table.size(); ++i) {
      if (name == table[i].name) chosen[f] = i;
    }
    if (chosen[f] == table.size()) {
      *error = "unknown checksum implementation \"" + std::string(name) +
               "\"; built in: " + Names(table, false);
      return Refusal::kUnknown;
    }
    if (!s.implementations[chosen[f]].supported) {
      *error =
          "checksum implementation \"" + std::string(name) +
          "\" is not supported by this CPU; supported: " + Names(table, true);
      return Refusal::kUnsupported;
    }
  }
  if (measure) {
    double best_ns[kFunctions];
    for (double& b : best_ns) b = std::numeric_limits<double>::infinity();
    for (size_t i = 0; i < table.size(); ++i) {
      if (!s.implementations[i].supported) continue;
      const Speeds speeds = Measure(table[i]);
      s.implementations[i].sum_gbps = speeds.gbps[kSum];
      s.implementations[i].copy_gbps = speeds.gbps[kCopy];
      s.implementations[i].pieces_gbps = speeds.gbps[kPieces];
      for (int f = 0; f < kFunctions; ++f) {
        if (!parsed->name[f].empty()) continue;
        if (speeds.ns[f] <= best_ns[f] * kTieMargin) {
          chosen[f] = i;
          best_ns[f] = std::min(best_ns[f], speeds.ns[f]);
        }
      }
    }
  }
  // The table is never empty and portable is always supported, so every
  // function has a choice.
  s.sum_name = table[chosen[kSum]].name;
  s.sum_forced = !parsed->name[kSum].empty();
  s.sum = table[chosen[kSum]].sum;
  s.implementations[chosen[kSum]].chosen_for_sum = true;
  s.copy_name = table[chosen[kCopy]].name;
  s.copy_forced = !parsed->name[kCopy].empty();
  s.copy_sum = table[chosen[kCopy]].copy_sum;
  s.implementations[chosen[kCopy]].chosen_for_copy = true;
  s.pieces_name = table[chosen[kPieces]].name;
  s.pieces_forced = !parsed->name[kPieces].empty();
  s.sum_pieces = table[chosen[kPieces]].sum_pieces;
  s.implementations[chosen[kPieces]].chosen_for_pieces = true;
  out = std::move(s);
  return Refusal::kNone;
}

Refusal ChooseCompiled(std::string_view forced, Selection& out,
                       std::string* error) {
  const std::span<const Implementation> compiled = CompiledImplementations();
  const std::vector<std::string>& hidden = Hidden();
  if (hidden.empty()) return Choose(compiled, forced, out, error);
  std::vector<Implementation> table(compiled.begin(), compiled.end());
  for (Implementation& impl : table) {
    if (std::find(hidden.begin(), hidden.end(), impl.name) != hidden.end()) {
      impl.supported = &Unsupported;
    }
  }
  return Choose(table, forced, out, error);
}

Selection SelectFromEnvironment(const char* value) {
  Selection s;
  std::string error;
  if (ChooseCompiled(value != nullptr ? value : "", s, &error) ==
      Refusal::kNone) {
    return s;
  }
  std::fprintf(stderr, "ipsum: %s refused: %s; choosing automatically\n",
               kImplementationEnvVar, error.c_str());
  std::string unused;
  ChooseCompiled("", s, &unused);  // Cannot fail: portable always runs.
  s.error = std::move(error);
  return s;
}

}  // namespace ipsum::checksum::internal
