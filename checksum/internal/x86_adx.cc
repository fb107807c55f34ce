// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// The x86-64 scalar fast path: 64-bit words added with two independent carry
// chains. `adcx` adds with the carry flag and `adox` with the overflow flag,
// and neither touches the other's flag, so two chains of add-with-carry run
// interleaved in one instruction stream: twice the throughput of one `adc`
// chain, whose one-cycle latency is the limit. Each 64-byte block starts
// with both flags cleared (`xor`) and ends by adding the two pending carries
// back in (one's-complement end-around carry), so the loop control may
// clobber the flags. Inputs shorter than 64 bytes take the plain C++ path of
// native_sum.h. Only this file is built with -madx.

#include "checksum/internal/x86_adx.h"

#if defined(__x86_64__)

#include <cstddef>
#include <cstdint>

#include "checksum/internal/native_sum.h"

namespace ipsum::checksum::internal {
namespace {

// kBlock is the number of bytes one iteration of the assembly loops reads.
constexpr size_t kBlock = 64;

// SumBlocks returns a native accumulator of `blocks` 64-byte blocks at `p`
// (blocks > 0).
//
// Why the final `adcx zero` cannot lose a carry: a chain that starts with
// its flag clear can never reach the state "accumulator all ones, flag set"
// (that needs all-ones + all-ones + 1, i.e. already being in that state), so
// adding the last flag back never wraps.
uint64_t SumBlocks(const uint8_t* p, size_t blocks) {
  uint64_t a = 0, b = 0, zero;
  __asm__(
      "1:\n\t"
      "xorl %k[zero], %k[zero]\n\t"  // zero = 0; CF = OF = 0
      "adcxq 0(%[p]), %[a]\n\t"
      "adoxq 8(%[p]), %[b]\n\t"
      "adcxq 16(%[p]), %[a]\n\t"
      "adoxq 24(%[p]), %[b]\n\t"
      "adcxq 32(%[p]), %[a]\n\t"
      "adoxq 40(%[p]), %[b]\n\t"
      "adcxq 48(%[p]), %[a]\n\t"
      "adoxq 56(%[p]), %[b]\n\t"
      "adcxq %[zero], %[a]\n\t"
      "adoxq %[zero], %[b]\n\t"
      "leaq 64(%[p]), %[p]\n\t"
      "decq %[n]\n\t"
      "jnz 1b\n\t"
      : [a] "+&r"(a), [b] "+&r"(b), [p] "+&r"(p), [n] "+&r"(blocks),
        [zero] "=&r"(zero)
      // The loop reads blocks * 64 bytes at p. "memory" says so in a way
      // both gcc and clang accept (clang rejects an "m" operand of
      // incomplete array type, `*(const char(*)[])p`).
      :
      : "cc", "memory");
  return AddEndAround(a, b);
}

// CopySumBlocks copies `blocks` 64-byte blocks from `src` to `dst` and
// returns a native accumulator of them, like SumBlocks.
uint64_t CopySumBlocks(uint8_t* dst, const uint8_t* src, size_t blocks) {
  uint64_t a = 0, b = 0, zero, t0, t1, t2, t3;
  __asm__(
      "1:\n\t"
      "xorl %k[zero], %k[zero]\n\t"
      "movq 0(%[s]), %[t0]\n\t"
      "movq 8(%[s]), %[t1]\n\t"
      "movq 16(%[s]), %[t2]\n\t"
      "movq 24(%[s]), %[t3]\n\t"
      "movq %[t0], 0(%[d])\n\t"
      "movq %[t1], 8(%[d])\n\t"
      "movq %[t2], 16(%[d])\n\t"
      "movq %[t3], 24(%[d])\n\t"
      "adcxq %[t0], %[a]\n\t"
      "adoxq %[t1], %[b]\n\t"
      "adcxq %[t2], %[a]\n\t"
      "adoxq %[t3], %[b]\n\t"
      "movq 32(%[s]), %[t0]\n\t"
      "movq 40(%[s]), %[t1]\n\t"
      "movq 48(%[s]), %[t2]\n\t"
      "movq 56(%[s]), %[t3]\n\t"
      "movq %[t0], 32(%[d])\n\t"
      "movq %[t1], 40(%[d])\n\t"
      "movq %[t2], 48(%[d])\n\t"
      "movq %[t3], 56(%[d])\n\t"
      "adcxq %[t0], %[a]\n\t"
      "adoxq %[t1], %[b]\n\t"
      "adcxq %[t2], %[a]\n\t"
      "adoxq %[t3], %[b]\n\t"
      "adcxq %[zero], %[a]\n\t"
      "adoxq %[zero], %[b]\n\t"
      "leaq 64(%[s]), %[s]\n\t"
      "leaq 64(%[d]), %[d]\n\t"
      "decq %[n]\n\t"
      "jnz 1b\n\t"
      : [a] "+&r"(a), [b] "+&r"(b), [s] "+&r"(src), [d] "+&r"(dst),
        [n] "+&r"(blocks), [zero] "=&r"(zero), [t0] "=&r"(t0), [t1] "=&r"(t1),
        [t2] "=&r"(t2), [t3] "=&r"(t3)
      :
      : "cc", "memory");
  return AddEndAround(a, b);
}

// SumNative returns a native accumulator of data[0, len).
[[gnu::always_inline]] inline uint64_t SumNative(const uint8_t* data,
                                                 size_t len) {
  uint64_t acc = 0;
  if (len >= kBlock) {
    acc = SumBlocks(data, len / kBlock);
    data += len & ~(kBlock - 1);
    len &= kBlock - 1;
  }
  return AddEndAround(acc, SumShortNative(data, len));
}

}  // namespace

uint16_t X86AdxSum(const uint8_t* data, size_t len, uint16_t initial) {
  return FinishAccumulator(SumNative(data, len), initial);
}

uint16_t X86AdxSumPieces(const std::span<const uint8_t>* pieces, size_t count,
                         size_t stride, uint16_t initial) {
  // The accumulator is one 64-bit register: a piece costs its blocks, its
  // short tail and a rotate, never a fold.
  return SumPiecesScalar<SumNative>(pieces, count, stride, initial);
}

uint16_t X86AdxCopySum(uint8_t* dst, const uint8_t* src, size_t len,
                       uint16_t initial) {
  uint64_t acc = 0;
  if (len >= kBlock) {
    acc = CopySumBlocks(dst, src, len / kBlock);
    const size_t done = len & ~(kBlock - 1);
    src += done;
    dst += done;
    len &= kBlock - 1;
  }
  acc = AddEndAround(acc, CopyShortNative(dst, src, len));
  return FinishAccumulator(acc, initial);
}

}  // namespace ipsum::checksum::internal

#endif  // defined(__x86_64__)
