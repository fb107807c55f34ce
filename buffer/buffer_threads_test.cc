// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Chunks shared across threads: clones and split halves of one buffer are
// made, written (copy-on-write), summed, handed to other threads and
// released in random order, concurrently. Run under --config=tsan for data
// races on the reference counts and the pool, and --config=asan for leaks
// and use-after-free; the pool's live count must return to where it was.

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <deque>
#include <mutex>
#include <optional>
#include <random>
#include <thread>
#include <utility>
#include <vector>

#include "buffer/buffer.h"
#include "gtest/gtest.h"

namespace ipsum::buffer {
namespace {

using Bytes = std::vector<uint8_t>;

// RefSum is a byte-wise reference Internet checksum (folded, not
// complemented) of b[offset, offset + length), independent of //checksum.
uint16_t RefSum(const Bytes& b, size_t offset, size_t length) {
  uint64_t sum = 0;
  for (size_t i = 0; i < length; ++i) {
    uint64_t byte = b[offset + i];
    sum += (i % 2 == 0) ? byte << 8 : byte;
  }
  while (sum > 0xffff) sum = (sum & 0xffff) + (sum >> 16);
  return static_cast<uint16_t>(sum);
}

// Piece is a buffer and the bytes it must hold.
struct Piece {
  Buffer buf;
  Bytes want;
};

// Exchange is a mutex-protected pile of pieces that threads hand over.
class Exchange {
 public:
  void Put(Piece p) {
    std::lock_guard<std::mutex> lock(mu_);
    pieces_.push_back(std::move(p));
  }
  std::optional<Piece> Take() {
    std::lock_guard<std::mutex> lock(mu_);
    if (pieces_.empty()) return std::nullopt;
    Piece p = std::move(pieces_.front());
    pieces_.pop_front();
    return p;
  }

 private:
  std::mutex mu_;
  std::deque<Piece> pieces_;
};

void ExpectHolds(const Piece& p) {
  ASSERT_EQ(p.buf.Flatten(), p.want);
  ASSERT_EQ(p.buf.ChecksumAll(), RefSum(p.want, 0, p.want.size()));
}

#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__) || \
    defined(__mips__)
constexpr int kRounds = 500;
#else
constexpr int kRounds = 2000;
#endif

TEST(BufferThreadsTest, ClonesAndSplitsSharedAcrossThreadsReleaseEveryChunk) {
  const uint64_t live_before = GetPoolStats().live;
  std::mt19937_64 setup(7);
  Bytes bytes(3001);
  for (auto& b : bytes) b = static_cast<uint8_t>(setup());
  // 17 views of odd lengths, in chunks of several size classes.
  Buffer source_buf;
  {
    size_t at = 0;
    for (int i = 0; at < bytes.size(); ++i) {
      size_t n = std::min<size_t>(bytes.size() - at, 2 * (i % 9) * 20 + 37);
      source_buf.Append(View::Copy(std::span(bytes).subspan(at, n), i % 3));
      at += n;
    }
  }
  const Buffer& source = source_buf;  // Read concurrently, never written.
  ASSERT_GE(source.view_count(), 10u);

  Exchange exchange;
  constexpr int kThreads = 4;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      std::mt19937_64 rng(100 + t);
      std::vector<Piece> mine;
      for (int round = 0; round < kRounds; ++round) {
        // Clone the shared source (concurrent reads, atomic increments).
        Piece whole{source.Clone(), bytes};
        // Split it; both halves keep sharing chunks with the source.
        size_t at = rng() % (bytes.size() + 1);
        std::optional<Buffer> tail_buf = whole.buf.Split(at);
        ASSERT_TRUE(tail_buf.has_value());
        Piece tail{std::move(*tail_buf),
                   Bytes(bytes.begin() + at, bytes.end())};
        whole.want.resize(at);
        // Write through one half: copy-on-write, the source must not change.
        Piece& w = (rng() & 1) ? whole : tail;
        if (!w.want.empty()) {
          size_t off = rng() % w.want.size();
          size_t len = std::min<size_t>(w.want.size() - off, rng() % 64);
          Bytes patch(len, static_cast<uint8_t>(t + 1));
          ASSERT_TRUE(w.buf.CopyIn(off, patch));
          std::copy(patch.begin(), patch.end(), w.want.begin() + off);
        }
        // Prepend a header to the other (a new chunk or shared headroom).
        Piece& h = (&w == &whole) ? tail : whole;
        std::memset(h.buf.Prepend(20).data(), 0xee, 20);
        h.want.insert(h.want.begin(), 20, 0xee);
        ASSERT_NO_FATAL_FAILURE(ExpectHolds(whole));
        ASSERT_NO_FATAL_FAILURE(ExpectHolds(tail));
        // Hand some pieces to other threads, keep some, take some.
        if (rng() % 3 == 0) {
          exchange.Put(std::move(whole));
        } else {
          mine.push_back(std::move(whole));
        }
        mine.push_back(std::move(tail));
        if (std::optional<Piece> other = exchange.Take()) {
          ASSERT_NO_FATAL_FAILURE(ExpectHolds(*other));
          mine.push_back(std::move(*other));
        }
        // Release kept pieces in random order.
        while (mine.size() > 8) {
          size_t k = rng() % mine.size();
          std::swap(mine[k], mine.back());
          ASSERT_NO_FATAL_FAILURE(ExpectHolds(mine.back()));
          mine.pop_back();
        }
      }
      while (!mine.empty()) {
        size_t k = rng() % mine.size();
        std::swap(mine[k], mine.back());
        mine.pop_back();
      }
    });
  }
  for (std::thread& th : threads) th.join();
  while (std::optional<Piece> p = exchange.Take()) ExpectHolds(*p);
  EXPECT_EQ(source.Flatten(), bytes);
  source_buf.Clear();
  EXPECT_EQ(GetPoolStats().live, live_before);
}

TEST(BufferThreadsTest, LastReferenceDroppedInAnotherThreadMakesViewUnique) {
  for (int round = 0; round < 200; ++round) {
    Buffer a = Buffer::Copy(Bytes(100, 1), 32);
    Buffer b = a.Clone();
    std::thread other([&b] { b.Clear(); });
    other.join();
    // The release in `other` happened-before the join: the chunk is unique
    // again, so Prepend writes into its headroom without a new view.
    EXPECT_FALSE(a.views()[0].shared());
    std::memset(a.Prepend(20).data(), 2, 20);
    EXPECT_EQ(a.view_count(), 1u);
  }
}

TEST(BufferThreadsTest, WriteInPlaceAfterAnotherThreadDropsItsClone) {
  // No lock and no join orders the other thread's reads before our writes:
  // only the reference count does (release on its drop, acquire in our
  // check). TSan reports a race here if either ordering is missing.
  for (int round = 0; round < 100; ++round) {
    Bytes bytes(300, static_cast<uint8_t>(round));
    Buffer mine = Buffer::Copy(bytes, 32);
    Buffer theirs = mine.Clone();
    std::thread reader([b = std::move(theirs), &bytes]() mutable {
      EXPECT_EQ(b.ChecksumAll(), RefSum(bytes, 0, bytes.size()));
      b.Clear();
    });
    while (mine.views()[0].shared()) std::this_thread::yield();
    const uint8_t* before = mine.views()[0].data();
    ASSERT_TRUE(mine.CopyIn(0, Bytes(300, 0xff)));  // In place: unshared.
    std::memset(mine.Prepend(32).data(), 0xee, 32);
    EXPECT_EQ(mine.views()[0].data() + 32, before);
    reader.join();
  }
}

// t_late is constructed before the thread's chunk cache is first used, so
// it is destroyed after the cache has been flushed at thread exit.
thread_local Buffer t_late;

TEST(BufferThreadsTest, ThreadCachesAreFlushedWhenThreadsExit) {
  const PoolStats before = GetPoolStats();
  std::thread worker([] {
    t_late = Buffer::Copy(Bytes(100, 1));
    // Fill this thread's cache, past its per-class limit.
    std::vector<View> views;
    for (int i = 0; i < 100; ++i) views.push_back(View::Allocate(1000));
    views.clear();
    Buffer again = Buffer::Copy(Bytes(1000, 2));  // From the thread's cache.
  });
  worker.join();
  const PoolStats after = GetPoolStats();
  EXPECT_EQ(after.live, before.live);  // t_late went back too.
  EXPECT_GE(after.reused, before.reused + 1);
  // The worker's cached chunks are now in the global pool, for this thread.
  View v = View::Allocate(1000);
  EXPECT_EQ(GetPoolStats().allocated, after.allocated);
}

TEST(BufferThreadsTest, ConcurrentCopyInOnClonesOfOneChunk) {
  Bytes bytes(1000, 0);
  Buffer base = Buffer::Copy(bytes);
  constexpr int kThreads = 4;
  std::vector<Buffer> clones;
  for (int t = 0; t < kThreads; ++t) clones.push_back(base.Clone());
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&clones, t] {
      Bytes patch(500, static_cast<uint8_t>(t + 1));
      for (int i = 0; i < 50; ++i) {
        ASSERT_TRUE(clones[t].CopyIn(i, patch));
      }
    });
  }
  for (std::thread& th : threads) th.join();
  EXPECT_EQ(base.Flatten(), bytes);
  for (int t = 0; t < kThreads; ++t) {
    Bytes got = clones[t].Flatten();
    EXPECT_EQ(got[0], t + 1);
    EXPECT_EQ(got[548], t + 1);
    EXPECT_EQ(got[549], 0);
  }
}

}  // namespace
}  // namespace ipsum::buffer
