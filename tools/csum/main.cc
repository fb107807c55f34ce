// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// csum: Internet checksums from the command line.
//
//   csum sum FILE...     the 16-bit sum of each file ("-" is standard input)
//   csum help            usage
//
// Exit status: 0 on success, 2 on a usage error or an unreadable input (the
// other inputs are still processed).

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/str_format.h"
#include "tools/csum/cpu.h"
#include "tools/csum/sum.h"

namespace ipsum::csum {
namespace {

constexpr int kExitOk = 0;
constexpr int kExitUsage = 2;

constexpr char kUsage[] =
    "usage: csum COMMAND [ARGS...]\n"
    "\n"
    "commands:\n"
    "  sum FILE...   print the Internet checksum (RFC 1071 one's-complement\n"
    "                sum, folded, not complemented) of each FILE in hex, and\n"
    "                the implementation that computed it; '-' reads stdin\n"
    "  help          print this message\n"
    "\n"
    "exit status: 0 success, 2 usage error or unreadable input\n";

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

int Main(int argc, char** argv) {
  // Under `bazel run`, relative paths are the user's, not the runfiles'.
  if (const char* wd = std::getenv("BUILD_WORKING_DIRECTORY")) {
    if (chdir(wd) != 0) {
      absl::FPrintF(stderr, "csum: cannot enter %s\n", wd);
      return kExitUsage;
    }
  }
  if (argc < 2) return Usage("no command");
  std::string_view command = argv[1];
  std::vector<std::string> args(argv + 2, argv + argc);
  if (command == "sum") return RunSum(args);
  if (command == "help" || command == "--help" || command == "-h") {
    absl::PrintF("%s", kUsage);
    return kExitOk;
  }
  return Usage(absl::StrFormat("unknown command '%s'", command));
}

}  // namespace
}  // namespace ipsum::csum

int main(int argc, char** argv) { return ipsum::csum::Main(argc, argv); }
