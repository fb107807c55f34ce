// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// A main() for fuzz targets built without libFuzzer: it replays inputs
// through LLVMFuzzerTestOneInput, which is all a corpus regression test needs
// and works with any compiler and on any CPU (gcc, the mips64 and aarch64
// cross compilers under QEMU). Each `ipsum_cc_fuzz_test` (fuzz.bzl) gets a
// `<name>_regression` test that runs this over its seed corpus.
//
//   replay [FILE_OR_DIRECTORY...]
//
// It first runs the empty input, then every file named on the command line,
// then every regular file under every directory named there (recursively, in
// sorted order). Each input is copied into a heap block of exactly its size,
// so AddressSanitizer reports a read one byte past the end, as libFuzzer's
// own driver does. Arguments starting with '-' are libFuzzer flags and are
// ignored. A crash is the failure signal; the last line printed names the
// input being run.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);
extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv)
    __attribute__((weak));

namespace {

// RunOne runs one input, copied into an exact-size allocation.
void RunOne(const std::string& name, const std::vector<char>& bytes) {
  std::fprintf(stderr, "replay: %s (%zu bytes)\n", name.c_str(), bytes.size());
  std::unique_ptr<uint8_t[]> copy(new uint8_t[bytes.size()]);
  if (!bytes.empty()) std::memcpy(copy.get(), bytes.data(), bytes.size());
  LLVMFuzzerTestOneInput(copy.get(), bytes.size());
}

// ReadFile returns the contents of `path`; false if it cannot be read.
bool ReadFile(const std::filesystem::path& path, std::vector<char>* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  out->assign(std::istreambuf_iterator<char>(in),
              std::istreambuf_iterator<char>());
  return !in.bad();
}

}  // namespace

int main(int argc, char** argv) {
  if (LLVMFuzzerInitialize != nullptr) LLVMFuzzerInitialize(&argc, &argv);

  std::vector<std::filesystem::path> inputs;
  for (int i = 1; i < argc; ++i) {
    if (argv[i][0] == '-') continue;
    std::filesystem::path arg(argv[i]);
    std::error_code error;
    if (std::filesystem::is_directory(arg, error)) {
      std::vector<std::filesystem::path> files;
      for (const auto& entry :
           std::filesystem::recursive_directory_iterator(arg)) {
        if (entry.is_regular_file()) files.push_back(entry.path());
      }
      std::sort(files.begin(), files.end());
      inputs.insert(inputs.end(), files.begin(), files.end());
    } else {
      inputs.push_back(arg);
    }
  }

  RunOne("<empty>", {});
  std::vector<char> bytes;
  for (const auto& path : inputs) {
    if (!ReadFile(path, &bytes)) {
      std::fprintf(stderr, "replay: cannot read %s\n", path.c_str());
      return 1;
    }
    RunOne(path.string(), bytes);
  }
  std::fprintf(stderr, "replay: %zu inputs OK\n", inputs.size() + 1);
  return 0;
}
