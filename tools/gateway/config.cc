// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0

#include "tools/gateway/config.h"

#include <arpa/inet.h>

#include <string>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace ipsum::gateway {
namespace {

// Abseil here is built with its own string_view, not std::string_view.
absl::string_view AV(std::string_view s) { return {s.data(), s.size()}; }

template <typename Address, int kFamily>
absl::StatusOr<Address> ParseAddress(std::string_view text,
                                     std::string_view what) {
  Address a;
  const std::string s(text);
  if (inet_pton(kFamily, s.c_str(), a.bytes.data()) != 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("bad ", AV(what), " address '", AV(text), "'"));
  }
  return a;
}

template <typename Address, int kFamily>
absl::StatusOr<Prefix<Address>> ParsePrefix(std::string_view text,
                                            std::string_view what) {
  const size_t bits = Address::kSize * 8;
  Prefix<Address> p;
  const size_t slash = text.find('/');
  auto a = ParseAddress<Address, kFamily>(text.substr(0, slash), what);
  if (!a.ok()) return a.status();
  p.address = *a;
  p.length = static_cast<uint8_t>(bits);
  if (slash != std::string_view::npos) {
    uint32_t length = 0;
    if (!absl::SimpleAtoi(AV(text.substr(slash + 1)), &length) || length > bits) {
      return absl::InvalidArgumentError(
          absl::StrCat("bad ", AV(what), " prefix length in '", AV(text), "'"));
    }
    p.length = static_cast<uint8_t>(length);
  }
  return p;
}

}  // namespace

absl::StatusOr<header::IPv4Address> ParseIPv4(std::string_view text) {
  return ParseAddress<header::IPv4Address, AF_INET>(text, "IPv4");
}

absl::StatusOr<header::IPv6Address> ParseIPv6(std::string_view text) {
  return ParseAddress<header::IPv6Address, AF_INET6>(text, "IPv6");
}

absl::StatusOr<PrefixV4> ParsePrefixV4(std::string_view text) {
  return ParsePrefix<header::IPv4Address, AF_INET>(text, "IPv4");
}

absl::StatusOr<PrefixV6> ParsePrefixV6(std::string_view text) {
  return ParsePrefix<header::IPv6Address, AF_INET6>(text, "IPv6");
}

absl::StatusOr<header::MacAddress> ParseMac(std::string_view text) {
  std::vector<absl::string_view> parts = absl::StrSplit(AV(text), ':');
  header::MacAddress mac;
  bool ok = parts.size() == header::MacAddress::kSize;
  for (size_t i = 0; ok && i < parts.size(); ++i) {
    uint32_t v = 0;
    ok = parts[i].size() >= 1 && parts[i].size() <= 2 &&
         absl::SimpleHexAtoi(parts[i], &v) && v <= 0xff;
    if (ok) mac.bytes[i] = static_cast<uint8_t>(v);
  }
  if (!ok) {
    return absl::InvalidArgumentError(
        absl::StrCat("bad MAC address '", AV(text), "'"));
  }
  return mac;
}

std::string ToString(const PrefixV4& p) {
  return absl::StrCat(p.address.ToString(), "/", p.length);
}

std::string ToString(const PrefixV6& p) {
  return absl::StrCat(p.address.ToString(), "/", p.length);
}

absl::Status Validate(const Config& config) {
  const size_t n = config.interfaces.size();
  if (n == 0) return absl::InvalidArgumentError("no interface configured");
  for (const InterfaceConfig& i : config.interfaces) {
    if (i.mtu < 576 || i.mtu > 65535) {
      return absl::InvalidArgumentError(
          absl::StrCat("interface ", i.name, ": MTU ", i.mtu,
                       " outside 576..65535"));
    }
    if (i.mode == LinkMode::kTap && i.mac.IsMulticast()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "interface ", i.name, ": MAC ", i.mac.ToString(), " is multicast"));
    }
  }
  for (const auto& r : config.routes_v4) {
    if (r.interface >= n) {
      return absl::InvalidArgumentError(
          absl::StrCat("route ", ToString(r.prefix), ": no such interface"));
    }
  }
  for (const auto& r : config.routes_v6) {
    if (r.interface >= n) {
      return absl::InvalidArgumentError(
          absl::StrCat("route ", ToString(r.prefix), ": no such interface"));
    }
  }
  if (config.snat) {
    if (config.snat->outside_interface >= n) {
      return absl::InvalidArgumentError("snat: no such outside interface");
    }
    if (!config.snat->inside_v4 && !config.snat->inside_v6) {
      return absl::InvalidArgumentError("snat: no inside prefix");
    }
    if (config.snat->max_entries == 0) {
      return absl::InvalidArgumentError("snat: table size 0");
    }
  }
  return absl::OkStatus();
}

}  // namespace ipsum::gateway
