// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// `csum sum`: the Internet checksum of whole files, streamed through
// checksum::Checksummer so a file of any size is summed in fixed memory.

#ifndef IPSUM_TOOLS_CSUM_SUM_H_
#define IPSUM_TOOLS_CSUM_SUM_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"

namespace ipsum::csum {

// SumFd returns the 16-bit one's-complement sum (RFC 1071, folded, not
// complemented) of everything readable from `fd` until end of file. `name`
// only labels errors. Reads in 256 KiB blocks; does not close `fd`.
absl::StatusOr<uint16_t> SumFd(int fd, const std::string& name);

// SumPath opens `path` ("-" is standard input) and returns SumFd of it.
// Errors name the path and the system's reason (NotFound, PermissionDenied,
// FailedPrecondition for a directory, ...).
absl::StatusOr<uint16_t> SumPath(const std::string& path);

}  // namespace ipsum::csum

#endif  // IPSUM_TOOLS_CSUM_SUM_H_
