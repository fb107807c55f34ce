// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// The chunk pool, in two layers:
//
//   - A per-thread cache: for each size class a short free list that only
//     its thread touches, so the steady state of a send or receive loop
//     (take a chunk, give it back) takes no lock at all. A release into
//     it is a dozen instructions, without a call (Chunk::Release).
//   - A global pool: one bounded free list per size class behind its own
//     mutex. A thread's cache refills from it one chunk at a time, spills
//     half of itself into it when full, and empties into it when the thread
//     exits.
//
// The global pool is created on first use and never destroyed, so chunks
// released by static destructors or late threads still find it, and cached
// chunks stay reachable (not leaks) at exit. A thread whose cache has been
// flushed (it is exiting) goes to the global pool directly.
//
// Statistics are event counts: chunks allocated, reused, freed and given
// back, global ones under the class mutex, per-thread ones in relaxed
// atomics written only by their thread. `live` and `cached` are derived from
// them, so a snapshot taken while other threads work is approximate, and
// exact when they are quiet.

#include "buffer/internal/chunk.h"

#include <algorithm>
#include <mutex>
#include <new>

namespace ipsum::buffer::internal {

// FreeListLimit caps each global class at about 1 MiB of cached bytes, at
// least 8 chunks and at most 512, by default: ReservePool raises a class's
// bound for a driver that sizes its buffers to its ring.
size_t FreeListLimit(int c) {
  size_t n = (size_t{1} << 20) / (kSmallestClass << c);
  return std::clamp<size_t>(n, 8, 512);
}

namespace {

// ThreadCacheLimit caps each class of a thread's cache at about 64 KiB of
// cached bytes, at least 2 chunks and at most 32.
constexpr uint32_t ThreadCacheLimit(int c) {
  size_t n = (size_t{64} << 10) / (kSmallestClass << c);
  return static_cast<uint32_t>(std::clamp<size_t>(n, 2, 32));
}

// Bump adds 1 to a counter that only the calling thread writes.
inline void Bump(std::atomic<uint64_t>& counter) {
  counter.store(counter.load(std::memory_order_relaxed) + 1,
                std::memory_order_relaxed);
}

}  // namespace

// ThreadCache is one thread's free lists. Constant-initialized and trivially
// destructible, so it can be used at any point of the thread's life; the
// ThreadCacheFlusher below empties it when the thread exits.
struct ThreadCache {
  enum State : uint8_t { kUnregistered, kActive, kFlushed };

  Chunk* head[kNumSizeClasses];
  // room[c] is how many more chunks class c takes before it spills:
  // ThreadCacheLimit(c) less the length of head[c] while the cache is
  // active, 0 while it is unregistered or flushed, so that Release's fast
  // path (room for the chunk's class) needs no look at `state`. The lists
  // of an inactive cache are empty.
  uint32_t room[kNumSizeClasses];
  State state;
  // Event counts, written by this thread only, read by GetPoolStats.
  std::atomic<uint64_t> reused;  // Chunks taken from this cache.
  std::atomic<uint64_t> given;   // Chunks given to this cache.
  // Links in the pool's registry of caches, guarded by its mutex.
  ThreadCache* prev;
  ThreadCache* next;
};

namespace {

constinit thread_local ThreadCache t_cache{};

// CachedCount returns the length of class `c`'s list in `tc`, an active
// cache.
uint32_t CachedCount(const ThreadCache& tc, int c) {
  return ThreadCacheLimit(c) - tc.room[c];
}

}  // namespace

class Pool {
 public:
  static Pool& Get() {
    static Pool* const pool = new Pool();  // Never destroyed; see above.
    return *pool;
  }

  Pool() {
    for (int c = 0; c < kNumSizeClasses; ++c) {
      classes_[c].limit = FreeListLimit(c);
    }
  }

  // Reserve raises class `c`'s bound to `count` chunks; never lowers it.
  void Reserve(int c, size_t count) {
    Class& cls = classes_[c];
    std::lock_guard<std::mutex> lock(cls.mu);
    cls.limit = std::max(cls.limit, count);
  }

  // PushCached adds `chunk` to class `c`'s list in `tc`, an active cache
  // with room for it.
  static void PushCached(ThreadCache& tc, int c, Chunk* chunk) {
    chunk->next_free_ = tc.head[c];
    tc.head[c] = chunk;
    --tc.room[c];
    Bump(tc.given);
  }

  Chunk* Take(size_t min_capacity) {
    int c = SizeClassFor(min_capacity);
    if (c < 0) {
      {
        std::lock_guard<std::mutex> lock(large_mu_);
        ++large_.allocated;
      }
      return Allocate(min_capacity, -1);
    }
    ThreadCache& tc = t_cache;
    if (Chunk* head = tc.head[c]) {
      tc.head[c] = head->next_free_;  // A non-empty list: an active cache.
      ++tc.room[c];
      Bump(tc.reused);
      return Reset(head);
    }
    Class& cls = classes_[c];
    {
      std::lock_guard<std::mutex> lock(cls.mu);
      if (Chunk* head = cls.head) {
        cls.head = head->next_free_;
        --cls.cached;
        ++cls.counters.reused;
        return Reset(head);
      }
      ++cls.counters.allocated;
    }
    return Allocate(kSmallestClass << c, c);
  }

  void Give(Chunk* chunk) {
    int c = chunk->size_class_;
    if (c < 0) {
      {
        std::lock_guard<std::mutex> lock(large_mu_);
        ++large_.given;
        ++large_.freed;
      }
      Free(chunk);
      return;
    }
    ThreadCache& tc = t_cache;
    if (tc.state == ThreadCache::kUnregistered) Register(tc);
    if (tc.state == ThreadCache::kActive) {
      if (tc.room[c] == 0) Spill(tc, c, ThreadCacheLimit(c) / 2);
      PushCached(tc, c, chunk);
      return;
    }
    // The thread is exiting and its cache is flushed: go global.
    Chunk* extra = nullptr;
    {
      Class& cls = classes_[c];
      std::lock_guard<std::mutex> lock(cls.mu);
      ++cls.counters.given;
      extra = PushLocked(cls, chunk);
    }
    if (extra != nullptr) Free(extra);
  }

  // Flush moves all of `tc`'s chunks to the global pool (freeing what does
  // not fit), folds its counters into the retired totals and unregisters
  // it. Later calls from its thread go to the global pool.
  void Flush(ThreadCache& tc) {
    for (int c = 0; c < kNumSizeClasses; ++c) {
      Spill(tc, c, CachedCount(tc, c));
      tc.room[c] = 0;  // Inactive from here on.
    }
    std::lock_guard<std::mutex> lock(registry_mu_);
    retired_reused_ += tc.reused.load(std::memory_order_relaxed);
    retired_given_ += tc.given.load(std::memory_order_relaxed);
    Unlink(tc);
    tc.state = ThreadCache::kFlushed;
  }

  PoolCounters Read() {
    Counters total;
    for (Class& cls : classes_) {
      std::lock_guard<std::mutex> lock(cls.mu);
      total.Add(cls.counters);
    }
    {
      std::lock_guard<std::mutex> lock(large_mu_);
      total.Add(large_);
    }
    {
      std::lock_guard<std::mutex> lock(registry_mu_);
      total.reused += retired_reused_;
      total.given += retired_given_;
      for (ThreadCache* tc = caches_; tc != nullptr; tc = tc->next) {
        total.reused += tc->reused.load(std::memory_order_relaxed);
        total.given += tc->given.load(std::memory_order_relaxed);
      }
    }
    PoolCounters out;
    out.allocated = total.allocated;
    out.reused = total.reused;
    out.freed = total.freed;
    out.live = total.allocated + total.reused - total.given;
    out.cached = total.allocated - total.freed - out.live;
    return out;
  }

  void Drain() {
    ThreadCache& tc = t_cache;
    if (tc.state == ThreadCache::kActive) {
      for (int c = 0; c < kNumSizeClasses; ++c) {
        Spill(tc, c, CachedCount(tc, c));
      }
    }
    for (Class& cls : classes_) {
      Chunk* list;
      {
        std::lock_guard<std::mutex> lock(cls.mu);
        list = cls.head;
        cls.head = nullptr;
        cls.counters.freed += cls.cached;
        cls.cached = 0;
      }
      FreeList(list);
    }
  }

 private:
  // Counters are event counts (see the file comment).
  struct Counters {
    uint64_t allocated = 0;  // Obtained from the allocator.
    uint64_t reused = 0;     // Handed out again from a free list.
    uint64_t freed = 0;      // Returned to the allocator.
    uint64_t given = 0;      // Released by their last view.

    void Add(const Counters& o) {
      allocated += o.allocated;
      reused += o.reused;
      freed += o.freed;
      given += o.given;
    }
  };

  struct Class {
    std::mutex mu;
    Chunk* head = nullptr;
    size_t cached = 0;  // Length of the list at `head`.
    size_t limit = 0;   // Most chunks the list keeps: FreeListLimit or more.
    Counters counters;
  };

  static Chunk* Allocate(size_t capacity, int size_class) {
    void* raw = ::operator new (sizeof(Chunk) + capacity,
                                std::align_val_t{alignof(Chunk)});
    return new (raw) Chunk(capacity, size_class);
  }

  static void Free(Chunk* chunk) {
    chunk->~Chunk();
    ::operator delete (static_cast<void*>(chunk),
                       std::align_val_t{alignof(Chunk)});
  }

  static void FreeList(Chunk* list) {
    while (list != nullptr) {
      Chunk* next = list->next_free_;
      Free(list);
      list = next;
    }
  }

  // Reset readies a cached chunk for its new owner: the count reached 0 in
  // Release; restart it.
  static Chunk* Reset(Chunk* chunk) {
    chunk->next_free_ = nullptr;
    chunk->refs_.store(1, std::memory_order_relaxed);
    return chunk;
  }

  // PushLocked adds `chunk` to `cls` if it has room and returns null, or
  // returns the chunk for the caller to free (outside the lock).
  static Chunk* PushLocked(Class& cls, Chunk* chunk) {
    if (cls.cached < cls.limit) {
      chunk->next_free_ = cls.head;
      cls.head = chunk;
      ++cls.cached;
      return nullptr;
    }
    ++cls.counters.freed;
    chunk->next_free_ = nullptr;
    return chunk;
  }

  // Spill moves `n` chunks of class `c` from `tc` to the global pool,
  // freeing those that do not fit. The n chunks are cut from the thread's
  // list before the lock is taken (the list is the thread's own) and, when
  // the global list has room for all of them, the common case, spliced onto
  // it whole: the lock is held for a few stores, not n pushes.
  void Spill(ThreadCache& tc, int c, uint32_t n) {
    if (n == 0) return;
    Chunk* const first = tc.head[c];
    Chunk* last = first;
    for (uint32_t i = 1; i < n; ++i) last = last->next_free_;
    tc.head[c] = last->next_free_;
    tc.room[c] += n;
    last->next_free_ = nullptr;
    Chunk* to_free = nullptr;
    {
      Class& cls = classes_[c];
      std::lock_guard<std::mutex> lock(cls.mu);
      if (cls.cached + n <= cls.limit) {
        last->next_free_ = cls.head;
        cls.head = first;
        cls.cached += n;
      } else {
        for (Chunk* chunk = first; chunk != nullptr;) {
          Chunk* const next = chunk->next_free_;
          if (Chunk* extra = PushLocked(cls, chunk)) {
            extra->next_free_ = to_free;
            to_free = extra;
          }
          chunk = next;
        }
      }
    }
    FreeList(to_free);
  }

  void Register(ThreadCache& tc);

  void Unlink(ThreadCache& tc) {
    if (tc.prev != nullptr) tc.prev->next = tc.next;
    if (tc.next != nullptr) tc.next->prev = tc.prev;
    if (caches_ == &tc) caches_ = tc.next;
    tc.prev = tc.next = nullptr;
  }

  Class classes_[kNumSizeClasses];
  std::mutex large_mu_;
  Counters large_;
  std::mutex registry_mu_;
  ThreadCache* caches_ = nullptr;  // Registered (active) thread caches.
  uint64_t retired_reused_ = 0;    // Counts of flushed caches.
  uint64_t retired_given_ = 0;
};

namespace {

// ThreadCacheFlusher flushes the thread's cache when the thread exits. It is
// a separate thread_local because it has a destructor: t_cache itself must
// stay usable after it (for chunks released by later thread_local
// destructors, which then go to the global pool).
struct ThreadCacheFlusher {
  bool armed = false;
  ~ThreadCacheFlusher() {
    if (armed) Pool::Get().Flush(t_cache);
  }
};

thread_local ThreadCacheFlusher t_flusher;

}  // namespace

void Pool::Register(ThreadCache& tc) {
  t_flusher.armed = true;  // First use constructs it and arms its destructor.
  std::lock_guard<std::mutex> lock(registry_mu_);
  tc.prev = nullptr;
  tc.next = caches_;
  if (caches_ != nullptr) caches_->prev = &tc;
  caches_ = &tc;
  for (int c = 0; c < kNumSizeClasses; ++c) tc.room[c] = ThreadCacheLimit(c);
  tc.state = ThreadCache::kActive;
}

Chunk* Chunk::New(size_t min_capacity) {
  return Pool::Get().Take(min_capacity);
}

namespace {

// GiveToPool is Pool::Give out of line, so that Release's fast path, which
// makes no call, needs no stack frame.
[[gnu::noinline]] void GiveToPool(Chunk* chunk) { Pool::Get().Give(chunk); }

}  // namespace

void Chunk::Release(Chunk* chunk) {
  // The steady state of a send or receive loop, here without Pool::Get's
  // guard or a look at the cache's state: the thread's cache has room for
  // the chunk's class (an unregistered or flushed cache has none, and a
  // chunk not pooled has no class: its size_class_ of -1 is out of range
  // unsigned). Everything else is Give's.
  ThreadCache& tc = t_cache;
  const auto c = static_cast<uint32_t>(chunk->size_class_);
  if (c < kNumSizeClasses && tc.room[c] != 0) {
    Pool::PushCached(tc, static_cast<int>(c), chunk);
    return;
  }
  GiveToPool(chunk);
}

PoolCounters ReadPoolCounters() { return Pool::Get().Read(); }

void DrainPool() { Pool::Get().Drain(); }

void ReservePool(int c, size_t count) { Pool::Get().Reserve(c, count); }

}  // namespace ipsum::buffer::internal
