// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// The read-only baselines of fastpath_benchmark read every byte they are
// given, and nothing else: a zero buffer with one byte set, anywhere, at any
// length and offset, gives a non-zero result, and the bytes around the
// buffer are never part of it. (A baseline that skipped bytes would make
// every ratio against it look worse than it is; one that read outside its
// buffer would be a bug ASan finds here.)

#include <cstddef>
#include <cstdint>
#include <vector>

#include "checksum/bench/read_baseline_avx2.h"
#include "checksum/bench/read_baseline_avx512.h"
#include "gtest/gtest.h"

namespace ipsum::checksum {
namespace {

using ReadFn = uint64_t (*)(const uint8_t*, size_t);

void CheckEveryByteIsRead(ReadFn read) {
  std::vector<uint8_t> buf(4096 + 128, 0);
  for (size_t len : {1, 2, 31, 32, 33, 63, 64, 65, 127, 128, 129, 500, 511,
                     512, 513, 1500, 1536, 2048, 4000}) {
    for (size_t off : {0, 1, 31, 63}) {
      uint8_t* p = buf.data() + 64 + off;
      EXPECT_EQ(read(p, len), 0u) << len << " " << off;
      for (size_t at = 0; at < len; ++at) {
        p[at] = 0x80;
        ASSERT_NE(read(p, len), 0u) << "len " << len << " off " << off
                                    << ": byte " << at << " not read";
        p[at] = 0;
      }
      // Bytes just outside the buffer are not read.
      p[-1] = p[len] = 0xff;
      EXPECT_EQ(read(p, len), 0u) << len << " " << off;
      p[-1] = p[len] = 0;
    }
  }
}

TEST(ReadBaselineTest, Avx2ReadsEveryByte) {
  if (!ReadBaselineSupported()) GTEST_SKIP() << "no AVX2";
  CheckEveryByteIsRead(ReadBaselineAvx2);
}

TEST(ReadBaselineTest, Avx512ReadsEveryByte) {
  if (!ReadBaseline512Supported()) GTEST_SKIP() << "no AVX-512";
  CheckEveryByteIsRead(ReadBaselineAvx512);
}

}  // namespace
}  // namespace ipsum::checksum
