// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Summary tables and TSV / JSON records for `csum verify`; see report.h.

#include "tools/csum/report.h"

#include <cstdio>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace ipsum::csum {
namespace {

constexpr Layer kLayers[] = {Layer::kIPv4,   Layer::kTCP,    Layer::kUDP,
                             Layer::kICMPv4, Layer::kICMPv6, Layer::kUDPLite,
                             Layer::kGRE,    Layer::kIP};

// ReasonText is the `reason` column of `f`: its Reason, and "tso" for a
// field judged over a TSO super-packet.
std::string ReasonText(const FieldCheck& f) {
  std::string text(ReasonName(f.reason));
  if (f.tso) text += text.empty() ? "tso" : ",tso";
  return text;
}

// Hex16 formats `v` as "0x" and four lowercase hex digits.
std::string Hex16(uint16_t v) { return absl::StrFormat("0x%04x", v); }

void AppendJsonString(std::string& out, std::string_view s) {
  out += '"';
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20) {
      absl::StrAppendFormat(&out, "\\u%04x", c);
    } else {
      out += static_cast<char>(c);
    }
  }
  out += '"';
}

}  // namespace

void Tally::Add(const FrameCheck& check) {
  ++packets;
  switch (check.kind) {
    case FrameKind::kIPv4:
      ++ipv4;
      break;
    case FrameKind::kIPv6:
      ++ipv6;
      break;
    case FrameKind::kNotIP:
      ++not_ip;
      if (!check.reason.empty()) ++not_ip_reasons[std::string(check.reason)];
      break;
    case FrameKind::kUndecodable:
      ++undecodable;
      ++undecodable_reasons[std::string(check.reason)];
      break;
    case FrameKind::kUnsupportedLink:
      ++unsupported_link;
      break;
  }
  if (check.undecoded_depth != 0 && check.kind != FrameKind::kUndecodable) {
    ++unread_reasons[std::string(check.reason)];
  }
  for (const FieldCheck& f : check.checks()) {
    ++fields[static_cast<size_t>(f.layer)][static_cast<size_t>(f.verdict)];
    ++reasons[static_cast<size_t>(f.verdict)][static_cast<size_t>(f.reason)];
    tso += f.tso;
    inner_fields += f.ip_depth > 1 && f.reason != Reason::kQuoted;
  }
  tunneled += check.tunneled;
  depth_limited += check.depth_limited;
}

void Tally::Merge(const Tally& other) {
  packets += other.packets;
  ipv4 += other.ipv4;
  ipv6 += other.ipv6;
  not_ip += other.not_ip;
  undecodable += other.undecodable;
  unsupported_link += other.unsupported_link;
  for (const auto& [reason, n] : other.undecodable_reasons) {
    undecodable_reasons[reason] += n;
  }
  for (const auto& [reason, n] : other.not_ip_reasons) {
    not_ip_reasons[reason] += n;
  }
  for (const auto& [reason, n] : other.unread_reasons) {
    unread_reasons[reason] += n;
  }
  for (size_t l = 0; l < kLayerCount; ++l) {
    for (size_t v = 0; v < kVerdictCount; ++v) {
      fields[l][v] += other.fields[l][v];
    }
  }
  tso += other.tso;
  tunneled += other.tunneled;
  inner_fields += other.inner_fields;
  depth_limited += other.depth_limited;
  for (size_t v = 0; v < kVerdictCount; ++v) {
    for (size_t r = 0; r < kReasonCount; ++r) {
      reasons[v][r] += other.reasons[v][r];
    }
  }
}

uint64_t Tally::Count(Verdict verdict) const {
  uint64_t n = 0;
  for (const auto& row : fields) n += row[static_cast<size_t>(verdict)];
  return n;
}

std::string FormatSummary(std::string_view title, const Tally& t) {
  std::string out(title);
  absl::StrAppend(&out, ", ", t.packets, " packets (", t.ipv4, " ipv4, ",
                  t.ipv6, " ipv6");
  if (t.not_ip) absl::StrAppend(&out, ", ", t.not_ip, " not ip");
  if (t.undecodable) absl::StrAppend(&out, ", ", t.undecodable, " undecodable");
  if (t.unsupported_link) {
    absl::StrAppend(&out, ", ", t.unsupported_link, " of an unknown link type");
  }
  out += ")\n";
  auto by_reason = [&out](const char* what,
                          const std::map<std::string, uint64_t>& reasons) {
    if (reasons.empty()) return;
    absl::StrAppend(&out, "  ", what, ":");
    const char* sep = " ";
    for (const auto& [reason, n] : reasons) {
      absl::StrAppend(&out, sep, n, " ", reason.empty() ? "?" : reason);
      sep = ", ";
    }
    out += "\n";
  };
  by_reason("not ip", t.not_ip_reasons);
  by_reason("undecodable", t.undecodable_reasons);
  by_reason("unread", t.unread_reasons);
  constexpr char kRow[] = "  %-7s %9s %9s %9s %9s %11s %9s\n";
  absl::StrAppendFormat(&out, kRow, "layer", "fields", "verified", "good",
                        "bad", "unverified", "none");
  std::array<uint64_t, kVerdictCount> total{};
  auto row = [&](std::string_view name,
                 const std::array<uint64_t, kVerdictCount>& c) {
    uint64_t good = c[static_cast<size_t>(Verdict::kGood)];
    uint64_t bad = c[static_cast<size_t>(Verdict::kBad)];
    uint64_t unverified = c[static_cast<size_t>(Verdict::kUnverified)];
    uint64_t none = c[static_cast<size_t>(Verdict::kNone)];
    absl::StrAppendFormat(&out, kRow, std::string(name),
                          absl::StrCat(good + bad + unverified + none),
                          absl::StrCat(good + bad), absl::StrCat(good),
                          absl::StrCat(bad), absl::StrCat(unverified),
                          absl::StrCat(none));
  };
  for (Layer layer : kLayers) {
    const auto& c = t.fields[static_cast<size_t>(layer)];
    for (size_t v = 0; v < kVerdictCount; ++v) total[v] += c[v];
    // Datagrams csum could not read are a row only when there are any.
    if (layer == Layer::kIP &&
        c[static_cast<size_t>(Verdict::kUnverified)] == 0) {
      continue;
    }
    row(LayerName(layer), c);
  }
  row("total", total);
  // The bad and unverified fields by reason, in Reason order with kNone
  // last; a bad field without a reason is "unexplained".
  for (Verdict v : {Verdict::kBad, Verdict::kUnverified}) {
    const auto& by = t.reasons[static_cast<size_t>(v)];
    if (t.Count(v) == 0) continue;
    absl::StrAppend(&out, "  ", std::string(VerdictName(v)), ":");
    const char* sep = " ";
    for (size_t r = 1; r <= kReasonCount; ++r) {
      const size_t i = r % kReasonCount;  // kNone last
      if (by[i] == 0) continue;
      const std::string_view name = ReasonName(static_cast<Reason>(i));
      absl::StrAppend(&out, sep, by[i], " ",
                      name.empty() ? "unexplained" : std::string(name));
      sep = ", ";
    }
    out += "\n";
  }
  if (t.tso) {
    absl::StrAppend(&out, "  tso: ", t.tso, t.tso == 1 ? " field" : " fields",
                    " judged over the bytes of a TSO super-packet\n");
  }
  if (t.tunneled) {
    absl::StrAppend(&out, "  tunnels: ", t.tunneled,
                    t.tunneled == 1 ? " packet carries" : " packets carry",
                    " inner datagrams (", t.inner_fields,
                    t.inner_fields == 1 ? " field" : " fields",
                    " at ip_depth > 1)\n");
  }
  if (t.depth_limited) {
    absl::StrAppend(&out, "  depth: ", t.depth_limited,
                    t.depth_limited == 1 ? " packet nests" : " packets nest",
                    " more than ", kMaxIPDepth,
                    " IP headers; the rest is not read\n");
  }
  return out;
}

void AppendTsvHeader(std::string& out, bool with_file) {
  if (with_file) out += "file\t";
  out += kTsvHeader;
}

void AppendTsv(std::string& out, std::string_view file, uint64_t frame,
               const FieldCheck& f) {
  if (!file.empty()) {
    out.append(file);
    out += '\t';
  }
  absl::StrAppend(&out, frame);
  out += '\t';
  out.append(LayerName(f.layer));
  out += '\t';
  out.append(VerdictName(f.verdict));
  out += '\t';
  if (f.has_stored) out += Hex16(f.stored);
  out += '\t';
  if (f.has_computed) out += Hex16(f.computed);
  out += '\t';
  if (f.has_stored) absl::StrAppend(&out, f.offset);
  out += '\t';
  out += ReasonText(f);
  out += '\t';
  absl::StrAppend(&out, static_cast<int>(f.ip_depth));
  out += '\n';
}

void AppendJson(std::string& out, std::string_view file, uint64_t frame,
                const FieldCheck& f) {
  out += '{';
  if (!file.empty()) {
    out += "\"file\":";
    AppendJsonString(out, file);
    out += ',';
  }
  absl::StrAppend(&out, "\"frame\":", frame, ",\"layer\":\"");
  out.append(LayerName(f.layer));
  out += "\",\"verdict\":\"";
  out.append(VerdictName(f.verdict));
  absl::StrAppend(
      &out, "\",\"stored\":",
      f.has_stored ? absl::StrCat("\"", Hex16(f.stored), "\"") : "null",
      ",\"computed\":",
      f.has_computed ? absl::StrCat("\"", Hex16(f.computed), "\"") : "null",
      ",\"csum_off\":", f.has_stored ? absl::StrCat(f.offset) : "null",
      ",\"reason\":",
      f.reason == Reason::kNone && !f.tso
          ? "null"
          : absl::StrCat("\"", ReasonText(f), "\""),
      ",\"ip_depth\":", static_cast<int>(f.ip_depth), "}\n");
}

}  // namespace ipsum::csum
