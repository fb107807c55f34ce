// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Transport checksums and UDP checksum updates (the pseudo-header sums are
// inline in the header).

#include "header/checksum.h"

#include "checksum/endian.h"
#include "checksum/update.h"

namespace ipsum::header {

using checksum::Checksum;
using checksum::Combine;
using checksum::CombineAt;

uint16_t ComputeTransportChecksum(uint16_t pseudo_sum,
                                  std::span<const uint8_t> header,
                                  size_t checksum_offset,
                                  uint16_t payload_sum) {
  // Sum the header around the field, as if it held zero. (Summing it whole
  // and adding ~stored back turned a zero sum into 0xffff, so an all-zero
  // message, e.g. an ICMPv4 echo reply with identifier, sequence and data
  // all 0, got 0x0000 instead of 0xffff and failed verification.) The field
  // sits at an even offset in every protocol that calls this.
  uint16_t sum = Checksum(header.first(checksum_offset), pseudo_sum);
  sum = Checksum(header.subspan(checksum_offset + 2), sum);
  sum = CombineAt(sum, payload_sum, header.size());
  return static_cast<uint16_t>(~sum);
}

bool IsTransportChecksumValid(uint16_t pseudo_sum,
                              std::span<const uint8_t> header,
                              uint16_t payload_sum) {
  uint16_t sum = Checksum(header, pseudo_sum);
  return CombineAt(sum, payload_sum, header.size()) == 0xffff;
}

uint16_t UpdateUDPChecksum(uint16_t checksum, uint16_t old_sum,
                           uint16_t new_sum) {
  // RFC 768: "An all zero transmitted checksum value means that the
  // transmitter generated no checksum".
  if (checksum == 0) return 0;
  uint16_t updated = checksum::UpdateChecksum16(checksum, old_sum, new_sum);
  // RFC 768: "If the computed checksum is zero, it is transmitted as all
  // ones".
  return updated == 0 ? 0xffff : updated;
}

}  // namespace ipsum::header
