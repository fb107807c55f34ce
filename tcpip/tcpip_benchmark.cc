// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Benchmarks for the packet plumbing on a 1500-byte TCP/IPv4 segment (an
// Ethernet frame of 1514 bytes, 1448 bytes of payload after 20 + 32 bytes
// of IPv4 and TCP-with-timestamps headers) whose payload lies in 3 views:
//
//   BM_RawChecksum/1514        checksum::Checksum of the frame's bytes,
//                              contiguous, one buffer hot in L1: the
//                              checksum's own speed.
//   BM_Encode/<mode>           EncodeTCP in software or offload mode.
//   BM_Decode/<mode>           Receive (parse, validate, verify) with RX
//                              offload NONE (software verify), UNNECESSARY
//                              or COMPLETE (verify by subtraction).
//   BM_ReceiveInPlace/<mode>/front:<0|1>/frames:<128|32768>/ahead:<0|1>
//                              ReceiveInPlace alone over a ring of
//                              frames a driver built in place (unique
//                              chunks), each pass timed on its own
//                              (ns_per_frame): decode+verify without
//                              moves, clones or frees. front:0 has the
//                              headers in a view of their own (a
//                              header-splitting NIC), front:1 at the front
//                              of the first payload view.
//   BM_ReceiveBurst/<mode>/prefetch:<policy>/front:<0|1>/frames:<128|32768>
//                              the same rings handed to ReceiveBurst 32
//                              frames at a time, as a DPDK or VPP driver
//                              hands over its vectors of frames, with
//                              each BurstPrefetch policy (frame, the
//                              default; headers; none).
//   BM_ReceiveFloor/front:<0|1>/frames:<128|32768>
//                              not a receive path: the least any software
//                              decode+verify of these frames does (the
//                              three headers' checks, the IPv4 header sum,
//                              the transport checksum, 20 bytes stored a
//                              frame; FloorBurst), over the rings of
//                              BM_ReceiveBurst. Where its ratio to the raw
//                              checksum stands, no receive path's can go.
//   BM_VerifyBurst/<mode>/prefetch:<policy>/front:<0|1>/frames:<128|32768>
//                              the same rings handed to VerifyBurst (the
//                              same judgement as ReceiveBurst, the frame
//                              not taken apart but described in a 32-byte
//                              VerifiedFrame, which holds the FloorResult
//                              fields: ports, sequence numbers, flags,
//                              payload length).
//   BM_RawChecksumFrames/<how>/front:<0|1>/frames:<128|32768>/ahead:<0|1>
//                              the checksum of the same frames' bytes over
//                              the same kind of ring, timed the same way:
//                              contiguous (checksum::Checksum) or in the
//                              views BM_ReceiveInPlace gets
//                              (Buffer::ChecksumAll). The baseline.
//   BM_ReceiveRatios/prefetch:<policy>/front:<0|1>/frames:<128|32768>
//                              the raw sum of the views, BM_VerifyBurst's
//                              pass and BM_ReceiveFloor's, in turn within
//                              each iteration over one ring in software
//                              mode: verify_ratio and floor_ratio are the
//                              medians of each iteration's own ratios to
//                              the raw sum, taken microseconds apart.
//                              The figures for the target.
//   BM_CloneAndFreeFrame       what BM_Decode's loop pays besides Receive:
//                              a clone of the frame (one reference per
//                              chunk, atomic) put in a PacketBuffer, and
//                              its release. BM_Decode minus this is,
//                              roughly, Receive's own cost.
//   BM_Gso/<mode>              SegmentTCP of a 64 KiB send at MSS 1448,
//                              software checksums or partial ones.
//
// The target: decode+verify in software (BM_ReceiveInPlace/none,
// BM_ReceiveBurst/none, BM_VerifyBurst/none) within 1.3x of the raw
// checksum of the same bytes (BM_RawChecksumFrames; the ns_per_frame
// counters of the two give the ratio, and BM_ReceiveRatios gives it for
// VerifyBurst and the floor from passes timed side by side). Take figures
// on a quiet machine, pinned to one CPU (when other work shares it, set
// IPSUM_BENCH_THREAD_CPU=1: see PassClock):
//
//   bazel build --config=opt //tcpip:tcpip_benchmark
//   taskset -c 1 bazel-bin/tcpip/tcpip_benchmark

#include <algorithm>
#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "benchmark/benchmark.h"
#include "buffer/buffer.h"
#include "checksum/checksum.h"
#include "checksum/endian.h"
#include "header/protocol.h"
#include "header/tcp.h"
#include "tcpip/gso.h"
#include "tcpip/internal/header_sum.h"
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
// With `headers_in_first_view`, the first view (the headers, which
// Frame() puts in a view of their own, as a header-splitting NIC does) is
// merged into the next one: the headers at the front of the first payload
// buffer, as a NIC that scatters a frame over several buffers leaves them.
buffer::Buffer UniqueCopy(const buffer::Buffer& frame,
                          bool headers_in_first_view) {
  buffer::Buffer b;
  std::span<const buffer::View> views = frame.views();
  if (headers_in_first_view && views.size() >= 2) {
    std::vector<uint8_t> merged(views[0].span().begin(), views[0].span().end());
    merged.insert(merged.end(), views[1].span().begin(), views[1].span().end());
    b.Append(buffer::View::Copy(merged));
    views = views.subspan(2);
  }
  for (const buffer::View& v : views) b.Append(buffer::View::Copy(v.span()));
  return b;
}

// The receive benchmarks run over a ring of distinct frames, rebuilt
// before each pass: kWarmFrames (about 190 KiB: more than L1, within L2, as
// a NIC's ring that the core keeps up with) or kColdFrames (about 60 MiB,
// beyond every cache: frames a NIC wrote to memory that no core has read
// yet, each pass reading them in the order they were written, the oldest
// first). A
// benchmark iteration is one pass, timed on its own with a steady clock
// (manual time: the rebuilding is not timed, and no clock stop is paid per
// frame); `ns_per_frame` is the pass's time divided by its frames.
// BM_RawChecksumFrames sums the same frames' bytes the same way, so that
// the ratio of the two compares like with like: the same bytes at the
// same addresses in the same cache state, timed the same way.
constexpr int64_t kWarmFrames = 128;
constexpr int64_t kColdFrames = 32768;

// Layout is how a benchmark frame lies in memory.
enum Layout : int64_t {
  // kSplit: the headers in a view of their own, then the payload in 3.
  kSplit = 0,
  // kFront: the headers at the front of the first of the payload's 3.
  kFront = 1,
};

// PassClock reads the clock the passes are timed with: the steady
// (wall) clock, or, when the environment sets IPSUM_BENCH_THREAD_CPU=1,
// this thread's CPU time. The first is right on a quiet machine; the
// second keeps the figures usable when other work shares the CPU (time
// slices taken by others are not counted, though a hyper-thread sibling's
// work still slows the pass), at the price of a system call per reading,
// the same for every benchmark here.
double PassClock() {
  static const bool thread_cpu = [] {
    const char* v = std::getenv("IPSUM_BENCH_THREAD_CPU");
    return v != nullptr && std::string_view(v) == "1";
  }();
  if (thread_cpu) {
    timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + ts.tv_nsec * 1e-9;
  }
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// TimedPasses runs state's iterations: each calls `refill` untimed, then
// `pass` timed, and reports the pass time and ns_per_frame.
template <typename Refill, typename Pass>
void TimedPasses(benchmark::State& state, size_t frames, Refill refill,
                 Pass pass) {
  double total = 0;
  for (auto _ : state) {
    refill();
    const double start = PassClock();
    pass();
    const double seconds = PassClock() - start;
    state.SetIterationTime(seconds);
    total += seconds;
  }
  state.counters["ns_per_frame"] =
      total * 1e9 / static_cast<double>(state.iterations() * frames);
}

// kAheadBytes is how much of the next frame a pass with `ahead` prefetches
// before handling the current one: all of a 1514-byte frame.
constexpr size_t kAheadBytes = 1536;

// ReceiveArgs registers both layouts over a warm and a cold ring, and over
// the cold one also with ahead:1, a driver loop that prefetches the next
// frame (Buffer::Prefetch) before handing over the current one, as DPDK and
// VPP loops do: then the memory latency of one frame overlaps the work on
// the one before, for the raw checksum and the receive alike.
void ReceiveArgs(benchmark::internal::Benchmark* b) {
  b->ArgNames({"front", "frames", "ahead"});
  for (int64_t front : {kSplit, kFront}) {
    b->Args({front, kWarmFrames, 0});
    b->Args({front, kColdFrames, 0});
    b->Args({front, kColdFrames, 1});
  }
}

// SplitHeaderPool sizes the chunk pool for a ring of `frames` frames whose
// headers lie in a view of their own (kSplit), as a header-splitting driver
// sizes its header buffers to its ring (buffer::ReservePoolChunks): a
// receive pass releases every frame's header chunk before the refill takes
// them again, and past the pool's default bound (512 chunks of their class)
// each would go to operator delete in the timed pass and come from operator
// new in the refill, which no driver that refills its ring as it goes pays.
// For the split layout only; it empties the pool when the benchmark ends,
// so that the benchmarks after it find the heap as they would without it.
class SplitHeaderPool {
 public:
  SplitHeaderPool(const buffer::Buffer& frame, bool split, size_t frames)
      : reserved_(split && frame.view_count() != 0) {
    if (reserved_) buffer::ReservePoolChunks(frame.views()[0].size(), frames);
  }
  ~SplitHeaderPool() {
    if (reserved_) buffer::ReleaseCachedChunks();
  }
  SplitHeaderPool(const SplitHeaderPool&) = delete;
  SplitHeaderPool& operator=(const SplitHeaderPool&) = delete;

 private:
  const bool reserved_;
};

// ReceiveRing is the ring of packets BM_ReceiveInPlace and BM_ReceiveBurst
// receive, which Refill rebuilds as a driver builds frames in place: each
// a UniqueCopy of Frame() (the headers at the front of the first view or in
// a view of their own), with the NIC's checksum status and, for COMPLETE,
// its sum of the frame from byte 14 on. Its pool holds a header chunk for
// every frame of the ring (SplitHeaderPool).
// With `bare`, the ring is of PacketBuffers (`frames`, for VerifyBurst)
// instead of ReceivedPackets.
struct ReceiveRing {
  ReceiveRing(size_t frames, bool front, ChecksumStatus status,
              bool bare = false)
      : frame(Frame()),
        pool(frame, !front, frames),
        front(front),
        status(status),
        packets(bare ? 0 : frames),
        bare_frames(bare ? frames : 0) {
    const std::vector<uint8_t> bytes = frame.Flatten();
    frame_bytes = bytes.size();
    nic_sum = checksum::Checksum(std::span(bytes).subspan(14));
  }

  void Refill() {
    for (ReceivedPacket& r : packets) Fill(r.packet);
    for (PacketBuffer& p : bare_frames) Fill(p);
  }

  void Fill(PacketBuffer& p) const {
    p = PacketBuffer::FromFrame(UniqueCopy(frame, front));
    p.checksum_status = status;
    p.csum_start = 14;
    p.csum = nic_sum;
  }

  const buffer::Buffer frame;
  const SplitHeaderPool pool;
  const bool front;
  const ChecksumStatus status;
  size_t frame_bytes = 0;
  uint16_t nic_sum = 0;
  std::vector<ReceivedPacket> packets;
  std::vector<PacketBuffer> bare_frames;
};

// BM_ReceiveInPlace times ReceiveInPlace alone: decode, validate and verify
// frames that a driver has built in place (unique chunks, UniqueCopy),
// without moves, clones or frees of the packets.
void BM_ReceiveInPlace(benchmark::State& state, ChecksumStatus status) {
  const bool front = state.range(0) == kFront;
  const auto frames = static_cast<size_t>(state.range(1));
  const bool ahead = state.range(2) != 0;
  ReceiveRing ring(frames, front, status);
  ReceiveStats stats;
  TimedPasses(
      state, frames, [&] { ring.Refill(); },
      [&] {
        for (size_t k = 0; k < frames; ++k) {
          if (ahead && k + 1 < frames) {
            ring.packets[k + 1].packet.data().Prefetch(kAheadBytes);
          }
          bool ok = ReceiveInPlace(ring.packets[k], LinkType::kEthernet, stats);
          benchmark::DoNotOptimize(ok);
        }
      });
  if (stats.delivered != stats.received) state.SkipWithError("dropped");
  state.SetBytesProcessed(state.iterations() * frames * ring.frame_bytes);
}
BENCHMARK_CAPTURE(BM_ReceiveInPlace, none, ChecksumStatus::kNone)
    ->Apply(ReceiveArgs)
    ->UseManualTime();
BENCHMARK_CAPTURE(BM_ReceiveInPlace, unnecessary, ChecksumStatus::kUnnecessary)
    ->Apply(ReceiveArgs)
    ->UseManualTime();
BENCHMARK_CAPTURE(BM_ReceiveInPlace, complete, ChecksumStatus::kComplete)
    ->Apply(ReceiveArgs)
    ->UseManualTime();

// kBurst is how many frames BM_ReceiveBurst hands over at a time, as a
// driver's receive loop gets them from its ring (VPP's frame, DPDK's
// rx_burst).
constexpr size_t kBurst = 32;

// BM_ReceiveBurst is BM_ReceiveInPlace with the ring handed to ReceiveBurst
// kBurst frames at a time.
void BM_ReceiveBurst(benchmark::State& state, ChecksumStatus status,
                     BurstPrefetch prefetch) {
  const bool front = state.range(0) == kFront;
  const auto frames = static_cast<size_t>(state.range(1));
  ReceiveRing ring(frames, front, status);
  ReceiveStats stats;
  bool delivered[kBurst];
  TimedPasses(
      state, frames, [&] { ring.Refill(); },
      [&] {
        for (size_t k = 0; k < frames; k += kBurst) {
          const size_t n = std::min(kBurst, frames - k);
          size_t ok =
              ReceiveBurst(std::span(ring.packets).subspan(k, n),
                           LinkType::kEthernet, stats, delivered, prefetch);
          benchmark::DoNotOptimize(ok);
        }
      });
  if (stats.delivered != stats.received) state.SkipWithError("dropped");
  state.SetBytesProcessed(state.iterations() * frames * ring.frame_bytes);
}

// BurstArgs registers both layouts over a warm and a cold ring.
void BurstArgs(benchmark::internal::Benchmark* b) {
  b->ArgNames({"front", "frames"});
  for (int64_t front : {kSplit, kFront}) {
    b->Args({front, kWarmFrames});
    b->Args({front, kColdFrames});
  }
}

// kPrefetches are the policies BM_ReceiveBurst and BM_VerifyBurst run
// with, each registered as .../<mode>/prefetch:<policy>/....
constexpr BurstPrefetch kPrefetches[] = {
    BurstPrefetch::kFrame, BurstPrefetch::kHeaders, BurstPrefetch::kNone};

// RegisterBursts registers `fn` (BM_ReceiveBurst or BM_VerifyBurst) as
// `name`/<mode>/prefetch:<policy> for each mode and policy.
template <typename Fn>
void RegisterBursts(const char* name, Fn fn) {
  constexpr std::pair<const char*, ChecksumStatus> kModes[] = {
      {"none", ChecksumStatus::kNone},
      {"unnecessary", ChecksumStatus::kUnnecessary}};
  for (const auto& [mode, status] : kModes) {
    for (BurstPrefetch p : kPrefetches) {
      const std::string full = std::string(name) + "/" + mode +
                               "/prefetch:" + std::string(ToString(p));
      benchmark::RegisterBenchmark(full.c_str(), fn, status, p)
          ->Apply(BurstArgs)
          ->UseManualTime();
    }
  }
}
[[maybe_unused]] const bool kReceiveBurstRegistered =
    (RegisterBursts("BM_ReceiveBurst", BM_ReceiveBurst), true);

// FloorResult is what FloorBurst keeps of a frame: where it lies and the
// TCP fields a stack's receive path reads first.
struct FloorResult {
  const uint8_t* frame = nullptr;
  uint32_t seq = 0;
  uint32_t ack = 0;
  uint16_t source_port = 0;
  uint16_t destination_port = 0;
  uint16_t payload_length = 0;
  uint8_t flags = 0;
};

// ViewSpans returns `views` as checksum::ChecksumPieces' strided pieces
// (stride sizeof(buffer::View)): a View starts with its span, which
// Buffer::ChecksumAll asserts and relies on, and which BM_ReceiveFloor
// checks (ViewsAreSpans) before it runs.
const std::span<const uint8_t>* ViewSpans(const buffer::View* views) {
  static_assert(std::is_standard_layout_v<buffer::View>);
  return reinterpret_cast<const std::span<const uint8_t>*>(views);
}

// ViewsAreSpans reports whether ViewSpans reads each of `b`'s views as the
// span the view holds.
bool ViewsAreSpans(const buffer::Buffer& b) {
  const std::span<const buffer::View> views = b.views();
  for (size_t i = 0; i < views.size(); ++i) {
    const std::span<const uint8_t>& piece =
        *reinterpret_cast<const std::span<const uint8_t>*>(
            reinterpret_cast<const char*>(ViewSpans(views.data())) +
            i * sizeof(buffer::View));
    if (piece.data() != views[i].data() || piece.size() != views[i].size()) {
      return false;
    }
  }
  return true;
}

// PacketOf is the PacketBuffer of a ring's element.
inline const PacketBuffer& PacketOf(const ReceivedPacket& r) {
  return r.packet;
}
inline const PacketBuffer& PacketOf(const PacketBuffer& p) { return p; }

// FloorBurst is not a receive path but the floor under one: it does to
// each of `packets` (the frames of the benchmark ring, untagged Ethernet,
// IPv4 without options, TCP) only what any software decode and verify of
// such a frame must: the fixed-offset checks of the three headers (EtherType,
// version and IHL, fragment bits, protocol, total length against the frame,
// data offset, an option area that is empty or NOP NOP Timestamps), the IPv4
// header sum, the pseudo-header and the transport checksum over the views
// where they lie, and 20 bytes stored per frame. It prefetches as
// ReceiveBurst does for a frame the NIC verified (the packet's Buffer three
// frames ahead, the headers' line two ahead) and leaves the payload's lines
// to the sum's own loads. It accepts nothing else (other frames are counted as
// unsupported) and keeps no PacketBuffer, ParsedPacket or TCPInfo: the
// difference between it and BM_ReceiveBurst/none is what the rest of
// Receive's contract (consumed headers, every field decoded, any shape)
// costs. It takes the ring's ReceivedPackets (BM_ReceiveFloor) or its bare
// PacketBuffers (BM_ReceiveRatios, whose passes share one ring).
template <typename Packet>
[[gnu::noinline]] size_t FloorBurst(std::span<Packet> packets, FloorResult* out,
                                    ReceiveStats& stats) {
  constexpr size_t kT = 14 + 20;  // The transport header's offset.
  const size_t count = packets.size();
  stats.received += count;
  auto request_headers = [&](size_t j) {
    const buffer::Buffer& data = PacketOf(packets[j]).data();
    if (data.view_count() != 0) __builtin_prefetch(data.views()[0].data());
  };
  for (size_t i = 0; i < count && i < 2; ++i) request_headers(i);
  size_t delivered = 0;
  for (size_t i = 0; i < count; ++i) {
    if (i + 3 < count) {
      const char* const views =
          reinterpret_cast<const char*>(&PacketOf(packets[i + 3]).data());
      __builtin_prefetch(views);
      __builtin_prefetch(views + 64);
    }
    if (i + 2 < count) request_headers(i + 2);
    auto drop = [&stats](DropReason r) {
      ++stats.dropped[static_cast<size_t>(r)];
    };
    const buffer::Buffer& data = PacketOf(packets[i]).data();
    const std::span<const buffer::View> views = data.views();
    if (views.empty() || views[0].size() < kT + 20) {
      drop(DropReason::kUnsupported);
      continue;
    }
    const std::span<const uint8_t> first = views[0].span();
    const uint8_t* const f = first.data();
    const uint8_t* const ip = f + 14;
    // EtherType IPv4, version 4, IHL 5.
    if ((LoadBig32(f + 12) & 0xffffff00u) != 0x08004500u) {
      drop(DropReason::kUnsupported);
      continue;
    }
    const size_t ip_length = LoadBig16(ip + 2);
    if ((LoadBig16(ip + 6) & 0x3fffu) != 0 || ip[9] != header::kProtocolTCP ||
        ip_length != data.size() - 14) {
      drop(DropReason::kUnsupported);
      continue;
    }
    if (internal::HeaderSum(first.subspan(14, 20)) != 0xffff) {
      drop(DropReason::kBadIPChecksum);
      continue;
    }
    const uint8_t* const t = f + kT;
    const size_t header_length = static_cast<size_t>(t[12] >> 4) * 4;
    const size_t tcp_length = ip_length - 20;
    if (header_length < 20 || header_length > tcp_length ||
        kT + header_length > first.size()) {
      drop(DropReason::kMalformed);
      continue;
    }
    if (header_length != 20 &&
        !(header_length == 32 && LoadBig32(t + 20) == 0x0101080au)) {
      drop(DropReason::kUnsupported);
      continue;
    }
    uint16_t sum;
    if (first.size() == kT + header_length) {
      // The headers in a view of their own: the TCP header's sum starts the
      // payload's, whose views are summed where they lie.
      sum = checksum::ChecksumPieces(
          ViewSpans(&views[1]), views.size() - 1, sizeof(buffer::View),
          internal::IPv4TransportInitial(ip, std::span(t, header_length),
                                         header::kProtocolTCP,
                                         static_cast<uint16_t>(tcp_length)));
    } else {
      // The headers at the front of the first view: the whole frame where
      // it lies (Buffer::ChecksumAll; the datagram is the rest of the
      // frame, checked above) less the Ethernet and IPv4 headers' sum, 34
      // bytes, so the TCP bytes keep their parity. The same form as
      // VerifyBurst, with the initial value from one accumulator
      // (EthernetIPv4Initial), so that the floor does no more work than
      // the path it bounds; gathering the pieces into an array for
      // ChecksumPieces costs more (docs/benchmarking.md).
      sum = data.ChecksumAll(internal::EthernetIPv4Initial(
          f, header::kProtocolTCP, static_cast<uint16_t>(tcp_length)));
    }
    if (sum != 0 && sum != 0xffff) {
      drop(DropReason::kBadTransportChecksum);
      continue;
    }
    FloorResult& r = out[i];
    r.frame = f;
    r.seq = LoadBig32(t + 4);
    r.ack = LoadBig32(t + 8);
    r.source_port = LoadBig16(t);
    r.destination_port = LoadBig16(t + 2);
    r.payload_length = static_cast<uint16_t>(tcp_length - header_length);
    r.flags = t[13];
    ++stats.delivered;
    ++stats.checksum_software;
    ++delivered;
  }
  return delivered;
}

// BM_ReceiveFloor is BM_ReceiveBurst/none with FloorBurst in place of
// ReceiveBurst: the floor that the ratio of any software decode and verify
// of these frames to BM_RawChecksumFrames/views stands on.
void BM_ReceiveFloor(benchmark::State& state) {
  const bool front = state.range(0) == kFront;
  const auto frames = static_cast<size_t>(state.range(1));
  ReceiveRing ring(frames, front, ChecksumStatus::kNone);
  if (!ViewsAreSpans(ring.frame)) {
    state.SkipWithError("a buffer::View does not start with its span");
    return;
  }
  ReceiveStats stats;
  std::vector<FloorResult> results(frames);
  TimedPasses(
      state, frames, [&] { ring.Refill(); },
      [&] {
        for (size_t k = 0; k < frames; k += kBurst) {
          const size_t n = std::min(kBurst, frames - k);
          size_t ok = FloorBurst(std::span(ring.packets).subspan(k, n),
                                 results.data() + k, stats);
          benchmark::DoNotOptimize(ok);
        }
      });
  if (stats.delivered != stats.received) state.SkipWithError("dropped");
  state.SetBytesProcessed(state.iterations() * frames * ring.frame_bytes);
}
BENCHMARK(BM_ReceiveFloor)->Apply(BurstArgs)->UseManualTime();

// VerifyPass hands `frames` to VerifyBurst kBurst at a time, into
// verified[0, frames.size()) and delivered[0, frames.size()): the record of
// each segment, which holds what a stack reads first (the FloorResult
// fields: ports, sequence and acknowledgment numbers, flags and payload
// length, VerifiedFrame's accessors), as FloorBurst's FloorResult does.
void VerifyPass(std::span<const PacketBuffer> frames, ReceiveStats& stats,
                VerifiedFrame* verified, bool* delivered,
                BurstPrefetch prefetch) {
  for (size_t k = 0; k < frames.size(); k += kBurst) {
    const size_t n = std::min(kBurst, frames.size() - k);
    VerifyBurst(frames.subspan(k, n), LinkType::kEthernet, stats,
                std::span(verified + k, n), std::span(delivered + k, n),
                prefetch);
  }
  benchmark::DoNotOptimize(verified);
}

// SameFields reports whether `v`, VerifyBurst's record of a segment, holds
// the fields FloorBurst read of it into `r`.
bool SameFields(const VerifiedFrame& v, const FloorResult& r) {
  return v.source_port() == r.source_port &&
         v.destination_port() == r.destination_port && v.tcp_seq() == r.seq &&
         v.tcp_ack() == r.ack && v.tcp_flags() == r.flags &&
         v.payload_length() == r.payload_length;
}

// BM_VerifyBurst is BM_ReceiveBurst with VerifyBurst in place of
// ReceiveBurst, over the same frames (a ring of PacketBuffers): VerifyPass.
void BM_VerifyBurst(benchmark::State& state, ChecksumStatus status,
                    BurstPrefetch prefetch) {
  const bool front = state.range(0) == kFront;
  const auto frames = static_cast<size_t>(state.range(1));
  ReceiveRing ring(frames, front, status, /*bare=*/true);
  ReceiveStats stats;
  std::vector<VerifiedFrame> verified(frames);
  const std::unique_ptr<bool[]> delivered(new bool[frames]);
  TimedPasses(
      state, frames, [&] { ring.Refill(); },
      [&] {
        VerifyPass(ring.bare_frames, stats, verified.data(), delivered.get(),
                   prefetch);
      });
  if (stats.delivered != stats.received) state.SkipWithError("dropped");
  state.SetBytesProcessed(state.iterations() * frames * ring.frame_bytes);
}
[[maybe_unused]] const bool kVerifyBurstRegistered =
    (RegisterBursts("BM_VerifyBurst", BM_VerifyBurst), true);

// BM_RawChecksumFrames/<how>/front:<layout> sums the bytes BM_ReceiveInPlace
// decodes, frame by frame over the same kind of ring: `contiguous`, each
// frame's 1514 bytes copied into one 64-byte aligned buffer of its own
// (checksum::Checksum); `views`, each frame as BM_ReceiveInPlace gets it
// (Buffer::ChecksumAll over its views). The refill rewrites the bytes, as
// BM_ReceiveInPlace's does.
void BM_RawChecksumFrames(benchmark::State& state, bool views) {
  const bool front = state.range(0) == kFront;
  const auto frames = static_cast<size_t>(state.range(1));
  const bool ahead = views && state.range(2) != 0;
  buffer::Buffer frame = Frame();
  const SplitHeaderPool pool(frame, views && !front, frames);
  std::vector<uint8_t> bytes = frame.Flatten();
  constexpr size_t kStride = 1536;  // 1514 rounded up to 64 bytes.
  std::vector<uint8_t> flat_storage(views ? 0 : frames * kStride + 64);
  uint8_t* flat = flat_storage.data() +
                  (64 - reinterpret_cast<uintptr_t>(flat_storage.data()) % 64);
  std::vector<buffer::Buffer> ring(views ? frames : 0);
  TimedPasses(
      state, frames,
      [&] {
        for (size_t k = 0; k < frames; ++k) {
          if (views) {
            ring[k] = UniqueCopy(frame, front);
          } else {
            std::memcpy(flat + k * kStride, bytes.data(), bytes.size());
          }
        }
      },
      [&] {
        for (size_t k = 0; k < frames; ++k) {
          if (ahead && k + 1 < frames) ring[k + 1].Prefetch(kAheadBytes);
          uint16_t sum = views ? ring[k].ChecksumAll()
                               : checksum::Checksum(std::span(
                                     flat + k * kStride, bytes.size()));
          benchmark::DoNotOptimize(sum);
        }
      });
  state.SetBytesProcessed(state.iterations() * frames * bytes.size());
}
BENCHMARK_CAPTURE(BM_RawChecksumFrames, contiguous, false)
    ->ArgNames({"front", "frames", "ahead"})
    ->Args({kSplit, kWarmFrames, 0})
    ->Args({kSplit, kColdFrames, 0})
    ->UseManualTime();
BENCHMARK_CAPTURE(BM_RawChecksumFrames, views, true)
    ->Apply(ReceiveArgs)
    ->UseManualTime();

// Median returns the median of `v` (reordering it); 0 for none.
double Median(std::vector<double>& v) {
  if (v.empty()) return 0;
  const auto mid = v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2);
  std::nth_element(v.begin(), mid, v.end());
  return *mid;
}

// BM_ReceiveRatios/prefetch:<policy>/front:<0|1>/frames:<128|32768> times
// the three passes whose ratios the target is stated in, in turn within
// each iteration, over one ring of PacketBuffers in software mode, each
// pass after a refill of the ring as in the benchmarks above: the raw sum
// of each frame's views (BM_RawChecksumFrames/views' loop, ahead:0),
// VerifyPass (BM_VerifyBurst's) and FloorBurst (BM_ReceiveFloor's). The
// order rotates from one iteration to the next. Its counters are medians
// over the iterations: raw_ns, verify_ns and floor_ns a frame, and
// verify_ratio and floor_ratio, the medians of each iteration's own ratio
// of the pass to the raw sum. The passes of one iteration run
// microseconds apart, so a ratio compares passes that saw the same state
// of a machine whose speed moves between processes and seconds; ratios of
// the separate benchmarks' ns_per_frame, taken seconds apart, do not
// (docs/benchmarking.md). After the passes, every record VerifyBurst left
// (VerifiedFrame) must hold the fields FloorBurst read of the same frame
// (SameFields), or the benchmark fails.
void BM_ReceiveRatios(benchmark::State& state, BurstPrefetch prefetch) {
  const bool front = state.range(0) == kFront;
  const auto frames = static_cast<size_t>(state.range(1));
  ReceiveRing ring(frames, front, ChecksumStatus::kNone, /*bare=*/true);
  if (!ViewsAreSpans(ring.frame)) {
    state.SkipWithError("a buffer::View does not start with its span");
    return;
  }
  ReceiveStats verify_stats;
  ReceiveStats floor_stats;
  std::vector<FloorResult> results(frames);
  std::vector<VerifiedFrame> verified(frames);
  const std::unique_ptr<bool[]> delivered(new bool[frames]);
  enum Pass { kRaw, kVerify, kFloor, kPasses };
  const auto run = [&](int pass) {
    switch (pass) {
      case kRaw:
        for (size_t k = 0; k < frames; ++k) {
          uint16_t sum = ring.bare_frames[k].data().ChecksumAll();
          benchmark::DoNotOptimize(sum);
        }
        break;
      case kVerify:
        VerifyPass(ring.bare_frames, verify_stats, verified.data(),
                   delivered.get(), prefetch);
        break;
      default:
        for (size_t k = 0; k < frames; k += kBurst) {
          const size_t n = std::min(kBurst, frames - k);
          size_t ok = FloorBurst(std::span(ring.bare_frames).subspan(k, n),
                                 results.data() + k, floor_stats);
          benchmark::DoNotOptimize(ok);
        }
        break;
    }
  };
  std::vector<double> seconds[kPasses];
  int first = 0;
  for (auto _ : state) {
    double total = 0;
    for (int j = 0; j < kPasses; ++j) {
      const int pass = (first + j) % kPasses;
      ring.Refill();
      const double start = PassClock();
      run(pass);
      const double t = PassClock() - start;
      seconds[pass].push_back(t);
      total += t;
    }
    first = (first + 1) % kPasses;
    state.SetIterationTime(total);
  }
  if (verify_stats.delivered != verify_stats.received ||
      floor_stats.delivered != floor_stats.received) {
    state.SkipWithError("dropped");
    return;
  }
  for (size_t k = 0; k < frames; ++k) {
    if (!SameFields(verified[k], results[k])) {
      state.SkipWithError("VerifyBurst's fields differ from FloorBurst's");
      return;
    }
  }
  std::vector<double> ratio[2];
  for (size_t i = 0; i < seconds[kRaw].size(); ++i) {
    ratio[0].push_back(seconds[kVerify][i] / seconds[kRaw][i]);
    ratio[1].push_back(seconds[kFloor][i] / seconds[kRaw][i]);
  }
  const double per_frame = 1e9 / static_cast<double>(frames);
  state.counters["raw_ns"] = Median(seconds[kRaw]) * per_frame;
  state.counters["verify_ns"] = Median(seconds[kVerify]) * per_frame;
  state.counters["floor_ns"] = Median(seconds[kFloor]) * per_frame;
  state.counters["verify_ratio"] = Median(ratio[0]);
  state.counters["floor_ratio"] = Median(ratio[1]);
  state.SetBytesProcessed(state.iterations() * kPasses * frames *
                          ring.frame_bytes);
}

// RegisterRatios registers BM_ReceiveRatios per prefetch policy.
[[maybe_unused]] const bool kReceiveRatiosRegistered = [] {
  for (BurstPrefetch p : kPrefetches) {
    const std::string name =
        "BM_ReceiveRatios/prefetch:" + std::string(ToString(p));
    benchmark::RegisterBenchmark(name.c_str(), BM_ReceiveRatios, p)
        ->Apply(BurstArgs)
        ->UseManualTime();
  }
  return true;
}();

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
