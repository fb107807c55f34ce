// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// TCP header and option parsing, encoding and checksums.

#include "header/tcp.h"

#include <cstring>

#include "checksum/update.h"
#include "header/checksum.h"
#include "header/protocol.h"

namespace ipsum::header {
namespace {

// Option lengths, kind and length bytes included.
constexpr size_t kMSSLength = 4;            // RFC 9293 section 3.2
constexpr size_t kWindowScaleLength = 3;    // RFC 7323 section 2.2
constexpr size_t kSackPermittedLength = 2;  // RFC 2018 section 2
constexpr size_t kTimestampsLength = 10;    // RFC 7323 section 3.2
constexpr size_t kSackBlockLength = 8;      // RFC 2018 section 3
constexpr size_t kMaxOptionsLength = TCP::kMaxSize - TCP::kMinSize;

}  // namespace

Result<TCPOptions> ParseTCPOptions(std::span<const uint8_t> area) {
  TCPOptions o;
  Error e = WalkOptions(area, [&o](const Option& opt) {
    const uint8_t* d = opt.data.data();
    size_t length = opt.data.size() + 2;
    switch (opt.kind) {
      case kTCPOptionMSS:
        if (length != kMSSLength) return Error::kBadOptionLength;
        o.mss = LoadBig16(d);
        break;
      case kTCPOptionWindowScale:
        if (length != kWindowScaleLength) return Error::kBadOptionLength;
        o.window_scale = d[0];
        break;
      case kTCPOptionSackPermitted:
        if (length != kSackPermittedLength) return Error::kBadOptionLength;
        o.sack_permitted = true;
        break;
      case kTCPOptionTimestamps:
        if (length != kTimestampsLength) return Error::kBadOptionLength;
        o.timestamps = TCPTimestamps{LoadBig32(d), LoadBig32(d + 4)};
        break;
      case kTCPOptionSack: {
        // RFC 2018 section 3: "Length: Variable", 8 bytes per block.
        size_t n = opt.data.size() / kSackBlockLength;
        if (opt.data.size() % kSackBlockLength != 0 || n == 0 ||
            n > kMaxSackBlocks) {
          return Error::kBadOptionLength;
        }
        o.sack_block_count = static_cast<uint8_t>(n);
        // A repeated SACK option replaces the earlier one entirely: no
        // stale blocks past the new count (TCPOptions' == compares all).
        o.sack_blocks = {};
        for (size_t i = 0; i < n; ++i) {
          o.sack_blocks[i] =
              SackBlock{LoadBig32(d + 8 * i), LoadBig32(d + 8 * i + 4)};
        }
        break;
      }
      default:
        break;  // Unknown options are skipped by their length.
    }
    return Error::kOk;
  });
  if (e != Error::kOk) return e;
  return o;
}

size_t TCPOptionsSize(const TCPOptions& o) {
  size_t size = 0;
  if (o.mss) size += 4;
  if (o.timestamps) {
    size += 12;  // SACK-Permitted, if any, replaces the two NOPs.
  } else if (o.sack_permitted) {
    size += 4;
  }
  if (o.window_scale) size += 4;
  if (o.sack_block_count > 0) size += 4 + kSackBlockLength * o.sack_block_count;
  return size;
}

Result<size_t> EncodeTCPOptions(const TCPOptions& o, std::span<uint8_t> out) {
  if (o.sack_block_count > kMaxSackBlocks) return Error::kBadField;
  size_t size = TCPOptionsSize(o);
  if (size > kMaxOptionsLength) return Error::kBadField;
  if (out.size() < size) return Error::kBufferTooSmall;
  uint8_t* p = out.data();
  if (o.mss) {
    p[0] = kTCPOptionMSS;
    p[1] = kMSSLength;
    StoreBig16(p + 2, *o.mss);
    p += 4;
  }
  if (o.timestamps) {
    if (o.sack_permitted) {
      p[0] = kTCPOptionSackPermitted;
      p[1] = kSackPermittedLength;
    } else {
      p[0] = p[1] = kOptionNop;
    }
    p[2] = kTCPOptionTimestamps;
    p[3] = kTimestampsLength;
    StoreBig32(p + 4, o.timestamps->value);
    StoreBig32(p + 8, o.timestamps->echo_reply);
    p += 12;
  } else if (o.sack_permitted) {
    p[0] = p[1] = kOptionNop;
    p[2] = kTCPOptionSackPermitted;
    p[3] = kSackPermittedLength;
    p += 4;
  }
  if (o.window_scale) {
    p[0] = kOptionNop;
    p[1] = kTCPOptionWindowScale;
    p[2] = kWindowScaleLength;
    p[3] = *o.window_scale;
    p += 4;
  }
  if (o.sack_block_count > 0) {
    p[0] = p[1] = kOptionNop;
    p[2] = kTCPOptionSack;
    p[3] = static_cast<uint8_t>(2 + kSackBlockLength * o.sack_block_count);
    p += 4;
    for (size_t i = 0; i < o.sack_block_count; ++i) {
      StoreBig32(p, o.sack_blocks[i].left);
      StoreBig32(p + 4, o.sack_blocks[i].right);
      p += kSackBlockLength;
    }
  }
  return size;
}

Result<TCP> TCP::Parse(std::span<const uint8_t> segment) {
  if (segment.size() < kMinSize) return Error::kTruncated;
  size_t offset = static_cast<size_t>(segment[kDataOffsetOffset] >> 4) * 4;
  if (offset < kMinSize) return Error::kBadHeaderLength;
  if (segment.size() < offset) return Error::kTruncated;
  return TCP(segment);
}

TCPFields TCP::fields() const {
  TCPFields f;
  f.source_port = source_port();
  f.destination_port = destination_port();
  f.seq = seq();
  f.ack = ack();
  f.flags = flags();
  f.window = window();
  f.checksum = checksum();
  f.urgent_pointer = urgent_pointer();
  f.options = options();
  return f;
}

Error TCP::Encode(const TCPFields& f, std::span<uint8_t> out) {
  if (f.options.size() % 4 != 0 || f.options.size() > kMaxOptionsLength) {
    return Error::kBadField;
  }
  size_t size = kMinSize + f.options.size();
  if (out.size() < size) return Error::kBufferTooSmall;
  uint8_t* p = out.data();
  StoreBig16(p + kSourcePortOffset, f.source_port);
  StoreBig16(p + kDestinationPortOffset, f.destination_port);
  StoreBig32(p + kSeqOffset, f.seq);
  StoreBig32(p + kAckOffset, f.ack);
  p[kDataOffsetOffset] = static_cast<uint8_t>((size / 4) << 4);
  p[kFlagsOffset] = f.flags;
  StoreBig16(p + kWindowOffset, f.window);
  StoreBig16(p + kChecksumOffset, f.checksum);
  StoreBig16(p + kUrgentPointerOffset, f.urgent_pointer);
  if (!f.options.empty()) {
    std::memcpy(p + kMinSize, f.options.data(), f.options.size());
  }
  return Error::kOk;
}

uint16_t TCP::ComputeChecksum(uint16_t pseudo_sum, uint16_t payload_sum) const {
  return ComputeTransportChecksum(pseudo_sum, header(), kChecksumOffset,
                                  payload_sum);
}

bool TCP::IsChecksumValid(uint16_t pseudo_sum, uint16_t payload_sum) const {
  return IsTransportChecksumValid(pseudo_sum, header(), payload_sum);
}

Result<MutableTCP> MutableTCP::Parse(std::span<uint8_t> segment) {
  Result<TCP> r = TCP::Parse(segment);
  if (!r.ok()) return r.error();
  return MutableTCP(*r);
}

void MutableTCP::SetSourcePortAndUpdateChecksum(uint16_t port) {
  SetChecksum(checksum::UpdateChecksum16(checksum(), source_port(), port));
  SetSourcePort(port);
}

void MutableTCP::SetDestinationPortAndUpdateChecksum(uint16_t port) {
  SetChecksum(checksum::UpdateChecksum16(checksum(), destination_port(), port));
  SetDestinationPort(port);
}

void MutableTCP::UpdateChecksumForAddressChange(
    std::span<const uint8_t> old_address,
    std::span<const uint8_t> new_address) {
  SetChecksum(
      checksum::UpdateChecksumBytes(checksum(), old_address, new_address));
}

}  // namespace ipsum::header
