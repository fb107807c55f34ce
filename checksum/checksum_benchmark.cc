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
#include "checksum/checksum.h"
#include "checksum/internal/bench_bytes.h"
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
// CopyAvx2 copies src[0, len), len >= 32, to dst with the loads and stores
// of X86Avx2CopySum's loop and `ops` (0, 8 or 16) independent vector
// operations per 256 bytes on the loaded data instead of the checksum (its
// loop has 17): 256 bytes per step, each 32-byte store right after its
// load, then 32-byte steps and the last 32 bytes (overlapping), which have
// no operations. In assembly, so that this file needs no -mavx2; run only
// where the CPU has AVX2.
void CopyAvx2(uint8_t* dst, const uint8_t* src, size_t len, int ops) {
  const uint8_t* const end = src + (len & ~size_t{255});
  if (src < end) {
#define IPSUM_COPY_LOOP(OPS)                                                \
  __asm__ volatile(                                                         \
      "1:\n\t"                                                              \
      ".irp i, 0, 1, 2, 3, 4, 5, 6, 7\n\t"                                  \
      "vmovdqu 32 * \\i(%[s]), %%ymm\\i\n\t"                                \
      "vmovdqu %%ymm\\i, 32 * \\i(%[d])\n\t"                                \
      ".endr\n\t" OPS                                                       \
      "addq $256, %[s]\n\t"                                                 \
      "addq $256, %[d]\n\t"                                                 \
      "cmpq %[end], %[s]\n\t"                                               \
      "jb 1b\n\t"                                                           \
      : [s] "+r"(src), [d] "+r"(dst)                                        \
      : [end] "r"(end)                                                      \
      : "cc", "memory", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5",     \
        "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", \
        "xmm14", "xmm15")
// One add per vector into its own accumulator (ymm8..15), and for 16 an
// average of the vector with it as well (no longer chain). Registers 0-15
// only: ymm16 and up exist only with AVX-512 (EVEX), and this runs on
// AVX2-only CPUs.
#define IPSUM_ADDS                      \
  "vpaddq %%ymm0, %%ymm8, %%ymm8\n\t"   \
  "vpaddq %%ymm1, %%ymm9, %%ymm9\n\t"   \
  "vpaddq %%ymm2, %%ymm10, %%ymm10\n\t" \
  "vpaddq %%ymm3, %%ymm11, %%ymm11\n\t" \
  "vpaddq %%ymm4, %%ymm12, %%ymm12\n\t" \
  "vpaddq %%ymm5, %%ymm13, %%ymm13\n\t" \
  "vpaddq %%ymm6, %%ymm14, %%ymm14\n\t" \
  "vpaddq %%ymm7, %%ymm15, %%ymm15\n\t"
#define IPSUM_AVGS                     \
  "vpavgw %%ymm0, %%ymm8, %%ymm0\n\t"  \
  "vpavgw %%ymm1, %%ymm9, %%ymm1\n\t"  \
  "vpavgw %%ymm2, %%ymm10, %%ymm2\n\t" \
  "vpavgw %%ymm3, %%ymm11, %%ymm3\n\t" \
  "vpavgw %%ymm4, %%ymm12, %%ymm4\n\t" \
  "vpavgw %%ymm5, %%ymm13, %%ymm5\n\t" \
  "vpavgw %%ymm6, %%ymm14, %%ymm6\n\t" \
  "vpavgw %%ymm7, %%ymm15, %%ymm7\n\t"
    if (ops == 0) {
      IPSUM_COPY_LOOP("");
    } else if (ops == 8) {
      IPSUM_COPY_LOOP(IPSUM_ADDS);
    } else {
      IPSUM_COPY_LOOP(IPSUM_ADDS IPSUM_AVGS);
    }
#undef IPSUM_AVGS
#undef IPSUM_ADDS
#undef IPSUM_COPY_LOOP
  }
  len &= 255;
  for (; len >= 32; len -= 32, src += 32, dst += 32) {
    __asm__ volatile("vmovdqu (%[s]), %%ymm0\n\tvmovdqu %%ymm0, (%[d])"
                     :
                     : [s] "r"(src), [d] "r"(dst)
                     : "memory", "xmm0");
  }
  if (len > 0) {
    __asm__ volatile("vmovdqu (%[s]), %%ymm0\n\tvmovdqu %%ymm0, (%[d])"
                     :
                     : [s] "r"(src + len - 32), [d] "r"(dst + len - 32)
                     : "memory", "xmm0");
  }
  __asm__ volatile("vzeroupper" ::: "memory");
}

// BM_CopyAvx2 is the floor for BM_CopySum/x86_avx2: CopyAvx2, the same
// loads and stores without the checksum (ops:0), and with 8 or 16 vector
// operations per 256 bytes in its place (ops:8, ops:16), next to BM_Memcpy
// (which glibc does with 64-byte AVX-512 stores here up to 2 KiB and with
// rep movsb above, which writes whole lines without reading them first).
// A checksum needs an add per vector and something per vector that keeps
// the carries (17 operations per 256 bytes in X86Avx2CopySum).
void BM_CopyAvx2(benchmark::State& state) {
  if (!__builtin_cpu_supports("avx2")) {
    state.SkipWithError("needs x86-64 with AVX2");
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
    CopyAvx2(q, p, len, ops);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * len));
}

// CopyAvx512 is CopyAvx2 for X86Avx512CopySum: 512 bytes per step as eight
// 64-byte loads, each stored right after its load, and `ops` (0, 8 or 16)
// independent vector operations per 512 bytes on the loaded data instead of
// the checksum (its loop has 17); then 64-byte steps and the last 64 bytes
// (overlapping), len >= 64. In assembly, so that this file needs no AVX-512
// flag; run only where the CPU has AVX-512F and BW.
void CopyAvx512(uint8_t* dst, const uint8_t* src, size_t len, int ops) {
  const uint8_t* const end = src + (len & ~size_t{511});
  if (src < end) {
#define IPSUM_COPY_LOOP(OPS)                                                \
  __asm__ volatile(                                                         \
      "1:\n\t"                                                              \
      ".irp i, 0, 1, 2, 3, 4, 5, 6, 7\n\t"                                  \
      "vmovdqu64 64 * \\i(%[s]), %%zmm\\i\n\t"                              \
      "vmovdqu64 %%zmm\\i, 64 * \\i(%[d])\n\t"                              \
      ".endr\n\t" OPS                                                       \
      "addq $512, %[s]\n\t"                                                 \
      "addq $512, %[d]\n\t"                                                 \
      "cmpq %[end], %[s]\n\t"                                               \
      "jb 1b\n\t"                                                           \
      : [s] "+r"(src), [d] "+r"(dst)                                        \
      : [end] "r"(end)                                                      \
      : "cc", "memory", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5",     \
        "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", \
        "xmm14", "xmm15")
// One add per vector into its own accumulator (zmm8..15), and for 16 an
// average of the vector with it as well (no longer chain).
#define IPSUM_ADDS                      \
  "vpaddq %%zmm0, %%zmm8, %%zmm8\n\t"   \
  "vpaddq %%zmm1, %%zmm9, %%zmm9\n\t"   \
  "vpaddq %%zmm2, %%zmm10, %%zmm10\n\t" \
  "vpaddq %%zmm3, %%zmm11, %%zmm11\n\t" \
  "vpaddq %%zmm4, %%zmm12, %%zmm12\n\t" \
  "vpaddq %%zmm5, %%zmm13, %%zmm13\n\t" \
  "vpaddq %%zmm6, %%zmm14, %%zmm14\n\t" \
  "vpaddq %%zmm7, %%zmm15, %%zmm15\n\t"
#define IPSUM_AVGS                     \
  "vpavgw %%zmm0, %%zmm8, %%zmm0\n\t"  \
  "vpavgw %%zmm1, %%zmm9, %%zmm1\n\t"  \
  "vpavgw %%zmm2, %%zmm10, %%zmm2\n\t" \
  "vpavgw %%zmm3, %%zmm11, %%zmm3\n\t" \
  "vpavgw %%zmm4, %%zmm12, %%zmm4\n\t" \
  "vpavgw %%zmm5, %%zmm13, %%zmm5\n\t" \
  "vpavgw %%zmm6, %%zmm14, %%zmm6\n\t" \
  "vpavgw %%zmm7, %%zmm15, %%zmm7\n\t"
    if (ops == 0) {
      IPSUM_COPY_LOOP("");
    } else if (ops == 8) {
      IPSUM_COPY_LOOP(IPSUM_ADDS);
    } else {
      IPSUM_COPY_LOOP(IPSUM_ADDS IPSUM_AVGS);
    }
#undef IPSUM_AVGS
#undef IPSUM_ADDS
#undef IPSUM_COPY_LOOP
  }
  len &= 511;
  for (; len >= 64; len -= 64, src += 64, dst += 64) {
    __asm__ volatile("vmovdqu64 (%[s]), %%zmm0\n\tvmovdqu64 %%zmm0, (%[d])"
                     :
                     : [s] "r"(src), [d] "r"(dst)
                     : "memory", "xmm0");
  }
  if (len > 0) {
    __asm__ volatile("vmovdqu64 (%[s]), %%zmm0\n\tvmovdqu64 %%zmm0, (%[d])"
                     :
                     : [s] "r"(src + len - 64), [d] "r"(dst + len - 64)
                     : "memory", "xmm0");
  }
  __asm__ volatile("vzeroupper" ::: "memory");
}

// BM_CopyAvx512 is the floor for BM_CopySum/x86_avx512 as BM_CopyAvx2 is
// for x86_avx2: CopyAvx512 with no operations (ops:0) and with 8 or 16 per
// 512 bytes in the checksum's place, next to BM_Memcpy. Any exact checksum
// of 64-bit lanes here needs at least two operations per vector, 16 per
// 512 bytes: on a core with two 512-bit vector pipes ops:16 is what the
// fused copy cannot go below (x86_avx512.cc's top comment).
void BM_CopyAvx512(benchmark::State& state) {
  if (!__builtin_cpu_supports("avx512f") ||
      !__builtin_cpu_supports("avx512bw")) {
    state.SkipWithError("needs x86-64 with AVX-512F and AVX-512BW");
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
    CopyAvx512(q, p, len, ops);
    benchmark::ClobberMemory();
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
  benchmark::RegisterBenchmark("BM_CopyAvx2", BM_CopyAvx2)
      ->ArgNames({"len", "off", "ops"})
      ->ArgsProduct({{1500, 4096, 16384, 32768, 65536}, {0}, {0, 8, 16}});
  benchmark::RegisterBenchmark("BM_CopyAvx512", BM_CopyAvx512)
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
