// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Ethernet II frame headers, with up to two IEEE 802.1Q VLAN tags (a single
// C-tag, TPID 0x8100, or an 802.1ad "QinQ" S-tag, TPID 0x88a8 or 0x8100,
// followed by a C-tag). The frame check sequence is not part of the view:
// NICs and capture files strip it.
//
// `Ethernet` is a read-only view over a frame's bytes; `MutableEthernet` adds
// setters. Obtain either with `Parse`, which checks the bytes hold the whole
// header (tags included) before any accessor reads them.

#ifndef IPSUM_HEADER_ETHERNET_H_
#define IPSUM_HEADER_ETHERNET_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "header/address.h"
#include "header/error.h"

namespace ipsum::header {

// EtherType values (IEEE 802 numbers) this package knows.
inline constexpr uint16_t kEtherTypeIPv4 = 0x0800;
inline constexpr uint16_t kEtherTypeARP = 0x0806;
inline constexpr uint16_t kEtherTypeVlan = 0x8100;  // 802.1Q C-tag TPID
inline constexpr uint16_t kEtherTypeIPv6 = 0x86dd;
inline constexpr uint16_t kEtherTypeQinQ = 0x88a8;  // 802.1ad S-tag TPID

// VlanTag is one 802.1Q tag: the TPID that introduces it and its Tag Control
// Information, split into its fields.
struct VlanTag {
  // tpid is the tag protocol identifier, 0x8100 or 0x88a8.
  uint16_t tpid = kEtherTypeVlan;
  // pcp is the 3-bit priority code point.
  uint8_t pcp = 0;
  // dei is the drop eligible indicator bit.
  bool dei = false;
  // vid is the 12-bit VLAN identifier.
  uint16_t vid = 0;

  friend bool operator==(const VlanTag&, const VlanTag&) = default;
};

// EthernetFields holds the values to Encode into an Ethernet header.
struct EthernetFields {
  MacAddress destination{};
  MacAddress source{};
  // tag_count is the number of VLAN tags, 0, 1 or 2; tags[0] is the outer.
  uint8_t tag_count = 0;
  std::array<VlanTag, 2> tags{};
  // ether_type is the type of the payload, after any tags.
  uint16_t ether_type = 0;

  friend bool operator==(const EthernetFields&,
                         const EthernetFields&) = default;
};

// Ethernet is a read-only view of an Ethernet II header and the payload that
// follows it.
//
//    0                   1                   2                   3
//    0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
//   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//   |                    Destination MAC Address                    |
//   +                               +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//   |                               |                               |
//   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+                               +
//   |                      Source MAC Address                       |
//   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//   |     EtherType (or TPID)       |  [PCP|D|  VID  ] (if tagged)  |
//   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//   |  [EtherType or inner TPID]    |  ...                          |
//   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
class Ethernet {
 public:
  // kMinSize is the size of an untagged header.
  static constexpr size_t kMinSize = 14;
  // kTagSize is the size of one VLAN tag (TPID + TCI).
  static constexpr size_t kTagSize = 4;
  // kMaxSize is the size of a header with two tags.
  static constexpr size_t kMaxSize = kMinSize + 2 * kTagSize;
  // Where each field starts, in bytes from the header's first (the diagram
  // above); kEtherTypeOffset is where an untagged header's EtherType (or the
  // first tag's TPID) sits.
  static constexpr size_t kDestinationOffset = 0;
  static constexpr size_t kSourceOffset = 6;
  static constexpr size_t kEtherTypeOffset = 12;

  // Parse returns a view of the frame in `frame` when it holds a whole
  // header: kTruncated otherwise. A TPID of 0x8100 or 0x88a8 where the
  // EtherType would be introduces a tag; at most two tags are read, so a
  // third TPID is reported as the EtherType.
  static Result<Ethernet> Parse(std::span<const uint8_t> frame);

  // HeaderSize returns the number of bytes Encode writes for `fields`.
  static size_t HeaderSize(const EthernetFields& fields) {
    return kMinSize + kTagSize * fields.tag_count;
  }

  // Encode writes the header described by `fields` to the start of `out`:
  // kBufferTooSmall when `out` is shorter than HeaderSize(fields),
  // kBadField when tag_count > 2 or a tag field is out of range (a TPID
  // other than 0x8100 or 0x88a8, a PCP above 7, a VID above 4095).
  static Error Encode(const EthernetFields& fields, std::span<uint8_t> out);

  // destination returns the destination MAC address.
  MacAddress destination() const { return MacAddress::From(data_.data()); }
  // source returns the source MAC address.
  MacAddress source() const { return MacAddress::From(data_.data() + 6); }
  // tag_count returns the number of VLAN tags, 0, 1 or 2.
  uint8_t tag_count() const { return tag_count_; }
  // tag returns VLAN tag `i` (0 is the outer). Requires i < tag_count().
  VlanTag tag(size_t i) const;
  // ether_type returns the EtherType of the payload, after any tags.
  uint16_t ether_type() const;
  // header_size returns the size of the header, tags included.
  size_t header_size() const { return kMinSize + kTagSize * tag_count_; }
  // fields returns every field of the header.
  EthernetFields fields() const;

  // bytes returns the whole frame the view was parsed from.
  std::span<const uint8_t> bytes() const { return data_; }
  // payload returns the bytes after the header.
  std::span<const uint8_t> payload() const {
    return data_.subspan(header_size());
  }

 protected:
  Ethernet(std::span<const uint8_t> data, uint8_t tag_count)
      : data_(data), tag_count_(tag_count) {}

  std::span<const uint8_t> data_;
  uint8_t tag_count_;
};

// MutableEthernet is an Ethernet view that can also change the header.
class MutableEthernet : public Ethernet {
 public:
  // Parse is Ethernet::Parse for writable bytes.
  static Result<MutableEthernet> Parse(std::span<uint8_t> frame);

  // SetDestination sets the destination MAC address.
  void SetDestination(const MacAddress& a) { a.CopyTo(mutable_data()); }
  // SetSource sets the source MAC address.
  void SetSource(const MacAddress& a) { a.CopyTo(mutable_data() + 6); }
  // SetEtherType sets the EtherType of the payload (after any tags).
  void SetEtherType(uint16_t type);

 private:
  explicit MutableEthernet(const Ethernet& e) : Ethernet(e) {}
  uint8_t* mutable_data() const { return const_cast<uint8_t*>(data_.data()); }
};

}  // namespace ipsum::header

#endif  // IPSUM_HEADER_ETHERNET_H_
