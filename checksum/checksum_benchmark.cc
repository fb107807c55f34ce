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
// BM_CopyAvx2/len:<bytes>/off:0/ops:<0, 8, 16> (x86-64) copies with the
// loads and stores of the AVX2 copy+sum and, instead of the checksum, 0, 8
// or 16 vector operations per 256 bytes: its floor.
//
// BM_CopyAvx512/len:<bytes>/off:0/ops:<0, 8, 16> (x86-64 with AVX-512) is
// the same for the AVX-512 copy+sum, per 512 bytes.
//
// BM_SumPieces/<implementation>/bytes:1500/pieces:<1, 3, 17> times the sum
// of a list of pieces (ChecksumPieces), pieces:1 being the contiguous case.
//
//   bazel run -c opt //checksum:checksum_benchmark -- --benchmark_filter=Sum/

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "benchmark/benchmark.h"
#include "checksum/bench/bytes.h"
#include "checksum/bench/vector_ops.h"
#include "checksum/checksum.h"
#include "checksum/internal/impl.h"
#include "checksum/internal/reference.h"

namespace ipsum::checksum {
namespace {

using internal::CompiledImplementations;
using internal::CopySumFn;
using internal::Implementation;
using internal::SumFn;

using Bytes = internal::AlignedRandomBytes;

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

#if defined(__x86_64__)
// CopyFloor copies src[0, len), len >= kVector, to dst with the loads and
// stores of a fused copy+sum loop and `ops` (0, 8 or 16) independent vector
// operations per step of eight vectors on the loaded data instead of the
// checksum (bench/vector_ops.h): each vector stored right after its load,
// then single vectors and the last kVector bytes (overlapping), which have
// no operations. kVector 32: X86Avx2CopySum's loop (17 operations per 256
// bytes), needs AVX2; kVector 64: X86Avx512CopySum's (17 per 512 bytes),
// needs AVX-512F and BW.
template <int kVector>
void CopyFloor(uint8_t* dst, const uint8_t* src, size_t len, int ops) {
  static_assert(kVector == 32 || kVector == 64);
  constexpr size_t kStep = 8 * kVector;
  const uint8_t* const end = src + len / kStep * kStep;
#define IPSUM_COPY_LOOP(R, MOV, VEC, OPS)                                   \
  __asm__ volatile(                                                         \
      "1:\n\t"                                                              \
      ".irp i, 0, 1, 2, 3, 4, 5, 6, 7\n\t" MOV " " VEC " * \\i(%[s]), %%" R \
      "\\i\n\t" MOV " %%" R "\\i, " VEC                                     \
      " * \\i(%[d])\n\t"                                                    \
      ".endr\n\t" OPS                                                       \
      "addq %[step], %[s]\n\t"                                              \
      "addq %[step], %[d]\n\t"                                              \
      "cmpq %[end], %[s]\n\t"                                               \
      "jb 1b\n\t"                                                           \
      : [s] "+r"(src), [d] "+r"(dst)                                        \
      : [end] "r"(end), [step] "i"(kStep)                                   \
      : IPSUM_BENCH_CLOBBERS)
#define IPSUM_COPY_ONE(R, MOV, S, D)                                   \
  __asm__ volatile(MOV " (%[s]), %%" R "0\n\t" MOV " %%" R "0, (%[d])" \
                   :                                                   \
                   : [s] "r"(S), [d] "r"(D)                            \
                   : "memory", "xmm0")
#define IPSUM_COPY_ALL(R, MOV, VEC)                                          \
  if (src < end) {                                                           \
    if (ops == 0) {                                                          \
      IPSUM_COPY_LOOP(R, MOV, VEC, "");                                      \
    } else if (ops == 8) {                                                   \
      IPSUM_COPY_LOOP(R, MOV, VEC, IPSUM_BENCH_ADDS(R));                     \
    } else {                                                                 \
      IPSUM_COPY_LOOP(R, MOV, VEC, IPSUM_BENCH_ADDS(R) IPSUM_BENCH_AVGS(R)); \
    }                                                                        \
  }                                                                          \
  len %= kStep;                                                              \
  for (; len >= kVector; len -= kVector, src += kVector, dst += kVector) {   \
    IPSUM_COPY_ONE(R, MOV, src, dst);                                        \
  }                                                                          \
  if (len > 0) IPSUM_COPY_ONE(R, MOV, src + len - kVector, dst + len - kVector)
  if constexpr (kVector == 32) {
    IPSUM_COPY_ALL("ymm", "vmovdqu", "32");
  } else {
    IPSUM_COPY_ALL("zmm", "vmovdqu64", "64");
  }
#undef IPSUM_COPY_ALL
#undef IPSUM_COPY_ONE
#undef IPSUM_COPY_LOOP
  __asm__ volatile("vzeroupper" ::: "memory");
}

// BM_CopyFloor<kVector> times CopyFloor<kVector>, the loads and stores of a
// fused copy+sum without the checksum (ops:0) and with 8 or 16 vector
// operations per step in its place (ops:8, ops:16), next to BM_Memcpy
// (which glibc does with 64-byte AVX-512 stores up to 2 KiB and with rep
// movsb above, which writes whole lines without reading them first).
// Registered as BM_CopyAvx2 (kVector 32), the floor for
// BM_CopySum/x86_avx2, and BM_CopyAvx512 (kVector 64), the floor for
// BM_CopySum/x86_avx512. A checksum needs an add per vector and something
// per vector that keeps the carries: 17 operations per step in both loops,
// and at least 16 in any exact one, so on a core with two 512-bit vector
// pipes BM_CopyAvx512's ops:16 is what the fused copy cannot go below
// (docs/design.md, "The carry bound of the vector sums").
template <int kVector>
void BM_CopyFloor(benchmark::State& state) {
  const bool supported = kVector == 32 ? __builtin_cpu_supports("avx2")
                                       : __builtin_cpu_supports("avx512f") &&
                                             __builtin_cpu_supports("avx512bw");
  if (!supported) {
    state.SkipWithError(kVector == 32
                            ? "needs x86-64 with AVX2"
                            : "needs x86-64 with AVX-512F and AVX-512BW");
    return;
  }
  const auto len = static_cast<size_t>(state.range(0));
  const auto off = static_cast<size_t>(state.range(1));
  const auto ops = static_cast<int>(state.range(2));
  Bytes src(len + off);
  Bytes dst(len);
  const uint8_t* p = src.at(off);
  uint8_t* q = dst.at(0);
  for (auto _ : state) {
    benchmark::DoNotOptimize(p);
    benchmark::DoNotOptimize(q);
    CopyFloor<kVector>(q, p, len, ops);
    benchmark::ClobberMemory();
  }
  // A floor that copied fewer bytes would be a lower one: its copy is held
  // to memcpy's.
  if (std::memcmp(q, p, len) != 0) {
    state.SkipWithError("CopyFloor did not copy the source exactly");
    return;
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * len));
}
#endif

// BM_SumPieces times `sum_pieces` over `bytes` bytes held as `pieces`
// pieces, each at the start of its own 64-byte aligned 4 KiB block (as
// separate chunks of a buffer), every piece but the last of odd length.
// pieces:1 is the contiguous sum through the same entry point.
void BM_SumPieces(benchmark::State& state, bool (*supported)(),
                  internal::SumPiecesFn sum_pieces) {
  if (!supported()) {
    state.SkipWithError("implementation not supported by this CPU");
    return;
  }
  const auto bytes = static_cast<size_t>(state.range(0));
  const auto count = static_cast<size_t>(state.range(1));
  constexpr size_t kBlock = 4096;
  Bytes src(count * kBlock + bytes);
  std::vector<std::span<const uint8_t>> pieces;
  const size_t each = (bytes / count) | 1;
  for (size_t i = 0, at = 0; i < count; ++i) {
    const size_t n = (i + 1 == count) ? bytes - at : each;
    pieces.emplace_back(src.at(i * kBlock), n);
    at += n;
  }
  for (auto _ : state) {
    const std::span<const uint8_t>* p = pieces.data();
    benchmark::DoNotOptimize(p);
    benchmark::DoNotOptimize(sum_pieces(p, count, sizeof(*p), 0));
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes));
}

bool Always() { return true; }

// PublicChecksumPieces is checksum::ChecksumPieces as a SumPiecesFn.
uint16_t PublicChecksumPieces(const std::span<const uint8_t>* pieces,
                              size_t count, size_t stride, uint16_t initial) {
  return ChecksumPieces(pieces, count, stride, initial);
}

// PieceCounts registers 1500 bytes (an Ethernet MTU) as 1, 3 and 17 pieces.
void PieceCounts(benchmark::internal::Benchmark* b) {
  b->ArgsProduct({{1500}, {1, 3, 17}})->ArgNames({"bytes", "pieces"});
}

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
#if defined(__x86_64__)
  benchmark::RegisterBenchmark("BM_CopyAvx2", BM_CopyFloor<32>)
      ->ArgNames({"len", "off", "ops"})
      ->ArgsProduct({{1500, 4096, 16384, 32768, 65536}, {0}, {0, 8, 16}});
  benchmark::RegisterBenchmark("BM_CopyAvx512", BM_CopyFloor<64>)
      ->ArgNames({"len", "off", "ops"})
      ->ArgsProduct({{1500, 2048, 8192, 16384, 32768, 65536}, {0}, {0, 8, 16}});
#endif
  for (const Implementation& impl : CompiledImplementations()) {
    benchmark::RegisterBenchmark(
        (std::string("BM_SumPieces/") + impl.name).c_str(), BM_SumPieces,
        impl.supported, impl.sum_pieces)
        ->Apply(PieceCounts);
  }
  benchmark::RegisterBenchmark("BM_SumPieces/ChecksumPieces", BM_SumPieces,
                               Always, PublicChecksumPieces)
      ->Apply(PieceCounts);
  return true;
}();

}  // namespace
}  // namespace ipsum::checksum
