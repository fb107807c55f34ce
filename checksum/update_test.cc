// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Tests of the RFC 1624 incremental updates (update.h) against full
// recomputation with the byte-by-byte reference sum. The 16-bit update is
// checked exhaustively in both directions: every one of the 65536 old values
// against a sample of new values that includes the ones that drive the sum
// to its edges (0xffff, 0x0000, wrap-around), and every new value against a
// similar sample of old values; on a realistic header and on one whose other
// bytes are all zero (where the sum can reach +0).

#include "checksum/update.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "checksum/endian.h"
#include "checksum/internal/reference.h"
#include "gtest/gtest.h"

namespace ipsum::checksum {
namespace {

using internal::ReferenceSum;

// An IPv4 header (RFC 791) with its checksum field (offset 10) zeroed.
constexpr std::array<uint8_t, 20> kIpv4Header = {
    0x45, 0x00, 0x05, 0xdc, 0x1c, 0x46, 0x40, 0x00, 0x40, 0x06,
    0x00, 0x00, 0xc0, 0xa8, 0x00, 0x68, 0xc0, 0xa8, 0x00, 0x01};

// StoredField returns the checksum field a full computation stores for
// `bytes` (whose own checksum field, if any, is zero).
uint16_t StoredField(const uint8_t* bytes, size_t len) {
  return static_cast<uint16_t>(~ReferenceSum(bytes, len, 0));
}

// Sample16 returns the values every exhaustive sweep pairs with all 65536
// others: the edges, the values that drive the sum of `rest` (the data
// without the field) to 0xffff and around, and a stride through the range.
std::vector<uint16_t> Sample16(uint16_t rest) {
  std::vector<uint16_t> v = {0x0000, 0x0001, 0x7fff, 0x8000, 0xfffe, 0xffff};
  for (int d = -2; d <= 2; ++d) {
    v.push_back(static_cast<uint16_t>(0xffff - rest + d));
    v.push_back(static_cast<uint16_t>(~rest + d));
  }
  for (uint32_t x = 0x0101; x < 0x10000; x += 0x0fed) v.push_back(x);
  return v;
}

// CheckAllPairsOfField16 checks UpdateChecksum16 for a 16-bit field at
// `offset` of `packet`, exhaustively in each argument against a sample of
// the other. `rest_is_zero` says the rest of the packet is all zeros, so
// that new value 0 makes the whole data zero: the documented exception
// (0x0000 where a full computation gives 0xffff).
void CheckAllPairsOfField16(std::vector<uint8_t> packet, size_t offset,
                            bool rest_is_zero) {
  // expected[v]: the stored field recomputed from scratch with field = v.
  std::vector<uint16_t> expected(65536);
  for (uint32_t v = 0; v < 65536; ++v) {
    StoreBig16(&packet[offset], static_cast<uint16_t>(v));
    expected[v] = StoredField(packet.data(), packet.size());
  }
  StoreBig16(&packet[offset], 0);
  const uint16_t rest = ReferenceSum(packet.data(), packet.size(), 0);
  auto want = [&](uint16_t new_value) -> uint16_t {
    if (rest_is_zero && new_value == 0) return 0x0000;  // Exception.
    return expected[new_value];
  };
  const std::vector<uint16_t> sample = Sample16(rest);
  int failures = 0;
  for (uint32_t a = 0; a < 65536; ++a) {
    for (uint16_t b : sample) {
      for (auto [old_value, new_value] :
           {std::pair<uint16_t, uint16_t>(a, b), {b, a}}) {
        const uint16_t got =
            UpdateChecksum16(expected[old_value], old_value, new_value);
        if (got != want(new_value) && ++failures <= 10) {
          ADD_FAILURE() << std::hex << "old=" << old_value
                        << " new=" << new_value
                        << " field=" << expected[old_value] << " got=" << got
                        << " want=" << want(new_value);
        }
      }
    }
  }
  EXPECT_EQ(failures, 0);
}

TEST(UpdateChecksum16Test, MatchesRecomputationForEveryOldAndNewValue) {
  std::vector<uint8_t> header(kIpv4Header.begin(), kIpv4Header.end());
  // Identification, TTL+protocol, a source-address half.
  for (size_t offset : {4, 8, 12}) {
    SCOPED_TRACE(offset);
    CheckAllPairsOfField16(header, offset, /*rest_is_zero=*/false);
  }
}

TEST(UpdateChecksum16Test, MatchesRecomputationWhenTheRestIsZero) {
  // Other bytes zero: new value 0 makes all data zero, where the sum is +0.
  CheckAllPairsOfField16(std::vector<uint8_t>(20, 0), 6, true);
  // A single other word: the sum passes through -0 (0xffff) and wraps.
  std::vector<uint8_t> data(8, 0);
  data[0] = 0x80;
  data[1] = 0x01;
  CheckAllPairsOfField16(data, 2, false);
}

TEST(UpdateChecksum16Test, Rfc1624Section3Example) {
  // RFC 1624 section 3: HC = 0xdd2f, m = 0x5555 -> m' = 0x3285; equation 3
  // gives 0x0000 (equation 2 would give 0xffff).
  EXPECT_EQ(UpdateChecksum16(0xdd2f, 0x5555, 0x3285), 0x0000);
}

TEST(UpdateChecksum16Test, IsConstexpr) {
  static_assert(UpdateChecksum16(0x1234, 0x0000, 0x0000) == 0x1234);
  static_assert(UpdateChecksum32(0x1234, 0xdeadbeef, 0xdeadbeef) == 0x1234);
}

TEST(UpdateChecksum32Test, RewritingAnIpv4AddressMatchesRecomputation) {
  std::mt19937_64 rng(1624);
  std::vector<uint8_t> header(kIpv4Header.begin(), kIpv4Header.end());
  std::vector<uint32_t> values = {
      0, 1, 0xffffffff, 0xffff0000, 0x0000ffff, 0x80008000, 0xc0a80001};
  for (int i = 0; i < 2000; ++i) values.push_back(static_cast<uint32_t>(rng()));
  for (size_t offset : {12, 16}) {
    for (uint32_t old_value : values) {
      StoreBig32(&header[offset], old_value);
      const uint16_t field = StoredField(header.data(), header.size());
      for (int j = 0; j < 16; ++j) {
        const uint32_t new_value = values[rng() % values.size()];
        StoreBig32(&header[offset], new_value);
        ASSERT_EQ(UpdateChecksum32(field, old_value, new_value),
                  StoredField(header.data(), header.size()))
            << std::hex << old_value << " -> " << new_value;
        StoreBig32(&header[offset], old_value);
      }
    }
  }
}

TEST(UpdateChecksumAddress16Test, RewritingAnIpv6AddressMatchesRecomputation) {
  std::mt19937_64 rng(6296);
  // An IPv6 pseudo-header (RFC 8200 8.1): source, destination, length, next
  // header, followed by a few bytes of payload.
  std::vector<uint8_t> data(40 + 13);
  for (uint8_t& b : data) b = static_cast<uint8_t>(rng());
  for (int i = 0; i < 20000; ++i) {
    const size_t offset = (i & 1) ? 16 : 0;
    std::array<uint8_t, 16> old_address, new_address;
    std::copy_n(&data[offset], 16, old_address.begin());
    for (uint8_t& b : new_address) {
      // Mostly random, sometimes all-ones or all-zero words.
      const int kind = static_cast<int>(rng() % 8);
      b = kind == 0 ? 0x00 : kind == 1 ? 0xff : static_cast<uint8_t>(rng());
    }
    const uint16_t field = StoredField(data.data(), data.size());
    std::copy(new_address.begin(), new_address.end(), &data[offset]);
    ASSERT_EQ(UpdateChecksumAddress16(field, old_address, new_address),
              StoredField(data.data(), data.size()))
        << "iteration " << i;
  }
}

TEST(UpdateChecksumBytesTest, AgreesWithTheWordFunctions) {
  std::mt19937_64 rng(42);
  for (int i = 0; i < 10000; ++i) {
    const uint16_t field = static_cast<uint16_t>(rng());
    const uint32_t a = static_cast<uint32_t>(rng());
    const uint32_t b = static_cast<uint32_t>(rng());
    uint8_t old_bytes[4], new_bytes[4];
    StoreBig32(old_bytes, a);
    StoreBig32(new_bytes, b);
    ASSERT_EQ(UpdateChecksumBytes(field, old_bytes, new_bytes),
              UpdateChecksum32(field, a, b));
    ASSERT_EQ(UpdateChecksumBytes(field, std::span(old_bytes, 2),
                                  std::span(new_bytes, 2)),
              UpdateChecksum16(field, static_cast<uint16_t>(a >> 16),
                               static_cast<uint16_t>(b >> 16)));
  }
}

TEST(UpdateChecksumBytesTest, MismatchedOrOddLengthsLeaveTheFieldAlone) {
  const uint8_t a[3] = {1, 2, 3};
  const uint8_t b[3] = {4, 5, 6};
  EXPECT_EQ(UpdateChecksumBytes(0xabcd, a, b), 0xabcd);
  EXPECT_EQ(UpdateChecksumBytes(0xabcd, std::span(a, 2), std::span(b, 3)),
            0xabcd);
}

TEST(UpdateChecksum16Test, OddOffsetFieldUsesSwappedValues) {
  std::vector<uint8_t> data(kIpv4Header.begin(), kIpv4Header.end());
  // The 16-bit value at offset 9..10 straddles two words.
  for (uint32_t v = 0; v < 65536; v += 0x0123) {
    const uint16_t old_value = LoadBig16(&data[9]);
    const uint16_t field = StoredField(data.data(), data.size());
    StoreBig16(&data[9], static_cast<uint16_t>(v));
    ASSERT_EQ(UpdateChecksum16(field, ByteSwap16(old_value),
                               ByteSwap16(static_cast<uint16_t>(v))),
              StoredField(data.data(), data.size()));
  }
}

}  // namespace
}  // namespace ipsum::checksum
