// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// A streaming reader of capture files, written for csum (no libpcap): classic
// pcap in either byte order with micro- or nanosecond timestamps and the
// "modified" (Kuznetzov) variant, and pcapng as the IETF draft "PCAP Next
// Generation (pcapng) Capture File Format" defines it: any number of
// sections of either byte order, any number of interfaces with their own
// link types and snapshot lengths, Enhanced, Simple and obsolete Packet
// Blocks; every other block is passed over by its length.
//
// The reader hands out every byte of the file exactly once, as a sequence of
// records (the pcap file header, pcap records, pcapng blocks), so a writer
// can copy a file through it unchanged. Memory is bounded by the largest
// record it accepts (kMaxRecord), whatever the file's size; offsets are
// 64-bit. Broken input is a typed error naming the file, the record or block
// number and its byte offset; no byte outside what the source returned is
// read.

#ifndef IPSUM_TOOLS_CSUM_PCAP_READER_H_
#define IPSUM_TOOLS_CSUM_PCAP_READER_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace ipsum::csum {

// CaptureFormat is the container format of a capture file.
enum class CaptureFormat : uint8_t { kPcap, kPcapng };

// ByteSource is a stream of bytes: a file, a pipe, or a generated stream.
class ByteSource {
 public:
  virtual ~ByteSource() = default;
  // Read fills up to `out.size()` bytes and returns how many; 0 only at
  // the end of the stream.
  virtual absl::StatusOr<size_t> Read(std::span<uint8_t> out) = 0;
};

// OpenFileSource opens `path` for reading; "-" is standard input. Refuses
// directories (FailedPrecondition) and missing files (NotFound).
absl::StatusOr<std::unique_ptr<ByteSource>> OpenFileSource(
    const std::string& path);

// CaptureRecord is one piece of the file, valid until the next Next().
struct CaptureRecord {
  // number counts records from 1: pcap records (the file header is 0), or
  // pcapng blocks (the first Section Header Block is 1).
  uint64_t number = 0;
  // offset is where the record starts in the stream.
  uint64_t offset = 0;
  // raw is the whole record as in the file; writable so that a fixer can
  // patch a packet's bytes in place before copying it out.
  std::span<uint8_t> raw;
  // is_packet is set for packet records; then `data` is the captured
  // packet (inside `raw`, at `data_offset`) of link type `linktype`.
  bool is_packet = false;
  uint32_t linktype = 0;
  size_t data_offset = 0;
  std::span<uint8_t> data;
  // wire_length is the packet's length on the wire as the record states it
  // (pcap orig_len, pcapng original packet length); data.size() less than
  // it means the capture cut the packet.
  uint64_t wire_length = 0;
};

// CaptureReader reads a capture from a ByteSource.
class CaptureReader {
 public:
  // kMaxRecord bounds one record (pcap record or pcapng block), and so the
  // reader's memory; larger records are errors. Wireshark's own limits
  // are below it.
  static constexpr size_t kMaxRecord = 16 << 20;
  // kMaxInterfaces bounds the interfaces of one pcapng section.
  static constexpr size_t kMaxInterfaces = 1 << 16;

  // Open reads the file header (pcap) or checks the first block is a
  // Section Header Block (pcapng). `name` goes into error messages.
  static absl::StatusOr<std::unique_ptr<CaptureReader>> Open(
      std::unique_ptr<ByteSource> source, std::string name);

  CaptureFormat format() const { return format_; }
  // linktype is the file's link type (pcap) or its first interface's
  // (pcapng; 0 before one is read).
  uint32_t linktype() const { return first_linktype_; }

  // Next returns the next record, false at the clean end of the stream,
  // or an error: DataLoss for a truncated or inconsistent file.
  absl::StatusOr<bool> Next(CaptureRecord* record);

  // bytes_read is how far into the stream the records handed out reach.
  uint64_t bytes_read() const { return consumed_; }

 private:
  CaptureReader(std::unique_ptr<ByteSource> source, std::string name);
  // Fill makes `n` bytes available at buf_[pos_]; returns how many are
  // (fewer only at the end of the stream).
  absl::StatusOr<size_t> Fill(size_t n);
  absl::Status Error(std::string_view what, uint64_t number,
                     uint64_t offset) const;
  absl::StatusOr<bool> NextPcap(CaptureRecord* record);
  absl::StatusOr<bool> NextPcapng(CaptureRecord* record);
  uint32_t U32(const uint8_t* p) const;
  uint16_t U16(const uint8_t* p) const;

  std::unique_ptr<ByteSource> source_;
  std::string name_;
  std::vector<uint8_t> buf_;
  size_t pos_ = 0, end_ = 0;
  bool eof_ = false;
  uint64_t consumed_ = 0;
  uint64_t number_ = 0;
  CaptureFormat format_ = CaptureFormat::kPcap;
  bool big_ = false;  // the current section is big-endian
  bool header_pending_ = false;
  size_t pcap_record_header_ = 16;
  uint32_t first_linktype_ = 0;
  bool first_linktype_set_ = false;
  struct Interface {
    uint32_t linktype;
    uint32_t snaplen;
  };
  std::vector<Interface> interfaces_;
};

}  // namespace ipsum::csum

#endif  // IPSUM_TOOLS_CSUM_PCAP_READER_H_
