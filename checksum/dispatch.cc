// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// The run-time selection of dispatch.h and the cached function pointers of
// internal/active.h. Nothing here calls an implementation whose supported()
// said no: unsupported entries are listed but never timed or chosen.

#include "checksum/dispatch.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <span>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "checksum/internal/active.h"
#include "checksum/internal/impl.h"

namespace ipsum::checksum {
namespace {

// The selection buffer: a full-size Ethernet payload and a 64-byte one at an
// odd address, the two shapes that dominate a stack's checksum calls.
constexpr size_t kLarge = 1500;
constexpr size_t kSmall = 64;
// Each trial runs kRounds of (one large + one small) sum, long enough (about
// 0.3 us for the fastest) for a clock that ticks every 10-20 ns on some
// virtual machines; the minimum over kTrials trials is kept, which discards
// interrupts and cold caches. Total: tens of microseconds.
constexpr int kRounds = 16;
constexpr int kTrials = 9;
// A later table entry (the table goes from plain to wide) wins unless it is
// more than kTieMargin slower than the best so far: measurement noise must
// not pick SSE2 over AVX2 by a fraction of a percent.
constexpr double kTieMargin = 1.03;

using Clock = std::chrono::steady_clock;

// Speeds is what Measure found: the best trial's time for the sums, and the
// throughputs in GB/s.
struct Speeds {
  double sum_ns;
  double sum_gbps;
  double copy_gbps;
};

// Measure times `impl` (which must be supported) on the selection buffer.
// The calls are independent (initial 0), as a stack's calls for different
// packets are: throughput, not latency.
Speeds Measure(const internal::Implementation& impl) {
  alignas(64) uint8_t src[kLarge + kSmall + 64];
  alignas(64) uint8_t dst[kLarge + kSmall + 64];
  for (size_t i = 0; i < sizeof(src); ++i) {
    src[i] = static_cast<uint8_t>(i * 167 + 13);
  }
  const uint8_t* large = src;
  const uint8_t* small = src + kLarge + 1;
  unsigned sink = impl.sum(large, kLarge, 0) + impl.sum(small, kSmall, 0) +
                  impl.copy_sum(dst, large, kLarge, 0);  // warm up
  double best_sum = std::numeric_limits<double>::infinity();
  double best_copy = best_sum;
  for (int t = 0; t < kTrials; ++t) {
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
    best_sum = std::min(
        best_sum, std::chrono::duration<double, std::nano>(t1 - t0).count());
    best_copy = std::min(
        best_copy, std::chrono::duration<double, std::nano>(t2 - t1).count());
  }
  __asm__ volatile("" : : "r"(sink));  // Keep the calls' results alive.
  // Guard against a clock too coarse to see a trial.
  best_sum = std::max(best_sum, 1.0);
  best_copy = std::max(best_copy, 1.0);
  const double bytes = double{kRounds} * (kLarge + kSmall);
  return {best_sum, bytes / best_sum, bytes / best_copy};
}

std::string SupportedNames(std::span<const internal::Implementation> table) {
  std::string names;
  for (const internal::Implementation& impl : table) {
    if (!impl.supported()) continue;
    if (!names.empty()) names += ", ";
    names += impl.name;
  }
  return names;
}

const Selection& ProcessSelection() {
  // Leaked on purpose: usable until the very end of the process, including
  // from other objects' destructors.
  static const Selection* const selection = new Selection(
      internal::SelectFromEnvironment(std::getenv(kImplementationEnvVar)));
  return *selection;
}

void Install(const Selection& s) {
  internal::active_sum.store(s.sum, std::memory_order_relaxed);
  internal::active_copy_sum.store(s.copy_sum, std::memory_order_relaxed);
  internal::active_sum_pieces.store(s.sum_pieces, std::memory_order_relaxed);
}

uint16_t ResolveSum(const uint8_t* data, size_t len, uint16_t initial) {
  const Selection& s = ProcessSelection();
  Install(s);
  return s.sum(data, len, initial);
}

uint16_t ResolveCopySum(uint8_t* dst, const uint8_t* src, size_t len,
                        uint16_t initial) {
  const Selection& s = ProcessSelection();
  Install(s);
  return s.copy_sum(dst, src, len, initial);
}

uint16_t ResolveSumPieces(const std::span<const uint8_t>* pieces, size_t count,
                          size_t stride, uint16_t initial) {
  const Selection& s = ProcessSelection();
  Install(s);
  return s.sum_pieces(pieces, count, stride, initial);
}

}  // namespace

namespace internal {

constinit std::atomic<SumFn> active_sum{&ResolveSum};
constinit std::atomic<CopySumFn> active_copy_sum{&ResolveCopySum};
constinit std::atomic<SumPiecesFn> active_sum_pieces{&ResolveSumPieces};

}  // namespace internal

absl::StatusOr<Selection> internal::SelectFrom(
    std::span<const internal::Implementation> table, std::string_view forced) {
  Selection s;
  s.implementations.reserve(table.size());
  for (const internal::Implementation& impl : table) {
    ImplementationInfo info;
    info.name = impl.name;
    info.supported = impl.supported();
    s.implementations.push_back(std::move(info));
  }

  size_t chosen = table.size();
  if (!forced.empty()) {
    for (size_t i = 0; i < table.size(); ++i) {
      if (forced == table[i].name) chosen = i;
    }
    if (chosen == table.size()) {
      std::string names;
      for (const internal::Implementation& impl : table) {
        if (!names.empty()) names += ", ";
        names += impl.name;
      }
      return absl::NotFoundError("unknown checksum implementation \"" +
                                 std::string(forced) +
                                 "\"; built in: " + names);
    }
    if (!s.implementations[chosen].supported) {
      return absl::FailedPreconditionError(
          "checksum implementation \"" + std::string(forced) +
          "\" is not supported by this CPU; supported: " +
          SupportedNames(table));
    }
    s.forced = true;
  } else {
    double best_ns = std::numeric_limits<double>::infinity();
    for (size_t i = 0; i < table.size(); ++i) {
      if (!s.implementations[i].supported) continue;
      const Speeds speeds = Measure(table[i]);
      s.implementations[i].sum_gbps = speeds.sum_gbps;
      s.implementations[i].copy_gbps = speeds.copy_gbps;
      if (speeds.sum_ns <= best_ns * kTieMargin) {
        chosen = i;
        best_ns = std::min(best_ns, speeds.sum_ns);
      }
    }
  }
  // The table is never empty and portable is always supported.
  s.name = table[chosen].name;
  s.sum = table[chosen].sum;
  s.copy_sum = table[chosen].copy_sum;
  s.sum_pieces = table[chosen].sum_pieces;
  s.implementations[chosen].chosen = true;
  return s;
}

Selection internal::SelectFromEnvironment(const char* value) {
  absl::StatusOr<Selection> s = Select(value != nullptr ? value : "");
  if (s.ok()) return *std::move(s);
  std::string error(s.status().message());
  std::fprintf(stderr, "ipsum: %s refused: %s; choosing automatically\n",
               kImplementationEnvVar, error.c_str());
  s = Select("");  // Cannot fail: portable is always supported.
  s->error = std::move(error);
  return *std::move(s);
}

absl::StatusOr<Selection> Select(std::string_view forced) {
  return internal::SelectFrom(internal::CompiledImplementations(), forced);
}

const Selection& Report() {
  const Selection& s = ProcessSelection();
  Install(s);
  return s;
}

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
                    "  %-12s supported    sum %6.1f GB/s  copy %6.1f GB/s",
                    info.name.c_str(), info.sum_gbps, info.copy_gbps);
    } else {
      std::snprintf(line, sizeof(line), "  %-12s %s", info.name.c_str(),
                    info.supported ? "supported" : "unsupported by this CPU");
    }
    out += line;
    if (info.chosen) out += s.forced ? "  <- chosen (forced)" : "  <- chosen";
    out += "\n";
  }
  if (!s.error.empty()) out += "  refused: " + s.error + "\n";
  return out;
}

}  // namespace ipsum::checksum
