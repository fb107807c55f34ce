// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Differential fuzzing of the checksum implementations. The input is
//
//   initial (2 bytes, big-endian) | split seed (1 byte) | data
//
// and for every start offset 0..63 (the data copied to an address that is
// that offset mod 64, ending exactly at the end of its heap block, the bytes
// before it poisoned under ASan) every implementation in
// CompiledImplementations() that this CPU supports must return the
// reference sum, and its copy_sum must return it too while writing exactly
// the destination (guard bytes on both sides untouched, the copy equal to
// the source; the destination sits at another offset mod 64). The public
// Checksum and a Checksummer fed the data in pieces (cut where the split
// seed says) must agree as well, and so must the RFC 1624 updates of
// update.h with a recomputation after a run of the data is replaced.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <span>
#include <vector>

#include "checksum/checksum.h"
#include "checksum/endian.h"
#include "checksum/internal/impl.h"
#include "checksum/internal/reference.h"
#include "checksum/update.h"
#include "testing/fuzz/fuzz_util.h"

namespace ipsum::checksum {
namespace {

using internal::Implementation;
using internal::ReferenceSum;

constexpr size_t kOffsets = 64;
constexpr size_t kGuard = 32;
constexpr uint8_t kGuardByte = 0xa5;

[[noreturn]] void Fail(const char* what, const char* impl, size_t offset,
                       size_t len, unsigned got, unsigned want) {
  std::fprintf(stderr,
               "checksum_fuzzer: %s: %s at offset %zu, len %zu: got %#06x, "
               "want %#06x\n",
               what, impl, offset, len, got, want);
  std::abort();
}

// CheckCopySum runs impl.copy_sum from `src` into a destination at
// `dst_offset` mod 64 with guard bytes around it.
void CheckCopySum(const Implementation& impl, std::span<const uint8_t> src,
                  uint16_t initial, uint16_t want, size_t dst_offset) {
  std::vector<uint8_t> zeros(kGuard + src.size() + kGuard, kGuardByte);
  fuzz::AlignedCopy dst(zeros, dst_offset);
  uint8_t* out = dst.data() + kGuard;
  const uint16_t got = impl.copy_sum(out, src.data(), src.size(), initial);
  if (got != want) {
    Fail("copy_sum", impl.name, dst_offset, src.size(), got, want);
  }
  if (!src.empty() && std::memcmp(out, src.data(), src.size()) != 0) {
    Fail("copy_sum copy differs", impl.name, dst_offset, src.size(), 0, 0);
  }
  for (size_t i = 0; i < kGuard; ++i) {
    if (dst.data()[i] != kGuardByte) {
      Fail("copy_sum wrote before dst", impl.name, dst_offset, src.size(),
           dst.data()[i], kGuardByte);
    }
    if (out[src.size() + i] != kGuardByte) {
      Fail("copy_sum wrote after dst", impl.name, dst_offset, src.size(),
           out[src.size() + i], kGuardByte);
    }
  }
}

}  // namespace
}  // namespace ipsum::checksum

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace ipsum::checksum;
  ipsum::fuzz::Reader in({data, size});
  const uint16_t initial = in.U16();
  const uint8_t split_seed = in.U8();
  const std::span<const uint8_t> bytes = in.Rest();

  const uint16_t want =
      internal::ReferenceSum(bytes.data(), bytes.size(), initial);
  for (size_t offset = 0; offset < kOffsets; ++offset) {
    ipsum::fuzz::AlignedCopy src(bytes, offset);
    for (const internal::Implementation& impl :
         internal::CompiledImplementations()) {
      if (!impl.supported()) continue;
      const uint16_t got = impl.sum(src.data(), src.size(), initial);
      if (got != want) Fail("sum", impl.name, offset, src.size(), got, want);
      CheckCopySum(impl, src.span(), initial, want, (offset * 37 + 11) % 64);
    }
  }

  ipsum::fuzz::AlignedCopy src(bytes, split_seed % kOffsets);
  const uint16_t got = Checksum(src.span(), initial);
  if (got != want) Fail("Checksum", "public", 0, src.size(), got, want);

  // A Checksummer fed pieces of lengths taken from the split seed (1..8
  // bytes, then a run of up to 64), the last piece whatever is left.
  Checksummer summer(initial);
  size_t pos = 0;
  uint8_t seed = split_seed;
  while (pos < src.size()) {
    size_t piece = (seed & 7) + 1 + ((seed & 8) ? (seed >> 4) * 4 : 0);
    if (piece > src.size() - pos) piece = src.size() - pos;
    if (seed & 0x80 && pos + piece < src.size()) {
      // Add a piece by its known sum instead of its bytes.
      summer.AddSum(internal::ReferenceSum(src.data() + pos, piece, 0), piece);
    } else {
      summer.Add(src.data() + pos, piece);
    }
    pos += piece;
    seed = static_cast<uint8_t>(seed * 73 + 41);
  }
  if (summer.Sum() != want || summer.length() != src.size()) {
    Fail("Checksummer", "public", split_seed, src.size(), summer.Sum(), want);
  }

  // RFC 1624 updates (update.h): replacing a run of bytes at an even
  // offset by bytes taken from the input's front must give the recomputed
  // stored field, except for all-zero new data (documented: 0x0000 where a
  // recompute gives 0xffff).
  if (bytes.size() >= 2) {
    std::vector<uint8_t> data(bytes.begin(), bytes.end());
    const uint16_t stored = static_cast<uint16_t>(
        ~internal::ReferenceSum(data.data(), data.size(), 0));
    const size_t at = (size_t{split_seed} * 2) % (data.size() & ~size_t{1});
    const size_t n = std::min<size_t>(2 + 2 * (initial % 8),
                                      (data.size() - at) & ~size_t{1});
    std::vector<uint8_t> old_bytes(data.begin() + at, data.begin() + at + n);
    for (size_t i = 0; i < n; ++i) {
      data[at + i] = static_cast<uint8_t>(initial >> (8 * (1 - i % 2)));
      if (i >= 2) data[at + i] ^= static_cast<uint8_t>(i * 37);
    }
    const uint16_t recomputed = static_cast<uint16_t>(
        ~internal::ReferenceSum(data.data(), data.size(), 0));
    const bool all_zero =
        std::all_of(data.begin(), data.end(), [](uint8_t b) { return b == 0; });
    auto check = [&](const char* what, uint16_t got) {
      if (got != recomputed && !(all_zero && got == 0)) {
        Fail(what, "update.h", at, n, got, recomputed);
      }
    };
    check("UpdateChecksumBytes",
          UpdateChecksumBytes(stored, old_bytes,
                              std::span<const uint8_t>(data).subspan(at, n)));
    if (n == 2) {
      check("UpdateChecksum16",
            UpdateChecksum16(stored, ipsum::LoadBig16(old_bytes.data()),
                             ipsum::LoadBig16(data.data() + at)));
    }
    if (n == 4) {
      check("UpdateChecksum32",
            UpdateChecksum32(stored, ipsum::LoadBig32(old_bytes.data()),
                             ipsum::LoadBig32(data.data() + at)));
    }
  }

  // sum_pieces of every implementation, and ChecksumPieces, over `src` cut
  // into up to 16 pieces whose lengths (0 included) come from the seeds.
  {
    std::span<const uint8_t> pieces[16];
    size_t count = 0, at = 0;
    uint16_t seed = static_cast<uint16_t>(split_seed * 257 + initial);
    while (count < 15 && at < src.size()) {
      size_t n = (seed % 3 == 0) ? seed % 5 : (seed >> 3) % 700;
      n = std::min(n, src.size() - at);
      pieces[count++] = src.span().subspan(at, n);
      at += n;
      // uint16_t * int is an int product: widen first (UBSan, signed overflow).
      seed = static_cast<uint16_t>(uint32_t{seed} * 40503u + 1u);
    }
    pieces[count++] = src.span().subspan(at);
    for (const internal::Implementation& impl :
         internal::CompiledImplementations()) {
      if (!impl.supported()) continue;
      const uint16_t got =
          impl.sum_pieces(pieces, count, sizeof(pieces[0]), initial);
      if (got != want)
        Fail("sum_pieces", impl.name, count, src.size(), got, want);
    }
    const uint16_t got = ChecksumPieces(std::span(pieces, count), initial);
    if (got != want)
      Fail("ChecksumPieces", "public", count, src.size(), got, want);
  }
  return 0;
}
