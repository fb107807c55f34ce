// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Ethernet II header parsing and encoding.

#include "header/ethernet.h"

#include "checksum/endian.h"

namespace ipsum::header {
namespace {

// A tag's TCI follows its TPID, which sits where the EtherType would.
constexpr size_t kTciOffset = 2;

bool IsTpid(uint16_t type) {
  return type == kEtherTypeVlan || type == kEtherTypeQinQ;
}

}  // namespace

Result<Ethernet> Ethernet::Parse(std::span<const uint8_t> frame) {
  if (frame.size() < kMinSize) return Error::kTruncated;
  uint8_t tags = 0;
  size_t type_offset = kEtherTypeOffset;
  while (tags < 2 && IsTpid(LoadBig16(frame.data() + type_offset))) {
    // The tag's TCI and the next EtherType must be present.
    if (frame.size() < type_offset + kTagSize + 2) return Error::kTruncated;
    ++tags;
    type_offset += kTagSize;
  }
  return Ethernet(frame, tags);
}

VlanTag Ethernet::tag(size_t i) const {
  const uint8_t* p = data_.data() + kEtherTypeOffset + kTagSize * i;
  uint16_t tci = LoadBig16(p + kTciOffset);
  VlanTag t;
  t.tpid = LoadBig16(p);
  t.pcp = static_cast<uint8_t>(tci >> 13);
  t.dei = (tci >> 12) & 1;
  t.vid = tci & 0x0fff;
  return t;
}

uint16_t Ethernet::ether_type() const {
  return LoadBig16(data_.data() + kEtherTypeOffset + kTagSize * tag_count_);
}

EthernetFields Ethernet::fields() const {
  EthernetFields f;
  f.destination = destination();
  f.source = source();
  f.tag_count = tag_count_;
  for (uint8_t i = 0; i < tag_count_; ++i) f.tags[i] = tag(i);
  f.ether_type = ether_type();
  return f;
}

Error Ethernet::Encode(const EthernetFields& fields, std::span<uint8_t> out) {
  if (fields.tag_count > 2) return Error::kBadField;
  for (uint8_t i = 0; i < fields.tag_count; ++i) {
    const VlanTag& t = fields.tags[i];
    if (!IsTpid(t.tpid) || t.pcp > 7 || t.vid > 0x0fff) return Error::kBadField;
  }
  if (out.size() < HeaderSize(fields)) return Error::kBufferTooSmall;
  uint8_t* p = out.data();
  fields.destination.CopyTo(p + kDestinationOffset);
  fields.source.CopyTo(p + kSourceOffset);
  size_t offset = kEtherTypeOffset;
  for (uint8_t i = 0; i < fields.tag_count; ++i) {
    const VlanTag& t = fields.tags[i];
    StoreBig16(p + offset, t.tpid);
    StoreBig16(p + offset + kTciOffset,
               static_cast<uint16_t>((t.pcp << 13) | (t.dei << 12) | t.vid));
    offset += kTagSize;
  }
  StoreBig16(p + offset, fields.ether_type);
  return Error::kOk;
}

Result<MutableEthernet> MutableEthernet::Parse(std::span<uint8_t> frame) {
  Result<Ethernet> r = Ethernet::Parse(frame);
  if (!r.ok()) return r.error();
  return MutableEthernet(*r);
}

void MutableEthernet::SetEtherType(uint16_t type) {
  StoreBig16(mutable_data() + kEtherTypeOffset + kTagSize * tag_count_, type);
}

}  // namespace ipsum::header
