// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// UDP header parsing, encoding and checksums.

#include "header/udp.h"

#include <algorithm>

#include "header/checksum.h"

namespace ipsum::header {

Result<UDP> UDP::Parse(std::span<const uint8_t> datagram) {
  return DoParse(datagram, /*whole=*/true);
}

Result<UDP> UDP::ParsePrefix(std::span<const uint8_t> datagram) {
  return DoParse(datagram, /*whole=*/false);
}

Result<UDP> UDP::DoParse(std::span<const uint8_t> datagram, bool whole) {
  if (datagram.size() < kSize) return Error::kTruncated;
  // RFC 768: "Length is the length in octets of this user datagram
  // including this header and the data. (This means the minimum value of
  // the length is eight.)"
  size_t length = LoadBig16(datagram.data() + kLengthOffset);
  if (length < kSize) return Error::kBadLength;
  if (whole && datagram.size() < length) return Error::kTruncated;
  return UDP(datagram.first(std::min(length, datagram.size())));
}

UDPFields UDP::fields() const {
  return UDPFields{source_port(), destination_port(), length(), checksum()};
}

Error UDP::Encode(const UDPFields& f, std::span<uint8_t> out) {
  if (f.length < kSize) return Error::kBadField;
  if (out.size() < kSize) return Error::kBufferTooSmall;
  uint8_t* p = out.data();
  StoreBig16(p + kSourcePortOffset, f.source_port);
  StoreBig16(p + kDestinationPortOffset, f.destination_port);
  StoreBig16(p + kLengthOffset, f.length);
  StoreBig16(p + kChecksumOffset, f.checksum);
  return Error::kOk;
}

uint16_t UDP::ComputeChecksum(uint16_t pseudo_sum, uint16_t payload_sum) const {
  uint16_t c = ComputeTransportChecksum(pseudo_sum, header(), kChecksumOffset,
                                        payload_sum);
  // RFC 768: "If the computed checksum is zero, it is transmitted as all
  // ones (the equivalent in one's complement arithmetic)."
  return c == 0 ? 0xffff : c;
}

bool UDP::IsChecksumValid(uint16_t pseudo_sum, uint16_t payload_sum,
                          IPVersion version) const {
  if (checksum() == 0) return version == IPVersion::kV4;
  return IsTransportChecksumValid(pseudo_sum, header(), payload_sum);
}

Result<MutableUDP> MutableUDP::Parse(std::span<uint8_t> datagram) {
  Result<UDP> r = UDP::Parse(datagram);
  if (!r.ok()) return r.error();
  return MutableUDP(*r);
}

Result<MutableUDP> MutableUDP::ParsePrefix(std::span<uint8_t> datagram) {
  Result<UDP> r = UDP::ParsePrefix(datagram);
  if (!r.ok()) return r.error();
  return MutableUDP(*r);
}

void MutableUDP::SetSourcePortAndUpdateChecksum(uint16_t port) {
  SetChecksum(UpdateUDPChecksum(checksum(), source_port(), port));
  SetSourcePort(port);
}

void MutableUDP::SetDestinationPortAndUpdateChecksum(uint16_t port) {
  SetChecksum(UpdateUDPChecksum(checksum(), destination_port(), port));
  SetDestinationPort(port);
}

void MutableUDP::UpdateChecksumForAddressChange(
    std::span<const uint8_t> old_address,
    std::span<const uint8_t> new_address) {
  SetChecksum(UpdateUDPChecksum(checksum(), checksum::Checksum(old_address),
                                checksum::Checksum(new_address)));
}

}  // namespace ipsum::header
