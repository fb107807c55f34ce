// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// ICMP for IPv6 (RFC 4443): a read-only view `ICMPv6`, a writable view
// `MutableICMPv6`, and `ICMPv6Fields` + `Encode`. The view gives the second
// 32-bit word by message type: identifier and sequence number (echo), the
// MTU of Packet Too Big (section 3.2), the pointer of Parameter Problem
// (section 3.4). Error messages (types 0..127, section 2.1) quote "as much
// of invoking packet as possible"; ParseQuotedPacket parses its IPv6 header.
//
// The ICMPv6 checksum covers the pseudo-header of RFC 8200 section 8.1 with
// Next Header 58 (RFC 4443 section 2.3) and the whole message.

#ifndef IPSUM_HEADER_ICMPV6_H_
#define IPSUM_HEADER_ICMPV6_H_

#include <cstddef>
#include <cstdint>
#include <span>

#include "checksum/checksum.h"
#include "checksum/endian.h"
#include "header/error.h"
#include "header/ipv6.h"

namespace ipsum::header {

// ICMPv6 message types (RFC 4443 section 2.1; RFC 4861 for the Neighbor
// Discovery ones).
inline constexpr uint8_t kICMPv6DestinationUnreachable = 1;
inline constexpr uint8_t kICMPv6PacketTooBig = 2;
inline constexpr uint8_t kICMPv6TimeExceeded = 3;
inline constexpr uint8_t kICMPv6ParameterProblem = 4;
inline constexpr uint8_t kICMPv6EchoRequest = 128;
inline constexpr uint8_t kICMPv6EchoReply = 129;
inline constexpr uint8_t kICMPv6RouterSolicitation = 133;
inline constexpr uint8_t kICMPv6RouterAdvertisement = 134;
inline constexpr uint8_t kICMPv6NeighborSolicitation = 135;
inline constexpr uint8_t kICMPv6NeighborAdvertisement = 136;
inline constexpr uint8_t kICMPv6Redirect = 137;

// ICMPv6Fields holds the values to Encode into an ICMPv6 header. Which of
// ident/sequence, mtu and pointer is written depends on `type`; the others
// must be zero for a round trip through fields() to compare equal.
struct ICMPv6Fields {
  uint8_t type = 0;
  uint8_t code = 0;
  // checksum is stored as given; compute it afterwards with
  // MutableICMPv6::SetChecksum(ComputeChecksum(...)).
  uint16_t checksum = 0;
  // ident and sequence: echo request and reply.
  uint16_t ident = 0;
  uint16_t sequence = 0;
  // mtu: packet too big.
  uint32_t mtu = 0;
  // pointer: parameter problem.
  uint32_t pointer = 0;

  friend bool operator==(const ICMPv6Fields&, const ICMPv6Fields&) = default;
};

// ICMPv6 is a read-only view of an ICMPv6 message.
//
// RFC 4443 section 2.1 (the first word of the Message Body varies by type):
//
//    0                   1                   2                   3
//    0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
//   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//   |     Type      |     Code      |          Checksum             |
//   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//   |  Identifier / Sequence Number, MTU, Pointer or Unused         |
//   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//   |     Data ... (errors: as much of invoking packet as possible)
//   +-+-+-+-+-
class ICMPv6 {
 public:
  // kMinSize is the size of the header: type, code, checksum and the first
  // word of the body, which every message RFC 4443 and RFC 4861 define has.
  static constexpr size_t kMinSize = 8;
  // kChecksumOffset is where the Checksum field sits.
  static constexpr size_t kChecksumOffset = 2;

  // Parse returns a view of the message in `message` (all of its bytes).
  // Errors: kTruncated (fewer than 8 bytes).
  static Result<ICMPv6> Parse(std::span<const uint8_t> message);

  // Encode writes the 8-byte header described by `fields` to the start of
  // `out`: kBufferTooSmall when `out` holds fewer than 8 bytes.
  static Error Encode(const ICMPv6Fields& fields, std::span<uint8_t> out);

  uint8_t type() const { return data_[0]; }
  uint8_t code() const { return data_[1]; }
  uint16_t checksum() const { return LoadBig16(data_.data() + 2); }
  // ident returns the Identifier of an echo request or reply.
  uint16_t ident() const { return LoadBig16(data_.data() + 4); }
  // sequence returns the Sequence Number of an echo request or reply.
  uint16_t sequence() const { return LoadBig16(data_.data() + 6); }
  // mtu returns the MTU of a Packet Too Big message.
  uint32_t mtu() const { return LoadBig32(data_.data() + 4); }
  // pointer returns the Pointer of a Parameter Problem message: the offset
  // in the quoted packet where the error was found.
  uint32_t pointer() const { return LoadBig32(data_.data() + 4); }
  // IsError reports whether this is an error message: "a 0 in the high-order
  // bit of the message Type" (RFC 4443 section 2.1).
  bool IsError() const { return type() < 128; }
  // fields returns the header's fields, by type.
  ICMPv6Fields fields() const;

  // ParseQuotedPacket parses the IPv6 header an error message quotes
  // (IPv6::ParsePrefix over payload()).
  Result<IPv6> ParseQuotedPacket() const {
    return IPv6::ParsePrefix(payload());
  }

  // header returns the 8-byte header.
  std::span<const uint8_t> header() const { return data_.first(kMinSize); }
  // payload returns the bytes after the header: echo data, or the quote.
  std::span<const uint8_t> payload() const { return data_.subspan(kMinSize); }
  // bytes returns the whole message.
  std::span<const uint8_t> bytes() const { return data_; }

  // ComputeChecksum returns the value the Checksum field should hold:
  // `pseudo_sum` is PseudoHeaderSum(src, dst, 58, message length),
  // `payload_sum` the sum of the bytes after the 8-byte header.
  uint16_t ComputeChecksum(uint16_t pseudo_sum, uint16_t payload_sum) const;
  // ComputeChecksum is the above with the payload taken from payload().
  uint16_t ComputeChecksum(uint16_t pseudo_sum) const {
    return ComputeChecksum(pseudo_sum, checksum::Checksum(payload()));
  }
  // IsChecksumValid reports whether pseudo-header and message sum to
  // 0xffff.
  bool IsChecksumValid(uint16_t pseudo_sum, uint16_t payload_sum) const;
  // IsChecksumValid is the above with the payload taken from payload().
  bool IsChecksumValid(uint16_t pseudo_sum) const {
    return IsChecksumValid(pseudo_sum, checksum::Checksum(payload()));
  }

 protected:
  explicit ICMPv6(std::span<const uint8_t> data) : data_(data) {}

  std::span<const uint8_t> data_;
};

// MutableICMPv6 is an ICMPv6 view that can also change the header.
class MutableICMPv6 : public ICMPv6 {
 public:
  // Parse is ICMPv6::Parse for writable bytes.
  static Result<MutableICMPv6> Parse(std::span<uint8_t> message);

  void SetType(uint8_t v) { p()[0] = v; }
  void SetCode(uint8_t v) { p()[1] = v; }
  void SetChecksum(uint16_t v) { StoreBig16(p() + kChecksumOffset, v); }
  void SetIdent(uint16_t v) { StoreBig16(p() + 4, v); }
  void SetSequence(uint16_t v) { StoreBig16(p() + 6, v); }
  void SetMtu(uint32_t v) { StoreBig32(p() + 4, v); }
  void SetPointer(uint32_t v) { StoreBig32(p() + 4, v); }
  // SetIdentAndUpdateChecksum sets the echo Identifier and adjusts the
  // checksum by RFC 1624.
  void SetIdentAndUpdateChecksum(uint16_t ident);
  // UpdateChecksumForAddressChange adjusts the checksum for a change of a
  // pseudo-header address from `old_address` to `new_address` (16 bytes).
  void UpdateChecksumForAddressChange(std::span<const uint8_t> old_address,
                                      std::span<const uint8_t> new_address);

 private:
  explicit MutableICMPv6(const ICMPv6& v) : ICMPv6(v) {}
  uint8_t* p() const { return const_cast<uint8_t*>(data_.data()); }
};

}  // namespace ipsum::header

#endif  // IPSUM_HEADER_ICMPV6_H_
