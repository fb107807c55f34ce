// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Kernel tests of the Endpoint: the Linux kernel is the peer and the judge.
// Each test runs in a network namespace of its own (the main thread
// unshares one; it dies with the test, devices and all, however the test
// ends). Two devices of one mode: the kernel sends through `rx` to
// addresses routed via it; a reflector reads each frame from `rx`, swaps the
// addresses into the other subnet (the pseudo-header and IPv4 header sums
// are unchanged by the swap, so the frame's checksum state stays true) and
// writes it to `tx`, where the kernel receives it:
//
//   client C ---> V (via rx)  ==reflector==>  R ---> L listener (via tx)
//   listener L -> R (via rx)  ==reflector==>  V ---> C client    (via tx)
//
// The kernel's own TCP and UDP complete through the endpoint in every
// offload combination on each side, and its /proc/net/snmp counters say
// whether a checksum was wrong. Needs root (CAP_SYS_ADMIN for the
// namespace, CAP_NET_ADMIN for the devices) and /dev/net/tun: main() fails
// with one line without them.

#include "tcpip/link/endpoint.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/udp.h>
#include <poll.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <ostream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "buffer/buffer.h"
#include "gtest/gtest.h"
#include "tcpip/internal/testing.h"
#include "tcpip/link/internal/uring.h"
#include "tcpip/packet_buffer.h"
#include "tcpip/transmit.h"

#ifndef UDP_SEGMENT
#define UDP_SEGMENT 103
#endif

namespace ipsum::tcpip::link {
namespace {

using Clock = std::chrono::steady_clock;
using Bytes = std::vector<uint8_t>;

// kDeadline bounds every wait and loop of a test.
constexpr auto kDeadline = std::chrono::seconds(20);

// IpCommand returns iproute2's ip(8): a test's PATH may lack sbin.
std::string IpCommand() {
  for (const char* p : {"/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"}) {
    if (access(p, X_OK) == 0) return p;
  }
  return "ip";
}

// Ip runs ip(8) once over `commands` (its -batch form, without "ip").
void Ip(const std::vector<std::string>& commands) {
  static const std::string ip = IpCommand();
  FILE* p = popen((ip + " -batch - 2>&1").c_str(), "w");
  ASSERT_NE(p, nullptr);
  for (const std::string& c : commands) std::fprintf(p, "%s\n", c.c_str());
  const int rc = pclose(p);
  std::string all;
  for (const std::string& c : commands) all += c + "; ";
  ASSERT_EQ(rc, 0) << all;
}

void WriteFile(const std::string& path, const std::string& value) {
  std::ofstream f(path);
  f << value;
  ASSERT_TRUE(f.good()) << path;
}

// Snmp returns the namespace's counters, "Tcp.InCsumErrors" style for
// /proc/net/snmp and snmp6's own names ("Udp6InCsumErrors").
std::map<std::string, long long> Snmp() {
  std::map<std::string, long long> m;
  std::ifstream f("/proc/thread-self/net/snmp");
  std::string names, values;
  while (std::getline(f, names) && std::getline(f, values)) {
    std::istringstream n(names), v(values);
    std::string proto, p2, name;
    n >> proto;
    v >> p2;
    long long x;
    while (n >> name && v >> x)
      m[proto.substr(0, proto.size() - 1) + "." + name] = x;
  }
  std::ifstream f6("/proc/thread-self/net/snmp6");
  std::string name;
  long long x;
  while (f6 >> name >> x) m[name] = x;
  return m;
}

// kErrorCounters are the kernel's checksum and header error counters that
// must not move.
const char* const kErrorCounters[] = {"Ip.InHdrErrors",   "Icmp.InCsumErrors",
                                      "Tcp.InCsumErrors", "Udp.InCsumErrors",
                                      "Ip6InHdrErrors",   "Icmp6InCsumErrors",
                                      "Udp6InCsumErrors"};

Offloads Make(bool csum, bool tso, bool uso) {
  return Offloads{csum, tso, tso, uso, uso};
}

// Mode is what a test runs on: the device's kind, and whether the
// endpoints read and write through io_uring (where the kernel offers it)
// or one system call per frame.
struct Mode {
  DeviceMode device;
  bool io_uring;
};

void PrintTo(const Mode& m, std::ostream* os) {
  *os << ToString(m.device) << (m.io_uring ? " io_uring" : " readv/writev");
}

// UringAvailable reports whether this kernel (or emulator) has io_uring.
bool UringAvailable() {
  static const bool available = internal::Uring::Create(8) != nullptr;
  return available;
}

// Net is a fresh namespace with two endpoints of `mode` and the addresses
// of the file comment: C = .0.1, L = .0.2 local on rx; V = .1.2 and R = .1.1
// routed via rx (fd09::/64 and fd09:0:0:1::/64 for IPv6).
class Net {
 public:
  Net(Mode mode, const Offloads& rx, const Offloads& tx)
      : mode_(mode.device), io_uring_(mode.io_uring) {
    Setup(rx, tx);
  }

  void Setup(const Offloads& rxo, const Offloads& txo) {
    ASSERT_EQ(unshare(CLONE_NEWNET), 0) << std::strerror(errno);
    WriteFile("/proc/sys/net/ipv4/conf/all/rp_filter", "0");
    WriteFile("/proc/sys/net/ipv4/conf/default/rp_filter", "0");
    const std::string tag = std::to_string(getpid() % 100000);
    EndpointOptions o;
    o.mode = mode_;
    o.io_uring = io_uring_;
    o.name = "ipsr" + tag;
    o.request = rxo;
    auto rx = Endpoint::Open(o);
    ASSERT_TRUE(rx.ok()) << rx.status();
    o.name = "ipst" + tag;
    o.request = txo;
    auto tx = Endpoint::Open(o);
    ASSERT_TRUE(tx.ok()) << tx.status();
    rx_ = std::move(*rx);
    tx_ = std::move(*tx);
    // Each implementation is the one asked for, where the kernel has it.
    EXPECT_EQ(rx_->batched(), io_uring_ && UringAvailable());
    EXPECT_EQ(tx_->batched(), io_uring_ && UringAvailable());
    const std::string r = rx_->name();
    std::vector<std::string> ip = {
        "link set lo up",
        "addr add 10.9.0.1/32 dev " + r,
        "addr add 10.9.0.2/32 dev " + r,
        "route add 10.9.1.0/24 dev " + r,
        "addr add fd09::1/128 dev " + r + " nodad",
        "addr add fd09::2/128 dev " + r + " nodad",
        "route add fd09:0:0:1::/64 dev " + r,
    };
    if (mode_ == DeviceMode::kTap) {
      for (const char* a :
           {"10.9.1.1", "10.9.1.2", "fd09:0:0:1::1", "fd09:0:0:1::2"}) {
        ip.push_back(std::string("neigh replace ") + a +
                     " lladdr 02:00:00:00:09:01 nud permanent dev " + r);
      }
    }
    Ip(ip);
    if (::testing::Test::HasFatalFailure()) return;
    WaitForLocalIPv6Routes();
    if (::testing::Test::HasFatalFailure()) return;
    if (mode_ == DeviceMode::kTap) {
      struct ifreq ifr = {};
      std::strncpy(ifr.ifr_name, tx_->name().c_str(), IFNAMSIZ - 1);
      int s = socket(AF_INET, SOCK_DGRAM, 0);
      ASSERT_EQ(ioctl(s, SIOCGIFHWADDR, &ifr), 0);
      close(s);
      std::memcpy(tx_mac_, ifr.ifr_hwaddr.sa_data, 6);
    }
    before_ = Snmp();
  }

  // WaitForLocalIPv6Routes waits for the local routes of fd09::1 and
  // fd09::2: the kernel adds them from a work queue after the address,
  // even without DAD, and until then a datagram to them that arrives on
  // tx is dropped (Ip6InAddrErrors).
  void WaitForLocalIPv6Routes() {
    const auto end = Clock::now() + kDeadline;
    for (;;) {
      // /proc/net/ipv6_route: destination, prefix length, ..., flags
      // (RTF_LOCAL is 0x80000000), device.
      std::ifstream f("/proc/thread-self/net/ipv6_route");
      std::string dst, len, src, src_len, next, metric, ref, use, flags, dev;
      int found = 0;
      while (f >> dst >> len >> src >> src_len >> next >> metric >> ref >>
             use >> flags >> dev) {
        const bool local = std::stoul(flags, nullptr, 16) & 0x80000000u;
        found += local && (dst == "fd090000000000000000000000000001" ||
                           dst == "fd090000000000000000000000000002");
      }
      if (found == 2) return;
      ASSERT_LT(Clock::now(), end) << "no local routes for fd09::1, fd09::2";
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }

  Endpoint& rx() { return *rx_; }
  Endpoint& tx() { return *tx_; }
  DeviceMode mode() const { return mode_; }
  const uint8_t* tx_mac() const { return tx_mac_; }

  // Reflect rewrites a frame read from rx for tx; false for frames not of
  // the test's subnets (router solicitations, MLD, ...).
  bool Reflect(PacketBuffer& pkt) {
    const size_t l2 = mode_ == DeviceMode::kTap ? 14 : 0;
    Bytes head(std::min<size_t>(pkt.data().size(), l2 + 40));
    if (head.size() < l2 + 20) return false;
    pkt.data().CopyOut(0, head);
    const uint8_t version = head[l2] >> 4;
    size_t src, dst, at;  // Address offsets and the byte that tells subnets.
    if (version == 4) {
      src = l2 + 12, dst = l2 + 16, at = 2;
      if (head[src] != 10 || head[src + 1] != 9) return false;
    } else if (version == 6 && head.size() >= l2 + 40) {
      src = l2 + 8, dst = l2 + 24, at = 7;
      if (head[src] != 0xfd || head[src + 1] != 0x09) return false;
    } else {
      return false;
    }
    if (head[src + at] != 0 || head[dst + at] != 1) return false;
    const uint8_t one = 1, zero = 0;
    pkt.CopyIn(src + at, std::span(&one, 1));
    pkt.CopyIn(dst + at, std::span(&zero, 1));
    if (l2 != 0) {
      const uint8_t peer[6] = {2, 0, 0, 0, 9, 1};
      pkt.CopyIn(0, std::span(tx_mac_, 6));
      pkt.CopyIn(6, std::span(peer, 6));
    }
    return true;
  }

  // Pump moves frames rx -> tx until `done` or the deadline; returns
  // false on the deadline.
  bool Pump(const std::atomic<bool>& done) {
    const auto end = Clock::now() + kDeadline;
    std::vector<PacketBuffer> in;
    while (!done.load() && Clock::now() < end) {
      pollfd p[2] = {
          {rx_->fd(), POLLIN, 0},
          {tx_->fd(),
           static_cast<short>(POLLIN | (tx_->tx_pending() ? POLLOUT : 0)), 0}};
      poll(p, 2, 5);
      in.clear();
      rx_->ReadBurst(in);
      for (PacketBuffer& pkt : in) {
        if (Reflect(pkt)) {
          tx_->Send(std::move(pkt));
        } else {
          ++ignored_;
        }
      }
      in.clear();
      tx_->ReadBurst(in);  // Nothing is routed via tx; drained only.
      tx_->Flush();
    }
    return done.load();
  }

  // ExpectNoKernelErrors checks the kernel's error counters did not move.
  void ExpectNoKernelErrors() {
    std::map<std::string, long long> now = Snmp();
    for (const char* c : kErrorCounters) {
      EXPECT_EQ(now[c], before_[c]) << c;
    }
  }

  size_t ignored() const { return ignored_; }

 private:
  DeviceMode mode_;
  bool io_uring_;
  std::unique_ptr<Endpoint> rx_;
  std::unique_ptr<Endpoint> tx_;
  uint8_t tx_mac_[6] = {};
  std::map<std::string, long long> before_;
  size_t ignored_ = 0;
};

sockaddr_storage Addr(bool v6, const char* a4, const char* a6, uint16_t port) {
  sockaddr_storage ss = {};
  if (v6) {
    auto* s = reinterpret_cast<sockaddr_in6*>(&ss);
    s->sin6_family = AF_INET6;
    s->sin6_port = htons(port);
    inet_pton(AF_INET6, a6, &s->sin6_addr);
  } else {
    auto* s = reinterpret_cast<sockaddr_in*>(&ss);
    s->sin_family = AF_INET;
    s->sin_port = htons(port);
    inet_pton(AF_INET, a4, &s->sin_addr);
  }
  return ss;
}

socklen_t Len(bool v6) {
  return v6 ? sizeof(sockaddr_in6) : sizeof(sockaddr_in);
}

void SetTimeouts(int fd) {
  timeval tv = {10, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
}

Bytes Pattern(size_t n, uint32_t seed) {
  Bytes b(n);
  uint32_t x = seed;
  for (auto& c : b) {
    x = x * 1103515245 + 12345;
    c = static_cast<uint8_t>(x >> 16);
  }
  return b;
}

// TransferTCP sends `size` bytes from C to V (arriving at L from R) through
// the reflector and returns what the listener received.
Bytes TransferTCP(Net& net, bool v6, const Bytes& data) {
  const uint16_t port = 5001;
  int ls = socket(v6 ? AF_INET6 : AF_INET, SOCK_STREAM, 0);
  int one = 1;
  setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_storage l = Addr(v6, "10.9.0.2", "fd09::2", port);
  EXPECT_EQ(bind(ls, reinterpret_cast<sockaddr*>(&l), Len(v6)), 0)
      << std::strerror(errno);
  EXPECT_EQ(listen(ls, 1), 0);
  SetTimeouts(ls);
  std::atomic<bool> sent{false}, received{false};
  Bytes got;
  std::thread server([&] {
    int c = accept(ls, nullptr, nullptr);
    if (c >= 0) {
      SetTimeouts(c);
      std::vector<uint8_t> buf(1 << 16);
      while (got.size() <= data.size()) {
        ssize_t n = recv(c, buf.data(), buf.size(), 0);
        if (n <= 0) break;
        got.insert(got.end(), buf.begin(), buf.begin() + n);
      }
      close(c);
    }
    received = true;
  });
  std::thread client([&] {
    int s = socket(v6 ? AF_INET6 : AF_INET, SOCK_STREAM, 0);
    SetTimeouts(s);
    sockaddr_storage c = Addr(v6, "10.9.0.1", "fd09::1", 0);
    sockaddr_storage v = Addr(v6, "10.9.1.2", "fd09:0:0:1::2", port);
    if (bind(s, reinterpret_cast<sockaddr*>(&c), Len(v6)) == 0 &&
        connect(s, reinterpret_cast<sockaddr*>(&v), Len(v6)) == 0) {
      size_t off = 0;
      while (off < data.size()) {
        ssize_t n = send(s, data.data() + off, data.size() - off, 0);
        if (n <= 0) break;
        off += static_cast<size_t>(n);
      }
      shutdown(s, SHUT_WR);
      char b;
      recv(s, &b, 1, 0);  // The server's close.
    }
    close(s);
    sent = true;
  });
  std::atomic<bool> done{false};
  std::thread watcher([&] {
    const auto end = Clock::now() + kDeadline;
    while (!(sent && received) && Clock::now() < end) {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    done = true;
  });
  net.Pump(done);
  watcher.join();
  client.join();
  server.join();
  close(ls);
  return got;
}

struct Combo {
  Offloads rx, tx;
};

std::string Name(const Combo& c) {
  return "rx=" + ToString(c.rx) + " tx=" + ToString(c.tx);
}

const Offloads kAll = Make(true, true, true);
const Offloads kNone = Make(false, false, false);
const Offloads kCsum = Make(true, false, false);
const Offloads kTso = Make(true, true, false);

const Combo kCombos[] = {
    {kAll, kAll},  {kAll, kNone}, {kAll, kCsum}, {kAll, kTso},
    {kNone, kAll}, {kCsum, kAll}, {kTso, kAll},
};

class KernelTest : public ::testing::TestWithParam<Mode> {
 protected:
  DeviceMode Device() const { return GetParam().device; }
};

TEST_P(KernelTest, OpenNegotiatesWhatWasAsked) {
  for (const Offloads& o : {kAll, kNone, kCsum, kTso}) {
    Net net(GetParam(), o, o);
    if (::testing::Test::HasFatalFailure()) return;
    const Offloads got = net.rx().offloads();
    EXPECT_EQ(got.csum, o.csum);
    EXPECT_EQ(got.tso4, o.tso4);
    EXPECT_EQ(got.tso6, o.tso6);
    EXPECT_EQ(got.uso4, got.uso6);
    if (!o.uso4) {
      EXPECT_FALSE(got.uso4);
    }
    EXPECT_EQ(net.rx().mode(), Device());
    EXPECT_EQ(net.rx().capabilities().tx_checksum_offload, o.csum);
    EXPECT_EQ(net.rx().capabilities().tso_max_size != 0, o.tso4);
  }
}

TEST_P(KernelTest, KernelTCPCompletesInEveryOffloadCombination) {
  for (const Combo& c : kCombos) {
    SCOPED_TRACE(Name(c));
    Net net(GetParam(), c.rx, c.tx);
    if (::testing::Test::HasFatalFailure()) return;
    for (bool v6 : {false, true}) {
      SCOPED_TRACE(v6 ? "IPv6" : "IPv4");
      const Bytes data = Pattern(1 << 20, v6 ? 6 : 4);
      const Bytes got = TransferTCP(net, v6, data);
      ASSERT_EQ(got.size(), data.size());
      EXPECT_TRUE(got == data);
      net.ExpectNoKernelErrors();
      const EndpointCounters& rx = net.rx().counters();
      const EndpointCounters& tx = net.tx().counters();
      EXPECT_EQ(rx.total_dropped(), 0u) << rx.ToString();
      EXPECT_EQ(tx.total_dropped(), 0u) << tx.ToString();
      const Offloads& ro = net.rx().offloads();
      const Offloads& to = net.tx().offloads();
      // The kernel hands over what was negotiated, and only that.
      EXPECT_EQ(rx.rx_partial != 0, ro.csum) << rx.ToString();
      EXPECT_EQ(rx.rx_gso != 0, ro.tso4) << rx.ToString();
      // What tx did not negotiate was resolved in software.
      EXPECT_EQ(tx.tx_csum_resolved != 0, ro.csum && !to.csum) << tx.ToString();
      EXPECT_EQ(tx.tx_segmented != 0, ro.tso4 && !to.tso4) << tx.ToString();
      EXPECT_EQ(tx.tx_gso != 0, ro.tso4 && to.tso4) << tx.ToString();
    }
  }
}

// UDP at sizes across 0..65507 (fragmented past the MTU), and with
// UDP_SEGMENT (USO where negotiated, the kernel's software GSO otherwise).
TEST_P(KernelTest, KernelUDPArrivesByteForByte) {
  for (const Combo& c : kCombos) {
    SCOPED_TRACE(Name(c));
    Net net(GetParam(), c.rx, c.tx);
    if (::testing::Test::HasFatalFailure()) return;
    for (bool v6 : {false, true}) {
      SCOPED_TRACE(v6 ? "IPv6" : "IPv4");
      int r = socket(v6 ? AF_INET6 : AF_INET, SOCK_DGRAM, 0);
      int s = socket(v6 ? AF_INET6 : AF_INET, SOCK_DGRAM, 0);
      int big = 4 << 20;
      setsockopt(r, SOL_SOCKET, SO_RCVBUF, &big, sizeof big);
      SetTimeouts(r);
      sockaddr_storage l = Addr(v6, "10.9.0.2", "fd09::2", 5002);
      sockaddr_storage cs = Addr(v6, "10.9.0.1", "fd09::1", 5003);
      sockaddr_storage v = Addr(v6, "10.9.1.2", "fd09:0:0:1::2", 5002);
      ASSERT_EQ(bind(r, reinterpret_cast<sockaddr*>(&l), Len(v6)), 0);
      ASSERT_EQ(bind(s, reinterpret_cast<sockaddr*>(&cs), Len(v6)), 0);
      ASSERT_EQ(connect(s, reinterpret_cast<sockaddr*>(&v), Len(v6)), 0);
      std::vector<Bytes> want;
      const size_t max = 65507;
      for (size_t n : {size_t{0}, size_t{1}, size_t{1472}, size_t{1473},
                       size_t{8000}, size_t{40000}, max}) {
        want.push_back(Pattern(n, static_cast<uint32_t>(n)));
      }
      // Three datagrams of 1200 and one of 500 in one UDP_SEGMENT send.
      const Bytes gso = Pattern(4100, 99);
      std::atomic<bool> done{false};
      std::vector<Bytes> got;
      std::thread receiver([&] {
        std::vector<uint8_t> buf(70000);
        const size_t expect = want.size() + 4;
        while (got.size() < expect) {
          ssize_t n = recv(r, buf.data(), buf.size(), 0);
          if (n < 0) break;
          got.emplace_back(buf.begin(), buf.begin() + n);
        }
        done = true;
      });
      std::thread sender([&] {
        for (const Bytes& d : want) {
          send(s, d.data(), d.size(), 0);
          std::this_thread::sleep_for(std::chrono::milliseconds(2));
        }
        int seg = 1200;
        setsockopt(s, IPPROTO_UDP, UDP_SEGMENT, &seg, sizeof seg);
        send(s, gso.data(), gso.size(), 0);
      });
      EXPECT_TRUE(net.Pump(done));
      sender.join();
      receiver.join();
      close(r);
      close(s);
      ASSERT_EQ(got.size(), want.size() + 4);
      for (size_t i = 0; i < want.size(); ++i) {
        EXPECT_TRUE(got[i] == want[i]) << "datagram of " << want[i].size();
      }
      for (size_t i = 0; i < 4; ++i) {
        const size_t off = i * 1200;
        const Bytes piece(gso.begin() + off,
                          gso.begin() + std::min(off + 1200, gso.size()));
        EXPECT_TRUE(got[want.size() + i] == piece) << "segment " << i;
      }
      net.ExpectNoKernelErrors();
      const EndpointCounters& rx = net.rx().counters();
      const EndpointCounters& tx = net.tx().counters();
      EXPECT_EQ(rx.total_dropped() + tx.total_dropped(), 0u)
          << rx.ToString() << " / " << tx.ToString();
      const Offloads& ro = net.rx().offloads();
      const Offloads& to = net.tx().offloads();
      EXPECT_EQ(rx.rx_gso != 0, ro.uso4) << rx.ToString();
      EXPECT_EQ(tx.tx_segmented != 0, ro.uso4 && !to.uso4) << tx.ToString();
    }
  }
}

// UdpToListener returns a datagram of `payload` from V (10.9.1.1 or
// fd09:0:0:1::1, port 4000) to L's port 5004, framed for the tx device.
PacketBuffer UdpToListener(Net& net, bool v6, const Bytes& payload) {
  Route route;
  route.network = v6 ? NetworkProtocol::kIPv6 : NetworkProtocol::kIPv4;
  inet_pton(AF_INET, "10.9.1.1", route.source_v4.bytes.data());
  inet_pton(AF_INET, "10.9.0.2", route.destination_v4.bytes.data());
  inet_pton(AF_INET6, "fd09:0:0:1::1", route.source_v6.bytes.data());
  inet_pton(AF_INET6, "fd09::2", route.destination_v6.bytes.data());
  if (net.mode() == DeviceMode::kTap) {
    header::EthernetFields e;
    std::memcpy(e.destination.bytes.data(), net.tx_mac(), 6);
    e.source.bytes = {2, 0, 0, 0, 9, 1};
    route.ethernet = e;
  }
  PacketBuffer p(buffer::Buffer::Copy(payload));
  EXPECT_EQ(EncodeUDP(route, UDPDatagram{4000, 5004}, LinkCapabilities{}, p),
            EncodeError::kOk);
  return p;
}

// ExpectUdpInOrder sends 300 datagrams through `net` in one burst and
// expects them all, in order, with no error or drop counted.
void ExpectUdpInOrder(Net& net) {
  int r = socket(AF_INET, SOCK_DGRAM, 0);
  int s = socket(AF_INET, SOCK_DGRAM, 0);
  int big = 4 << 20;
  setsockopt(r, SOL_SOCKET, SO_RCVBUF, &big, sizeof big);
  setsockopt(s, SOL_SOCKET, SO_SNDBUF, &big, sizeof big);
  SetTimeouts(r);
  sockaddr_storage l = Addr(false, "10.9.0.2", "", 5005);
  sockaddr_storage cs = Addr(false, "10.9.0.1", "", 5006);
  sockaddr_storage v = Addr(false, "10.9.1.2", "", 5005);
  ASSERT_EQ(bind(r, reinterpret_cast<sockaddr*>(&l), sizeof(sockaddr_in)), 0);
  ASSERT_EQ(bind(s, reinterpret_cast<sockaddr*>(&cs), sizeof(sockaddr_in)), 0);
  ASSERT_EQ(connect(s, reinterpret_cast<sockaddr*>(&v), sizeof(sockaddr_in)),
            0);
  // Fewer than the TUN device's default queue (500 frames) holds.
  constexpr uint32_t kCount = 300;
  for (uint32_t i = 0; i < kCount; ++i) {
    ASSERT_EQ(send(s, &i, sizeof i, 0), static_cast<ssize_t>(sizeof i));
  }
  std::atomic<bool> done{false};
  std::vector<uint32_t> got;
  std::thread receiver([&] {
    uint32_t x;
    while (got.size() < kCount && recv(r, &x, sizeof x, 0) == sizeof x) {
      got.push_back(x);
    }
    done = true;
  });
  EXPECT_TRUE(net.Pump(done));
  receiver.join();
  close(r);
  close(s);
  ASSERT_EQ(got.size(), kCount);
  for (uint32_t i = 0; i < kCount; ++i) ASSERT_EQ(got[i], i);
  net.ExpectNoKernelErrors();
  EXPECT_EQ(net.rx().counters().total_dropped(), 0u);
  EXPECT_EQ(net.tx().counters().total_dropped(), 0u);
}

// Frames queued on the device before the endpoint reads any (more than
// one burst, several io_uring batches) arrive all and in order: each read
// burst and each flush keeps the order of its frames.
TEST_P(KernelTest, QueuedFramesKeepTheirOrder) {
  Net net(GetParam(), kNone, kNone);
  if (::testing::Test::HasFatalFailure()) return;
  ExpectUdpInOrder(net);
}

// UringKernelTest runs only in the io_uring modes.
class UringKernelTest : public KernelTest {};

// A kernel whose device refuses RWF_NOWAIT fails every io_uring operation
// with -EOPNOTSUPP. The endpoints then go on with a readv or writev a
// frame: frames read or queued when it happened are delivered, in order,
// and nothing is counted as a drop.

TEST_P(UringKernelTest, ARefusedRingFallsBackWithNothingLost) {
  if (!UringAvailable()) GTEST_SKIP() << "no io_uring here";
  Net net(GetParam(), kAll, kAll);
  if (::testing::Test::HasFatalFailure()) return;
  ASSERT_TRUE(net.rx().batched() && net.tx().batched());
  const int pty = posix_openpt(O_RDWR | O_NOCTTY);
  ASSERT_GE(pty, 0) << std::strerror(errno);
  internal::Uring::RedirectForTesting(pty);
  // The tx endpoint's first operation on its ring is a write: datagrams
  // queued and flushed at once, each refused, then written one a call.
  int r = socket(AF_INET, SOCK_DGRAM, 0);
  sockaddr_storage l = Addr(false, "10.9.0.2", "", 5004);
  ASSERT_EQ(bind(r, reinterpret_cast<sockaddr*>(&l), Len(false)), 0);
  SetTimeouts(r);
  constexpr uint32_t kCount = 50;
  for (uint32_t i = 0; i < kCount; ++i) {
    ASSERT_TRUE(net.tx().Send(
        UdpToListener(net, false,
                      Bytes(reinterpret_cast<const uint8_t*>(&i),
                            reinterpret_cast<const uint8_t*>(&i + 1)))));
  }
  EXPECT_EQ(net.tx().Flush().written, kCount);
  EXPECT_FALSE(net.tx().batched());
  for (uint32_t i = 0; i < kCount; ++i) {
    uint32_t x = ~i;
    ASSERT_EQ(recv(r, &x, sizeof x, 0), static_cast<ssize_t>(sizeof x));
    ASSERT_EQ(x, i);
  }
  close(r);
  // The rx endpoint's first is a read.
  ExpectUdpInOrder(net);
  internal::Uring::RedirectForTesting(-1);
  close(pty);
  EXPECT_FALSE(net.rx().batched());
  EXPECT_FALSE(net.tx().batched());
  for (bool v6 : {false, true}) {
    const Bytes data = Pattern(1 << 20, v6 ? 6 : 4);
    EXPECT_TRUE(TransferTCP(net, v6, data) == data) << (v6 ? "IPv6" : "IPv4");
  }
  net.ExpectNoKernelErrors();
  EXPECT_EQ(net.rx().counters().total_dropped(), 0u);
  EXPECT_EQ(net.tx().counters().total_dropped(), 0u);
}

// A frame with a wrong UDP checksum reaches the kernel and is counted
// there: the counters the other tests watch can move.
TEST_P(KernelTest, AWrongChecksumIsCountedByTheKernel) {
  for (bool v6 : {false, true}) {
    Net net(GetParam(), kNone, kNone);
    if (::testing::Test::HasFatalFailure()) return;
    int r = socket(v6 ? AF_INET6 : AF_INET, SOCK_DGRAM, 0);
    sockaddr_storage l = Addr(v6, "10.9.0.2", "fd09::2", 5004);
    ASSERT_EQ(bind(r, reinterpret_cast<sockaddr*>(&l), Len(v6)), 0);
    SetTimeouts(r);
    auto make = [&](bool corrupt) {
      PacketBuffer p = UdpToListener(net, v6, Pattern(100, 1));
      if (corrupt) {
        const size_t at = p.HeaderOffset(Layer::kTransport) + 6;
        const uint8_t bad[1] = {static_cast<uint8_t>(p.headers()[at] ^ 0x40)};
        p.CopyIn(at, bad);
      }
      return p;
    };
    const std::string counter = v6 ? "Udp6InCsumErrors" : "Udp.InCsumErrors";
    const long long before = Snmp()[counter];
    ASSERT_TRUE(net.tx().Send(make(true)));
    ASSERT_TRUE(net.tx().Send(make(false)));
    const FlushResult f = net.tx().Flush();
    EXPECT_EQ(f.written, 2u);
    // The good one arrives; by then the bad one was judged.
    Bytes buf(200);
    EXPECT_EQ(recv(r, buf.data(), buf.size(), 0), 100);
    EXPECT_EQ(Snmp()[counter], before + 1) << counter;
    close(r);
  }
}

TEST_P(KernelTest, LyingPacketsAreCountedDropsOnTransmit) {
  Net net(GetParam(), kNone, kNone);
  if (::testing::Test::HasFatalFailure()) return;
  Endpoint& tx = net.tx();
  PacketBuffer past(buffer::Buffer::Copy(Pattern(100, 1)));
  past.checksum_status = ChecksumStatus::kPartial;
  past.csum_start = 99;
  past.csum_offset = 6;
  tx.Send(std::move(past));
  PacketBuffer empty;
  tx.Send(std::move(empty));
  PacketBuffer gso(buffer::Buffer::Copy(Pattern(3000, 1)));  // Not TCP.
  gso.gso_type = GsoType::kTCPv4;
  gso.gso_size = 1000;
  gso.checksum_status = ChecksumStatus::kPartial;
  gso.csum_start = 20;
  gso.csum_offset = 16;
  tx.Send(std::move(gso));
  const FlushResult f = tx.Flush();
  EXPECT_EQ(f.written, 0u);
  EXPECT_EQ(f.dropped, 3u);
  EXPECT_EQ(tx.counters().dropped(DropReason::kTxBadPacket), 3u)
      << tx.counters().ToString();
  EXPECT_FALSE(tx.tx_pending());
  if (Device() == DeviceMode::kTap) {
    // Shorter than an Ethernet header: the kernel refuses the write.
    tx.Send(PacketBuffer(buffer::Buffer::Copy(Pattern(5, 1))));
    const FlushResult g = tx.Flush();
    EXPECT_EQ(g.dropped, 1u);
    EXPECT_EQ(tx.counters().dropped(DropReason::kTxWriteError), 1u)
        << tx.counters().ToString();
  }
}

TEST_P(KernelTest, AFullQueueIsACountedDrop) {
  Net net(GetParam(), kNone, kNone);
  if (::testing::Test::HasFatalFailure()) return;
  EndpointOptions o;
  o.mode = Device();
  o.name = "ipsq" + std::to_string(getpid() % 100000);
  o.tx_queue_limit = 2;
  auto ep = Endpoint::Open(o);
  ASSERT_TRUE(ep.ok()) << ep.status();
  for (int i = 0; i < 3; ++i) {
    (*ep)->Send(PacketBuffer(buffer::Buffer::Copy(Pattern(60, 1))));
  }
  EXPECT_EQ((*ep)->counters().dropped(DropReason::kTxQueueFull), 1u);
  EXPECT_TRUE((*ep)->tx_pending());
}

TEST_P(KernelTest, DeviceQueueLenIsTheInterfacesTxQueueLen) {
  Net net(GetParam(), kNone, kNone);
  if (::testing::Test::HasFatalFailure()) return;
  auto qlen = [](const std::string& name) {
    const int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    struct ifreq ifr = {};
    std::memcpy(ifr.ifr_name, name.data(), name.size());
    const int r = ioctl(s, SIOCGIFTXQLEN, &ifr);
    close(s);
    return r == 0 ? ifr.ifr_qlen : -1;
  };
  EndpointOptions o;
  o.mode = Device();
  o.name = "ipsl" + std::to_string(getpid() % 100000);
  {
    auto ep = Endpoint::Open(o);
    ASSERT_TRUE(ep.ok()) << ep.status();
    // The kernel's default, untouched: ether_setup's for TAP.
    const int want = Device() == DeviceMode::kTap ? 1000 : 500;
    if (qlen(o.name) == want << 16) {
      // QEMU's user mode passes ifr_qlen through without converting its
      // byte order, so neither reading nor setting it can be checked.
      GTEST_SKIP() << "SIOC[GS]IFTXQLEN are not translated by this emulator";
    }
    EXPECT_EQ(qlen(o.name), want);
  }
  o.device_queue_len = 4321;
  {
    auto ep = Endpoint::Open(o);
    ASSERT_TRUE(ep.ok()) << ep.status();
    EXPECT_EQ(qlen(o.name), 4321);
  }
  o.device_queue_len = (size_t{1} << 20) + 1;
  EXPECT_EQ(Endpoint::Open(o).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST_P(KernelTest, OpenErrorsAreClear) {
  Net net(GetParam(), kNone, kNone);
  if (::testing::Test::HasFatalFailure()) return;
  EndpointOptions o;
  o.mode = Device();
  o.name = "a-name-far-too-long";
  EXPECT_EQ(Endpoint::Open(o).status().code(),
            absl::StatusCode::kInvalidArgument);
  o.name = "bad/name";
  EXPECT_EQ(Endpoint::Open(o).status().code(),
            absl::StatusCode::kInvalidArgument);
  o.name = "ipsm" + std::to_string(getpid() % 100000);
  o.mtu = 10;
  EXPECT_EQ(Endpoint::Open(o).status().code(),
            absl::StatusCode::kInvalidArgument);
  // The name of a device of another kind.
  o.mtu = 1500;
  o.name = "lo";
  absl::StatusOr<std::unique_ptr<Endpoint>> lo = Endpoint::Open(o);
  EXPECT_FALSE(lo.ok());
  EXPECT_NE(lo.status().message().find("lo"), std::string::npos) << lo.status();
  // An empty name: the kernel picks one.
  o.name = "";
  auto any = Endpoint::Open(o);
  ASSERT_TRUE(any.ok()) << any.status();
  EXPECT_FALSE((*any)->name().empty());
}

std::string ModeName(const ::testing::TestParamInfo<Mode>& info) {
  return std::string(ToString(info.param.device)) +
         (info.param.io_uring ? "_uring" : "_syscalls");
}

INSTANTIATE_TEST_SUITE_P(Modes, KernelTest,
                         ::testing::Values(Mode{DeviceMode::kTun, false},
                                           Mode{DeviceMode::kTap, false},
                                           Mode{DeviceMode::kTun, true},
                                           Mode{DeviceMode::kTap, true}),
                         ModeName);
INSTANTIATE_TEST_SUITE_P(Modes, UringKernelTest,
                         ::testing::Values(Mode{DeviceMode::kTun, true},
                                           Mode{DeviceMode::kTap, true}),
                         ModeName);

}  // namespace
}  // namespace ipsum::tcpip::link

int main(int argc, char** argv) {
  // One line, and a failure, where the kernel tests cannot run.
  if (access("/dev/net/tun", R_OK | W_OK) != 0) {
    std::fprintf(
        stderr,
        "endpoint_test: FAIL: /dev/net/tun is missing or not "
        "accessible (%s); the kernel tests need it and "
        "CAP_NET_ADMIN (skip the group with --test_tag_filters=-network)\n",
        std::strerror(errno));
    return 1;
  }
  if (unshare(CLONE_NEWNET) != 0) {
    std::fprintf(stderr,
                 "endpoint_test: FAIL: cannot create a network namespace "
                 "(%s); the kernel tests need root (CAP_SYS_ADMIN and "
                 "CAP_NET_ADMIN; skip the group with "
                 "--test_tag_filters=-network)\n",
                 std::strerror(errno));
    return 1;
  }
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
