// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// RouteTable: longest-prefix match over a small static table (the routes
// of a command line, plus one connected route per interface address). The
// routes are kept sorted by prefix length, longest first, so a lookup is
// the first match of a linear scan: for the tens of routes a sandbox's
// gateway holds this is a few compares per packet, with no allocation and
// no pointer chasing. Among routes of equal length the one added first
// wins.

#ifndef IPSUM_TOOLS_GATEWAY_ROUTE_TABLE_H_
#define IPSUM_TOOLS_GATEWAY_ROUTE_TABLE_H_

#include <algorithm>
#include <optional>
#include <vector>

#include "tools/gateway/config.h"

namespace ipsum::gateway {

// NextHop is where a routed packet goes: out of `interface`, to `address`
// (the route's `via`, or the destination itself on link).
template <typename Address>
struct NextHop {
  size_t interface = 0;
  Address address{};
};

template <typename Address>
class RouteTable {
 public:
  // Add inserts `route` after every route with a longer or equal prefix.
  void Add(const RouteConfig<Address>& route) {
    auto at = std::find_if(routes_.begin(), routes_.end(),
                           [&](const RouteConfig<Address>& r) {
                             return r.prefix.length < route.prefix.length;
                           });
    routes_.insert(at, route);
  }

  // Lookup returns the next hop for `destination` by longest-prefix
  // match, nullopt when no route covers it.
  std::optional<NextHop<Address>> Lookup(const Address& destination) const {
    for (const RouteConfig<Address>& r : routes_) {
      if (r.prefix.Contains(destination)) {
        return NextHop<Address>{r.interface, r.via.value_or(destination)};
      }
    }
    return std::nullopt;
  }

  // routes returns the table, longest prefix first.
  const std::vector<RouteConfig<Address>>& routes() const { return routes_; }

 private:
  std::vector<RouteConfig<Address>> routes_;
};

}  // namespace ipsum::gateway

#endif  // IPSUM_TOOLS_GATEWAY_ROUTE_TABLE_H_
