// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// IPv6 headers (RFC 8200): a read-only view `IPv6`, a writable view
// `MutableIPv6`, `IPv6Fields` + `Encode`, and the walk over the extension
// header chain that finds the upper-layer protocol.
//
// The walk (`IPv6::WalkExtensionHeaders`) is bounded: it visits at most
// kMaxExtensionHeaders headers, each at least 8 bytes long, and checks every
// header's length against both the bytes present and the Payload Length
// before it reads past the header's first two bytes, so neither a loop of
// Next Header values nor a lying length field can take it out of bounds.
// Jumbograms (RFC 2675, Payload Length 0 with a Jumbo Payload option) are not
// supported: Payload Length 0 means an empty payload.

#ifndef IPSUM_HEADER_IPV6_H_
#define IPSUM_HEADER_IPV6_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "checksum/endian.h"
#include "header/address.h"
#include "header/error.h"
#include "header/protocol.h"

namespace ipsum::header {

// IPv6Fields holds the values to Encode into an IPv6 header.
struct IPv6Fields {
  uint8_t traffic_class = 0;
  // flow_label is 20 bits.
  uint32_t flow_label = 0;
  // payload_length counts the bytes after the 40-byte header, extension
  // headers included.
  uint16_t payload_length = 0;
  uint8_t next_header = 0;
  uint8_t hop_limit = 0;
  IPv6Address source{};
  IPv6Address destination{};

  friend bool operator==(const IPv6Fields&, const IPv6Fields&) = default;
};

// IPv6ExtensionHeader is one header of the chain, as the walk found it.
struct IPv6ExtensionHeader {
  // type is the Next Header value that named this header.
  uint8_t type;
  // offset is where the header starts, from the start of the IPv6 header.
  uint16_t offset;
  // length is the header's length in bytes.
  uint16_t length;
};

// kMaxExtensionHeaders bounds the extension header walk.
inline constexpr size_t kMaxExtensionHeaders = 16;

// IPv6Chain is the result of walking an IPv6 packet's extension headers.
struct IPv6Chain {
  // protocol is the Next Header value after the last extension header
  // walked: the upper-layer protocol (6, 17, 58, ...), 59 (No Next Header),
  // or 50 (ESP, whose contents are encrypted, so the walk stops there).
  uint8_t protocol = 0;
  // offset is where the upper-layer header (or ESP header, or the fragment
  // data of a non-first fragment) starts, from the start of the IPv6 header.
  size_t offset = 0;
  // upper_length is the length the Payload Length declares from `offset`
  // on: the "Upper-Layer Packet Length" of the RFC 8200 section 8.1
  // pseudo-header, when the packet is not a fragment.
  size_t upper_length = 0;

  // count is the number of extension headers walked; headers[0, count)
  // describes them in order.
  uint8_t count = 0;
  std::array<IPv6ExtensionHeader, kMaxExtensionHeaders> headers{};

  // has_fragment_header reports whether a Fragment header was found, and the
  // fragment_* fields hold its values (RFC 8200 section 4.5). A non-first
  // fragment (offset > 0) ends the walk: what follows is fragment data.
  bool has_fragment_header = false;
  uint32_t fragment_id = 0;
  // fragment_offset is in bytes (the field counts 8-octet units).
  uint32_t fragment_offset = 0;
  bool more_fragments = false;

  // has_routing_header reports whether a Routing header was found; the
  // routing_* fields hold the type and Segments Left of the first one.
  bool has_routing_header = false;
  uint8_t routing_type = 0;
  uint8_t segments_left = 0;

  // IsFragment reports whether the packet is a fragment: it has a Fragment
  // header with an offset or the M flag. An "atomic fragment" (offset 0,
  // M 0, RFC 6946) is a whole packet.
  bool IsFragment() const {
    return has_fragment_header && (more_fragments || fragment_offset != 0);
  }
};

// IPv6 is a read-only view of an IPv6 packet (or, from ParsePrefix, of its
// first bytes).
//
// RFC 8200 section 3:
//
//    0                   1                   2                   3
//    0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
//   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//   |Version| Traffic Class |           Flow Label                  |
//   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//   |         Payload Length        |  Next Header  |   Hop Limit   |
//   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//   |                                                               |
//   +                                                               +
//   |                                                               |
//   +                         Source Address                        +
//   |                                                               |
//   +                                                               +
//   |                                                               |
//   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//   |                                                               |
//   +                                                               +
//   |                                                               |
//   +                      Destination Address                      +
//   |                                                               |
//   +                                                               +
//   |                                                               |
//   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
class IPv6 {
 public:
  // kSize is the size of the fixed header.
  static constexpr size_t kSize = 40;
  // kFragmentHeaderSize is the size of a Fragment header.
  static constexpr size_t kFragmentHeaderSize = 8;

  // Where each field of the fixed header starts, in bytes from its first
  // (the diagram above). Version, Traffic Class and Flow Label share the
  // 32-bit word at kVersionClassFlowOffset.
  static constexpr size_t kVersionClassFlowOffset = 0;
  static constexpr size_t kPayloadLengthOffset = 4;
  static constexpr size_t kNextHeaderOffset = 6;
  static constexpr size_t kHopLimitOffset = 7;
  static constexpr size_t kSourceOffset = 8;
  static constexpr size_t kDestinationOffset = 24;

  // Parse returns a view of the packet at the start of `packet`, which must
  // hold all of it: 40 + Payload Length bytes (more are allowed and are not
  // part of the view). Errors: kTruncated (fewer bytes), kBadVersion
  // (Version is not 6). Extension headers are checked by
  // WalkExtensionHeaders.
  static Result<IPv6> Parse(std::span<const uint8_t> packet);

  // ParsePrefix is Parse for bytes that hold the fixed header but possibly
  // not the whole packet (an ICMPv6 error's quote, a chained packet's first
  // part); payload() returns the bytes present.
  static Result<IPv6> ParsePrefix(std::span<const uint8_t> packet);

  // Encode writes the header described by `fields` to the start of `out`:
  // kBufferTooSmall when `out` holds fewer than 40 bytes, kBadField when the
  // flow label does not fit in 20 bits.
  static Error Encode(const IPv6Fields& fields, std::span<uint8_t> out);

  // EncodeFragmentHeader writes a Fragment header (RFC 8200 section 4.5) to
  // the start of `out`. `offset` is in bytes, a multiple of 8 below 65536.
  // Errors: kBufferTooSmall, kBadField.
  static Error EncodeFragmentHeader(uint8_t next_header, uint32_t offset,
                                    bool more_fragments, uint32_t id,
                                    std::span<uint8_t> out);

  // version returns the Version field: 6.
  uint8_t version() const { return data_[0] >> 4; }
  // traffic_class returns the Traffic Class byte (DSCP and ECN).
  uint8_t traffic_class() const {
    return static_cast<uint8_t>(LoadBig16(data_.data()) >> 4);
  }
  // dscp returns the Differentiated Services codepoint (RFC 2474).
  uint8_t dscp() const { return traffic_class() >> 2; }
  // ecn returns the ECN field (RFC 3168).
  uint8_t ecn() const { return traffic_class() & 3; }
  // flow_label returns the 20-bit Flow Label.
  uint32_t flow_label() const { return LoadBig32(data_.data()) & 0xfffff; }
  // payload_length returns the Payload Length field.
  uint16_t payload_length() const { return LoadBig16(data_.data() + 4); }
  // next_header returns the Next Header field of the fixed header.
  uint8_t next_header() const { return data_[6]; }
  // hop_limit returns the Hop Limit field.
  uint8_t hop_limit() const { return data_[7]; }
  // source returns the Source Address.
  IPv6Address source() const { return IPv6Address::From(data_.data() + 8); }
  // destination returns the Destination Address.
  IPv6Address destination() const {
    return IPv6Address::From(data_.data() + 24);
  }
  // fields returns the fixed header's fields.
  IPv6Fields fields() const;

  // WalkExtensionHeaders follows the Next Header chain from the fixed header
  // to the upper-layer header (RFC 8200 section 4). It knows Hop-by-Hop
  // Options (0), Routing (43), Fragment (44), Destination Options (60),
  // Authentication (51, whose length counts 4-octet units minus 2: RFC 4302
  // section 2.2), Mobility (135), HIP (139) and Shim6 (140); any other value
  // is the upper-layer protocol. It validates the TLV options of Hop-by-Hop
  // and Destination Options headers (RFC 8200 section 4.2). Errors:
  //   kTruncated               a header runs past the bytes present but not
  //                            past the Payload Length (ParsePrefix views);
  //   kBadExtensionHeader      a header runs past the Payload Length;
  //   kHopByHopNotFirst        a Hop-by-Hop header after the first one;
  //   kBadOptionLength         an option runs past its header;
  //   kTooManyExtensionHeaders more than kMaxExtensionHeaders headers;
  //   kBadFragment             RFC 8200 section 4.5: a fragment with M set
  //                            whose length is not a multiple of 8, or an
  //                            offset + length past 65535.
  Result<IPv6Chain> WalkExtensionHeaders() const;

  // bytes returns the view: the packet (Parse) or its bytes present
  // (ParsePrefix).
  std::span<const uint8_t> bytes() const { return data_; }
  // header returns the 40-byte fixed header.
  std::span<const uint8_t> header() const { return data_.first(kSize); }
  // payload returns the bytes after the fixed header present in the view.
  std::span<const uint8_t> payload() const { return data_.subspan(kSize); }

 protected:
  explicit IPv6(std::span<const uint8_t> data) : data_(data) {}
  static Result<IPv6> DoParse(std::span<const uint8_t> packet, bool whole);

  std::span<const uint8_t> data_;
};

// MutableIPv6 is an IPv6 view that can also change the fixed header. IPv6
// has no header checksum; changing an address changes the transport
// checksum's pseudo-header, which is the caller's to update.
class MutableIPv6 : public IPv6 {
 public:
  // Parse is IPv6::Parse for writable bytes.
  static Result<MutableIPv6> Parse(std::span<uint8_t> packet);
  // ParsePrefix is IPv6::ParsePrefix for writable bytes.
  static Result<MutableIPv6> ParsePrefix(std::span<uint8_t> packet);

  void SetTrafficClass(uint8_t v);
  // SetFlowLabel sets the 20-bit flow label; higher bits are ignored.
  void SetFlowLabel(uint32_t v);
  void SetPayloadLength(uint16_t v) { StoreBig16(p() + 4, v); }
  void SetNextHeader(uint8_t v) { p()[6] = v; }
  void SetHopLimit(uint8_t v) { p()[7] = v; }
  void SetSource(const IPv6Address& a) { a.CopyTo(p() + 8); }
  void SetDestination(const IPv6Address& a) { a.CopyTo(p() + 24); }
  // DecrementHopLimit lowers a non-zero Hop Limit by one and returns it; a
  // Hop Limit of 0 is left as it is, and 0 is returned.
  uint8_t DecrementHopLimit();

 private:
  explicit MutableIPv6(const IPv6& v) : IPv6(v) {}
  uint8_t* p() const { return const_cast<uint8_t*>(data_.data()); }
};

}  // namespace ipsum::header

#endif  // IPSUM_HEADER_IPV6_H_
