// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// PacketBuffer: one packet on its way through the stack, in either
// direction, with the metadata a NIC driver exchanges with the stack
// (checksum offload state, segmentation offload), modelled on gVisor's
// stack/packet_buffer.go and Linux's sk_buff.
//
// Layout. The headers live in a small inline array, the header area, and the
// payload in a buffer::Buffer (a chain of shared, pooled views), so that the
// payload is never copied to put headers in front of it, and the headers,
// however the payload is chained, are always contiguous bytes that the
// header views (header/*.h) can read.
//
// Transmit: each layer Pushes its header in front of those pushed before.
//
//   header area (kHeaderCapacity bytes, inline)                  data()
//   +-----------------------------+------+------+------+   +-----------------+
//   |          reserved           | link | net  | tcp  |   | payload views.. |
//   +-----------------------------+------+------+------+   +-----------------+
//   0                    header_start()            kHeaderCapacity
//                        <-- Push(n) moves it left
//
// Receive: the frame arrives whole in data(); each layer Consumes its
// header, which moves the header's bytes from the front of data() into the
// header area (a copy of the header bytes only, at most kHeaderCapacity in
// all; the payload stays where the NIC put it).
//
//   header area                                                  data()
//   +------+------+------+--------------------------------+   +-------------+
//   | link | net  | tcp  |             unused             |   | payload ..  |
//   +------+------+------+--------------------------------+   +-------------+
//   0              header_end() -->  Consume(n) moves it right
//
// Either way the packet's bytes, in wire order, are the header area's
// [header_start(), header_end()) followed by data(). Offsets in the
// metadata (csum_start, ...) count from the first of those bytes.
//
// A PacketBuffer is a move-only value; it is not synchronized.

#ifndef IPSUM_TCPIP_PACKET_BUFFER_H_
#define IPSUM_TCPIP_PACKET_BUFFER_H_

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <type_traits>
#include <vector>

#include "buffer/buffer.h"
#include "tcpip/parse.h"

namespace ipsum::tcpip {

// TransportProtocol is the transport a packet carries, by its IP protocol
// number (header/protocol.h).
enum class TransportProtocol : uint8_t {
  kNone = 0,
  kTCP = 6,
  kUDP = 17,
};

// Layer names the headers a PacketBuffer tracks.
enum class Layer : uint8_t { kLink = 0, kNetwork = 1, kTransport = 2 };

// ChecksumStatus is the transport checksum's state, as Linux's
// skb->ip_summed (include/linux/skbuff.h, "Checksumming of received and
// transmitted packets"):
enum class ChecksumStatus : uint8_t {
  // kNone. Transmit: the checksum field is complete (computed in software).
  // Receive: the NIC checked nothing; software verifies.
  kNone = 0,
  // kUnnecessary. Receive: the NIC verified the transport checksum.
  kUnnecessary,
  // kComplete. Receive: the NIC summed the packet from `csum_start` to its
  // end and put the one's-complement sum (folded, not complemented) in
  // `csum`; software verifies by taking the headers' sums out of it.
  kComplete,
  // kPartial. Transmit: the checksum field holds the pseudo-header sum, not
  // complemented; whoever transmits (the NIC, or ResolvePartialChecksum)
  // sums the bytes from `csum_start` to the end into it and stores the
  // complement at `csum_start + csum_offset`.
  kPartial,
};

// GsoType says what segmentation a packet still needs (Linux SKB_GSO_*).
// kUDPv4 and kUDPv6 are UDP segmentation (USO, SKB_GSO_UDP_L4): each
// gso_size-byte piece of the payload becomes a datagram of its own, not an
// IP fragment.
enum class GsoType : uint8_t {
  kNone = 0,
  kTCPv4,
  kTCPv6,
  kUDPv4,
  kUDPv6,
};

// LinkCapabilities is what a link's NIC does for the stack (Linux's
// netdev features), per link.
struct LinkCapabilities {
  // tx_checksum_offload: the NIC completes kPartial transport checksums
  // from csum_start/csum_offset (NETIF_F_HW_CSUM), so the stack never sums
  // the payload on transmit.
  bool tx_checksum_offload = false;
  // rx_checksum is what the NIC reports for received packets: kNone,
  // kUnnecessary or kComplete. Drivers set each packet's checksum_status
  // from it; the receive path trusts only the packet's own status.
  ChecksumStatus rx_checksum = ChecksumStatus::kNone;
  // tso_max_size is the largest packet, headers included, the NIC
  // segments itself (TSO, Linux's gso_max_size); 0 means no TSO, and a
  // large send is segmented in software (GSO). TSO needs
  // tx_checksum_offload.
  uint32_t tso_max_size = 0;
  // mtu is the largest IP datagram the link carries.
  uint32_t mtu = 1500;
};

// PacketBuffer is a packet: headers in an inline header area, payload in a
// buffer::Buffer, plus offload metadata. See the file comment for the
// layout.
class PacketBuffer {
 public:
  // kHeaderCapacity is the size of the header area: room for Ethernet with
  // two VLAN tags (22), IPv4 with options (60) or IPv6 with extension
  // headers, and TCP with options (60).
  static constexpr size_t kHeaderCapacity = 256;

  // PacketBuffer constructs an empty packet with all the header area
  // reserved for Push.
  PacketBuffer() = default;

  // PacketBuffer takes `payload` (moved in, no copy; left empty) as the
  // data of a packet to transmit, with `reserve` bytes (at most
  // kHeaderCapacity) of header area reserved for Push. The buffer is taken
  // by rvalue reference, not by value, so that its views move once.
  explicit PacketBuffer(buffer::Buffer&& payload,
                        size_t reserve = kHeaderCapacity);

  // FromFrame takes a received frame (moved in, no copy; left empty) as the
  // data of a packet whose headers are to be Consumed.
  static PacketBuffer FromFrame(buffer::Buffer&& frame);

  // PacketBuffer (move) takes `other`'s payload views and copies its
  // headers (only the bytes in use, not the whole header area); `other` is
  // left empty.
  PacketBuffer(PacketBuffer&& other) noexcept : data_(std::move(other.data_)) {
    MoveMetadataFrom(other);
  }
  PacketBuffer& operator=(PacketBuffer&& other) noexcept {
    if (this != &other) {
      data_ = std::move(other.data_);
      MoveMetadataFrom(other);
    }
    return *this;
  }
  PacketBuffer(const PacketBuffer&) = delete;
  PacketBuffer& operator=(const PacketBuffer&) = delete;

  // Push adds `n` bytes in front of the headers pushed so far, records them
  // as `layer`'s header and returns them for writing (uninitialized). A
  // layer pushes once. Pushing more than reserved() bytes is a broken
  // invariant (the caller sized the reservation): it aborts.
  std::span<uint8_t> Push(Layer layer, size_t n);

  // Consume moves the first `n` bytes of data() to the end of the header
  // area (copying them; the payload views are trimmed, not copied), records
  // them as `layer`'s header and returns them. Returns nullopt, changing
  // nothing, when data() holds fewer than `n` bytes or the header area has
  // no room for them: ordinary input on the receive path. A packet with no
  // headers yet consumes from the start of the header area, whatever it
  // reserved for Push.
  std::optional<std::span<uint8_t>> Consume(Layer layer, size_t n);

  // ConsumeHeaders is Consume(Layer::kLink, link), Consume(Layer::kNetwork,
  // network), Consume(Layer::kTransport, transport) in one step, with one
  // copy and one trim of data(): the receive path's per-packet Consume. A
  // zero length leaves that layer without a header (Header() empty,
  // HeaderOffset() 0). Returns false, changing nothing, when data() holds
  // fewer bytes than the three together or the header area has no room for
  // them. Inline for the receive path's case (no headers yet, three of
  // them, all in data()'s first view).
  [[gnu::always_inline]] bool ConsumeHeaders(size_t link, size_t network,
                                             size_t transport) {
    const bool small = (link | network | transport) < kHeaderCapacity / 2;
    const size_t n = link + network + transport;  // No wrap when small.
    if (bounds_.start == bounds_.end && small && link != 0 && network != 0 &&
        transport != 0 && n <= kHeaderCapacity && data_.view_count() != 0 &&
        n <= data_.views()[0].size()) {
      // A first view longer than the headers keeps its chunk and is trimmed
      // before the copy, while GCC still knows what the checks above
      // loaded (after the copy, whose stores may alias the view list,
      // Buffer::TrimFront re-read and re-checked it); one that is all
      // headers (a header-splitting NIC's buffer) is dropped after it, the
      // drop releasing its chunk.
      const buffer::View& first = data_.views()[0];
      const uint8_t* const src = first.data();
      const bool whole = n == first.size();
      if (!whole) data_.TrimFront(n);
      CopyHeaders(area_.data(), src, n);
      if (whole) data_.TrimFront(n);
      // The 16 bytes of bounds_ (start 0, end n, then the three slots) in
      // two 64-bit stores instead of eight 16-bit ones: GCC does not merge
      // stores of values it computes.
      const auto l = static_cast<uint16_t>(link);
      const auto ln = static_cast<uint16_t>(link + network);
      const uint64_t lo = Pack16x4(0, static_cast<uint16_t>(n), 0, l);
      const uint64_t hi = Pack16x4(l, static_cast<uint16_t>(network), ln,
                                   static_cast<uint16_t>(transport));
      auto* const b = reinterpret_cast<unsigned char*>(&bounds_);
      std::memcpy(b, &lo, 8);
      std::memcpy(b + 8, &hi, 8);
      return true;
    }
    return ConsumeHeadersSlow(link, network, transport);
  }

  // Header returns `layer`'s header bytes, empty if it was neither pushed
  // nor consumed. Valid until the packet is moved or destroyed.
  std::span<uint8_t> Header(Layer layer) {
    const Slot& s = bounds_.slots[static_cast<size_t>(layer)];
    return {area_.data() + s.offset, s.length};
  }
  std::span<const uint8_t> Header(Layer layer) const {
    const Slot& s = bounds_.slots[static_cast<size_t>(layer)];
    return {area_.data() + s.offset, s.length};
  }

  // HeaderOffset returns where `layer`'s header starts, counted from the
  // first byte of the packet (0 for the outermost header).
  size_t HeaderOffset(Layer layer) const {
    return bounds_.slots[static_cast<size_t>(layer)].offset - bounds_.start;
  }

  // headers returns every header pushed or consumed, outermost first.
  std::span<uint8_t> headers() {
    return {area_.data() + bounds_.start, size_t{bounds_.end} - bounds_.start};
  }
  std::span<const uint8_t> headers() const {
    return {area_.data() + bounds_.start, size_t{bounds_.end} - bounds_.start};
  }

  // header_start and header_end bound the headers in the header area;
  // reserved() (== header_start()) is how many bytes Push still has.
  size_t header_start() const { return bounds_.start; }
  size_t header_end() const { return bounds_.end; }
  size_t reserved() const { return bounds_.start; }

  // data is the payload (transmit) or the bytes not consumed yet (receive).
  buffer::Buffer& data() { return data_; }
  const buffer::Buffer& data() const { return data_; }

  // size returns the packet's length: headers plus data.
  size_t size() const { return (bounds_.end - bounds_.start) + data_.size(); }

  // ToBuffer returns the packet's bytes as one Buffer, as a NIC would
  // send them: the headers copied into the front of a clone of data()
  // (which shares its chunks; no payload byte is copied).
  buffer::Buffer ToBuffer() const;

  // Checksum returns the Internet checksum (checksum::Checksum: folded, not
  // complemented) of the packet's bytes [offset, offset + length), headers
  // and data alike, added to `initial`; nullopt if the range is not inside
  // the packet. No copy: the header part and each data view are summed in
  // place and combined (checksum::CombineAt).
  std::optional<uint16_t> Checksum(size_t offset, size_t length,
                                   uint16_t initial = 0) const;

  // CopyIn overwrites the packet's bytes at [offset, offset + src.size()),
  // in the header area or data() (copy-on-write there), and returns true;
  // false, writing nothing, if the range is not inside the packet.
  bool CopyIn(size_t offset, std::span<const uint8_t> src);

  // Flatten returns a copy of the packet's bytes, for tests and slow paths.
  std::vector<uint8_t> Flatten() const;

  // Metadata, as a driver and the stack exchange it.

  // network_protocol and transport_protocol say what the headers are;
  // set by the encoders and the receive path.
  NetworkProtocol network_protocol = NetworkProtocol::kNone;
  TransportProtocol transport_protocol = TransportProtocol::kNone;

  // checksum_status is the transport checksum's state. With kPartial,
  // `csum_start` is where the checksummed bytes begin (the transport
  // header) and `csum_offset` where, from csum_start, the field is (16 TCP,
  // 6 UDP). With kComplete, `csum` is the NIC's sum of the bytes from
  // `csum_start` to the end of the packet as received. Both offsets count
  // from the packet's first byte and are untrusted on receive: the receive
  // path checks them against the packet before use.
  ChecksumStatus checksum_status = ChecksumStatus::kNone;
  uint32_t csum_start = 0;
  uint16_t csum_offset = 0;
  uint16_t csum = 0;

  // gso_type and gso_size ask for segmentation: the NIC (TSO, USO) or
  // software GSO cuts the payload into gso_size-byte (MSS) segments.
  GsoType gso_type = GsoType::kNone;
  uint16_t gso_size = 0;

 private:
  // MoveMetadataFrom copies everything but data_ from `other` (the header
  // bytes in use only) and leaves `other` with no headers.
  void MoveMetadataFrom(PacketBuffer& other);

  // TakeFront copies the first `n` bytes of data_ (n <= data_.size()) to
  // `dst` and trims them from data_.
  void TakeFront(uint8_t* dst, size_t n);

  // ConsumeHeadersSlow is ConsumeHeaders in every other case.
  bool ConsumeHeadersSlow(size_t link, size_t network, size_t transport);

  // CopyHeaders copies n bytes, a packet's headers, from `src` to `dst`
  // (which do not overlap). Up to 128 bytes, as two fixed-size copies that
  // overlap in the middle, which compile to a few vector moves instead of
  // a call into memcpy and its size dispatch; the receive path consumes 42
  // to 94 bytes of headers per packet.
  static void CopyHeaders(uint8_t* dst, const uint8_t* src, size_t n) {
    if (n >= 64 && n <= 128) {
      std::memcpy(dst, src, 64);
      std::memcpy(dst + n - 64, src + n - 64, 64);
    } else if (n >= 32 && n < 64) {
      std::memcpy(dst, src, 32);
      std::memcpy(dst + n - 32, src + n - 32, 32);
    } else {
      std::memcpy(dst, src, n);
    }
  }

  struct Slot {
    uint16_t offset = 0;
    uint16_t length = 0;
  };

  // Bounds is where the headers lie in area_: [start, end), and each
  // layer's slot. 16 bytes, 8 of them in each half (ConsumeHeaders writes
  // it as two 64-bit values, Pack16x4).
  struct Bounds {
    uint16_t start = kHeaderCapacity;
    uint16_t end = kHeaderCapacity;
    std::array<Slot, 3> slots{};
  };
  static_assert(sizeof(Bounds) == 16 && std::is_trivially_copyable_v<Bounds>);

  // Pack16x4 returns the 64-bit value whose bytes in memory are a, b, c
  // and d in that order, each in host order: Bounds' fields, four at a time.
  static constexpr uint64_t Pack16x4(uint16_t a, uint16_t b, uint16_t c,
                                     uint16_t d) {
    if constexpr (std::endian::native == std::endian::big) {
      return uint64_t{a} << 48 | uint64_t{b} << 32 | uint64_t{c} << 16 | d;
    } else {
      return a | uint64_t{b} << 16 | uint64_t{c} << 32 | uint64_t{d} << 48;
    }
  }

  std::array<uint8_t, kHeaderCapacity> area_;
  Bounds bounds_;
  buffer::Buffer data_;
};

}  // namespace ipsum::tcpip

#endif  // IPSUM_TCPIP_PACKET_BUFFER_H_
