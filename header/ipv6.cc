// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// IPv6 header parsing and encoding, and the extension header walk.

#include "header/ipv6.h"

#include <algorithm>

namespace ipsum::header {
namespace {

// Every extension header starts with these two bytes (RFC 8200 sections
// 4.3 to 4.6; RFC 4302 section 2):
//
//   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//   |  Next Header  |  Hdr Ext Len  |
//   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//
// except that the Fragment header has no length (its second byte is
// Reserved), RFC 8200 section 4.5:
//
//   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//   |  Next Header  |   Reserved    |      Fragment Offset    |Res|M|
//   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//   |                         Identification                        |
//   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//
// and the Routing header continues (RFC 8200 section 4.4):
//
//   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//   |  Next Header  |  Hdr Ext Len  |  Routing Type | Segments Left |
//   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
constexpr size_t kExtNextHeaderOffset = 0;
constexpr size_t kExtLengthOffset = 1;
constexpr size_t kRoutingTypeOffset = 2;
constexpr size_t kSegmentsLeftOffset = 3;
constexpr size_t kFragmentOffsetOffset = 2;
constexpr size_t kFragmentIdOffset = 4;

// kMaxPayload is the largest packet, fixed header excluded, that a Payload
// Length can describe; reassembly may not exceed it (RFC 8200 section 4.5).
constexpr size_t kMaxPayload = 65535;

// ValidateOptions checks the TLV options of a Hop-by-Hop or Destination
// Options header, RFC 8200 section 4.2:
//
//   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+- - - - - - - - -
//   |  Option Type  |  Opt Data Len |  Option Data
//   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+- - - - - - - - -
//
// where Pad1 (type 0) is a single byte and Opt Data Len counts only the data.
Error ValidateOptions(std::span<const uint8_t> area) {
  size_t i = 0;
  while (i < area.size()) {
    if (area[i] == 0) {  // Pad1
      ++i;
      continue;
    }
    if (area.size() - i < 2) return Error::kBadOptionLength;
    size_t length = size_t{2} + area[i + 1];
    if (length > area.size() - i) return Error::kBadOptionLength;
    i += length;
  }
  return Error::kOk;
}

}  // namespace

Result<IPv6> IPv6::Parse(std::span<const uint8_t> packet) {
  return DoParse(packet, /*whole=*/true);
}

Result<IPv6> IPv6::ParsePrefix(std::span<const uint8_t> packet) {
  return DoParse(packet, /*whole=*/false);
}

Result<IPv6> IPv6::DoParse(std::span<const uint8_t> packet, bool whole) {
  if (packet.size() < kSize) return Error::kTruncated;
  if ((packet[kVersionClassFlowOffset] >> 4) != 6) return Error::kBadVersion;
  size_t total = kSize + LoadBig16(packet.data() + kPayloadLengthOffset);
  if (whole && packet.size() < total) return Error::kTruncated;
  return IPv6(packet.first(std::min(total, packet.size())));
}

IPv6Fields IPv6::fields() const {
  IPv6Fields f;
  f.traffic_class = traffic_class();
  f.flow_label = flow_label();
  f.payload_length = payload_length();
  f.next_header = next_header();
  f.hop_limit = hop_limit();
  f.source = source();
  f.destination = destination();
  return f;
}

Result<IPv6Chain> IPv6::WalkExtensionHeaders() const {
  IPv6Chain chain;
  // `end` is where the Payload Length says the packet ends; `present` is
  // where the bytes we hold end (the same for a Parse view).
  const size_t end = kSize + payload_length();
  const size_t present = data_.size();
  const uint8_t* p = data_.data();
  uint8_t next = next_header();
  size_t offset = kSize;

  for (;;) {
    bool known = true;
    switch (next) {
      case kProtocolHopByHop:
        // RFC 8200 section 4.1: "The Hop-by-Hop Options header, when
        // present, must immediately follow the IPv6 header."
        if (offset != kSize) return Error::kHopByHopNotFirst;
        break;
      case kProtocolRouting:
      case kProtocolFragment:
      case kProtocolDestinationOptions:
      case kProtocolAH:
      case kProtocolMobility:
      case kProtocolHIP:
      case kProtocolShim6:
        break;
      default:
        known = false;
        break;
    }
    if (!known) break;

    // The first two bytes hold the length; check them before reading it.
    if (offset + 2 > end) return Error::kBadExtensionHeader;
    if (offset + 2 > present) return Error::kTruncated;
    size_t length;
    if (next == kProtocolFragment) {
      length = kFragmentHeaderSize;
    } else if (next == kProtocolAH) {
      // RFC 4302 section 2.2: "the length of AH in 32-bit words (4-byte
      // units), minus 2".
      length = (size_t{p[offset + kExtLengthOffset]} + 2) * 4;
    } else {
      // RFC 8200 section 4.3: "Length of the Hop-by-Hop Options header in
      // 8-octet units, not including the first 8 octets."
      length = (size_t{p[offset + kExtLengthOffset]} + 1) * 8;
    }
    if (offset + length > end) return Error::kBadExtensionHeader;
    if (offset + length > present) return Error::kTruncated;
    if (chain.count == kMaxExtensionHeaders) {
      return Error::kTooManyExtensionHeaders;
    }
    chain.headers[chain.count++] = IPv6ExtensionHeader{
        next, static_cast<uint16_t>(offset), static_cast<uint16_t>(length)};

    const uint8_t* h = p + offset;
    bool stop = false;
    switch (next) {
      case kProtocolHopByHop:
      case kProtocolDestinationOptions: {
        Error e = ValidateOptions(data_.subspan(offset + 2, length - 2));
        if (e != Error::kOk) return e;
        break;
      }
      case kProtocolRouting:
        if (!chain.has_routing_header) {
          chain.has_routing_header = true;
          chain.routing_type = h[kRoutingTypeOffset];
          chain.segments_left = h[kSegmentsLeftOffset];
        }
        break;
      case kProtocolFragment: {
        uint16_t word = LoadBig16(h + kFragmentOffsetOffset);
        uint32_t frag_offset = uint32_t{word & 0xfff8u};  // 13 bits * 8
        bool more = (word & 1) != 0;
        size_t frag_length = end - (offset + length);
        // RFC 8200 section 4.5: "If the length of a fragment, as derived
        // from the fragment packet's Payload Length field, is not a
        // multiple of 8 octets and the M flag of that fragment is 1, then
        // that fragment must be discarded", and so must one whose
        // reassembled Payload Length "would exceed 65,535 octets".
        if (more && frag_length % 8 != 0) return Error::kBadFragment;
        if (frag_offset + frag_length > kMaxPayload) {
          return Error::kBadFragment;
        }
        chain.has_fragment_header = true;
        chain.fragment_offset = frag_offset;
        chain.more_fragments = more;
        chain.fragment_id = LoadBig32(h + kFragmentIdOffset);
        // What follows a non-first fragment's header is the middle of the
        // fragmentable part, not a header.
        stop = frag_offset != 0;
        break;
      }
      default:
        break;
    }
    next = h[kExtNextHeaderOffset];
    offset += length;
    if (stop) break;
  }

  chain.protocol = next;
  chain.offset = offset;
  chain.upper_length = end - offset;
  return chain;
}

Error IPv6::Encode(const IPv6Fields& f, std::span<uint8_t> out) {
  if (f.flow_label > 0xfffff) return Error::kBadField;
  if (out.size() < kSize) return Error::kBufferTooSmall;
  uint8_t* p = out.data();
  StoreBig32(
      p + kVersionClassFlowOffset,
      (uint32_t{6} << 28) | (uint32_t{f.traffic_class} << 20) | f.flow_label);
  StoreBig16(p + kPayloadLengthOffset, f.payload_length);
  p[kNextHeaderOffset] = f.next_header;
  p[kHopLimitOffset] = f.hop_limit;
  f.source.CopyTo(p + kSourceOffset);
  f.destination.CopyTo(p + kDestinationOffset);
  return Error::kOk;
}

Error IPv6::EncodeFragmentHeader(uint8_t next_header, uint32_t offset,
                                 bool more_fragments, uint32_t id,
                                 std::span<uint8_t> out) {
  if (offset % 8 != 0 || offset > kMaxPayload) return Error::kBadField;
  if (out.size() < kFragmentHeaderSize) return Error::kBufferTooSmall;
  uint8_t* p = out.data();
  p[kExtNextHeaderOffset] = next_header;
  p[kExtLengthOffset] = 0;  // Reserved
  StoreBig16(p + kFragmentOffsetOffset,
             static_cast<uint16_t>(offset | (more_fragments ? 1 : 0)));
  StoreBig32(p + kFragmentIdOffset, id);
  return Error::kOk;
}

Result<MutableIPv6> MutableIPv6::Parse(std::span<uint8_t> packet) {
  Result<IPv6> r = IPv6::Parse(packet);
  if (!r.ok()) return r.error();
  return MutableIPv6(*r);
}

Result<MutableIPv6> MutableIPv6::ParsePrefix(std::span<uint8_t> packet) {
  Result<IPv6> r = IPv6::ParsePrefix(packet);
  if (!r.ok()) return r.error();
  return MutableIPv6(*r);
}

void MutableIPv6::SetTrafficClass(uint8_t v) {
  uint32_t word = LoadBig32(p());
  word = (word & 0xf00fffff) | (uint32_t{v} << 20);
  StoreBig32(p(), word);
}

void MutableIPv6::SetFlowLabel(uint32_t v) {
  uint32_t word = LoadBig32(p());
  word = (word & 0xfff00000) | (v & 0xfffff);
  StoreBig32(p(), word);
}

uint8_t MutableIPv6::DecrementHopLimit() {
  uint8_t h = hop_limit();
  if (h == 0) return 0;
  SetHopLimit(static_cast<uint8_t>(h - 1));
  return static_cast<uint8_t>(h - 1);
}

}  // namespace ipsum::header
