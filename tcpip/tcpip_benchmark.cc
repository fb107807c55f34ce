// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Benchmarks for the packet plumbing on a 1500-byte TCP/IPv4 segment (an
// Ethernet frame of 1514 bytes, 1448 bytes of payload after 20 + 32 bytes
// of IPv4 and TCP-with-timestamps headers) whose payload lies in 3 views:
//
//   BM_RawChecksum/1514        checksum::Checksum of the frame's bytes,
//                              contiguous: the baseline.
//   BM_Encode/<mode>           EncodeTCP in software or offload mode.
//   BM_Decode/<mode>           Receive (parse, validate, verify) with RX
//                              offload NONE (software verify), UNNECESSARY
//                              or COMPLETE (verify by subtraction).
//   BM_ReceiveInPlace/<mode>   ReceiveInPlace alone on frames a driver
//                              built in place (unique chunks), in batches
//                              built and released with the clock stopped:
//                              decode+verify without moves, clones or frees.
//   BM_PauseOverhead           what those clock stops add per iteration.
//   BM_CloneAndFreeFrame       what BM_Decode's loop pays besides Receive:
//                              a clone of the frame (one reference per
//                              chunk, atomic) put in a PacketBuffer, and
//                              its release. BM_Decode minus this is,
//                              roughly, Receive's own cost.
//   BM_Gso/<mode>              SegmentTCP of a 64 KiB send at MSS 1448,
//                              software checksums or partial ones.
//
// The target: decode+verify in software (BM_ReceiveInPlace/none) within
// 1.3x of BM_RawChecksum. Take figures
// on a quiet machine, pinned to one CPU:
//
//   bazel build --config=opt //tcpip:tcpip_benchmark
//   taskset -c 1 bazel-bin/tcpip/tcpip_benchmark

#include <cstdint>
#include <cstdlib>
#include <random>
#include <vector>

#include "benchmark/benchmark.h"
#include "buffer/buffer.h"
#include "checksum/checksum.h"
#include "header/tcp.h"
#include "tcpip/gso.h"
#include "tcpip/packet_buffer.h"
#include "tcpip/receive.h"
#include "tcpip/transmit.h"

namespace ipsum::tcpip {
namespace {

constexpr size_t kPayload = 1448;
constexpr size_t kMss = 1448;

std::vector<uint8_t> RandomBytes(size_t n) {
  std::mt19937 rng(static_cast<uint32_t>(n));
  std::vector<uint8_t> b(n);
  for (auto& x : b) x = static_cast<uint8_t>(rng());
  return b;
}

// ThreeViews returns `bytes` as a Buffer of three views in separate chunks.
buffer::Buffer ThreeViews(std::span<const uint8_t> bytes) {
  buffer::Buffer b;
  size_t third = bytes.size() / 3;
  b.Append(buffer::View::Copy(bytes.first(third)));
  b.Append(buffer::View::Copy(bytes.subspan(third, third)));
  b.Append(buffer::View::Copy(bytes.subspan(2 * third)));
  return b;
}

Route MakeRoute() {
  Route r;
  r.network = NetworkProtocol::kIPv4;
  r.source_v4 = header::IPv4Address::FromHost(0xc0000201);
  r.destination_v4 = header::IPv4Address::FromHost(0xc0000202);
  header::EthernetFields e;
  e.destination.bytes = {2, 0, 0, 0, 0, 1};
  e.source.bytes = {2, 0, 0, 0, 0, 2};
  r.ethernet = e;
  return r;
}

TCPSegment MakeSegment() {
  TCPSegment s;
  s.source_port = 40000;
  s.destination_port = 80;
  s.seq = 1;
  s.ack = 2;
  s.flags = header::kTCPFlagAck;
  s.window = 65535;
  s.options.timestamps = header::TCPTimestamps{3, 4};
  return s;
}

// Frame returns the encoded frame: a header view and the payload's views.
buffer::Buffer Frame() {
  std::vector<uint8_t> payload = RandomBytes(kPayload);
  PacketBuffer pkt(ThreeViews(payload));
  if (EncodeTCP(MakeRoute(), MakeSegment(), LinkCapabilities{}, pkt) !=
      EncodeError::kOk) {
    std::abort();
  }
  return pkt.ToBuffer();
}

void BM_RawChecksum(benchmark::State& state) {
  std::vector<uint8_t> bytes = Frame().Flatten();
  for (auto _ : state) {
    benchmark::DoNotOptimize(checksum::Checksum(bytes));
  }
  state.SetBytesProcessed(state.iterations() * bytes.size());
}
BENCHMARK(BM_RawChecksum)->Arg(1514);

void BM_Encode(benchmark::State& state, bool offload) {
  std::vector<uint8_t> bytes = RandomBytes(kPayload);
  buffer::Buffer payload = ThreeViews(bytes);
  LinkCapabilities link;
  link.tx_checksum_offload = offload;
  Route route = MakeRoute();
  TCPSegment segment = MakeSegment();
  for (auto _ : state) {
    PacketBuffer pkt(payload.Clone());
    EncodeError e = EncodeTCP(route, segment, link, pkt);
    benchmark::DoNotOptimize(e);
    benchmark::DoNotOptimize(pkt.headers().data());
  }
  state.SetBytesProcessed(state.iterations() * (kPayload + 66));
}
BENCHMARK_CAPTURE(BM_Encode, software, false);
BENCHMARK_CAPTURE(BM_Encode, offload, true);

void BM_Decode(benchmark::State& state, ChecksumStatus status) {
  buffer::Buffer frame = Frame();
  std::vector<uint8_t> bytes = frame.Flatten();
  uint16_t nic_sum = checksum::Checksum(std::span(bytes).subspan(14));
  ReceiveStats stats;
  for (auto _ : state) {
    PacketBuffer pkt = PacketBuffer::FromFrame(frame.Clone());
    pkt.checksum_status = status;
    pkt.csum_start = 14;
    pkt.csum = nic_sum;
    std::optional<ReceivedPacket> r =
        Receive(std::move(pkt), LinkType::kEthernet, stats);
    benchmark::DoNotOptimize(r);
  }
  if (stats.delivered != stats.received) state.SkipWithError("dropped");
  state.SetBytesProcessed(state.iterations() * bytes.size());
}
BENCHMARK_CAPTURE(BM_Decode, none, ChecksumStatus::kNone);
BENCHMARK_CAPTURE(BM_Decode, unnecessary, ChecksumStatus::kUnnecessary);
BENCHMARK_CAPTURE(BM_Decode, complete, ChecksumStatus::kComplete);

// UniqueCopy returns `frame`'s bytes in as many views, each in a chunk of
// its own, as a NIC's receive buffers are: no chunk is shared, so the
// receive path's trims and releases take no atomic read-modify-write.
buffer::Buffer UniqueCopy(const buffer::Buffer& frame) {
  buffer::Buffer b;
  for (const buffer::View& v : frame) b.Append(buffer::View::Copy(v.span()));
  return b;
}

// BM_ReceiveInPlace times ReceiveInPlace alone: decode, validate and verify
// a frame that a driver has built in place. The frames (unique chunks, as
// UniqueCopy) are built before, and the packets released after, a batch of
// kReceiveBatch calls, with the clock stopped; BM_PauseOverhead is what
// stopping it costs per iteration, which this figure includes.
constexpr size_t kReceiveBatch = 128;

void BM_ReceiveInPlace(benchmark::State& state, ChecksumStatus status) {
  buffer::Buffer frame = Frame();
  std::vector<uint8_t> bytes = frame.Flatten();
  uint16_t nic_sum = checksum::Checksum(std::span(bytes).subspan(14));
  ReceiveStats stats;
  std::vector<ReceivedPacket> ring(kReceiveBatch);
  auto refill = [&] {
    for (ReceivedPacket& r : ring) {
      r.packet = PacketBuffer::FromFrame(UniqueCopy(frame));
      r.packet.checksum_status = status;
      r.packet.csum_start = 14;
      r.packet.csum = nic_sum;
    }
  };
  refill();
  size_t i = 0;
  for (auto _ : state) {
    if (i == kReceiveBatch) {
      state.PauseTiming();
      refill();
      i = 0;
      state.ResumeTiming();
    }
    bool ok = ReceiveInPlace(ring[i], LinkType::kEthernet, stats);
    benchmark::DoNotOptimize(ok);
    ++i;
  }
  if (stats.delivered != stats.received) state.SkipWithError("dropped");
  state.SetBytesProcessed(state.iterations() * bytes.size());
}
BENCHMARK_CAPTURE(BM_ReceiveInPlace, none, ChecksumStatus::kNone);
BENCHMARK_CAPTURE(BM_ReceiveInPlace, unnecessary, ChecksumStatus::kUnnecessary);
BENCHMARK_CAPTURE(BM_ReceiveInPlace, complete, ChecksumStatus::kComplete);

// BM_PauseOverhead is BM_ReceiveInPlace's loop with nothing in it: what the
// clock stops cost per iteration.
void BM_PauseOverhead(benchmark::State& state) {
  size_t i = 0;
  for (auto _ : state) {
    if (i == kReceiveBatch) {
      state.PauseTiming();
      i = 0;
      state.ResumeTiming();
    }
    benchmark::DoNotOptimize(++i);
  }
}
BENCHMARK(BM_PauseOverhead);

void BM_CloneAndFreeFrame(benchmark::State& state) {
  buffer::Buffer frame = Frame();
  for (auto _ : state) {
    PacketBuffer pkt = PacketBuffer::FromFrame(frame.Clone());
    benchmark::DoNotOptimize(pkt);
  }
  state.SetBytesProcessed(state.iterations() * frame.size());
}
BENCHMARK(BM_CloneAndFreeFrame);

void BM_Gso(benchmark::State& state, bool offload) {
  std::vector<uint8_t> bytes = RandomBytes(kMaxSendSize);
  buffer::Buffer payload = ThreeViews(bytes);
  LinkCapabilities link;
  link.tx_checksum_offload = offload;
  Route route = MakeRoute();
  TCPSegment segment = MakeSegment();
  std::vector<PacketBuffer> out;
  out.reserve(64);
  for (auto _ : state) {
    out.clear();
    EncodeError e =
        SegmentTCP(route, segment, kMss, link, payload.Clone(), out);
    benchmark::DoNotOptimize(e);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(state.iterations() * kMaxSendSize);
}
BENCHMARK_CAPTURE(BM_Gso, software, false);
BENCHMARK_CAPTURE(BM_Gso, offload, true);

}  // namespace
}  // namespace ipsum::tcpip
