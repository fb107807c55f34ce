// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Bounds tests for every implementation in the table: each input and each
// destination is its own heap allocation of exactly the length summed, so
// that under --config=asan any read or write outside [p, p + len) is
// reported. The fast paths load whole words and vectors near both ends (the
// short path reloads the last 8 bytes, the AVX2 tail loads the 32 bytes that
// end at the input's end), so the lengths sweep every threshold they have:
// 0..300 one by one, then powers of two and their neighbours. The sums are
// checked against the reference as well.

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "checksum/internal/impl.h"
#include "checksum/internal/reference.h"
#include "gtest/gtest.h"

namespace ipsum::checksum {
namespace {

using internal::CompiledImplementations;
using internal::Implementation;
using internal::ReferenceSum;

std::vector<size_t> Lengths() {
  std::vector<size_t> lengths;
  for (size_t len = 0; len <= 300; ++len) lengths.push_back(len);
  for (size_t p = 512; p <= 65536; p *= 2) {
    for (size_t len : {p - 1, p, p + 1, p + 31, p + 33}) lengths.push_back(len);
  }
  return lengths;
}

class FastPathTest : public testing::TestWithParam<Implementation> {};

TEST_P(FastPathTest, ReadsAndWritesOnlyTheGivenBytes) {
  const Implementation& impl = GetParam();
  if (!impl.supported()) GTEST_SKIP() << impl.name << " not supported here";
  for (size_t len : Lengths()) {
    // new[] of exactly len bytes: a heap block whose first and last bytes
    // are the input's (ASan's redzones are right outside it). Heap blocks
    // are 16-byte aligned; the misaligned cases come from the AVX2 and SSE2
    // alignment heads, which start at the input's own address.
    std::unique_ptr<uint8_t[]> src(new uint8_t[len]);
    std::unique_ptr<uint8_t[]> dst(new uint8_t[len]);
    for (size_t i = 0; i < len; ++i)
      src[i] = static_cast<uint8_t>(i * 37 + len);
    const uint16_t want = ReferenceSum(src.get(), len, 0x0102);
    ASSERT_EQ(impl.sum(src.get(), len, 0x0102), want) << "len=" << len;
    ASSERT_EQ(impl.copy_sum(dst.get(), src.get(), len, 0x0102), want)
        << "len=" << len;
    ASSERT_EQ(len == 0 ? 0 : std::memcmp(dst.get(), src.get(), len), 0)
        << "len=" << len;
  }
}

TEST_P(FastPathTest, ReadsOnlyTheGivenBytesAtEveryMisalignment) {
  const Implementation& impl = GetParam();
  if (!impl.supported()) GTEST_SKIP() << impl.name << " not supported here";
  for (size_t len : {1, 7, 33, 63, 64, 65, 255, 256, 257, 1500, 4097}) {
    for (size_t skew = 1; skew < 32; ++skew) {
      // The input is the last len bytes of a block of skew + len bytes: it
      // ends at the block's end and starts at a misaligned address.
      std::unique_ptr<uint8_t[]> block(new uint8_t[skew + len]);
      std::unique_ptr<uint8_t[]> out(new uint8_t[skew + len]);
      for (size_t i = 0; i < skew + len; ++i)
        block[i] = static_cast<uint8_t>(i);
      const uint8_t* src = block.get() + skew;
      uint8_t* dst = out.get() + skew;
      const uint16_t want = ReferenceSum(src, len, 0);
      ASSERT_EQ(impl.sum(src, len, 0), want) << len << "/" << skew;
      ASSERT_EQ(impl.copy_sum(dst, src, len, 0), want) << len << "/" << skew;
      ASSERT_EQ(std::memcmp(dst, src, len), 0) << len << "/" << skew;
    }
  }
}

// The AVX2 kernel sums 256-byte blocks as 64-bit lanes modulo 2^64 plus an
// estimate of each lane's top 16-bit word (x86_avx2.cc). These patterns put
// its estimate furthest from the truth, lane by lane: top words zero under
// all-ones low bits (the truth above the estimate), a top word of 1 in one
// vector of eight (every average rounds up: the estimate above the truth),
// all-ones top words (a carry out of every lane), and the three alternating,
// over lengths that fill whole blocks, a chunk and more than one chunk.
TEST_P(FastPathTest, LaneEstimateExtremesMatchReference) {
  const Implementation& impl = GetParam();
  if (!impl.supported()) GTEST_SKIP() << impl.name << " not supported here";
  const auto pattern = [](int kind, size_t i) -> uint8_t {
    const size_t in_lane = i % 8, vector = (i / 32) % 8, block = i / 256;
    switch (kind == 3 ? block % 3 : kind) {
      case 0:
        return in_lane < 6 ? 0xff : 0x00;
      case 1:
        return vector == 0 && in_lane == 6 ? 0x01 : 0x00;
      default:
        return in_lane < 6 ? 0x00 : 0xff;
    }
  };
  for (int kind = 0; kind < 4; ++kind) {
    for (size_t len : {256, 1500, 65536, 65536 + 300, (1 << 20) + 3}) {
      std::vector<uint8_t> storage(len + 64), out(len + 64);
      uint8_t* src =
          storage.data() + (-reinterpret_cast<uintptr_t>(storage.data()) & 63);
      uint8_t* dst =
          out.data() + (-reinterpret_cast<uintptr_t>(out.data()) & 63);
      for (size_t i = 0; i < len; ++i) src[i] = pattern(kind, i);
      const uint16_t want = ReferenceSum(src, len, 0);
      ASSERT_EQ(impl.sum(src, len, 0), want) << kind << "/" << len;
      ASSERT_EQ(impl.copy_sum(dst, src, len, 0), want) << kind << "/" << len;
      ASSERT_EQ(std::memcmp(dst, src, len), 0) << kind << "/" << len;
      const std::span<const uint8_t> whole[] = {{src, len}};
      ASSERT_EQ(impl.sum_pieces(whole, 1, sizeof(whole[0]), 0), want)
          << kind << "/" << len;
      // Medium pieces share one set of accumulators across the stream.
      std::vector<std::span<const uint8_t>> pieces;
      for (size_t at = 0; at < len; at += 2000) {
        pieces.emplace_back(src + at, std::min<size_t>(2000, len - at));
      }
      ASSERT_EQ(
          impl.sum_pieces(pieces.data(), pieces.size(), sizeof(pieces[0]), 0),
          want)
          << kind << "/" << len;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    AllImplementations, FastPathTest,
    testing::ValuesIn(CompiledImplementations().begin(),
                      CompiledImplementations().end()),
    [](const testing::TestParamInfo<Implementation>& info) {
      return std::string(info.param.name);
    });

}  // namespace
}  // namespace ipsum::checksum
