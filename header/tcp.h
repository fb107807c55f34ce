// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// TCP headers (RFC 9293): a read-only view `TCP`, a writable view
// `MutableTCP`, `TCPFields` + `Encode`, and the TCP options: `TCPOptions`,
// `ParseTCPOptions` and `EncodeTCPOptions` for Maximum Segment Size (RFC 9293
// section 3.2), Window Scale and Timestamps (RFC 7323), SACK-Permitted and
// SACK (RFC 2018).
//
// `TCP::Parse` checks the fixed header and the data offset; the options are
// parsed on demand (`TCP::ParseOptions`), as a receiver on the fast path may
// not need them. A malformed option list is reported (kBadOptionLength), as
// RFC 9293 section 3.1 requires ("a TCP implementation MUST be prepared to
// handle an illegal option length (e.g., zero)"), never overrun; unknown
// options are skipped by their length.
//
// Checksums take the pseudo-header's sum (header/checksum.h) and the
// payload's sum, so a payload in a chained buffer is summed where it lies.

#ifndef IPSUM_HEADER_TCP_H_
#define IPSUM_HEADER_TCP_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "checksum/checksum.h"
#include "checksum/endian.h"
#include "header/error.h"

namespace ipsum::header {

// TCP control bits (RFC 9293 section 3.1; CWR and ECE from RFC 3168).
inline constexpr uint8_t kTCPFlagFin = 0x01;
inline constexpr uint8_t kTCPFlagSyn = 0x02;
inline constexpr uint8_t kTCPFlagRst = 0x04;
inline constexpr uint8_t kTCPFlagPsh = 0x08;
inline constexpr uint8_t kTCPFlagAck = 0x10;
inline constexpr uint8_t kTCPFlagUrg = 0x20;
inline constexpr uint8_t kTCPFlagEce = 0x40;
inline constexpr uint8_t kTCPFlagCwr = 0x80;

// TCP option kinds beyond End of Option List (0) and No-Operation (1).
inline constexpr uint8_t kTCPOptionMSS = 2;            // RFC 9293 3.2
inline constexpr uint8_t kTCPOptionWindowScale = 3;    // RFC 7323 2.2
inline constexpr uint8_t kTCPOptionSackPermitted = 4;  // RFC 2018 2
inline constexpr uint8_t kTCPOptionSack = 5;           // RFC 2018 3
inline constexpr uint8_t kTCPOptionTimestamps = 8;     // RFC 7323 3.2

// SackBlock is one block of a SACK option: the sequence numbers of its
// left edge and of the byte after its right edge.
struct SackBlock {
  uint32_t left = 0;
  uint32_t right = 0;
  friend bool operator==(const SackBlock&, const SackBlock&) = default;
};

// TCPTimestamps is the value of a Timestamps option (RFC 7323 section 3.2).
struct TCPTimestamps {
  uint32_t value = 0;
  uint32_t echo_reply = 0;
  friend bool operator==(const TCPTimestamps&, const TCPTimestamps&) = default;
};

// kMaxSackBlocks is the most SACK blocks that fit in the option space.
inline constexpr size_t kMaxSackBlocks = 4;

// TCPOptions holds the options this package knows. An option absent from
// the segment is nullopt / false / zero blocks.
struct TCPOptions {
  std::optional<uint16_t> mss;
  // window_scale is the shift count as sent; RFC 7323 section 2.3 says a
  // receiver uses 14 for any value above 14.
  std::optional<uint8_t> window_scale;
  bool sack_permitted = false;
  std::optional<TCPTimestamps> timestamps;
  uint8_t sack_block_count = 0;
  std::array<SackBlock, kMaxSackBlocks> sack_blocks{};

  friend bool operator==(const TCPOptions&, const TCPOptions&) = default;
};

// ParseTCPOptions parses the option area `area` (the bytes between the
// fixed header and the data offset). Unknown kinds are skipped by their
// length. Errors: kBadOptionLength when an option's length is below 2 or
// runs past `area`, or a known option has the wrong length (MSS 4, Window
// Scale 3, SACK-Permitted 2, Timestamps 10, SACK 2 + 8n with n in 1..4).
// A repeated option's last instance wins.
Result<TCPOptions> ParseTCPOptions(std::span<const uint8_t> area);

// TCPOptionsSize returns the number of bytes EncodeTCPOptions writes for
// `options`: a multiple of 4.
size_t TCPOptionsSize(const TCPOptions& options);

// EncodeTCPOptions writes `options` to the start of `out`, each option
// 4-byte aligned the way common stacks send them (MSS; SACK-Permitted and
// Timestamps together or each after two NOPs; NOP + Window Scale; two NOPs
// + SACK), and returns the number of bytes written, a multiple of 4.
// Errors: kBadField when the options need more than 40 bytes or
// sack_block_count > 4; kBufferTooSmall when `out` is shorter than
// TCPOptionsSize(options).
Result<size_t> EncodeTCPOptions(const TCPOptions& options,
                                std::span<uint8_t> out);

// TCPFields holds the values to Encode into a TCP header.
struct TCPFields {
  uint16_t source_port = 0;
  uint16_t destination_port = 0;
  uint32_t seq = 0;
  uint32_t ack = 0;
  // flags holds the control bits, kTCPFlag*.
  uint8_t flags = 0;
  uint16_t window = 0;
  // checksum is stored as given; compute it afterwards with
  // MutableTCP::SetChecksum(ComputeChecksum(...)).
  uint16_t checksum = 0;
  uint16_t urgent_pointer = 0;
  // options are the encoded option bytes (EncodeTCPOptions), a multiple of
  // 4 and at most 40 bytes.
  std::span<const uint8_t> options;
};

// TCP is a read-only view of a TCP segment: its header and whatever part of
// its payload the bytes hold.
//
// RFC 9293 section 3.1:
//
//    0                   1                   2                   3
//    0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
//   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//   |          Source Port          |       Destination Port        |
//   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//   |                        Sequence Number                        |
//   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//   |                    Acknowledgment Number                      |
//   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//   |  Data |       |C|E|U|A|P|R|S|F|                               |
//   | Offset| Rsrvd |W|C|R|C|S|S|Y|I|            Window             |
//   |       |       |R|E|G|K|H|T|N|N|                               |
//   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//   |           Checksum            |         Urgent Pointer        |
//   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//   |                           [Options]                           |
//   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//   |                                                               :
//   :                             Data                              :
//   :                                                               |
//   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
class TCP {
 public:
  // kMinSize is the size of a header without options.
  static constexpr size_t kMinSize = 20;
  // kMaxSize is the size of a header with 40 bytes of options.
  static constexpr size_t kMaxSize = 60;
  // Where each field starts, in bytes from the header's first (the diagram
  // above). Data Offset is the high 4 bits of the byte at
  // kDataOffsetOffset, in 32-bit words.
  static constexpr size_t kSourcePortOffset = 0;
  static constexpr size_t kDestinationPortOffset = 2;
  static constexpr size_t kSeqOffset = 4;
  static constexpr size_t kAckOffset = 8;
  static constexpr size_t kDataOffsetOffset = 12;
  static constexpr size_t kFlagsOffset = 13;
  static constexpr size_t kWindowOffset = 14;
  static constexpr size_t kChecksumOffset = 16;
  static constexpr size_t kUrgentPointerOffset = 18;

  // Parse returns a view of the segment at the start of `segment`, which
  // must hold at least the whole header. Errors: kTruncated (fewer than 20
  // bytes or than the data offset), kBadHeaderLength (Data Offset < 5).
  static Result<TCP> Parse(std::span<const uint8_t> segment);

  // Encode writes the header described by `fields` to the start of `out`.
  // Errors: kBadField (options not a multiple of 4 or longer than 40),
  // kBufferTooSmall (`out` shorter than 20 + options).
  static Error Encode(const TCPFields& fields, std::span<uint8_t> out);

  uint16_t source_port() const { return LoadBig16(data_.data()); }
  uint16_t destination_port() const { return LoadBig16(data_.data() + 2); }
  uint32_t seq() const { return LoadBig32(data_.data() + 4); }
  uint32_t ack() const { return LoadBig32(data_.data() + 8); }
  // data_offset returns the header length in bytes (Data Offset * 4).
  size_t data_offset() const { return static_cast<size_t>(data_[12] >> 4) * 4; }
  // flags returns the eight control bits, kTCPFlag*.
  uint8_t flags() const { return data_[13]; }
  uint16_t window() const { return LoadBig16(data_.data() + 14); }
  uint16_t checksum() const { return LoadBig16(data_.data() + 16); }
  uint16_t urgent_pointer() const { return LoadBig16(data_.data() + 18); }
  // options returns the option area.
  std::span<const uint8_t> options() const {
    return data_.subspan(kMinSize, data_offset() - kMinSize);
  }
  // ParseOptions is ParseTCPOptions(options()).
  Result<TCPOptions> ParseOptions() const { return ParseTCPOptions(options()); }
  // fields returns the header's fields; `options` points into the view.
  TCPFields fields() const;

  // header returns the header, options included.
  std::span<const uint8_t> header() const { return data_.first(data_offset()); }
  // payload returns the bytes after the header present in the view.
  std::span<const uint8_t> payload() const {
    return data_.subspan(data_offset());
  }
  // bytes returns the whole view.
  std::span<const uint8_t> bytes() const { return data_; }

  // ComputeChecksum returns the value the Checksum field should hold:
  // `pseudo_sum` is PseudoHeaderSum(...) with the segment length, and
  // `payload_sum` the sum of the payload (which follows the header).
  uint16_t ComputeChecksum(uint16_t pseudo_sum, uint16_t payload_sum) const;
  // ComputeChecksum is the above with the payload taken from payload().
  uint16_t ComputeChecksum(uint16_t pseudo_sum) const {
    return ComputeChecksum(pseudo_sum, checksum::Checksum(payload()));
  }
  // IsChecksumValid reports whether the pseudo-header, header and payload
  // sum to 0xffff.
  bool IsChecksumValid(uint16_t pseudo_sum, uint16_t payload_sum) const;
  // IsChecksumValid is the above with the payload taken from payload().
  bool IsChecksumValid(uint16_t pseudo_sum) const {
    return IsChecksumValid(pseudo_sum, checksum::Checksum(payload()));
  }

 protected:
  explicit TCP(std::span<const uint8_t> data) : data_(data) {}

  std::span<const uint8_t> data_;
};

// MutableTCP is a TCP view that can also change the header. Plain setters
// leave the checksum stale; those ending in AndUpdateChecksum adjust it by
// RFC 1624.
class MutableTCP : public TCP {
 public:
  // Parse is TCP::Parse for writable bytes.
  static Result<MutableTCP> Parse(std::span<uint8_t> segment);

  void SetSourcePort(uint16_t v) { StoreBig16(p(), v); }
  void SetDestinationPort(uint16_t v) { StoreBig16(p() + 2, v); }
  void SetSeq(uint32_t v) { StoreBig32(p() + 4, v); }
  void SetAck(uint32_t v) { StoreBig32(p() + 8, v); }
  void SetFlags(uint8_t v) { p()[13] = v; }
  void SetWindow(uint16_t v) { StoreBig16(p() + 14, v); }
  void SetChecksum(uint16_t v) { StoreBig16(p() + kChecksumOffset, v); }
  void SetUrgentPointer(uint16_t v) { StoreBig16(p() + 18, v); }

  // SetSourcePortAndUpdateChecksum sets the source port and adjusts the
  // checksum (NAPT).
  void SetSourcePortAndUpdateChecksum(uint16_t port);
  // SetDestinationPortAndUpdateChecksum sets the destination port and
  // adjusts the checksum.
  void SetDestinationPortAndUpdateChecksum(uint16_t port);
  // UpdateChecksumForAddressChange adjusts the checksum for a change of a
  // pseudo-header address (NAT rewriting the IP header) from `old_address`
  // to `new_address`, 4 or 16 bytes each.
  void UpdateChecksumForAddressChange(std::span<const uint8_t> old_address,
                                      std::span<const uint8_t> new_address);

 private:
  explicit MutableTCP(const TCP& v) : TCP(v) {}
  uint8_t* p() const { return const_cast<uint8_t*>(data_.data()); }
};

}  // namespace ipsum::header

#endif  // IPSUM_HEADER_TCP_H_
