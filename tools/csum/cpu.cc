// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// The implementation report of `csum --cpu`; see cpu.h.

#include "tools/csum/cpu.h"

#include "checksum/dispatch.h"

namespace ipsum::csum {

std::string ActiveImplementationName() { return checksum::Report().sum_name; }

std::string CpuReport() {
  std::string report = checksum::FormatReport();
  if (!report.empty() && report.back() != '\n') report += '\n';
  return report;
}

}  // namespace ipsum::csum
