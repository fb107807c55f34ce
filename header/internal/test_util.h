// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Test helpers for //header, not API: a byte-at-a-time reference checksum
// that shares no code with //checksum, hex decoding, a seeded random packet
// builder, and the known-answer frames every header test starts from.
//
// The known-answer frames were built from the field values in their
// comments, their checksums computed by a separate script, and the frames
// checked once by hand with tshark 4.0 (`-o ip.check_checksum:TRUE -o
// tcp.check_checksum:TRUE -o udp.check_checksum:TRUE -V`), which reported
// every IPv4, TCP, UDP, ICMPv4 and ICMPv6 checksum "[correct]" (the quoted
// inner headers excepted: they carry made-up checksums) and decoded the
// fields as written here.

#ifndef IPSUM_HEADER_INTERNAL_TEST_UTIL_H_
#define IPSUM_HEADER_INTERNAL_TEST_UTIL_H_

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace ipsum::header::testing {

// ReferenceSum returns the folded, not complemented, one's-complement sum of
// `data` plus `initial`, one byte at a time (RFC 1071 section 4.1).
inline uint16_t ReferenceSum(std::span<const uint8_t> data,
                             uint32_t initial = 0) {
  uint64_t sum = initial;
  for (size_t i = 0; i < data.size(); ++i) {
    sum += (i % 2 == 0) ? uint64_t{data[i]} << 8 : uint64_t{data[i]};
  }
  while (sum >> 16) sum = (sum & 0xffff) + (sum >> 16);
  return static_cast<uint16_t>(sum);
}

// Hex decodes hex digits, ignoring spaces and newlines.
inline std::vector<uint8_t> Hex(std::string_view s) {
  std::vector<uint8_t> out;
  int nibble = -1;
  for (char c : s) {
    int v;
    if (c >= '0' && c <= '9') {
      v = c - '0';
    } else if (c >= 'a' && c <= 'f') {
      v = c - 'a' + 10;
    } else if (c >= 'A' && c <= 'F') {
      v = c - 'A' + 10;
    } else {
      continue;
    }
    if (nibble < 0) {
      nibble = v;
    } else {
      out.push_back(static_cast<uint8_t>(nibble << 4 | v));
      nibble = -1;
    }
  }
  return out;
}

// Lcg is a tiny seeded generator, the same sequence on every host.
class Lcg {
 public:
  explicit Lcg(uint64_t seed) : state_(seed) {}
  uint32_t Next() {
    state_ = state_ * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<uint32_t>(state_ >> 33);
  }
  uint8_t Byte() { return static_cast<uint8_t>(Next()); }
  void Fill(std::span<uint8_t> out) {
    for (uint8_t& b : out) b = Byte();
  }

 private:
  uint64_t state_;
};

// kTcpSyn: Ethernet 02:00:00:00:00:01 -> 02:00:00:00:00:02, type 0x0800;
// IPv4 192.0.2.1 -> 198.51.100.2, IHL 5, total length 60, id 0x1c46, DF,
// TTL 64, TCP, header checksum 0x323f; TCP 50000 -> 80, seq 0x01020304,
// ack 0, data offset 10 (40 bytes), SYN, window 0xfaf0, checksum 0x9930,
// options MSS 1460, SACK-Permitted, Timestamps (1, 0), NOP, Window Scale 7.
inline constexpr std::string_view kTcpSyn =
    "020000000002 020000000001 0800"
    "4500003c 1c464000 4006323f c0000201 c6336402"
    "c3500050 01020304 00000000 a002faf0 99300000"
    "020405b4 0402080a 00000001 00000000 01030307";

// kUdpIPv4Options: Ethernet, type 0x0800; IPv4 IHL 6 with a Router Alert
// option (94 04 00 00, RFC 2113), total length 44, id 0xbeef, no flags,
// TTL 1, UDP, header checksum 0x7996, 192.0.2.1 -> 198.51.100.2; UDP
// 5353 -> 53, length 20, checksum 0xbe24, data "hello, world".
inline constexpr std::string_view kUdpIPv4Options =
    "020000000002 020000000001 0800"
    "4600002c beef0000 01117996 c0000201 c6336402 94040000"
    "14e90035 0014be24 68656c6c 6f2c2077 6f726c64";

// kUdpIPv6Extensions: Ethernet, type 0x86dd; IPv6 traffic class 0, flow
// label 0x12345, payload length 44, next header 0 (Hop-by-Hop), hop limit
// 64, 2001:db8::1 -> 2001:db8:0:1::2; Hop-by-Hop (next 60, Router Alert
// 05 02 00 00, PadN 01 00); Destination Options (next 44, PadN with 4
// bytes); Fragment (next 17, offset 0, M 0, id 0x12345678: an atomic
// fragment); UDP 40000 -> 4789, length 20, checksum 0xd736, data 00..0b.
inline constexpr std::string_view kUdpIPv6Extensions =
    "020000000002 020000000001 86dd"
    "60012345 002c0040"
    "20010db8 00000000 00000000 00000001"
    "20010db8 00000001 00000000 00000002"
    "3c000502 00000100"
    "2c000104 00000000"
    "11000000 12345678"
    "9c4012b5 0014d736 00010203 04050607 08090a0b";

// kIcmpv6EchoQinQ: Ethernet with an 802.1ad S-tag (TPID 0x88a8, PCP 3,
// VID 100) and an 802.1Q C-tag (PCP 5, DEI 1, VID 200), type 0x86dd; IPv6
// payload length 31, next header 58, hop limit 64, 2001:db8::1 ->
// 2001:db8:0:1::2; ICMPv6 echo request, id 0x4242, seq 7, checksum 0xcd3d,
// data "abcdefghijklmnopqrstuvw".
inline constexpr std::string_view kIcmpv6EchoQinQ =
    "020000000002 020000000001 88a8 6064 8100 b0c8 86dd"
    "60012345 001f3a40"
    "20010db8 00000000 00000000 00000001"
    "20010db8 00000001 00000000 00000002"
    "8000cd3d 42420007"
    "61626364 65666768 696a6b6c 6d6e6f70 71727374 757677";

// kIcmpv4EchoVlan: Ethernet with an 802.1Q tag (VID 42), type 0x0800; IPv4
// total length 60, id 1, TTL 64, ICMP, header checksum 0x8e89, 192.0.2.1 ->
// 198.51.100.2; ICMP echo request, id 0x1234, seq 1, checksum 0xf3c8, data
// 10..2f.
inline constexpr std::string_view kIcmpv4EchoVlan =
    "020000000002 020000000001 8100 002a 0800"
    "4500003c 00010000 40018e89 c0000201 c6336402"
    "0800f3c8 12340001"
    "10111213 14151617 18191a1b 1c1d1e1f"
    "20212223 24252627 28292a2b 2c2d2e2f";

// kIcmpv4FragNeeded: Ethernet, type 0x0800; IPv4 total length 56, id 2,
// TTL 255, ICMP, header checksum 0xce8e, 192.0.2.254 -> 198.51.100.2; ICMP
// destination unreachable, code 4 (fragmentation needed), checksum 0xcbdc,
// next-hop MTU 1400, quoting the IPv4 header of a 1420-byte UDP datagram
// 198.51.100.2 -> 203.0.113.9 (id 0x0abc, DF, header checksum 0xc465) and
// the first 8 bytes of its UDP header (5353 -> 53, length 1400).
inline constexpr std::string_view kIcmpv4FragNeeded =
    "020000000002 020000000001 0800"
    "45000038 00020000 ff01ce8e c00002fe c6336402"
    "0304cbdc 00000578"
    "4500058c 0abc4000 4011c465 c6336402 cb007109"
    "14e90035 05781111";

// kIcmpv6PacketTooBig: Ethernet, type 0x86dd; IPv6 payload length 84, next
// header 58, hop limit 255, 2001:db8::fe -> 2001:db8:0:1::2; ICMPv6 packet
// too big, checksum 0xb9af, MTU 1280, quoting the first 76 bytes of a TCP
// packet 2001:db8:0:1::2 -> 2001:db8:ffff::9 (payload length 1420), TCP
// 443 -> 50001.
inline constexpr std::string_view kIcmpv6PacketTooBig =
    "020000000002 020000000001 86dd"
    "60012345 00543aff"
    "20010db8 00000000 00000000 000000fe"
    "20010db8 00000001 00000000 00000002"
    "0200b9af 00000500"
    "60012345 058c0640"
    "20010db8 00000001 00000000 00000002"
    "20010db8 ffff0000 00000000 00000009"
    "01bbc351 00000001 00000002 501803e8 dead0000"
    "00000000 00000000 00000000 00000000";

}  // namespace ipsum::header::testing

#endif  // IPSUM_HEADER_INTERNAL_TEST_UTIL_H_
