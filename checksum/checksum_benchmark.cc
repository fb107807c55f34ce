// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Benchmarks for the Internet checksum. Every implementation in
// CompiledImplementations() is registered from the table at start-up (so a
// new fast path appears here without an edit), next to the public Checksum
// and the byte-by-byte reference, and every fused copy-and-sum next to
// memcpy of the same bytes. Where this CPU lacks an implementation's
// instructions its benchmarks report an error instead of running.
//
// Names say what they time: BM_Sum/<implementation>/len:<bytes>/off:<start
// offset from a 64-byte boundary>. Lengths are 64, 128, ... 65536, plus 1500
// (an Ethernet MTU), 32767 and 65535 (odd tails), and the short cases of
// real headers: 1400/0, 40/0 (IPv6 or TCP), 8/4 (UDP header), 14/0, 14/4,
// 14/3 (Ethernet header, aligned or not) and 7/1.
//
//   bazel run -c opt //checksum:checksum_benchmark -- --benchmark_filter=Sum/

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "benchmark/benchmark.h"
#include "checksum/checksum.h"
#include "checksum/internal/impl.h"
#include "checksum/internal/reference.h"

namespace ipsum::checksum {
namespace {

using internal::CompiledImplementations;
using internal::CopySumFn;
using internal::Implementation;
using internal::SumFn;

// Bytes is a heap buffer of random bytes whose `at(offset)` is `offset`
// bytes past a 64-byte boundary.
class Bytes {
 public:
  explicit Bytes(size_t size) : storage_(size + 64) {
    std::mt19937_64 rng(size);
    for (uint8_t& b : storage_) b = static_cast<uint8_t>(rng());
    const auto addr = reinterpret_cast<uintptr_t>(storage_.data());
    base_ = storage_.data() + (64 - addr % 64) % 64;
  }

  uint8_t* at(size_t offset) { return base_ + offset; }

 private:
  std::vector<uint8_t> storage_;
  uint8_t* base_;
};

// Lengths registers the lengths and start offsets each benchmark runs at.
void Lengths(benchmark::internal::Benchmark* b) {
  b->ArgNames({"len", "off"});
  for (int64_t len = 64; len <= 65536; len *= 2) b->Args({len, 0});
  for (int64_t len : {1500, 32767, 65535}) b->Args({len, 0});
  constexpr int64_t kShort[][2] = {{1400, 0}, {40, 0}, {8, 4}, {14, 0},
                                   {14, 4},   {14, 3}, {7, 1}};
  for (const auto& [len, off] : kShort) b->Args({len, off});
}

// BM_Sum times `sum` over len bytes at offset `off`.
void BM_Sum(benchmark::State& state, bool (*supported)(), SumFn sum) {
  if (!supported()) {
    state.SkipWithError("implementation not supported by this CPU");
    return;
  }
  const auto len = static_cast<size_t>(state.range(0));
  const auto off = static_cast<size_t>(state.range(1));
  Bytes src(len + off);
  const uint8_t* p = src.at(off);
  for (auto _ : state) {
    benchmark::DoNotOptimize(p);
    benchmark::DoNotOptimize(sum(p, len, 0));
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * len));
}

// BM_CopySum times `copy_sum` from len bytes at offset `off` to a 64-byte
// aligned destination.
void BM_CopySum(benchmark::State& state, bool (*supported)(),
                CopySumFn copy_sum) {
  if (!supported()) {
    state.SkipWithError("implementation not supported by this CPU");
    return;
  }
  const auto len = static_cast<size_t>(state.range(0));
  const auto off = static_cast<size_t>(state.range(1));
  Bytes src(len + off);
  Bytes dst(len);
  const uint8_t* p = src.at(off);
  uint8_t* q = dst.at(0);
  for (auto _ : state) {
    benchmark::DoNotOptimize(p);
    benchmark::DoNotOptimize(copy_sum(q, p, len, 0));
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * len));
}

// BM_Memcpy is the baseline for BM_CopySum: memcpy of the same bytes.
void BM_Memcpy(benchmark::State& state) {
  const auto len = static_cast<size_t>(state.range(0));
  const auto off = static_cast<size_t>(state.range(1));
  Bytes src(len + off);
  Bytes dst(len);
  const uint8_t* p = src.at(off);
  uint8_t* q = dst.at(0);
  for (auto _ : state) {
    benchmark::DoNotOptimize(p);
    benchmark::DoNotOptimize(q);
    std::memcpy(q, p, len);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * len));
}

bool Always() { return true; }

// PublicChecksum is checksum::Checksum as a SumFn.
uint16_t PublicChecksum(const uint8_t* data, size_t len, uint16_t initial) {
  return Checksum(data, len, initial);
}

// Register registers every benchmark. CompiledImplementations() is safe to
// call during static initialization.
const bool kRegistered = [] {
  for (const Implementation& impl : CompiledImplementations()) {
    benchmark::RegisterBenchmark((std::string("BM_Sum/") + impl.name).c_str(),
                                 BM_Sum, impl.supported, impl.sum)
        ->Apply(Lengths);
  }
  benchmark::RegisterBenchmark("BM_Sum/Checksum", BM_Sum, Always,
                               PublicChecksum)
      ->Apply(Lengths);
  benchmark::RegisterBenchmark("BM_Sum/reference", BM_Sum, Always,
                               internal::ReferenceSum)
      ->Apply(Lengths);
  for (const Implementation& impl : CompiledImplementations()) {
    benchmark::RegisterBenchmark(
        (std::string("BM_CopySum/") + impl.name).c_str(), BM_CopySum,
        impl.supported, impl.copy_sum)
        ->Apply(Lengths);
  }
  benchmark::RegisterBenchmark("BM_Memcpy", BM_Memcpy)->Apply(Lengths);
  return true;
}();

}  // namespace
}  // namespace ipsum::checksum
