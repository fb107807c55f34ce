// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// ICMPv4 header parsing, encoding and checksums.

#include "header/icmpv4.h"

#include "checksum/update.h"
#include "header/checksum.h"

namespace ipsum::header {
namespace {

// Offsets of the fields in the RFC 792 diagram above ICMPv4.
constexpr size_t kTypeOffset = 0;
constexpr size_t kCodeOffset = 1;
constexpr size_t kIdentOffset = 4;     // also Pointer, Gateway
constexpr size_t kSequenceOffset = 6;  // also Next-Hop MTU

bool HasIdent(uint8_t type) {
  switch (type) {
    case kICMPv4EchoReply:
    case kICMPv4Echo:
    case kICMPv4Timestamp:
    case kICMPv4TimestampReply:
    case kICMPv4InfoRequest:
    case kICMPv4InfoReply:
      return true;
    default:
      return false;
  }
}

}  // namespace

Result<ICMPv4> ICMPv4::Parse(std::span<const uint8_t> message) {
  if (message.size() < kMinSize) return Error::kTruncated;
  return ICMPv4(message);
}

bool ICMPv4::IsError() const {
  switch (type()) {
    case kICMPv4DestinationUnreachable:
    case kICMPv4SourceQuench:
    case kICMPv4Redirect:
    case kICMPv4TimeExceeded:
    case kICMPv4ParameterProblem:
      return true;
    default:
      return false;
  }
}

ICMPv4Fields ICMPv4::fields() const {
  ICMPv4Fields f;
  f.type = type();
  f.code = code();
  f.checksum = checksum();
  if (HasIdent(f.type)) {
    f.ident = ident();
    f.sequence = sequence();
  } else if (f.type == kICMPv4DestinationUnreachable &&
             f.code == kICMPv4FragmentationNeeded) {
    f.mtu = mtu();
  } else if (f.type == kICMPv4ParameterProblem) {
    f.pointer = pointer();
  } else if (f.type == kICMPv4Redirect) {
    f.gateway = gateway();
  }
  return f;
}

Error ICMPv4::Encode(const ICMPv4Fields& f, std::span<uint8_t> out) {
  if (out.size() < kMinSize) return Error::kBufferTooSmall;
  uint8_t* p = out.data();
  p[kTypeOffset] = f.type;
  p[kCodeOffset] = f.code;
  StoreBig16(p + kChecksumOffset, f.checksum);
  StoreBig32(p + kIdentOffset, 0);  // "unused" unless the type says so
  if (HasIdent(f.type)) {
    StoreBig16(p + kIdentOffset, f.ident);
    StoreBig16(p + kSequenceOffset, f.sequence);
  } else if (f.type == kICMPv4DestinationUnreachable &&
             f.code == kICMPv4FragmentationNeeded) {
    StoreBig16(p + kSequenceOffset, f.mtu);
  } else if (f.type == kICMPv4ParameterProblem) {
    p[kIdentOffset] = f.pointer;
  } else if (f.type == kICMPv4Redirect) {
    f.gateway.CopyTo(p + kIdentOffset);
  }
  return Error::kOk;
}

uint16_t ICMPv4::ComputeChecksum(uint16_t payload_sum) const {
  // No pseudo-header: start the sum at 0.
  return ComputeTransportChecksum(0, header(), kChecksumOffset, payload_sum);
}

bool ICMPv4::IsChecksumValid(uint16_t payload_sum) const {
  return IsTransportChecksumValid(0, header(), payload_sum);
}

Result<MutableICMPv4> MutableICMPv4::Parse(std::span<uint8_t> message) {
  Result<ICMPv4> r = ICMPv4::Parse(message);
  if (!r.ok()) return r.error();
  return MutableICMPv4(*r);
}

void MutableICMPv4::SetIdentAndUpdateChecksum(uint16_t v) {
  SetChecksum(checksum::UpdateChecksum16(checksum(), ident(), v));
  SetIdent(v);
  // RFC 1624 equation 3 gives 0x0000 where a message that is now all zero
  // needs 0xffff (checksum/update.h). ICMPv4 has no pseudo-header, so an
  // all-zero message (an echo reply with identifier, sequence and data 0)
  // is possible: in that one case, 1 in 65536 updates, sum it again.
  if (checksum() == 0) SetChecksum(ComputeChecksum());
}

}  // namespace ipsum::header
