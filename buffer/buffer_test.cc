// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Tests for buffer::View and buffer::Buffer. Every checksum is compared with
// a byte-wise reference written here, independent of the checksum package;
// every content check compares with a plain std::vector. The model-based
// test applies thousands of seeded random operations to a few Buffers that
// share chunks and to their vector models at once.

#include "buffer/buffer.h"

#include <cstdint>
#include <cstring>
#include <numeric>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"

namespace ipsum::buffer {
namespace {

using Bytes = std::vector<uint8_t>;

// RefSum is the reference Internet checksum: bytes [offset, offset + length)
// of `b` read as big-endian 16-bit words, an odd last byte padded with zero,
// added to `initial` with end-around carry, folded, not complemented.
uint16_t RefSum(const Bytes& b, size_t offset, size_t length,
                uint16_t initial = 0) {
  uint64_t sum = initial;
  for (size_t i = 0; i < length; ++i) {
    uint64_t byte = b[offset + i];
    sum += (i % 2 == 0) ? byte << 8 : byte;
  }
  while (sum > 0xffff) sum = (sum & 0xffff) + (sum >> 16);
  return static_cast<uint16_t>(sum);
}

Bytes RandomBytes(std::mt19937_64& rng, size_t n) {
  Bytes b(n);
  for (auto& x : b) x = static_cast<uint8_t>(rng());
  return b;
}

// Chained returns a buffer holding `bytes` as views of the given lengths
// (which must add up to bytes.size()), each in its own chunk.
Buffer Chained(const Bytes& bytes, const std::vector<size_t>& lengths) {
  Buffer b;
  size_t at = 0;
  for (size_t n : lengths) {
    b.Append(View::Copy(std::span(bytes).subspan(at, n)));
    at += n;
  }
  EXPECT_EQ(at, bytes.size());
  return b;
}

std::span<const uint8_t> S(const Bytes& b) { return b; }

TEST(ReferenceTest, MatchesRfc1071Example) {
  // RFC 1071 section 3: the sum of 00 01 f2 03 f4 f5 f6 f7 is ddf2.
  Bytes b = {0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7};
  EXPECT_EQ(RefSum(b, 0, b.size()), 0xddf2);
}

TEST(ViewTest, CopyHoldsBytesWithHeadroom) {
  Bytes bytes = {1, 2, 3, 4, 5};
  View v = View::Copy(bytes, 40);
  EXPECT_EQ(Bytes(v.span().begin(), v.span().end()), bytes);
  EXPECT_EQ(v.headroom(), 40u);
  EXPECT_GE(v.tailroom(), 64u - 45u);
  EXPECT_FALSE(v.shared());
}

TEST(ViewTest, TrimAndTruncateRejectTooLargeCounts) {
  View v = View::Copy(Bytes{1, 2, 3, 4});
  EXPECT_FALSE(v.TrimFront(5));
  EXPECT_FALSE(v.Truncate(5));
  EXPECT_EQ(v.size(), 4u);
  EXPECT_TRUE(v.TrimFront(1));
  EXPECT_TRUE(v.Truncate(2));
  EXPECT_EQ(v.span()[0], 2);
  EXPECT_EQ(v.span()[1], 3);
  EXPECT_EQ(v.headroom(), 1u);
}

TEST(ViewTest, CopySharesAndWriteThroughSharedViewCopiesFirst) {
  View a = View::Copy(Bytes{1, 2, 3});
  View b = a;
  EXPECT_TRUE(a.shared());
  EXPECT_TRUE(b.shared());
  EXPECT_TRUE(a.SharesChunkWith(b));
  std::span<uint8_t> w = b.MutableSpan();
  w[0] = 9;
  EXPECT_FALSE(a.SharesChunkWith(b));
  EXPECT_FALSE(a.shared());
  EXPECT_FALSE(b.shared());
  EXPECT_EQ(a.span()[0], 1);
  EXPECT_EQ(b.span()[0], 9);
  EXPECT_EQ(b.span()[2], 3);
}

TEST(ViewTest, GrowOnlyWhenUnshared) {
  View a = View::Copy(Bytes{1, 2}, 8);
  {
    View b = a;
    EXPECT_FALSE(a.GrowFront(2));
    EXPECT_FALSE(a.GrowBack(2));
  }
  EXPECT_FALSE(a.GrowFront(9));
  EXPECT_TRUE(a.GrowFront(8));
  EXPECT_EQ(a.size(), 10u);
  EXPECT_TRUE(a.GrowBack(a.tailroom()));
  EXPECT_FALSE(a.GrowBack(1));
}

TEST(ViewTest, EmptyViewHoldsNoChunk) {
  View v;
  EXPECT_TRUE(v.empty());
  EXPECT_EQ(v.data(), nullptr);
  EXPECT_FALSE(v.shared());
  EXPECT_TRUE(v.MutableSpan().empty());
  EXPECT_EQ(v.tailroom(), 0u);
}

TEST(BufferTest, EmptyBufferChecksumIsInitial) {
  Buffer b;
  EXPECT_EQ(b.size(), 0u);
  EXPECT_EQ(b.view_count(), 0u);
  EXPECT_EQ(b.ChecksumAll(0x1234), 0x1234);
  EXPECT_EQ(b.Checksum(0, 0, 7), std::optional<uint16_t>(7));
  EXPECT_EQ(b.Checksum(0, 1), std::nullopt);
  EXPECT_EQ(b.Checksum(1, 0), std::nullopt);
}

TEST(BufferTest, ChecksumOfEveryPartitionMatchesRfc1071Example) {
  Bytes b = {0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7};
  // Each of the 2^7 ways to cut 8 bytes into views.
  for (unsigned cuts = 0; cuts < 128; ++cuts) {
    std::vector<size_t> lengths;
    size_t run = 1;
    for (int i = 0; i < 7; ++i) {
      if (cuts & (1u << i)) {
        lengths.push_back(run);
        run = 1;
      } else {
        ++run;
      }
    }
    lengths.push_back(run);
    Buffer buf = Chained(b, lengths);
    EXPECT_EQ(buf.ChecksumAll(), 0xddf2) << "cuts " << cuts;
  }
}

TEST(BufferTest, ChecksumOfEveryRangeOverOddViewsMatchesReference) {
  std::mt19937_64 rng(1);
  Bytes bytes = RandomBytes(rng, 41);
  // One-byte, odd and even views; empty views are dropped on Append.
  Buffer buf = Chained(bytes, {1, 3, 0, 1, 7, 2, 1, 0, 9, 5, 11, 1});
  EXPECT_EQ(buf.view_count(), 10u);
  for (size_t off = 0; off <= bytes.size(); ++off) {
    for (size_t len = 0; off + len <= bytes.size(); ++len) {
      for (uint16_t init : {0x0000, 0xffff, 0x8001}) {
        ASSERT_EQ(buf.Checksum(off, len, init), RefSum(bytes, off, len, init))
            << off << "+" << len;
      }
    }
  }
}

// ChecksumViews sums the views from a given one to the end, each first
// view counted from an even offset, against the reference over the same
// bytes; past the last view it returns `initial`.
TEST(BufferTest, ChecksumViewsSumsTheViewsFromOneToTheEnd) {
  std::mt19937_64 rng(12);
  const std::vector<std::vector<size_t>> layouts = {
      {1, 3, 1, 7, 2, 1, 9, 5, 11, 1},  // odd and even, short
      {66, 482, 482, 484},              // a frame, headers split
      {54, 1460},
      {14, 40, 32, 700, 700, 1, 63, 64, 2100}};
  for (const std::vector<size_t>& lengths : layouts) {
    size_t total = 0;
    for (size_t n : lengths) total += n;
    Bytes bytes = RandomBytes(rng, total);
    Buffer buf = Chained(bytes, lengths);
    ASSERT_EQ(buf.view_count(), lengths.size());
    size_t start = 0;
    for (size_t v = 0; v <= lengths.size() + 1; ++v) {
      for (uint16_t init : {0x0000, 0xffff, 0x8001}) {
        const uint16_t want = v < lengths.size()
                                  ? RefSum(bytes, start, total - start, init)
                                  : init;
        ASSERT_EQ(buf.ChecksumViews(v, init), want) << v << " " << init;
      }
      if (v < lengths.size()) start += lengths[v];
    }
  }
  EXPECT_EQ(Buffer().ChecksumViews(0, 0x1234), 0x1234);
}

TEST(BufferTest, ChecksumOfSeventeenViewsOfLargePayload) {
  std::mt19937_64 rng(2);
  for (size_t total : {1500u, 65535u, 65536u}) {
    Bytes bytes = RandomBytes(rng, total);
    std::vector<size_t> lengths(17, total / 17 | 1);
    lengths.back() = total - (lengths[0] * 16);
    Buffer buf = Chained(bytes, lengths);
    EXPECT_EQ(buf.ChecksumAll(), RefSum(bytes, 0, total)) << total;
    EXPECT_EQ(buf.Checksum(1, total - 2), RefSum(bytes, 1, total - 2));
  }
}

// Prefetch is a hint: whatever the limit, it changes nothing and touches no
// byte outside the views (ASan would see a read; a prefetch is none, so
// this checks that every count and view shape runs, and leaves the buffer
// as it was).
TEST(BufferTest, PrefetchChangesNothing) {
  std::mt19937_64 rng(7);
  Buffer empty;
  empty.Prefetch(1536);
  EXPECT_EQ(empty.size(), 0u);
  Bytes bytes = RandomBytes(rng, 1514);
  Buffer buf = Chained(bytes, {1, 65, 64, 500, 884});
  for (size_t limit : {0u, 1u, 63u, 64u, 65u, 130u, 1536u, 100000u}) {
    buf.Prefetch(limit);
    EXPECT_EQ(buf.size(), bytes.size()) << limit;
    EXPECT_EQ(buf.view_count(), 5u) << limit;
    EXPECT_EQ(buf.Flatten(), bytes) << limit;
  }
}

TEST(BufferTest, ChecksumAroundTheBatchSizeMatchesReference) {
  // Ranges over 15, 16 and 17 views (one batch of pieces, exactly one, one
  // more) and 33 (a third batch), views of 1 to 3 bytes: every range.
  std::mt19937_64 rng(4);
  for (size_t views : {15u, 16u, 17u, 33u}) {
    std::vector<size_t> lengths;
    size_t total = 0;
    for (size_t i = 0; i < views; ++i) {
      lengths.push_back(1 + (i * 5) % 3);
      total += lengths.back();
    }
    Bytes bytes = RandomBytes(rng, total);
    Buffer buf = Chained(bytes, lengths);
    ASSERT_EQ(buf.view_count(), views);
    for (size_t off = 0; off <= total; ++off) {
      for (size_t len = 0; off + len <= total; ++len) {
        ASSERT_EQ(buf.Checksum(off, len, 0xfffe),
                  RefSum(bytes, off, len, 0xfffe))
            << views << " views, " << off << "+" << len;
      }
    }
  }
}

TEST(BufferTest, ChecksumOverMoreViewsThanOneBatchMatchesReference) {
  // 53 views, odd and even lengths: more than three batches of pieces, and
  // batches that start at odd positions of the range.
  std::mt19937_64 rng(3);
  std::vector<size_t> lengths;
  size_t total = 0;
  for (size_t i = 0; i < 53; ++i) {
    lengths.push_back(1 + (i * 7 + 3) % 97);
    total += lengths.back();
  }
  Bytes bytes = RandomBytes(rng, total);
  Buffer buf = Chained(bytes, lengths);
  ASSERT_EQ(buf.view_count(), 53u);
  for (size_t off = 0; off < 40; ++off) {
    for (size_t len : {size_t{0}, size_t{1}, size_t{333}, total - off}) {
      ASSERT_EQ(buf.Checksum(off, len, 0x8001), RefSum(bytes, off, len, 0x8001))
          << off << "+" << len;
    }
  }
}

TEST(BufferTest, OutOfRangeIsAnErrorAndChangesNothing) {
  Bytes bytes = {1, 2, 3, 4, 5, 6};
  Buffer buf = Chained(bytes, {2, 4});
  const size_t kHuge = SIZE_MAX;
  EXPECT_EQ(buf.Checksum(7, 0), std::nullopt);
  EXPECT_EQ(buf.Checksum(0, 7), std::nullopt);
  EXPECT_EQ(buf.Checksum(3, 4), std::nullopt);
  EXPECT_EQ(buf.Checksum(1, kHuge), std::nullopt);  // offset + length wraps.
  EXPECT_EQ(buf.Checksum(kHuge, 2), std::nullopt);
  EXPECT_EQ(buf.Checksum(6, 0), std::optional<uint16_t>(0));
  EXPECT_EQ(buf.PullUp(5, 2), std::nullopt);
  EXPECT_EQ(buf.PullUp(1, kHuge), std::nullopt);
  EXPECT_EQ(buf.PullUpMutable(0, 7), std::nullopt);
  EXPECT_FALSE(buf.Split(7).has_value());
  EXPECT_FALSE(buf.TrimFront(7));
  EXPECT_FALSE(buf.Truncate(7));
  Bytes out(3);
  EXPECT_FALSE(buf.CopyOut(4, out));
  EXPECT_FALSE(buf.CopyOut(kHuge - 1, out));
  EXPECT_FALSE(buf.CopyIn(4, out));
  int calls = 0;
  EXPECT_FALSE(buf.SubApply(2, 5, [&](std::span<const uint8_t>) { ++calls; }));
  EXPECT_EQ(calls, 0);
  EXPECT_EQ(buf.Flatten(), bytes);
  EXPECT_EQ(buf.view_count(), 2u);
}

TEST(BufferTest, SubApplyVisitsEachContiguousPiece) {
  Bytes bytes(20);
  std::iota(bytes.begin(), bytes.end(), 0);
  Buffer buf = Chained(bytes, {5, 5, 10});
  std::vector<std::pair<uint8_t, size_t>> pieces;
  EXPECT_TRUE(buf.SubApply(3, 10, [&](std::span<const uint8_t> p) {
    pieces.emplace_back(p[0], p.size());
  }));
  std::vector<std::pair<uint8_t, size_t>> want = {{3, 2}, {5, 5}, {10, 3}};
  EXPECT_EQ(pieces, want);
}

TEST(BufferTest, PrependWritesIntoHeadroomOfUnsharedChunk) {
  Bytes payload(100, 0xab);
  Buffer buf = Buffer::Copy(payload, 64);
  const uint8_t* first = buf.views()[0].data();
  std::span<uint8_t> tcp = buf.Prepend(20);
  std::memset(tcp.data(), 0x11, tcp.size());
  std::span<uint8_t> ip = buf.Prepend(20);
  std::memset(ip.data(), 0x22, ip.size());
  EXPECT_EQ(buf.view_count(), 1u);
  EXPECT_EQ(tcp.data(), first - 20);
  EXPECT_EQ(ip.data(), first - 40);
  EXPECT_EQ(buf.size(), 140u);
  Bytes want(20, 0x22);
  want.insert(want.end(), 20, 0x11);
  want.insert(want.end(), payload.begin(), payload.end());
  EXPECT_EQ(buf.Flatten(), want);
}

TEST(BufferTest, PrependToSharedChunkAllocatesViewWithHeadroom) {
  Bytes payload(100, 0xab);
  Buffer buf = Buffer::Copy(payload, 64);
  Buffer clone = buf.Clone();
  std::memset(buf.Prepend(20).data(), 0x11, 20);
  EXPECT_EQ(buf.view_count(), 2u);
  EXPECT_GE(buf.views()[0].headroom(), kPrependHeadroom);
  // The next layer's header lands in the new chunk's headroom.
  std::memset(buf.Prepend(40).data(), 0x22, 40);
  EXPECT_EQ(buf.view_count(), 2u);
  EXPECT_EQ(buf.size(), 160u);
  EXPECT_EQ(clone.Flatten(), payload);
}

TEST(BufferTest, FirstAppendReservesHeadroomForHeaders) {
  Buffer buf;
  buf.Append(S(Bytes(1000, 1)));
  EXPECT_GE(buf.views()[0].headroom(), kPrependHeadroom);
  std::memset(buf.Prepend(20).data(), 2, 20);
  std::memset(buf.Prepend(40).data(), 3, 40);
  std::memset(buf.Prepend(14).data(), 4, 14);
  EXPECT_EQ(buf.view_count(), 1u);
  EXPECT_EQ(buf.size(), 1074u);
}

TEST(BufferTest, AppendBytesFillsTailroomOfUnsharedChunk) {
  Buffer buf;
  Bytes a(10, 1), b(20, 2);
  buf.Append(S(a));
  buf.Append(S(b));
  EXPECT_EQ(buf.view_count(), 1u);
  Buffer clone = buf.Clone();
  buf.Append(S(a));
  EXPECT_EQ(buf.view_count(), 2u);
  EXPECT_EQ(clone.size(), 30u);
  EXPECT_EQ(buf.size(), 40u);
}

TEST(BufferTest, AppendAndChecksumCopiesAndSums) {
  std::mt19937_64 rng(4);
  Buffer buf = Buffer::Copy(Bytes{1, 2, 3});
  for (size_t n : {0u, 1u, 7u, 64u, 1480u, 5000u}) {
    Bytes b = RandomBytes(rng, n);
    size_t before = buf.size();
    EXPECT_EQ(buf.AppendAndChecksum(b, 0x8000), RefSum(b, 0, n, 0x8000)) << n;
    Bytes got(n);
    ASSERT_TRUE(buf.CopyOut(before, got));
    EXPECT_EQ(got, b);
  }
}

TEST(BufferTest, CloneIsCopyOnWrite) {
  std::mt19937_64 rng(3);
  Bytes bytes = RandomBytes(rng, 50);
  Buffer buf = Chained(bytes, {10, 15, 25});
  Buffer clone = buf.Clone();
  EXPECT_TRUE(buf.views()[1].SharesChunkWith(clone.views()[1]));
  Bytes patch = {0xde, 0xad, 0xbe, 0xef};
  ASSERT_TRUE(buf.CopyIn(8, patch));  // Touches views 0 and 1 only.
  EXPECT_EQ(clone.Flatten(), bytes);
  Bytes want = bytes;
  std::copy(patch.begin(), patch.end(), want.begin() + 8);
  EXPECT_EQ(buf.Flatten(), want);
  EXPECT_FALSE(buf.views()[0].SharesChunkWith(clone.views()[0]));
  EXPECT_FALSE(buf.views()[1].SharesChunkWith(clone.views()[1]));
  EXPECT_TRUE(buf.views()[2].SharesChunkWith(clone.views()[2]));
}

TEST(BufferTest, CloneRangeSharesOnlyTheViewsInRange) {
  Bytes bytes(40);
  std::iota(bytes.begin(), bytes.end(), 0);
  Buffer buf = Chained(bytes, {10, 10, 10, 10});
  std::optional<Buffer> seg = buf.CloneRange(15, 10);
  ASSERT_TRUE(seg.has_value());
  EXPECT_EQ(seg->view_count(), 2u);
  EXPECT_EQ(seg->Flatten(), Bytes(bytes.begin() + 15, bytes.begin() + 25));
  EXPECT_TRUE(seg->views()[0].SharesChunkWith(buf.views()[1]));
  EXPECT_TRUE(seg->views()[1].SharesChunkWith(buf.views()[2]));
  EXPECT_FALSE(buf.views()[0].shared());
  EXPECT_FALSE(buf.views()[3].shared());
  EXPECT_FALSE(buf.CloneRange(35, 6).has_value());
  EXPECT_FALSE(buf.CloneRange(41, 0).has_value());
  std::optional<Buffer> empty = buf.CloneRange(40, 0);
  ASSERT_TRUE(empty.has_value());
  EXPECT_TRUE(empty->empty());
}

TEST(BufferTest, DeepCloneSharesNothing) {
  Bytes bytes(30, 7);
  Buffer buf = Chained(bytes, {10, 20});
  Buffer deep = buf.DeepClone();
  EXPECT_EQ(deep.view_count(), 1u);
  EXPECT_FALSE(deep.views()[0].shared());
  EXPECT_EQ(deep.Flatten(), bytes);
}

TEST(BufferTest, SplitSharesTheStraddlingChunkAndAppendMergesItBack) {
  Bytes bytes(30);
  std::iota(bytes.begin(), bytes.end(), 0);
  Buffer buf = Chained(bytes, {10, 20});
  std::optional<Buffer> tail = buf.Split(15);
  ASSERT_TRUE(tail.has_value());
  EXPECT_EQ(buf.size(), 15u);
  EXPECT_EQ(tail->size(), 15u);
  EXPECT_EQ(buf.Flatten(), Bytes(bytes.begin(), bytes.begin() + 15));
  EXPECT_EQ(tail->Flatten(), Bytes(bytes.begin() + 15, bytes.end()));
  EXPECT_TRUE(buf.views()[1].SharesChunkWith(tail->views()[0]));
  buf.Append(std::move(*tail));
  EXPECT_TRUE(tail->empty());
  EXPECT_EQ(buf.view_count(), 2u);  // The two halves merged again.
  EXPECT_FALSE(buf.views()[1].shared());
  EXPECT_EQ(buf.Flatten(), bytes);
}

TEST(BufferTest, SplitAtEndsAndViewBoundaries) {
  Bytes bytes(30, 5);
  Buffer buf = Chained(bytes, {10, 20});
  std::optional<Buffer> all = buf.Split(0);
  ASSERT_TRUE(all.has_value());
  EXPECT_TRUE(buf.empty());
  EXPECT_EQ(all->view_count(), 2u);
  std::optional<Buffer> none = all->Split(30);
  ASSERT_TRUE(none.has_value());
  EXPECT_TRUE(none->empty());
  std::optional<Buffer> second = all->Split(10);
  EXPECT_EQ(all->view_count(), 1u);
  EXPECT_EQ(second->view_count(), 1u);
  EXPECT_FALSE(second->views()[0].shared());
}

TEST(BufferTest, PullUpMergesOnlyTheViewsItNeeds) {
  Bytes bytes(40);
  std::iota(bytes.begin(), bytes.end(), 0);
  Buffer buf = Chained(bytes, {10, 10, 10, 10});
  // Inside one view: no copy.
  std::optional<std::span<const uint8_t>> in = buf.PullUp(12, 5);
  ASSERT_TRUE(in.has_value());
  EXPECT_EQ(in->data(), buf.views()[1].data() + 2);
  EXPECT_EQ(buf.view_count(), 4u);
  // Across views 0 and 1: they become one view.
  std::optional<std::span<const uint8_t>> across = buf.PullUp(5, 10);
  ASSERT_TRUE(across.has_value());
  EXPECT_EQ(Bytes(across->begin(), across->end()),
            Bytes(bytes.begin() + 5, bytes.begin() + 15));
  EXPECT_EQ(buf.view_count(), 3u);
  EXPECT_EQ(buf.views()[0].size(), 20u);
  EXPECT_EQ(buf.Flatten(), bytes);
  // Empty range.
  std::optional<std::span<const uint8_t>> empty = buf.PullUp(40, 0);
  ASSERT_TRUE(empty.has_value());
  EXPECT_TRUE(empty->empty());
}

TEST(BufferTest, PullUpMutableOnCloneLeavesOriginalAlone) {
  Bytes bytes(20, 1);
  Buffer buf = Chained(bytes, {20});
  Buffer clone = buf.Clone();
  std::optional<std::span<uint8_t>> w = clone.PullUpMutable(4, 2);
  ASSERT_TRUE(w.has_value());
  (*w)[0] = 9;
  (*w)[1] = 9;
  EXPECT_EQ(buf.Flatten(), bytes);
  EXPECT_EQ(clone.Flatten()[4], 9);
  EXPECT_EQ(clone.Flatten()[6], 1);
}

TEST(BufferTest, TrimFrontAndTruncateDropWholeViews) {
  Bytes bytes(30);
  std::iota(bytes.begin(), bytes.end(), 0);
  Buffer buf = Chained(bytes, {10, 10, 10});
  EXPECT_TRUE(buf.TrimFront(10));
  EXPECT_EQ(buf.view_count(), 2u);
  EXPECT_TRUE(buf.Truncate(11));
  EXPECT_EQ(buf.view_count(), 2u);
  EXPECT_EQ(buf.Flatten(), Bytes(bytes.begin() + 10, bytes.begin() + 21));
  EXPECT_TRUE(buf.Truncate(10));
  EXPECT_EQ(buf.view_count(), 1u);
  EXPECT_TRUE(buf.TrimFront(10));
  EXPECT_EQ(buf.view_count(), 0u);
  EXPECT_TRUE(buf.TrimFront(0));
  EXPECT_TRUE(buf.Truncate(0));
}

TEST(BufferTest, TrimFrontOfExactlyTheFirstViewMovesTheOthersDown) {
  // A header-splitting NIC's frame: the headers in a view of their own,
  // dropped whole. From 2 to 7 views (past the 4 a Buffer holds inline),
  // with the chunks unshared and with every one shared by a clone.
  for (size_t views = 2; views <= 7; ++views) {
    for (bool shared : {false, true}) {
      SCOPED_TRACE(testing::Message() << views << " views, shared " << shared);
      const uint64_t live_before = GetPoolStats().live;
      {
        std::vector<size_t> lengths(views, 7);
        lengths[0] = 66;
        Bytes bytes(66 + 7 * (views - 1));
        std::iota(bytes.begin(), bytes.end(), 0);
        Buffer buf = Chained(bytes, lengths);
        std::optional<Buffer> clone;
        if (shared) clone = buf.Clone();
        std::vector<const uint8_t*> data;
        for (const View& v : buf.views()) data.push_back(v.data());
        ASSERT_TRUE(buf.TrimFront(66));
        EXPECT_EQ(buf.size(), bytes.size() - 66);
        ASSERT_EQ(buf.view_count(), views - 1);
        for (size_t i = 0; i + 1 < views; ++i) {
          EXPECT_EQ(buf.views()[i].data(), data[i + 1]);  // No byte moved.
          EXPECT_EQ(buf.views()[i].size(), 7u);
          EXPECT_EQ(buf.views()[i].shared(), shared);
        }
        EXPECT_EQ(buf.Flatten(), Bytes(bytes.begin() + 66, bytes.end()));
        EXPECT_EQ(buf.ChecksumAll(), RefSum(bytes, 66, bytes.size() - 66));
        if (shared) {
          // The clone kept the dropped chunk, which is now its alone.
          EXPECT_FALSE(clone->views()[0].shared());
          EXPECT_EQ(clone->Flatten(), bytes);
        } else {
          // The dropped chunk went back to the pool at once.
          EXPECT_EQ(GetPoolStats().live, live_before + views - 1);
        }
        buf.Append(S(Bytes{1, 2, 3}));  // The chain still grows at its end.
        EXPECT_EQ(buf.size(), bytes.size() - 63);
      }
      EXPECT_EQ(GetPoolStats().live, live_before);
    }
  }
}

TEST(BufferTest, TrimFrontOfWholeAndPartViewsReleasesTheWholeOnes) {
  Bytes bytes(40);
  std::iota(bytes.begin(), bytes.end(), 0);
  const uint64_t live_before = GetPoolStats().live;
  {
    Buffer buf = Chained(bytes, {5, 5, 10, 20});
    const uint8_t* third = buf.views()[2].data();
    ASSERT_TRUE(buf.TrimFront(13));  // Two views and 3 bytes of the third.
    ASSERT_EQ(buf.view_count(), 2u);
    EXPECT_EQ(buf.views()[0].data(), third + 3);
    EXPECT_EQ(GetPoolStats().live, live_before + 2);
    EXPECT_EQ(buf.Flatten(), Bytes(bytes.begin() + 13, bytes.end()));
    ASSERT_TRUE(buf.TrimFront(7));  // Exactly the first of two.
    ASSERT_EQ(buf.view_count(), 1u);
    EXPECT_EQ(buf.Flatten(), Bytes(bytes.begin() + 20, bytes.end()));
    ASSERT_TRUE(buf.TrimFront(20));  // Exactly the only one.
    EXPECT_EQ(buf.view_count(), 0u);
    EXPECT_EQ(GetPoolStats().live, live_before);
  }
  EXPECT_EQ(GetPoolStats().live, live_before);
}

TEST(BufferTest, AppendAndPrependSelf) {
  Bytes bytes = {1, 2, 3};
  Buffer buf = Chained(bytes, {1, 2});
  buf.Append(buf);
  EXPECT_EQ(buf.Flatten(), (Bytes{1, 2, 3, 1, 2, 3}));
  buf.Prepend(std::move(buf));
  EXPECT_EQ(buf.size(), 12u);
  buf.Append(buf.views()[0].span());  // Bytes from the buffer itself.
  EXPECT_EQ(buf.Flatten().back(), 1);
  buf.Prepend(buf.views()[1].span());
  EXPECT_EQ(buf.Flatten().front(), 2);
  EXPECT_EQ(buf.size(), 15u);
}

TEST(BufferTest, SelfAppendWhoseJunctionMergesKeepsBytes) {
  // The last view and the first are adjacent windows of one chunk, in the
  // wrong order: appending the buffer to itself merges them at the junction.
  Bytes bytes(10);
  std::iota(bytes.begin(), bytes.end(), 0);
  View whole = View::Copy(bytes);
  View back = whole;
  ASSERT_TRUE(back.TrimFront(5));
  View front = whole;
  ASSERT_TRUE(front.Truncate(5));
  Buffer buf;
  buf.Append(std::move(back));
  buf.Append(S(Bytes{0xaa}));
  buf.Append(std::move(front));
  Bytes once = {5, 6, 7, 8, 9, 0xaa, 0, 1, 2, 3, 4};
  ASSERT_EQ(buf.Flatten(), once);
  buf.Append(buf);
  Bytes twice = once;
  twice.insert(twice.end(), once.begin(), once.end());
  EXPECT_EQ(buf.Flatten(), twice);
  EXPECT_EQ(buf.size(), twice.size());
}

TEST(PoolTest, ReleasedChunksAreReusedAndLiveCountReturns) {
  PoolStats before = GetPoolStats();
  {
    Buffer a = Buffer::Copy(Bytes(1000, 1));
    Buffer b = a.Clone();
  }
  PoolStats mid = GetPoolStats();
  EXPECT_EQ(mid.live, before.live);
  {
    Buffer c = Buffer::Copy(Bytes(1000, 2));  // Same size class.
    PoolStats after = GetPoolStats();
    EXPECT_EQ(after.allocated, mid.allocated);
    EXPECT_EQ(after.reused, mid.reused + 1);
    EXPECT_EQ(after.live, before.live + 1);
  }
  EXPECT_EQ(GetPoolStats().live, before.live);
}

TEST(PoolTest, LargeChunksBypassThePool) {
  PoolStats before = GetPoolStats();
  {
    Buffer big = Buffer::Copy(Bytes(internal::kLargestClass + 1, 3));
    EXPECT_EQ(GetPoolStats().live, before.live + 1);
  }
  PoolStats after = GetPoolStats();
  EXPECT_EQ(after.live, before.live);
  EXPECT_EQ(after.allocated, before.allocated + 1);
  EXPECT_EQ(after.freed, before.freed + 1);
  EXPECT_EQ(after.cached, before.cached);
}

TEST(PoolTest, FreeListsAreBoundedAndDrain) {
  const size_t limit = internal::FreeListLimit(internal::SizeClassFor(1 << 16));
  {
    std::vector<View> views;
    for (size_t i = 0; i < limit + 5; ++i)
      views.push_back(View::Allocate(1 << 16));
  }
  PoolStats s = GetPoolStats();
  EXPECT_GE(s.cached, limit);
  ReleaseCachedChunks();
  EXPECT_EQ(GetPoolStats().cached, 0u);
}

TEST(PoolTest, ThreadCacheSpillsPastItsLimitAndRefillsAfterDrain) {
  // Far more small chunks than the thread's cache holds for their class go
  // back at once (the cache spills into the global lists) and come out
  // again without the allocator; after a drain the cache takes chunks again.
  constexpr size_t kChunks = 300;
  const PoolStats before = GetPoolStats();
  {
    std::vector<View> views;
    for (size_t i = 0; i < kChunks; ++i) views.push_back(View::Allocate(100));
  }
  const PoolStats released = GetPoolStats();
  EXPECT_EQ(released.live, before.live);
  EXPECT_GE(released.cached, kChunks);
  {
    std::vector<View> views;
    for (size_t i = 0; i < kChunks; ++i) views.push_back(View::Allocate(100));
    EXPECT_EQ(GetPoolStats().allocated, released.allocated);
    EXPECT_EQ(GetPoolStats().live, before.live + kChunks);
  }
  ReleaseCachedChunks();
  EXPECT_EQ(GetPoolStats().cached, 0u);
  { View v = View::Allocate(100); }
  const PoolStats after = GetPoolStats();
  EXPECT_EQ(after.cached, 1u);  // In this thread's cache.
  { View v = View::Allocate(100); }
  EXPECT_EQ(GetPoolStats().allocated, after.allocated);
  EXPECT_EQ(GetPoolStats().live, before.live);
}

TEST(PoolTest, ReservedClassKeepsEveryReleasedChunk) {
  // Four times a class's default bound of chunks go back at once and all
  // stay cached, so that taking as many again allocates nothing. A class
  // no other test uses: the bound stays raised for the process.
  constexpr size_t kBytes = 200;
  const size_t count =
      4 * internal::FreeListLimit(internal::SizeClassFor(kBytes));
  ReservePoolChunks(kBytes, count);
  ReservePoolChunks(kBytes, 1);  // Never lowers the bound.
  ReservePoolChunks(internal::kLargestClass + 1, count);  // Not pooled.
  const PoolStats before = GetPoolStats();
  {
    std::vector<View> views;
    for (size_t i = 0; i < count; ++i) views.push_back(View::Allocate(kBytes));
  }
  const PoolStats released = GetPoolStats();
  EXPECT_EQ(released.live, before.live);
  EXPECT_EQ(released.freed, before.freed);
  EXPECT_GE(released.cached, count);
  {
    std::vector<View> views;
    for (size_t i = 0; i < count; ++i) views.push_back(View::Allocate(kBytes));
    EXPECT_EQ(GetPoolStats().allocated, released.allocated);
  }
  ReleaseCachedChunks();
  EXPECT_EQ(GetPoolStats().cached, 0u);
}

TEST(SizeClassTest, PowerOfTwoClasses) {
  EXPECT_EQ(internal::SizeClassFor(0), 0);
  EXPECT_EQ(internal::SizeClassFor(64), 0);
  EXPECT_EQ(internal::SizeClassFor(65), 1);
  EXPECT_EQ(internal::SizeClassFor(1500), 5);
  EXPECT_EQ(internal::SizeClassFor(65536), 10);
  EXPECT_EQ(internal::SizeClassFor(65537), -1);
}

// ---------------------------------------------------------------------------
// Model-based test.

// Slot is one Buffer and the vector it must equal.
struct Slot {
  Buffer buf;
  Bytes model;
};

class ModelTest : public ::testing::TestWithParam<uint64_t> {
 protected:
  static constexpr int kSlots = 4;
#if defined(__mips__) || defined(__aarch64__)
  static constexpr size_t kMaxSize = 6000;  // Under QEMU.
#else
  static constexpr size_t kMaxSize = 12000;
#endif

  size_t Rand(size_t n) { return n == 0 ? 0 : rng_() % n; }

  // RandLen returns a length biased to small and odd values.
  size_t RandLen() {
    switch (Rand(4)) {
      case 0:
        return Rand(4);
      case 1:
        return Rand(64);
      case 2:
        return Rand(600);
      default:
        return Rand(3000);
    }
  }

  // RandCount returns a count inside [0, size] most of the time and past
  // it sometimes.
  size_t RandCount(size_t size) {
    if (Rand(8) == 0) return size + 1 + Rand(10);
    return Rand(size + 1);
  }

  void Step(int op) {
    s_ = Rand(kSlots);
    o_ = Rand(kSlots);
    Slot& s = slots_[s_];
    Slot& o = slots_[o_];
    switch (op) {
      case 0: {  // Append bytes.
        Bytes b = RandomBytes(rng_, RandLen());
        s.buf.Append(S(b));
        s.model.insert(s.model.end(), b.begin(), b.end());
        break;
      }
      case 1: {  // Prepend bytes.
        Bytes b = RandomBytes(rng_, RandLen() % 80);
        s.buf.Prepend(S(b));
        s.model.insert(s.model.begin(), b.begin(), b.end());
        break;
      }
      case 2: {  // Prepend(n) and write the header in place.
        Bytes b = RandomBytes(rng_, Rand(70));
        std::span<uint8_t> dst = s.buf.Prepend(b.size());
        ASSERT_EQ(dst.size(), b.size());
        if (!b.empty()) std::memcpy(dst.data(), b.data(), b.size());
        s.model.insert(s.model.begin(), b.begin(), b.end());
        break;
      }
      case 3: {  // Append(n) and fill it.
        Bytes b = RandomBytes(rng_, RandLen());
        std::span<uint8_t> dst = s.buf.Append(b.size());
        ASSERT_EQ(dst.size(), b.size());
        if (!b.empty()) std::memcpy(dst.data(), b.data(), b.size());
        s.model.insert(s.model.end(), b.begin(), b.end());
        break;
      }
      case 4: {  // TrimFront.
        size_t n = RandCount(s.model.size());
        bool ok = s.buf.TrimFront(n);
        ASSERT_EQ(ok, n <= s.model.size());
        if (ok) s.model.erase(s.model.begin(), s.model.begin() + n);
        break;
      }
      case 5: {  // Truncate.
        size_t n = RandCount(s.model.size());
        bool ok = s.buf.Truncate(n);
        ASSERT_EQ(ok, n <= s.model.size());
        if (ok) s.model.resize(n);
        break;
      }
      case 6: {  // Split; the tail replaces another slot.
        if (&s == &o) break;
        size_t at = RandCount(s.model.size());
        std::optional<Buffer> tail = s.buf.Split(at);
        ASSERT_EQ(tail.has_value(), at <= s.model.size());
        if (!tail) break;
        o.buf = std::move(*tail);
        o.model.assign(s.model.begin() + at, s.model.end());
        s.model.resize(at);
        break;
      }
      case 7: {  // Append(Buffer&&): merge another slot into this one.
        Bytes add = o.model;
        s.buf.Append(std::move(o.buf));
        s.model.insert(s.model.end(), add.begin(), add.end());
        if (&s != &o) o.model.clear();
        break;
      }
      case 8: {  // Append(const Buffer&): share another slot's chunks.
        Bytes add = o.model;
        s.buf.Append(static_cast<const Buffer&>(o.buf));
        s.model.insert(s.model.end(), add.begin(), add.end());
        break;
      }
      case 9: {  // Prepend another slot, moved or shared.
        Bytes add = o.model;
        if (Rand(2)) {
          s.buf.Prepend(std::move(o.buf));
          if (&s != &o) o.model.clear();
        } else {
          s.buf.Prepend(static_cast<const Buffer&>(o.buf));
        }
        s.model.insert(s.model.begin(), add.begin(), add.end());
        break;
      }
      case 10: {  // Clone or DeepClone into another slot.
        if (&s == &o) break;
        o.buf = Rand(3) ? s.buf.Clone() : s.buf.DeepClone();
        o.model = s.model;
        break;
      }
      case 11: {  // PullUp a range and compare.
        size_t off = RandCount(s.model.size());
        size_t len = Rand(3) ? Rand(200) : RandCount(s.model.size());
        bool valid = off <= s.model.size() && len <= s.model.size() - off;
        std::optional<std::span<const uint8_t>> p = s.buf.PullUp(off, len);
        ASSERT_EQ(p.has_value(), valid);
        if (!p) break;
        ASSERT_EQ(p->size(), len);
        ASSERT_TRUE(std::equal(p->begin(), p->end(), s.model.begin() + off));
        break;
      }
      case 12: {  // PullUpMutable a range and write it.
        size_t off = RandCount(s.model.size());
        size_t len = Rand(100);
        bool valid = off <= s.model.size() && len <= s.model.size() - off;
        std::optional<std::span<uint8_t>> p = s.buf.PullUpMutable(off, len);
        ASSERT_EQ(p.has_value(), valid);
        if (!p) break;
        ASSERT_EQ(p->size(), len);
        for (size_t i = 0; i < len; ++i) {
          uint8_t x = static_cast<uint8_t>(rng_());
          (*p)[i] = x;
          s.model[off + i] = x;
        }
        break;
      }
      case 13: {  // CopyIn, possibly out of range.
        size_t off = RandCount(s.model.size());
        Bytes b = RandomBytes(rng_, Rand(3) ? Rand(300) : RandLen());
        bool valid = off <= s.model.size() && b.size() <= s.model.size() - off;
        ASSERT_EQ(s.buf.CopyIn(off, b), valid);
        if (valid) std::copy(b.begin(), b.end(), s.model.begin() + off);
        break;
      }
      case 14: {  // CopyOut, possibly out of range.
        size_t off = RandCount(s.model.size());
        Bytes out(Rand(300), 0x5a);
        bool valid =
            off <= s.model.size() && out.size() <= s.model.size() - off;
        ASSERT_EQ(s.buf.CopyOut(off, out), valid);
        if (valid) {
          ASSERT_TRUE(
              std::equal(out.begin(), out.end(), s.model.begin() + off));
        } else {
          ASSERT_EQ(out, Bytes(out.size(), 0x5a));
        }
        break;
      }
      case 15: {  // Write through a copy of one of the buffer's views.
        if (s.buf.view_count() == 0) break;
        size_t i = Rand(s.buf.view_count());
        View v = s.buf.views()[i];  // Shared with the buffer.
        ASSERT_TRUE(v.shared());
        std::span<uint8_t> w = v.MutableSpan();
        Bytes written(v.size());
        for (size_t k = 0; k < w.size(); ++k) {
          w[k] = written[k] = static_cast<uint8_t>(rng_());
        }
        // The buffer keeps its bytes (Check compares it with the model);
        // the written copy may go to `o`.
        ASSERT_FALSE(v.SharesChunkWith(s.buf.views()[i]));
        if (Rand(2)) {
          o.buf.Append(std::move(v));
          o.model.insert(o.model.end(), written.begin(), written.end());
        }
        break;
      }
      case 16: {  // Append a view shared from another slot.
        if (o.buf.view_count() == 0) break;
        size_t i = Rand(o.buf.view_count());
        size_t start = 0;
        for (size_t k = 0; k < i; ++k) start += o.buf.views()[k].size();
        View v = o.buf.views()[i];
        size_t trim = Rand(v.size());
        v.TrimFront(trim);
        Bytes add(o.model.begin() + start + trim,
                  o.model.begin() + start + trim + v.size());
        if (Rand(2)) {
          s.buf.Append(std::move(v));
          s.model.insert(s.model.end(), add.begin(), add.end());
        } else {
          s.buf.Prepend(std::move(v));
          s.model.insert(s.model.begin(), add.begin(), add.end());
        }
        break;
      }
      case 17: {  // Rebuild as many tiny views (one-byte, odd, empty).
        Buffer fresh;
        size_t at = 0;
        while (at < s.model.size()) {
          size_t n = std::min(s.model.size() - at, Rand(8));
          fresh.Append(View::Copy(std::span(s.model).subspan(at, n),
                                  Rand(2) ? 0 : Rand(20)));
          at += n;
        }
        s.buf = std::move(fresh);
        break;
      }
      case 20: {  // AppendAndChecksum: the fused copy returns the sum.
        Bytes b = RandomBytes(rng_, RandLen());
        uint16_t init = static_cast<uint16_t>(rng_());
        ASSERT_EQ(s.buf.AppendAndChecksum(b, init),
                  RefSum(b, 0, b.size(), init));
        s.model.insert(s.model.end(), b.begin(), b.end());
        break;
      }
      case 19: {  // CloneRange into another slot, possibly out of range.
        if (&s == &o) break;
        size_t off = RandCount(s.model.size());
        size_t len = Rand(2) ? Rand(1500) : RandCount(s.model.size());
        bool valid = off <= s.model.size() && len <= s.model.size() - off;
        std::optional<Buffer> part = s.buf.CloneRange(off, len);
        ASSERT_EQ(part.has_value(), valid);
        if (!part) break;
        o.buf = std::move(*part);
        o.model.assign(s.model.begin() + off, s.model.begin() + off + len);
        break;
      }
      case 18: {  // Clear.
        s.buf.Clear();
        s.model.clear();
        break;
      }
    }
    // Keep the buffers small enough for a quick test.
    for (Slot& t : slots_) {
      if (t.model.size() > kMaxSize) {
        ASSERT_TRUE(t.buf.Truncate(kMaxSize / 2));
        t.model.resize(kMaxSize / 2);
      }
    }
  }

  void Check(int step) {
    for (size_t k = 0; k < kSlots; ++k) {
      Slot& t = slots_[k];
      ASSERT_EQ(t.buf.size(), t.model.size())
          << "slot " << k << " step " << step;
      size_t total = 0;
      for (const View& v : t.buf) {
        ASSERT_FALSE(v.empty());
        total += v.size();
      }
      ASSERT_EQ(total, t.model.size());
      // Adjacent windows of one chunk are always merged.
      for (size_t i = 0; i + 1 < t.buf.view_count(); ++i) {
        const View& a = t.buf.views()[i];
        const View& b = t.buf.views()[i + 1];
        ASSERT_FALSE(a.SharesChunkWith(b) &&
                     a.headroom() + a.size() == b.headroom())
            << "unmerged views " << i << " slot " << k << " step " << step;
      }
      ASSERT_EQ(t.buf.Flatten(), t.model) << "slot " << k << " step " << step;
      // The whole-buffer sum for the slots this step touched (the others'
      // bytes were just compared, and their sums checked when touched).
      if (k == s_ || k == o_) {
        uint16_t init = static_cast<uint16_t>(rng_());
        ASSERT_EQ(t.buf.ChecksumAll(init),
                  RefSum(t.model, 0, t.model.size(), init));
      }
    }
    Slot& s = slots_[Rand(kSlots)];
    for (int i = 0; i < 4; ++i) {
      size_t off = RandCount(s.model.size());
      size_t len = Rand(2) ? Rand(64) : RandCount(s.model.size());
      uint16_t init = static_cast<uint16_t>(rng_());
      std::optional<uint16_t> got = s.buf.Checksum(off, len, init);
      if (off <= s.model.size() && len <= s.model.size() - off) {
        ASSERT_EQ(got, RefSum(s.model, off, len, init))
            << off << "+" << len << " step " << step;
      } else {
        ASSERT_EQ(got, std::nullopt) << off << "+" << len;
      }
    }
  }

  std::mt19937_64 rng_{GetParam()};
  Slot slots_[kSlots];
  size_t s_ = 0;  // The slots the last step worked on.
  size_t o_ = 0;
};

// Fewer steps where each is slow (QEMU is ~50x slower than the host).
#if defined(__mips__) || defined(__aarch64__)
constexpr int kSteps = 1200;  // x 5 seeds.
#elif defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr int kSteps = 4000;
#else
constexpr int kSteps = 10000;
#endif

TEST_P(ModelTest, RandomOperationsMatchVectorModel) {
  const uint64_t live_before = GetPoolStats().live;
  for (int step = 0; step < kSteps; ++step) {
    int op = static_cast<int>(Rand(21));
    ASSERT_NO_FATAL_FAILURE(Step(op)) << "op " << op << " step " << step;
    ASSERT_NO_FATAL_FAILURE(Check(step)) << "op " << op << " step " << step;
  }
  for (Slot& t : slots_) t.buf.Clear();
  EXPECT_EQ(GetPoolStats().live, live_before);  // Every chunk went back.
}

INSTANTIATE_TEST_SUITE_P(Seeds, ModelTest, ::testing::Values(1, 2, 3, 4, 5));

}  // namespace
}  // namespace ipsum::buffer
