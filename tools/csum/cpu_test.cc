// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// The `csum --cpu` report names the implementation `csum sum` uses, and the
// one chosen for each function.

#include "tools/csum/cpu.h"

#include <string>

#include "checksum/dispatch.h"
#include "gtest/gtest.h"

namespace ipsum::csum {
namespace {

TEST(Cpu, ReportListsTheActiveImplementation) {
  const std::string name = ActiveImplementationName();
  ASSERT_FALSE(name.empty());
  const std::string report = CpuReport();
  EXPECT_NE(report.find(name), std::string::npos) << report;
  EXPECT_NE(report.find("portable"), std::string::npos) << report;
  EXPECT_EQ(report.back(), '\n');
  const checksum::Selection& s = checksum::Report();
  EXPECT_EQ(name, s.sum_name);
  EXPECT_NE(report.find("chosen: sum " + s.sum_name + ", copy " + s.copy_name +
                        ", pieces " + s.pieces_name),
            std::string::npos)
      << report;
}

}  // namespace
}  // namespace ipsum::csum
