// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// The capture reader on files built here byte by byte: classic pcap in
// every variant, pcapng with several sections of both byte orders, several
// interfaces and every packet block type, block types to pass over, broken
// files (every prefix of a valid one among them), a generated stream past
// 4 GiB, and `fix` of a pcapng changing nothing but checksum bytes. Needs no
// libpcap: runs on every configuration, big-endian mips64 included.

#include "tools/csum/pcap_reader.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "tools/csum/capture.h"
#include "tools/csum/report.h"
#include "tools/csum/verify.h"

namespace ipsum::csum {
namespace {

// Out builds a file in one byte order.
struct Out {
  explicit Out(bool big_endian = false) : big(big_endian) {}
  bool big;
  std::string bytes;
  void U16(uint16_t v) {
    for (int i = 0; i < 2; ++i) {
      bytes.push_back(static_cast<char>(v >> (big ? 8 * (1 - i) : 8 * i)));
    }
  }
  void U32(uint32_t v) {
    for (int i = 0; i < 4; ++i) {
      bytes.push_back(static_cast<char>(v >> (big ? 8 * (3 - i) : 8 * i)));
    }
  }
  // Block appends a pcapng block; `body` is padded to 4 bytes.
  void Block(uint32_t type, std::string body) {
    while (body.size() % 4) body.push_back('\0');
    U32(type);
    U32(static_cast<uint32_t>(body.size() + 12));
    bytes += body;
    U32(static_cast<uint32_t>(body.size() + 12));
  }
  std::string Take() { return std::exchange(bytes, std::string()); }
};

// StringSource hands out `bytes` at most `chunk` at a time.
class StringSource : public ByteSource {
 public:
  StringSource(std::string bytes, size_t chunk)
      : bytes_(std::move(bytes)), chunk_(chunk) {}
  absl::StatusOr<size_t> Read(std::span<uint8_t> out) override {
    size_t n = std::min({out.size(), chunk_, bytes_.size() - at_});
    std::memcpy(out.data(), bytes_.data() + at_, n);
    at_ += n;
    return n;
  }

 private:
  std::string bytes_;
  size_t chunk_;
  size_t at_ = 0;
};

struct Seen {
  uint64_t offset;
  bool packet;
  uint32_t linktype;
  std::string data;
};

// ReadAll reads `bytes` through the reader; the records' raw bytes must
// tile the file exactly.
absl::Status ReadAll(const std::string& bytes, size_t chunk,
                     std::vector<Seen>* seen, CaptureFormat* format = nullptr) {
  auto reader =
      CaptureReader::Open(std::make_unique<StringSource>(bytes, chunk), "test");
  if (!reader.ok()) return reader.status();
  if (format) *format = (*reader)->format();
  std::string tiled;
  CaptureRecord r;
  for (;;) {
    absl::StatusOr<bool> more = (*reader)->Next(&r);
    if (!more.ok()) return more.status();
    if (!*more) break;
    EXPECT_EQ(r.offset, tiled.size());
    tiled.append(reinterpret_cast<const char*>(r.raw.data()), r.raw.size());
    seen->push_back({r.offset, r.is_packet, r.linktype,
                     std::string(reinterpret_cast<const char*>(r.data.data()),
                                 r.data.size())});
  }
  EXPECT_EQ(tiled, bytes);
  return absl::OkStatus();
}

std::string Payload(size_t n, char seed) {
  std::string s;
  for (size_t i = 0; i < n; ++i) s.push_back(static_cast<char>(seed + i));
  return s;
}

TEST(CaptureReader, ClassicPcapEveryVariant) {
  for (bool big : {false, true}) {
    for (uint32_t magic : {0xa1b2c3d4u, 0xa1b23c4du, 0xa1b2cd34u}) {
      SCOPED_TRACE(testing::Message() << big << " " << std::hex << magic);
      const bool modified = magic == 0xa1b2cd34u;
      Out o(big);
      o.U32(magic);
      o.U16(2);
      o.U16(4);
      o.U32(0);
      o.U32(0);
      o.U32(8);               // snapshot length: records may exceed it
      o.U32(0x10000000 | 1);  // FCS bits above LINKTYPE_ETHERNET
      const std::vector<std::string> packets = {Payload(0, 1), Payload(5, 2),
                                                Payload(61, 3)};
      for (const std::string& p : packets) {
        o.U32(1);
        o.U32(2);
        o.U32(static_cast<uint32_t>(p.size()));
        o.U32(static_cast<uint32_t>(p.size() + 100));
        if (modified) {
          o.U32(3);  // ifindex
          o.U16(0x0800);
          o.bytes.append("\x04\x00", 2);
        }
        o.bytes += p;
      }
      const std::string file = o.Take();
      for (size_t chunk : {size_t{1}, size_t{7}, size_t{1} << 20}) {
        std::vector<Seen> seen;
        CaptureFormat format;
        ASSERT_TRUE(ReadAll(file, chunk, &seen, &format).ok());
        EXPECT_EQ(format, CaptureFormat::kPcap);
        ASSERT_EQ(seen.size(), 4u);
        EXPECT_FALSE(seen[0].packet);
        for (size_t i = 0; i < 3; ++i) {
          EXPECT_TRUE(seen[i + 1].packet);
          EXPECT_EQ(seen[i + 1].linktype, 1u);
          EXPECT_EQ(seen[i + 1].data, packets[i]);
        }
      }
    }
  }
}

// Shb appends a Section Header Block with a comment option.
void Shb(Out& o) {
  Out body(o.big);
  body.U32(0x1a2b3c4d);
  body.U16(1);
  body.U16(0);
  body.U32(0xffffffff);
  body.U32(0xffffffff);  // section length unknown
  body.U16(1);           // opt_comment
  body.U16(5);
  body.bytes += "hello\0\0\0";
  body.U16(0);
  body.U16(0);
  o.Block(0x0a0d0d0a, body.Take());
}

void Idb(Out& o, uint16_t linktype, uint32_t snaplen) {
  Out body(o.big);
  body.U16(linktype);
  body.U16(0);
  body.U32(snaplen);
  o.Block(1, body.Take());
}

void Epb(Out& o, uint32_t iface, const std::string& data) {
  Out body(o.big);
  body.U32(iface);
  body.U32(0);
  body.U32(0);
  body.U32(static_cast<uint32_t>(data.size()));
  body.U32(static_cast<uint32_t>(data.size()));
  body.bytes += data;
  while (body.bytes.size() % 4) body.bytes.push_back('\0');
  body.U16(1);  // opt_comment, then opt_endofopt
  body.U16(2);
  body.bytes += "hi\0\0";
  body.U16(0);
  body.U16(0);
  o.Block(6, body.Take());
}

// Pcapng is two sections, little- then big-endian (or the reverse), with
// interfaces of three link types, every packet block type and blocks to
// pass over; `want` gets the packets a reader must see.
std::string Pcapng(bool big_first, std::vector<Seen>* want) {
  Out o(big_first);
  Shb(o);
  Idb(o, 1, 65535);
  Idb(o, 101, 4);
  o.Block(4, std::string(8, '\0'));           // Name Resolution Block
  Epb(o, 1, Payload(10, 'a'));                // EPB ignores the snaplen
  o.Block(0x00000bad, std::string(20, 'x'));  // custom block
  {
    Out body(o.big);
    body.U32(7);  // Simple Packet Block on interface 0
    body.bytes += Payload(7, 'b');
    o.Block(3, body.Take());
  }
  {
    Out body(o.big);  // obsolete Packet Block on interface 0
    body.U16(0);
    body.U16(0);
    body.U32(0);
    body.U32(0);
    body.U32(3);
    body.U32(9);
    body.bytes += Payload(3, 'c');
    o.Block(2, body.Take());
  }
  o.Block(5, std::string(12, '\0'));  // Interface Statistics Block
  std::string file = o.Take();
  Out o2(!big_first);
  Shb(o2);
  Idb(o2, 113, 3);
  {
    Out body(o2.big);
    body.U32(10);  // SPB cut at interface 0's snapshot length, 3
    body.bytes += Payload(10, 'd');
    o2.Block(3, body.Take());
  }
  Epb(o2, 0, Payload(12, 'e'));
  file += o2.Take();
  *want = {{0, true, 101, Payload(10, 'a')},
           {0, true, 1, Payload(7, 'b')},
           {0, true, 1, Payload(3, 'c')},
           {0, true, 113, Payload(3, 'd')},
           {0, true, 113, Payload(12, 'e')}};
  return file;
}

TEST(CaptureReader, PcapngSectionsInterfacesAndBlockTypes) {
  for (bool big_first : {false, true}) {
    std::vector<Seen> want;
    const std::string file = Pcapng(big_first, &want);
    for (size_t chunk : {size_t{1}, size_t{5}, size_t{1} << 20}) {
      std::vector<Seen> seen;
      CaptureFormat format;
      ASSERT_TRUE(ReadAll(file, chunk, &seen, &format).ok());
      EXPECT_EQ(format, CaptureFormat::kPcapng);
      std::vector<Seen> packets;
      for (const Seen& s : seen) {
        if (s.packet) packets.push_back(s);
      }
      EXPECT_EQ(seen.size(), 13u);  // every block
      ASSERT_EQ(packets.size(), want.size());
      for (size_t i = 0; i < want.size(); ++i) {
        EXPECT_EQ(packets[i].linktype, want[i].linktype) << i;
        EXPECT_EQ(packets[i].data, want[i].data) << i;
      }
    }
  }
}

TEST(CaptureReader, EveryPrefixIsACleanEndOrAnError) {
  std::vector<Seen> want;
  const std::string file = Pcapng(false, &want);
  for (size_t n = 0; n < file.size(); ++n) {
    std::vector<Seen> seen;
    absl::Status s = ReadAll(file.substr(0, n), 3, &seen);
    if (n < 4) {
      EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << n;
    } else if (!s.ok()) {
      EXPECT_EQ(s.code(), absl::StatusCode::kDataLoss) << n;
      EXPECT_NE(s.message().find("truncated"), std::string::npos) << s;
    }
  }
}

// ExpectBroken expects `file` to read to an error holding `want`.
void ExpectBroken(const std::string& file, absl::StatusCode code,
                  const std::string& want) {
  std::vector<Seen> seen;
  absl::Status s = ReadAll(file, 1 << 20, &seen);
  EXPECT_EQ(s.code(), code) << s;
  EXPECT_NE(s.message().find(want), std::string::npos) << s;
  EXPECT_EQ(s.message().rfind("test: ", 0), 0u) << s;  // names the file
}

TEST(CaptureReader, BrokenFilesAreTypedErrorsWithBlockAndOffset) {
  ExpectBroken("GET / HTTP/1.1\r\n\r\nabcdefgh",
               absl::StatusCode::kInvalidArgument, "not a capture");
  Out o;
  Shb(o);
  const std::string shb = o.Take();
  const uint64_t at = shb.size();
  const std::string where = "(block 2, at byte offset " + std::to_string(at);
  o.Block(1, std::string(8, '\0'));  // an IDB
  std::string bad = shb + o.Take();
  bad[at + 4] = 13;  // length not a multiple of 4
  ExpectBroken(bad, absl::StatusCode::kDataLoss,
               "block length 13 is invalid " + where);
  Idb(o, 1, 0);
  bad = shb + o.Take();
  bad[bad.size() - 4] = 24;  // trailing length differs
  ExpectBroken(bad, absl::StatusCode::kDataLoss,
               "trailing length differs from its leading one " + where);
  Epb(o, 0, "x");
  ExpectBroken(shb + o.Take(), absl::StatusCode::kDataLoss,
               "interface 0, which the section has not described " + where);
  Idb(o, 1, 0);
  Epb(o, 0, "abcd");
  bad = shb + o.Take();
  bad[at + 20 + 8 + 12] = 100;  // EPB caplen past its block
  ExpectBroken(
      bad, absl::StatusCode::kDataLoss,
      "exceeds its block (block 3, at byte offset " + std::to_string(at + 20));
  Out p;  // pcap: a 2 GiB record
  for (uint32_t v : {0xa1b2c3d4u, 0x00040002u, 0u, 0u, 65535u, 1u}) p.U32(v);
  const std::string header = p.Take();
  for (uint32_t v : {0u, 0u, 0x7fffffffu, 0x7fffffffu}) p.U32(v);
  ExpectBroken(header + p.Take(), absl::StatusCode::kDataLoss,
               "(record 1, at byte offset 24)");
}

// HugeSource generates a pcap stream past 4 GiB: `count` records of
// `size` zero bytes, then one 20-byte record, then a cut record header.
class HugeSource : public ByteSource {
 public:
  HugeSource(uint64_t count, uint32_t size) : count_(count), size_(size) {
    Out o;
    for (uint32_t v : {0xa1b2c3d4u, 0x00040002u, 0u, 0u, 65535u, 147u}) {
      o.U32(v);
    }
    Push(o.Take());
  }
  absl::StatusOr<size_t> Read(std::span<uint8_t> out) override {
    if (pending_.empty() && zeros_ == 0) Refill();
    if (!pending_.empty()) {
      size_t n = std::min(out.size(), pending_.size());
      std::memcpy(out.data(), pending_.data(), n);
      pending_.erase(0, n);
      return n;
    }
    size_t n = static_cast<size_t>(std::min<uint64_t>(out.size(), zeros_));
    std::memset(out.data(), 0, n);
    zeros_ -= n;
    return n;
  }

 private:
  void Push(std::string s) { pending_ += s; }
  Out Header(uint32_t len) {
    Out o;
    for (uint32_t v : {0u, 0u, len, len}) o.U32(v);
    return o;
  }
  void Refill() {
    if (emitted_ < count_) {
      ++emitted_;
      Push(Header(size_).Take());
      zeros_ = size_;
    } else if (emitted_ == count_) {
      ++emitted_;
      Push(Header(20).Take() + std::string(20, 'z') + "cut");
    }
  }
  uint64_t count_;
  uint32_t size_;
  uint64_t emitted_ = 0;
  uint64_t zeros_ = 0;
  std::string pending_;
};

TEST(CaptureReader, OffsetsPastFourGibibytes) {
  constexpr uint32_t kSize = 8 << 20;
  constexpr uint64_t kCount = 513;  // 513 * 8 MiB > 4 GiB
  const uint64_t last = 24 + kCount * (16 + kSize);
  ASSERT_GT(last, uint64_t{1} << 32);
  auto reader =
      CaptureReader::Open(std::make_unique<HugeSource>(kCount, kSize), "huge");
  ASSERT_TRUE(reader.ok());
  CaptureRecord r;
  uint64_t packets = 0;
  absl::StatusOr<bool> more;
  while ((more = (*reader)->Next(&r)).ok() && *more) {
    if (r.is_packet) ++packets;
    if (packets == kCount + 1) {
      EXPECT_EQ(r.offset, last);
      EXPECT_EQ(r.number, kCount + 1);
      EXPECT_EQ(std::string(reinterpret_cast<const char*>(r.data.data()),
                            r.data.size()),
                std::string(20, 'z'));
    }
  }
  EXPECT_EQ(packets, kCount + 1);
  ASSERT_FALSE(more.ok());
  EXPECT_NE(more.status().message().find(
                "(record " + std::to_string(kCount + 2) + ", at byte offset " +
                std::to_string(last + 36) + ")"),
            std::string::npos)
      << more.status();
}

// Checksum is the RFC 1071 checksum of `n` bytes, byte by byte: the reference.
uint16_t Checksum(const std::string& b, size_t at, size_t n) {
  uint32_t s = 0;
  for (size_t i = 0; i < n; i += 2) {
    s += (static_cast<uint8_t>(b[at + i]) << 8) |
         static_cast<uint8_t>(b[at + i + 1]);
  }
  while (s >> 16) s = (s & 0xffff) + (s >> 16);
  return static_cast<uint16_t>(~s);
}

TEST(FixCapture, PcapngKeepsEveryBlockAndChangesOnlyChecksumBytes) {
  // Raw IPv4 packets (no transport checksum: protocol 253, for
  // experiments) with a wrong header checksum, in a file of two sections
  // of both byte orders with comments, statistics and unknown blocks.
  const std::string ip(
      "\x45\x00\x00\x18\x00\x01\x00\x00\x40\xfd\xbe\xef"
      "\x0a\x00\x00\x01\x0a\x00\x00\x02wxyz",
      24);
  ASSERT_EQ(ip.size(), 24u);
  std::string file;
  for (bool big : {false, true}) {
    Out o(big);
    Shb(o);
    Idb(o, 1, 0);
    Idb(o, 101, 0);
    o.Block(5, std::string(12, 's'));
    Epb(o, 1, ip);
    o.Block(0x40000bad, std::string(8, 'c'));
    file += o.Take();
  }
  const char* tmp = std::getenv("TEST_TMPDIR");
  const std::string dir = tmp ? tmp : "/tmp";
  const std::string in = dir + "/fix-in.pcapng", out = dir + "/fix-out.pcapng";
  std::ofstream(in, std::ios::binary) << file;
  absl::StatusOr<FixReport> fixed = FixCapture(in, out);
  ASSERT_TRUE(fixed.ok()) << fixed.status();
  EXPECT_EQ(fixed->format, CaptureFormat::kPcapng);
  EXPECT_EQ(fixed->packets, 2u);
  EXPECT_EQ(fixed->fields, 2u);
  std::stringstream got;
  got << std::ifstream(out, std::ios::binary).rdbuf();
  const std::string after = got.str();
  ASSERT_EQ(after.size(), file.size());
  std::string want_ip = ip;
  want_ip[10] = want_ip[11] = 0;
  const uint16_t sum = Checksum(want_ip, 0, 20);
  want_ip[10] = static_cast<char>(sum >> 8);
  want_ip[11] = static_cast<char>(sum);
  std::string want = file;
  for (size_t at = 0; (at = want.find(ip, at)) != std::string::npos;) {
    want.replace(at, ip.size(), want_ip);
  }
  EXPECT_NE(want, file);
  EXPECT_EQ(after, want);  // byte for byte: only the two checksum fields
  CaptureReport again = VerifyCapture(out, nullptr, false);
  ASSERT_TRUE(again.status.ok()) << again.status;
  EXPECT_EQ(again.tally.packets, 2u);
  EXPECT_EQ(again.tally.Count(Verdict::kBad), 0u);
  EXPECT_EQ(again.tally.Count(Verdict::kGood), 2u);
}

}  // namespace
}  // namespace ipsum::csum
