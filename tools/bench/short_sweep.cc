// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// short_sweep: the time of one Internet checksum call at every length of a
// range (7..64 by default) and at chosen offsets, for ipsum's C API called
// every way a C program can call it, beside the peers yardstick's
// fastest short-input peers. Built and run by tools/bench/short_sweep.sh,
// which links in the peers' objects that the yardstick built from Debian's
// sources; nothing of theirs is in this file.
//
// Columns (each timed as the yardstick times its columns: a loop of
// independent calls whose pointer and length the compiler cannot see
// through, the results added to a sink):
//   ipsum.a        ipsum_checksum from libipsum_checksum.a, a direct call
//   ipsum.so       ipsum_checksum from the dlopen'ed libipsum_checksum.so,
//                  through the pointer dlsym returns (the yardstick's way)
//   ipsum.so-plt   the same library linked at build time: a call through
//                  the PLT
//   kernel         Linux's csum_partial linked in, a direct call (its
//                  unfolded 32-bit result, as the yardstick times it)
//   kernel.so      the same object in a dlopen'ed library, by pointer
//   dpdk           DPDK's rte_raw_cksum, inlined into the loop
//   fastcsum-adx   fastcsum's ADX routine linked in, folded inline
//   empty          a function that does nothing, linked in, by pointer
//   empty.so       the same function in a dlopen'ed library, by pointer
//   ipsum.h:const  ipsum_checksum as the header defines it, the length a
//                  constant in the source (inline where the header has
//                  IPSUM_CHECKSUM_INLINE), as a caller summing a header
//   dpdk:const     rte_raw_cksum inlined with the same constant length
//
// Samples are kept only while this CPU's core was ours: an ALU-share probe
// (four independent add chains against one dependent chain) runs before and
// after each case's batch of columns, and the batch is retaken when either
// probe reads below 0.8. Output: one tab-separated line per case, each
// column's time in ns at the chosen quantile of its samples.
//
//   short_sweep IPSUM_SO KERNEL_SO EMPTY_SO [reps [lo hi [offsets]]]

#include <dlfcn.h>
#include <rte_ip.h>
#include <time.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>
#include <vector>

#include "checksum/ipsum_checksum.h"
#include "fastcsum.h"

extern "C" uint32_t csb_kcsum_native(const void* buf, int len, uint32_t sum);
extern "C" uint16_t ipsum_short_sweep_static(const void* buf, size_t len,
                                             uint16_t initial);
extern "C" uint16_t short_sweep_empty(const void* buf, size_t len,
                                      uint16_t initial);

namespace {

using SumFn = uint16_t (*)(const void*, size_t, uint16_t);
using KernelFn = uint32_t (*)(const void*, int, uint32_t);

SumFn g_ipsum_so;
SumFn g_empty;
SumFn g_empty_so;
KernelFn g_kernel_so;

// Run calls f(p, n) `iters` times, as the yardstick's run_batch does.
template <typename F>
[[gnu::always_inline]] inline uint64_t Run(const uint8_t* p0, size_t n0,
                                           uint64_t iters, F f) {
  uint64_t acc = 0;
  for (uint64_t i = 0; i < iters; ++i) {
    uintptr_t p = reinterpret_cast<uintptr_t>(p0);
    size_t n = n0;
    asm volatile("" : "+r"(p), "+r"(n));
    acc += static_cast<uint64_t>(f(reinterpret_cast<const uint8_t*>(p), n));
  }
  return acc;
}

#define SWEEP_COLUMN(name, call)                                        \
  [[gnu::noinline]] uint64_t name(const uint8_t* p, size_t n,          \
                                  uint64_t iters) {                    \
    return Run(p, n, iters, [](const uint8_t* q, size_t m) { return call; }); \
  }

SWEEP_COLUMN(IpsumA, ipsum_short_sweep_static(q, m, 0))
SWEEP_COLUMN(IpsumSo, g_ipsum_so(q, m, 0))
SWEEP_COLUMN(IpsumPlt, (ipsum_checksum)(q, m, 0))
SWEEP_COLUMN(Kernel, csb_kcsum_native(q, static_cast<int>(m), 0))
SWEEP_COLUMN(KernelSo, g_kernel_so(q, static_cast<int>(m), 0))
SWEEP_COLUMN(Dpdk, rte_raw_cksum(q, m))
SWEEP_COLUMN(FastcsumAdx,
             fastcsum_fold_complement(fastcsum_nofold_adx_v2(q, m, 0)))
SWEEP_COLUMN(Empty, g_empty(q, m, 0))
SWEEP_COLUMN(EmptySo, g_empty_so(q, m, 0))

// The constant-length columns: one loop per length, its length a template
// argument; the loop's own `n` is unused.
template <size_t kLen>
[[gnu::noinline]] uint64_t IpsumConstant(const uint8_t* p, size_t,
                                         uint64_t iters) {
  return Run(p, kLen, iters,
             [](const uint8_t* q, size_t) { return ipsum_checksum(q, kLen, 0); });
}
template <size_t kLen>
[[gnu::noinline]] uint64_t DpdkConstant(const uint8_t* p, size_t,
                                        uint64_t iters) {
  return Run(p, kLen, iters,
             [](const uint8_t* q, size_t) { return rte_raw_cksum(q, kLen); });
}
using Loop = uint64_t (*)(const uint8_t*, size_t, uint64_t);
constexpr size_t kMaxConstant = 64;
template <size_t... kLens>
constexpr std::array<std::array<Loop, 2>, sizeof...(kLens)> ConstantLoops(
    std::index_sequence<kLens...>) {
  return {{{IpsumConstant<kLens>, DpdkConstant<kLens>}...}};
}
constexpr auto kConstantLoops =
    ConstantLoops(std::make_index_sequence<kMaxConstant + 1>());

struct Column {
  const char* name;
  uint64_t (*run)(const uint8_t*, size_t, uint64_t);
  int constant;  // -1, or which of kConstantLoops' loops times the column.
};
const Column kColumns[] = {
    {"ipsum.a", IpsumA, -1},       {"ipsum.so", IpsumSo, -1},
    {"ipsum.so-plt", IpsumPlt, -1}, {"kernel", Kernel, -1},
    {"kernel.so", KernelSo, -1},   {"dpdk", Dpdk, -1},
    {"fastcsum-adx", FastcsumAdx, -1}, {"empty", Empty, -1},
    {"empty.so", EmptySo, -1},     {"ipsum.h:const", nullptr, 0},
    {"dpdk:const", nullptr, 1},
};
constexpr int kColumnCount = sizeof(kColumns) / sizeof(kColumns[0]);

volatile uint64_t g_sink;

double ThreadNs() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return 1e9 * static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec);
}

// AluShare returns the throughput of four independent add chains over four
// times that of one dependent chain: near 1 with the core to ourselves (the
// peers yardstick reads about 0.95), near 0.55 while its other hardware
// thread is busy.
double AluShare() {
  constexpr int kSteps = 20000;
  uint64_t a = 1, b = 2, c = 3, d = 4;
  const double t0 = ThreadNs();
  for (int i = 0; i < kSteps; ++i)
    asm volatile(
        "add %0,%0\n\tadd %0,%0\n\tadd %0,%0\n\tadd %0,%0\n\t"
        "add %0,%0\n\tadd %0,%0\n\tadd %0,%0\n\tadd %0,%0"
        : "+r"(a));
  const double t1 = ThreadNs();
  for (int i = 0; i < kSteps; ++i)
    asm volatile(
        "add %0,%0\n\tadd %1,%1\n\tadd %2,%2\n\tadd %3,%3\n\t"
        "add %0,%0\n\tadd %1,%1\n\tadd %2,%2\n\tadd %3,%3"
        : "+r"(a), "+r"(b), "+r"(c), "+r"(d));
  const double t2 = ThreadNs();
  g_sink = g_sink + a + b + c + d;
  return (t1 - t0) / (4 * (t2 - t1));
}

void* OpenOrDie(const char* path) {
  void* h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (h == nullptr) {
    std::fprintf(stderr, "short_sweep: %s\n", dlerror());
    std::exit(2);
  }
  return h;
}

void* SymOrDie(void* h, const char* name) {
  void* s = dlsym(h, name);
  if (s == nullptr) {
    std::fprintf(stderr, "short_sweep: no %s\n", name);
    std::exit(2);
  }
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr,
                 "usage: short_sweep IPSUM_SO KERNEL_SO EMPTY_SO "
                 "[reps [lo hi [offsets]]]\n");
    return 2;
  }
  g_ipsum_so = reinterpret_cast<SumFn>(
      SymOrDie(OpenOrDie(argv[1]), "ipsum_checksum"));
  g_kernel_so = reinterpret_cast<KernelFn>(
      SymOrDie(OpenOrDie(argv[2]), "csb_kcsum_native"));
  g_empty_so = reinterpret_cast<SumFn>(
      SymOrDie(OpenOrDie(argv[3]), "short_sweep_empty"));
  g_empty = short_sweep_empty;
  asm volatile("" : "+m"(g_empty));  // An indirect call, as empty.so's.
  const int reps = argc > 4 ? std::atoi(argv[4]) : 31;
  const int lo = argc > 5 ? std::atoi(argv[5]) : 7;
  const int hi = argc > 6 ? std::atoi(argv[6]) : 64;
  std::vector<int> offsets;
  for (const char* s = argc > 7 ? argv[7] : "0,1,4"; *s != '\0';) {
    offsets.push_back(std::atoi(s));
    while (*s != '\0' && *s != ',') ++s;
    if (*s == ',') ++s;
  }
  const char* quantile_env = std::getenv("SWEEP_QUANTILE");
  const double quantile = quantile_env ? std::atof(quantile_env) : 0.25;
  if (reps < 1 || lo < 0 || hi < lo || hi > static_cast<int>(kMaxConstant) ||
      offsets.empty() ||
      quantile < 0 || quantile >= 1) {
    std::fprintf(stderr, "short_sweep: bad arguments\n");
    return 2;
  }

  static uint8_t buf[2048] __attribute__((aligned(64)));
  for (size_t i = 0; i < sizeof(buf); ++i) buf[i] = static_cast<uint8_t>(i * 37 + 11);

  struct Case {
    int len;
    int offset;
  };
  std::vector<Case> cases;
  for (int len = lo; len <= hi; ++len)
    for (int off : offsets) {
      if (off < 0 || off > 63) {
        std::fprintf(stderr, "short_sweep: offsets are 0..63\n");
        return 2;
      }
      cases.push_back({len, off});
    }

  constexpr uint64_t kIters = 20000;
  constexpr int kMaxTries = 200;
  constexpr double kQuiet = 0.8;
  std::vector<std::vector<std::vector<double>>> ns(
      cases.size(), std::vector<std::vector<double>>(kColumnCount));
  size_t retaken = 0, noisy = 0;
  for (int r = 0; r < reps; ++r) {
    for (size_t c = 0; c < cases.size(); ++c) {
      const uint8_t* p = buf + 64 + cases[c].offset;
      const size_t n = static_cast<size_t>(cases[c].len);
      double row[kColumnCount];
      for (int tries = 0;; ++tries) {
        const bool last = tries + 1 == kMaxTries;
        if (AluShare() < kQuiet && !last) continue;
        for (int j = 0; j < kColumnCount; ++j) {
          const int k = (j + r + static_cast<int>(c)) % kColumnCount;
          const Loop run = kColumns[k].constant < 0
                               ? kColumns[k].run
                               : kConstantLoops[n][kColumns[k].constant];
          g_sink = g_sink + run(p, n, 100);  // Warm up.
          const double t0 = ThreadNs();
          g_sink = g_sink + run(p, n, kIters);
          row[k] = (ThreadNs() - t0) / kIters;
        }
        if (AluShare() >= kQuiet) break;
        if (last) {
          ++noisy;
          break;
        }
        ++retaken;
      }
      for (int k = 0; k < kColumnCount; ++k) ns[c][k].push_back(row[k]);
    }
  }
  std::fprintf(stderr,
               "short_sweep: %d repetitions, %zu batches retaken, %zu kept "
               "without a quiet probe\n",
               reps, retaken, noisy);

  std::printf("len/offset");
  for (const Column& col : kColumns) std::printf("\t%s", col.name);
  std::printf("\n");
  for (size_t c = 0; c < cases.size(); ++c) {
    std::printf("%d/%d", cases[c].len, cases[c].offset);
    for (int k = 0; k < kColumnCount; ++k) {
      std::vector<double>& v = ns[c][k];
      std::sort(v.begin(), v.end());
      std::printf("\t%.3f", v[static_cast<size_t>(quantile * v.size())]);
    }
    std::printf("\n");
  }
  return 0;
}
