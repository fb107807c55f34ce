// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// ICMPv6 header parsing, encoding and checksums.

#include "header/icmpv6.h"

#include "checksum/update.h"
#include "header/checksum.h"

namespace ipsum::header {
namespace {

// Offsets of the fields in the RFC 4443 diagram above ICMPv6.
constexpr size_t kTypeOffset = 0;
constexpr size_t kCodeOffset = 1;
constexpr size_t kBodyOffset = 4;  // Identifier, MTU, Pointer
constexpr size_t kSequenceOffset = 6;

bool IsEcho(uint8_t type) {
  return type == kICMPv6EchoRequest || type == kICMPv6EchoReply;
}

}  // namespace

Result<ICMPv6> ICMPv6::Parse(std::span<const uint8_t> message) {
  if (message.size() < kMinSize) return Error::kTruncated;
  return ICMPv6(message);
}

ICMPv6Fields ICMPv6::fields() const {
  ICMPv6Fields f;
  f.type = type();
  f.code = code();
  f.checksum = checksum();
  if (IsEcho(f.type)) {
    f.ident = ident();
    f.sequence = sequence();
  } else if (f.type == kICMPv6PacketTooBig) {
    f.mtu = mtu();
  } else if (f.type == kICMPv6ParameterProblem) {
    f.pointer = pointer();
  }
  return f;
}

Error ICMPv6::Encode(const ICMPv6Fields& f, std::span<uint8_t> out) {
  if (out.size() < kMinSize) return Error::kBufferTooSmall;
  uint8_t* p = out.data();
  p[kTypeOffset] = f.type;
  p[kCodeOffset] = f.code;
  StoreBig16(p + kChecksumOffset, f.checksum);
  StoreBig32(p + kBodyOffset, 0);  // "Unused" unless the type says so
  if (IsEcho(f.type)) {
    StoreBig16(p + kBodyOffset, f.ident);
    StoreBig16(p + kSequenceOffset, f.sequence);
  } else if (f.type == kICMPv6PacketTooBig) {
    StoreBig32(p + kBodyOffset, f.mtu);
  } else if (f.type == kICMPv6ParameterProblem) {
    StoreBig32(p + kBodyOffset, f.pointer);
  }
  return Error::kOk;
}

uint16_t ICMPv6::ComputeChecksum(uint16_t pseudo_sum,
                                 uint16_t payload_sum) const {
  return ComputeTransportChecksum(pseudo_sum, header(), kChecksumOffset,
                                  payload_sum);
}

bool ICMPv6::IsChecksumValid(uint16_t pseudo_sum, uint16_t payload_sum) const {
  return IsTransportChecksumValid(pseudo_sum, header(), payload_sum);
}

Result<MutableICMPv6> MutableICMPv6::Parse(std::span<uint8_t> message) {
  Result<ICMPv6> r = ICMPv6::Parse(message);
  if (!r.ok()) return r.error();
  return MutableICMPv6(*r);
}

void MutableICMPv6::SetIdentAndUpdateChecksum(uint16_t v) {
  SetChecksum(checksum::UpdateChecksum16(checksum(), ident(), v));
  SetIdent(v);
}

void MutableICMPv6::UpdateChecksumForAddressChange(
    std::span<const uint8_t> old_address,
    std::span<const uint8_t> new_address) {
  SetChecksum(
      checksum::UpdateChecksumBytes(checksum(), old_address, new_address));
}

}  // namespace ipsum::header
