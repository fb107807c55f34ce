// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// DecodeLink on each link-layer header csum reads: where the IP packet
// starts, what is not IP, and frames that end inside the link header.

#include "tools/csum/link.h"

#include <cstdint>
#include <vector>

#include "gtest/gtest.h"

namespace ipsum::csum {
namespace {

constexpr uint32_t T(LinkType t) { return static_cast<uint32_t>(t); }

TEST(DecodeLink, EthernetIsLeftWholeToTheParser) {
  std::vector<uint8_t> frame(60);
  LinkDecode d = DecodeLink(T(LinkType::kEthernet), frame);
  EXPECT_EQ(d.payload, LinkPayload::kEthernet);
  EXPECT_EQ(d.offset, 0u);
}

TEST(DecodeLink, RawTypesStartWithIP) {
  std::vector<uint8_t> frame = {0x45, 0};
  for (LinkType t : {LinkType::kRaw, LinkType::kIPv4, LinkType::kIPv6}) {
    LinkDecode d = DecodeLink(T(t), frame);
    EXPECT_EQ(d.payload, LinkPayload::kIP);
    EXPECT_EQ(d.offset, 0u);
  }
}

TEST(DecodeLink, NullFamilyInEitherByteOrder) {
  // AF_INET little-endian (x86 capture), AF_INET6 as macOS (30)
  // little-endian, AF_INET6 as FreeBSD (28) big-endian.
  for (std::vector<uint8_t> frame : {std::vector<uint8_t>{2, 0, 0, 0, 0x45},
                                     std::vector<uint8_t>{30, 0, 0, 0, 0x60},
                                     std::vector<uint8_t>{0, 0, 0, 28, 0x60},
                                     std::vector<uint8_t>{0, 0, 0, 2, 0x45}}) {
    LinkDecode d = DecodeLink(T(LinkType::kNull), frame);
    EXPECT_EQ(d.payload, LinkPayload::kIP) << int(frame[0]) << int(frame[3]);
    EXPECT_EQ(d.offset, 4u);
  }
  std::vector<uint8_t> ipx = {23, 0, 0, 0, 0};
  EXPECT_EQ(DecodeLink(T(LinkType::kNull), ipx).payload, LinkPayload::kNotIP);
}

TEST(DecodeLink, LoopFamilyIsNetworkOrder) {
  std::vector<uint8_t> v6 = {0, 0, 0, 24, 0x60};
  EXPECT_EQ(DecodeLink(T(LinkType::kLoop), v6).payload, LinkPayload::kIP);
  // Little-endian 2 read in network order is 0x02000000: not a family.
  std::vector<uint8_t> le = {2, 0, 0, 0, 0x45};
  EXPECT_EQ(DecodeLink(T(LinkType::kLoop), le).payload, LinkPayload::kNotIP);
}

TEST(DecodeLink, LinuxCookedHeaders) {
  std::vector<uint8_t> sll(20, 0);
  sll[14] = 0x86;
  sll[15] = 0xdd;
  LinkDecode d = DecodeLink(T(LinkType::kLinuxSll), sll);
  EXPECT_EQ(d.payload, LinkPayload::kIP);
  EXPECT_EQ(d.offset, 16u);
  sll[14] = 0x08;
  sll[15] = 0x06;  // ARP
  EXPECT_EQ(DecodeLink(T(LinkType::kLinuxSll), sll).payload,
            LinkPayload::kNotIP);

  std::vector<uint8_t> sll2(24, 0);
  sll2[0] = 0x08;
  sll2[1] = 0x00;
  d = DecodeLink(T(LinkType::kLinuxSll2), sll2);
  EXPECT_EQ(d.payload, LinkPayload::kIP);
  EXPECT_EQ(d.offset, 20u);
}

TEST(DecodeLink, CookedHeaderWithAVlanTagLeftInThePacket) {
  // SLL protocol 0x8100, then TCI and the IPv6 type, then the packet.
  std::vector<uint8_t> sll(24, 0);
  sll[14] = 0x81;
  sll[16] = 0x00;
  sll[17] = 42;
  sll[18] = 0x86;
  sll[19] = 0xdd;
  LinkDecode d = DecodeLink(T(LinkType::kLinuxSll), sll);
  EXPECT_EQ(d.payload, LinkPayload::kIP);
  EXPECT_EQ(d.offset, 20u);
  EXPECT_EQ(
      DecodeLink(T(LinkType::kLinuxSll), std::span(sll).first(18)).payload,
      LinkPayload::kTruncated);
}

TEST(DecodeLink, FramesEndingInsideTheLinkHeaderAreTruncated) {
  std::vector<uint8_t> bytes(19, 0);
  std::span<const uint8_t> all(bytes);
  EXPECT_EQ(DecodeLink(T(LinkType::kNull), all.first(3)).payload,
            LinkPayload::kTruncated);
  EXPECT_EQ(DecodeLink(T(LinkType::kLoop), all.first(0)).payload,
            LinkPayload::kTruncated);
  EXPECT_EQ(DecodeLink(T(LinkType::kLinuxSll), all.first(15)).payload,
            LinkPayload::kTruncated);
  EXPECT_EQ(DecodeLink(T(LinkType::kLinuxSll2), all.first(19)).payload,
            LinkPayload::kTruncated);
}

TEST(DecodeLink, UnknownLinkTypeIsUnsupported) {
  std::vector<uint8_t> frame(40);
  EXPECT_EQ(DecodeLink(105, frame).payload,
            LinkPayload::kUnsupported);  // 802.11
  EXPECT_FALSE(IsSupportedLinkType(105));
  EXPECT_TRUE(IsSupportedLinkType(276));
  EXPECT_EQ(LinkTypeName(113), "linux_sll");
  EXPECT_EQ(LinkTypeName(105), "");
}

}  // namespace
}  // namespace ipsum::csum
