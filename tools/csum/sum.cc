// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0

#include "tools/csum/sum.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "checksum/checksum.h"

namespace ipsum::csum {
namespace {

constexpr size_t kBlockSize = 256 * 1024;

absl::Status ErrnoStatus(int err, const std::string& what) {
  std::string msg = absl::StrCat(what, ": ", std::strerror(err));
  switch (err) {
    case ENOENT:
    case ENOTDIR:
      return absl::NotFoundError(msg);
    case EACCES:
    case EPERM:
      return absl::PermissionDeniedError(msg);
    case EISDIR:
      return absl::FailedPreconditionError(msg);
    default:
      return absl::UnknownError(msg);
  }
}

}  // namespace

absl::StatusOr<uint16_t> SumFd(int fd, const std::string& name) {
  auto block = std::make_unique<uint8_t[]>(kBlockSize);
  checksum::Checksummer sum;
  for (;;) {
    ssize_t n = read(fd, block.get(), kBlockSize);
    if (n < 0) {
      if (errno == EINTR) continue;
      return ErrnoStatus(errno, name);
    }
    if (n == 0) break;
    sum.Add(block.get(), static_cast<size_t>(n));
  }
  return sum.Sum();
}

absl::StatusOr<uint16_t> SumPath(const std::string& path) {
  if (path == "-") return SumFd(STDIN_FILENO, "(standard input)");
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return ErrnoStatus(errno, path);
  struct stat st;
  if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
    close(fd);
    return ErrnoStatus(EISDIR, path);
  }
  absl::StatusOr<uint16_t> result = SumFd(fd, path);
  close(fd);
  return result;
}

}  // namespace ipsum::csum
