// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// What `csum verify` prints: a per-capture `Tally` of frames and verdicts
// rendered as a summary table, and one record per checksum field as a
// tab-separated line or a JSON line:
//
//   frame  layer  verdict     stored  computed  csum_off  reason    ip_depth
//   3      tcp    bad         0x1c2d  0x1c3d    50                  1
//   4      tcp    bad         0x9a41  0x1c3d    50        offload   1
//   5      udp    unverified  0x77e0            40        fragment  1
//   6      tcp    good        0x5e21  0x5e21    104                 2
//
// `frame` is the 1-based packet number; `stored` and `computed` are "0x" and
// four lowercase hex digits; `computed` is empty for unverified and none,
// `stored` and `csum_off` (the field's offset from the first byte of the
// frame, link-layer header included) are empty when the field is not in the
// captured bytes. `reason` (verify.h, Reason) is empty for good and none
// verdicts and for a bad value with no known cause; a field judged over a
// TSO super-packet adds `tso` to it ("tso", "offload,tso"). `ip_depth` is the
// IP header the field belongs to, 1 for the outermost, more inside a tunnel
// or an ICMP error's quote (verify.h). JSON lines carry
// the same keys, with null for empty. When more than one capture is reported at
// once, each record starts with a `file` column (key).
//
// No libpcap here: this compiles and is tested on every target.

#ifndef IPSUM_TOOLS_CSUM_REPORT_H_
#define IPSUM_TOOLS_CSUM_REPORT_H_

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "tools/csum/verify.h"

namespace ipsum::csum {

// Tally counts the frames of a capture and the verdicts on their fields.
struct Tally {
  uint64_t packets = 0;
  uint64_t ipv4 = 0;
  uint64_t ipv6 = 0;
  uint64_t not_ip = 0;
  uint64_t undecodable = 0;
  uint64_t unsupported_link = 0;
  // undecodable_reasons counts the undecodable frames by reason.
  std::map<std::string, uint64_t> undecodable_reasons;
  // not_ip_reasons counts the not-IP frames whose link layer csum could
  // not follow, by reason (link.h).
  std::map<std::string, uint64_t> not_ip_reasons;
  // unread_reasons counts, by reason, the frames of another kind with a
  // datagram whose headers csum could not read (FrameCheck::
  // undecoded_depth): one inside a tunnel, or an outermost IPv6 header
  // cut short.
  std::map<std::string, uint64_t> unread_reasons;
  // fields[layer][verdict] counts the checksum fields met.
  std::array<std::array<uint64_t, kVerdictCount>, kLayerCount> fields{};
  // reasons[verdict][reason] counts them by verdict and reason.
  std::array<std::array<uint64_t, kReasonCount>, kVerdictCount> reasons{};
  // tso counts the fields judged over a TSO super-packet.
  uint64_t tso = 0;
  // tunneled counts the frames with a datagram inside a tunnel;
  // depth_limited those nesting more than kMaxIPDepth IP headers.
  // inner_fields counts their fields past the outermost IP header, quotes
  // left out.
  uint64_t tunneled = 0;
  uint64_t inner_fields = 0;
  uint64_t depth_limited = 0;

  // Add counts one frame and its fields.
  void Add(const FrameCheck& check);
  // Merge adds every count of `other`.
  void Merge(const Tally& other);
  // Count returns how many fields had `verdict`, over every layer.
  uint64_t Count(Verdict verdict) const;
};

// FormatSummary renders `tally` as a table headed by `title` (the capture's
// name and kind), one row per layer and a total row:
//
//   NAME: pcap, ethernet, 12 packets (8 ipv4, 3 ipv6, 1 not ip)
//     undecodable: 1 IPv4 IHL below 5       (only when there are any)
//     unread: 1 GRE header truncated          (only when there are any)
//     layer   fields  verified   good    bad  unverified   none
//     ipv4         8         8      7      1           0      0
//     ...
//     ip           1         0      0      0           1      0  (if any)
//     total       19        17     15      2           1      1
//     bad: 1 offload, 1 unexplained          (only when there are any)
//     unverified: 1 truncated
//     tso: 1 field judged over the bytes of a TSO super-packet
//     tunnels: 2 packets carry inner datagrams (3 fields at ip_depth > 1)
//     depth: 1 packet nests more than 8 IP headers; the rest is not read
std::string FormatSummary(std::string_view title, const Tally& tally);

// kTsvHeader is the header line of --format=tsv (without the `file`
// column), newline included.
inline constexpr std::string_view kTsvHeader =
    "frame\tlayer\tverdict\tstored\tcomputed\tcsum_off\treason\tip_depth\n";

// AppendTsvHeader appends kTsvHeader to `out`, with a leading `file` column
// when `with_file`.
void AppendTsvHeader(std::string& out, bool with_file);

// AppendTsv appends the record of `field`, met in packet `frame` (1-based),
// as one tab-separated line. A non-empty `file` adds the leading column.
void AppendTsv(std::string& out, std::string_view file, uint64_t frame,
               const FieldCheck& field);

// AppendJson appends the record of `field` as one JSON object and a
// newline; the keys are the TSV columns, in the same order, with numbers
// for `frame` and `csum_off`, strings for the rest, null for empty values.
void AppendJson(std::string& out, std::string_view file, uint64_t frame,
                const FieldCheck& field);

}  // namespace ipsum::csum

#endif  // IPSUM_TOOLS_CSUM_REPORT_H_
