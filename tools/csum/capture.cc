// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// `csum verify` and `csum fix` over the capture reader; see capture.h.

#include "tools/csum/capture.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "tools/csum/link.h"

namespace ipsum::csum {
namespace {

// Progress redraws one line on stderr while a long file is read, if stderr
// is a terminal; it stays silent for the first second.
class Progress {
 public:
  Progress(const std::string& path, bool enabled)
      : path_(path), enabled_(enabled && isatty(STDERR_FILENO)) {
    struct stat st;
    if (enabled_ && path != "-" && stat(path.c_str(), &st) == 0 &&
        S_ISREG(st.st_mode)) {
      size_ = static_cast<uint64_t>(st.st_size);
    }
    start_ = Clock::now();
    last_ = start_;
  }
  ~Progress() {
    if (drawn_) std::fputs("\r\033[K", stderr);
  }

  // Update is called per frame; it looks at the clock every 4096 frames.
  void Update(uint64_t frames, uint64_t offset) {
    if (!enabled_ || (frames & 4095) != 0) return;
    Clock::time_point now = Clock::now();
    if (now - start_ < std::chrono::seconds(1) ||
        now - last_ < std::chrono::milliseconds(200)) {
      return;
    }
    last_ = now;
    drawn_ = true;
    double mib = offset / 1048576.0;
    if (size_ > 0) {
      absl::FPrintF(stderr, "\rcsum: %s: %d packets, %.0f of %.0f MiB (%d%%)",
                    path_, frames, mib, size_ / 1048576.0,
                    static_cast<int>(100.0 * offset / size_));
    } else {
      absl::FPrintF(stderr, "\rcsum: %s: %d packets, %.0f MiB", path_, frames,
                    mib);
    }
    std::fflush(stderr);
  }

 private:
  using Clock = std::chrono::steady_clock;
  const std::string& path_;
  bool enabled_;
  bool drawn_ = false;
  uint64_t size_ = 0;
  Clock::time_point start_, last_;
};

bool SameFile(const std::string& a, const std::string& b) {
  struct stat sa, sb;
  return stat(a.c_str(), &sa) == 0 && stat(b.c_str(), &sb) == 0 &&
         sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

// Writer is a buffered output file.
class Writer {
 public:
  static absl::StatusOr<std::unique_ptr<Writer>> Create(
      const std::string& path) {
    int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
      return absl::PermissionDeniedError(
          absl::StrCat(path, ": ", std::strerror(errno)));
    }
    return std::unique_ptr<Writer>(new Writer(fd, path));
  }
  ~Writer() { close(fd_); }

  absl::Status Write(std::span<const uint8_t> bytes) {
    if (buf_.size() + bytes.size() > kBuffer) {
      if (absl::Status s = Flush(); !s.ok()) return s;
    }
    if (bytes.size() >= kBuffer) return WriteAll(bytes);
    buf_.insert(buf_.end(), bytes.begin(), bytes.end());
    return absl::OkStatus();
  }
  absl::Status Flush() {
    absl::Status s = WriteAll(buf_);
    buf_.clear();
    return s;
  }

 private:
  static constexpr size_t kBuffer = 1 << 20;
  Writer(int fd, std::string path) : fd_(fd), path_(std::move(path)) {
    buf_.reserve(kBuffer);
  }
  absl::Status WriteAll(std::span<const uint8_t> bytes) {
    while (!bytes.empty()) {
      ssize_t w = write(fd_, bytes.data(), bytes.size());
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) {
        return absl::DataLossError(
            absl::StrCat(path_, ": ", std::strerror(errno)));
      }
      bytes = bytes.subspan(static_cast<size_t>(w));
    }
    return absl::OkStatus();
  }
  int fd_;
  std::string path_;
  std::vector<uint8_t> buf_;
};

// Open opens the capture at `path` ("-": standard input).
absl::StatusOr<std::unique_ptr<CaptureReader>> Open(const std::string& path,
                                                    const std::string& name) {
  absl::StatusOr<std::unique_ptr<ByteSource>> source = OpenFileSource(path);
  if (!source.ok()) return source.status();
  return CaptureReader::Open(std::move(*source), name);
}

CaptureReport Verify(absl::StatusOr<std::unique_ptr<CaptureReader>> opened,
                     const std::string& path, const FrameVisitor& visit,
                     bool progress) {
  CaptureReport report;
  if (!opened.ok()) {
    report.status = opened.status();
    return report;
  }
  CaptureReader& reader = **opened;
  report.format = reader.format();
  Progress bar(path, progress);
  uint64_t frame = 0;
  bool have_linktype = false;
  CaptureRecord record;
  for (;;) {
    absl::StatusOr<bool> more = reader.Next(&record);
    if (!more.ok()) {
      report.status = more.status();
      break;
    }
    if (!*more) break;
    if (!record.is_packet) continue;
    ++frame;
    if (!have_linktype) {
      report.linktype = record.linktype;
      have_linktype = true;
    } else if (record.linktype != report.linktype) {
      report.mixed_linktypes = true;
    }
    FrameCheck check =
        CheckFrame(record.linktype, record.data, record.wire_length);
    report.tally.Add(check);
    if (visit) visit(frame, check);
    bar.Update(frame, record.offset);
  }
  if (!have_linktype) report.linktype = reader.linktype();
  return report;
}

}  // namespace

std::string DisplayName(const std::string& path) {
  return path == "-" ? "standard input" : path;
}

std::string CaptureReport::Title(const std::string& name) const {
  std::string link(LinkTypeName(linktype));
  if (link.empty()) link = absl::StrCat("linktype ", linktype);
  if (mixed_linktypes) link = absl::StrCat(link, " and others");
  return absl::StrCat(name, ": ",
                      format == CaptureFormat::kPcapng ? "pcapng" : "pcap",
                      ", ", link);
}

CaptureReport VerifyCapture(const std::string& path, const FrameVisitor& visit,
                            bool progress) {
  return Verify(Open(path, DisplayName(path)), path, visit, progress);
}

CaptureReport VerifyStream(std::unique_ptr<ByteSource> source,
                           const std::string& name, const FrameVisitor& visit) {
  return Verify(CaptureReader::Open(std::move(source), name), name, visit,
                false);
}

absl::StatusOr<FixReport> FixCapture(const std::string& in,
                                     const std::string& out) {
  if (in != "-" && SameFile(in, out)) {
    return absl::InvalidArgumentError(absl::StrCat(
        out, ": is the input file; write the fixed copy elsewhere"));
  }
  absl::StatusOr<std::unique_ptr<CaptureReader>> opened =
      Open(in, DisplayName(in));
  if (!opened.ok()) return opened.status();
  CaptureReader& reader = **opened;
  absl::StatusOr<std::unique_ptr<Writer>> writer = Writer::Create(out);
  if (!writer.ok()) return writer.status();
  FixReport report;
  report.format = reader.format();
  CaptureRecord record;
  for (;;) {
    absl::StatusOr<bool> more = reader.Next(&record);
    if (!more.ok()) return more.status();
    if (!*more) break;
    if (record.is_packet) {
      ++report.packets;
      FrameCheck check =
          CheckFrame(record.linktype, record.data, record.wire_length);
      // FixFrame changes only the bytes of fields judged bad.
      const size_t n = FixFrame(check, record.data);
      report.fields += n;
      report.packets_fixed += n > 0;
    }
    if (absl::Status s = (*writer)->Write(record.raw); !s.ok()) return s;
  }
  if (absl::Status s = (*writer)->Flush(); !s.ok()) return s;
  return report;
}

}  // namespace ipsum::csum
