// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// The typed errors of header parsing and the small `Result<T>` that carries a
// parsed view or the reason there is none. Malformed packets are ordinary
// input on the data path: every `Parse` in this package returns a Result and
// never throws, allocates or reads outside the span it was given. `ToString`
// gives each error a stable name a person (or a pcap verifier's counter) can
// read.

#ifndef IPSUM_HEADER_ERROR_H_
#define IPSUM_HEADER_ERROR_H_

#include <cassert>
#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>

namespace ipsum::header {

// Error is why a parse or an encode failed. kOk means it did not.
enum class Error : uint8_t {
  // kOk: no error.
  kOk = 0,
  // kTruncated: the bytes end before the header (or the packet its length
  // fields declare) does.
  kTruncated,
  // kBadVersion: the IP version field is not 4 (IPv4) or 6 (IPv6).
  kBadVersion,
  // kBadHeaderLength: IPv4 IHL < 5 or TCP data offset < 5.
  kBadHeaderLength,
  // kBadTotalLength: IPv4 total length is less than the header length.
  kBadTotalLength,
  // kBadLength: a UDP length field is less than 8 (RFC 768).
  kBadLength,
  // kBadOptionLength: an IPv4, IPv6 or TCP option has a length below its
  // minimum, runs past the end of its option area, or a known option has the
  // wrong length.
  kBadOptionLength,
  // kBadOption: a known option whose contents are invalid: an IPv4 route
  // or timestamp option whose pointer is below its smallest legal value
  // (RFC 791 section 3.1).
  kBadOption,
  // kBadExtensionHeader: an IPv6 extension header runs past the payload
  // length its IPv6 header declares.
  kBadExtensionHeader,
  // kHopByHopNotFirst: an IPv6 Hop-by-Hop Options header that does not
  // immediately follow the IPv6 header (RFC 8200 section 4.1).
  kHopByHopNotFirst,
  // kTooManyExtensionHeaders: the IPv6 extension-header chain is longer than
  // the walk's bound (kMaxExtensionHeaders).
  kTooManyExtensionHeaders,
  // kBadFragment: fragment fields that cannot describe a valid fragment: an
  // offset plus length past 65535 bytes, or a non-last IPv6 fragment whose
  // length is not a multiple of 8 (RFC 8200 section 4.5).
  kBadFragment,
  // kBufferTooSmall: an encoder was given fewer bytes than it writes.
  kBufferTooSmall,
  // kBadField: an encoder was given a field value that cannot be encoded
  // (an option list longer than the header allows, an unaligned offset).
  kBadField,
};

// ToString returns the stable, human-readable name of `e`, e.g. "truncated".
constexpr std::string_view ToString(Error e) {
  switch (e) {
    case Error::kOk:
      return "ok";
    case Error::kTruncated:
      return "truncated";
    case Error::kBadVersion:
      return "bad version";
    case Error::kBadHeaderLength:
      return "bad header length";
    case Error::kBadTotalLength:
      return "bad total length";
    case Error::kBadLength:
      return "bad length";
    case Error::kBadOptionLength:
      return "bad option length";
    case Error::kBadOption:
      return "bad option";
    case Error::kBadExtensionHeader:
      return "bad extension header";
    case Error::kHopByHopNotFirst:
      return "hop-by-hop header not first";
    case Error::kTooManyExtensionHeaders:
      return "too many extension headers";
    case Error::kBadFragment:
      return "bad fragment";
    case Error::kBufferTooSmall:
      return "buffer too small";
    case Error::kBadField:
      return "bad field";
  }
  return "unknown error";
}

// Result holds either a value (a parsed view, a parsed option set) or the
// Error that explains why there is none. It is a small value type, like the
// C++23 std::expected<T, Error> it stands in for.
template <typename T>
class Result {
 public:
  // Result holds `value`.
  constexpr Result(T value) : value_(std::move(value)) {}  // NOLINT
  // Result holds `error`, which must not be kOk.
  constexpr Result(Error error) : error_(error) {  // NOLINT
    assert(error != Error::kOk);
  }

  // ok reports whether the Result holds a value.
  constexpr bool ok() const { return error_ == Error::kOk; }
  constexpr explicit operator bool() const { return ok(); }

  // error returns kOk when the Result holds a value, else the error.
  constexpr Error error() const { return error_; }

  // value returns the held value. Only valid when ok().
  constexpr const T& value() const& {
    assert(ok());
    return *value_;
  }
  constexpr T& value() & {
    assert(ok());
    return *value_;
  }
  constexpr const T& operator*() const& { return value(); }
  constexpr T& operator*() & { return value(); }
  constexpr const T* operator->() const { return &value(); }
  constexpr T* operator->() { return &value(); }

 private:
  std::optional<T> value_;
  Error error_ = Error::kOk;
};

}  // namespace ipsum::header

#endif  // IPSUM_HEADER_ERROR_H_
