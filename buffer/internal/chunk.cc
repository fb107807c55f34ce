// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// The chunk pool: one bounded free list per size class, each behind its own
// mutex. The pool object is created on first use and never destroyed, so
// chunks released by static destructors or late threads still find it, and
// cached chunks stay reachable (not leaks) at exit.

#include "buffer/internal/chunk.h"

#include <algorithm>
#include <mutex>
#include <new>

namespace ipsum::buffer::internal {

// FreeListLimit caps each class at about 1 MiB of cached bytes, at least 8
// chunks and at most 512.
size_t FreeListLimit(int c) {
  size_t n = (size_t{1} << 20) / (kSmallestClass << c);
  return std::clamp<size_t>(n, 8, 512);
}

class Pool {
 public:
  static Pool& Get() {
    static Pool* const pool = new Pool();  // Never destroyed; see above.
    return *pool;
  }

  Chunk* Take(size_t min_capacity) {
    int c = SizeClassFor(min_capacity);
    if (c < 0) {
      {
        std::lock_guard<std::mutex> lock(large_mu_);
        ++large_.allocated;
        ++large_.live;
      }
      return Allocate(min_capacity, -1);
    }
    Class& cls = classes_[c];
    {
      std::lock_guard<std::mutex> lock(cls.mu);
      ++cls.counters.live;
      if (Chunk* head = cls.head) {
        cls.head = head->next_free_;
        --cls.counters.cached;
        ++cls.counters.reused;
        head->next_free_ = nullptr;
        // The count reached 0 in Release; restart it for the new owner.
        head->refs_.store(1, std::memory_order_relaxed);
        return head;
      }
      ++cls.counters.allocated;
    }
    return Allocate(kSmallestClass << c, c);
  }

  void Give(Chunk* chunk) {
    int c = chunk->size_class_;
    if (c >= 0) {
      Class& cls = classes_[c];
      std::lock_guard<std::mutex> lock(cls.mu);
      --cls.counters.live;
      if (cls.counters.cached < FreeListLimit(c)) {
        chunk->next_free_ = cls.head;
        cls.head = chunk;
        ++cls.counters.cached;
        return;
      }
      ++cls.counters.freed;
    } else {
      std::lock_guard<std::mutex> lock(large_mu_);
      --large_.live;
      ++large_.freed;
    }
    Free(chunk);
  }

  PoolCounters Read() {
    PoolCounters total;
    auto add = [&total](const PoolCounters& p) {
      total.allocated += p.allocated;
      total.reused += p.reused;
      total.freed += p.freed;
      total.live += p.live;
      total.cached += p.cached;
    };
    for (Class& cls : classes_) {
      std::lock_guard<std::mutex> lock(cls.mu);
      add(cls.counters);
    }
    std::lock_guard<std::mutex> lock(large_mu_);
    add(large_);
    return total;
  }

  void Drain() {
    for (Class& cls : classes_) {
      Chunk* list;
      {
        std::lock_guard<std::mutex> lock(cls.mu);
        list = cls.head;
        cls.head = nullptr;
        cls.counters.freed += cls.counters.cached;
        cls.counters.cached = 0;
      }
      while (list != nullptr) {
        Chunk* next = list->next_free_;
        Free(list);
        list = next;
      }
    }
  }

 private:
  struct Class {
    std::mutex mu;
    Chunk* head = nullptr;
    PoolCounters counters;
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

  Class classes_[kNumSizeClasses];
  std::mutex large_mu_;
  PoolCounters large_;
};

Chunk* Chunk::New(size_t min_capacity) {
  return Pool::Get().Take(min_capacity);
}

void Chunk::Release(Chunk* c) { Pool::Get().Give(c); }

PoolCounters ReadPoolCounters() { return Pool::Get().Read(); }

void DrainPool() { Pool::Get().Drain(); }

}  // namespace ipsum::buffer::internal
