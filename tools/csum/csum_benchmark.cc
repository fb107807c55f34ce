// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// `csum verify` throughput against the I/O floor. On first use this writes
// a ~100 MB pcap of 1514-byte Ethernet/IPv4/TCP frames (1460 bytes of
// data, right checksums) to /tmp/ipsum-csum-benchmark.pcap (not committed;
// reused while its size is right), then times:
//
//   BM_ReadWithLibpcapOnly   pcap_next_ex over the file, touching nothing:
//                            the floor (argument: stdio buffer size, 0 for
//                            libpcap's default 4 KiB; csum verify reads
//                            through 1 MiB);
//   BM_ReadWithReaderOnly    csum's own CaptureReader over the file,
//                            touching nothing: the floor csum verify has;
//   BM_VerifyCapture         VerifyCapture over the same file;
//   BM_CheckFrame            CheckFrame on one frame in memory (no I/O),
//                            behind Ethernet, raw IP or Linux cooked SLL2.
//
// Items are packets, bytes are file bytes. The target is BM_VerifyCapture
// within 1.5x of BM_ReadWithReaderOnly. Run on a quiet machine, pinned:
//
//   bazel build --config=opt //tools/csum:csum_benchmark
//   taskset -c 1 bazel-bin/tools/csum/csum_benchmark

#include <pcap/pcap.h>
#include <sys/stat.h>

#include <cstdio>
#include <string>
#include <vector>

#include "benchmark/benchmark.h"
#include "checksum/checksum.h"
#include "checksum/endian.h"
#include "header/address.h"
#include "header/checksum.h"
#include "header/ethernet.h"
#include "header/ipv4.h"
#include "header/tcp.h"
#include "tools/csum/capture.h"
#include "tools/csum/link.h"
#include "tools/csum/pcap_reader.h"
#include "tools/csum/verify.h"

namespace ipsum::csum {
namespace {

constexpr char kPath[] = "/tmp/ipsum-csum-benchmark.pcap";
constexpr size_t kFrameSize = 1514;
constexpr size_t kPackets = 100'000'000 / (kFrameSize + 16);

// Frame returns Ethernet/IPv4/TCP frame number `i`, checksums right.
std::vector<uint8_t> Frame(uint32_t i) {
  std::vector<uint8_t> f(kFrameSize);
  header::EthernetFields eth;
  eth.destination.bytes = {2, 0, 0, 0, 0, 2};
  eth.source.bytes = {2, 0, 0, 0, 0, 1};
  eth.ether_type = 0x0800;
  header::Ethernet::Encode(eth, f);
  header::IPv4Fields ip;
  ip.total_length = kFrameSize - 14;
  ip.id = static_cast<uint16_t>(i);
  ip.dont_fragment = true;
  ip.ttl = 64;
  ip.protocol = 6;
  ip.source = header::IPv4Address::FromHost(0x0a000001);
  ip.destination = header::IPv4Address::FromHost(0x0a000002);
  header::IPv4::Encode(ip, std::span<uint8_t>(f).subspan(14));
  header::TCPFields tcp;
  tcp.source_port = 40000;
  tcp.destination_port = 5201;
  tcp.seq = i * 1460;
  tcp.flags = 0x10;
  tcp.window = 512;
  std::span<uint8_t> segment = std::span<uint8_t>(f).subspan(34);
  header::TCP::Encode(tcp, segment);
  for (size_t k = 20; k < segment.size(); ++k) {
    segment[k] = static_cast<uint8_t>(k * 31 + i);
  }
  uint16_t pseudo = header::PseudoHeaderSum(
      ip.source, ip.destination, 6, static_cast<uint16_t>(segment.size()));
  checksum::Put(segment.data() + 16,
                header::ComputeTransportChecksum(pseudo, segment, 16, 0));
  return f;
}

// EnsureCapture writes the benchmark capture unless it is already there.
bool EnsureCapture() {
  struct stat st;
  const off_t want = 24 + static_cast<off_t>(kPackets) * (16 + kFrameSize);
  if (stat(kPath, &st) == 0 && st.st_size == want) return true;
  pcap_t* dead = pcap_open_dead(DLT_EN10MB, 65535);
  pcap_dumper_t* d = pcap_dump_open(dead, kPath);
  if (d == nullptr) return false;
  for (uint32_t i = 0; i < kPackets; ++i) {
    std::vector<uint8_t> f = Frame(i);
    pcap_pkthdr h{};
    h.ts.tv_sec = 1767225600 + i / 1000;
    h.ts.tv_usec = (i % 1000) * 1000;
    h.caplen = h.len = kFrameSize;
    pcap_dump(reinterpret_cast<u_char*>(d), &h, f.data());
  }
  pcap_dump_close(d);
  pcap_close(dead);
  return true;
}

void Finish(benchmark::State& state, uint64_t packets) {
  struct stat st;
  stat(kPath, &st);
  state.SetItemsProcessed(static_cast<int64_t>(packets));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                          st.st_size);
  state.counters["packets/s"] = benchmark::Counter(static_cast<double>(packets),
                                                   benchmark::Counter::kIsRate);
}

void BM_ReadWithLibpcapOnly(benchmark::State& state) {
  if (!EnsureCapture()) return state.SkipWithError("cannot write capture");
  uint64_t packets = 0;
  const size_t buffer_size = static_cast<size_t>(state.range(0));
  std::vector<char> buffer(buffer_size);
  for (auto _ : state) {
    char err[PCAP_ERRBUF_SIZE];
    FILE* f = std::fopen(kPath, "rb");
    if (buffer_size) std::setvbuf(f, buffer.data(), _IOFBF, buffer_size);
    pcap_t* p = pcap_fopen_offline_with_tstamp_precision(
        f, PCAP_TSTAMP_PRECISION_NANO, err);
    pcap_pkthdr* h;
    const u_char* data;
    while (pcap_next_ex(p, &h, &data) == 1) {
      benchmark::DoNotOptimize(data);
      ++packets;
    }
    pcap_close(p);
  }
  Finish(state, packets);
}
BENCHMARK(BM_ReadWithLibpcapOnly)
    ->Arg(0)
    ->Arg(1 << 20)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

void BM_ReadWithReaderOnly(benchmark::State& state) {
  if (!EnsureCapture()) return state.SkipWithError("cannot write capture");
  uint64_t packets = 0;
  for (auto _ : state) {
    auto source = OpenFileSource(kPath);
    if (!source.ok()) return state.SkipWithError("cannot open capture");
    auto reader = CaptureReader::Open(std::move(*source), kPath);
    if (!reader.ok()) return state.SkipWithError("cannot read capture");
    CaptureRecord r;
    absl::StatusOr<bool> more;
    while ((more = (*reader)->Next(&r)).ok() && *more) {
      benchmark::DoNotOptimize(r.data.data());
      packets += r.is_packet;
    }
  }
  Finish(state, packets);
}
BENCHMARK(BM_ReadWithReaderOnly)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_VerifyCapture(benchmark::State& state) {
  if (!EnsureCapture()) return state.SkipWithError("cannot write capture");
  uint64_t packets = 0;
  for (auto _ : state) {
    CaptureReport r = VerifyCapture(kPath, nullptr, false);
    if (!r.status.ok() || r.tally.Count(Verdict::kGood) != 2 * kPackets) {
      return state.SkipWithError("verify did not find every checksum good");
    }
    packets += r.tally.packets;
  }
  Finish(state, packets);
}
BENCHMARK(BM_VerifyCapture)->Unit(benchmark::kMillisecond)->UseRealTime();

// BM_CheckFrame's argument is the link type: the same datagram behind
// Ethernet, raw IP or a Linux cooked (SLL2) header.
void BM_CheckFrame(benchmark::State& state) {
  const auto linktype = static_cast<uint32_t>(state.range(0));
  const std::vector<uint8_t> ethernet = Frame(1);
  std::vector<uint8_t> f;
  if (linktype == static_cast<uint32_t>(LinkType::kLinuxSll2)) {
    // Protocol IPv4, interface 3, ARPHRD_ETHER, to us, a 6-byte address.
    f = {0x08, 0, 0, 0, 0, 0, 0, 3, 0, 1, 0, 6, 2, 0, 0, 0, 0, 1, 0, 0};
  } else if (linktype == static_cast<uint32_t>(LinkType::kEthernet)) {
    f.assign(ethernet.begin(), ethernet.begin() + 14);
  }
  f.insert(f.end(), ethernet.begin() + 14, ethernet.end());
  for (auto _ : state) {
    FrameCheck c = CheckFrame(linktype, f);
    benchmark::DoNotOptimize(c);
  }
  state.SetItemsProcessed(state.iterations());
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(f.size()));
}
BENCHMARK(BM_CheckFrame)
    ->Arg(static_cast<int64_t>(LinkType::kEthernet))
    ->Arg(static_cast<int64_t>(LinkType::kRaw))
    ->Arg(static_cast<int64_t>(LinkType::kLinuxSll2));

}  // namespace
}  // namespace ipsum::csum
