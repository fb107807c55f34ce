// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Chunk: the reference-counted block of bytes that buffer::View windows onto,
// and the pool that recycles chunks by size class. Not API: only //buffer may
// depend on it; users see chunks through buffer::View and buffer::Buffer.
//
// A chunk is one allocation: a 64-byte header (reference count, capacity,
// size class, free-list link) followed by `capacity()` bytes, which start on
// a cache-line (64-byte) boundary, the alignment the wide checksum loops
// like best. Capacities are the power-of-two size classes 64 B ... 64 KiB; a
// request larger than 64 KiB gets a chunk of exactly that size, allocated
// and freed directly. Each thread keeps a short lock-free cache per class in
// front of a global, bounded free list per class behind its own mutex (see
// chunk.cc), so steady-state traffic recycles chunks without calling the
// allocator and, mostly, without taking a lock.
//
// The reference count is atomic: views on the same chunk may live in
// different threads. A view that finds the count at 1 owns the chunk alone
// and may write to it; otherwise writes go through a copy (copy-on-write).

#ifndef IPSUM_BUFFER_INTERNAL_CHUNK_H_
#define IPSUM_BUFFER_INTERNAL_CHUNK_H_

#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>

namespace ipsum::buffer::internal {

// kNumSizeClasses is the number of pooled size classes: 64 << 0 ... 64 << 10.
inline constexpr int kNumSizeClasses = 11;

// kSmallestClass is the capacity of the smallest size class.
inline constexpr size_t kSmallestClass = 64;

// kLargestClass is the capacity of the largest size class (64 KiB).
inline constexpr size_t kLargestClass = kSmallestClass << (kNumSizeClasses - 1);

// SizeClassFor returns the index of the smallest size class whose capacity is
// at least `n`, or -1 when `n` exceeds kLargestClass.
constexpr int SizeClassFor(size_t n) {
  if (n > kLargestClass) return -1;
  if (n <= kSmallestClass) return 0;
  // The class of capacity 2^k holds n in (2^(k-1), 2^k]; kSmallestClass is
  // 2^6.
  return static_cast<int>(std::bit_width(n - 1)) - 6;
}
static_assert(kSmallestClass == 64);

// Chunk is a reference-counted block of bytes. Create it with New (reference
// count 1); every Ref is matched by an Unref, and the last Unref returns the
// chunk to its pool (or to the allocator).
class alignas(64) Chunk {
 public:
  // New returns a chunk of capacity at least `min_capacity` with a reference
  // count of 1. Its bytes are uninitialized. Never returns null (allocation
  // failure is fatal, as with operator new).
  static Chunk* New(size_t min_capacity);

  Chunk(const Chunk&) = delete;
  Chunk& operator=(const Chunk&) = delete;

  // Ref adds a reference. The caller must already hold one.
  void Ref() { refs_.fetch_add(1, std::memory_order_relaxed); }

  // Unref drops a reference; the last one recycles the chunk, after which
  // neither the chunk nor its bytes may be touched. The only reference is
  // dropped without an atomic read-modify-write: no other thread can take a
  // reference it does not have, and the acquire load orders the release
  // after every access made through references dropped before.
  void Unref() {
    if (refs_.load(std::memory_order_acquire) == 1 ||
        refs_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      Release(this);
    }
  }

  // unique reports whether the caller holds the only reference, which makes
  // writing to any byte of the chunk safe. The acquire load orders those
  // writes after every access made through references since dropped.
  bool unique() const { return refs_.load(std::memory_order_acquire) == 1; }

  // refs returns the current reference count (for tests and assertions).
  uint32_t refs() const { return refs_.load(std::memory_order_relaxed); }

  // capacity returns the number of bytes at data().
  size_t capacity() const { return capacity_; }

  // data returns the chunk's bytes.
  uint8_t* data() { return reinterpret_cast<uint8_t*>(this) + sizeof(Chunk); }
  const uint8_t* data() const {
    return reinterpret_cast<const uint8_t*>(this) + sizeof(Chunk);
  }

 private:
  friend class Pool;

  Chunk(size_t capacity, int size_class)
      : size_class_(size_class), capacity_(capacity) {}
  ~Chunk() = default;

  static void Release(Chunk* c);

  std::atomic<uint32_t> refs_{1};
  int32_t size_class_;  // -1: not pooled.
  size_t capacity_;
  Chunk* next_free_ = nullptr;  // Free-list link, guarded by the class mutex.
};

static_assert(sizeof(Chunk) == 64);

// PoolCounters are the pool's running totals; see buffer::PoolStats.
struct PoolCounters {
  uint64_t allocated = 0;  // Chunks obtained from the allocator.
  uint64_t reused = 0;     // Chunks handed out again from a free list.
  uint64_t freed = 0;      // Chunks returned to the allocator.
  uint64_t live = 0;       // Chunks handed out and not yet released.
  uint64_t cached = 0;     // Chunks waiting on the free lists.
};

// ReadPoolCounters returns a snapshot of the counters, summed over classes.
PoolCounters ReadPoolCounters();

// DrainPool returns every chunk cached in the global pool and in the calling
// thread's cache to the allocator (other threads' caches are theirs).
void DrainPool();

// FreeListLimit returns the most chunks size class `c` keeps cached, unless
// ReservePool raised that bound.
size_t FreeListLimit(int c);

// ReservePool raises to `count` the most chunks size class `c` keeps cached
// in the global pool (never lowers it); see buffer::ReservePoolChunks.
void ReservePool(int c, size_t count);

}  // namespace ipsum::buffer::internal

#endif  // IPSUM_BUFFER_INTERNAL_CHUNK_H_
