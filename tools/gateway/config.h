// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// The gateway's configuration: its interfaces with their addresses, the
// static routes, source NAT, ICMP rate limit and the test-only fault
// options, and the parsers of their command-line text forms
// ("10.0.0.1/24", "fd00::/64", "02:00:00:00:00:01"). Parsing is the control
// path: errors are absl::Status with a one-line message naming the bad text.

#ifndef IPSUM_TOOLS_GATEWAY_CONFIG_H_
#define IPSUM_TOOLS_GATEWAY_CONFIG_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "header/address.h"

namespace ipsum::gateway {

// Prefix is an address prefix, "192.0.2.0/24": the first `length` bits of
// `address` (the bits past them are kept as given, so that an interface
// address and its prefix are one value).
template <typename Address>
struct Prefix {
  Address address{};
  uint8_t length = 0;

  // Contains reports whether `a` lies in the prefix.
  bool Contains(const Address& a) const {
    const size_t whole = length / 8;
    for (size_t i = 0; i < whole; ++i) {
      if (a.bytes[i] != address.bytes[i]) return false;
    }
    const unsigned rest = length % 8;
    if (rest == 0) return true;
    const auto mask = static_cast<uint8_t>(0xff00u >> rest);
    return ((a.bytes[whole] ^ address.bytes[whole]) & mask) == 0;
  }

  friend bool operator==(const Prefix&, const Prefix&) = default;
};

using PrefixV4 = Prefix<header::IPv4Address>;
using PrefixV6 = Prefix<header::IPv6Address>;

// ParseIPv4 and ParseIPv6 parse an address in its text form.
absl::StatusOr<header::IPv4Address> ParseIPv4(std::string_view text);
absl::StatusOr<header::IPv6Address> ParseIPv6(std::string_view text);
// ParsePrefixV4 and ParsePrefixV6 parse "ADDRESS/LENGTH"; a bare address
// is a host prefix (/32, /128).
absl::StatusOr<PrefixV4> ParsePrefixV4(std::string_view text);
absl::StatusOr<PrefixV6> ParsePrefixV6(std::string_view text);
// ParseMac parses "02:00:00:00:00:01".
absl::StatusOr<header::MacAddress> ParseMac(std::string_view text);

// ToString formats a prefix as "ADDRESS/LENGTH".
std::string ToString(const PrefixV4& p);
std::string ToString(const PrefixV6& p);

// LinkMode is what an interface's frames start with: IP (TUN) or Ethernet
// (TAP), where the gateway answers ARP and Neighbor Solicitations.
enum class LinkMode : uint8_t { kTun, kTap };

// InterfaceConfig describes one of the gateway's links.
struct InterfaceConfig {
  std::string name;
  LinkMode mode = LinkMode::kTun;
  // mtu is the largest IP datagram the link carries.
  uint32_t mtu = 1500;
  // mac is the gateway's own MAC address on a TAP link.
  header::MacAddress mac{};
  // The gateway's addresses on this link; each also makes a connected
  // route to its prefix through this link.
  std::vector<PrefixV4> v4;
  std::vector<PrefixV6> v6;
};

// RouteConfig is a static route: destinations in `prefix` leave through
// interface `interface`, to `via` (a router on that link) when set, else
// straight to the destination (on link).
template <typename Address>
struct RouteConfig {
  Prefix<Address> prefix;
  size_t interface = 0;
  std::optional<Address> via;
};

// SnatConfig is source NAT: packets from `inside` (one family's prefix
// per entry) that leave through `outside_interface` take the source
// address `address` and a port (TCP, UDP) or identifier (ICMP echo) of
// the gateway's choosing; replies are translated back.
struct SnatConfig {
  std::optional<PrefixV4> inside_v4;
  std::optional<PrefixV6> inside_v6;
  size_t outside_interface = 0;
  header::IPv4Address address_v4{};
  header::IPv6Address address_v6{};
  // max_entries bounds the connection table; a new flow past it is a
  // counted drop.
  size_t max_entries = 16384;
  // Idle timeouts: TCP after both SYNs (RFC 5382 REQ-5: at least 2 hours
  // 4 minutes), TCP before that or after FIN/RST (at least 4 minutes),
  // UDP (RFC 4787 REQ-5: at least 2 minutes, 5 recommended), ICMP echo.
  uint64_t tcp_established_ns = 7440ull * 1000000000;
  uint64_t tcp_transitory_ns = 240ull * 1000000000;
  uint64_t udp_ns = 300ull * 1000000000;
  uint64_t icmp_ns = 60ull * 1000000000;
};

// FaultConfig flips one bit in the transport bytes of every Nth frame, to
// prove that checksum failures are seen (0: never). `before`: of the
// received frames whose transport checksum the gateway verifies in
// software, before it does (the gateway must drop them). `after`: of the
// forwarded frames with a complete transport checksum, after every rewrite
// (the receiver must drop them). Test-only.
struct FaultConfig {
  uint64_t flip_before = 0;
  uint64_t flip_after = 0;
};

// Config is the whole configuration.
struct Config {
  std::vector<InterfaceConfig> interfaces;
  std::vector<RouteConfig<header::IPv4Address>> routes_v4;
  std::vector<RouteConfig<header::IPv6Address>> routes_v6;
  std::optional<SnatConfig> snat;
  // icmp_errors_per_second and icmp_error_burst rate-limit the ICMP
  // errors the gateway originates (RFC 1812 section 4.3.2.8, RFC 4443
  // section 2.4 (f)): a token bucket.
  uint32_t icmp_errors_per_second = 1000;
  uint32_t icmp_error_burst = 100;
  // neighbor_queue bounds the packets held per unresolved neighbour (TAP),
  // max_neighbors the neighbours kept per interface: a sandbox that sends
  // to every address of a large on-link prefix, or answers for them, fills
  // no more.
  size_t neighbor_queue = 16;
  size_t max_neighbors = 4096;
  FaultConfig fault;
};

// Validate checks what the types cannot: at least one interface, routes
// and NAT naming existing interfaces, a TAP interface with a unicast MAC.
absl::Status Validate(const Config& config);

}  // namespace ipsum::gateway

#endif  // IPSUM_TOOLS_GATEWAY_CONFIG_H_
