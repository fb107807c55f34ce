// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0

#include "tcpip/link/endpoint.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/if.h>
#include <linux/if_tun.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cctype>
#include <cstring>
#include <string>
#include <utility>

#include "absl/container/inlined_vector.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "tcpip/gso.h"
#include "tcpip/link/internal/uring.h"
#include "tcpip/link/internal/vnet.h"
#include "tcpip/transmit.h"

namespace ipsum::tcpip::link {
namespace {

// kMinMtu is IPv4's minimum (RFC 791); the kernel refuses less for tun.
constexpr size_t kMinMtu = 68;

// kLinkSlack is the room a read's first chunk keeps past the MTU: an
// Ethernet header with two VLAN tags.
constexpr size_t kLinkSlack = 22;

absl::Status Errno(absl::StatusCode code, const std::string& what, int err) {
  return absl::Status(code, absl::StrCat(what, ": ", std::strerror(err)));
}

bool ValidName(const std::string& name) {
  if (name.size() >= IFNAMSIZ || name == "." || name == "..") return false;
  for (char c : name) {
    if (c == '/' || c == ':' || std::isspace(static_cast<unsigned char>(c)) ||
        c == '\0') {
      return false;
    }
  }
  return true;
}

// Negotiate asks the kernel for `request`'s offloads and returns what it
// accepted; USO is tried on its own, as kernels before 6.2 refuse it.
absl::StatusOr<Offloads> Negotiate(int fd, const std::string& name,
                                   const Offloads& request) {
  using namespace internal;  // NOLINT: the wire constants.
  Offloads got;
  unsigned bits = 0;
  if (request.csum) {
    bits |= kTunCsum;
    got.csum = true;
    if (request.tso4) bits |= kTunTso4, got.tso4 = true;
    if (request.tso6) bits |= kTunTso6, got.tso6 = true;
    if (request.uso4 && request.uso6 &&
        ioctl(fd, TUNSETOFFLOAD, bits | kTunUso4 | kTunUso6) == 0) {
      got.uso4 = got.uso6 = true;
      return got;
    }
  }
  if (ioctl(fd, TUNSETOFFLOAD, bits) != 0) {
    return Errno(absl::StatusCode::kInternal,
                 absl::StrCat("TUNSETOFFLOAD on ", name), errno);
  }
  return got;
}

// ConfigureInterface sets the MTU, the transmit queue's length (when not
// 0) and, if asked, IFF_UP, through a socket of the calling thread's
// network namespace.
absl::Status ConfigureInterface(const std::string& name, size_t mtu,
                                size_t queue_len, bool up) {
  int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (s < 0) s = socket(AF_INET6, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (s < 0) {
    return Errno(absl::StatusCode::kInternal, "socket for interface ioctls",
                 errno);
  }
  struct ifreq ifr = {};
  std::memcpy(ifr.ifr_name, name.data(), name.size());
  absl::Status status;
  ifr.ifr_mtu = static_cast<int>(mtu);
  if (ioctl(s, SIOCSIFMTU, &ifr) != 0) {
    status = Errno(errno == EINVAL ? absl::StatusCode::kInvalidArgument
                                   : absl::StatusCode::kInternal,
                   absl::StrCat("setting MTU ", mtu, " on ", name), errno);
  } else if (queue_len != 0 &&
             (ifr.ifr_qlen = static_cast<int>(queue_len),
              ioctl(s, SIOCSIFTXQLEN, &ifr) != 0)) {
    status = Errno(absl::StatusCode::kInternal,
                   absl::StrCat("setting txqueuelen ", queue_len, " on ", name),
                   errno);
  } else if (up) {
    if (ioctl(s, SIOCGIFFLAGS, &ifr) != 0) {
      status = Errno(absl::StatusCode::kInternal,
                     absl::StrCat("SIOCGIFFLAGS on ", name), errno);
    } else {
      ifr.ifr_flags |= IFF_UP;
      if (ioctl(s, SIOCSIFFLAGS, &ifr) != 0) {
        status = Errno(absl::StatusCode::kInternal,
                       absl::StrCat("bringing ", name, " up"), errno);
      }
    }
  }
  close(s);
  return status;
}

// NeedsSoftwareGso reports whether `pkt`, a GSO packet, must be segmented
// before the device takes it.
bool NeedsSoftwareGso(const PacketBuffer& pkt, const Offloads& o) {
  if (!o.csum || pkt.checksum_status != ChecksumStatus::kPartial) return true;
  switch (pkt.gso_type) {
    case GsoType::kNone:
      return false;
    case GsoType::kTCPv4:
      return !o.tso4;
    case GsoType::kTCPv6:
      return !o.tso6;
    case GsoType::kUDPv4:
      return !o.uso4;
    case GsoType::kUDPv6:
      return !o.uso6;
  }
  return true;
}

}  // namespace

std::string_view ToString(DeviceMode mode) {
  return mode == DeviceMode::kTap ? "tap" : "tun";
}

std::string ToString(const Offloads& o) {
  std::string s;
  auto add = [&s](bool on, const char* name) {
    if (!on) return;
    if (!s.empty()) s += ',';
    s += name;
  };
  add(o.csum, "csum");
  add(o.tso4, "tso4");
  add(o.tso6, "tso6");
  add(o.uso4, "uso4");
  add(o.uso6, "uso6");
  return s.empty() ? "none" : s;
}

std::string_view ToString(DropReason r) {
  switch (r) {
    case DropReason::kNone:
      return "none";
    case DropReason::kRxShortRead:
      return "rx_short_read";
    case DropReason::kRxFlags:
      return "rx_flags";
    case DropReason::kRxCsumStart:
      return "rx_csum_start";
    case DropReason::kRxCsumOffset:
      return "rx_csum_offset";
    case DropReason::kRxGsoType:
      return "rx_gso_type";
    case DropReason::kRxGsoEcn:
      return "rx_gso_ecn";
    case DropReason::kRxGsoSize:
      return "rx_gso_size";
    case DropReason::kRxGsoNoCsum:
      return "rx_gso_no_csum";
    case DropReason::kRxHdrLen:
      return "rx_hdr_len";
    case DropReason::kRxGsoMismatch:
      return "rx_gso_mismatch";
    case DropReason::kRxReadError:
      return "rx_read_error";
    case DropReason::kTxQueueFull:
      return "tx_queue_full";
    case DropReason::kTxBadPacket:
      return "tx_bad_packet";
    case DropReason::kTxSegment:
      return "tx_segment";
    case DropReason::kTxWriteError:
      return "tx_write_error";
  }
  return "unknown";
}

uint64_t EndpointCounters::total_dropped() const {
  uint64_t n = 0;
  for (uint64_t d : drops) n += d;
  return n;
}

std::string EndpointCounters::ToString() const {
  std::string s = absl::StrCat(
      "rx_frames=", rx_frames, " rx_bytes=", rx_bytes,
      " rx_partial=", rx_partial, " rx_gso=", rx_gso, " tx_frames=", tx_frames,
      " tx_bytes=", tx_bytes, " tx_gso=", tx_gso,
      " tx_csum_resolved=", tx_csum_resolved, " tx_segmented=", tx_segmented,
      " dropped=", total_dropped());
  for (size_t i = 1; i < kNumDropReasons; ++i) {
    if (drops[i] == 0) continue;
    absl::StrAppend(&s, " drop_",
                    std::string(link::ToString(static_cast<DropReason>(i))),
                    "=", drops[i]);
  }
  return s;
}

struct Endpoint::Slot {
  std::array<uint8_t, kVnetHeaderSize> vh;
  buffer::View head;
  buffer::View spill;
  absl::InlinedVector<iovec, 8> iov;
  std::vector<uint8_t> flat;
};

absl::StatusOr<std::unique_ptr<Endpoint>> Endpoint::Open(
    const EndpointOptions& options) {
  const std::string dev = absl::StrCat(std::string(ToString(options.mode)), " device '",
                                       options.name, "'");
  if (!ValidName(options.name)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "bad interface name '", options.name,
        "': at most 15 bytes, no '/', ':' or whitespace"));
  }
  if (options.mtu < kMinMtu || options.mtu > 65535) {
    return absl::InvalidArgumentError(absl::StrCat(
        "bad MTU ", options.mtu, " for ", dev, ": 68..65535"));
  }
  if (options.device_queue_len > (size_t{1} << 20)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "bad device_queue_len ", options.device_queue_len, " for ", dev,
        ": at most 1048576"));
  }
  if (options.tx_queue_limit == 0 || options.rx_burst == 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("tx_queue_limit and rx_burst must be positive for ", dev));
  }
  const int fd = open("/dev/net/tun", O_RDWR | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    const int err = errno;
    if (err == ENOENT || err == ENODEV || err == ENXIO) {
      return Errno(absl::StatusCode::kNotFound,
                   "no /dev/net/tun (load the tun module, mknod c 10 200)",
                   err);
    }
    if (err == EACCES || err == EPERM) {
      return Errno(absl::StatusCode::kPermissionDenied,
                   "opening /dev/net/tun needs CAP_NET_ADMIN", err);
    }
    return Errno(absl::StatusCode::kInternal, "opening /dev/net/tun", err);
  }
  // From here every return closes fd: the Endpoint owns it once made.
  std::unique_ptr<Endpoint> ep(new Endpoint(fd, options, Offloads{}));

  struct ifreq ifr = {};
  std::memcpy(ifr.ifr_name, options.name.data(), options.name.size());
  ifr.ifr_flags = static_cast<short>(
      (options.mode == DeviceMode::kTap ? IFF_TAP : IFF_TUN) | IFF_NO_PI |
      IFF_VNET_HDR);
  if (ioctl(fd, TUNSETIFF, &ifr) != 0) {
    const int err = errno;
    switch (err) {
      case EPERM:
      case EACCES:
        return Errno(absl::StatusCode::kPermissionDenied,
                     absl::StrCat("creating ", dev, " needs CAP_NET_ADMIN"),
                     err);
      case EBUSY:
        return Errno(absl::StatusCode::kAlreadyExists,
                     absl::StrCat(dev, " is in use"), err);
      case EINVAL:
        return Errno(absl::StatusCode::kAlreadyExists,
                     absl::StrCat(dev, " exists with other flags or kind"),
                     err);
      default:
        return Errno(absl::StatusCode::kInternal,
                     absl::StrCat("TUNSETIFF for ", dev), err);
    }
  }
  ep->options_.name.assign(ifr.ifr_name, strnlen(ifr.ifr_name, IFNAMSIZ));
  const std::string& name = ep->options_.name;

  int hdr_size = static_cast<int>(kVnetHeaderSize);
  if (ioctl(fd, TUNSETVNETHDRSZ, &hdr_size) != 0) {
    return Errno(absl::StatusCode::kInternal,
                 absl::StrCat("TUNSETVNETHDRSZ 12 on ", name), errno);
  }
  // virtio 1.0 headers are little-endian; a big-endian host must say so.
  int le = 1;
  if (ioctl(fd, TUNSETVNETLE, &le) != 0 &&
      std::endian::native == std::endian::big) {
    return Errno(absl::StatusCode::kInternal,
                 absl::StrCat("TUNSETVNETLE on ", name), errno);
  }
  absl::StatusOr<Offloads> offloads = Negotiate(fd, name, options.request);
  if (!offloads.ok()) return offloads.status();
  ep->offloads_ = *offloads;
  absl::Status s = ConfigureInterface(name, options.mtu,
                                      options.device_queue_len,
                                      options.bring_up);
  if (!s.ok()) return s;
  // Batched writes are not linked: the kernel's default, unlimited send
  // buffer (set again here) means a write never waits, so none fails
  // while a later one in its batch succeeds.
  int sndbuf = INT_MAX;
  if (options.io_uring && ioctl(fd, TUNSETSNDBUF, &sndbuf) == 0) {
    ep->ring_ = internal::Uring::Create(kIoBatch);
    if (ep->ring_ != nullptr) ep->slots_.resize(ep->ring_->capacity());
  }
  return ep;
}

Endpoint::Endpoint(int fd, const EndpointOptions& options,
                   const Offloads& offloads)
    : fd_(fd), options_(options), offloads_(offloads) {}

Endpoint::~Endpoint() {
  if (fd_ >= 0) close(fd_);
}

LinkCapabilities Endpoint::capabilities() const {
  LinkCapabilities c;
  c.tx_checksum_offload = offloads_.csum;
  c.tso_max_size = offloads_.csum && (offloads_.tso4 || offloads_.tso6)
                       ? 65535
                       : 0;
  c.rx_checksum = ChecksumStatus::kNone;
  c.mtu = static_cast<uint32_t>(options_.mtu);
  return c;
}

size_t Endpoint::ReadBurst(std::vector<PacketBuffer>& out, size_t max) {
  if (max == 0) max = options_.rx_burst;
  if (ring_ != nullptr) return ReadBurstBatched(out, max);
  const size_t first = options_.mtu + kLinkSlack;
  const size_t second = kMaxFrameSize > first ? kMaxFrameSize - first : 0;
  size_t delivered = 0;
  // Each turn reads one frame or stops; EINTR retries are bounded too.
  for (size_t turn = 0; delivered < max && turn < 2 * max + 8; ++turn) {
    buffer::View head = buffer::View::Allocate(first);
    if (second != 0 && spill_.empty()) spill_ = buffer::View::Allocate(second);
    std::array<uint8_t, kVnetHeaderSize> vh;
    const std::span<uint8_t> h = head.MutableSpan();
    std::array<iovec, 3> iov = {{
        {vh.data(), vh.size()},
        {h.data(), h.size()},
        {nullptr, 0},
    }};
    int count = 2;
    if (second != 0) {
      const std::span<uint8_t> s = spill_.MutableSpan();
      iov[2] = {s.data(), s.size()};
      count = 3;
    }
    const ssize_t n = readv(fd_, iov.data(), count);
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno != EAGAIN && errno != EWOULDBLOCK) {
        CountDrop(DropReason::kRxReadError);
      }
      break;
    }
    if (TakeFrame(static_cast<size_t>(n), vh, std::move(head), spill_, out)) {
      ++delivered;
    }
  }
  return delivered;
}

bool Endpoint::TakeFrame(size_t n,
                         const std::array<uint8_t, kVnetHeaderSize>& vh,
                         buffer::View head, buffer::View& spill,
                         std::vector<PacketBuffer>& out) {
  if (n <= kVnetHeaderSize) {
    CountDrop(DropReason::kRxShortRead);
    return false;
  }
  const size_t m = n - kVnetHeaderSize;
  buffer::Buffer frame;
  if (m <= head.size()) {
    head.Truncate(m);
    frame.Append(std::move(head));
  } else {
    spill.Truncate(m - head.size());
    frame.Append(std::move(head));
    frame.Append(std::move(spill));
    spill = buffer::View();
  }
  PacketBuffer pkt;
  const DropReason r = DecodeVnetFrame(vh, std::move(frame), options_.mode, pkt);
  if (r != DropReason::kNone) {
    CountDrop(r);
    return false;
  }
  ++counters_.rx_frames;
  counters_.rx_bytes += m;
  if (pkt.checksum_status == ChecksumStatus::kPartial) ++counters_.rx_partial;
  if (pkt.gso_type != GsoType::kNone) ++counters_.rx_gso;
  out.push_back(std::move(pkt));
  return true;
}

size_t Endpoint::ReadBurstBatched(std::vector<PacketBuffer>& out,
                                  size_t max) {
  const size_t first = options_.mtu + kLinkSlack;
  const size_t second = kMaxFrameSize > first ? kMaxFrameSize - first : 0;
  std::array<int, kIoBatch> res;
  size_t delivered = 0;
  // Each turn submits k reads and ends the burst unless all k delivered
  // (or were drops); the turns are bounded like ReadBurst's.
  for (size_t turn = 0; delivered < max && turn < 2 * max + 8; ++turn) {
    const size_t k = std::min(max - delivered, slots_.size());
    for (size_t i = 0; i < k; ++i) {
      Slot& s = slots_[i];
      if (s.head.empty()) s.head = buffer::View::Allocate(first);
      if (second != 0 && s.spill.empty()) {
        s.spill = buffer::View::Allocate(second);
      }
      const std::span<uint8_t> h = s.head.MutableSpan();
      s.iov.assign({{s.vh.data(), s.vh.size()}, {h.data(), h.size()}});
      if (second != 0) {
        const std::span<uint8_t> sp = s.spill.MutableSpan();
        s.iov.push_back({sp.data(), sp.size()});
      }
      ring_->Readv(fd_, s.iov.data(), static_cast<unsigned>(s.iov.size()));
    }
    const bool submitted = ring_->Submit(std::span(res).first(k));
    bool more = submitted;
    bool refused = false;
    // The reads ran in order: a later one's frame is never older.
    for (size_t i = 0; i < k; ++i) {
      Slot& s = slots_[i];
      if (res[i] >= 0) {
        buffer::View head = std::move(s.head);
        s.head = buffer::View();
        if (TakeFrame(static_cast<size_t>(res[i]), s.vh, std::move(head),
                      s.spill, out)) {
          ++delivered;
        }
        continue;
      }
      more = false;
      if (res[i] == -EOPNOTSUPP) refused = true;
      if (submitted && res[i] != -EAGAIN && res[i] != -EINTR && !refused) {
        CountDrop(DropReason::kRxReadError);
      }
    }
    if (!submitted || refused) {
      // The ring failed, or the device refuses RWF_NOWAIT: one read a
      // call from now on.
      ring_.reset();
      slots_.clear();
      if (delivered == max) return delivered;
      return delivered + ReadBurst(out, max - delivered);
    }
    if (!more) break;
  }
  return delivered;
}

bool Endpoint::Send(PacketBuffer&& pkt) {
  if (tx_queue_.size() >= options_.tx_queue_limit) {
    CountDrop(DropReason::kTxQueueFull);
    PacketBuffer dropped(std::move(pkt));
    return false;
  }
  tx_queue_.push_back(std::move(pkt));
  return true;
}

bool Endpoint::Prepare(PacketBuffer& pkt) {
  const size_t size = pkt.size();
  // The header's offsets are 16 bits wide; a GSO packet is written whole
  // only when it fits one frame, else segmented below.
  if (size == 0 ||
      (size > kMaxFrameSize && pkt.gso_type == GsoType::kNone)) {
    CountDrop(DropReason::kTxBadPacket);
    return false;
  }
  if (pkt.checksum_status == ChecksumStatus::kPartial &&
      (pkt.csum_start >= size || pkt.csum_start > 0xffff ||
       size_t{pkt.csum_start} + pkt.csum_offset + 2 > size)) {
    CountDrop(DropReason::kTxBadPacket);
    return false;
  }
  if (pkt.gso_type != GsoType::kNone) {
    if (pkt.gso_size == 0) {
      CountDrop(DropReason::kTxBadPacket);
      return false;
    }
    if (NeedsSoftwareGso(pkt, offloads_) || size > kMaxFrameSize) {
      std::optional<PacketBuffer> layered =
          internal::WithLayers(std::move(pkt), options_.mode);
      if (!layered.has_value()) {
        CountDrop(DropReason::kTxBadPacket);
        return false;
      }
      LinkCapabilities link;
      link.tx_checksum_offload = offloads_.csum;
      std::vector<PacketBuffer> segments;
      if (SegmentGsoPacket(std::move(*layered), link, segments) !=
          EncodeError::kOk) {
        CountDrop(DropReason::kTxSegment);
        return false;
      }
      ++counters_.tx_segmented;
      for (PacketBuffer& s : segments) tx_segments_.push_back(std::move(s));
      return false;
    }
  } else if (pkt.checksum_status == ChecksumStatus::kPartial &&
             !offloads_.csum) {
    // A UDP sum of 0 goes out as 0xffff: the resolve must know it is UDP.
    if (pkt.transport_protocol == TransportProtocol::kNone) {
      const std::optional<internal::FrameLayout> l =
          internal::ParseFrameLayout(pkt.ToBuffer(), options_.mode);
      if (l.has_value()) pkt.transport_protocol = l->transport;
    }
    if (!ResolvePartialChecksum(pkt)) {
      CountDrop(DropReason::kTxBadPacket);
      return false;
    }
    ++counters_.tx_csum_resolved;
  }
  return true;
}

namespace {

// WriteIov points `iov` at what one write of `pkt` sends: its virtio-net
// header (encoded into `vh`), headers() and data()'s views, or, past what
// one writev takes, a copy of them all in `flat`.
void WriteIov(const PacketBuffer& pkt,
              std::array<uint8_t, kVnetHeaderSize>& vh,
              absl::InlinedVector<iovec, 8>& iov, std::vector<uint8_t>& flat) {
  EncodeVnetHeader(pkt, vh);
  const std::span<const uint8_t> headers = pkt.headers();
  iov.clear();
  iov.push_back({vh.data(), vh.size()});
  if (pkt.data().view_count() + 2 > IOV_MAX) {
    // More pieces than one writev takes: the only copying path.
    flat = pkt.Flatten();
    iov.push_back({flat.data(), flat.size()});
    return;
  }
  if (!headers.empty()) {
    iov.push_back({const_cast<uint8_t*>(headers.data()), headers.size()});
  }
  for (const buffer::View& v : pkt.data()) {
    iov.push_back({const_cast<uint8_t*>(v.data()), v.size()});
  }
}

}  // namespace

void Endpoint::CountWritten(const PacketBuffer& pkt) {
  ++counters_.tx_frames;
  counters_.tx_bytes += pkt.size();
  if (pkt.gso_type != GsoType::kNone) ++counters_.tx_gso;
}

int Endpoint::Write(const PacketBuffer& pkt) {
  std::array<uint8_t, kVnetHeaderSize> vh;
  std::vector<uint8_t> flat;
  absl::InlinedVector<iovec, 8> iov;
  WriteIov(pkt, vh, iov, flat);
  for (int attempt = 0; attempt < 4; ++attempt) {
    const ssize_t n = writev(fd_, iov.data(), static_cast<int>(iov.size()));
    if (n >= 0) {
      CountWritten(pkt);
      return 1;
    }
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) return 0;
    break;
  }
  CountDrop(DropReason::kTxWriteError);
  return -1;
}

bool Endpoint::NextToWrite(PacketBuffer& out, FlushResult& r) {
  // Every turn takes, drops or expands one packet: bounded by the queue
  // and the segments it expands to.
  while (true) {
    if (!tx_segments_.empty()) {
      out = std::move(tx_segments_.front());
      tx_segments_.pop_front();
      return true;
    }
    if (tx_queue_.empty()) return false;
    PacketBuffer& front = tx_queue_.front();
    const size_t before = tx_segments_.size();
    const bool ready = Prepare(front);
    if (ready) out = std::move(front);
    // Dropped, or expanded into tx_segments_, when not ready.
    if (!ready && tx_segments_.size() == before) ++r.dropped;
    tx_queue_.pop_front();
    if (ready) return true;
  }
}

FlushResult Endpoint::Flush() {
  if (ring_ != nullptr) return FlushBatched();
  FlushResult r;
  while (true) {
    if (tx_batch_.empty()) {
      PacketBuffer pkt;
      if (!NextToWrite(pkt, r)) break;
      tx_batch_.push_back(std::move(pkt));
    }
    const int w = Write(tx_batch_.front());
    if (w == 0) {
      r.blocked = true;  // The packet stays first in line.
      break;
    }
    tx_batch_.pop_front();
    if (w > 0) {
      ++r.written;
    } else {
      ++r.dropped;
    }
  }
  return r;
}

FlushResult Endpoint::FlushBatched() {
  FlushResult r;
  std::array<int, kIoBatch> res;
  std::array<bool, kIoBatch> keep;
  // Every turn writes or drops at least one packet, or returns: bounded by
  // the packets queued (and by 4 turns in a row that wrote nothing, the
  // writev path's EINTR retries).
  for (int idle = 0; idle < 4;) {
    while (tx_batch_.size() < slots_.size()) {
      PacketBuffer pkt;
      if (!NextToWrite(pkt, r)) break;
      tx_batch_.push_back(std::move(pkt));
    }
    const size_t k = std::min(tx_batch_.size(), slots_.size());
    if (k == 0) break;
    for (size_t i = 0; i < k; ++i) {
      Slot& s = slots_[i];
      WriteIov(tx_batch_.at(i), s.vh, s.iov, s.flat);
      ring_->Writev(fd_, s.iov.data(), static_cast<unsigned>(s.iov.size()));
    }
    const bool submitted = ring_->Submit(std::span(res).first(k));
    // The writes ran in order. Those to retry stay first in line; the
    // device's unlimited send buffer (Open) leaves none behind a later one.
    size_t done = 0;
    bool refused = false;
    for (size_t i = 0; i < k; ++i) {
      const int n = res[i];
      if (n == -EOPNOTSUPP) refused = true;
      keep[i] = n == -EAGAIN || n == -EINTR || n == -EOPNOTSUPP ||
                (!submitted && n < 0);
      if (keep[i]) {
        r.blocked = r.blocked || n == -EAGAIN;
        continue;
      }
      ++done;
      if (n >= 0) {
        CountWritten(tx_batch_.at(i));
        ++r.written;
      } else {
        CountDrop(DropReason::kTxWriteError);
        ++r.dropped;
      }
      slots_[i].flat.clear();
    }
    tx_batch_.RemoveFront(k, keep);
    if (!submitted || refused) {
      // The ring failed, or the device refuses RWF_NOWAIT: what is left
      // goes one writev a call.
      ring_.reset();
      slots_.clear();
      const FlushResult rest = Flush();
      r.written += rest.written;
      r.dropped += rest.dropped;
      r.blocked = rest.blocked;
      return r;
    }
    if (r.blocked) break;
    idle = done == 0 ? idle + 1 : 0;
  }
  return r;
}

}  // namespace ipsum::tcpip::link
