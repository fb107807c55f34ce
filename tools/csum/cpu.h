// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// What `csum` says about the checksum implementations it runs on: the name
// `csum sum` prints next to each sum, and the `csum --cpu` report (every
// implementation built in, whether this CPU supports it, its measured
// speeds, and the one chosen for each of the sum, the fused copy and the sum
// of pieces), both from checksum/dispatch.h.

#ifndef IPSUM_TOOLS_CSUM_CPU_H_
#define IPSUM_TOOLS_CSUM_CPU_H_

#include <string>

namespace ipsum::csum {

// ActiveImplementationName returns the name of the implementation behind
// checksum::Checksum, the sum `csum sum` computes, in this process
// ("portable", "x86_avx2", ...).
std::string ActiveImplementationName();

// CpuReport returns the `csum --cpu` text: checksum::FormatReport(), which
// ends with a newline.
std::string CpuReport();

}  // namespace ipsum::csum

#endif  // IPSUM_TOOLS_CSUM_CPU_H_
