// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// csum: Internet checksums from the command line.
//
//   csum                  verify the captures bundled in testdata/captures
//                         and check the verdicts against their ground truth
//   csum sum FILE...      the 16-bit sum of each file ("-" is standard input)
//   csum verify [--format=summary|tsv|json] CAPTURE...
//                         judge every IPv4, TCP, UDP, UDP-Lite, ICMPv4,
//                         ICMPv6 and GRE checksum in pcap / pcapng
//                         captures, tunnels included
//   csum fix IN OUT       write IN with every bad checksum corrected to OUT
//   csum --cpu            the checksum implementations and the one chosen
//   csum help             usage
//
// Exit status: 0 success (verify: every verified checksum good), 1 verify
// found a bad checksum (or, with no arguments, a verdict differs from the
// ground truth), 2 usage error or unreadable input (the other inputs are
// still processed).

#include <dirent.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "tools/csum/capture.h"
#include "tools/csum/cpu.h"
#include "tools/csum/report.h"
#include "tools/csum/sum.h"

namespace ipsum::csum {
namespace {

constexpr int kExitOk = 0;
constexpr int kExitBad = 1;
constexpr int kExitUsage = 2;

constexpr char kUsage[] =
    "usage: csum [COMMAND [ARGS...]]\n"
    "\n"
    "commands:\n"
    "  (none)        verify the captures bundled in testdata/captures, print\n"
    "                their summaries and compare every verdict with the\n"
    "                ground truth next to each capture (NAME.tsv)\n"
    "  sum FILE...   print the Internet checksum (RFC 1071 one's-complement\n"
    "                sum, folded, not complemented) of each FILE in hex, and\n"
    "                the implementation that computed it; '-' reads stdin\n"
    "  verify [--format=summary|tsv|json] CAPTURE...\n"
    "                judge every IPv4 header, TCP, UDP, UDP-Lite, ICMPv4,\n"
    "                ICMPv6 and GRE checksum of each packet in pcap or\n"
    "                pcapng files (any link type the README lists), inside\n"
    "                IP-in-IP, GRE, VXLAN and Geneve tunnels too: good, bad,\n"
    "                unverified (not all covered bytes captured, a fragment,\n"
    "                or quoted in an ICMP error) or none (UDP/IPv4 without\n"
    "                checksum). A datagram whose headers cannot be read is\n"
    "                one unverified record of layer 'ip'.\n"
    "                summary: a table per capture; tsv: one line per field\n"
    "                (frame layer verdict stored computed csum_off reason\n"
    "                ip_depth; reason: offload for a bad checksum an\n"
    "                offloading host left, truncated, fragment, bad-length,\n"
    "                routing-header, quoted, malformed or unsupported for\n"
    "                an unverified one;\n"
    "                ip_depth: 1 for the outermost IP header, 2 inside a\n"
    "                tunnel or ICMP quote, ...); json: the same as JSON\n"
    "                lines.\n"
    "                tsv/json print the summary on\n"
    "                stderr. Several captures add a 'file' column.\n"
    "                CAPTURE '-' reads standard input.\n"
    "  fix IN OUT    copy capture IN ('-': standard input) to OUT in the\n"
    "                same format with every bad checksum corrected; only\n"
    "                the checksum bytes change\n"
    "  --cpu         the checksum implementations built in, their measured\n"
    "                speed and the one chosen\n"
    "  help          print this message\n"
    "\n"
    "exit status: 0 success, 1 a bad checksum was found, 2 usage error or\n"
    "unreadable input\n";

int Usage(const std::string& error) {
  if (!error.empty()) absl::FPrintF(stderr, "csum: %s\n", error);
  absl::FPrintF(stderr, "%s", kUsage);
  return kExitUsage;
}

int RunSum(const std::vector<std::string>& args) {
  if (args.empty()) return Usage("sum: no input files (use - for stdin)");
  int status = kExitOk;
  const std::string impl = ActiveImplementationName();
  for (const std::string& path : args) {
    absl::StatusOr<uint16_t> sum = SumPath(path);
    if (!sum.ok()) {
      absl::FPrintF(stderr, "csum: %s\n", sum.status().message());
      status = kExitUsage;
      continue;
    }
    absl::PrintF("%04x  %s  %s\n", *sum, impl, path);
  }
  return status;
}

enum class Format { kSummary, kTsv, kJson };

// Output buffers stdout writes.
class Output {
 public:
  ~Output() { Flush(); }
  std::string& buffer() { return buffer_; }
  void MaybeFlush() {
    if (buffer_.size() >= (1 << 16)) Flush();
  }
  void Flush() {
    std::fwrite(buffer_.data(), 1, buffer_.size(), stdout);
    buffer_.clear();
  }

 private:
  std::string buffer_;
};

int RunVerify(const std::vector<std::string>& args) {
  Format format = Format::kSummary;
  std::vector<std::string> paths;
  for (const std::string& arg : args) {
    if (arg == "--format=summary") {
      format = Format::kSummary;
    } else if (arg == "--format=tsv") {
      format = Format::kTsv;
    } else if (arg == "--format=json") {
      format = Format::kJson;
    } else if (absl::StartsWith(arg, "-") && arg != "-" && paths.empty()) {
      return Usage(absl::StrCat("verify: unknown option '", arg, "'"));
    } else {
      paths.push_back(arg);
    }
  }
  if (paths.empty()) return Usage("verify: no capture files");
  const bool with_file = paths.size() > 1;
  Output out;
  if (format == Format::kTsv) AppendTsvHeader(out.buffer(), with_file);
  int status = kExitOk;
  Tally total;
  FILE* summary_stream = format == Format::kSummary ? stdout : stderr;
  bool first = true;
  for (const std::string& path : paths) {
    const std::string file = with_file ? path : std::string();
    FrameVisitor visit;
    if (format != Format::kSummary) {
      visit = [&](uint64_t frame, const FrameCheck& check) {
        for (const FieldCheck& f : check.checks()) {
          if (format == Format::kTsv) {
            AppendTsv(out.buffer(), file, frame, f);
          } else {
            AppendJson(out.buffer(), file, frame, f);
          }
        }
        out.MaybeFlush();
      };
    }
    CaptureReport report = VerifyCapture(path, visit, /*progress=*/true);
    out.Flush();
    if (report.status.ok() || report.tally.packets > 0) {
      absl::FPrintF(
          summary_stream, "%s%s", first ? "" : "\n",
          FormatSummary(report.Title(DisplayName(path)), report.tally));
      first = false;
      std::fflush(summary_stream);
    }
    if (!report.status.ok()) {
      absl::FPrintF(stderr, "csum: %s\n", report.status.message());
      status = kExitUsage;
    }
    if (report.tally.Count(Verdict::kBad) > 0 && status == kExitOk) {
      status = kExitBad;
    }
    total.Merge(report.tally);
  }
  if (paths.size() > 1) {
    absl::FPrintF(
        summary_stream, "\n%s",
        FormatSummary(absl::StrCat("all ", paths.size(), " captures"), total));
  }
  return status;
}

int RunFix(const std::vector<std::string>& args) {
  if (args.size() != 2) return Usage("fix: needs IN and OUT");
  absl::StatusOr<FixReport> report = FixCapture(args[0], args[1]);
  if (!report.ok()) {
    absl::FPrintF(stderr, "csum: %s\n", report.status().message());
    return kExitUsage;
  }
  absl::PrintF("%s -> %s: %d packets, fixed %d checksums in %d packets\n",
               DisplayName(args[0]), args[1], report->packets, report->fields,
               report->packets_fixed);
  return kExitOk;
}

// BundledCapturesDir finds testdata/captures: in the workspace under
// `bazel run`, in the runfiles when run from bazel-bin, else relative to
// the current directory (the project root).
std::string BundledCapturesDir() {
  constexpr char kRel[] = "testdata/captures";
  std::vector<std::string> candidates;
  if (const char* ws = std::getenv("BUILD_WORKSPACE_DIRECTORY")) {
    candidates.push_back(absl::StrCat(ws, "/", kRel));
  }
  if (const char* rf = std::getenv("RUNFILES_DIR")) {
    candidates.push_back(absl::StrCat(rf, "/ipsum/", kRel));
  }
  char exe[4096];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
  if (n > 0) {
    candidates.push_back(
        absl::StrCat(std::string(exe, n), ".runfiles/ipsum/", kRel));
  }
  candidates.push_back(kRel);
  for (const std::string& dir : candidates) {
    if (DIR* d = opendir(dir.c_str())) {
      closedir(d);
      return dir;
    }
  }
  return {};
}

std::vector<std::string> ListCaptures(const std::string& dir) {
  std::vector<std::string> names;
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d)) {
      std::string name = e->d_name;
      if (absl::EndsWith(name, ".pcap") || absl::EndsWith(name, ".pcapng")) {
        names.push_back(name);
      }
    }
    closedir(d);
  }
  std::sort(names.begin(), names.end());
  return names;
}

// RunBundled is the default job: verify each bundled capture, print its
// summary, and compare its TSV records with NAME.tsv.
int RunBundled() {
  const std::string dir = BundledCapturesDir();
  std::vector<std::string> names;
  if (!dir.empty()) names = ListCaptures(dir);
  if (names.empty()) {
    absl::FPrintF(stderr,
                  "csum: no bundled captures found (looked for "
                  "testdata/captures in the workspace, the runfiles and the "
                  "current directory)\n");
    return kExitUsage;
  }
  int status = kExitOk;
  size_t matched = 0;
  Tally total;
  for (const std::string& name : names) {
    const std::string path = absl::StrCat(dir, "/", name);
    std::string tsv(kTsvHeader);
    CaptureReport report = VerifyCapture(
        path,
        [&](uint64_t frame, const FrameCheck& check) {
          for (const FieldCheck& f : check.checks()) {
            AppendTsv(tsv, "", frame, f);
          }
        },
        /*progress=*/true);
    const std::string shown = absl::StrCat("testdata/captures/", name);
    absl::PrintF("%s\n", FormatSummary(report.Title(shown), report.tally));
    total.Merge(report.tally);
    if (!report.status.ok()) {
      absl::FPrintF(stderr, "csum: %s\n", report.status.message());
      status = kExitUsage;
      continue;
    }
    const std::string truth_path = path.substr(0, path.rfind('.')) + ".tsv";
    std::ifstream truth_file(truth_path);
    std::stringstream truth;
    truth << truth_file.rdbuf();
    if (!truth_file.is_open() || truth.str() != tsv) {
      absl::PrintF("  verdicts DIFFER from the ground truth %s%s\n\n",
                   truth_path, truth_file.is_open() ? "" : " (missing)");
      if (status == kExitOk) status = kExitBad;
    } else {
      ++matched;
    }
  }
  absl::PrintF("%s\n", FormatSummary(absl::StrCat("all ", names.size(),
                                                  " bundled captures"),
                                     total));
  absl::PrintF(
      "ground truth: %d of %d captures give exactly the verdicts in their "
      ".tsv file (the bad checksums in them are deliberate)\n",
      matched, names.size());
  return status;
}

int Main(int argc, char** argv) {
  // Under `bazel run`, relative paths are the user's, not the runfiles'.
  if (const char* wd = std::getenv("BUILD_WORKING_DIRECTORY")) {
    if (chdir(wd) != 0) {
      absl::FPrintF(stderr, "csum: cannot enter %s\n", wd);
      return kExitUsage;
    }
  }
  if (argc < 2) return RunBundled();
  std::string_view command = argv[1];
  std::vector<std::string> args(argv + 2, argv + argc);
  if (command == "sum") return RunSum(args);
  if (command == "verify") return RunVerify(args);
  if (command == "fix") return RunFix(args);
  if (command == "--cpu" || command == "cpu") {
    absl::PrintF("%s", CpuReport());
    return kExitOk;
  }
  if (command == "help" || command == "--help" || command == "-h") {
    absl::PrintF("%s", kUsage);
    return kExitOk;
  }
  return Usage(absl::StrCat("unknown command '", std::string(command), "'"));
}

}  // namespace
}  // namespace ipsum::csum

int main(int argc, char** argv) { return ipsum::csum::Main(argc, argv); }
