// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Tests for the bugs the header fuzzers found, one per bug, each written
// from the crashing input (kept in testdata/fuzz/<fuzzer>/crash-*) down to
// the smallest case that shows it.

#include <array>
#include <cstdint>
#include <vector>

#include "gtest/gtest.h"
#include "header/icmpv4.h"
#include "header/internal/test_util.h"
#include "header/tcp.h"

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

// ipv4_fuzzer, crash-icmpv4-ident-update-to-all-zero: NAPT rewriting the
// identifier of an echo reply whose other bytes are all 0 to 0 left the
// checksum 0x0000 (RFC 1624 equation 3's zero); the message needs 0xffff.
TEST(FuzzRegressionTest, ICMPv4IdentUpdateToAllZeroMessageGivesFFFF) {
  std::vector<uint8_t> message(8, 0);
  Result<MutableICMPv4> icmp = MutableICMPv4::Parse(message);
  ASSERT_TRUE(icmp.ok());
  icmp->SetIdent(5);
  icmp->SetChecksum(icmp->ComputeChecksum());
  ASSERT_EQ(icmp->checksum(), 0xfffa);
  icmp->SetIdentAndUpdateChecksum(0);
  EXPECT_EQ(icmp->checksum(), 0xffff);
  EXPECT_TRUE(icmp->IsChecksumValid());
  // A zero result for a message that is not all zero stays zero.
  icmp->SetSequence(0xffff);
  icmp->SetIdent(0);
  icmp->SetChecksum(icmp->ComputeChecksum());
  ASSERT_EQ(icmp->checksum(), 0x0000);
  icmp->SetIdentAndUpdateChecksum(0);
  EXPECT_EQ(icmp->checksum(), 0x0000);
  EXPECT_TRUE(icmp->IsChecksumValid());
}

// transport_fuzzer, crash-tcp-repeated-sack-stale-blocks: a SACK option
// with three blocks followed by one with one block left blocks 1 and 2 of
// the first in TCPOptions, so the options did not compare equal to their
// own encoding re-parsed.
TEST(FuzzRegressionTest, RepeatedSackOptionLeavesNoStaleBlocks) {
  const std::vector<uint8_t> area = testing::Hex(
      "0101 051a 00000001 00000002 00000003 00000004 00000005 00000006"
      "0101 050a 00000007 00000008");
  Result<TCPOptions> options = ParseTCPOptions(area);
  ASSERT_TRUE(options.ok());
  EXPECT_EQ(options->sack_block_count, 1);
  EXPECT_EQ(options->sack_blocks[0], (SackBlock{7, 8}));
  EXPECT_EQ(options->sack_blocks[1], SackBlock{});
  EXPECT_EQ(options->sack_blocks[2], SackBlock{});

  std::array<uint8_t, 40> encoded{};
  Result<size_t> n = EncodeTCPOptions(*options, encoded);
  ASSERT_TRUE(n.ok());
  Result<TCPOptions> again =
      ParseTCPOptions(std::span<const uint8_t>(encoded).first(*n));
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*again, *options);
}

}  // namespace
}  // namespace ipsum::header
