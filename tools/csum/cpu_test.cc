// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// The `csum --cpu` report names the implementation `csum sum` uses.

#include "tools/csum/cpu.h"

#include <string>

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
}

}  // namespace
}  // namespace ipsum::csum
