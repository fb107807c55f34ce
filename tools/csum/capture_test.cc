// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// VerifyCapture and FixCapture on the bundled captures and on broken files:
// every capture gives exactly its ground truth; a fixed capture has no bad
// checksum left and differs from its input only in the bytes of the fields
// that were bad, in either format; truncated, foreign and lying files are
// errors that name the file and the byte offset, and are never read out of
// bounds.

#include "tools/csum/capture.h"

#include <dirent.h>
#include <pcap/pcap.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "checksum/endian.h"
#include "gtest/gtest.h"
#include "tools/csum/pcap_reader.h"
#include "tools/csum/report.h"
#include "tools/csum/verify.h"

namespace ipsum::csum {
namespace {

const std::string kDir = "testdata/captures/";

std::string TmpPath(const std::string& name) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  return std::string(tmp ? tmp : "/tmp") + "/" + name;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void WriteFile(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
}

std::vector<std::string> Captures() {
  std::vector<std::string> names;
  DIR* d = opendir(kDir.c_str());
  if (d == nullptr) return names;
  while (dirent* e = readdir(d)) {
    std::string n = e->d_name;
    if (n.ends_with(".pcap") || n.ends_with(".pcapng")) names.push_back(n);
  }
  closedir(d);
  std::sort(names.begin(), names.end());
  return names;
}

std::string Tsv(const std::string& path, CaptureReport* report = nullptr) {
  std::string out(kTsvHeader);
  CaptureReport r = VerifyCapture(
      path,
      [&](uint64_t frame, const FrameCheck& check) {
        for (const FieldCheck& f : check.checks()) AppendTsv(out, "", frame, f);
      },
      false);
  EXPECT_TRUE(r.status.ok()) << r.status;
  if (report) *report = r;
  return out;
}

TEST(VerifyCapture, EveryBundledCaptureMatchesItsGroundTruth) {
  std::vector<std::string> names = Captures();
  ASSERT_GE(names.size(), 9u);
  std::set<uint32_t> linktypes;
  for (const std::string& name : names) {
    const std::string path = kDir + name;
    CaptureReport r;
    std::string got = Tsv(path, &r);
    linktypes.insert(r.linktype);
    std::string truth =
        ReadFile(kDir + name.substr(0, name.rfind('.')) + ".tsv");
    EXPECT_EQ(got, truth) << name;
  }
  // Every link type csum decodes is covered.
  EXPECT_EQ(linktypes, (std::set<uint32_t>{0, 1, 9, 50, 101, 104, 107, 108, 113,
                                           127, 228, 229, 239, 242, 276}));
}

// Packet is one record as libpcap returns it, and where its data sits in
// the file.
struct Packet {
  pcap_pkthdr header;
  std::string data;
  long data_offset;
};

std::vector<Packet> ReadPackets(const std::string& path) {
  char err[PCAP_ERRBUF_SIZE];
  pcap_t* p = pcap_open_offline_with_tstamp_precision(
      path.c_str(), PCAP_TSTAMP_PRECISION_NANO, err);
  EXPECT_NE(p, nullptr) << err;
  std::vector<Packet> out;
  if (p == nullptr) return out;
  pcap_pkthdr* h;
  const u_char* d;
  while (pcap_next_ex(p, &h, &d) == 1) {
    out.push_back({*h, std::string(reinterpret_cast<const char*>(d), h->caplen),
                   std::ftell(pcap_file(p)) - static_cast<long>(h->caplen)});
  }
  pcap_close(p);
  return out;
}

TEST(FixCapture, FixesEveryBadChecksumAndChangesNothingElse) {
  for (const std::string& name : Captures()) {
    SCOPED_TRACE(name);
    const std::string in = kDir + name;
    const std::string out = TmpPath("fixed-" + name);
    CaptureReport before = VerifyCapture(in, nullptr, false);
    absl::StatusOr<FixReport> fixed = FixCapture(in, out);
    ASSERT_TRUE(fixed.ok()) << fixed.status();
    // A fixed inner field also changes the outer UDP or GRE checksums that
    // cover it (verify.h, FixFrame).
    EXPECT_GE(fixed->fields, before.tally.Count(Verdict::kBad));
    if (before.tally.tunneled == 0) {
      EXPECT_EQ(fixed->fields, before.tally.Count(Verdict::kBad));
    }
    EXPECT_GT(fixed->fields, 0u);

    CaptureReport after = VerifyCapture(out, nullptr, false);
    ASSERT_TRUE(after.status.ok()) << after.status;
    EXPECT_EQ(after.linktype, before.linktype);
    EXPECT_EQ(after.tally.packets, before.tally.packets);
    EXPECT_EQ(after.tally.Count(Verdict::kBad), 0u);
    EXPECT_EQ(
        after.tally.Count(Verdict::kGood),
        before.tally.Count(Verdict::kGood) + before.tally.Count(Verdict::kBad));
    EXPECT_EQ(after.tally.Count(Verdict::kUnverified),
              before.tally.Count(Verdict::kUnverified));
    EXPECT_EQ(after.tally.Count(Verdict::kNone),
              before.tally.Count(Verdict::kNone));

    // Packet by packet: same time, lengths and bytes, except the fields
    // that were bad, which now hold the computed value, and the outer
    // checksums covering them, which may change.
    std::vector<Packet> a = ReadPackets(in), b = ReadPackets(out);
    ASSERT_EQ(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i) {
      EXPECT_EQ(a[i].header.ts.tv_sec, b[i].header.ts.tv_sec);
      EXPECT_EQ(a[i].header.ts.tv_usec, b[i].header.ts.tv_usec);
      EXPECT_EQ(a[i].header.caplen, b[i].header.caplen);
      EXPECT_EQ(a[i].header.len, b[i].header.len);
      std::string expect = a[i].data;
      FrameCheck c =
          CheckFrame(before.linktype,
                     std::span<const uint8_t>(
                         reinterpret_cast<const uint8_t*>(a[i].data.data()),
                         a[i].data.size()),
                     a[i].header.len);
      for (const FieldCheck& f : c.checks()) {
        if (f.verdict != Verdict::kBad) continue;
        StoreBig16(expect.data() + f.offset, f.computed);
      }
      for (const FieldCheck& f : c.checks()) {
        if (f.verdict != Verdict::kBad && FixMayChange(c, f)) {
          StoreBig16(expect.data() + f.offset,
                     LoadBig16(reinterpret_cast<const uint8_t*>(
                         b[i].data.data() + f.offset)));
        }
      }
      EXPECT_EQ(b[i].data, expect) << "packet " << i + 1;
    }
    {
      // Byte-identical, in either format, but for the checksum bytes: their
      // file offsets come from the packets' places in the input.
      std::set<uint64_t> allowed;
      auto source = OpenFileSource(in);
      ASSERT_TRUE(source.ok()) << source.status();
      auto reader = CaptureReader::Open(std::move(*source), in);
      ASSERT_TRUE(reader.ok()) << reader.status();
      CaptureRecord rec;
      while (true) {
        absl::StatusOr<bool> more = (*reader)->Next(&rec);
        ASSERT_TRUE(more.ok()) << more.status();
        if (!*more) break;
        if (!rec.is_packet) continue;
        const FrameCheck c =
            CheckFrame(rec.linktype, rec.data, rec.wire_length);
        for (const FieldCheck& f : c.checks()) {
          if (!FixMayChange(c, f)) continue;
          allowed.insert(rec.offset + rec.data_offset + f.offset);
          allowed.insert(rec.offset + rec.data_offset + f.offset + 1);
        }
      }
      std::string x = ReadFile(in), y = ReadFile(out);
      ASSERT_EQ(x.size(), y.size());
      for (size_t i = 0; i < x.size(); ++i) {
        if (x[i] != y[i]) {
          EXPECT_TRUE(allowed.count(i)) << "byte " << i;
        }
      }
    }
  }
}

TEST(FixCapture, RecordsLongerThanTheSnapshotLength) {
  // A file header whose snapshot length (40) is below its records' caplen:
  // as in Wireshark, every record is read whole, so the verdicts are those
  // of the original file and fix patches the same bytes.
  const std::string original = kDir + "raw.pcap";
  std::string bytes = ReadFile(original);
  bytes[16] = 40;
  bytes[17] = bytes[18] = bytes[19] = 0;
  const std::string in = TmpPath("snap40.pcap");
  const std::string out = TmpPath("snap40-fixed.pcap");
  WriteFile(in, bytes);
  CaptureReport reference = VerifyCapture(original, nullptr, false);
  CaptureReport before = VerifyCapture(in, nullptr, false);
  ASSERT_TRUE(before.status.ok()) << before.status;
  EXPECT_EQ(before.tally.packets, 9u);
  const uint64_t bad = reference.tally.Count(Verdict::kBad);
  EXPECT_GT(bad, 0u);
  EXPECT_EQ(before.tally.Count(Verdict::kBad), bad);
  absl::StatusOr<FixReport> fixed = FixCapture(in, out);
  ASSERT_TRUE(fixed.ok()) << fixed.status();
  EXPECT_EQ(fixed->fields, bad);
  const std::string after = ReadFile(out);
  ASSERT_EQ(after.size(), bytes.size());
  uint64_t differ = 0;
  for (size_t i = 0; i < bytes.size(); ++i) differ += bytes[i] != after[i];
  EXPECT_GE(differ, 1u);
  EXPECT_LE(differ, 2 * bad);  // the two bytes of each bad field, at most
  EXPECT_EQ(VerifyCapture(out, nullptr, false).tally.Count(Verdict::kBad), 0u);
}

TEST(FixCapture, RefusesToOverwriteItsInput) {
  const std::string copy = TmpPath("self.pcap");
  WriteFile(copy, ReadFile(kDir + "raw.pcap"));
  absl::StatusOr<FixReport> r = FixCapture(copy, copy);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(ReadFile(copy), ReadFile(kDir + "raw.pcap"));
}

// ExpectError checks that verifying and fixing `path` fail with `code`, a
// message naming the file and holding `want`.
void ExpectError(const std::string& path, absl::StatusCode code,
                 const std::string& want) {
  CaptureReport r = VerifyCapture(path, nullptr, false);
  EXPECT_EQ(r.status.code(), code) << r.status;
  EXPECT_NE(r.status.message().find(path), std::string::npos) << r.status;
  EXPECT_NE(r.status.message().find(want), std::string::npos) << r.status;
  absl::StatusOr<FixReport> f = FixCapture(path, TmpPath("broken-out.pcap"));
  EXPECT_FALSE(f.ok());
}

TEST(VerifyCapture, TruncatedRecordNamesTheRecordAndItsOffset) {
  std::vector<Packet> packets = ReadPackets(kDir + "ethernet.pcap");
  ASSERT_GT(packets.size(), 3u);
  const std::string whole = ReadFile(kDir + "ethernet.pcap");
  // Cut inside the data of record 3; its header starts 16 bytes before its
  // data.
  const long record3 = packets[2].data_offset - 16;
  const std::string path = TmpPath("cut-data.pcap");
  WriteFile(path, whole.substr(0, packets[2].data_offset + 5));
  ExpectError(path, absl::StatusCode::kDataLoss,
              "record 3, at byte offset " + std::to_string(record3));
  CaptureReport r = VerifyCapture(path, nullptr, false);
  EXPECT_EQ(r.tally.packets, 2u);  // the records before still count

  const std::string header_cut = TmpPath("cut-header.pcap");
  WriteFile(header_cut, whole.substr(0, record3 + 7));
  ExpectError(header_cut, absl::StatusCode::kDataLoss,
              "at byte offset " + std::to_string(record3));
}

TEST(VerifyCapture, ForeignEmptyAndShortFilesAreRefused) {
  const std::string text = TmpPath("notes.pcap");
  WriteFile(text, "this is not a capture, it is a text file\n");
  ExpectError(text, absl::StatusCode::kInvalidArgument, "not a capture");
  const std::string empty = TmpPath("empty.pcap");
  WriteFile(empty, "");
  ExpectError(empty, absl::StatusCode::kInvalidArgument, "not a capture");
  const std::string short_header = TmpPath("short.pcap");
  WriteFile(short_header, ReadFile(kDir + "raw.pcap").substr(0, 10));
  ExpectError(short_header, absl::StatusCode::kInvalidArgument,
              "not a capture");
  const std::string pcapng_cut = TmpPath("cut.pcapng");
  WriteFile(pcapng_cut,
            ReadFile(kDir + "ethernet-pcapng.pcapng").substr(0, 200));
  ExpectError(pcapng_cut, absl::StatusCode::kDataLoss, "byte offset");
}

TEST(VerifyCapture, LyingRecordLengthIsAnError) {
  // A record whose captured length claims 2 GB: libpcap refuses it, and no
  // byte past the file is read.
  std::string bytes = ReadFile(kDir + "raw.pcap");
  ASSERT_GT(bytes.size(), 40u);
  bytes[24 + 8] = bytes[24 + 9] = bytes[24 + 10] = '\xff';
  bytes[24 + 11] = '\x7f';  // little-endian caplen 0x7fffffff
  const std::string path = TmpPath("lying.pcap");
  WriteFile(path, bytes);
  ExpectError(path, absl::StatusCode::kDataLoss, "record 1, at byte offset 24");
}

// Le32 appends `v` little-endian.
void Le32(std::string& b, uint32_t v) {
  for (int i = 0; i < 4; ++i) b.push_back(static_cast<char>(v >> (8 * i)));
}

// Block appends a pcapng block of `type` around `body`.
void Block(std::string& out, uint32_t type, std::string body) {
  while (body.size() % 4) body.push_back('\0');
  Le32(out, type);
  Le32(out, static_cast<uint32_t>(body.size() + 12));
  out += body;
  Le32(out, static_cast<uint32_t>(body.size() + 12));
}

TEST(VerifyCapture, PcapngInterfacesOfDifferentLinkTypesEachKeepTheirOwn) {
  // An Ethernet frame on interface 0 (LINKTYPE_ETHERNET) and a raw IP
  // packet on interface 1 (LINKTYPE_RAW), taken from the bundled captures:
  // each is judged under its own interface's link type, as in Wireshark.
  const Packet eth = ReadPackets(kDir + "ethernet.pcap").at(0);
  const Packet raw = ReadPackets(kDir + "raw.pcap").at(0);
  std::string file, body;
  Le32(body, 0x1a2b3c4d);
  Le32(body, 1);  // version 1.0
  Le32(body, 0xffffffff);
  Le32(body, 0xffffffff);
  Block(file, 0x0a0d0d0a, body);
  for (uint32_t linktype : {1u, 101u}) {
    body.clear();
    Le32(body, linktype);
    Le32(body, 65535);
    Block(file, 1, body);
  }
  uint32_t iface = 0;
  for (const Packet* p : {&eth, &raw}) {
    body.clear();
    const uint32_t n = static_cast<uint32_t>(p->data.size());
    for (uint32_t v : {iface++, 0u, 0u, n, n}) Le32(body, v);
    body += p->data;
    Block(file, 6, body);
  }
  const std::string path = TmpPath("mixed.pcapng");
  WriteFile(path, file);
  std::vector<FrameKind> kinds;
  CaptureReport r = VerifyCapture(
      path, [&](uint64_t, const FrameCheck& c) { kinds.push_back(c.kind); },
      false);
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.tally.packets, 2u);
  EXPECT_TRUE(r.mixed_linktypes);
  ASSERT_EQ(kinds.size(), 2u);
  for (FrameKind k : kinds) {
    EXPECT_TRUE(k == FrameKind::kIPv4 || k == FrameKind::kIPv6);
  }
}

TEST(VerifyCapture, MissingFileAndDirectory) {
  CaptureReport r = VerifyCapture("/nonexistent/x.pcap", nullptr, false);
  EXPECT_EQ(r.status.code(), absl::StatusCode::kNotFound);
  EXPECT_NE(r.status.message().find("/nonexistent/x.pcap"), std::string::npos);
  r = VerifyCapture("testdata/captures", nullptr, false);
  EXPECT_EQ(r.status.code(), absl::StatusCode::kFailedPrecondition);
}

}  // namespace
}  // namespace ipsum::csum
