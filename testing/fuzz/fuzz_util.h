// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Helpers for fuzz targets: exact-size, chosen-alignment heap copies of an
// input, so that AddressSanitizer (when built in) reports any read outside
// the bytes under test, and a byte-stream reader that turns a fuzzer input
// into choices. Test-only; compiles with and without sanitizers, with any
// compiler ipsum supports.

#ifndef IPSUM_TESTING_FUZZ_FUZZ_UTIL_H_
#define IPSUM_TESTING_FUZZ_FUZZ_UTIL_H_

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <span>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define IPSUM_FUZZ_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) && !defined(IPSUM_FUZZ_ASAN)
#define IPSUM_FUZZ_ASAN 1
#endif

#if defined(IPSUM_FUZZ_ASAN)
#include <sanitizer/asan_interface.h>
#endif

// IPSUM_FUZZ_CHECK aborts with the failed condition and its place when
// `cond` is false: the way a fuzz target reports a wrong answer, which
// libFuzzer (and the replay main) treat as a crash.
#define IPSUM_FUZZ_CHECK(cond)                                              \
  do {                                                                      \
    if (!(cond)) {                                                          \
      std::fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, \
                   #cond);                                                  \
      std::abort();                                                         \
    }                                                                       \
  } while (0)

namespace ipsum::fuzz {

// Poison marks [p, p + n) unaddressable under AddressSanitizer (a no-op
// without it). ASan works in 8-byte granules, so only the granules wholly
// inside the range may end up poisoned.
inline void Poison(const void* p, size_t n) {
#if defined(IPSUM_FUZZ_ASAN)
  __asan_poison_memory_region(p, n);
#else
  (void)p;
  (void)n;
#endif
}

// Unpoison undoes Poison.
inline void Unpoison(const void* p, size_t n) {
#if defined(IPSUM_FUZZ_ASAN)
  __asan_unpoison_memory_region(p, n);
#else
  (void)p;
  (void)n;
#endif
}

// AlignedCopy holds a copy of some bytes that starts `offset` bytes past a
// 64-byte boundary (offset < 64) and ends exactly at the end of its heap
// block; the bytes before it in the block are poisoned. Not copyable.
class AlignedCopy {
 public:
  // AlignedCopy copies `data` to an address that is `offset` mod 64.
  AlignedCopy(std::span<const uint8_t> data, size_t offset)
      : offset_(offset % 64), size_(data.size()) {
    block_ = static_cast<uint8_t*>(
        ::operator new (offset_ + size_, std::align_val_t{64}));
    if (size_ != 0) std::memcpy(block_ + offset_, data.data(), size_);
    Poison(block_, offset_);
  }
  ~AlignedCopy() {
    Unpoison(block_, offset_);
    ::operator delete (block_, std::align_val_t{64});
  }
  AlignedCopy(const AlignedCopy&) = delete;
  AlignedCopy& operator=(const AlignedCopy&) = delete;

  // data returns the first byte of the copy.
  uint8_t* data() { return block_ + offset_; }
  // size returns the number of bytes copied.
  size_t size() const { return size_; }
  // span returns the copy.
  std::span<uint8_t> span() { return {data(), size_}; }

 private:
  size_t offset_;
  size_t size_;
  uint8_t* block_;
};

// Reader hands out a fuzzer input piece by piece; past the end it returns
// zeros, so every input is a valid program of choices.
class Reader {
 public:
  // Reader reads `data`, which must outlive it.
  explicit Reader(std::span<const uint8_t> data) : data_(data) {}

  // U8 returns the next byte, or 0 at the end.
  uint8_t U8() { return pos_ < data_.size() ? data_[pos_++] : 0; }

  // U16 returns the next two bytes, big-endian.
  uint16_t U16() { return static_cast<uint16_t>(U8() << 8 | U8()); }

  // U32 returns the next four bytes, big-endian.
  uint32_t U32() { return uint32_t{U16()} << 16 | U16(); }

  // Bool returns the low bit of the next byte.
  bool Bool() { return U8() & 1; }

  // Bytes returns the next `n` bytes, fewer at the end of the input.
  std::span<const uint8_t> Bytes(size_t n) {
    n = n < remaining() ? n : remaining();
    auto out = data_.subspan(pos_, n);
    pos_ += n;
    return out;
  }

  // Rest returns everything not read yet.
  std::span<const uint8_t> Rest() { return Bytes(remaining()); }

  // remaining returns the number of bytes not read yet.
  size_t remaining() const { return data_.size() - pos_; }

  // empty reports whether everything has been read.
  bool empty() const { return remaining() == 0; }

 private:
  std::span<const uint8_t> data_;
  size_t pos_ = 0;
};

}  // namespace ipsum::fuzz

#endif  // IPSUM_TESTING_FUZZ_FUZZ_UTIL_H_
