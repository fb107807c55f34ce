// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// libpcap glue for `csum verify` and `csum fix`; see capture.h.

#include "tools/csum/capture.h"

#include <fcntl.h>
#include <pcap/pcap.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "checksum/endian.h"
#include "tools/csum/link.h"

namespace ipsum::csum {
namespace {

constexpr uint32_t kPcapngMagic = 0x0a0d0d0a;  // Section Header Block type

// kReadBuffer is the stdio buffer libpcap reads through: stdio's default
// 4 KiB costs a read system call every two or three 1500-byte packets.
constexpr size_t kReadBuffer = 1 << 20;

struct PcapCloser {
  void operator()(pcap_t* p) const { pcap_close(p); }
};

// Reader is an open capture: libpcap's handle and the buffer of its FILE,
// which must outlive it (members are destroyed in reverse order).
struct Reader {
  std::unique_ptr<char[]> buffer;
  std::unique_ptr<pcap_t, PcapCloser> pcap;
  pcap_t* get() const { return pcap.get(); }
};
using PcapPtr = std::unique_ptr<Reader>;

struct DumperCloser {
  void operator()(pcap_dumper_t* d) const { pcap_dump_close(d); }
};
using DumperPtr = std::unique_ptr<pcap_dumper_t, DumperCloser>;

// LinkTypeFromDlt maps libpcap's DLT_ value to the LINKTYPE_ value the file
// holds. They are equal except where systems disagree on DLT_ numbers.
uint32_t LinkTypeFromDlt(int dlt) {
  if (dlt == DLT_RAW) return static_cast<uint32_t>(LinkType::kRaw);
#ifdef DLT_LOOP
  if (dlt == DLT_LOOP) return static_cast<uint32_t>(LinkType::kLoop);
#endif
  return static_cast<uint32_t>(dlt);
}

std::string ErrnoMessage(const std::string& path) {
  return absl::StrCat(path, ": ", std::strerror(errno));
}

// Sniffed is what the first four bytes of a capture file say.
struct Sniffed {
  CaptureFormat format = CaptureFormat::kPcap;
  // plain_pcap is true for the pcap magics whose record headers are 16
  // bytes (micro- and nanosecond, either byte order), not the 24-byte
  // headers of the "modified" (Kuznetzov) variant.
  bool plain_pcap = false;
};

// Sniff reads the first four bytes of `path`: pcapng starts with a Section
// Header Block. What is neither is left to libpcap to accept or refuse.
Sniffed Sniff(const std::string& path) {
  Sniffed s;
  if (FILE* f = std::fopen(path.c_str(), "rb")) {
    uint8_t bytes[4];
    if (std::fread(bytes, 1, sizeof(bytes), f) == sizeof(bytes)) {
      const uint32_t magic = LoadBig32(bytes);
      if (magic == kPcapngMagic) s.format = CaptureFormat::kPcapng;
      for (uint32_t m : {0xa1b2c3d4u, 0xa1b23c4du}) {
        if (magic == m || magic == ByteSwap32(m)) s.plain_pcap = true;
      }
    }
    std::fclose(f);
  }
  return s;
}

// Open opens `path` through libpcap with nanosecond timestamps, so that no
// precision is lost when a pcapng file is rewritten as pcap, reading
// through a kReadBuffer stdio buffer.
absl::StatusOr<PcapPtr> Open(const std::string& path) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0) {
    return absl::NotFoundError(ErrnoMessage(path));
  }
  if (S_ISDIR(st.st_mode)) {
    return absl::FailedPreconditionError(
        absl::StrCat(path, ": is a directory"));
  }
  auto reader = std::make_unique<Reader>();
  FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return absl::PermissionDeniedError(ErrnoMessage(path));
  reader->buffer = std::make_unique<char[]>(kReadBuffer);
  std::setvbuf(f, reader->buffer.get(), _IOFBF, kReadBuffer);
  char errbuf[PCAP_ERRBUF_SIZE] = "";
  pcap_t* p = pcap_fopen_offline_with_tstamp_precision(
      f, PCAP_TSTAMP_PRECISION_NANO, errbuf);
  if (p == nullptr) {
    std::fclose(f);
    return absl::InvalidArgumentError(absl::StrCat(
        path, ": not a capture libpcap can read: ", errbuf, " (at byte 0)"));
  }
  reader->pcap.reset(p);
  return reader;
}

// Position returns the offset of libpcap's read position in the file.
// glibc's ftell makes an lseek system call each time: see RecordOffsets.
long Position(pcap_t* p) { return std::ftell(pcap_file(p)); }

// RecordOffsets knows where the next record of a capture starts without a
// system call per packet: in a plain pcap file each record is a 16-byte
// header and caplen bytes. When libpcap may have cut a record (caplen at
// the snapshot length: it skips the bytes past it) and for pcapng, whose
// blocks vary, it asks the file.
class RecordOffsets {
 public:
  RecordOffsets(pcap_t* p, bool plain_pcap)
      : p_(p), plain_(plain_pcap), next_(Position(p)) {
    const int snap = pcap_snapshot(p);
    snapshot_ = snap > 0 ? static_cast<uint32_t>(snap) : 0;
  }
  // next returns where the next record starts.
  long next() const { return next_; }
  // Advance moves past the record just read.
  void Advance(const pcap_pkthdr& h) {
    if (plain_ && h.caplen < snapshot_) {
      next_ += 16 + static_cast<long>(h.caplen);
    } else {
      next_ = Position(p_);
    }
  }

 private:
  pcap_t* p_;
  bool plain_;
  uint32_t snapshot_ = 0;
  long next_;
};

// RecordError describes a failed pcap_next_ex: the file, libpcap's
// reason, the record number and the byte offset where the record starts.
absl::Status RecordError(const std::string& path, pcap_t* p, uint64_t frame,
                         long offset) {
  std::string reason = pcap_geterr(p);
  absl::Status status = absl::DataLossError(absl::StrFormat(
      "%s: %s (record %d, at byte offset %d)", path, reason, frame, offset));
  if (reason.find("different from the type of the first interface") !=
      std::string::npos) {
    // libpcap gives one link type per pcap_t, so it stops at an interface
    // of another type; so does a pcap file, which `fix` writes.
    status = absl::InvalidArgumentError(absl::StrCat(
        status.message(),
        "; libpcap reads a pcapng only when all its interfaces share one "
        "link type (split it per interface, e.g. with editcap)"));
  }
  return status;
}

// Progress redraws one line on stderr while a long file is read, if stderr
// is a terminal; it stays silent for the first second.
class Progress {
 public:
  Progress(const std::string& path, bool enabled)
      : path_(path), enabled_(enabled && isatty(STDERR_FILENO)) {
    struct stat st;
    if (enabled_ && stat(path.c_str(), &st) == 0) size_ = st.st_size;
    start_ = Clock::now();
    last_ = start_;
  }
  ~Progress() {
    if (drawn_) std::fputs("\r\033[K", stderr);
  }

  // Update is called per frame; it looks at the clock every 4096 frames.
  void Update(uint64_t frames, long offset) {
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
  long size_ = 0;
  Clock::time_point start_, last_;
};

bool SameFile(const std::string& a, const std::string& b) {
  struct stat sa, sb;
  return stat(a.c_str(), &sa) == 0 && stat(b.c_str(), &sb) == 0 &&
         sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

// CopyFile copies `in` to `out` (created or truncated) and returns the
// open output descriptor.
absl::StatusOr<int> CopyFile(const std::string& in, const std::string& out) {
  int src = open(in.c_str(), O_RDONLY | O_CLOEXEC);
  if (src < 0) return absl::NotFoundError(ErrnoMessage(in));
  int dst = open(out.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (dst < 0) {
    close(src);
    return absl::PermissionDeniedError(ErrnoMessage(out));
  }
  std::vector<char> block(1 << 20);
  for (;;) {
    ssize_t n = read(src, block.data(), block.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      absl::Status s = absl::DataLossError(ErrnoMessage(in));
      close(src);
      close(dst);
      return s;
    }
    if (n == 0) break;
    for (ssize_t done = 0; done < n;) {
      ssize_t w = write(dst, block.data() + done, n - done);
      if (w < 0 && errno == EINTR) continue;
      if (w < 0) {
        absl::Status s = absl::DataLossError(ErrnoMessage(out));
        close(src);
        close(dst);
        return s;
      }
      done += w;
    }
  }
  close(src);
  return dst;
}

}  // namespace

std::string CaptureReport::Title(const std::string& name) const {
  std::string link(LinkTypeName(linktype));
  if (link.empty()) link = absl::StrCat("linktype ", linktype);
  return absl::StrCat(name, ": ",
                      format == CaptureFormat::kPcapng ? "pcapng" : "pcap",
                      ", ", link);
}

CaptureReport VerifyCapture(const std::string& path, const FrameVisitor& visit,
                            bool progress) {
  CaptureReport report;
  const Sniffed sniffed = Sniff(path);
  report.format = sniffed.format;
  absl::StatusOr<PcapPtr> opened = Open(path);
  if (!opened.ok()) {
    report.status = opened.status();
    return report;
  }
  pcap_t* p = (*opened)->get();
  report.linktype = LinkTypeFromDlt(pcap_datalink(p));
  Progress bar(path, progress);
  RecordOffsets offsets(p, sniffed.plain_pcap);
  uint64_t frame = 0;
  for (;;) {
    const long start = offsets.next();
    pcap_pkthdr* hdr;
    const u_char* data;
    int rc = pcap_next_ex(p, &hdr, &data);
    if (rc == PCAP_ERROR_BREAK) break;  // end of file
    ++frame;
    if (rc != 1) {
      report.status = RecordError(path, p, frame, start);
      break;
    }
    // pcapng interfaces may differ in link type; libpcap refuses those
    // that differ from the first, so the capture's type holds throughout.
    FrameCheck check = CheckFrame(
        report.linktype, std::span<const uint8_t>(data, hdr->caplen), hdr->len);
    report.tally.Add(check);
    if (visit) visit(frame, check);
    offsets.Advance(*hdr);
    bar.Update(frame, start);
  }
  return report;
}

absl::StatusOr<FixReport> FixCapture(const std::string& in,
                                     const std::string& out) {
  if (SameFile(in, out)) {
    return absl::InvalidArgumentError(absl::StrCat(
        out, ": is the input file; write the fixed copy elsewhere"));
  }
  FixReport report;
  const Sniffed sniffed = Sniff(in);
  report.format = sniffed.format;
  absl::StatusOr<PcapPtr> opened = Open(in);
  if (!opened.ok()) return opened.status();
  pcap_t* p = (*opened)->get();
  const uint32_t linktype = LinkTypeFromDlt(pcap_datalink(p));

  // pcap: copy the file, then patch checksum bytes in place. pcapng: dump
  // every packet, fixed, to a new pcap file.
  int fd = -1;
  DumperPtr dumper;
  if (report.format == CaptureFormat::kPcap) {
    absl::StatusOr<int> copied = CopyFile(in, out);
    if (!copied.ok()) return copied.status();
    fd = *copied;
  } else {
    dumper.reset(pcap_dump_open(p, out.c_str()));
    if (dumper == nullptr) {
      return absl::PermissionDeniedError(
          absl::StrCat(out, ": ", pcap_geterr(p)));
    }
  }
  struct FdCloser {
    int fd;
    ~FdCloser() {
      if (fd >= 0) close(fd);
    }
  } closer{fd};

  std::vector<uint8_t> buffer;
  RecordOffsets offsets(p, sniffed.plain_pcap);
  for (;;) {
    const long start = offsets.next();
    pcap_pkthdr* hdr;
    const u_char* data;
    int rc = pcap_next_ex(p, &hdr, &data);
    if (rc == PCAP_ERROR_BREAK) break;
    ++report.packets;
    if (rc != 1) {
      return RecordError(in, p, report.packets, start);
    }
    std::span<const uint8_t> frame(data, hdr->caplen);
    FrameCheck check = CheckFrame(linktype, frame, hdr->len);
    offsets.Advance(*hdr);
    bool bad =
        check.field_count > 0 &&
        (check.fields[0].verdict == Verdict::kBad ||
         (check.field_count > 1 && check.fields[1].verdict == Verdict::kBad));
    if (report.format == CaptureFormat::kPcapng) {
      if (bad) {
        buffer.assign(frame.begin(), frame.end());
        size_t n = FixFrame(check, buffer);
        report.fields += n;
        report.packets_fixed += n > 0;
        pcap_dump(reinterpret_cast<u_char*>(dumper.get()), hdr, buffer.data());
      } else {
        pcap_dump(reinterpret_cast<u_char*>(dumper.get()), hdr, data);
      }
      continue;
    }
    if (!bad) continue;
    // In a plain pcap file the data follows the 16-byte record header
    // (even when libpcap cut the record at the snapshot length); otherwise
    // it ends where libpcap stopped reading.
    const long data_start =
        sniffed.plain_pcap ? start + 16
                           : offsets.next() - static_cast<long>(hdr->caplen);
    size_t n = 0;
    for (const FieldCheck& f : check.checks()) {
      if (f.verdict != Verdict::kBad || !f.has_stored || !f.has_computed) {
        continue;
      }
      const off_t at = data_start + static_cast<off_t>(f.offset);
      // Make sure the bytes are where we think before changing them.
      uint8_t old[2];
      if (data_start < start || pread(fd, old, 2, at) != 2 ||
          LoadBig16(old) != f.stored) {
        return absl::InternalError(absl::StrFormat(
            "%s: cannot locate packet %d's bytes in the file (record at byte "
            "offset %d)",
            in, report.packets, start));
      }
      uint8_t now[2];
      StoreBig16(now, f.computed);
      if (pwrite(fd, now, 2, at) != 2) {
        return absl::DataLossError(ErrnoMessage(out));
      }
      ++n;
    }
    report.fields += n;
    report.packets_fixed += n > 0;
  }
  if (dumper != nullptr) {
    if (pcap_dump_flush(dumper.get()) != 0) {
      return absl::DataLossError(absl::StrCat(out, ": write failed"));
    }
  }
  return report;
}

}  // namespace ipsum::csum
