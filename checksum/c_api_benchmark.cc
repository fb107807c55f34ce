// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// The C interface (ipsum_checksum.h) at header sizes, called as C programs
// call it, beside the C++ Checksum:
//   BM_CApi/cxx     checksum::Checksum, a direct call into the C++ library;
//   BM_CApi/static  ipsum_checksum from libipsum_checksum.a, a direct call;
//   BM_CApi/shared  ipsum_checksum from libipsum_checksum.so, dlopen'ed and
//                   called through the pointer dlsym returns (a call through
//                   the PLT adds an indirect jump to a direct call);
// Each iteration makes the pointer and the length opaque to the compiler and
// adds the result to a sink: the throughput of independent calls.
//
// BM_CApi/<variant>/len:<bytes>/off:<start offset from a 64-byte boundary>;
// BM_CApiMix/<variant> cycles through every (length 7..64, offset 0..7) in
// a shuffled order, which no branch predictor learns: the cost of the size
// classes' branches when lengths vary.
//
// BM_CApiConstant/<variant>/len:<bytes> is a header's sum, its length a
// constant in the source: `inline` is ipsum_checksum as the header defines
// it (summed inline where it has IPSUM_CHECKSUM_INLINE), `static` and
// `shared` the library's function with the same constant.
//
//   bazel run -c opt //checksum:c_api_benchmark
// (or run the binary with IPSUM_CHECKSUM_SO=<path of libipsum_checksum.so>).

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "benchmark/benchmark.h"
#include "checksum/bench/bytes.h"
#include "checksum/checksum.h"
#include "checksum/ipsum_checksum.h"

namespace {

using SumFn = uint16_t (*)(const void*, size_t, uint16_t);

// LoadShared returns ipsum_checksum of libipsum_checksum.so, dlopen'ed from
// $IPSUM_CHECKSUM_SO or from this binary's runfiles; null if not found.
SumFn LoadShared() {
  std::vector<std::string> paths;
  if (const char* env = std::getenv("IPSUM_CHECKSUM_SO")) paths.push_back(env);
  paths.push_back("checksum/libipsum_checksum.so");  // `bazel run`'s cwd.
  char self[4096];
  const ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
  if (n > 0) {
    paths.push_back(std::string(self, n) +
                    ".runfiles/ipsum/checksum/libipsum_checksum.so");
  }
  for (const std::string& path : paths) {
    if (void* lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL)) {
      return reinterpret_cast<SumFn>(dlsym(lib, "ipsum_checksum"));
    }
  }
  return nullptr;
}

const SumFn shared_sum = LoadShared();

uint16_t CxxSum(const void* p, size_t len, uint16_t initial) {
  return ipsum::checksum::Checksum(p, len, initial);
}

// Variants: how each case calls the sum.
struct Cxx {
  uint16_t operator()(const void* p, size_t n) const { return CxxSum(p, n, 0); }
};
struct Static {
  uint16_t operator()(const void* p, size_t n) const {
    return ipsum_checksum(p, n, 0);
  }
};
struct Shared {
  uint16_t operator()(const void* p, size_t n) const {
    return shared_sum(p, n, 0);
  }
};

template <typename Sum>
void BM_CApi(benchmark::State& state) {
  if (std::is_same_v<Sum, Shared> && shared_sum == nullptr) {
    state.SkipWithError("libipsum_checksum.so not found (IPSUM_CHECKSUM_SO)");
    return;
  }
  const auto len = static_cast<size_t>(state.range(0));
  const auto off = static_cast<size_t>(state.range(1));
  ipsum::checksum::internal::AlignedRandomBytes src(len + off);
  const uint8_t* const base = src.at(off);
  uint32_t sink = 0;
  for (auto _ : state) {
    const uint8_t* p = base;
    size_t n = len;
    asm volatile("" : "+r"(p), "+r"(n));
    sink += Sum()(p, n);
  }
  benchmark::DoNotOptimize(sink);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * len));
}

template <typename Sum>
void BM_CApiMix(benchmark::State& state) {
  if (std::is_same_v<Sum, Shared> && shared_sum == nullptr) {
    state.SkipWithError("libipsum_checksum.so not found (IPSUM_CHECKSUM_SO)");
    return;
  }
  std::vector<std::pair<uint32_t, uint32_t>> cases;  // (offset, length)
  for (uint32_t len = 7; len <= 64; ++len) {
    for (uint32_t off = 0; off < 8; ++off) cases.emplace_back(off, len);
  }
  std::shuffle(cases.begin(), cases.end(), std::mt19937(29));
  ipsum::checksum::internal::AlignedRandomBytes src(128);
  const uint8_t* const base = src.at(0);
  uint32_t sink = 0;
  size_t i = 0;
  int64_t bytes = 0;
  for (auto _ : state) {
    const auto [off, len] = cases[i];
    if (++i == cases.size()) i = 0;
    const uint8_t* p = base + off;
    size_t n = len;
    asm volatile("" : "+r"(p), "+r"(n));
    sink += Sum()(p, n);
    bytes += len;
  }
  benchmark::DoNotOptimize(sink);
  state.SetBytesProcessed(bytes);
}

template <size_t kLen>
struct Constant {
  uint16_t operator()(const void* p) const { return ipsum_checksum(p, kLen, 0); }
};
template <size_t kLen>
struct ConstantStatic {
  uint16_t operator()(const void* p) const {
    return (ipsum_checksum)(p, kLen, 0);
  }
};
template <size_t kLen>
struct ConstantShared {
  uint16_t operator()(const void* p) const { return shared_sum(p, kLen, 0); }
};

template <size_t kLen, template <size_t> class Sum>
void BM_CApiConstant(benchmark::State& state) {
  if (std::is_same_v<Sum<kLen>, ConstantShared<kLen>> &&
      shared_sum == nullptr) {
    state.SkipWithError("libipsum_checksum.so not found (IPSUM_CHECKSUM_SO)");
    return;
  }
  ipsum::checksum::internal::AlignedRandomBytes src(kLen);
  const uint8_t* const base = src.at(0);
  uint32_t sink = 0;
  for (auto _ : state) {
    const uint8_t* p = base;
    asm volatile("" : "+r"(p));
    sink += Sum<kLen>()(p);
  }
  benchmark::DoNotOptimize(sink);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * kLen));
}

template <size_t kLen>
void RegisterConstant() {
  const std::string len = "/len:" + std::to_string(kLen);
  benchmark::RegisterBenchmark(("BM_CApiConstant/inline" + len).c_str(),
                               BM_CApiConstant<kLen, Constant>);
  benchmark::RegisterBenchmark(("BM_CApiConstant/static" + len).c_str(),
                               BM_CApiConstant<kLen, ConstantStatic>);
  benchmark::RegisterBenchmark(("BM_CApiConstant/shared" + len).c_str(),
                               BM_CApiConstant<kLen, ConstantShared>);
}

// Cases are registered length by length with the variants next to each
// other, so that the ones to compare run back to back.
void Register() {
  std::vector<std::pair<int64_t, int64_t>> args;
  for (int64_t len :
       {7, 8, 14, 16, 17, 20, 24, 28, 32, 33, 40, 47, 48, 49, 56, 60, 64}) {
    for (int64_t off : {0, 1, 4}) args.emplace_back(len, off);
  }
  for (const auto& [len, off] : args) {
    benchmark::RegisterBenchmark("BM_CApi/cxx", BM_CApi<Cxx>)
        ->ArgNames({"len", "off"})->Args({len, off});
    benchmark::RegisterBenchmark("BM_CApi/static", BM_CApi<Static>)
        ->ArgNames({"len", "off"})->Args({len, off});
    benchmark::RegisterBenchmark("BM_CApi/shared", BM_CApi<Shared>)
        ->ArgNames({"len", "off"})->Args({len, off});
  }
  benchmark::RegisterBenchmark("BM_CApiMix/cxx", BM_CApiMix<Cxx>);
  benchmark::RegisterBenchmark("BM_CApiMix/static", BM_CApiMix<Static>);
  benchmark::RegisterBenchmark("BM_CApiMix/shared", BM_CApiMix<Shared>);
  // UDP and ICMP headers, IPv4 and TCP headers, a TCP header with
  // timestamps, the IPv6 pseudo-header, a TCP header with every option.
  RegisterConstant<8>();
  RegisterConstant<20>();
  RegisterConstant<32>();
  RegisterConstant<40>();
  RegisterConstant<60>();
}

const bool registered = (Register(), true);

}  // namespace
