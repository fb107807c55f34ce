// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Writes the seed corpus of vnet_fuzzer: frames made by ipsum's encoders
// behind the virtio-net headers a kernel would put in front of them (each
// checksum state and GSO type, TUN and TAP), plus a few that lie.
//
//   bazel run //tcpip/link:make_vnet_seeds -- $PWD/testdata/fuzz/vnet_fuzzer

#include <array>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "buffer/buffer.h"
#include "tcpip/link/endpoint.h"
#include "tcpip/packet_buffer.h"
#include "tcpip/transmit.h"

namespace ipsum::tcpip::link {
namespace {

Route MakeRoute(bool v6, bool tap) {
  Route r;
  r.network = v6 ? NetworkProtocol::kIPv6 : NetworkProtocol::kIPv4;
  r.source_v4 = header::IPv4Address::FromHost(0x0a090001);
  r.destination_v4 = header::IPv4Address::FromHost(0x0a090102);
  r.source_v6.bytes = {0xfd, 0x09, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
  r.destination_v6.bytes = {0xfd, 0x09, 0, 0, 0, 0, 0, 1,
                            0,    0,    0, 0, 0, 0, 0, 2};
  if (tap) {
    header::EthernetFields e;
    e.destination.bytes = {2, 0, 0, 0, 9, 1};
    e.source.bytes = {2, 0, 0, 0, 9, 2};
    r.ethernet = e;
  }
  return r;
}

void Write(const std::string& dir, const std::string& name, bool tap,
           const std::array<uint8_t, kVnetHeaderSize>& h,
           const std::vector<uint8_t>& frame) {
  std::ofstream f(dir + "/" + name, std::ios::binary);
  const uint8_t control = tap ? 1 : 0;
  f.put(static_cast<char>(control));
  f.write(reinterpret_cast<const char*>(h.data()), h.size());
  f.write(reinterpret_cast<const char*>(frame.data()),
          static_cast<std::streamsize>(frame.size()));
}

int Main(const std::string& dir) {
  LinkCapabilities partial;
  partial.tx_checksum_offload = true;
  for (bool tap : {false, true}) {
    for (bool v6 : {false, true}) {
      for (bool tcp : {true, false}) {
        const std::string name = std::string(tap ? "tap" : "tun") + "-" +
                                 (tcp ? "tcp" : "udp") + (v6 ? "6" : "4");
        PacketBuffer pkt(buffer::Buffer::Copy(std::vector<uint8_t>(3000, 7)));
        EncodeError e;
        if (tcp) {
          TCPSegment s;
          s.source_port = 40000;
          s.destination_port = 5001;
          s.flags = 0x18;
          s.options.timestamps = header::TCPTimestamps{1, 2};
          e = EncodeTCP(MakeRoute(v6, tap), s, partial, pkt);
        } else {
          e = EncodeUDP(MakeRoute(v6, tap), UDPDatagram{40000, 5002}, partial,
                        pkt);
        }
        if (e != EncodeError::kOk) return 1;
        const std::vector<uint8_t> frame = pkt.Flatten();
        std::array<uint8_t, kVnetHeaderSize> h;
        // Partial checksum, GSO, then the frame's checksum completed.
        EncodeVnetHeader(pkt, h);
        Write(dir, name + "-partial", tap, h, frame);
        pkt.gso_type = tcp ? (v6 ? GsoType::kTCPv6 : GsoType::kTCPv4)
                           : (v6 ? GsoType::kUDPv6 : GsoType::kUDPv4);
        pkt.gso_size = 1200;
        EncodeVnetHeader(pkt, h);
        Write(dir, name + "-gso", tap, h, frame);
        // A lie: csum_offset past the frame.
        h[8] = 0xff;
        h[9] = 0xff;
        Write(dir, name + "-gso-lying-offset", tap, h, frame);
        pkt.gso_type = GsoType::kNone;
        pkt.gso_size = 0;
        if (!ResolvePartialChecksum(pkt)) return 1;
        pkt.checksum_status = ChecksumStatus::kUnnecessary;
        EncodeVnetHeader(pkt, h);
        Write(dir, name + "-data-valid", tap, h, pkt.Flatten());
      }
    }
  }
  return 0;
}

}  // namespace
}  // namespace ipsum::tcpip::link

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_vnet_seeds DIR\n");
    return 2;
  }
  return ipsum::tcpip::link::Main(argv[1]);
}
