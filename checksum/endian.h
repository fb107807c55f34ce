// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Big-endian loads and stores. This is the one place in ipsum that knows the
// host's byte order: everything else calls these helpers. Values in the API
// are host order; network (big-endian) order exists only in bytes. Loads and
// stores go through memcpy, so they are valid at any alignment and compile to
// a single (byte-swapped) load or store on every target we build for.

#ifndef IPSUM_CHECKSUM_ENDIAN_H_
#define IPSUM_CHECKSUM_ENDIAN_H_

#include <bit>
#include <cstdint>
#include <cstring>

namespace ipsum {

// kHostIsBigEndian is true on big-endian hosts (mips64, s390x).
inline constexpr bool kHostIsBigEndian =
    std::endian::native == std::endian::big;

// ByteSwap16 reverses the two bytes of `v`.
constexpr uint16_t ByteSwap16(uint16_t v) {
  return static_cast<uint16_t>((v << 8) | (v >> 8));
}

// ByteSwap32 reverses the four bytes of `v`.
constexpr uint32_t ByteSwap32(uint32_t v) { return __builtin_bswap32(v); }

// ByteSwap64 reverses the eight bytes of `v`.
constexpr uint64_t ByteSwap64(uint64_t v) { return __builtin_bswap64(v); }

// LoadBig16 reads a big-endian 16-bit value from `p` (any alignment).
inline uint16_t LoadBig16(const void* p) {
  uint16_t v;
  std::memcpy(&v, p, sizeof(v));
  return kHostIsBigEndian ? v : ByteSwap16(v);
}

// LoadBig32 reads a big-endian 32-bit value from `p` (any alignment).
inline uint32_t LoadBig32(const void* p) {
  uint32_t v;
  std::memcpy(&v, p, sizeof(v));
  return kHostIsBigEndian ? v : ByteSwap32(v);
}

// LoadBig64 reads a big-endian 64-bit value from `p` (any alignment).
inline uint64_t LoadBig64(const void* p) {
  uint64_t v;
  std::memcpy(&v, p, sizeof(v));
  return kHostIsBigEndian ? v : ByteSwap64(v);
}

// StoreBig16 writes `v` to `p` in big-endian order (any alignment).
inline void StoreBig16(void* p, uint16_t v) {
  if (!kHostIsBigEndian) v = ByteSwap16(v);
  std::memcpy(p, &v, sizeof(v));
}

// StoreBig32 writes `v` to `p` in big-endian order (any alignment).
inline void StoreBig32(void* p, uint32_t v) {
  if (!kHostIsBigEndian) v = ByteSwap32(v);
  std::memcpy(p, &v, sizeof(v));
}

// StoreBig64 writes `v` to `p` in big-endian order (any alignment).
inline void StoreBig64(void* p, uint64_t v) {
  if (!kHostIsBigEndian) v = ByteSwap64(v);
  std::memcpy(p, &v, sizeof(v));
}

}  // namespace ipsum

#endif  // IPSUM_CHECKSUM_ENDIAN_H_
