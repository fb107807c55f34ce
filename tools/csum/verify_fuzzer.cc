// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Fuzzes csum's per-frame verdict without libpcap (so it also runs on the
// cross configs): CheckFrame on a captured frame of any supported link type,
// then FixFrame. The input is
//
//   link type selector (1 byte) | frame
//
// Properties: CheckFrame says what CheckFrameGeneral says (its fast path
// for the common shape changes nothing), before and after FixFrame; every
// field CheckFrame reports lies inside the frame (its two bytes, when
// stored); good and bad verdicts carry a computed value, and a bad field
// does not store it; FixFrame changes only the bytes of bad
// fields and of the judged UDP and GRE checksums around them, and
// afterwards CheckFrame finds the same fields, none bad. And `computed`
// equals an independent reference: the fuzzer locates each IP header
// itself (fixed link header sizes, Ethernet tags walked here, then IP in
// IP, GRE, VXLAN and Geneve followed here), builds the pseudo-header itself
// and sums byte pairs one by one. It covers the IPv4 header, and TCP, UDP,
// UDP-Lite, ICMPv4, ICMPv6 and GRE directly behind an IPv4 header without
// options or an IPv6 header without extension headers, at every ip_depth.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "testing/fuzz/fuzz_util.h"
#include "tools/csum/link.h"
#include "tools/csum/verify.h"

namespace ipsum::csum {
namespace {

constexpr uint32_t kLinkTypes[] = {
    0, 1, 101, 108, 113, 228, 229, 276,
};

bool IsIP(int ether_type) {
  return ether_type == 0x0800 || ether_type == 0x86dd;
}

// Network returns where the IP header starts in a frame of `linktype`, or
// SIZE_MAX when the fuzzer does not follow the link layer.
size_t Network(uint32_t linktype, std::span<const uint8_t> f) {
  switch (linktype) {
    case 101:
    case 228:
    case 229:
      return 0;
    case 0:
    case 108:
      return 4;
    // Linux cooked captures may carry VLAN tags too; the reference follows
    // only IP directly behind them.
    case 113:
      return f.size() >= 16 && IsIP(f[14] << 8 | f[15]) ? 16 : SIZE_MAX;
    case 276:
      return f.size() >= 20 && IsIP(f[0] << 8 | f[1]) ? 20 : SIZE_MAX;
    case 1: {
      size_t at = 12;
      for (int tags = 0; tags <= 2; ++tags) {
        if (at + 2 > f.size()) return SIZE_MAX;
        const uint16_t type = static_cast<uint16_t>(f[at] << 8 | f[at + 1]);
        if (type != 0x8100 && type != 0x88a8) {
          return IsIP(type) ? at + 2 : SIZE_MAX;  // not behind a shim
        }
        at += 4;
      }
      return SIZE_MAX;
    }
  }
  return SIZE_MAX;
}

// Sum is the byte-by-byte one's-complement sum of RFC 1071: big-endian
// byte pairs (an odd last byte padded with zero) added, carries folded.
struct Sum {
  uint64_t total = 0;
  void Add16(uint32_t v) { total += v; }
  // Bytes adds `b` with the two bytes at `zero_at` (even) read as zero.
  void Bytes(std::span<const uint8_t> b, size_t zero_at) {
    for (size_t i = 0; i < b.size(); i += 2) {
      if (i == zero_at) continue;
      const uint32_t lo = i + 1 < b.size() ? b[i + 1] : 0;
      total += uint32_t{b[i]} << 8 | lo;
    }
  }
  uint16_t Complement() const {
    uint64_t t = total;
    while (t >> 16) t = (t & 0xffff) + (t >> 16);
    return static_cast<uint16_t>(~t);
  }
};

uint16_t Be16(std::span<const uint8_t> f, size_t at) {
  return static_cast<uint16_t>(f[at] << 8 | f[at + 1]);
}

// Level is an IP header found by the fuzzer: at `net` in a span that ends
// where the datagram around it does.
struct Level {
  size_t net = SIZE_MAX;
  size_t limit = 0;
};

// InnerLevel follows the tunnels csum follows from the IP header at
// `at.net` (IPv4 without options, IPv6 without extension headers, not a
// fragment); net stays SIZE_MAX when there is none.
Level InnerLevel(std::span<const uint8_t> f, Level at) {
  Level in;
  const size_t net = at.net;
  f = f.first(at.limit);
  if (net + 40 > f.size()) return in;
  size_t t, end;
  uint8_t next;
  if (f[net] >> 4 == 4) {
    if ((f[net] & 0x0f) != 5 || (Be16(f, net + 6) & 0x3fff) != 0) return in;
    t = net + 20;
    end = net + Be16(f, net + 2);
    next = f[net + 9];
  } else {
    t = net + 40;
    end = t + Be16(f, net + 4);
    next = f[net + 6];
  }
  end = std::min(end, f.size());
  if (t >= end) return in;
  size_t payload = SIZE_MAX;
  uint16_t type = 0;
  if (next == 4 || next == 41) {
    payload = t;
    type = 0x0800;
  } else if (next == 47 && t + 4 <= end && (Be16(f, t) & 0x4007) == 0) {
    const uint16_t flags = Be16(f, t);
    payload =
        t + 4 + 4 * ((flags >> 15 & 1) + (flags >> 13 & 1) + (flags >> 12 & 1));
    type = Be16(f, t + 2);
  } else if (next == 17 && t + 8 <= end) {
    const size_t length = Be16(f, t + 4);
    if (length < 8 || t + length > (f[net] >> 4 == 4 ? net + Be16(f, net + 2)
                                                     : t + Be16(f, net + 4))) {
      return in;
    }
    end = std::min(end, t + length);
    if (Be16(f, t + 2) == 4789) {
      payload = t + 16;
      type = 0x6558;
    } else if (Be16(f, t + 2) == 6081 && t + 16 <= end && f[t + 8] >> 6 == 0) {
      payload = t + 16 + size_t{f[t + 8] & 0x3fu} * 4;
      type = Be16(f, t + 10);
    }
  }
  if (payload == SIZE_MAX || payload > end) return in;
  if (type == 0x0800 || type == 0x86dd) {
    in.net = payload;
  } else if (type == 0x6558) {
    const size_t eth = Network(1, f.subspan(payload, end - payload));
    if (eth != SIZE_MAX) in.net = payload + eth;
  }
  in.limit = end;
  return in;
}

// CheckLevel compares the `computed` of every judged field at `depth` with
// the reference for the IP header at `net` in `f`.
void CheckLevel(const FrameCheck& c, std::span<const uint8_t> f, size_t net,
                uint8_t depth) {
  if (net == SIZE_MAX || net + 40 > f.size()) return;
  const unsigned version = f[net] >> 4;
  for (const FieldCheck& field : c.checks()) {
    if (!field.has_computed || field.tso || field.ip_depth != depth) continue;
    if (field.layer == Layer::kIPv4) {
      const size_t ihl = size_t{f[net] & 0x0fu} * 4;
      IPSUM_FUZZ_CHECK(version == 4 && field.offset == net + 10);
      IPSUM_FUZZ_CHECK(net + ihl <= f.size());
      Sum s;
      s.Bytes(f.subspan(net, ihl), 10);
      IPSUM_FUZZ_CHECK(field.computed == s.Complement());
      continue;
    }
    size_t t, total_end, next;
    Sum s;
    if (version == 4) {
      if ((f[net] & 0x0f) != 5) continue;  // options: maybe a source route
      t = net + 20;
      total_end = net + Be16(f, net + 2);
      next = f[net + 9];
    } else {
      if (version != 6) continue;
      next = f[net + 6];
      if (next != 6 && next != 17 && next != 58 && next != 136 && next != 47) {
        continue;
      }
      t = net + 40;
      total_end = t + Be16(f, net + 4);
    }
    const size_t field_at = next == 6                   ? 16
                            : next == 17 || next == 136 ? 6
                            : next == 47                ? 4
                                                        : 2;
    IPSUM_FUZZ_CHECK(field.offset == t + field_at);
    // UDP covers its own length, which may end before the IP payload does
    // (and before the capture does, when that cut the payload).
    size_t end = total_end;
    if (next == 17) end = t + Be16(f, t + 4);
    if (next == 136 && Be16(f, t + 4) != 0) end = t + Be16(f, t + 4);
    IPSUM_FUZZ_CHECK(end <= total_end && end <= f.size());
    const uint32_t length =
        static_cast<uint32_t>((next == 17 ? end : total_end) - t);
    if (next != 1 && next != 47) {  // the pseudo-header, built here
      const size_t addr = version == 4 ? net + 12 : net + 8;
      s.Bytes(f.subspan(addr, version == 4 ? 8 : 32), SIZE_MAX);
      s.Add16(static_cast<uint32_t>(next));
      s.Add16(length >> 16);
      s.Add16(length & 0xffff);
    }
    s.Bytes(f.subspan(t, end - t), field_at);
    uint16_t want = s.Complement();
    if ((next == 17 || next == 136) && want == 0) want = 0xffff;
    IPSUM_FUZZ_CHECK(field.computed == want);
  }
}

// CheckReference checks every IP header the fuzzer can follow.
void CheckReference(uint32_t linktype, const FrameCheck& c,
                    std::span<const uint8_t> f) {
  Level level{Network(linktype, f), f.size()};
  for (uint8_t depth = 1; depth <= kMaxIPDepth && level.net != SIZE_MAX;
       ++depth) {
    CheckLevel(c, f.first(level.limit), level.net, depth);
    level = InnerLevel(f, level);
  }
}

size_t CountBad(const FrameCheck& c) {
  size_t n = 0;
  for (const FieldCheck& f : c.checks()) n += f.verdict == Verdict::kBad;
  return n;
}

void CheckFields(const FrameCheck& c, std::span<const uint8_t> frame) {
  IPSUM_FUZZ_CHECK(c.field_count <= kMaxFieldsPerFrame);
  for (const FieldCheck& f : c.checks()) {
    if (f.has_stored) {
      IPSUM_FUZZ_CHECK(f.offset + 2 <= frame.size());
      IPSUM_FUZZ_CHECK(f.stored ==
                       (uint16_t{frame[f.offset]} << 8 | frame[f.offset + 1]));
    }
    const bool judged =
        f.verdict == Verdict::kGood || f.verdict == Verdict::kBad;
    IPSUM_FUZZ_CHECK(f.has_computed == judged);
    if (judged) IPSUM_FUZZ_CHECK(f.has_stored);
    if (f.verdict == Verdict::kBad) IPSUM_FUZZ_CHECK(f.stored != f.computed);
    // A datagram csum could not read: one record, no field, a reason.
    if (f.layer == Layer::kIP) {
      IPSUM_FUZZ_CHECK(f.verdict == Verdict::kUnverified && !f.has_stored);
      IPSUM_FUZZ_CHECK(
          f.reason == Reason::kMalformed || f.reason == Reason::kUnsupported ||
          f.reason == Reason::kTruncated || f.reason == Reason::kBadLength ||
          f.reason == Reason::kQuoted);
      IPSUM_FUZZ_CHECK(&f == &c.checks().back());  // nothing read past it
      IPSUM_FUZZ_CHECK(f.reason == Reason::kQuoted ||
                       (c.undecoded_depth == f.ip_depth && !c.reason.empty()));
    }
  }
}

}  // namespace
}  // namespace ipsum::csum

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace ipsum::csum;
  if (size == 0) return 0;
  const uint32_t linktype =
      kLinkTypes[data[0] % (sizeof(kLinkTypes) / sizeof(kLinkTypes[0]))];
  ipsum::fuzz::AlignedCopy frame({data + 1, size - 1}, data[0] >> 3);
  const FrameCheck check = CheckFrame(linktype, frame.span());
  IPSUM_FUZZ_CHECK(check == CheckFrameGeneral(linktype, frame.span()));
  CheckFields(check, frame.span());
  CheckReference(linktype, check, frame.span());

  std::vector<uint8_t> fixed(frame.span().begin(), frame.span().end());
  const size_t bad = CountBad(check);
  IPSUM_FUZZ_CHECK(FixFrame(check, fixed) >= bad);
  // Only the bytes of bad fields, and of the checksums around them, changed.
  for (size_t i = 0; i < fixed.size(); ++i) {
    if (fixed[i] == frame.data()[i]) continue;
    bool in_bad_field = false;
    for (const FieldCheck& f : check.checks()) {
      in_bad_field |=
          FixMayChange(check, f) && i >= f.offset && i < f.offset + 2;
    }
    IPSUM_FUZZ_CHECK(in_bad_field);
  }
  // A fixed frame has right checksums, so CheckFrame's fast path takes
  // it when it has the fast shape.
  const FrameCheck again = CheckFrame(linktype, fixed);
  IPSUM_FUZZ_CHECK(again == CheckFrameGeneral(linktype, fixed));
  CheckFields(again, fixed);
  IPSUM_FUZZ_CHECK(again.kind == check.kind);
  IPSUM_FUZZ_CHECK(again.field_count == check.field_count);
  IPSUM_FUZZ_CHECK(CountBad(again) == 0);
  return 0;
}
