// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// IPv4 headers (RFC 791): a read-only view `IPv4`, a writable view
// `MutableIPv4`, and `IPv4Fields` + `Encode` to write a header.
//
// `IPv4::Parse` validates everything a receiver must before trusting the
// header: the version, IHL against the bytes present, the total length
// against IHL and the bytes present, the option list (every option's length
// within the option area), and that the fragment fields describe bytes
// inside the 65535-byte datagram. Only a parsed view has accessors.
//
// The header checksum (RFC 791 section 3.1, "the 16 bit one's complement of
// the one's complement sum of all 16 bit words in the header") is verified by
// IsChecksumValid and kept right by the setters that end in
// `AndUpdateChecksum`, which apply RFC 1624 instead of summing the header
// again (RFC 1141's TTL decrement being the common case).

#ifndef IPSUM_HEADER_IPV4_H_
#define IPSUM_HEADER_IPV4_H_

#include <cstddef>
#include <cstdint>
#include <span>

#include "checksum/endian.h"
#include "header/address.h"
#include "header/error.h"
#include "header/protocol.h"

namespace ipsum::header {

// IPv4Fields holds the values to Encode into an IPv4 header. Encode computes
// the header checksum itself.
struct IPv4Fields {
  // tos is the whole Type of Service byte (DSCP << 2 | ECN, RFC 2474/3168).
  uint8_t tos = 0;
  // total_length is the datagram's length, header included, in bytes.
  uint16_t total_length = 0;
  uint16_t id = 0;
  bool dont_fragment = false;
  bool more_fragments = false;
  // fragment_offset is in bytes; a multiple of 8, below 65536.
  uint32_t fragment_offset = 0;
  uint8_t ttl = 0;
  uint8_t protocol = 0;
  IPv4Address source{};
  IPv4Address destination{};
  // options are the option bytes; Encode pads them with zero bytes (End of
  // Option List) to a multiple of 4. At most 40 bytes.
  std::span<const uint8_t> options;
};

// IPv4 is a read-only view of an IPv4 datagram (or, from ParsePrefix, of its
// first bytes).
//
// RFC 791 section 3.1:
//
//    0                   1                   2                   3
//    0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
//   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//   |Version|  IHL  |Type of Service|          Total Length         |
//   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//   |         Identification        |Flags|      Fragment Offset    |
//   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//   |  Time to Live |    Protocol   |         Header Checksum       |
//   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//   |                       Source Address                          |
//   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//   |                    Destination Address                        |
//   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//   |                    Options                    |    Padding    |
//   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
class IPv4 {
 public:
  // kMinSize is the size of a header without options (IHL 5).
  static constexpr size_t kMinSize = 20;
  // kMaxSize is the size of a header with 40 bytes of options (IHL 15).
  static constexpr size_t kMaxSize = 60;
  // kMaxTotalLength is the largest datagram, in bytes.
  static constexpr size_t kMaxTotalLength = 65535;

  // Where each field starts, in bytes from the header's first (the diagram
  // above). Version and IHL share byte 0; Flags and Fragment Offset share
  // the 16-bit word at kFlagsFragmentOffset; TTL and Protocol share the one
  // at kTTLOffset.
  static constexpr size_t kVersionIHLOffset = 0;
  static constexpr size_t kTOSOffset = 1;
  static constexpr size_t kTotalLengthOffset = 2;
  static constexpr size_t kIDOffset = 4;
  static constexpr size_t kFlagsFragmentOffset = 6;
  static constexpr size_t kTTLOffset = 8;
  static constexpr size_t kProtocolOffset = 9;
  static constexpr size_t kChecksumOffset = 10;
  static constexpr size_t kSourceOffset = 12;
  static constexpr size_t kDestinationOffset = 16;
  // kMoreFragmentsAndOffsetMask selects, in the word at
  // kFlagsFragmentOffset, the bits that make a datagram a fragment: More
  // Fragments and the 13-bit Fragment Offset.
  static constexpr uint16_t kMoreFragmentsAndOffsetMask = 0x3fff;

  // Option types (RFC 791 section 3.1) beyond End of Option List and NOP.
  static constexpr uint8_t kOptionRecordRoute = 7;
  static constexpr uint8_t kOptionTimestamp = 68;
  static constexpr uint8_t kOptionLooseSourceRoute = 131;
  static constexpr uint8_t kOptionStrictSourceRoute = 137;
  static constexpr uint8_t kOptionRouterAlert = 148;  // RFC 2113

  // Parse returns a view of the datagram at the start of `packet`, which
  // must hold all of it: Total Length bytes (more bytes, e.g. Ethernet
  // padding, are allowed and are not part of the view). Errors:
  //   kTruncated        fewer than 20 bytes, than IHL * 4, or than Total
  //                     Length;
  //   kBadVersion       Version is not 4;
  //   kBadHeaderLength  IHL < 5;
  //   kBadTotalLength   Total Length < IHL * 4;
  //   kBadOptionLength  an option's length is below 2 or runs past IHL,
  //                     or a known option (record route, source routes,
  //                     timestamp, router alert) is too short or long;
  //   kBadOption        a route or timestamp option's pointer is below
  //                     its smallest legal value (4, 5: RFC 791 3.1);
  //   kBadFragment      fragment offset + payload length > 65535, or a
  //                     fragment other than the last whose payload length
  //                     is not a multiple of 8 (RFC 791 section 3.2
  //                     cuts fragments "on 8 octet boundaries").
  static Result<IPv4> Parse(std::span<const uint8_t> packet);

  // ParsePrefix is Parse for bytes that hold the whole header but possibly
  // not the whole datagram: the header quoted in an ICMP error, or the
  // first, linear part of a chained packet. Only the Total Length check
  // against the bytes present is skipped; payload() returns the bytes
  // present.
  static Result<IPv4> ParsePrefix(std::span<const uint8_t> packet);

  // HeaderSize returns the number of bytes Encode writes for `fields`.
  static size_t HeaderSize(const IPv4Fields& fields) {
    return kMinSize + ((fields.options.size() + 3) & ~size_t{3});
  }

  // Encode writes the header described by `fields`, checksum included, to
  // the start of `out`. Errors: kBufferTooSmall when `out` is shorter than
  // HeaderSize(fields); kBadField when the options exceed 40 bytes, the
  // total length is below the header size, or the fragment offset is not a
  // multiple of 8 below 65536.
  static Error Encode(const IPv4Fields& fields, std::span<uint8_t> out);

  // version returns the Version field: 4.
  uint8_t version() const { return data_[0] >> 4; }
  // header_length returns the header's length in bytes (IHL * 4).
  size_t header_length() const { return size_t{data_[0] & 0x0fu} * 4; }
  // tos returns the Type of Service byte (DSCP and ECN).
  uint8_t tos() const { return data_[1]; }
  // dscp returns the Differentiated Services codepoint (RFC 2474).
  uint8_t dscp() const { return data_[1] >> 2; }
  // ecn returns the ECN field (RFC 3168).
  uint8_t ecn() const { return data_[1] & 3; }
  // total_length returns the Total Length field, in bytes.
  uint16_t total_length() const { return LoadBig16(data_.data() + 2); }
  // id returns the Identification field.
  uint16_t id() const { return LoadBig16(data_.data() + 4); }
  // dont_fragment returns the DF flag.
  bool dont_fragment() const { return (data_[6] & 0x40) != 0; }
  // more_fragments returns the MF flag.
  bool more_fragments() const { return (data_[6] & 0x20) != 0; }
  // fragment_offset returns the Fragment Offset in bytes (the field counts
  // 8-byte units).
  uint32_t fragment_offset() const {
    return uint32_t{LoadBig16(data_.data() + 6) & 0x1fffu} * 8;
  }
  // IsFragment reports whether the datagram is a fragment, not a whole
  // datagram: MF is set or the fragment offset is not 0.
  bool IsFragment() const { return more_fragments() || fragment_offset() != 0; }
  // ttl returns the Time to Live field.
  uint8_t ttl() const { return data_[8]; }
  // protocol returns the Protocol field.
  uint8_t protocol() const { return data_[9]; }
  // checksum returns the Header Checksum field as stored.
  uint16_t checksum() const { return LoadBig16(data_.data() + 10); }
  // source returns the Source Address.
  IPv4Address source() const { return IPv4Address::From(data_.data() + 12); }
  // destination returns the Destination Address.
  IPv4Address destination() const {
    return IPv4Address::From(data_.data() + 16);
  }
  // options returns the option bytes, padding included.
  std::span<const uint8_t> options() const {
    return data_.subspan(kMinSize, header_length() - kMinSize);
  }
  // fields returns the header's fields; `options` points into the view.
  IPv4Fields fields() const;

  // IsChecksumValid reports whether the header sums to 0xffff.
  bool IsChecksumValid() const;
  // ComputeChecksum returns the value the Header Checksum field should
  // hold, whatever it holds now.
  uint16_t ComputeChecksum() const;

  // bytes returns the view: the datagram (Parse) or its bytes present
  // (ParsePrefix).
  std::span<const uint8_t> bytes() const { return data_; }
  // header returns the header, options included.
  std::span<const uint8_t> header() const {
    return data_.first(header_length());
  }
  // payload returns the bytes after the header present in the view.
  std::span<const uint8_t> payload() const {
    return data_.subspan(header_length());
  }
  // payload_length returns the payload length that Total Length declares.
  size_t payload_length() const { return total_length() - header_length(); }

 protected:
  explicit IPv4(std::span<const uint8_t> data) : data_(data) {}
  static Result<IPv4> DoParse(std::span<const uint8_t> packet, bool whole);

  std::span<const uint8_t> data_;
};

// MutableIPv4 is an IPv4 view that can also change the header. Setters
// whose name does not end in AndUpdateChecksum leave the checksum stale;
// call UpdateChecksum after them. Changing the total length or IHL does not
// move the view's bounds: parse again.
class MutableIPv4 : public IPv4 {
 public:
  // Parse is IPv4::Parse for writable bytes.
  static Result<MutableIPv4> Parse(std::span<uint8_t> packet);
  // ParsePrefix is IPv4::ParsePrefix for writable bytes.
  static Result<MutableIPv4> ParsePrefix(std::span<uint8_t> packet);

  void SetTos(uint8_t v) { p()[1] = v; }
  void SetTotalLength(uint16_t v) { StoreBig16(p() + 2, v); }
  void SetId(uint16_t v) { StoreBig16(p() + 4, v); }
  void SetTtl(uint8_t v) { p()[8] = v; }
  void SetProtocol(uint8_t v) { p()[9] = v; }
  void SetSource(const IPv4Address& a) { a.CopyTo(p() + 12); }
  void SetDestination(const IPv4Address& a) { a.CopyTo(p() + 16); }
  // SetFragment sets the DF and MF flags and the fragment offset, in bytes
  // (a multiple of 8 below 65536).
  void SetFragment(bool dont_fragment, bool more_fragments, uint32_t offset);
  // SetChecksum stores `v` in the Header Checksum field.
  void SetChecksum(uint16_t v) { StoreBig16(p() + 10, v); }
  // UpdateChecksum recomputes the Header Checksum field from the header.
  void UpdateChecksum() { SetChecksum(ComputeChecksum()); }

  // SetTtlAndUpdateChecksum sets the TTL and adjusts the checksum by RFC
  // 1624 (the TTL shares a 16-bit word with the protocol).
  void SetTtlAndUpdateChecksum(uint8_t ttl);
  // DecrementTtl lowers a non-zero TTL by one, as a forwarding router does
  // (RFC 1812 section 5.3.1), adjusts the checksum and returns the new TTL.
  // A TTL of 0 is left as it is, and 0 is returned.
  uint8_t DecrementTtl();
  // SetSourceAndUpdateChecksum sets the source address and adjusts the
  // checksum by RFC 1624 (NAT). The transport checksum, which covers the
  // address through the pseudo-header, is the caller's to update.
  void SetSourceAndUpdateChecksum(const IPv4Address& a);
  // SetDestinationAndUpdateChecksum is SetSourceAndUpdateChecksum for the
  // destination address.
  void SetDestinationAndUpdateChecksum(const IPv4Address& a);

 private:
  explicit MutableIPv4(const IPv4& v) : IPv4(v) {}
  uint8_t* p() const { return const_cast<uint8_t*>(data_.data()); }
};

}  // namespace ipsum::header

#endif  // IPSUM_HEADER_IPV4_H_
