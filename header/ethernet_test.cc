// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Tests of the Ethernet II view: untagged, 802.1Q and QinQ known answers,
// every truncation, Encode round trips and setters.

#include "header/ethernet.h"

#include <vector>

#include "gtest/gtest.h"
#include "header/internal/test_util.h"

namespace ipsum::header {
namespace {

using testing::Hex;

TEST(EthernetTest, Untagged) {
  std::vector<uint8_t> b = Hex(testing::kTcpSyn);
  Result<Ethernet> e = Ethernet::Parse(b);
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(e->destination().ToString(), "02:00:00:00:00:02");
  EXPECT_EQ(e->source().ToString(), "02:00:00:00:00:01");
  EXPECT_EQ(e->tag_count(), 0);
  EXPECT_EQ(e->ether_type(), kEtherTypeIPv4);
  EXPECT_EQ(e->header_size(), 14u);
  EXPECT_EQ(e->payload().size(), b.size() - 14);
  EXPECT_EQ(e->payload()[0], 0x45);
}

TEST(EthernetTest, SingleTag) {
  std::vector<uint8_t> b = Hex(testing::kIcmpv4EchoVlan);
  Result<Ethernet> e = Ethernet::Parse(b);
  ASSERT_TRUE(e.ok());
  ASSERT_EQ(e->tag_count(), 1);
  EXPECT_EQ(e->tag(0), (VlanTag{kEtherTypeVlan, 0, false, 42}));
  EXPECT_EQ(e->ether_type(), kEtherTypeIPv4);
  EXPECT_EQ(e->header_size(), 18u);
  EXPECT_EQ(e->payload()[0], 0x45);
}

TEST(EthernetTest, QinQ) {
  std::vector<uint8_t> b = Hex(testing::kIcmpv6EchoQinQ);
  Result<Ethernet> e = Ethernet::Parse(b);
  ASSERT_TRUE(e.ok());
  ASSERT_EQ(e->tag_count(), 2);
  EXPECT_EQ(e->tag(0), (VlanTag{kEtherTypeQinQ, 3, false, 100}));
  EXPECT_EQ(e->tag(1), (VlanTag{kEtherTypeVlan, 5, true, 200}));
  EXPECT_EQ(e->ether_type(), kEtherTypeIPv6);
  EXPECT_EQ(e->header_size(), 22u);
  EXPECT_EQ(e->payload()[0], 0x60);
}

TEST(EthernetTest, AThirdTagIsReportedAsTheEtherType) {
  std::vector<uint8_t> b =
      Hex("ffffffffffff 020000000001 88a8 0001 8100 0002 8100 0003 0800");
  Result<Ethernet> e = Ethernet::Parse(b);
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(e->tag_count(), 2);
  EXPECT_EQ(e->ether_type(), kEtherTypeVlan);
  EXPECT_TRUE(e->destination().IsBroadcast());
  EXPECT_TRUE(e->destination().IsMulticast());
  EXPECT_FALSE(e->source().IsMulticast());
}

TEST(EthernetTest, EveryTruncationIsReported) {
  for (std::string_view hex :
       {testing::kTcpSyn, testing::kIcmpv4EchoVlan, testing::kIcmpv6EchoQinQ}) {
    std::vector<uint8_t> b = Hex(hex);
    size_t header = Ethernet::Parse(b)->header_size();
    for (size_t n = 0; n < header; ++n) {
      std::vector<uint8_t> t(b.begin(), b.begin() + n);
      EXPECT_EQ(Ethernet::Parse(t).error(), Error::kTruncated) << n;
    }
    std::vector<uint8_t> t(b.begin(), b.begin() + header);
    Result<Ethernet> e = Ethernet::Parse(t);
    ASSERT_TRUE(e.ok());
    EXPECT_TRUE(e->payload().empty());
  }
}

TEST(EthernetTest, EncodeRoundTrips) {
  for (std::string_view hex :
       {testing::kTcpSyn, testing::kIcmpv4EchoVlan, testing::kIcmpv6EchoQinQ}) {
    std::vector<uint8_t> b = Hex(hex);
    EthernetFields f = Ethernet::Parse(b)->fields();
    std::vector<uint8_t> out(Ethernet::HeaderSize(f));
    ASSERT_EQ(Ethernet::Encode(f, out), Error::kOk);
    EXPECT_EQ(out, std::vector<uint8_t>(b.begin(), b.begin() + out.size()));
    EXPECT_EQ(Ethernet::Parse(out)->fields(), f);
  }
}

TEST(EthernetTest, EncodeRejectsBadFieldsAndSmallBuffers) {
  EthernetFields f;
  f.tag_count = 1;
  f.tags[0].vid = 4096;
  std::vector<uint8_t> out(22);
  EXPECT_EQ(Ethernet::Encode(f, out), Error::kBadField);
  f.tags[0].vid = 1;
  f.tags[0].pcp = 8;
  EXPECT_EQ(Ethernet::Encode(f, out), Error::kBadField);
  f.tags[0].pcp = 1;
  f.tags[0].tpid = 0x0800;
  EXPECT_EQ(Ethernet::Encode(f, out), Error::kBadField);
  f.tags[0].tpid = kEtherTypeVlan;
  f.tag_count = 3;
  EXPECT_EQ(Ethernet::Encode(f, out), Error::kBadField);
  f.tag_count = 1;
  std::vector<uint8_t> small(17);
  EXPECT_EQ(Ethernet::Encode(f, small), Error::kBufferTooSmall);
  EXPECT_EQ(Ethernet::Encode(f, out), Error::kOk);
}

TEST(EthernetTest, MutableSetters) {
  std::vector<uint8_t> b = Hex(testing::kIcmpv4EchoVlan);
  MutableEthernet e = *MutableEthernet::Parse(b);
  MacAddress a = MacAddress::From(Hex("0a0b0c0d0e0f").data());
  e.SetDestination(a);
  e.SetSource(a);
  e.SetEtherType(kEtherTypeARP);
  EXPECT_EQ(e.destination(), a);
  EXPECT_EQ(e.source().ToString(), "0a:0b:0c:0d:0e:0f");
  EXPECT_EQ(e.ether_type(), kEtherTypeARP);
  EXPECT_EQ(e.tag(0).vid, 42);
  EXPECT_EQ(b[16], 0x08);
  EXPECT_EQ(b[17], 0x06);
}

}  // namespace
}  // namespace ipsum::header
