// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// SumPath against the known-answer files in testdata/checksum, whose sums a
// byte-wise Python reference wrote to SUMS, and its errors.

#include "tools/csum/sum.h"

#include <fcntl.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "gtest/gtest.h"

namespace ipsum::csum {
namespace {

constexpr char kDir[] = "testdata/checksum/";

std::vector<std::pair<uint16_t, std::string>> ReadSums() {
  std::ifstream in(std::string(kDir) + "SUMS");
  std::vector<std::pair<uint16_t, std::string>> sums;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string hex, name;
    fields >> hex >> name;
    sums.emplace_back(static_cast<uint16_t>(std::stoul(hex, nullptr, 16)),
                      name);
  }
  return sums;
}

TEST(SumPath, MatchesKnownAnswerFiles) {
  auto sums = ReadSums();
  ASSERT_GE(sums.size(), 7u);
  for (const auto& [want, name] : sums) {
    absl::StatusOr<uint16_t> got = SumPath(kDir + name);
    ASSERT_TRUE(got.ok()) << got.status();
    EXPECT_EQ(*got, want) << name;
  }
}

TEST(SumFd, ReadsAPipeInPieces) {
  // The RFC 1071 example, written into a pipe in two odd-length pieces.
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  const uint8_t bytes[] = {0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7};
  ASSERT_EQ(write(fds[1], bytes, 3), 3);
  ASSERT_EQ(write(fds[1], bytes + 3, 5), 5);
  close(fds[1]);
  absl::StatusOr<uint16_t> got = SumFd(fds[0], "pipe");
  close(fds[0]);
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(*got, 0xddf2);
}

TEST(SumPath, MissingFileIsNotFoundAndNamed) {
  absl::StatusOr<uint16_t> got = SumPath("testdata/checksum/no-such-file");
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.status().code(), absl::StatusCode::kNotFound);
  EXPECT_NE(got.status().message().find("no-such-file"), std::string::npos);
}

TEST(SumPath, DirectoryIsRefused) {
  absl::StatusOr<uint16_t> got = SumPath("testdata/checksum");
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.status().code(), absl::StatusCode::kFailedPrecondition);
}

}  // namespace
}  // namespace ipsum::csum
