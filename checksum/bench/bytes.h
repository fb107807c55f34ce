// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// AlignedRandomBytes: the input buffer of the checksum benchmarks. Not API:
// testonly, visible to //checksum's packages only.

#ifndef IPSUM_CHECKSUM_BENCH_BYTES_H_
#define IPSUM_CHECKSUM_BENCH_BYTES_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

namespace ipsum::checksum::internal {

// AlignedRandomBytes is a heap buffer of `size` random bytes (seeded by the
// size, so every run sums the same data) whose `at(offset)` is `offset` bytes
// past a 64-byte boundary.
class AlignedRandomBytes {
 public:
  explicit AlignedRandomBytes(size_t size) : storage_(size + 64) {
    std::mt19937_64 rng(size);
    for (size_t i = 0; i + 8 <= storage_.size(); i += 8) {
      const uint64_t v = rng();
      std::memcpy(&storage_[i], &v, 8);
    }
    const auto addr = reinterpret_cast<uintptr_t>(storage_.data());
    base_ = storage_.data() + (64 - addr % 64) % 64;
  }

  // at returns the byte `offset` past the 64-byte aligned start.
  uint8_t* at(size_t offset) { return base_ + offset; }

 private:
  std::vector<uint8_t> storage_;
  uint8_t* base_;
};

}  // namespace ipsum::checksum::internal

#endif  // IPSUM_CHECKSUM_BENCH_BYTES_H_
