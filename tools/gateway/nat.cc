// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0

#include "tools/gateway/nat.h"

#include <span>
#include <type_traits>

#include "checksum/endian.h"
#include "checksum/update.h"
#include "header/icmpv4.h"
#include "header/ipv4.h"
#include "header/ipv6.h"
#include "header/protocol.h"
#include "header/tcp.h"

namespace ipsum::gateway {
namespace {

using tcpip::ChecksumStatus;
using tcpip::Layer;
using tcpip::PacketBuffer;

// TransportShape is where a transport keeps what a rewrite changes.
struct TransportShape {
  size_t min_header = 0;     // Bytes of header the rewrite reads.
  size_t checksum = 0;       // The checksum field's offset.
  size_t port = 0;           // The port or identifier's offset.
  bool pseudo_header = true;  // Whether the checksum covers the addresses.
  bool udp = false;
};

std::optional<TransportShape> ShapeOf(uint8_t protocol, Side side, bool v4) {
  const size_t port = side == Side::kSource ? 0 : 2;
  switch (protocol) {
    case header::kProtocolTCP:
      return TransportShape{header::TCP::kMinSize, 16, port, true, false};
    case header::kProtocolUDP:
      return TransportShape{8, 6, port, true, true};
    case header::kProtocolICMPv4:
      if (!v4) return std::nullopt;
      return TransportShape{8, 2, 4, false, false};
    case header::kProtocolICMPv6:
      if (v4) return std::nullopt;
      return TransportShape{8, 2, 4, true, false};
    default:
      return std::nullopt;
  }
}

template <typename Address>
RewriteError RewriteImpl(PacketBuffer& pkt, uint8_t protocol, Side side,
                         const Address& address, uint16_t port) {
  constexpr bool v4 = std::is_same_v<Address, header::IPv4Address>;
  std::span<uint8_t> net = pkt.Header(Layer::kNetwork);
  std::span<uint8_t> th = pkt.Header(Layer::kTransport);
  std::optional<TransportShape> shape = ShapeOf(protocol, side, v4);
  if (!shape) return RewriteError::kUnsupported;
  if (net.size() < (v4 ? header::IPv4::kMinSize : header::IPv6::kSize) ||
      th.size() < shape->min_header) {
    return RewriteError::kMalformed;
  }
  const bool partial = pkt.checksum_status == ChecksumStatus::kPartial;
  if (partial && (pkt.csum_start != pkt.HeaderOffset(Layer::kTransport) ||
                  pkt.csum_offset != shape->checksum)) {
    return RewriteError::kBadOffloadMetadata;
  }
  const size_t address_offset =
      v4 ? (side == Side::kSource ? 12 : 16) : (side == Side::kSource ? 8 : 24);
  uint8_t* const field = th.data() + shape->checksum;
  const std::span<const uint8_t> old_address(net.data() + address_offset,
                                             Address::kSize);
  const std::span<const uint8_t> new_address(address.bytes);
  const uint16_t old_port = LoadBig16(th.data() + shape->port);

  uint16_t stored = LoadBig16(field);
  if (partial) {
    // The field is the pseudo-header's sum itself: apply the address's
    // terms to it (to its complement, as equation 3 reads a stored
    // checksum) and store it uncomplemented. The port is summed later.
    if (shape->pseudo_header) {
      stored = static_cast<uint16_t>(~checksum::UpdateChecksumBytes(
          static_cast<uint16_t>(~stored), old_address, new_address));
    }
  } else if (!(shape->udp && stored == 0)) {
    if (shape->pseudo_header) {
      stored = checksum::UpdateChecksumBytes(stored, old_address, new_address);
    }
    stored = checksum::UpdateChecksum16(stored, old_port, port);
    if (shape->udp && stored == 0) stored = 0xffff;
  }

  if constexpr (v4) {
    header::Result<header::MutableIPv4> ip =
        header::MutableIPv4::ParsePrefix(net);
    if (!ip.ok()) return RewriteError::kMalformed;
    if (side == Side::kSource) {
      ip->SetSourceAndUpdateChecksum(address);
    } else {
      ip->SetDestinationAndUpdateChecksum(address);
    }
  } else {
    address.CopyTo(net.data() + address_offset);
  }
  StoreBig16(th.data() + shape->port, port);
  StoreBig16(field, stored);
  if (!partial && protocol == header::kProtocolICMPv4) {
    CompleteIcmpv4ZeroChecksum(pkt);
  }
  return RewriteError::kOk;
}

}  // namespace

void CompleteIcmpv4ZeroChecksum(PacketBuffer& pkt) {
  std::span<uint8_t> th = pkt.Header(Layer::kTransport);
  if (th.size() < 4 || LoadBig16(&th[2]) != 0) return;
  const size_t start = pkt.HeaderOffset(Layer::kTransport);
  std::optional<uint16_t> sum = pkt.Checksum(start, pkt.size() - start);
  if (sum && *sum == 0) StoreBig16(&th[2], 0xffff);
}

RewriteError Rewrite(PacketBuffer& pkt, uint8_t protocol, Side side,
                     const header::IPv4Address& address, uint16_t port) {
  return RewriteImpl(pkt, protocol, side, address, port);
}

RewriteError Rewrite(PacketBuffer& pkt, uint8_t protocol, Side side,
                     const header::IPv6Address& address, uint16_t port) {
  return RewriteImpl(pkt, protocol, side, address, port);
}

template <typename Address>
typename NatTable<Address>::Class NatTable<Address>::ClassOf(
    const Entry& e) const {
  switch (e.out.protocol) {
    case header::kProtocolTCP:
      return e.syn_out && e.syn_in && !e.closing ? kTcpEstablished
                                                 : kTcpTransitory;
    case header::kProtocolUDP:
      return kUdp;
    default:
      return kIcmp;
  }
}

template <typename Address>
uint64_t NatTable<Address>::Timeout(Class c) const {
  switch (c) {
    case kTcpEstablished:
      return config_.tcp_established_ns;
    case kTcpTransitory:
      return config_.tcp_transitory_ns;
    case kUdp:
      return config_.udp_ns;
    default:
      return config_.icmp_ns;
  }
}

template <typename Address>
void NatTable<Address>::Touch(typename List::iterator it, uint8_t tcp_flags,
                              bool outbound, uint64_t now_ns) {
  Entry& e = *it;
  if (e.out.protocol == header::kProtocolTCP) {
    if (tcp_flags & header::kTCPFlagSyn) (outbound ? e.syn_out : e.syn_in) = true;
    if (tcp_flags & (header::kTCPFlagFin | header::kTCPFlagRst)) {
      e.closing = true;
    }
  }
  e.last_used_ns = now_ns;
  const Class c = ClassOf(e);
  lru_[c].splice(lru_[c].begin(), lru_[e.cls], it);
  e.cls = c;
}

template <typename Address>
void NatTable<Address>::Erase(typename List::iterator it) {
  outbound_.erase(it->out);
  inbound_.erase(InKey{it->out.protocol, it->out.remote, it->out.remote_port,
                       it->external_port});
  lru_[it->cls].erase(it);
}

template <typename Address>
std::optional<uint16_t> NatTable<Address>::Outbound(
    uint8_t protocol, const Address& inside, uint16_t inside_port,
    const Address& remote, uint16_t remote_port, uint8_t tcp_flags,
    uint64_t now_ns) {
  const OutKey key{protocol, inside, inside_port, remote, remote_port};
  if (auto found = outbound_.find(key); found != outbound_.end()) {
    Touch(found->second, tcp_flags, true, now_ns);
    return found->second->external_port;
  }
  Expire(now_ns);
  if (outbound_.size() >= config_.max_entries) {
    ++stats_.full;
    return std::nullopt;
  }
  // The inside port when free, else the first free one of 1024..65535
  // from a point that depends on the flow (bounded: one pass).
  InKey in{protocol, remote, remote_port, inside_port};
  if (inbound_.contains(in)) {
    constexpr uint32_t kFirst = 1024;
    constexpr uint32_t kCount = 65536 - kFirst;
    const uint32_t start =
        static_cast<uint32_t>(absl::HashOf(key) % kCount);
    bool found = false;
    for (uint32_t i = 0; i < kCount && !found; ++i) {
      in.external_port =
          static_cast<uint16_t>(kFirst + (start + i) % kCount);
      found = !inbound_.contains(in);
    }
    if (!found) {
      ++stats_.exhausted;
      return std::nullopt;
    }
  }
  Entry e;
  e.out = key;
  e.external_port = in.external_port;
  e.last_used_ns = now_ns;
  e.cls = ClassOf(e);
  lru_[e.cls].push_front(e);
  auto it = lru_[e.cls].begin();
  outbound_.emplace(key, it);
  inbound_.emplace(in, it);
  ++stats_.created;
  Touch(it, tcp_flags, true, now_ns);
  return e.external_port;
}

template <typename Address>
std::optional<InsideEndpoint<Address>> NatTable<Address>::Inbound(
    uint8_t protocol, const Address& remote, uint16_t remote_port,
    uint16_t external_port, uint8_t tcp_flags, uint64_t now_ns) {
  auto found =
      inbound_.find(InKey{protocol, remote, remote_port, external_port});
  if (found == inbound_.end()) return std::nullopt;
  auto it = found->second;
  if (now_ns - it->last_used_ns > Timeout(it->cls)) {
    ++stats_.expired;
    Erase(it);
    return std::nullopt;
  }
  Touch(it, tcp_flags, false, now_ns);
  return InsideEndpoint<Address>{it->out.inside, it->out.inside_port};
}

template <typename Address>
void NatTable<Address>::Expire(uint64_t now_ns) {
  for (size_t c = 0; c < kClassCount; ++c) {
    List& list = lru_[c];
    const uint64_t timeout = Timeout(static_cast<Class>(c));
    while (!list.empty() && now_ns - list.back().last_used_ns > timeout) {
      ++stats_.expired;
      Erase(std::prev(list.end()));
    }
  }
}

template class NatTable<header::IPv4Address>;
template class NatTable<header::IPv6Address>;

}  // namespace ipsum::gateway
