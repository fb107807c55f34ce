// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// UDP headers (RFC 768): a read-only view `UDP`, a writable view
// `MutableUDP`, and `UDPFields` + `Encode`.
//
// UDP's checksum has two special values. Over IPv4 a checksum field of 0
// means the sender computed none (RFC 768: "An all zero transmitted checksum
// value means that the transmitter generated no checksum"); over IPv6 it is
// illegal (RFC 8200 section 8.1: "IPv6 receivers must discard UDP packets
// containing a zero checksum"). A computed checksum of 0 is therefore sent
// as 0xffff (RFC 768: "If the computed checksum is zero, it is transmitted
// as all ones"). ComputeChecksum, IsChecksumValid and the incremental
// updates all follow these rules.

#ifndef IPSUM_HEADER_UDP_H_
#define IPSUM_HEADER_UDP_H_

#include <cstddef>
#include <cstdint>
#include <span>

#include "checksum/checksum.h"
#include "checksum/endian.h"
#include "header/error.h"
#include "header/protocol.h"

namespace ipsum::header {

// UDPFields holds the values to Encode into a UDP header.
struct UDPFields {
  uint16_t source_port = 0;
  uint16_t destination_port = 0;
  // length counts the header and the data, in bytes (8 or more).
  uint16_t length = 0;
  // checksum is stored as given; compute it afterwards with
  // MutableUDP::SetChecksum(ComputeChecksum(...)), or leave 0 over IPv4 for
  // "no checksum".
  uint16_t checksum = 0;

  friend bool operator==(const UDPFields&, const UDPFields&) = default;
};

// UDP is a read-only view of a UDP datagram (or, from ParsePrefix, of its
// first bytes).
//
// RFC 768:
//
//    0      7 8     15 16    23 24    31
//   +--------+--------+--------+--------+
//   |     Source      |   Destination   |
//   |      Port       |      Port       |
//   +--------+--------+--------+--------+
//   |                 |                 |
//   |     Length      |    Checksum     |
//   +--------+--------+--------+--------+
//   |
//   |          data octets ...
//   +---------------- ...
class UDP {
 public:
  // kSize is the size of the header.
  static constexpr size_t kSize = 8;
  // Where each field starts, in bytes from the header's first (the diagram
  // above).
  static constexpr size_t kSourcePortOffset = 0;
  static constexpr size_t kDestinationPortOffset = 2;
  static constexpr size_t kLengthOffset = 4;
  static constexpr size_t kChecksumOffset = 6;

  // Parse returns a view of the datagram at the start of `datagram`, which
  // must hold all of it: Length bytes (more, e.g. IP padding, are allowed
  // and are not part of the view). Errors: kTruncated (fewer than 8 bytes
  // or than Length), kBadLength (Length < 8).
  static Result<UDP> Parse(std::span<const uint8_t> datagram);
  // ParsePrefix is Parse for bytes that hold the header but possibly not
  // the whole datagram (an ICMP error's quote, a chained packet's first
  // part); payload() returns the bytes present.
  static Result<UDP> ParsePrefix(std::span<const uint8_t> datagram);

  // Encode writes the header described by `fields` to the start of `out`:
  // kBufferTooSmall when `out` holds fewer than 8 bytes, kBadField when
  // Length < 8.
  static Error Encode(const UDPFields& fields, std::span<uint8_t> out);

  uint16_t source_port() const { return LoadBig16(data_.data()); }
  uint16_t destination_port() const { return LoadBig16(data_.data() + 2); }
  // length returns the Length field: header plus data, in bytes.
  uint16_t length() const { return LoadBig16(data_.data() + 4); }
  uint16_t checksum() const { return LoadBig16(data_.data() + 6); }
  // fields returns the header's fields.
  UDPFields fields() const;

  // header returns the 8-byte header.
  std::span<const uint8_t> header() const { return data_.first(kSize); }
  // payload returns the data bytes present in the view.
  std::span<const uint8_t> payload() const { return data_.subspan(kSize); }
  // bytes returns the whole view.
  std::span<const uint8_t> bytes() const { return data_; }

  // ComputeChecksum returns the value the Checksum field should hold, 0
  // never (a computed 0 is returned as 0xffff). `pseudo_sum` is
  // PseudoHeaderSum(...) with length(), `payload_sum` the sum of the data.
  uint16_t ComputeChecksum(uint16_t pseudo_sum, uint16_t payload_sum) const;
  // ComputeChecksum is the above with the data taken from payload().
  uint16_t ComputeChecksum(uint16_t pseudo_sum) const {
    return ComputeChecksum(pseudo_sum, checksum::Checksum(payload()));
  }
  // IsChecksumValid reports whether the checksum is right: over IPv4 a
  // Checksum field of 0 ("no checksum") is valid, over IPv6 it never is;
  // otherwise the pseudo-header, header and data must sum to 0xffff.
  bool IsChecksumValid(uint16_t pseudo_sum, uint16_t payload_sum,
                       IPVersion version) const;
  // IsChecksumValid is the above with the data taken from payload().
  bool IsChecksumValid(uint16_t pseudo_sum, IPVersion version) const {
    return IsChecksumValid(pseudo_sum, checksum::Checksum(payload()), version);
  }

 protected:
  explicit UDP(std::span<const uint8_t> data) : data_(data) {}
  static Result<UDP> DoParse(std::span<const uint8_t> datagram, bool whole);

  std::span<const uint8_t> data_;
};

// MutableUDP is a UDP view that can also change the header. Plain setters
// leave the checksum stale; those ending in AndUpdateChecksum adjust it by
// RFC 1624, leaving a 0 ("no checksum") Checksum field 0.
class MutableUDP : public UDP {
 public:
  // Parse is UDP::Parse for writable bytes.
  static Result<MutableUDP> Parse(std::span<uint8_t> datagram);
  // ParsePrefix is UDP::ParsePrefix for writable bytes.
  static Result<MutableUDP> ParsePrefix(std::span<uint8_t> datagram);

  void SetSourcePort(uint16_t v) { StoreBig16(p(), v); }
  void SetDestinationPort(uint16_t v) { StoreBig16(p() + 2, v); }
  void SetLength(uint16_t v) { StoreBig16(p() + 4, v); }
  void SetChecksum(uint16_t v) { StoreBig16(p() + kChecksumOffset, v); }

  // SetSourcePortAndUpdateChecksum sets the source port and adjusts the
  // checksum (NAPT).
  void SetSourcePortAndUpdateChecksum(uint16_t port);
  // SetDestinationPortAndUpdateChecksum sets the destination port and
  // adjusts the checksum.
  void SetDestinationPortAndUpdateChecksum(uint16_t port);
  // UpdateChecksumForAddressChange adjusts the checksum for a change of a
  // pseudo-header address from `old_address` to `new_address` (4 or 16
  // bytes each).
  void UpdateChecksumForAddressChange(std::span<const uint8_t> old_address,
                                      std::span<const uint8_t> new_address);

 private:
  explicit MutableUDP(const UDP& v) : UDP(v) {}
  uint8_t* p() const { return const_cast<uint8_t*>(data_.data()); }
};

}  // namespace ipsum::header

#endif  // IPSUM_HEADER_UDP_H_
