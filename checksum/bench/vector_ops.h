// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Assembly text for the floor benchmarks, which time loads (and stores)
// with a set number of vector operations in a checksum's place:
// checksum_benchmark's BM_CopyAvx2 and BM_CopyAvx512 and fastpath_benchmark's
// BM_ReadOps512. Each is written in assembly so that the benchmark files need
// no ISA flags; each runs only where the CPU has the instructions.
//
// R is a register class, "ymm" or "zmm". The data is in registers 0-7 and
// IPSUM_BENCH_ADDS(R) adds each to its own accumulator (8-15), eight
// independent operations; IPSUM_BENCH_AVGS(R) averages each with its
// accumulator (vpavgw), eight more, no longer chain. Registers 0-15 only:
// 16 and up exist only with AVX-512 (EVEX), and the AVX2 floor runs on CPUs
// without it.

#ifndef IPSUM_CHECKSUM_BENCH_VECTOR_OPS_H_
#define IPSUM_CHECKSUM_BENCH_VECTOR_OPS_H_

#define IPSUM_BENCH_ADDS(R)          \
  "vpaddq %%" R "0, %%" R "8, %%" R  \
  "8\n\t"                            \
  "vpaddq %%" R "1, %%" R "9, %%" R  \
  "9\n\t"                            \
  "vpaddq %%" R "2, %%" R "10, %%" R \
  "10\n\t"                           \
  "vpaddq %%" R "3, %%" R "11, %%" R \
  "11\n\t"                           \
  "vpaddq %%" R "4, %%" R "12, %%" R \
  "12\n\t"                           \
  "vpaddq %%" R "5, %%" R "13, %%" R \
  "13\n\t"                           \
  "vpaddq %%" R "6, %%" R "14, %%" R \
  "14\n\t"                           \
  "vpaddq %%" R "7, %%" R "15, %%" R "15\n\t"

#define IPSUM_BENCH_AVGS(R)          \
  "vpavgw %%" R "0, %%" R "8, %%" R  \
  "0\n\t"                            \
  "vpavgw %%" R "1, %%" R "9, %%" R  \
  "1\n\t"                            \
  "vpavgw %%" R "2, %%" R "10, %%" R \
  "2\n\t"                            \
  "vpavgw %%" R "3, %%" R "11, %%" R \
  "3\n\t"                            \
  "vpavgw %%" R "4, %%" R "12, %%" R \
  "4\n\t"                            \
  "vpavgw %%" R "5, %%" R "13, %%" R \
  "5\n\t"                            \
  "vpavgw %%" R "6, %%" R "14, %%" R \
  "6\n\t"                            \
  "vpavgw %%" R "7, %%" R "15, %%" R "7\n\t"

// The clobbers of an asm statement that uses vector registers 0-15.
#define IPSUM_BENCH_CLOBBERS                                               \
  "cc", "memory", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6",  \
      "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", \
      "xmm15"

#endif  // IPSUM_CHECKSUM_BENCH_VECTOR_OPS_H_
