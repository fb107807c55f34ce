// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Gateway: a userspace IPv4 and IPv6 router between links, the packet logic
// of ipsum-gateway, free of I/O so that it runs on PacketBuffers in unit
// tests as it runs on TUN/TAP frames in the binary.
//
// For each received frame, Handle:
//   1. (TAP) reads the Ethernet header: answers ARP and Neighbor
//      Solicitations for the gateway's addresses, learns neighbours, drops
//      frames for another MAC;
//   2. verifies the frame by its checksum offload state: TCP and UDP (and
//      fragments) through tcpip's VerifyFrame, ICMPv4/ICMPv6 with the parse
//      step and the header package; kNone is summed in software, kPartial
//      (nothing computed yet) and kUnnecessary are trusted;
//   3. translates replies to the source NAT's outside address back;
//   4. answers echo requests to its own addresses; routes the rest by
//      longest-prefix match;
//   5. decrements TTL / Hop Limit (RFC 1624 update of the IPv4 header
//      checksum), or answers ICMP Time Exceeded at zero; answers Packet Too
//      Big / Fragmentation Needed for what the egress MTU cannot carry;
//   6. applies source NAT towards the outside interface;
//   7. frames the packet for the egress link and hands it to Output.
// GSO packets (gso_type set) travel whole, with their offload metadata;
// the egress link segments them if its device cannot. Every drop is counted
// by reason (Counters).
//
// Handle takes the frame as the link read it: data() holds the whole frame,
// offload metadata as the link's virtio-net header said. A Gateway is not
// synchronized: one thread drives it.

#ifndef IPSUM_TOOLS_GATEWAY_GATEWAY_H_
#define IPSUM_TOOLS_GATEWAY_GATEWAY_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/hash/hash.h"
#include "absl/status/statusor.h"
#include "header/address.h"
#include "tcpip/packet_buffer.h"
#include "tcpip/receive.h"
#include "tools/gateway/config.h"
#include "tools/gateway/nat.h"
#include "tools/gateway/route_table.h"

namespace ipsum::gateway {

// Output is where the gateway sends frames.
class Output {
 public:
  virtual ~Output() = default;
  // Send queues `pkt` on interface `interface`: its bytes are headers()
  // then data(), with the offload metadata the link resolves or hands to
  // its device. Returns false when the link dropped it (queue full).
  virtual bool Send(size_t interface, tcpip::PacketBuffer&& pkt) = 0;
};

// Drop is why the gateway dropped a frame.
enum class Drop : uint8_t {
  // Verification (tcpip::DropReason, and the same for ICMP).
  kTruncated = 0,
  kMalformed,
  kUnsupported,
  kBadIPChecksum,
  kBadTransportChecksum,  // TCP or UDP
  kBadICMPChecksum,
  kUDPZeroChecksum,
  kBadOffloadMetadata,
  // Link layer (TAP).
  kNotIP,      // another EtherType than IPv4, IPv6, ARP
  kNotForUs,   // a unicast MAC other than the gateway's
  // Forwarding.
  kNotForwardable,  // link-local, loopback, unspecified; from multicast
  kLocal,           // to the gateway itself, not an echo request
  kNoRoute,
  kTTLExceeded,
  kTooBig,
  // Source NAT.
  kNatNoMapping,    // to the outside address, no flow
  kNatTableFull,
  kNatUnsupported,  // a protocol or fragment NAT cannot translate
  // Egress.
  kNeighborUnreachable,  // TAP: no answer to ARP / NS
  kNeighborQueueFull,    // TAP: too many packets waiting for one, or
                         // too many neighbours
  kEgressFull,           // the link's queue was full
};
inline constexpr size_t kDropCount = static_cast<size_t>(Drop::kEgressFull) + 1;

// ToString returns the stable name of `d`, e.g. "bad transport checksum".
std::string_view ToString(Drop d);

// InterfaceCounters counts frames per link.
struct InterfaceCounters {
  uint64_t rx_frames = 0;
  uint64_t rx_bytes = 0;
  uint64_t tx_frames = 0;
  uint64_t tx_bytes = 0;
};

// Counters is everything the gateway counts.
struct Counters {
  // received = forwarded + local + multicast + dropped (every reason).
  uint64_t received = 0;
  uint64_t forwarded = 0;
  // local counts frames the gateway consumed itself: ARP, Neighbor
  // Discovery, echo requests answered.
  uint64_t local = 0;
  // multicast counts IP multicast and limited broadcast the gateway
  // received as a member of the link (MLD reports, router solicitations,
  // IGMP, DHCP discovery): ordinary traffic of any link, which a router
  // that routes no multicast receives and does not forward. Not a drop.
  uint64_t multicast = 0;
  std::array<uint64_t, kDropCount> dropped{};

  // How forwarded frames' checksums were judged.
  uint64_t verified_software = 0;  // summed (kNone)
  uint64_t verified_trusted = 0;   // kUnnecessary, kPartial
  uint64_t unverified = 0;         // fragments, UDP/IPv4 without checksum,
                                   // other protocols
  uint64_t gso_forwarded = 0;      // with gso_type: forwarded whole
  uint64_t partial_forwarded = 0;  // with a partial checksum

  // ICMP the gateway sent.
  uint64_t icmp_time_exceeded = 0;
  uint64_t icmp_too_big = 0;
  uint64_t icmp_echo_replies = 0;
  uint64_t icmp_rate_limited = 0;  // errors not sent: over the rate
  // local_no_route counts packets the gateway made (ICMP) for which no
  // route was found.
  uint64_t local_no_route = 0;

  // Source NAT.
  uint64_t nat_outbound = 0;
  uint64_t nat_inbound = 0;
  NatStats nat_v4;
  NatStats nat_v6;
  size_t nat_entries = 0;

  // TAP: ARP and Neighbor Discovery.
  uint64_t arp_replies = 0;
  uint64_t arp_requests = 0;
  uint64_t nd_advertisements = 0;
  uint64_t nd_solicitations = 0;
  uint64_t neighbors_learned = 0;

  // Fault injection (test-only): bits flipped before and after
  // verification.
  uint64_t faults_before = 0;
  uint64_t faults_after = 0;

  std::vector<InterfaceCounters> interfaces;

  uint64_t Dropped(Drop d) const { return dropped[static_cast<size_t>(d)]; }
  uint64_t TotalDropped() const;
};

// FormatCounters prints `c` as "name value" lines, `names` naming the
// interfaces; FormatCountersJson as one JSON object.
std::string FormatCounters(const Counters& c,
                           const std::vector<std::string>& names);
std::string FormatCountersJson(const Counters& c,
                               const std::vector<std::string>& names);

class Gateway {
 public:
  // Create validates `config` and builds the gateway: routes from the
  // configuration plus a connected route per interface address.
  static absl::StatusOr<std::unique_ptr<Gateway>> Create(Config config);

  // Handle processes one frame received on interface `ingress` at
  // `now_ns` (a monotonic clock), sending what results to `out`.
  void Handle(size_t ingress, tcpip::PacketBuffer pkt, uint64_t now_ns,
              Output& out);

  // Tick runs the timers: NAT expiry, neighbour resolution retries and
  // give-ups. Call it every few hundred milliseconds.
  void Tick(uint64_t now_ns, Output& out);

  // counters returns the counters (NAT table sizes refreshed).
  const Counters& counters();
  const Config& config() const { return config_; }

 private:
  explicit Gateway(Config config);

  struct Verified;

  // Neighbor is a next hop on a TAP link: its MAC once resolved, and the
  // packets waiting for it until then.
  struct Neighbor {
    header::MacAddress mac{};
    bool resolved = false;
    uint32_t requests = 0;  // ARP requests / NS sent while unresolved
    uint64_t requested_ns = 0;
    std::deque<std::pair<tcpip::PacketBuffer, bool>> queue;  // (packet,
                                                             // forwarded)
  };

  void HandleIP(size_t ingress, tcpip::PacketBuffer pkt, uint64_t now_ns,
                Output& out);
  bool Verify(size_t ingress, tcpip::PacketBuffer& pkt, Verified& v);
  template <typename Address>
  void Forward(size_t ingress, tcpip::PacketBuffer pkt, const Verified& v,
               uint64_t now_ns, Output& out);
  template <typename Address>
  bool IsLocal(const Address& a) const;
  template <typename Address>
  std::optional<Address> SourceFor(size_t interface) const;
  template <typename Address>
  void SendIcmpError(size_t ingress, const tcpip::PacketBuffer& pkt,
                     const Verified& v, uint8_t type, uint8_t code,
                     uint32_t mtu, uint64_t now_ns, Output& out);
  template <typename Address>
  void AnswerEcho(tcpip::PacketBuffer pkt, uint64_t now_ns, Output& out);
  template <typename Address>
  void SendLocal(tcpip::PacketBuffer pkt, const Address& destination,
                 uint64_t now_ns, Output& out);
  template <typename Address>
  void Emit(size_t egress, const Address& next_hop, tcpip::PacketBuffer pkt,
            bool forwarded, uint64_t now_ns, Output& out);
  void Transmit(size_t egress, tcpip::PacketBuffer pkt, bool forwarded,
                Output& out);
  bool TakeIcmpToken(uint64_t now_ns);
  void FlipBefore(size_t ingress, tcpip::PacketBuffer& pkt);
  void FlipAfter(tcpip::PacketBuffer& pkt);
  void CountDrop(Drop d) { ++counters_.dropped[static_cast<size_t>(d)]; }

  // TAP.
  void HandleArp(size_t ingress, tcpip::PacketBuffer pkt, uint64_t now_ns,
                 Output& out);
  template <typename Address>
  void Learn(size_t interface, const Address& address,
             const header::MacAddress& mac, uint64_t now_ns, Output& out);
  template <typename Address>
  bool HandleNeighborDiscovery(size_t ingress, tcpip::PacketBuffer& pkt,
                               uint64_t now_ns, Output& out);
  template <typename Address>
  void SendSolicitation(size_t interface, const Address& target, Output& out);

  Config config_;
  RouteTable<header::IPv4Address> routes_v4_;
  RouteTable<header::IPv6Address> routes_v6_;
  std::optional<NatTable<header::IPv4Address>> nat_v4_;
  std::optional<NatTable<header::IPv6Address>> nat_v6_;
  Counters counters_;
  uint16_t next_ip_id_ = 1;
  // The ICMP error token bucket: tokens scaled by 1e9 per token.
  uint64_t icmp_tokens_ = 0;
  uint64_t icmp_last_ns_ = 0;
  bool icmp_started_ = false;
  // Fault injection: eligible frames seen so far.
  uint64_t fault_before_seen_ = 0;
  uint64_t fault_after_seen_ = 0;
  // Neighbours per interface, keyed by IPv6 address (IPv4 ones mapped).
  struct AddressHash {
    size_t operator()(const header::IPv6Address& a) const {
      return absl::HashOf(a.bytes);
    }
  };
  std::vector<absl::flat_hash_map<header::IPv6Address, Neighbor, AddressHash>>
      neighbors_;
};

}  // namespace ipsum::gateway

#endif  // IPSUM_TOOLS_GATEWAY_GATEWAY_H_
