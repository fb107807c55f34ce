// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// ICMP for IPv4 (RFC 792): a read-only view `ICMPv4`, a writable view
// `MutableICMPv4`, and `ICMPv4Fields` + `Encode`. The view gives the fields
// of the second 32-bit word by message type: identifier and sequence number
// (echo, timestamp, information), the next-hop MTU of "fragmentation needed"
// (RFC 1191 section 4), the pointer of a parameter problem, the gateway of
// a redirect. Error messages quote the offending datagram's header and at
// least 64 bits of its data; ParseQuotedPacket parses that header.
//
// The ICMPv4 checksum covers the whole message and no pseudo-header
// (RFC 792: "the 16-bit one's complement of the one's complement sum of the
// ICMP message starting with the ICMP Type").

#ifndef IPSUM_HEADER_ICMPV4_H_
#define IPSUM_HEADER_ICMPV4_H_

#include <cstddef>
#include <cstdint>
#include <span>

#include "checksum/checksum.h"
#include "checksum/endian.h"
#include "header/address.h"
#include "header/error.h"
#include "header/ipv4.h"

namespace ipsum::header {

// ICMPv4 message types (RFC 792, RFC 1191).
inline constexpr uint8_t kICMPv4EchoReply = 0;
inline constexpr uint8_t kICMPv4DestinationUnreachable = 3;
inline constexpr uint8_t kICMPv4SourceQuench = 4;
inline constexpr uint8_t kICMPv4Redirect = 5;
inline constexpr uint8_t kICMPv4Echo = 8;
inline constexpr uint8_t kICMPv4TimeExceeded = 11;
inline constexpr uint8_t kICMPv4ParameterProblem = 12;
inline constexpr uint8_t kICMPv4Timestamp = 13;
inline constexpr uint8_t kICMPv4TimestampReply = 14;
inline constexpr uint8_t kICMPv4InfoRequest = 15;
inline constexpr uint8_t kICMPv4InfoReply = 16;

// kICMPv4FragmentationNeeded is the Destination Unreachable code that
// carries a next-hop MTU (RFC 1191 section 4).
inline constexpr uint8_t kICMPv4FragmentationNeeded = 4;

// ICMPv4Fields holds the values to Encode into an ICMPv4 header. Which of
// ident/sequence, mtu, pointer and gateway is written depends on `type`;
// the others must be zero for a round trip through fields() to compare
// equal.
struct ICMPv4Fields {
  uint8_t type = 0;
  uint8_t code = 0;
  // checksum is stored as given; compute it afterwards with
  // MutableICMPv4::SetChecksum(ComputeChecksum(...)).
  uint16_t checksum = 0;
  // ident and sequence: echo, echo reply, timestamp (reply), information.
  uint16_t ident = 0;
  uint16_t sequence = 0;
  // mtu: destination unreachable, code 4 (RFC 1191 section 4).
  uint16_t mtu = 0;
  // pointer: parameter problem.
  uint8_t pointer = 0;
  // gateway: redirect.
  IPv4Address gateway{};

  friend bool operator==(const ICMPv4Fields&, const ICMPv4Fields&) = default;
};

// ICMPv4 is a read-only view of an ICMPv4 message.
//
// RFC 792 (echo shown; the second word varies by type):
//
//    0                   1                   2                   3
//    0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
//   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//   |     Type      |     Code      |          Checksum             |
//   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//   |           Identifier          |        Sequence Number        |
//   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//   |     Data ... (errors: Internet Header + 64 bits of Data)
//   +-+-+-+-+-
//
// with, in the second word, "Pointer | unused" (parameter problem),
// "unused | Next-Hop MTU" (fragmentation needed, RFC 1191 section 4),
// "Gateway Internet Address" (redirect).
class ICMPv4 {
 public:
  // kMinSize is the size of the header: type, code, checksum and the
  // second 32-bit word.
  static constexpr size_t kMinSize = 8;
  // kChecksumOffset is where the Checksum field sits.
  static constexpr size_t kChecksumOffset = 2;

  // Parse returns a view of the message in `message` (all of its bytes).
  // Errors: kTruncated (fewer than 8 bytes).
  static Result<ICMPv4> Parse(std::span<const uint8_t> message);

  // Encode writes the 8-byte header described by `fields` to the start of
  // `out`: kBufferTooSmall when `out` holds fewer than 8 bytes.
  static Error Encode(const ICMPv4Fields& fields, std::span<uint8_t> out);

  uint8_t type() const { return data_[0]; }
  uint8_t code() const { return data_[1]; }
  uint16_t checksum() const { return LoadBig16(data_.data() + 2); }
  // ident returns the Identifier of echo, timestamp and information
  // messages.
  uint16_t ident() const { return LoadBig16(data_.data() + 4); }
  // sequence returns their Sequence Number.
  uint16_t sequence() const { return LoadBig16(data_.data() + 6); }
  // mtu returns the Next-Hop MTU of a "fragmentation needed" message
  // (RFC 1191 section 4); 0 from a router that predates RFC 1191.
  uint16_t mtu() const { return LoadBig16(data_.data() + 6); }
  // pointer returns the Pointer of a parameter problem message: the byte
  // of the quoted header where the error was found.
  uint8_t pointer() const { return data_[4]; }
  // gateway returns the Gateway Internet Address of a redirect.
  IPv4Address gateway() const { return IPv4Address::From(data_.data() + 4); }
  // IsError reports whether the type is an error message (destination
  // unreachable, source quench, redirect, time exceeded, parameter
  // problem), which quotes the datagram that caused it.
  bool IsError() const;
  // fields returns the header's fields, by type.
  ICMPv4Fields fields() const;

  // ParseQuotedPacket parses the IPv4 header an error message quotes
  // (IPv4::ParsePrefix over payload()): its payload() is what of the
  // offending datagram's data was quoted, at least its first 8 bytes (the
  // ports of TCP and UDP) from a conforming sender.
  Result<IPv4> ParseQuotedPacket() const {
    return IPv4::ParsePrefix(payload());
  }

  // header returns the 8-byte header.
  std::span<const uint8_t> header() const { return data_.first(kMinSize); }
  // payload returns the bytes after the header: echo data, or the quote.
  std::span<const uint8_t> payload() const { return data_.subspan(kMinSize); }
  // bytes returns the whole message.
  std::span<const uint8_t> bytes() const { return data_; }

  // ComputeChecksum returns the value the Checksum field should hold, given
  // the sum of the payload (which follows the 8-byte header).
  uint16_t ComputeChecksum(uint16_t payload_sum) const;
  // ComputeChecksum is the above with the payload taken from payload().
  uint16_t ComputeChecksum() const {
    return ComputeChecksum(checksum::Checksum(payload()));
  }
  // IsChecksumValid reports whether the message sums to 0xffff.
  bool IsChecksumValid(uint16_t payload_sum) const;
  // IsChecksumValid is the above with the payload taken from payload().
  bool IsChecksumValid() const {
    return IsChecksumValid(checksum::Checksum(payload()));
  }

 protected:
  explicit ICMPv4(std::span<const uint8_t> data) : data_(data) {}

  std::span<const uint8_t> data_;
};

// MutableICMPv4 is an ICMPv4 view that can also change the header.
class MutableICMPv4 : public ICMPv4 {
 public:
  // Parse is ICMPv4::Parse for writable bytes.
  static Result<MutableICMPv4> Parse(std::span<uint8_t> message);

  void SetType(uint8_t v) { p()[0] = v; }
  void SetCode(uint8_t v) { p()[1] = v; }
  void SetChecksum(uint16_t v) { StoreBig16(p() + kChecksumOffset, v); }
  void SetIdent(uint16_t v) { StoreBig16(p() + 4, v); }
  void SetSequence(uint16_t v) { StoreBig16(p() + 6, v); }
  void SetMtu(uint16_t v) { StoreBig16(p() + 6, v); }
  void SetPointer(uint8_t v) { p()[4] = v; }
  // SetIdentAndUpdateChecksum sets the echo Identifier and adjusts the
  // checksum by RFC 1624, as NAPT does for ICMP queries (RFC 5508).
  void SetIdentAndUpdateChecksum(uint16_t ident);

 private:
  explicit MutableICMPv4(const ICMPv4& v) : ICMPv4(v) {}
  uint8_t* p() const { return const_cast<uint8_t*>(data_.data()); }
};

}  // namespace ipsum::header

#endif  // IPSUM_HEADER_ICMPV4_H_
