// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Source NAT (NAPT, RFC 3022 section 2.2): the connection table and the
// rewrite of a packet's address and port.
//
// Rewrite changes an address and a port (TCP, UDP) or an echo identifier
// (ICMP) in a packet whose headers are consumed (PacketBuffer::Header), and
// keeps every checksum right incrementally (RFC 1624 equation 3, through
// checksum/update.h), never by summing the packet again:
//   - the IPv4 header checksum, for the address;
//   - a complete transport checksum (checksum_status kNone or kUnnecessary),
//     for the address (through the pseudo-header; not for ICMPv4, which has
//     none) and for the port or identifier;
//   - a partial one (kPartial, Linux's CHECKSUM_PARTIAL): the field then
//     holds the pseudo-header's sum, not complemented, and the bytes from
//     csum_start on are summed later by whoever transmits. Only the address
//     changes it, by the same terms, with no complement; a port lies in the
//     bytes summed later and must not touch it.
// UDP's rules (RFC 768): a zero field over IPv4 means "no checksum" and is
// left alone; a complete result of zero is stored as 0xffff.
//
// NatTable is the connection table: one entry per flow (protocol, inside
// address and port, remote address and port), an external port chosen
// per flow (the inside port when free: port preservation, as Linux's
// masquerade), looked up from either side in O(1), bounded in size, with
// idle timeouts by protocol and TCP state, expired oldest first.

#ifndef IPSUM_TOOLS_GATEWAY_NAT_H_
#define IPSUM_TOOLS_GATEWAY_NAT_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <list>
#include <optional>

#include "absl/container/flat_hash_map.h"
#include "header/address.h"
#include "tcpip/packet_buffer.h"
#include "tools/gateway/config.h"

namespace ipsum::gateway {

// Side says which end of a packet a rewrite changes.
enum class Side : uint8_t { kSource, kDestination };

// RewriteError is why Rewrite changed nothing.
enum class RewriteError : uint8_t {
  kOk = 0,
  // kMalformed: the consumed headers are too short for the protocol.
  kMalformed,
  // kBadOffloadMetadata: a kPartial packet whose csum_start/csum_offset
  // do not name this transport's checksum field.
  kBadOffloadMetadata,
  // kUnsupported: not TCP, UDP, ICMPv4 or ICMPv6.
  kUnsupported,
};

// Rewrite sets the packet's `side` address to `address` and its port (TCP,
// UDP: the `side` port; ICMP echo: the identifier) to `port`, updating the
// checksums as the file comment says. `pkt` holds consumed network and
// transport headers (Header(kNetwork) the IP header with any options or
// extension headers, Header(kTransport) at least the first 8 bytes of the
// transport, 20 of TCP); `protocol` is the transport's protocol number.
// On an error nothing is changed.
RewriteError Rewrite(tcpip::PacketBuffer& pkt, uint8_t protocol, Side side,
                     const header::IPv4Address& address, uint16_t port);
RewriteError Rewrite(tcpip::PacketBuffer& pkt, uint8_t protocol, Side side,
                     const header::IPv6Address& address, uint16_t port);

// CompleteIcmpv4ZeroChecksum fixes the one case RFC 1624 equation 3 gets
// wrong (checksum/update.h): an ICMPv4 message (Header(kTransport), with
// a complete checksum) whose updated field reads 0x0000 is summed, and if
// it is all zeros its field becomes 0xffff. ICMPv4 has no pseudo-header,
// so an echo message can be all zeros; 1 update in 65536 pays the sum.
void CompleteIcmpv4ZeroChecksum(tcpip::PacketBuffer& pkt);

// NatStats counts what the table did.
struct NatStats {
  uint64_t created = 0;
  uint64_t expired = 0;
  // full counts new flows refused because the table was full;
  // exhausted, those for which no external port was free.
  uint64_t full = 0;
  uint64_t exhausted = 0;
};

// InsideEndpoint is where a reply goes back to.
template <typename Address>
struct InsideEndpoint {
  Address address{};
  uint16_t port = 0;
};

template <typename Address>
class NatTable {
 public:
  explicit NatTable(const SnatConfig& config) : config_(config) {}

  // Outbound returns the external port of the flow (protocol, inside
  // address:port -> remote address:port), creating the entry for a new
  // flow, and marks it used at `now_ns`; `tcp_flags` (TCP only) advance its
  // state. nullopt when a new flow finds the table full or no port free
  // (counted in stats()). For ICMP echo, ports are identifiers and the
  // remote port is 0.
  std::optional<uint16_t> Outbound(uint8_t protocol, const Address& inside,
                                   uint16_t inside_port, const Address& remote,
                                   uint16_t remote_port, uint8_t tcp_flags,
                                   uint64_t now_ns);

  // Inbound returns where a packet from remote:remote_port to the external
  // port goes back to, and marks the flow used; nullopt for no flow.
  std::optional<InsideEndpoint<Address>> Inbound(uint8_t protocol,
                                                 const Address& remote,
                                                 uint16_t remote_port,
                                                 uint16_t external_port,
                                                 uint8_t tcp_flags,
                                                 uint64_t now_ns);

  // Expire removes the flows idle past their timeout at `now_ns`.
  void Expire(uint64_t now_ns);

  size_t size() const { return outbound_.size(); }
  const NatStats& stats() const { return stats_; }

 private:
  // Timeout classes, one LRU list each (most recently used first).
  enum Class : uint8_t {
    kTcpEstablished,
    kTcpTransitory,
    kUdp,
    kIcmp,
    kClassCount
  };

  struct OutKey {
    uint8_t protocol;
    Address inside;
    uint16_t inside_port;
    Address remote;
    uint16_t remote_port;
    friend bool operator==(const OutKey&, const OutKey&) = default;
    template <typename H>
    friend H AbslHashValue(H h, const OutKey& k) {
      return H::combine(std::move(h), k.protocol, k.inside.bytes,
                        k.inside_port, k.remote.bytes, k.remote_port);
    }
  };
  struct InKey {
    uint8_t protocol;
    Address remote;
    uint16_t remote_port;
    uint16_t external_port;
    friend bool operator==(const InKey&, const InKey&) = default;
    template <typename H>
    friend H AbslHashValue(H h, const InKey& k) {
      return H::combine(std::move(h), k.protocol, k.remote.bytes,
                        k.remote_port, k.external_port);
    }
  };
  struct Entry {
    OutKey out;
    uint16_t external_port = 0;
    uint64_t last_used_ns = 0;
    Class cls = kUdp;
    bool syn_out = false;
    bool syn_in = false;
    bool closing = false;
  };
  using List = std::list<Entry>;

  Class ClassOf(const Entry& e) const;
  uint64_t Timeout(Class c) const;
  // Touch marks `it` used and moves it to the front of its class's list.
  void Touch(typename List::iterator it, uint8_t tcp_flags, bool outbound,
             uint64_t now_ns);
  void Erase(typename List::iterator it);

  SnatConfig config_;
  std::array<List, kClassCount> lru_;
  absl::flat_hash_map<OutKey, typename List::iterator> outbound_;
  absl::flat_hash_map<InKey, typename List::iterator> inbound_;
  NatStats stats_;
};

extern template class NatTable<header::IPv4Address>;
extern template class NatTable<header::IPv6Address>;

}  // namespace ipsum::gateway

#endif  // IPSUM_TOOLS_GATEWAY_NAT_H_
