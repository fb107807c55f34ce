// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Tests for the bugs the header fuzzers found, one per bug, each written
// from the crashing input (kept in testdata/fuzz/<fuzzer>/crash-*) down to
// the smallest case that shows it.

#include <cstdint>
#include <vector>

#include "gtest/gtest.h"
#include "header/icmpv4.h"
#include "header/internal/test_util.h"

namespace ipsum::header {
namespace {

// ipv4_fuzzer, crash-icmpv4-all-zero-message-checksum: an ICMPv4 echo reply
// with identifier, sequence and data all 0 got checksum 0x0000, which does
// not verify; its checksum is ~0 = 0xffff.
TEST(FuzzRegressionTest, AllZeroICMPv4MessageGetsChecksumFFFF) {
  std::vector<uint8_t> message(25, 0);
  Result<MutableICMPv4> icmp = MutableICMPv4::Parse(message);
  ASSERT_TRUE(icmp.ok());
  icmp->SetChecksum(icmp->ComputeChecksum());
  EXPECT_EQ(icmp->checksum(), 0xffff);
  EXPECT_TRUE(icmp->IsChecksumValid());
  EXPECT_EQ(testing::ReferenceSum(message), 0xffff);
}

}  // namespace
}  // namespace ipsum::header
