// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Writes the seed corpora of the header fuzzers from the known-answer frames
// in internal/test_util.h (each checked once with tshark), cut at the layer
// each fuzzer reads:
//
//   bazel run //header:make_fuzz_seeds -- $PWD/testdata/fuzz
//
// writes <dir>/ipv4_fuzzer/*, <dir>/ipv6_fuzzer/* (IP packets),
// <dir>/transport_fuzzer/* (selector byte + transport header and payload,
// or + Ethernet frame), and the whole Ethernet frames with the prefixes of
// //tcpip:receive_fuzzer and //tools/csum:verify_fuzzer in theirs.
// Existing files of the same name are overwritten; nothing else is
// touched.

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "header/ethernet.h"
#include "header/internal/test_util.h"
#include "header/ipv4.h"
#include "header/ipv6.h"

namespace ipsum::header {
namespace {

using Bytes = std::vector<uint8_t>;

void Write(const std::filesystem::path& dir, const std::string& name,
           std::span<const uint8_t> bytes, int prefix = -1) {
  std::filesystem::create_directories(dir);
  std::ofstream out(dir / name, std::ios::binary | std::ios::trunc);
  if (prefix >= 0) out.put(static_cast<char>(prefix));
  out.write(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  if (!out) {
    std::fprintf(stderr, "cannot write %s\n", (dir / name).c_str());
    std::exit(1);
  }
}

struct Frame {
  const char* name;
  std::string_view hex;
};

constexpr Frame kFrames[] = {
    {"tcp-syn-v4", testing::kTcpSyn},
    {"udp-v4-options", testing::kUdpIPv4Options},
    {"udp-v6-extensions", testing::kUdpIPv6Extensions},
    {"icmpv6-echo-qinq", testing::kIcmpv6EchoQinQ},
    {"icmpv4-echo-vlan", testing::kIcmpv4EchoVlan},
    {"icmpv4-frag-needed", testing::kIcmpv4FragNeeded},
    {"icmpv6-packet-too-big", testing::kIcmpv6PacketTooBig},
};

// Transport selectors of transport_fuzzer.cc: parser in the low 3 bits,
// IPv6 pseudo-header with 8.
int Selector(uint8_t protocol, bool v6) {
  const int ip = v6 ? 8 : 0;
  switch (protocol) {
    case 6:
      return 0 | ip;
    case 17:
      return 1 | ip;
    case 1:
      return 2;
    case 58:
      return 3 | 8;
    default:
      return -1;
  }
}

int Main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_fuzz_seeds TESTDATA_FUZZ_DIR\n");
    return 2;
  }
  const std::filesystem::path root(argv[1]);
  for (const Frame& f : kFrames) {
    const Bytes frame = testing::Hex(f.hex);
    // tcpip receive_fuzzer: control 0 (Ethernet, flat, NONE), csum_start
    // 14 and csum 0, then the frame. csum verify_fuzzer: link type
    // selector 1 (Ethernet), then the frame.
    Bytes rx = {0, 0, 14, 0, 0};
    rx.insert(rx.end(), frame.begin(), frame.end());
    Write(root / "receive_fuzzer", f.name, rx);
    Write(root / "verify_fuzzer", f.name, frame, 1);
    Write(root / "transport_fuzzer", std::string(f.name) + "-ethernet", frame,
          5);
    const Result<Ethernet> eth = Ethernet::Parse(frame);
    if (!eth.ok()) return 1;
    if (eth->ether_type() == kEtherTypeIPv4) {
      Write(root / "ipv4_fuzzer", f.name, eth->payload());
      const Result<IPv4> ip = IPv4::Parse(eth->payload());
      if (!ip.ok()) return 1;
      const int sel = Selector(ip->protocol(), false);
      if (sel >= 0)
        Write(root / "transport_fuzzer", f.name, ip->payload(), sel);
      if (ip->protocol() == 6) {
        const auto tcp = ip->payload();
        Write(root / "transport_fuzzer", std::string(f.name) + "-options",
              tcp.subspan(20, (tcp[12] >> 4) * 4 - 20), 4);
      }
    } else {
      Write(root / "ipv6_fuzzer", f.name, eth->payload());
      const Result<IPv6> ip = IPv6::Parse(eth->payload());
      if (!ip.ok()) return 1;
      const auto chain = ip->WalkExtensionHeaders();
      if (!chain.ok()) return 1;
      const int sel = Selector(chain->protocol, true);
      if (sel >= 0) {
        Write(root / "transport_fuzzer", f.name,
              ip->bytes().subspan(chain->offset), sel);
      }
    }
  }
  return 0;
}

}  // namespace
}  // namespace ipsum::header

int main(int argc, char** argv) { return ipsum::header::Main(argc, argv); }
