// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// The cost of a selection (dispatch.h), which a process pays once, on its
// first checksum:
//
//   BM_SelectAutomatic  Select(""): every supported implementation timed on
//                       each function's workload, the fastest chosen for each
//   BM_SelectForced     Select(<the last supported>): no timing
//
// The one-time cost of the first is measured here, not in dispatch_test,
// which asserts behaviour only.

#include <string>

#include "absl/status/statusor.h"
#include "benchmark/benchmark.h"
#include "checksum/dispatch.h"

namespace ipsum::checksum {
namespace {

void BM_SelectAutomatic(benchmark::State& state) {
  for (auto _ : state) {
    absl::StatusOr<Selection> s = Select("");
    if (!s.ok()) state.SkipWithError(std::string(s.status().message()).c_str());
    benchmark::DoNotOptimize(s);
  }
}
BENCHMARK(BM_SelectAutomatic)->Unit(benchmark::kMicrosecond);

void BM_SelectForced(benchmark::State& state) {
  std::string last;
  for (const ImplementationInfo& info : Report().implementations) {
    if (info.supported) last = info.name;
  }
  for (auto _ : state) {
    absl::StatusOr<Selection> s = Select(last);
    if (!s.ok()) state.SkipWithError(std::string(s.status().message()).c_str());
    benchmark::DoNotOptimize(s);
  }
}
BENCHMARK(BM_SelectForced)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace ipsum::checksum
