// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// The capture reader; see pcap_reader.h.

#include "tools/csum/pcap_reader.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "checksum/endian.h"

namespace ipsum::csum {
namespace {

constexpr uint32_t kShbType = 0x0a0d0d0a;
constexpr uint32_t kByteOrderMagic = 0x1a2b3c4d;
constexpr uint32_t kIdbType = 1;
constexpr uint32_t kObsoletePbType = 2;
constexpr uint32_t kSpbType = 3;
constexpr uint32_t kEpbType = 6;
// kReadChunk is the least the reader asks its source for at once.
constexpr size_t kReadChunk = 1 << 20;

class FdSource : public ByteSource {
 public:
  FdSource(int fd, bool owned, std::string name)
      : fd_(fd), owned_(owned), name_(std::move(name)) {}
  ~FdSource() override {
    if (owned_) close(fd_);
  }
  absl::StatusOr<size_t> Read(std::span<uint8_t> out) override {
    for (;;) {
      ssize_t n = read(fd_, out.data(), out.size());
      if (n >= 0) return static_cast<size_t>(n);
      if (errno != EINTR) {
        return absl::DataLossError(
            absl::StrCat(name_, ": ", std::strerror(errno)));
      }
    }
  }

 private:
  int fd_;
  bool owned_;
  std::string name_;
};

uint32_t Little32(const uint8_t* p) {
  return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 |
         uint32_t{p[3]} << 24;
}

}  // namespace

absl::StatusOr<std::unique_ptr<ByteSource>> OpenFileSource(
    const std::string& path) {
  if (path == "-") {
    return std::make_unique<FdSource>(STDIN_FILENO, false, "standard input");
  }
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    const std::string message = absl::StrCat(path, ": ", std::strerror(errno));
    if (errno == ENOENT) return absl::NotFoundError(message);
    return absl::PermissionDeniedError(message);
  }
  struct stat st;
  if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
    close(fd);
    return absl::FailedPreconditionError(
        absl::StrCat(path, ": is a directory"));
  }
  return std::make_unique<FdSource>(fd, true, path);
}

CaptureReader::CaptureReader(std::unique_ptr<ByteSource> source,
                             std::string name)
    : source_(std::move(source)), name_(std::move(name)) {
  buf_.resize(kReadChunk);
}

uint32_t CaptureReader::U32(const uint8_t* p) const {
  return big_ ? LoadBig32(p) : Little32(p);
}

uint16_t CaptureReader::U16(const uint8_t* p) const {
  return big_ ? static_cast<uint16_t>(p[0] << 8 | p[1])
              : static_cast<uint16_t>(p[1] << 8 | p[0]);
}

absl::StatusOr<size_t> CaptureReader::Fill(size_t n) {
  while (end_ - pos_ < n && !eof_) {
    if (pos_ + n > buf_.size()) {
      // Move what is left to the front; grow only for a record larger
      // than the buffer (bounded by kMaxRecord, checked by the callers).
      std::memmove(buf_.data(), buf_.data() + pos_, end_ - pos_);
      end_ -= pos_;
      pos_ = 0;
      if (n > buf_.size()) buf_.resize(n);
    }
    absl::StatusOr<size_t> got =
        source_->Read(std::span<uint8_t>(buf_).subspan(end_));
    if (!got.ok()) return got.status();
    if (*got == 0) eof_ = true;
    end_ += *got;
  }
  return std::min(n, end_ - pos_);
}

absl::Status CaptureReader::Error(std::string_view what, uint64_t number,
                                  uint64_t offset) const {
  return absl::DataLossError(absl::StrFormat(
      "%s: %s (%s %d, at byte offset %d)", name_, what,
      format_ == CaptureFormat::kPcap ? "record" : "block", number, offset));
}

absl::StatusOr<std::unique_ptr<CaptureReader>> CaptureReader::Open(
    std::unique_ptr<ByteSource> source, std::string name) {
  std::unique_ptr<CaptureReader> r(
      new CaptureReader(std::move(source), std::move(name)));
  absl::StatusOr<size_t> got = r->Fill(24);
  if (!got.ok()) return got.status();
  const uint8_t* p = r->buf_.data();
  const uint32_t magic = *got >= 4 ? LoadBig32(p) : 0;
  if (magic == kShbType) {
    r->format_ = CaptureFormat::kPcapng;
    return r;
  }
  bool known = false;
  for (uint32_t m : {0xa1b2c3d4u, 0xa1b23c4du, 0xa1b2cd34u}) {
    if (magic == m || magic == ByteSwap32(m)) {
      known = true;
      r->big_ = magic == m;
      r->pcap_record_header_ = m == 0xa1b2cd34u ? 24 : 16;
    }
  }
  if (!known || *got < 24) {
    return absl::InvalidArgumentError(absl::StrCat(
        r->name_,
        known ? ": not a capture: the pcap file header is cut short"
              : ": not a capture csum can read (neither pcap nor pcapng)",
        " (at byte 0)"));
  }
  // LINKTYPE_ in the low 16 bits; the bits above carry FCS information.
  r->first_linktype_ = r->U32(p + 20) & 0xffff;
  r->first_linktype_set_ = true;
  r->header_pending_ = true;
  return r;
}

absl::StatusOr<bool> CaptureReader::Next(CaptureRecord* record) {
  return format_ == CaptureFormat::kPcap ? NextPcap(record)
                                         : NextPcapng(record);
}

absl::StatusOr<bool> CaptureReader::NextPcap(CaptureRecord* record) {
  *record = CaptureRecord();
  record->offset = consumed_;
  if (header_pending_) {
    header_pending_ = false;
    record->raw = std::span<uint8_t>(buf_.data() + pos_, 24);
    pos_ += 24;
    consumed_ += 24;
    return true;
  }
  const size_t hlen = pcap_record_header_;
  absl::StatusOr<size_t> got = Fill(hlen);
  if (!got.ok()) return got.status();
  if (*got == 0) return false;
  const uint64_t number = ++number_;
  if (*got < hlen) {
    return Error("truncated: the file ends inside a record header", number,
                 consumed_);
  }
  const uint32_t caplen = U32(buf_.data() + pos_ + 8);
  if (caplen > kMaxRecord - hlen) {
    return Error(absl::StrFormat("captured length %d is larger than csum "
                                 "accepts",
                                 caplen),
                 number, consumed_);
  }
  const size_t size = hlen + caplen;
  got = Fill(size);
  if (!got.ok()) return got.status();
  if (*got < size) {
    return Error("truncated: the file ends inside a record's data", number,
                 consumed_);
  }
  record->number = number;
  record->raw = std::span<uint8_t>(buf_.data() + pos_, size);
  record->is_packet = true;
  record->linktype = first_linktype_;
  record->data_offset = hlen;
  record->data = record->raw.subspan(hlen);
  record->wire_length = U32(record->raw.data() + 12);
  pos_ += size;
  consumed_ += size;
  return true;
}

absl::StatusOr<bool> CaptureReader::NextPcapng(CaptureRecord* record) {
  *record = CaptureRecord();
  record->offset = consumed_;
  absl::StatusOr<size_t> got = Fill(12);
  if (!got.ok()) return got.status();
  if (*got == 0) return false;
  const uint64_t number = ++number_;
  if (*got < 12) {
    return Error("truncated: the file ends inside a block header", number,
                 consumed_);
  }
  const uint8_t* p = buf_.data() + pos_;
  uint32_t type = U32(p);
  if (type == kShbType) {
    // A new section, with its own byte order (its magic says which) and
    // its own interfaces.
    const uint32_t bom = LoadBig32(p + 8);
    if (bom != kByteOrderMagic && bom != ByteSwap32(kByteOrderMagic)) {
      return Error("a Section Header Block without the byte-order magic",
                   number, consumed_);
    }
    big_ = bom == kByteOrderMagic;
    interfaces_.clear();
  } else if (number == 1) {
    return Error("the file does not start with a Section Header Block", number,
                 consumed_);
  }
  const uint32_t length = U32(p + 4);
  if (length < 12 || length % 4 != 0 || length > kMaxRecord ||
      (type == kShbType && length < 28)) {
    return Error(absl::StrFormat("block length %d is invalid", length), number,
                 consumed_);
  }
  got = Fill(length);
  if (!got.ok()) return got.status();
  if (*got < length) {
    return Error("truncated: the file ends inside a block", number, consumed_);
  }
  p = buf_.data() + pos_;
  if (U32(p + length - 4) != length) {
    return Error("the block's trailing length differs from its leading one",
                 number, consumed_);
  }
  std::span<uint8_t> raw(buf_.data() + pos_, length);
  const uint8_t* body = p + 8;
  const size_t body_len = length - 12;
  record->number = number;
  record->raw = raw;

  // Packet blocks: where the data starts, its captured length, and the
  // interface it came from.
  size_t data_at = 0, caplen = 0;
  uint64_t wire_length = 0;
  uint32_t iface = 0;
  bool packet = false;
  if (type == kShbType) {
    if (U16(body + 4) != 1) {
      return Error("a section of an unknown pcapng major version", number,
                   consumed_);
    }
  } else if (type == kIdbType) {
    if (body_len < 8)
      return Error("a short Interface Description Block", number, consumed_);
    if (interfaces_.size() >= kMaxInterfaces) {
      return Error("too many interfaces in one section", number, consumed_);
    }
    interfaces_.push_back({U16(body), U32(body + 4)});
    if (!first_linktype_set_) {
      first_linktype_ = U16(body);
      first_linktype_set_ = true;
    }
  } else if (type == kEpbType || type == kObsoletePbType) {
    if (body_len < 20) {
      return Error("a short packet block", number, consumed_);
    }
    iface = type == kEpbType ? U32(body) : U16(body);
    caplen = U32(body + 12);
    wire_length = U32(body + 16);
    data_at = 8 + 20;
    if (caplen > body_len - 20) {
      return Error("a packet's captured length exceeds its block", number,
                   consumed_);
    }
    packet = true;
  } else if (type == kSpbType) {
    if (body_len < 4) {
      return Error("a short Simple Packet Block", number, consumed_);
    }
    // The captured length is the original length cut at interface 0's
    // snapshot length (0: none) and at the block's end.
    iface = 0;
    caplen = U32(body);
    wire_length = caplen;
    if (!interfaces_.empty() && interfaces_[0].snaplen != 0) {
      caplen = std::min<size_t>(caplen, interfaces_[0].snaplen);
    }
    caplen = std::min(caplen, body_len - 4);
    data_at = 8 + 4;
    packet = true;
  }
  if (packet) {
    if (iface >= interfaces_.size()) {
      return Error(
          absl::StrFormat("a packet on interface %d, which the section has "
                          "not described",
                          iface),
          number, consumed_);
    }
    record->is_packet = true;
    record->linktype = interfaces_[iface].linktype;
    record->data_offset = data_at;
    record->data = raw.subspan(data_at, caplen);
    record->wire_length = wire_length;
  }
  pos_ += length;
  consumed_ += length;
  return true;
}

}  // namespace ipsum::csum
