// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Tests of the address types: byte order and RFC 5952 text forms.

#include "header/address.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "header/internal/test_util.h"

namespace ipsum::header {
namespace {

using testing::Hex;

IPv6Address V6(std::string_view hex) {
  return IPv6Address::From(Hex(hex).data());
}

TEST(AddressTest, IPv4HostOrderAndText) {
  IPv4Address a = IPv4Address::FromHost(0xc0000201);
  EXPECT_EQ(a.bytes, (std::array<uint8_t, 4>{192, 0, 2, 1}));
  EXPECT_EQ(a.ToHost(), 0xc0000201u);
  EXPECT_EQ(a.ToString(), "192.0.2.1");
  EXPECT_EQ(IPv4Address::FromHost(0xffffffff).ToString(), "255.255.255.255");
  EXPECT_EQ(IPv4Address().ToString(), "0.0.0.0");
  EXPECT_LT(IPv4Address::FromHost(1), IPv4Address::FromHost(0x100));
  uint8_t out[4];
  a.CopyTo(out);
  EXPECT_EQ(IPv4Address::From(out), a);
}

TEST(AddressTest, MacText) {
  MacAddress m = MacAddress::From(Hex("0a1b2c3d4e5f").data());
  EXPECT_EQ(m.ToString(), "0a:1b:2c:3d:4e:5f");
  EXPECT_FALSE(m.IsMulticast());
  EXPECT_FALSE(m.IsBroadcast());
  EXPECT_TRUE(MacAddress::From(Hex("01005e000001").data()).IsMulticast());
}

// RFC 5952 section 4 and its examples.
TEST(AddressTest, IPv6CanonicalText) {
  EXPECT_EQ(V6("20010db8000000000000000000000001").ToString(), "2001:db8::1");
  EXPECT_EQ(V6("00000000000000000000000000000000").ToString(), "::");
  EXPECT_EQ(V6("00000000000000000000000000000001").ToString(), "::1");
  EXPECT_EQ(V6("fe800000000000000000000000000000").ToString(), "fe80::");
  // 4.2.2: a single zero group is not shortened.
  EXPECT_EQ(V6("20010db8000000010001000100010001").ToString(),
            "2001:db8:0:1:1:1:1:1");
  // 4.2.3: the longest run; the first on a tie.
  EXPECT_EQ(V6("20010000000000010000000000000001").ToString(), "2001:0:0:1::1");
  EXPECT_EQ(V6("20010db8000000000001000000000001").ToString(),
            "2001:db8::1:0:0:1");
  // 4.1 and 4.3: no leading zeros, lower case.
  EXPECT_EQ(V6("20010DB800AA00BB00CC00DD00EE0FFF").ToString(),
            "2001:db8:aa:bb:cc:dd:ee:fff");
  // 5: IPv4-mapped.
  EXPECT_EQ(V6("00000000000000000000ffffc0000201").ToString(),
            "::ffff:192.0.2.1");
}

}  // namespace
}  // namespace ipsum::header
