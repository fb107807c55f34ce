// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// A link endpoint on a Linux TUN (L3) or TAP (L2) device with virtio-net
// offloads, as gVisor's link/fdbased endpoint and a VMM's virtio-net backend
// see the kernel: every frame read or written is preceded by a 12-byte
// virtio_net_hdr_v1 (little-endian, virtio 1.0) carrying its checksum and
// segmentation offload state.
//
//   virtio_net_hdr_v1                      PacketBuffer
//   flags & NEEDS_CSUM, csum_start/offset  checksum_status kPartial, csum_start,
//                                          csum_offset (from the frame's start)
//   flags & DATA_VALID                     checksum_status kUnnecessary
//   gso_type TCPV4 / TCPV6 / UDP_L4        gso_type kTCPv4 / kTCPv6 / kUDPv4|6
//   gso_size                               gso_size (payload bytes per segment)
//   hdr_len                                checked on receive, computed on send
//
// Receive reads each frame into pooled buffer chunks (no copy after read)
// and checks the header against the frame: metadata that lies is a counted
// drop by reason, never an out-of-bounds read. Transmit writes each packet
// with one writev (header, header area, payload views) and resolves in
// software what the device did not negotiate (ResolvePartialChecksum,
// SegmentGsoPacket). Where the kernel offers io_uring, a burst of reads
// and a flush of writes each take one system call instead of one per
// frame. Non-blocking; the caller drives it from epoll.
//
// An Endpoint is not synchronized: one thread uses it at a time.

#ifndef IPSUM_TCPIP_LINK_ENDPOINT_H_
#define IPSUM_TCPIP_LINK_ENDPOINT_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "buffer/buffer.h"
#include "tcpip/link/internal/packet_queue.h"
#include "tcpip/packet_buffer.h"

namespace ipsum::tcpip::link {

namespace internal {
class Uring;
}  // namespace internal

// DeviceMode is what a frame starts with: kTun an IP header (IFF_TUN), kTap
// an Ethernet header (IFF_TAP).
enum class DeviceMode : uint8_t { kTun, kTap };

// ToString returns "tun" or "tap".
std::string_view ToString(DeviceMode mode);

// Offloads are the device's TUNSETOFFLOAD features. They say what the
// kernel may hand the endpoint (partial checksums, TSO/USO frames of up to
// 64 KiB) and what the endpoint hands the kernel unresolved. TSO and USO
// need csum; the kernel enables USO for IPv4 and IPv6 together only, so
// uso4 and uso6 are negotiated (and reported) both or neither.
struct Offloads {
  bool csum = false;  // TUN_F_CSUM: NEEDS_CSUM frames both ways.
  bool tso4 = false;  // TUN_F_TSO4: VIRTIO_NET_HDR_GSO_TCPV4.
  bool tso6 = false;  // TUN_F_TSO6: VIRTIO_NET_HDR_GSO_TCPV6.
  bool uso4 = false;  // TUN_F_USO4: VIRTIO_NET_HDR_GSO_UDP_L4 over IPv4.
  bool uso6 = false;  // TUN_F_USO6: VIRTIO_NET_HDR_GSO_UDP_L4 over IPv6.

  friend bool operator==(const Offloads&, const Offloads&) = default;
};

// ToString returns the offloads set, e.g. "csum,tso4,tso6" or "none".
std::string ToString(const Offloads& o);

// kVnetHeaderSize is sizeof(virtio_net_hdr_v1).
inline constexpr size_t kVnetHeaderSize = 12;

// kIoBatch is the most frames one io_uring system call reads or writes.
inline constexpr size_t kIoBatch = 64;

// kMaxFrameSize is the largest frame the endpoint reads or writes, after the
// virtio-net header: a 64 KiB GSO datagram behind an Ethernet header with
// two VLAN tags.
inline constexpr size_t kMaxFrameSize = 65535 + 22;

// EndpointOptions configure Open.
struct EndpointOptions {
  // name is the interface's name (at most 15 bytes, no '/' or whitespace).
  // Open creates it, not persistent: it disappears with the endpoint's fd.
  // Empty lets the kernel choose ("tun%d", "tap%d"); name() says which.
  std::string name;
  DeviceMode mode = DeviceMode::kTun;
  // request is what Open asks the kernel for; Open negotiates the subset
  // the kernel accepts (USO by trying it) and offloads() reports it. Turn a
  // flag off to test or to avoid an offload.
  Offloads request = {true, true, true, true, true};
  // tx_queue_limit bounds the packets Send queues before Flush writes them;
  // a Send past it is a counted drop (kTxQueueFull).
  size_t tx_queue_limit = 1024;
  // rx_burst is ReadBurst's frame limit when the caller gives none.
  size_t rx_burst = 64;
  // mtu is set on the interface (SIOCSIFMTU) and sizes each read's first
  // chunk; larger (GSO) frames spill into a second, 64 KiB chunk.
  size_t mtu = 1500;
  // device_queue_len, when not 0, is set as the interface's txqueuelen
  // (SIOCSIFTXQLEN): the frames the kernel holds for ReadBurst. The kernel
  // drops a frame past it (the interface's TX dropped) rather than slow the
  // sender, so a reader that is late in bursts wants it above the kernel's
  // default (500 for TUN, 1000 for TAP). At most 1 << 20.
  size_t device_queue_len = 0;
  // io_uring reads and writes up to kIoBatch frames per system call
  // through an io_uring where the kernel offers one (Linux 5.6 and later;
  // not under QEMU's user mode), else one readv or writev per frame, as
  // without it. batched() says which. Frames keep their order either way.
  // The ring keeps a read's buffers for each of its kIoBatch slots: about
  // 4 MiB per endpoint once reads have used them all.
  bool io_uring = true;
  // bring_up sets IFF_UP (SIOCSIFFLAGS). Addresses and routes are the
  // caller's (ip(8), netlink): Open does not assign any.
  bool bring_up = true;
};

// DropReason names why a frame or packet was dropped. Receive reasons
// (kRx*) are decode failures of hostile input; transmit reasons (kTx*) are
// the endpoint's own limits or the kernel's refusal.
enum class DropReason : uint8_t {
  kNone = 0,
  // kRxShortRead: read returned fewer than 12 bytes, or a header alone.
  kRxShortRead,
  // kRxFlags: unknown flag bits, or NEEDS_CSUM together with DATA_VALID.
  kRxFlags,
  // kRxCsumStart: NEEDS_CSUM with csum_start at or past the frame's end.
  kRxCsumStart,
  // kRxCsumOffset: the checksum field (csum_start + csum_offset, 2 bytes)
  // runs past the frame's end.
  kRxCsumOffset,
  // kRxGsoType: a gso_type no virtio-net device sends (UFO, unknown).
  kRxGsoType,
  // kRxGsoEcn: VIRTIO_NET_HDR_GSO_ECN, which the endpoint never negotiates.
  kRxGsoEcn,
  // kRxGsoSize: a GSO type with gso_size 0.
  kRxGsoSize,
  // kRxGsoNoCsum: a GSO type without NEEDS_CSUM (segments need the partial
  // sum to be completed).
  kRxGsoNoCsum,
  // kRxHdrLen: hdr_len past the frame's end (it is only a hint otherwise:
  // the kernel sends the frame's linear length).
  kRxHdrLen,
  // kRxGsoMismatch: the frame is not what the GSO type says (not IPv4/IPv6
  // TCP/UDP as named, a fragment, headers cut short, csum_start not at the
  // transport header or csum_offset not its checksum field).
  kRxGsoMismatch,
  // kRxReadError: read failed with an error other than EAGAIN/EINTR.
  kRxReadError,
  // kTxQueueFull: Send found tx_queue_limit packets queued.
  kTxQueueFull,
  // kTxBadPacket: a packet that cannot be written: empty, larger than
  // kMaxFrameSize without GSO, offload metadata outside it (checksum
  // offsets, GSO with gso_size 0 or on a packet that is not TCP/UDP).
  kTxBadPacket,
  // kTxSegment: software segmentation (SegmentGsoPacket) refused the packet.
  kTxSegment,
  // kTxWriteError: writev failed with an error other than EAGAIN/EINTR
  // (the kernel rejected the frame or its header).
  kTxWriteError,
};

// kNumDropReasons is the number of DropReason values.
inline constexpr size_t kNumDropReasons =
    static_cast<size_t>(DropReason::kTxWriteError) + 1;

// ToString returns the stable snake_case name of `r`, e.g.
// "rx_csum_offset".
std::string_view ToString(DropReason r);

// EndpointCounters are an endpoint's running totals.
struct EndpointCounters {
  uint64_t rx_frames = 0;       // Frames ReadBurst delivered.
  uint64_t rx_bytes = 0;        // Their bytes, virtio-net header excluded.
  uint64_t rx_partial = 0;      // ... of which NEEDS_CSUM.
  uint64_t rx_gso = 0;          // ... of which GSO (TSO/USO) frames.
  uint64_t tx_frames = 0;       // Frames written.
  uint64_t tx_bytes = 0;        // Their bytes, virtio-net header excluded.
  uint64_t tx_gso = 0;          // ... of which GSO, left to the kernel.
  uint64_t tx_csum_resolved = 0;  // Partial checksums completed in software.
  uint64_t tx_segmented = 0;    // GSO packets segmented in software.
  std::array<uint64_t, kNumDropReasons> drops{};  // By DropReason.

  // dropped returns the drops counted for `r`.
  uint64_t dropped(DropReason r) const {
    return drops[static_cast<size_t>(r)];
  }
  // total_dropped returns the sum over all reasons.
  uint64_t total_dropped() const;
  // ToString returns "rx_frames=.. rx_bytes=.. ... drop_<reason>=.." with
  // every total, drop reasons only when non-zero, on one line.
  std::string ToString() const;
};

// FlushResult is what one Flush did.
struct FlushResult {
  size_t written = 0;   // Frames written (segments count one each).
  size_t dropped = 0;   // Packets dropped (counted by reason).
  bool blocked = false; // writev said EAGAIN: wait for EPOLLOUT, Flush again.
};

// Endpoint is an open TUN/TAP device. Move-only (through its unique_ptr);
// it owns the non-blocking fd, closed (and the device removed) with it.
class Endpoint {
 public:
  // Open creates the device in the calling thread's network namespace with
  // IFF_NO_PI | IFF_VNET_HDR, sets the 12-byte little-endian virtio-net
  // header, negotiates the offloads, sets the MTU and (bring_up) IFF_UP.
  // Errors, each one line naming the device: NotFound (no /dev/net/tun),
  // PermissionDenied (no CAP_NET_ADMIN), InvalidArgument (bad name, MTU
  // or limits), AlreadyExists (the name is another kind of device or
  // busy), Internal (an ioctl the kernel refused).
  static absl::StatusOr<std::unique_ptr<Endpoint>> Open(
      const EndpointOptions& options);

  ~Endpoint();
  Endpoint(const Endpoint&) = delete;
  Endpoint& operator=(const Endpoint&) = delete;

  // fd is the device's file descriptor, for epoll (EPOLLIN; EPOLLOUT when
  // Flush reports blocked). The endpoint keeps ownership.
  int fd() const { return fd_; }
  DeviceMode mode() const { return options_.mode; }
  // name is the interface's name as the kernel made it.
  const std::string& name() const { return options_.name; }
  // offloads is what Open negotiated (a subset of options().request).
  const Offloads& offloads() const { return offloads_; }
  const EndpointOptions& options() const { return options_; }
  // batched reports whether reads and writes go through an io_uring.
  bool batched() const { return ring_ != nullptr; }

  // capabilities describes the link for the encoders (tcpip/transmit.h,
  // SendTCP): tx_checksum_offload = csum; tso_max_size = 65535 when TSO is
  // negotiated for either IP version (Flush segments the other in
  // software), else 0; rx_checksum kNone (each frame carries its own
  // status); mtu = options().mtu.
  LinkCapabilities capabilities() const;

  // ReadBurst reads frames until read says EAGAIN or `max` frames were
  // delivered (max 0: options().rx_burst), decodes each with
  // DecodeVnetFrame and appends the good ones to `out`; bad ones are
  // counted drops. Returns the number appended. Each frame's data() views
  // the chunks read() filled: no copy.
  size_t ReadBurst(std::vector<PacketBuffer>& out, size_t max = 0);

  // Send queues `pkt` (its bytes: headers() then data(); its metadata says
  // how to offload it) and returns true; with tx_queue_limit packets
  // already queued it drops `pkt`, counts kTxQueueFull and returns false.
  bool Send(PacketBuffer&& pkt);

  // Flush writes queued packets in order, one write each, until none is
  // left or the device says EAGAIN (result.blocked; the packet in hand
  // stays queued). Offloads not negotiated are resolved first: kPartial
  // without csum by ResolvePartialChecksum; GSO without tso4/tso6/uso (or
  // not kPartial, or larger than kMaxFrameSize) by SegmentGsoPacket, each
  // segment then written on its own (its checksum partial when csum was
  // negotiated). A packet that cannot be written is dropped and counted.
  FlushResult Flush();

  // tx_pending reports whether packets (or segments) wait for Flush.
  bool tx_pending() const {
    return !tx_queue_.empty() || !tx_segments_.empty() || !tx_batch_.empty();
  }

  const EndpointCounters& counters() const { return counters_; }

 private:
  Endpoint(int fd, const EndpointOptions& options, const Offloads& offloads);

  // Prepare turns the packet at the queue's front into what is written:
  // itself, or its software segments in tx_segments_. False: dropped.
  bool Prepare(PacketBuffer& pkt);
  // NextToWrite moves the next packet ready to write (software segments
  // first, then the queue's front, prepared) into `out`; false when none.
  // Packets Prepare drops are counted in `r`.
  bool NextToWrite(PacketBuffer& out, FlushResult& r);
  // Write writes one packet; 1 written, 0 EAGAIN, -1 dropped.
  int Write(const PacketBuffer& pkt);
  // FlushBatched is Flush through the ring: up to kIoBatch writes per
  // system call, from tx_batch_ (filled by NextToWrite).
  FlushResult FlushBatched();
  // ReadBurstBatched is ReadBurst through the ring.
  size_t ReadBurstBatched(std::vector<PacketBuffer>& out, size_t max);
  // TakeFrame decodes a read of `n` bytes (header `vh`, frame in `head`
  // then `spill`, which it consumes when used) and appends it to `out`;
  // false when it was a counted drop.
  bool TakeFrame(size_t n, const std::array<uint8_t, kVnetHeaderSize>& vh,
                 buffer::View head, buffer::View& spill,
                 std::vector<PacketBuffer>& out);
  void CountWritten(const PacketBuffer& pkt);
  void CountDrop(DropReason r) { ++counters_.drops[static_cast<size_t>(r)]; }

  int fd_ = -1;
  EndpointOptions options_;
  Offloads offloads_;
  EndpointCounters counters_;
  internal::PacketQueue tx_queue_;
  internal::PacketQueue tx_segments_;  // Software segments, written first.
  buffer::View spill_;  // The 64 KiB second chunk of each read, until used.

  // The ring and what its operations point at while a call runs: per slot
  // a virtio-net header, a read's two chunks (kept until a frame uses
  // them), a write's iovecs and its flattened bytes.
  std::unique_ptr<internal::Uring> ring_;
  internal::PacketQueue tx_batch_;  // Prepared packets taken from the queues, in
                          // order: written before any other.
  struct Slot;
  std::vector<Slot> slots_;
};

// DecodeVnetFrame decodes the virtio-net header `vnet_hdr` (kVnetHeaderSize
// bytes; fewer is kRxShortRead) of `frame` (moved in; Ethernet first for
// kTap, IP first for kTun) into `out`, which becomes a packet whose data()
// is the whole frame with checksum_status, csum_start, csum_offset,
// gso_type, gso_size set (and, for GSO frames, whose headers it checked,
// network_protocol and transport_protocol). Returns kNone, or why the
// frame is dropped (`out` is then unspecified and `frame` consumed). Pure
// and bounded: reads nothing outside its inputs, for hostile input.
DropReason DecodeVnetFrame(std::span<const uint8_t> vnet_hdr,
                           buffer::Buffer frame, DeviceMode mode,
                           PacketBuffer& out);

// EncodeVnetHeader writes the virtio-net header of `pkt` to `out`:
// kPartial -> NEEDS_CSUM with csum_start/csum_offset, kUnnecessary ->
// DATA_VALID, GSO -> gso_type/gso_size and hdr_len (csum_start plus the
// transport header's length); num_buffers 0. It trusts the metadata (the
// Endpoint checks it before writing); offsets wider than 16 bits are
// written truncated.
void EncodeVnetHeader(const PacketBuffer& pkt, std::span<uint8_t, 12> out);

}  // namespace ipsum::tcpip::link

#endif  // IPSUM_TCPIP_LINK_ENDPOINT_H_
