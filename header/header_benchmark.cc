// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Benchmarks of the receive-side parse + verify of full-size packets
// (1500-byte TCP/IPv4 with timestamps, 1500-byte UDP/IPv6) and of the
// forwarding TTL decrement, incremental (RFC 1624) against a full header
// checksum recompute.

#include <cstdint>
#include <vector>

#include "benchmark/benchmark.h"
#include "checksum/checksum.h"
#include "header/checksum.h"
#include "header/ipv4.h"
#include "header/ipv6.h"
#include "header/tcp.h"
#include "header/udp.h"

namespace ipsum::header {
namespace {

constexpr size_t kPacketSize = 1500;

std::vector<uint8_t> TcpIPv4Packet() {
  std::vector<uint8_t> p(kPacketSize);
  for (size_t i = 0; i < p.size(); ++i) p[i] = static_cast<uint8_t>(i * 7);
  IPv4Fields ip;
  ip.total_length = kPacketSize;
  ip.dont_fragment = true;
  ip.ttl = 64;
  ip.protocol = kProtocolTCP;
  ip.source = IPv4Address::FromHost(0xc0000201);
  ip.destination = IPv4Address::FromHost(0xc6336402);
  IPv4::Encode(ip, p);
  TCPOptions o;
  o.timestamps = TCPTimestamps{1, 2};
  uint8_t options[12];
  EncodeTCPOptions(o, options);
  TCPFields t;
  t.source_port = 443;
  t.destination_port = 50000;
  t.flags = kTCPFlagAck;
  t.options = options;
  std::span<uint8_t> seg = std::span(p).subspan(20);
  TCP::Encode(t, seg);
  MutableTCP tcp = *MutableTCP::Parse(seg);
  tcp.SetChecksum(tcp.ComputeChecksum(
      PseudoHeaderSum(ip.source, ip.destination, kProtocolTCP, seg.size())));
  return p;
}

std::vector<uint8_t> UdpIPv6Packet() {
  std::vector<uint8_t> p(kPacketSize);
  for (size_t i = 0; i < p.size(); ++i) p[i] = static_cast<uint8_t>(i * 13);
  IPv6Fields ip;
  ip.payload_length = kPacketSize - IPv6::kSize;
  ip.next_header = kProtocolUDP;
  ip.hop_limit = 64;
  ip.source.bytes = {0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0,
                     0,    0,    0,    0,    0, 0, 0, 1};
  ip.destination.bytes = {0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 1,
                          0,    0,    0,    0,    0, 0, 0, 2};
  IPv6::Encode(ip, p);
  std::span<uint8_t> d = std::span(p).subspan(IPv6::kSize);
  UDP::Encode(UDPFields{4000, 4789, static_cast<uint16_t>(d.size()), 0}, d);
  MutableUDP udp = *MutableUDP::Parse(d);
  udp.SetChecksum(udp.ComputeChecksum(
      PseudoHeaderSum(ip.source, ip.destination, kProtocolUDP, d.size())));
  return p;
}

void BM_ParseVerifyTcpIPv4(benchmark::State& state) {
  std::vector<uint8_t> p = TcpIPv4Packet();
  for (auto _ : state) {
    benchmark::DoNotOptimize(p.data());
    Result<IPv4> ip = IPv4::Parse(p);
    bool ok = ip.ok() && ip->IsChecksumValid() && !ip->IsFragment();
    Result<TCP> tcp = TCP::Parse(ip->payload());
    ok = ok && tcp.ok();
    Result<TCPOptions> options = tcp->ParseOptions();
    ok = ok && options.ok();
    uint16_t pseudo = PseudoHeaderSum(ip->source(), ip->destination(),
                                      kProtocolTCP, ip->payload().size());
    ok = ok && tcp->IsChecksumValid(pseudo);
    if (!ok) state.SkipWithError("packet did not verify");
    benchmark::DoNotOptimize(ok);
  }
  state.SetBytesProcessed(state.iterations() * p.size());
}
BENCHMARK(BM_ParseVerifyTcpIPv4);

void BM_ParseVerifyUdpIPv6(benchmark::State& state) {
  std::vector<uint8_t> p = UdpIPv6Packet();
  for (auto _ : state) {
    benchmark::DoNotOptimize(p.data());
    Result<IPv6> ip = IPv6::Parse(p);
    bool ok = ip.ok();
    Result<IPv6Chain> chain = ip->WalkExtensionHeaders();
    ok = ok && chain.ok() && chain->protocol == kProtocolUDP;
    Result<UDP> udp = UDP::Parse(ip->bytes().subspan(chain->offset));
    ok = ok && udp.ok();
    uint16_t pseudo = PseudoHeaderSum(ip->source(), ip->destination(),
                                      kProtocolUDP, chain->upper_length);
    ok = ok && udp->IsChecksumValid(pseudo, IPVersion::kV6);
    if (!ok) state.SkipWithError("packet did not verify");
    benchmark::DoNotOptimize(ok);
  }
  state.SetBytesProcessed(state.iterations() * p.size());
}
BENCHMARK(BM_ParseVerifyUdpIPv6);

// BM_DecrementTtl times the forwarding fast path: TTL - 1 with the RFC 1624
// checksum update (bytes processed: the 20-byte header).
void BM_DecrementTtl(benchmark::State& state) {
  std::vector<uint8_t> p = TcpIPv4Packet();
  MutableIPv4 ip = *MutableIPv4::Parse(p);
  for (auto _ : state) {
    benchmark::DoNotOptimize(p.data());
    if (ip.DecrementTtl() == 0) ip.SetTtlAndUpdateChecksum(255);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * ip.header_length());
}
BENCHMARK(BM_DecrementTtl);

// BM_DecrementTtlRecompute is the same TTL change with the header checksum
// summed again, for comparison.
void BM_DecrementTtlRecompute(benchmark::State& state) {
  std::vector<uint8_t> p = TcpIPv4Packet();
  MutableIPv4 ip = *MutableIPv4::Parse(p);
  for (auto _ : state) {
    benchmark::DoNotOptimize(p.data());
    ip.SetTtl(static_cast<uint8_t>(ip.ttl() - 1));
    ip.UpdateChecksum();
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * ip.header_length());
}
BENCHMARK(BM_DecrementTtlRecompute);

}  // namespace
}  // namespace ipsum::header
