// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Tests of the shared checksum helpers: pseudo-header sums against
// pseudo-headers built as bytes, transport checksums from a payload sum
// against a byte-at-a-time reference, the UDP zero rules of its RFC 1624
// update, and checksum/update.h (which the header setters use) against the
// same reference, including the RFC's own example.

#include "header/checksum.h"

#include <vector>

#include "checksum/endian.h"
#include "checksum/update.h"
#include "gtest/gtest.h"
#include "header/internal/test_util.h"
#include "header/protocol.h"

namespace ipsum::header {
namespace {

using testing::Lcg;
using testing::ReferenceSum;

TEST(PseudoHeaderTest, IPv4MatchesBytes) {
  Lcg rng(50);
  for (int i = 0; i < 10000; ++i) {
    IPv4Address s = IPv4Address::FromHost(rng.Next());
    IPv4Address d = IPv4Address::FromHost(rng.Next());
    uint8_t proto = rng.Byte();
    uint16_t len = static_cast<uint16_t>(rng.Next());
    std::vector<uint8_t> b(s.bytes.begin(), s.bytes.end());
    b.insert(b.end(), d.bytes.begin(), d.bytes.end());
    b.insert(b.end(), {0, proto, static_cast<uint8_t>(len >> 8),
                       static_cast<uint8_t>(len)});
    // Equal to the bit, zeros included: 0x0000 only when every byte is 0.
    EXPECT_EQ(PseudoHeaderSum(s, d, proto, len), ReferenceSum(b)) << i;
  }
}

TEST(PseudoHeaderTest, IPv6MatchesBytes) {
  Lcg rng(51);
  for (int i = 0; i < 10000; ++i) {
    IPv6Address s, d;
    rng.Fill(s.bytes);
    rng.Fill(d.bytes);
    uint8_t nh = rng.Byte();
    uint32_t len = rng.Next() >> (rng.Next() % 32);
    std::vector<uint8_t> b(s.bytes.begin(), s.bytes.end());
    b.insert(b.end(), d.bytes.begin(), d.bytes.end());
    b.insert(b.end(),
             {static_cast<uint8_t>(len >> 24), static_cast<uint8_t>(len >> 16),
              static_cast<uint8_t>(len >> 8), static_cast<uint8_t>(len), 0, 0,
              0, nh});
    EXPECT_EQ(PseudoHeaderSum(s, d, nh, len), ReferenceSum(b)) << i;
  }
}

TEST(PseudoHeaderTest, ZeroOnlyWhenEveryWordIsZero) {
  const IPv4Address z4;
  const IPv6Address z6;
  EXPECT_EQ(PseudoHeaderSum(z4, z4, 0, 0), 0x0000);
  EXPECT_EQ(PseudoHeaderSum(z6, z6, 0, 0), 0x0000);
  // Words that sum to a multiple of 0xffff give its other zero, 0xffff.
  EXPECT_EQ(PseudoHeaderSum(IPv4Address::FromHost(0xfffe0000), z4, 1, 0),
            0xffff);
  EXPECT_EQ(PseudoHeaderSum(z6, z6, 1, 0xfffe), 0xffff);
  EXPECT_EQ(PseudoHeaderSum(IPv4Address::FromHost(0xffffffff),
                            IPv4Address::FromHost(0xffffffff), 0, 0xffff),
            0xffff);
}

TEST(TransportChecksumTest, MatchesReferenceForAnyHeaderAndPayload) {
  Lcg rng(52);
  for (int i = 0; i < 10000; ++i) {
    // Any header length, odd ones included; the field at an even offset.
    size_t header_len = 4 + rng.Next() % 61;
    size_t field = 2 * (rng.Next() % ((header_len - 2) / 2 + 1));
    std::vector<uint8_t> b(header_len + rng.Next() % 200);
    rng.Fill(b);
    uint16_t pseudo = static_cast<uint16_t>(rng.Next());
    std::span<const uint8_t> header = std::span(b).first(header_len);
    uint16_t payload_sum = ReferenceSum(std::span(b).subspan(header_len));
    uint16_t c = ComputeTransportChecksum(pseudo, header, field, payload_sum);
    std::vector<uint8_t> z = b;
    z[field] = z[field + 1] = 0;
    EXPECT_EQ(c, static_cast<uint16_t>(~ReferenceSum(z, pseudo))) << i;
    StoreBig16(&b[field], c);
    EXPECT_TRUE(IsTransportChecksumValid(pseudo, std::span(b).first(header_len),
                                         payload_sum))
        << i;
    b[rng.Next() % b.size()] ^= 0x10;
    EXPECT_FALSE(IsTransportChecksumValid(
        pseudo, std::span(b).first(header_len),
        ReferenceSum(std::span(b).subspan(header_len))));
  }
}

// RFC 1624 section 4: "Consider an example where [...] HC = 0xDD2F,
// m = 0x5555, m' = 0x3285 [...] HC' = 0x0000" (eqn. 2 of RFC 1141 would
// give the wrong 0xFFFF).
TEST(UpdateChecksumTest, Rfc1624Example) {
  EXPECT_EQ(checksum::UpdateChecksum16(0xdd2f, 0x5555, 0x3285), 0x0000);
}

TEST(UpdateChecksumTest, NoChangeIsIdentity) {
  for (uint32_t c = 0; c <= 0xffff; c += 0x101) {
    uint16_t cs = static_cast<uint16_t>(c);
    if (cs == 0xffff) continue;  // never computed over non-zero data
    EXPECT_EQ(checksum::UpdateChecksum16(cs, 0x1234, 0x1234), cs);
  }
}

TEST(UpdateChecksumTest, MatchesRecomputeOnRandomData) {
  Lcg rng(53);
  for (int i = 0; i < 100000; ++i) {
    std::vector<uint8_t> b(2 + 2 * (rng.Next() % 30));
    rng.Fill(b);
    b[0] |= 1;  // not all zero
    uint16_t before = static_cast<uint16_t>(~ReferenceSum(b));
    size_t at = 2 * (rng.Next() % (b.size() / 2));
    // Replace one or two words; sometimes with extreme values.
    size_t n = std::min<size_t>(2 * (1 + rng.Next() % 2), b.size() - at);
    if (at == 0) n = 0;  // keep the non-zero byte
    std::vector<uint8_t> old(b.begin() + at, b.begin() + at + n);
    for (size_t j = 0; j < n; ++j) {
      switch (rng.Next() % 3) {
        case 0:
          b[at + j] = 0;
          break;
        case 1:
          b[at + j] = 0xff;
          break;
        default:
          b[at + j] = rng.Byte();
      }
    }
    std::span<const uint8_t> now(b.data() + at, n);
    EXPECT_EQ(checksum::UpdateChecksumBytes(before, old, now),
              static_cast<uint16_t>(~ReferenceSum(b)))
        << i;
  }
}

TEST(UpdateUDPChecksumTest, ZeroStaysZeroAndZeroResultIsAllOnes) {
  EXPECT_EQ(UpdateUDPChecksum(0, 0x1234, 0x4321), 0);
  EXPECT_EQ(UpdateUDPChecksum(0xdd2f, 0x5555, 0x3285), 0xffff);
  // From a stored 0xffff (a computed 0) the update is the ordinary one.
  EXPECT_EQ(UpdateUDPChecksum(0xffff, 0x3285, 0x5555),
            checksum::UpdateChecksum16(0x0000, 0x3285, 0x5555));
  EXPECT_EQ(UpdateUDPChecksum(0xffff, 0x3285, 0x5555), 0xdd2f);
}

}  // namespace
}  // namespace ipsum::header
