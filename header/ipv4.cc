// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// IPv4 header parsing, validation, encoding and checksum upkeep.

#include "header/ipv4.h"

#include <algorithm>
#include <cstring>

#include "checksum/checksum.h"
#include "checksum/update.h"
#include "header/checksum.h"

namespace ipsum::header {
namespace {

constexpr uint16_t kFlagDF = 0x4000;
constexpr uint16_t kFlagMF = 0x2000;
constexpr uint16_t kOffsetMask = 0x1fff;

// ValidateOption checks the lengths (and pointers) of the options RFC 791
// section 3.1 and RFC 2113 define; WalkOptions has checked that every
// option's length is at least 2 and fits in the option area, and unknown
// options are accepted as they are.
Error ValidateOption(const Option& o) {
  size_t length = o.data.size() + 2;
  switch (o.kind) {
    case IPv4::kOptionRecordRoute:
    case IPv4::kOptionLooseSourceRoute:
    case IPv4::kOptionStrictSourceRoute:
      // Type, length, pointer, route data: "The pointer is relative to this
      // option, and the smallest legal value for the pointer is 4."
      if (length < 3) return Error::kBadOptionLength;
      if (o.data[0] < 4) return Error::kBadOption;
      return Error::kOk;
    case IPv4::kOptionTimestamp:
      // Type, length, pointer, overflow/flags, timestamps: "The smallest
      // legal value [for the pointer] is 5."
      if (length < 4) return Error::kBadOptionLength;
      if (o.data[0] < 5) return Error::kBadOption;
      return Error::kOk;
    case IPv4::kOptionRouterAlert:
      // RFC 2113 section 2.1: "Length: 4".
      return length == 4 ? Error::kOk : Error::kBadOptionLength;
    default:
      return Error::kOk;
  }
}

}  // namespace

Result<IPv4> IPv4::Parse(std::span<const uint8_t> packet) {
  return DoParse(packet, /*whole=*/true);
}

Result<IPv4> IPv4::ParsePrefix(std::span<const uint8_t> packet) {
  return DoParse(packet, /*whole=*/false);
}

Result<IPv4> IPv4::DoParse(std::span<const uint8_t> packet, bool whole) {
  if (packet.size() < kMinSize) return Error::kTruncated;
  const uint8_t* p = packet.data();
  if ((p[kVersionIHLOffset] >> 4) != 4) return Error::kBadVersion;
  size_t ihl = size_t{p[kVersionIHLOffset] & 0x0fu} * 4;
  if (ihl < kMinSize) return Error::kBadHeaderLength;
  if (packet.size() < ihl) return Error::kTruncated;
  size_t total = LoadBig16(p + kTotalLengthOffset);
  if (total < ihl) return Error::kBadTotalLength;
  if (whole && packet.size() < total) return Error::kTruncated;

  Error e =
      WalkOptions(packet.subspan(kMinSize, ihl - kMinSize), ValidateOption);
  if (e != Error::kOk) return e;

  uint16_t frag = LoadBig16(p + kFlagsFragmentOffset);
  size_t offset = static_cast<size_t>(frag & kOffsetMask) * 8;
  size_t payload = total - ihl;
  if (offset + payload > kMaxTotalLength) return Error::kBadFragment;
  if ((frag & kFlagMF) && payload % 8 != 0) return Error::kBadFragment;

  return IPv4(packet.first(std::min(total, packet.size())));
}

IPv4Fields IPv4::fields() const {
  IPv4Fields f;
  f.tos = tos();
  f.total_length = total_length();
  f.id = id();
  f.dont_fragment = dont_fragment();
  f.more_fragments = more_fragments();
  f.fragment_offset = fragment_offset();
  f.ttl = ttl();
  f.protocol = protocol();
  f.source = source();
  f.destination = destination();
  f.options = options();
  return f;
}

bool IPv4::IsChecksumValid() const {
  return checksum::Checksum(header()) == 0xffff;
}

uint16_t IPv4::ComputeChecksum() const {
  // The sum with the field read as zero: the sum of the words around it.
  uint16_t sum = checksum::Checksum(data_.first(kChecksumOffset));
  sum = checksum::Checksum(header().subspan(kChecksumOffset + 2), sum);
  return static_cast<uint16_t>(~sum);
}

Error IPv4::Encode(const IPv4Fields& f, std::span<uint8_t> out) {
  size_t size = HeaderSize(f);
  if (size > kMaxSize || f.total_length < size || f.fragment_offset % 8 != 0 ||
      f.fragment_offset > kMaxTotalLength) {
    return Error::kBadField;
  }
  if (out.size() < size) return Error::kBufferTooSmall;
  uint8_t* p = out.data();
  p[kVersionIHLOffset] = static_cast<uint8_t>(0x40 | (size / 4));
  p[kTOSOffset] = f.tos;
  StoreBig16(p + kTotalLengthOffset, f.total_length);
  StoreBig16(p + kIDOffset, f.id);
  StoreBig16(p + kFlagsFragmentOffset,
             static_cast<uint16_t>((f.dont_fragment ? kFlagDF : 0) |
                                   (f.more_fragments ? kFlagMF : 0) |
                                   (f.fragment_offset / 8)));
  p[kTTLOffset] = f.ttl;
  p[kProtocolOffset] = f.protocol;
  StoreBig16(p + kChecksumOffset, 0);
  f.source.CopyTo(p + kSourceOffset);
  f.destination.CopyTo(p + kDestinationOffset);
  if (!f.options.empty()) {
    std::memcpy(p + kMinSize, f.options.data(), f.options.size());
  }
  // RFC 791 section 3.1: "The internet header padding is used to ensure
  // that the internet header ends on a 32 bit boundary. The padding is
  // zero."
  std::memset(p + kMinSize + f.options.size(), 0,
              size - kMinSize - f.options.size());
  uint16_t sum = checksum::Checksum(out.first(size));
  checksum::Put(p + kChecksumOffset, static_cast<uint16_t>(~sum));
  return Error::kOk;
}

Result<MutableIPv4> MutableIPv4::Parse(std::span<uint8_t> packet) {
  Result<IPv4> r = IPv4::Parse(packet);
  if (!r.ok()) return r.error();
  return MutableIPv4(*r);
}

Result<MutableIPv4> MutableIPv4::ParsePrefix(std::span<uint8_t> packet) {
  Result<IPv4> r = IPv4::ParsePrefix(packet);
  if (!r.ok()) return r.error();
  return MutableIPv4(*r);
}

void MutableIPv4::SetFragment(bool dont_fragment, bool more_fragments,
                              uint32_t offset) {
  uint16_t reserved = LoadBig16(p() + kFlagsFragmentOffset) & 0x8000;
  StoreBig16(p() + kFlagsFragmentOffset,
             static_cast<uint16_t>(reserved | (dont_fragment ? kFlagDF : 0) |
                                   (more_fragments ? kFlagMF : 0) |
                                   ((offset / 8) & kOffsetMask)));
}

void MutableIPv4::SetTtlAndUpdateChecksum(uint8_t ttl) {
  uint16_t old_word = LoadBig16(p() + kTTLOffset);
  p()[kTTLOffset] = ttl;
  uint16_t new_word = LoadBig16(p() + kTTLOffset);
  SetChecksum(checksum::UpdateChecksum16(checksum(), old_word, new_word));
}

uint8_t MutableIPv4::DecrementTtl() {
  uint8_t t = ttl();
  if (t == 0) return 0;
  SetTtlAndUpdateChecksum(static_cast<uint8_t>(t - 1));
  return static_cast<uint8_t>(t - 1);
}

void MutableIPv4::SetSourceAndUpdateChecksum(const IPv4Address& a) {
  uint16_t c =
      checksum::UpdateChecksumBytes(checksum(), source().bytes, a.bytes);
  SetSource(a);
  SetChecksum(c);
}

void MutableIPv4::SetDestinationAndUpdateChecksum(const IPv4Address& a) {
  uint16_t c =
      checksum::UpdateChecksumBytes(checksum(), destination().bytes, a.bytes);
  SetDestination(a);
  SetChecksum(c);
}

}  // namespace ipsum::header
