// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// DecodeLink on each link-layer header and Ethernet shim csum reads, from
// bytes built here field by field: where the IP packet starts and ends,
// what is not IP and why, frames that end inside a header, and every loop's
// bound. Every prefix of a set of deeply layered frames is decoded too, to
// hold the promise that no byte outside the frame is read (under ASan) and
// no offset points past it.

#include "tools/csum/link.h"

#include <cstdint>
#include <initializer_list>
#include <string_view>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "tools/csum/link_builders.h"

namespace ipsum::csum {
namespace {

constexpr uint32_t T(LinkType t) { return static_cast<uint32_t>(t); }

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
            LinkPayload::kUnsupported);  // 802.11 without radiotap
  EXPECT_FALSE(IsSupportedLinkType(105));
  EXPECT_TRUE(IsSupportedLinkType(276));
  EXPECT_EQ(LinkTypeName(113), "linux_sll");
  EXPECT_EQ(LinkTypeName(105), "");
  for (uint32_t t : {9u, 50u, 104u, 107u, 127u, 239u, 242u}) {
    EXPECT_TRUE(IsSupportedLinkType(t)) << t;
  }
}

// ---------------------------------------------------------------------------
// Builders.

using builders::Be16;
using builders::Bytes;
using builders::NflogTlv;

Bytes Label(uint32_t label, bool bottom) {
  return builders::MplsLabel(label, bottom);
}

Bytes Cat(std::initializer_list<Bytes> parts) {
  Bytes out;
  for (const Bytes& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

// Eth is an Ethernet header of type `type` (a TPID for a tag to follow).
Bytes Eth(uint16_t type) {
  return Cat({{2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1}, Be16(type)});
}

// Tag is the rest of a VLAN tag: TCI, then the next type.
Bytes Tag(uint16_t next) { return Cat({{0x00, 0x2a}, Be16(next)}); }

const Bytes kIPv4 = {0x45, 0, 0,  20, 0, 0, 0,  0, 64, 17,
                     0,    0, 10, 0,  0, 1, 10, 0, 0,  2};
const Bytes kIPv6Start = {0x60, 0, 0, 0, 0, 0, 17, 64};

LinkDecode Eth(const Bytes& frame) {
  return DecodeLink(T(LinkType::kEthernet), frame);
}

void ExpectIP(const LinkDecode& d, size_t offset) {
  EXPECT_EQ(d.payload, LinkPayload::kIP) << d.reason;
  EXPECT_EQ(d.offset, offset);
}

void ExpectNotIP(const LinkDecode& d, std::string_view reason) {
  EXPECT_EQ(d.payload, LinkPayload::kNotIP);
  EXPECT_EQ(d.reason, reason);
}

// ---------------------------------------------------------------------------
// Ethernet and its shims.

TEST(DecodeLinkEthernet, IPWithOrWithoutTagsIsLeftWholeToTheParser) {
  for (const Bytes& frame :
       {Cat({Eth(0x0800), kIPv4}), Cat({Eth(0x8100), Tag(0x86dd), kIPv6Start}),
        Cat({Eth(0x88a8), Tag(0x8100), Tag(0x0806), Bytes(28)}),
        // A third tag is the parser's to refuse.
        Cat({Eth(0x8100), Tag(0x8100), Tag(0x8100), Tag(0x0800), kIPv4}),
        Bytes{2, 0, 0}}) {
    LinkDecode d = Eth(frame);
    EXPECT_EQ(d.payload, LinkPayload::kEthernet);
    EXPECT_EQ(d.offset, 0u);
    EXPECT_EQ(d.end, 0u);
    EXPECT_EQ(d.trailer, 0u);
  }
}

TEST(DecodeLinkEthernet, MplsLabelStacks) {
  ExpectIP(Eth(Cat({Eth(0x8847), Label(100, true), kIPv4})), 18);
  ExpectIP(Eth(Cat({Eth(0x8848), Label(1, false), Label(2, true), kIPv6Start})),
           22);
  ExpectIP(Eth(Cat({Eth(0x8100), Tag(0x8847), Label(3, true), kIPv4})), 22);
  // 16 labels are followed; a 17th is not.
  Bytes sixteen = Eth(0x8847);
  for (int i = 0; i < 15; ++i) sixteen = Cat({sixteen, Label(i, false)});
  ExpectIP(Eth(Cat({sixteen, Label(15, true), kIPv4})), 14 + 16 * 4);
  ExpectNotIP(Eth(Cat({sixteen, Label(15, false), Label(16, true), kIPv4})),
              "MPLS label stack deeper than 16 labels");
  // Neither IP nor an Ethernet pseudowire (first nibble 1: an associated
  // channel).
  ExpectNotIP(Eth(Cat({Eth(0x8847), Label(13, true), {0x10, 0, 0, 7}})),
              "MPLS payload is neither IP nor a pseudowire");
  LinkDecode cut = Eth(Cat({Eth(0x8847), Label(1, false), {0, 0}}));
  EXPECT_EQ(cut.payload, LinkPayload::kTruncated);
  EXPECT_EQ(cut.reason, "MPLS label stack truncated");
  EXPECT_EQ(Eth(Cat({Eth(0x8847), Label(1, true)})).reason,
            "MPLS payload missing");
}

TEST(DecodeLinkEthernet, MplsEthernetPseudowireWithAndWithoutControlWord) {
  // Control word (first nibble 0), then the customer's frame.
  const Bytes customer = Cat({Eth(0x0800), kIPv4});
  LinkDecode d =
      Eth(Cat({Eth(0x8847), Label(300, true), {0, 0, 0, 1}, customer}));
  EXPECT_EQ(d.payload, LinkPayload::kEthernet);
  EXPECT_EQ(d.offset, 22u);
  // No control word: a customer destination address starting with 0x0.
  Bytes intel = customer;
  intel[0] = 0x00, intel[1] = 0x1b, intel[2] = 0x21;
  d = Eth(Cat({Eth(0x8847), Label(301, true), intel}));
  EXPECT_EQ(d.payload, LinkPayload::kEthernet);
  EXPECT_EQ(d.offset, 18u);
  // The customer's frame may itself hold a shim.
  ExpectIP(Eth(Cat({Eth(0x8847),
                    Label(302, true),
                    {0, 0, 0, 2},
                    Eth(0x8847),
                    Label(7, true),
                    kIPv4})),
           22 + 14 + 4);
  EXPECT_EQ(Eth(Cat({Eth(0x8847), Label(300, true), {0, 0}})).payload,
            LinkPayload::kTruncated);
}

TEST(DecodeLinkEthernet, PppoeSession) {
  // version/type 0x11, code 0, PPPoE SID 0x1234, length 22 (protocol + IP).
  const Bytes pppoe = {0x11, 0x00, 0x12, 0x34, 0x00, 22};
  LinkDecode d =
      Eth(Cat({Eth(0x8864), pppoe, Be16(0x0021), kIPv4, Bytes(18)}));
  ExpectIP(d, 22);
  EXPECT_EQ(d.end, 14u + 6 + 22);  // the Ethernet padding is not the packet's
  ExpectIP(Eth(Cat({Eth(0x8864), pppoe, Be16(0x0057), kIPv6Start})), 22);
  // LCP: not IP, nothing to explain.
  ExpectNotIP(Eth(Cat({Eth(0x8864), pppoe, Be16(0xc021), {1, 1, 0, 4}})), "");
  Bytes discovery = pppoe;
  discovery[1] = 0x09;  // PADI
  ExpectNotIP(Eth(Cat({Eth(0x8864), discovery, Bytes(8)})),
              "PPPoE header is not a version 1 session frame");
  EXPECT_EQ(Eth(Cat({Eth(0x8864), {0x11, 0x00, 0x12}})).reason,
            "PPPoE header truncated");
}

TEST(DecodeLinkEthernet, MacsecIntegrityOnly) {
  // TCI: SC set (an 8-byte SCI follows), AN 1; short length 0; PN 7.
  const Bytes with_sci = {0x21, 0, 0, 0, 0, 7, 2, 0, 0, 0, 0, 1, 0, 1};
  LinkDecode d = Eth(
      Cat({Eth(0x88e5), with_sci, Be16(0x0800), kIPv4, Bytes(kMacsecIcvSize)}));
  ExpectIP(d, 14 + 14 + 2);
  EXPECT_EQ(d.trailer, kMacsecIcvSize);
  EXPECT_EQ(d.end, 0u);
  // No SCI: an 8-byte SecTAG; a VLAN tag inside the secure data.
  const Bytes no_sci = {0x01, 0, 0, 0, 0, 8};
  d = Eth(Cat({Eth(0x88e5), no_sci, Be16(0x8100), Tag(0x86dd), kIPv6Start}));
  ExpectIP(d, 14 + 6 + 2 + 4);
  EXPECT_EQ(d.trailer, kMacsecIcvSize);
  // A short length (secure data under 48 bytes) ends the packet exactly.
  Bytes short_length = no_sci;
  short_length[1] = 2 + 20;
  d = Eth(Cat({Eth(0x88e5), short_length, Be16(0x0800), kIPv4,
               Bytes(kMacsecIcvSize + 10)}));
  ExpectIP(d, 22);
  EXPECT_EQ(d.end, 20u + 2 + 20);
  // Encrypted (E and C set), or changed text (C alone): not followed.
  for (uint8_t tci : {0x2d, 0x25, 0x09}) {
    Bytes tag = with_sci;
    tag[0] = tci;
    ExpectNotIP(Eth(Cat({Eth(0x88e5), tag, Bytes(40)})),
                "MACsec frame is encrypted");
  }
  Bytes v1 = no_sci;
  v1[0] |= 0x80;
  ExpectNotIP(Eth(Cat({Eth(0x88e5), v1, Bytes(40)})),
              "MACsec SecTAG of an unknown version");
  EXPECT_EQ(Eth(Cat({Eth(0x88e5), {0x21, 0, 0, 0, 0, 7, 2, 0}})).reason,
            "MACsec SecTAG truncated");
}

TEST(DecodeLinkEthernet, CiscoFabricPath) {
  // Outer addresses, 0x8903, FTag/TTL, then the inner Ethernet frame.
  LinkDecode d = Eth(Cat({Eth(0x8903), {0x00, 0x3f}, Eth(0x0800), kIPv4}));
  EXPECT_EQ(d.payload, LinkPayload::kEthernet);
  EXPECT_EQ(d.offset, 16u);
  ExpectIP(
      Eth(Cat({Eth(0x8903), {0x00, 0x3f}, Eth(0x8847), Label(5, true), kIPv4})),
      16 + 14 + 4);
  EXPECT_EQ(Eth(Cat({Eth(0x8903), {0x00}})).reason, "FabricPath tag truncated");
}

TEST(DecodeLinkEthernet, AristaTimestamp) {
  ExpectIP(
      Eth(Cat(
          {Eth(0xd28b), {0, 1, 0x00, 0x10}, Bytes(8), Be16(0x0800), kIPv4})),
      14 + 4 + 8 + 2);
  ExpectIP(
      Eth(Cat(
          {Eth(0xd28b), {0, 1, 0x01, 0x10}, Bytes(8), Be16(0x0800), kIPv4})),
      28);
  ExpectIP(Eth(Cat({Eth(0xd28b),
                    {0, 1, 0x01, 0x20},
                    Bytes(6),
                    Be16(0x86dd),
                    kIPv6Start})),
           14 + 4 + 6 + 2);
  ExpectNotIP(Eth(Cat({Eth(0xd28b), {0, 1, 0x00, 0x30}, Bytes(16)})),
              "Arista header of an unknown subtype or version");
  ExpectNotIP(Eth(Cat({Eth(0xd28b), {0, 2, 0x00, 0x10}, Bytes(16)})),
              "Arista header of an unknown subtype or version");
  EXPECT_EQ(Eth(Cat({Eth(0xd28b), {0, 1, 0x00, 0x10}, Bytes(9)})).reason,
            "Arista header truncated");
}

// Nsh is an NSH header of `words` 4-byte words naming `next`.
Bytes Nsh(uint8_t next, uint8_t words) {
  Bytes b = {0x0f, static_cast<uint8_t>(0xc0 | words), 2, next, 0, 0, 1, 255};
  b.resize(size_t{words} * 4, 0);
  return b;
}

TEST(DecodeLinkEthernet, Nsh) {
  ExpectIP(Eth(Cat({Eth(0x894f), Nsh(1, 2), kIPv4})), 22);
  ExpectIP(Eth(Cat({Eth(0x894f), Nsh(2, 6), kIPv6Start})), 14 + 24);
  LinkDecode d = Eth(Cat({Eth(0x894f), Nsh(3, 2), Eth(0x0800), kIPv4}));
  EXPECT_EQ(d.payload, LinkPayload::kEthernet);
  EXPECT_EQ(d.offset, 22u);
  ExpectIP(Eth(Cat({Eth(0x894f), Nsh(5, 2), Label(9, true), kIPv4})), 26);
  ExpectIP(Eth(Cat({Eth(0x894f), Nsh(4, 2), Nsh(1, 2), kIPv4})), 30);
  ExpectNotIP(Eth(Cat({Eth(0x894f), Nsh(0x80, 2), Bytes(20)})), "");
  ExpectNotIP(Eth(Cat({Eth(0x894f), Nsh(1, 1), kIPv4})),
              "NSH length below 8 bytes");
  Bytes v1 = Nsh(1, 2);
  v1[0] |= 0x40;
  ExpectNotIP(Eth(Cat({Eth(0x894f), v1, kIPv4})),
              "NSH header of an unknown version");
  // The header whole with nothing after it: IP of no bytes (the IP parser's
  // to call truncated); one byte short: the NSH header is cut.
  EXPECT_EQ(Eth(Cat({Eth(0x894f), Nsh(2, 6)})).payload, LinkPayload::kIP);
  Bytes cut = Cat({Eth(0x894f), Nsh(2, 6)});
  cut.pop_back();
  EXPECT_EQ(Eth(cut).reason, "NSH header truncated");
}

TEST(DecodeLinkEthernet, NestingIsBounded) {
  // NSH naming NSH, kMaxLinkDepth times over, then IP.
  Bytes frame = Eth(0x894f);
  for (int i = 0; i < kMaxLinkDepth; ++i) frame = Cat({frame, Nsh(4, 2)});
  ExpectNotIP(Eth(Cat({frame, Nsh(1, 2), kIPv4})),
              "link-layer headers nested more than 8 deep");
  // One less is followed.
  Bytes fewer = Eth(0x894f);
  for (int i = 0; i < kMaxLinkDepth - 2; ++i) fewer = Cat({fewer, Nsh(4, 2)});
  EXPECT_EQ(Eth(Cat({fewer, Nsh(1, 2), kIPv4})).payload, LinkPayload::kIP);
}

// ---------------------------------------------------------------------------
// Other link types.

TEST(DecodeLinkPpp, WithAndWithoutHdlcFramingAndCompressedProtocol) {
  const uint32_t ppp = T(LinkType::kPpp);
  ExpectIP(DecodeLink(ppp, Cat({{0xff, 0x03, 0x00, 0x21}, kIPv4})), 4);
  ExpectIP(DecodeLink(ppp, Cat({{0x00, 0x57}, kIPv6Start})), 2);
  ExpectIP(DecodeLink(ppp, Cat({{0x21}, kIPv4})), 1);
  ExpectIP(DecodeLink(ppp, Cat({{0x02, 0x81}, Label(4, true), kIPv4})), 6);
  ExpectNotIP(DecodeLink(ppp, Bytes{0xff, 0x03, 0xc0, 0x21, 1, 1, 0, 4}), "");
  EXPECT_EQ(DecodeLink(ppp, Bytes{0xff, 0x03, 0x00}).reason,
            "PPP header truncated");
  EXPECT_EQ(DecodeLink(ppp, Bytes{}).payload, LinkPayload::kTruncated);

  const uint32_t hdlc = T(LinkType::kPppHdlc);
  ExpectIP(DecodeLink(hdlc, Cat({{0xff, 0x03, 0x00, 0x21}, kIPv4})), 4);
  // Cisco PPP with HDLC framing: address 0x0f or 0x8f, then an EtherType.
  ExpectIP(DecodeLink(hdlc, Cat({{0x8f, 0x00, 0x86, 0xdd}, kIPv6Start})), 4);
}

TEST(DecodeLinkCiscoHdlc, EtherTypeAfterAddressAndControl) {
  const uint32_t t = T(LinkType::kCiscoHdlc);
  ExpectIP(DecodeLink(t, Cat({{0x0f, 0x00, 0x08, 0x00}, kIPv4})), 4);
  ExpectIP(
      DecodeLink(t, Cat({{0x0f, 0x00, 0x88, 0x47}, Label(1, true), kIPv4})), 8);
  ExpectNotIP(DecodeLink(t, Bytes{0x8f, 0x00, 0x80, 0x35, 0, 0, 0, 0}),
              "");  // SLARP
  EXPECT_EQ(DecodeLink(t, Bytes{0x0f, 0x00, 0x08}).reason,
            "Cisco HDLC header truncated");
}

TEST(DecodeLinkFrameRelay, Rfc2427AndCiscoEncapsulations) {
  const uint32_t t = T(LinkType::kFrameRelay);
  ExpectIP(DecodeLink(t, Cat({{0x18, 0x41, 0x03, 0xcc}, kIPv4})), 4);
  ExpectIP(DecodeLink(t, Cat({{0x18, 0x41, 0x03, 0x8e}, kIPv6Start})), 4);
  // A 3-byte address (EA set on the third byte).
  ExpectIP(DecodeLink(t, Cat({{0x18, 0x40, 0x01, 0x03, 0xcc}, kIPv4})), 5);
  // SNAP with a pad byte, then the RFC 1042 OUI and an EtherType.
  ExpectIP(
      DecodeLink(t, Cat({{0x18, 0x41, 0x03, 0x00, 0x80, 0, 0, 0, 0x86, 0xdd},
                         kIPv6Start})),
      10);
  // Cisco: an EtherType right after the address.
  ExpectIP(DecodeLink(t, Cat({{0x18, 0x41, 0x08, 0x00}, kIPv4})), 4);
  ExpectNotIP(DecodeLink(t, Bytes{0x18, 0x41, 0x03, 0x08, 0, 0, 0, 0}),
              "");  // Q.933
  ExpectNotIP(DecodeLink(t, Bytes{0x18, 0x40, 0x00, 0x00, 0x03, 0xcc}),
              "Frame Relay address longer than 4 bytes");
  ExpectNotIP(DecodeLink(t, Bytes{0x19, 0x03, 0xcc, 0x45}),
              "Frame Relay address shorter than 2");
  EXPECT_EQ(DecodeLink(t, Bytes{0x18, 0x40}).reason,
            "Frame Relay address truncated");
  EXPECT_EQ(DecodeLink(t, Bytes{0x18, 0x41, 0x03, 0x00, 0x80, 0, 0}).reason,
            "Frame Relay SNAP header truncated");
}

TEST(DecodeLinkNflog, PayloadTlvInEitherByteOrder) {
  const uint32_t t = T(LinkType::kNflog);
  for (bool big : {false, true}) {
    Bytes frame =
        Cat({{2, 0, 0, 1},
             NflogTlv(1, {0x08, 0x00, 3, 0}, big),
             NflogTlv(10, {'x', 0}, big),
             NflogTlv(9, Bytes(kIPv4.begin(), kIPv4.end() - 2), big)});
    LinkDecode d = DecodeLink(t, frame);
    ExpectIP(d, 4 + 8 + 8 + 4);
    EXPECT_EQ(d.end, 4u + 8 + 8 + 4 + 18) << big;
  }
  // The NLA_F_ flag bits of a type are ignored.
  ExpectIP(
      DecodeLink(t, Cat({{10, 0, 0, 1}, NflogTlv(0x4009, kIPv6Start, false)})),
      8);
  ExpectNotIP(DecodeLink(t, Cat({{7, 0, 0, 1}, NflogTlv(9, kIPv4, false)})),
              "");
  ExpectNotIP(
      DecodeLink(t, Cat({{2, 0, 0, 1}, NflogTlv(1, {8, 0, 3, 0}, false)})),
      "NFLOG record without a payload");
  ExpectNotIP(DecodeLink(t, Cat({{2, 0, 0, 1}, NflogTlv(1, {}, false, 2)})),
              "NFLOG TLV length below 4");
  Bytes many = {2, 0, 0, 1};
  for (int i = 0; i < kMaxNflogTlvs; ++i)
    many = Cat({many, NflogTlv(1, {}, false)});
  ExpectNotIP(DecodeLink(t, Cat({many, NflogTlv(9, kIPv4, false)})),
              "NFLOG record with more than 64 TLVs");
  EXPECT_EQ(DecodeLink(t, Bytes{2, 0, 0, 1, 8, 0}).reason,
            "NFLOG TLV truncated");
  // A TLV whose length runs past the frame.
  EXPECT_EQ(
      DecodeLink(t, Cat({{2, 0, 0, 1}, NflogTlv(1, {}, false, 40)})).reason,
      "NFLOG TLV truncated");
  EXPECT_EQ(DecodeLink(t, Bytes{2, 0, 0}).reason, "NFLOG header truncated");
}

TEST(DecodeLinkIPoIB, PseudoHeaderThenEtherType) {
  const uint32_t t = T(LinkType::kIPoIB);
  Bytes header(40, 0);
  header[0] = 0x60;
  ExpectIP(DecodeLink(t, Cat({header, Be16(0x0800), {0, 0}, kIPv4})), 44);
  ExpectNotIP(DecodeLink(t, Cat({header, Be16(0x0806), {0, 0}, Bytes(28)})),
              "");
  EXPECT_EQ(DecodeLink(t, Cat({header, Be16(0x0800), {0}})).reason,
            "IPoIB header truncated");
}

// Radiotap is a radiotap header: no fields, or TSFT and Flags (with the
// FCS bit as asked) behind an extended present bitmap.
Bytes Radiotap(bool fields, bool fcs = false) {
  if (!fields) return {0, 0, 8, 0, 0, 0, 0, 0};
  // present words: TSFT | Flags | Ext, then an empty one; TSFT at 16
  // (8-aligned), Flags at 24.
  Bytes b = {0, 0, 25, 0, 0x03, 0, 0, 0x80, 0, 0, 0, 0};
  b.resize(16, 0xee);
  b.insert(b.end(), {1, 2, 3, 4, 5, 6, 7, 8});
  b.push_back(fcs ? 0x10 : 0x00);
  return b;
}

// Wlan is an 802.11 header with frame control `fc0`, `fc1`.
Bytes Wlan(uint8_t fc0, uint8_t fc1, uint8_t qos = 0) {
  Bytes b = {fc0, fc1, 0, 0};
  b.resize(24, 0x02);
  if ((fc1 & 3) == 3) b.resize(30, 0x02);
  if (fc0 & 0x80) b.insert(b.end(), {qos, 0});
  if ((fc0 & 0x80) && (fc1 & 0x80)) b.insert(b.end(), {0, 0, 0, 0});
  return b;
}

const Bytes kSnapIPv4 = {0xaa, 0xaa, 0x03, 0, 0, 0, 0x08, 0x00};

TEST(DecodeLinkRadiotap, UnencryptedDataFrames) {
  const uint32_t t = T(LinkType::kRadiotap);
  LinkDecode d =
      DecodeLink(t, Cat({Radiotap(false), Wlan(0x08, 0x02), kSnapIPv4, kIPv4}));
  ExpectIP(d, 8 + 24 + 8);
  EXPECT_EQ(d.trailer, 0u);
  // QoS data, four addresses, HT control; radiotap Flags announce an FCS.
  d = DecodeLink(t, Cat({Radiotap(true, true), Wlan(0x88, 0x83), kSnapIPv4,
                         kIPv4, Bytes(4)}));
  ExpectIP(d, 25 + 24 + 6 + 2 + 4 + 8);
  EXPECT_EQ(d.trailer, 4u);
  d = DecodeLink(
      t, Cat({Radiotap(true, false), Wlan(0x88, 0x01), kSnapIPv4, kIPv4}));
  ExpectIP(d, 25 + 26 + 8);
  EXPECT_EQ(d.trailer, 0u);
  // 802.1H bridge-tunnel encapsulation.
  ExpectIP(DecodeLink(t, Cat({Radiotap(false),
                              Wlan(0x08, 0x01),
                              {0xaa, 0xaa, 0x03, 0, 0, 0xf8, 0x86, 0xdd},
                              kIPv6Start})),
           40);
}

TEST(DecodeLinkRadiotap, WhatIsNotFollowed) {
  const uint32_t t = T(LinkType::kRadiotap);
  ExpectNotIP(
      DecodeLink(t, Cat({Radiotap(false), Wlan(0x80, 0x00), Bytes(40)})), "");
  ExpectNotIP(DecodeLink(t, Cat({Radiotap(false), Wlan(0xd4, 0x00)})),
              "");  // not IP, nothing to explain
  ExpectNotIP(DecodeLink(t, Cat({Radiotap(false), Wlan(0x48, 0x01)})), "");
  ExpectNotIP(DecodeLink(t, Cat({Radiotap(false), Wlan(0x08, 0x41), Bytes(8),
                                 kSnapIPv4, kIPv4})),
              "802.11 frame is protected (encrypted)");
  ExpectNotIP(
      DecodeLink(t, Cat({Radiotap(false), Wlan(0x88, 0x01, 0x80), Bytes(40)})),
      "802.11 A-MSDU");
  ExpectNotIP(DecodeLink(t, Cat({Radiotap(false),
                                 Wlan(0x08, 0x01),
                                 {0xf0, 0xf0, 0x03, 0, 0, 0, 0x08, 0},
                                 kIPv4})),
              "802.11 body without an LLC/SNAP header");
  Bytes v1 = Radiotap(false);
  v1[0] = 1;
  ExpectNotIP(DecodeLink(t, Cat({v1, Wlan(0x08, 0x01), kSnapIPv4, kIPv4})),
              "radiotap header of an unknown version");
  Bytes short_length = Radiotap(false);
  short_length[2] = 4;
  ExpectNotIP(DecodeLink(t, Cat({short_length, Bytes(40)})),
              "radiotap length below 8 bytes");
  // Present words that never end, within the header and past it.
  Bytes endless = {0, 0, 0, 0};
  for (int i = 0; i < 20; ++i) endless.insert(endless.end(), {0, 0, 0, 0x80});
  endless[2] = static_cast<uint8_t>(endless.size());
  ExpectNotIP(DecodeLink(t, Cat({endless, Wlan(0x08, 0x01), kSnapIPv4, kIPv4})),
              "radiotap present words run past the header");
  Bytes unfinished = {0, 0, 12, 0, 0, 0, 0, 0x80, 0, 0, 0, 0x80};
  ExpectNotIP(DecodeLink(t, Cat({unfinished, Wlan(0x08, 0x01), kSnapIPv4})),
              "radiotap present words run past the header");
  // Flags announced but past the header's length.
  Bytes no_room = {0, 0, 8, 0, 0x02, 0, 0, 0};
  ExpectNotIP(DecodeLink(t, Cat({no_room, Wlan(0x08, 0x01), kSnapIPv4})),
              "radiotap fields run past the header");
  EXPECT_EQ(DecodeLink(t, Cat({Radiotap(false), Wlan(0x08, 0x01)})).reason,
            "802.11 header or LLC/SNAP truncated");
  EXPECT_EQ(DecodeLink(t, Bytes{0, 0, 30, 0, 0, 0, 0, 0}).reason,
            "radiotap header truncated");
}

// ---------------------------------------------------------------------------
// The packet's end, and every prefix of every frame above.

TEST(LinkPacketBytes, EndsBeforeATrailerOrWhereALengthSays) {
  const Bytes frame(100, 0);
  LinkDecode icv{LinkPayload::kIP, 30, 0, 16, {}};
  size_t wire = 100;
  EXPECT_EQ(LinkPacketBytes(icv, frame, wire).size(), 84u);
  EXPECT_EQ(wire, 84u);
  // Captured 92 of 100 bytes: the cut fell inside the ICV.
  wire = 100;
  EXPECT_EQ(LinkPacketBytes(icv, std::span(frame).first(92), wire).size(), 84u);
  EXPECT_EQ(wire, 84u);
  // Captured 60 of 100: the packet itself is cut.
  wire = 100;
  EXPECT_EQ(LinkPacketBytes(icv, std::span(frame).first(60), wire).size(), 60u);
  EXPECT_EQ(wire, 84u);
  // Unknown wire length: taken as not cut, and stays unknown.
  wire = 0;
  EXPECT_EQ(LinkPacketBytes(icv, frame, wire).size(), 84u);
  EXPECT_EQ(wire, 0u);
  // A length field, within and past the frame.
  LinkDecode pppoe{LinkPayload::kIP, 22, 62, 0, {}};
  wire = 100;
  EXPECT_EQ(LinkPacketBytes(pppoe, frame, wire).size(), 62u);
  EXPECT_EQ(wire, 62u);
  pppoe.end = 400;
  wire = 100;
  EXPECT_EQ(LinkPacketBytes(pppoe, frame, wire).size(), 100u);
  // A trailer longer than the frame leaves the link header, no packet.
  LinkDecode tiny{LinkPayload::kIP, 30, 0, 16, {}};
  wire = 40;
  EXPECT_EQ(LinkPacketBytes(tiny, std::span(frame).first(40), wire).size(),
            30u);
  // Nothing to cut: the frame as it is.
  LinkDecode plain{LinkPayload::kIP, 14, 0, 0, {}};
  wire = 100;
  EXPECT_EQ(LinkPacketBytes(plain, frame, wire).size(), 100u);
  EXPECT_EQ(wire, 100u);
}

TEST(DecodeLink, EveryPrefixOfEveryFrameStaysInside) {
  Bytes deep = Eth(0x8847);
  for (int i = 0; i < 20; ++i) deep = Cat({deep, Label(i, i == 19)});
  Bytes nsh = Eth(0x894f);
  for (int i = 0; i < 10; ++i) nsh = Cat({nsh, Nsh(4, 2)});
  Bytes header(40, 0);
  const std::vector<std::pair<LinkType, Bytes>> frames = {
      {LinkType::kEthernet, Cat({Eth(0x8100),
                                 Tag(0x8847),
                                 Label(1, false),
                                 Label(2, true),
                                 {0, 0, 0, 1},
                                 Eth(0x8903),
                                 {0, 1},
                                 Eth(0x88e5),
                                 {0x21, 0, 0, 0, 0, 7, 2, 0, 0, 0, 0, 1, 0, 1},
                                 Be16(0x8864),
                                 {0x11, 0, 0, 1, 0, 22},
                                 Be16(0x0021),
                                 kIPv4})},
      {LinkType::kEthernet, Cat({Eth(0xd28b),
                                 {0, 1, 0, 0x20},
                                 Bytes(6),
                                 Be16(0x894f),
                                 Nsh(3, 6),
                                 Eth(0x0800),
                                 kIPv4})},
      {LinkType::kEthernet, deep},
      {LinkType::kEthernet, nsh},
      {LinkType::kPpp, Cat({{0xff, 0x03, 0x02, 0x81}, Label(1, true), kIPv4})},
      {LinkType::kPppHdlc, Cat({{0x0f, 0x00, 0x08, 0x00}, kIPv4})},
      {LinkType::kFrameRelay,
       Cat({{0x18, 0x41, 0x03, 0x00, 0x80, 0, 0, 0, 0x08, 0x00}, kIPv4})},
      {LinkType::kNflog, Cat({{2, 0, 0, 1},
                              NflogTlv(1, {8, 0, 3, 0}, false),
                              NflogTlv(9, kIPv4, false)})},
      {LinkType::kIPoIB, Cat({header, Be16(0x0800), {0, 0}, kIPv4})},
      {LinkType::kRadiotap, Cat({Radiotap(true, true), Wlan(0x88, 0x83),
                                 kSnapIPv4, kIPv4, Bytes(4)})},
      {LinkType::kLinuxSll2, Cat({Be16(0x88e5),
                                  Bytes(18),
                                  {0x01, 0, 0, 0, 0, 8},
                                  Be16(0x0800),
                                  kIPv4})},
  };
  for (const auto& [type, frame] : frames) {
    const LinkDecode whole = DecodeLink(T(type), frame);
    EXPECT_NE(whole.payload, LinkPayload::kTruncated)
        << LinkTypeName(T(type)) << " " << whole.reason;
    for (size_t n = 0; n <= frame.size(); ++n) {
      // A copy of exactly n bytes, so that ASan sees any read past it.
      const Bytes prefix(frame.begin(), frame.begin() + n);
      const LinkDecode d = DecodeLink(T(type), prefix);
      if (d.payload == LinkPayload::kIP ||
          d.payload == LinkPayload::kEthernet) {
        EXPECT_LE(d.offset, n) << LinkTypeName(T(type)) << " prefix " << n;
      } else if (d.payload == LinkPayload::kTruncated) {
        EXPECT_FALSE(d.reason.empty());
      }
      EXPECT_NE(d.payload, LinkPayload::kUnsupported);
    }
  }
}

}  // namespace
}  // namespace ipsum::csum
