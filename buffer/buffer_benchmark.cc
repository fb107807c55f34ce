// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Benchmarks for buffer::Buffer: the Internet checksum of a payload held as
// 1, 3 and 17 views of odd lengths against the same bytes contiguous, the
// send path's prepend-a-header-and-checksum, and the retransmit path's
// clone-and-trim. The target: a 3-view 1500-byte chained checksum within
// 1.3x of the contiguous one.

#include <cstdint>
#include <cstring>
#include <random>
#include <span>
#include <vector>

#include "benchmark/benchmark.h"
#include "buffer/buffer.h"
#include "checksum/checksum.h"

namespace ipsum::buffer {
namespace {

std::vector<uint8_t> Payload(size_t n) {
  std::mt19937_64 rng(n);
  std::vector<uint8_t> b(n);
  for (auto& x : b) x = static_cast<uint8_t>(rng());
  return b;
}

// InViews returns `bytes` as views of `lengths` bytes (which add up to
// bytes.size()), each in a chunk of its own.
Buffer InViews(std::span<const uint8_t> bytes,
               std::span<const size_t> lengths) {
  Buffer b;
  size_t at = 0;
  for (size_t n : lengths) {
    b.Append(View::Copy(bytes.subspan(at, n)));
    at += n;
  }
  return b;
}

// Chained returns `bytes` as `views` views in separate chunks, every view
// but the last of odd length.
Buffer Chained(const std::vector<uint8_t>& bytes, size_t views) {
  const size_t each = (bytes.size() / views) | 1;
  std::vector<size_t> lengths(views - 1, each);
  lengths.push_back(bytes.size() - (views - 1) * each);
  return InViews(bytes, lengths);
}

// kPlacements: each checksum benchmark below rotates over this many copies
// of its bytes at different addresses, so that a ratio between two of them
// does not rest on where one buffer happened to land.
constexpr size_t kPlacements = 8;

// BM_ChecksumContiguous times checksum::Checksum over one array: the bound
// the chained checksum is compared with. The copies start at 64-byte
// boundaries, as a chunk's bytes do, 64 * k + a multiple of 4 KiB apart.
void BM_ChecksumContiguous(benchmark::State& state) {
  const std::vector<uint8_t> bytes = Payload(state.range(0));
  const size_t stride = (bytes.size() + 4095) / 4096 * 4096 + 64 * 3;
  std::vector<uint8_t> storage(kPlacements * stride + 64);
  uint8_t* base =
      storage.data() + (-reinterpret_cast<uintptr_t>(storage.data()) & 63);
  std::span<const uint8_t> copies[kPlacements];
  for (size_t i = 0; i < kPlacements; ++i) {
    std::memcpy(base + i * stride, bytes.data(), bytes.size());
    copies[i] = {base + i * stride, bytes.size()};
  }
  size_t i = 0;
  for (auto _ : state) {
    uint16_t sum = checksum::Checksum(copies[i]);
    benchmark::DoNotOptimize(sum);
    i = (i + 1) % kPlacements;
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * bytes.size());
}
// 500: one third of 1500, the floor a 3-view chained checksum pays per piece.
BENCHMARK(BM_ChecksumContiguous)->Arg(500)->Arg(1500)->Arg(65536);

// TimeChecksumAll runs state's iterations, each Buffer::ChecksumAll of the
// next of `bufs` (kPlacements buffers of `size` bytes) in turn.
void TimeChecksumAll(benchmark::State& state, const std::vector<Buffer>& bufs,
                     size_t size) {
  size_t i = 0;
  for (auto _ : state) {
    uint16_t sum = bufs[i].ChecksumAll();
    benchmark::DoNotOptimize(sum);
    i = (i + 1) % kPlacements;
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * size);
}

// BM_ChecksumChained times Buffer::ChecksumAll over the same bytes held as
// range(1) views of odd lengths (kPlacements buffers, each its own chunks).
void BM_ChecksumChained(benchmark::State& state) {
  std::vector<uint8_t> bytes = Payload(state.range(0));
  std::vector<Buffer> bufs;
  for (size_t i = 0; i < kPlacements; ++i) {
    bufs.push_back(Chained(bytes, state.range(1)));
    if (bufs.back().view_count() != size_t(state.range(1)) ||
        bufs.back().ChecksumAll() != checksum::Checksum(bytes)) {
      state.SkipWithError("chained buffer does not hold the payload");
      return;
    }
  }
  TimeChecksumAll(state, bufs, bytes.size());
}
BENCHMARK(BM_ChecksumChained)
    ->ArgsProduct({{1500, 65536}, {1, 3, 17}})
    ->ArgNames({"bytes", "views"});

// BM_ChecksumFrameViews times Buffer::ChecksumAll over a 1514-byte frame
// laid out as a NIC leaves it: `front`, the 66 bytes of Ethernet, IPv4 and
// TCP headers at the front of the first of three payload views (548, 482
// and 484 bytes); `split`, the headers in a view of their own before the
// three (66, 482, 482, 484). Compare with BM_ChecksumContiguous/1500 and
// BM_ChecksumChained/bytes:1500/views:3 in the same run.
void BM_ChecksumFrameViews(benchmark::State& state, bool split) {
  const std::vector<size_t> lengths =
      split ? std::vector<size_t>{66, 482, 482, 484}
            : std::vector<size_t>{548, 482, 484};
  const std::vector<uint8_t> bytes = Payload(1514);
  std::vector<Buffer> bufs;
  for (size_t i = 0; i < kPlacements; ++i) {
    bufs.push_back(InViews(bytes, lengths));
    if (bufs.back().ChecksumAll() != checksum::Checksum(bytes)) {
      state.SkipWithError("the views do not hold the frame");
      return;
    }
  }
  TimeChecksumAll(state, bufs, bytes.size());
}
BENCHMARK_CAPTURE(BM_ChecksumFrameViews, front, false);
BENCHMARK_CAPTURE(BM_ChecksumFrameViews, split, true);

// BM_ChecksumPiecesOfViews times checksum::ChecksumPieces over the spans
// of the same views gathered once, outside the loop: the chained checksum
// without Buffer's own cost (locating and gathering the views).
void BM_ChecksumPiecesOfViews(benchmark::State& state) {
  std::vector<uint8_t> bytes = Payload(state.range(0));
  std::vector<Buffer> bufs;
  std::vector<std::vector<std::span<const uint8_t>>> pieces(kPlacements);
  for (size_t i = 0; i < kPlacements; ++i) {
    bufs.push_back(Chained(bytes, state.range(1)));
    for (const View& v : bufs.back()) pieces[i].push_back(v.span());
  }
  size_t i = 0;
  for (auto _ : state) {
    uint16_t sum = checksum::ChecksumPieces(pieces[i]);
    benchmark::DoNotOptimize(sum);
    i = (i + 1) % kPlacements;
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * bytes.size());
}
BENCHMARK(BM_ChecksumPiecesOfViews)
    ->ArgsProduct({{1500}, {1, 3, 17}})
    ->ArgNames({"bytes", "views"});

// BM_ChecksumPerView times the same sum as BM_ChecksumChained done the way
// Buffer::Checksum did it before ChecksumPieces: one checksum::Checksum call
// per view, joined with CombineAt. The baseline of the per-piece cost, in
// the same run.
void BM_ChecksumPerView(benchmark::State& state) {
  std::vector<uint8_t> bytes = Payload(state.range(0));
  Buffer buf = Chained(bytes, state.range(1));
  for (auto _ : state) {
    uint16_t sum = 0;
    size_t at = 0;
    for (const View& v : buf) {
      sum = checksum::CombineAt(sum, checksum::Checksum(v.span()), at);
      at += v.size();
    }
    benchmark::DoNotOptimize(sum);
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * bytes.size());
}
BENCHMARK(BM_ChecksumPerView)
    ->ArgsProduct({{1500}, {3, 17}})
    ->ArgNames({"bytes", "views"});

// BM_ChecksumChainedRange times Buffer::Checksum over a range that starts
// at an odd offset inside a 3-view 1500-byte payload.
void BM_ChecksumChainedRange(benchmark::State& state) {
  std::vector<uint8_t> bytes = Payload(1500);
  Buffer buf = Chained(bytes, 3);
  for (auto _ : state) {
    std::optional<uint16_t> sum = buf.Checksum(13, 1400);
    benchmark::DoNotOptimize(sum);
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * 1400);
}
BENCHMARK(BM_ChecksumChainedRange);

// BM_PrependHeaderChecksumShared times the send path for a segment whose
// 1480-byte payload is shared with the send queue: clone the payload,
// prepend a 20-byte TCP header (a new pooled chunk, since the payload is
// shared), checksum header and payload, store the checksum in the header.
void BM_PrependHeaderChecksumShared(benchmark::State& state) {
  std::vector<uint8_t> bytes = Payload(1480);
  Buffer queue = Buffer::Copy(bytes);
  for (auto _ : state) {
    Buffer seg = queue.Clone();
    std::span<uint8_t> tcp = seg.Prepend(20);
    std::memset(tcp.data(), 0, tcp.size());
    tcp[12] = 5 << 4;
    uint16_t sum = seg.ChecksumAll(0x1234);  // 0x1234: a pseudo-header sum.
    checksum::Put(tcp.data() + 16, static_cast<uint16_t>(~sum));
    benchmark::DoNotOptimize(seg);
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * 1500);
}
BENCHMARK(BM_PrependHeaderChecksumShared);

// BM_PrependHeaderChecksumHeadroom is the same with an unshared payload that
// has headroom: the header is written in place, nothing is allocated.
void BM_PrependHeaderChecksumHeadroom(benchmark::State& state) {
  std::vector<uint8_t> bytes = Payload(1480);
  Buffer seg = Buffer::Copy(bytes, kPrependHeadroom);
  for (auto _ : state) {
    std::span<uint8_t> tcp = seg.Prepend(20);
    std::memset(tcp.data(), 0, tcp.size());
    tcp[12] = 5 << 4;
    uint16_t sum = seg.ChecksumAll(0x1234);
    checksum::Put(tcp.data() + 16, static_cast<uint16_t>(~sum));
    benchmark::DoNotOptimize(seg);
    seg.TrimFront(20);
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * 1500);
}
BENCHMARK(BM_PrependHeaderChecksumHeadroom);

// BM_AppendAndChecksum times copying a 1480-byte socket write into a new
// buffer (one pooled chunk, with headroom for the headers: the buffer's
// first) while summing it.
void BM_AppendAndChecksum(benchmark::State& state) {
  std::vector<uint8_t> bytes = Payload(1480);
  for (auto _ : state) {
    Buffer seg;
    uint16_t sum = seg.AppendAndChecksum(bytes);
    benchmark::DoNotOptimize(sum);
    benchmark::DoNotOptimize(seg);
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * 1480);
}
BENCHMARK(BM_AppendAndChecksum);

// BM_CloneTrim times cutting one MSS-sized segment out of a 64 KiB send
// queue held as 17 views: Clone, TrimFront to the segment, Truncate to MSS.
void BM_CloneTrim(benchmark::State& state) {
  std::vector<uint8_t> bytes = Payload(65536);
  Buffer queue = Chained(bytes, 17);
  size_t offset = 0;
  for (auto _ : state) {
    Buffer seg = queue.Clone();
    seg.TrimFront(offset);
    seg.Truncate(1460);
    benchmark::DoNotOptimize(seg);
    offset = (offset + 1460) % (65536 - 1460);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_CloneTrim);

// BM_CloneRange times cutting the same segments with CloneRange, which
// shares only the views the segment touches.
void BM_CloneRange(benchmark::State& state) {
  std::vector<uint8_t> bytes = Payload(65536);
  Buffer queue = Chained(bytes, 17);
  size_t offset = 0;
  for (auto _ : state) {
    std::optional<Buffer> seg = queue.CloneRange(offset, 1460);
    benchmark::DoNotOptimize(seg);
    offset = (offset + 1460) % (65536 - 1460);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_CloneRange);

// BM_SplitSegment times cutting an MSS segment off the front of a 3-view
// 1500-byte buffer clone with Split.
void BM_SplitSegment(benchmark::State& state) {
  std::vector<uint8_t> bytes = Payload(1500);
  Buffer queue = Chained(bytes, 3);
  for (auto _ : state) {
    Buffer seg = queue.Clone();
    std::optional<Buffer> rest = seg.Split(1000);
    benchmark::DoNotOptimize(rest);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_SplitSegment);

// BM_PoolAllocateRelease times taking a chunk of range(0) bytes from the
// pool and giving it back: the steady state of a send or receive path.
void BM_PoolAllocateRelease(benchmark::State& state) {
  const size_t n = state.range(0);
  for (auto _ : state) {
    View v = View::Allocate(n);
    benchmark::DoNotOptimize(v);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_PoolAllocateRelease)->Arg(64)->Arg(2048)->Arg(1 << 17);

}  // namespace
}  // namespace ipsum::buffer
