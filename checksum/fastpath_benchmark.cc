// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Benchmarks for the fast paths beyond checksum_benchmark.cc's per-length
// table, each registered for every implementation in the table (an
// implementation this CPU lacks reports an error instead of running):
//
//   BM_ReadBaseline/len:N     the bandwidth limit: an AVX2 loop that only
//                             reads the bytes (read_baseline_avx2.h); the
//                             target is sum >= 0.7x of it at 1500 B..64 KiB.
//   BM_ReadBaseline512/len:N  the same with 512-bit loads
//                             (read_baseline_avx512.h), where supported.
//   BM_ReadOps512/len:N/ops:M the 512-bit read loop with M (8 or 16)
//                             vector operations per 512 bytes: 16 is the
//                             fewest an exact sum needs, its floor here.
//   BM_InCache/<impl>/len:N   the same lengths as BM_ReadBaseline (1500
//                             .. 64 KiB), in the same run, for the ratio.
//   BM_Interleaved/<impl>/... alternates two (length, offset) pairs on every
//                             call, so no branch on the length is predicted
//                             from the previous call: a stack's real mix of
//                             headers and payloads.
//   BM_OutOfCache/<impl>/...  4 MiB and 64 MiB, larger than L2 and than any
//                             last-level cache we run on: memory bandwidth.
//   BM_CopyOutOfCache/<impl>  the fused copy at the same sizes, next to
//   BM_MemcpyOutOfCache       memcpy of the same bytes.
//   BM_ShortChecksum/len:N/off:M  the public Checksum (dispatch included)
//   BM_ShortMemcpy/len:N/off:M    on 7..40 bytes at `off` past a 64-byte
//                                 boundary, next to memcpy of the same
//                                 bytes (header-sized lengths and offsets).
//   BM_InterleavedChecksum/...    the public Checksum, and memcpy, with
//   BM_InterleavedMemcpy/...      BM_Interleaved's pairs and loop.
//
//   bazel run -c opt //checksum:fastpath_benchmark -- --benchmark_filter=Inter

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "benchmark/benchmark.h"
#include "checksum/bench/bytes.h"
#include "checksum/bench/read_baseline_avx2.h"
#include "checksum/bench/read_baseline_avx512.h"
#include "checksum/bench/vector_ops.h"
#include "checksum/checksum.h"
#include "checksum/internal/impl.h"

namespace ipsum::checksum {
namespace {

using internal::CompiledImplementations;
using internal::Implementation;

using Buffer = internal::AlignedRandomBytes;

constexpr int64_t k4MiB = int64_t{4} << 20;
constexpr int64_t k64MiB = int64_t{64} << 20;

void BM_ReadBaseline(benchmark::State& state) {
  if (!ReadBaselineSupported()) {
    state.SkipWithError("needs x86-64 with AVX2");
    return;
  }
  const auto len = static_cast<size_t>(state.range(0));
  Buffer buf(len);
  const uint8_t* p = buf.at(0);
  for (auto _ : state) {
    benchmark::DoNotOptimize(p);
    benchmark::DoNotOptimize(ReadBaselineAvx2(p, len));
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * len));
}

// BM_ReadBaseline512 is BM_ReadBaseline with 512-bit loads
// (read_baseline_avx512.h): the limit for the AVX-512 implementation.
void BM_ReadBaseline512(benchmark::State& state) {
  if (!ReadBaseline512Supported()) {
    state.SkipWithError("needs x86-64 with AVX-512F and AVX-512BW");
    return;
  }
  const auto len = static_cast<size_t>(state.range(0));
  Buffer buf(len);
  const uint8_t* p = buf.at(0);
  for (auto _ : state) {
    benchmark::DoNotOptimize(p);
    benchmark::DoNotOptimize(ReadBaselineAvx512(p, len));
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * len));
}

#if defined(__x86_64__)
// ReadOps512 reads data[0, len), len >= 64, as BM_ReadBaseline512's loop
// does, eight 64-byte loads per 512 bytes, but with `ops` (8 or 16)
// independent vector operations per 512 bytes on the loaded data (an add
// into an accumulator per vector, and for 16 an average as well) instead of
// one OR each; then 64-byte steps and the last 64 bytes (overlapping), with
// ops / 8 operations each. In assembly, so that this file needs no AVX-512
// flag; run only where the CPU has AVX-512F and BW.
void ReadOps512(const uint8_t* p, size_t len, int ops) {
  const uint8_t* const end = p + (len & ~size_t{511});
  const uint8_t* const last = p + len - 64;
  // The loop over 512-byte steps, then the whole vectors before the last 64
  // bytes of the buffer and, if any bytes are left, those (overlapping),
  // each vector with its share of the operations (one for 8, two for 16).
#define IPSUM_READ(OPS, ONE)                                  \
  __asm__ volatile(                                           \
      "cmpq %[end], %[p]\n\t"                                 \
      "jae 2f\n\t"                                            \
      "1:\n\t"                                                \
      ".irp i, 0, 1, 2, 3, 4, 5, 6, 7\n\t"                    \
      "vmovdqu64 64 * \\i(%[p]), %%zmm\\i\n\t"                \
      ".endr\n\t" OPS                                         \
      "addq $512, %[p]\n\t"                                   \
      "cmpq %[end], %[p]\n\t"                                 \
      "jb 1b\n\t"                                             \
      "jmp 2f\n\t"                                            \
      "3:\n\t"                                                \
      "vmovdqu64 (%[p]), %%zmm0\n\t" ONE                      \
      "addq $64, %[p]\n\t"                                    \
      "2:\n\t"                                                \
      "cmpq %[last], %[p]\n\t"                                \
      "jb 3b\n\t"                                             \
      "cmpq %[stop], %[p]\n\t"                                \
      "jae 4f\n\t"                                            \
      "vmovdqu64 (%[last]), %%zmm0\n\t" ONE "4:\n\t"          \
      : [p] "+r"(p)                                           \
      : [end] "r"(end), [last] "r"(last), [stop] "r"(p + len) \
      : IPSUM_BENCH_CLOBBERS)
  if (ops == 8) {
    IPSUM_READ(IPSUM_BENCH_ADDS("zmm"), "vpaddq %%zmm0, %%zmm8, %%zmm8\n\t");
  } else {
    IPSUM_READ(IPSUM_BENCH_ADDS("zmm") IPSUM_BENCH_AVGS("zmm"),
               "vpaddq %%zmm0, %%zmm8, %%zmm8\n\t"
               "vpavgw %%zmm0, %%zmm8, %%zmm0\n\t");
  }
#undef IPSUM_READ
  __asm__ volatile("vzeroupper" ::: "memory");
}

// BM_ReadOps512 is BM_ReadBaseline512 with the fewest vector operations an
// exact sum needs (ops:16: an add per 64 bytes for the lanes and one for
// the carries they drop; x86_avx512's loop has 17 per 512 bytes) or half of
// them (ops:8), and nothing else: what no AVX-512 sum can go below on this
// core. On a core with two 512-bit vector pipes it is the operations, not
// the loads, that bound ops:16.
void BM_ReadOps512(benchmark::State& state) {
  if (!ReadBaseline512Supported()) {
    state.SkipWithError("needs x86-64 with AVX-512F and AVX-512BW");
    return;
  }
  const auto len = static_cast<size_t>(state.range(0));
  const auto ops = static_cast<int>(state.range(1));
  Buffer buf(len);
  const uint8_t* p = buf.at(0);
  for (auto _ : state) {
    benchmark::DoNotOptimize(p);
    ReadOps512(p, len, ops);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * len));
}
#endif

// BM_Interleaved alternates (len0, off0) and (len1, off1) on every call.
void BM_Interleaved(benchmark::State& state, const Implementation* impl) {
  if (!impl->supported()) {
    state.SkipWithError("implementation not supported by this CPU");
    return;
  }
  const size_t len[2] = {static_cast<size_t>(state.range(0)),
                         static_cast<size_t>(state.range(2))};
  const size_t off[2] = {static_cast<size_t>(state.range(1)),
                         static_cast<size_t>(state.range(3))};
  Buffer buf(len[0] + len[1] + 128);
  const uint8_t* p[2] = {buf.at(off[0]), buf.at(64 + len[0] + off[1])};
  size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(p[i]);
    benchmark::DoNotOptimize(impl->sum(p[i], len[i], 0));
    i ^= 1;
  }
  state.SetBytesProcessed(
      static_cast<int64_t>(state.iterations() * (len[0] + len[1]) / 2));
}

// BM_InterleavedChecksum is BM_Interleaved through the public Checksum.
void BM_InterleavedChecksum(benchmark::State& state) {
  const size_t len[2] = {static_cast<size_t>(state.range(0)),
                         static_cast<size_t>(state.range(2))};
  const size_t off[2] = {static_cast<size_t>(state.range(1)),
                         static_cast<size_t>(state.range(3))};
  Buffer buf(len[0] + len[1] + 128);
  const uint8_t* p[2] = {buf.at(off[0]), buf.at(64 + len[0] + off[1])};
  size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(p[i]);
    benchmark::DoNotOptimize(Checksum(p[i], len[i], 0));
    i ^= 1;
  }
  state.SetBytesProcessed(
      static_cast<int64_t>(state.iterations() * (len[0] + len[1]) / 2));
}

// BM_InterleavedMemcpy copies what BM_InterleavedChecksum sums, in the same
// loop: its baseline.
void BM_InterleavedMemcpy(benchmark::State& state) {
  const size_t len[2] = {static_cast<size_t>(state.range(0)),
                         static_cast<size_t>(state.range(2))};
  const size_t off[2] = {static_cast<size_t>(state.range(1)),
                         static_cast<size_t>(state.range(3))};
  Buffer buf(len[0] + len[1] + 128), dst(len[0] + len[1]);
  const uint8_t* p[2] = {buf.at(off[0]), buf.at(64 + len[0] + off[1])};
  uint8_t* q = dst.at(0);
  size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(p[i]);
    benchmark::DoNotOptimize(q);
    std::memcpy(q, p[i], len[i]);
    benchmark::ClobberMemory();
    i ^= 1;
  }
  state.SetBytesProcessed(
      static_cast<int64_t>(state.iterations() * (len[0] + len[1]) / 2));
}

void InterleavedPairs(benchmark::internal::Benchmark* b) {
  b->ArgNames({"len0", "off0", "len1", "off1"});
  b->Args({40, 0, 1500, 2});   // TCP/IP headers, then a full segment.
  b->Args({14, 3, 20, 0});     // Ethernet header at an odd offset, IPv4.
  b->Args({7, 1, 63, 6});      // Both short, different 8/4/2/1 tails.
  b->Args({64, 0, 255, 5});    // Around the short and alignment cutoffs.
  b->Args({576, 1, 9000, 0});  // Minimum IPv4 MTU, a jumbo frame.
}

// BM_OutOfCache times one sum of len bytes at a 64-byte boundary (also
// registered as BM_InCache for lengths that fit in L1/L2).
void BM_OutOfCache(benchmark::State& state, const Implementation* impl) {
  if (!impl->supported()) {
    state.SkipWithError("implementation not supported by this CPU");
    return;
  }
  const auto len = static_cast<size_t>(state.range(0));
  Buffer buf(len);
  const uint8_t* p = buf.at(0);
  for (auto _ : state) {
    benchmark::DoNotOptimize(p);
    benchmark::DoNotOptimize(impl->sum(p, len, 0));
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * len));
}

void BM_CopyOutOfCache(benchmark::State& state, const Implementation* impl) {
  if (!impl->supported()) {
    state.SkipWithError("implementation not supported by this CPU");
    return;
  }
  const auto len = static_cast<size_t>(state.range(0));
  Buffer src(len), dst(len);
  for (auto _ : state) {
    benchmark::DoNotOptimize(impl->copy_sum(dst.at(0), src.at(0), len, 0));
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * len));
}

void BM_MemcpyOutOfCache(benchmark::State& state) {
  const auto len = static_cast<size_t>(state.range(0));
  Buffer src(len), dst(len);
  for (auto _ : state) {
    std::memcpy(dst.at(0), src.at(0), len);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * len));
}

void BM_ShortChecksum(benchmark::State& state) {
  const auto len = static_cast<size_t>(state.range(0));
  const auto off = static_cast<size_t>(state.range(1));
  Buffer buf(len + off);
  const uint8_t* p = buf.at(off);
  for (auto _ : state) {
    benchmark::DoNotOptimize(p);
    benchmark::DoNotOptimize(Checksum(p, len));
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * len));
}

void BM_ShortMemcpy(benchmark::State& state) {
  const auto len = static_cast<size_t>(state.range(0));
  const auto off = static_cast<size_t>(state.range(1));
  Buffer src(len + off), dst(len);
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

// ShortCases: (length, offset) pairs of a stack's headers: an odd length at
// an odd offset, a UDP header, an Ethernet header at three offsets, an IPv4
// header, IPv4 and UDP at an odd offset, IPv4 and TCP.
void ShortCases(benchmark::internal::Benchmark* b) {
  b->ArgNames({"len", "off"});
  b->Args({7, 1});
  b->Args({8, 4});
  b->Args({14, 0});
  b->Args({14, 3});
  b->Args({14, 4});
  b->Args({20, 0});
  b->Args({28, 1});
  b->Args({40, 0});
}

// InCacheLengths registers the lengths at which BM_InCache is compared with
// the read baselines: an MTU (1500, and 1536 = 3 x 512), powers of two up to
// 64 KiB, and the odd tails 32767 and 65535.
void InCacheLengths(benchmark::internal::Benchmark* b) {
  for (int64_t len :
       {1500, 1536, 2048, 4096, 8192, 16384, 32767, 32768, 65535, 65536}) {
    b->Arg(len);
  }
}

BENCHMARK(BM_ReadBaseline)
    ->ArgName("len")
    ->Apply(InCacheLengths)
    ->Arg(k4MiB)
    ->Arg(k64MiB);
BENCHMARK(BM_ReadBaseline512)
    ->ArgName("len")
    ->Apply(InCacheLengths)
    ->Arg(k4MiB)
    ->Arg(k64MiB);
#if defined(__x86_64__)
BENCHMARK(BM_ReadOps512)
    ->ArgNames({"len", "ops"})
    ->ArgsProduct({{1500, 2048, 4096, 16384, 65536}, {8, 16}});
#endif
BENCHMARK(BM_MemcpyOutOfCache)->ArgName("len")->Arg(k4MiB)->Arg(k64MiB);
BENCHMARK(BM_ShortChecksum)->Apply(ShortCases);
BENCHMARK(BM_ShortMemcpy)->Apply(ShortCases);
BENCHMARK(BM_InterleavedChecksum)->Apply(InterleavedPairs);
BENCHMARK(BM_InterleavedMemcpy)->Apply(InterleavedPairs);

// Register registers the per-implementation benchmarks.
// CompiledImplementations() is safe to call during static initialization.
const bool kRegistered = [] {
  for (const Implementation& impl : CompiledImplementations()) {
    const std::string name = impl.name;
    benchmark::RegisterBenchmark(("BM_Interleaved/" + name).c_str(),
                                 BM_Interleaved, &impl)
        ->Apply(InterleavedPairs);
    benchmark::RegisterBenchmark(("BM_InCache/" + name).c_str(), BM_OutOfCache,
                                 &impl)
        ->ArgName("len")
        ->Apply(InCacheLengths);
    benchmark::RegisterBenchmark(("BM_OutOfCache/" + name).c_str(),
                                 BM_OutOfCache, &impl)
        ->ArgName("len")
        ->Arg(k4MiB)
        ->Arg(k64MiB);
    benchmark::RegisterBenchmark(("BM_CopyOutOfCache/" + name).c_str(),
                                 BM_CopyOutOfCache, &impl)
        ->ArgName("len")
        ->Arg(k4MiB)
        ->Arg(k64MiB);
  }
  return true;
}();

}  // namespace
}  // namespace ipsum::checksum
