// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// ipsum-gateway between two network namespaces, judged by the Linux kernel:
// kernel TCP, UDP, ping and traceroute-style TTL 1 through the gateway
// binary, with the kernels' own checksum-error counters (/proc/net/snmp,
// /proc/net/snmp6) as the oracle.
//
// Each test makes two anonymous network namespaces (unshare; they vanish
// with the test's last reference, even when it fails), starts the gateway
// with one TUN device created inside each (--link=...,netns=), configures
// the kernel side with ip(8), and runs clients and servers in threads that
// enter a namespace with setns(CLONE_NEWNET). Every wait is bounded.
//
// Needs root (CAP_NET_ADMIN, CAP_SYS_ADMIN) and /dev/net/tun; tagged
// "netns" so that `--test_tag_filters=-netns` skips it.

#include <arpa/inet.h>
#include <fcntl.h>
#include <linux/errqueue.h>
#include <netinet/icmp6.h>
#include <netinet/in.h>
#include <netinet/ip_icmp.h>
#include <netinet/udp.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "checksum/checksum.h"
#include "gtest/gtest.h"

namespace ipsum::gateway {
namespace {

// Namespace is an anonymous network namespace held by an fd.
class Namespace {
 public:
  Namespace() {
    const int home = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
    if (home < 0 || unshare(CLONE_NEWNET) != 0) {
      error_ = std::string("cannot create a network namespace: ") +
               std::strerror(errno);
      if (home >= 0) close(home);
      return;
    }
    fd_ = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
    setns(home, CLONE_NEWNET);
    close(home);
  }
  ~Namespace() {
    if (fd_ >= 0) close(fd_);
  }
  Namespace(const Namespace&) = delete;
  Namespace& operator=(const Namespace&) = delete;

  int fd() const { return fd_; }
  const std::string& error() const { return error_; }
  // path names the namespace for another process.
  std::string path() const {
    return "/proc/" + std::to_string(getpid()) + "/fd/" + std::to_string(fd_);
  }

  // Enter moves the calling thread into the namespace.
  bool Enter() const { return setns(fd_, CLONE_NEWNET) == 0; }

  // Run runs `args` (ip(8)) in the namespace and returns its exit status.
  int Run(std::vector<std::string> args) const {
    const pid_t pid = fork();
    if (pid == 0) {
      if (setns(fd_, CLONE_NEWNET) != 0) _exit(126);
      std::vector<char*> argv;
      for (auto& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      const int null = open("/dev/null", O_WRONLY);
      dup2(null, 1);
      execvp(argv[0], argv.data());
      _exit(127);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

  // InThread runs `fn` on a thread inside the namespace.
  template <typename Fn>
  std::thread InThread(Fn fn) const {
    return std::thread([this, fn]() mutable {
      if (!Enter()) {
        ADD_FAILURE() << "setns: " << std::strerror(errno);
        return;
      }
      fn();
    });
  }

 private:
  int fd_ = -1;
  std::string error_;
};

// Snmp is the kernel's counters of one namespace, "Tcp.InCsumErrors" style
// (snmp6's names as they are, "Icmp6InCsumErrors").
using Snmp = std::map<std::string, int64_t>;

Snmp ReadSnmp(const Namespace& ns) {
  Snmp out;
  std::thread t = ns.InThread([&out] {
    {
      std::ifstream f("/proc/thread-self/net/snmp");
      std::string names, values;
      while (std::getline(f, names) && std::getline(f, values)) {
        std::istringstream n(names), v(values);
        std::string prefix, name, value;
        n >> prefix;
        v >> value;
        prefix.pop_back();  // "Tcp:"
        while (n >> name && v >> value)
          out[prefix + "." + name] = std::stoll(value);
      }
    }
    std::ifstream f6("/proc/thread-self/net/snmp6");
    std::string name;
    int64_t value;
    while (f6 >> name >> value) out[name] = value;
  });
  t.join();
  return out;
}

// kErrorCounters are the counters that must not move.
const char* const kErrorCounters[] = {
    "Tcp.InCsumErrors",  "Udp.InCsumErrors",  "Ip.InHdrErrors",
    "Icmp.InCsumErrors", "Icmp.InErrors",     "Udp6InCsumErrors",
    "Ip6InHdrErrors",    "Icmp6InCsumErrors", "Icmp6InErrors",
};

int64_t Delta(const Snmp& before, const Snmp& after, const std::string& k) {
  auto a = after.find(k);
  auto b = before.find(k);
  return (a == after.end() ? 0 : a->second) -
         (b == before.end() ? 0 : b->second);
}

std::string GatewayPath() {
  const char* srcdir = std::getenv("TEST_SRCDIR");
  const char* ws = std::getenv("TEST_WORKSPACE");
  return std::string(srcdir ? srcdir : ".") + "/" + (ws ? ws : "ipsum") +
         "/tools/gateway/ipsum-gateway";
}

std::string TempPath(const std::string& name) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  return std::string(tmp ? tmp : "/tmp") + "/" + name + "." +
         std::to_string(getpid());
}

// GatewayProcess runs ipsum-gateway until Stop; its counters come from
// --stats-json.
class GatewayProcess {
 public:
  bool Start(const std::vector<std::string>& args) {
    stats_ = TempPath("stats.json");
    log_ = TempPath("gateway.log");
    std::remove(stats_.c_str());
    int out[2];
    if (pipe(out) != 0) return false;
    pid_ = fork();
    if (pid_ == 0) {
      std::vector<std::string> a = {GatewayPath()};
      a.insert(a.end(), args.begin(), args.end());
      a.push_back("--stats-json=" + stats_);
      a.push_back("--duration=120");  // Never outlives a stuck test.
      std::vector<char*> argv;
      for (auto& s : a) argv.push_back(s.data());
      argv.push_back(nullptr);
      dup2(out[1], 1);
      const int log = open(log_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      dup2(log, 2);
      close(out[0]);
      execv(argv[0], argv.data());
      _exit(127);
    }
    close(out[1]);
    // Wait (bounded) for "ready".
    pollfd p{out[0], POLLIN, 0};
    char buf[16] = {};
    const bool ready = poll(&p, 1, 10000) == 1 && read(out[0], buf, 6) == 6 &&
                       std::string(buf, 5) == "ready";
    close(out[0]);
    return ready;
  }

  // Snapshot asks the running gateway for its counters (SIGUSR1) and
  // reads them.
  std::map<std::string, int64_t> Snapshot() {
    std::remove(stats_.c_str());
    if (pid_ > 0) kill(pid_, SIGUSR1);
    for (int i = 0; i < 100 && access(stats_.c_str(), R_OK) != 0; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return ReadStats();
  }

  // Stop ends the gateway and reads its counters.
  std::map<std::string, int64_t> Stop() {
    if (pid_ <= 0) return {};
    kill(pid_, SIGTERM);
    int status = 0;
    for (int i = 0; i < 100 && waitpid(pid_, &status, WNOHANG) == 0; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    if (waitpid(pid_, &status, WNOHANG) == 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, &status, 0);
    }
    pid_ = -1;
    return ReadStats();
  }

  // ReadStats parses --stats-json's {"name":value,...}.
  std::map<std::string, int64_t> ReadStats() const {
    std::map<std::string, int64_t> c;
    std::ifstream f(stats_);
    std::string json((std::istreambuf_iterator<char>(f)),
                     std::istreambuf_iterator<char>());
    size_t i = 0;
    while ((i = json.find('"', i)) != std::string::npos) {
      const size_t end = json.find('"', i + 1);
      if (end == std::string::npos || end + 2 > json.size()) break;
      const std::string name = json.substr(i + 1, end - i - 1);
      c[name] = std::stoll(json.substr(end + 2));
      i = json.find(',', end);
      if (i == std::string::npos) break;
    }
    return c;
  }

  std::string Log() const {
    std::ifstream f(log_);
    return std::string((std::istreambuf_iterator<char>(f)),
                       std::istreambuf_iterator<char>());
  }

  ~GatewayProcess() { Stop(); }

 private:
  pid_t pid_ = -1;
  std::string stats_;
  std::string log_;
};

// Stream is the bytes both ends of a transfer generate (xorshift64, eight
// bytes a word), the same whatever the sizes of the calls that take them.
class Stream {
 public:
  explicit Stream(uint64_t seed) : state_(seed * 0x9e3779b97f4a7c15ull | 1) {}
  void Fill(uint8_t* p, size_t n) {
    for (size_t i = 0; i < n; ++i) {
      if (pos_ == 0) {
        state_ ^= state_ << 13;
        state_ ^= state_ >> 7;
        state_ ^= state_ << 17;
      }
      p[i] = static_cast<uint8_t>(state_ >> (pos_ * 8));
      pos_ = (pos_ + 1) & 7;
    }
  }

 private:
  uint64_t state_;
  unsigned pos_ = 0;
};

sockaddr_storage Address(bool v4, const char* text, uint16_t port,
                         socklen_t& len) {
  sockaddr_storage ss{};
  if (v4) {
    auto* a = reinterpret_cast<sockaddr_in*>(&ss);
    a->sin_family = AF_INET;
    a->sin_port = htons(port);
    inet_pton(AF_INET, text, &a->sin_addr);
    len = sizeof(sockaddr_in);
  } else {
    auto* a = reinterpret_cast<sockaddr_in6*>(&ss);
    a->sin6_family = AF_INET6;
    a->sin6_port = htons(port);
    inet_pton(AF_INET6, text, &a->sin6_addr);
    len = sizeof(sockaddr_in6);
  }
  return ss;
}

void SetTimeouts(int fd, int seconds) {
  timeval tv{seconds, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
}

// The test network: namespace A (10.1.0.2, fd01::2) behind gw0, namespace
// B (10.2.0.2, fd02::2) behind gw1, the gateway at .1 / ::1 on each.
class NetnsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (access("/dev/net/tun", R_OK | W_OK) != 0) {
      GTEST_FAIL() << "needs /dev/net/tun (read-write): "
                   << std::strerror(errno)
                   << "; run as root, or skip with --test_tag_filters=-netns";
    }
    if (!a_.error().empty() || !b_.error().empty()) {
      GTEST_FAIL() << a_.error() << b_.error()
                   << " (needs root: CAP_SYS_ADMIN, CAP_NET_ADMIN; skip with "
                      "--test_tag_filters=-netns)";
    }
  }

  // StartGateway starts the gateway with the given offloads on each side
  // and extra flags, and configures both kernels (routes back to A only
  // when `route_back`: with SNAT, B knows only its own link).
  // StartGateway starts the gateway with the given offloads on each side
  // and extra flags, and configures both kernels (routes back to A only
  // when `route_back`: with SNAT, B knows only its own link). With `tap`
  // the devices are TAP and the kernels route through the gateway's
  // addresses, which they resolve with ARP and Neighbor Discovery.
  void StartGateway(const std::string& offload_a, const std::string& offload_b,
                    std::vector<std::string> extra = {}, bool route_back = true,
                    bool tap = false) {
    const std::string mode = tap ? ",tap" : "";
    std::vector<std::string> args = {
        "--link=gw0" + mode + ",addr=10.1.0.1/24,addr=fd01::1/64,offload=" +
            offload_a + ",netns=" + a_.path(),
        "--link=gw1" + mode + ",addr=10.2.0.1/24,addr=fd02::1/64,offload=" +
            offload_b + ",netns=" + b_.path()};
    args.insert(args.end(), extra.begin(), extra.end());
    ASSERT_TRUE(gateway_.Start(args)) << "gateway did not start:\n"
                                      << gateway_.Log();
    ASSERT_NO_FATAL_FAILURE(
        Configure(a_, "gw0", "10.1.0.2/24", "fd01::2/64", "10.2.0.0/24",
                  "fd02::/64", tap ? "10.1.0.1" : "", tap ? "fd01::1" : ""));
    ASSERT_NO_FATAL_FAILURE(Configure(
        b_, "gw1", "10.2.0.2/24", "fd02::2/64", route_back ? "10.1.0.0/24" : "",
        route_back ? "fd01::/64" : "", tap ? "10.2.0.1" : "",
        tap ? "fd02::1" : ""));
  }

  void Configure(const Namespace& ns, const std::string& dev,
                 const std::string& v4, const std::string& v6,
                 const std::string& route4, const std::string& route6,
                 const std::string& via4, const std::string& via6) {
    ASSERT_EQ(ns.Run({"ip", "link", "set", "lo", "up"}), 0);
    ASSERT_EQ(ns.Run({"ip", "addr", "add", v4, "dev", dev}), 0);
    ASSERT_EQ(ns.Run({"ip", "-6", "addr", "add", v6, "dev", dev, "nodad"}), 0);
    // The kernel adds the address's local route from a work queue, even
    // without DAD; until then a datagram to it is dropped.
    const std::string local = v6.substr(0, v6.find('/'));
    ASSERT_EQ(ns.Run({"timeout", "20", "sh", "-c",
                      "until ip -6 route show table local " + local +
                          " | grep -q .; do sleep 0.01; done"}),
              0);
    auto route = [&](const char* family, const std::string& prefix,
                     const std::string& via) {
      std::vector<std::string> a = {"ip", family, "route", "add", prefix};
      if (!via.empty()) a.insert(a.end(), {"via", via});
      a.insert(a.end(), {"dev", dev});
      return ns.Run(a);
    };
    if (!route4.empty()) {
      ASSERT_EQ(route("-4", route4, via4), 0);
    }
    if (!route6.empty()) {
      ASSERT_EQ(route("-6", route6, via6), 0);
    }
  }

  // TcpTransfer sends `bytes` from A to B's address over kernel TCP and
  // checks byte for byte what B received; returns the peer address B saw.
  std::string TcpTransfer(bool v4, size_t bytes, uint16_t port,
                          uint16_t* peer_port = nullptr,
                          uint16_t* client_port = nullptr) {
    const char* server = v4 ? "10.2.0.2" : "fd02::2";
    std::atomic<bool> listening{false};
    size_t received = 0, mismatched = 0;
    std::string peer;
    std::thread srv = b_.InThread([&] {
      const int fd = socket(v4 ? AF_INET : AF_INET6, SOCK_STREAM, 0);
      const int one = 1;
      setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
      socklen_t len;
      sockaddr_storage sa = Address(v4, server, port, len);
      if (bind(fd, reinterpret_cast<sockaddr*>(&sa), len) != 0 ||
          listen(fd, 1) != 0) {
        ADD_FAILURE() << "bind/listen: " << std::strerror(errno);
        listening = true;
        close(fd);
        return;
      }
      listening = true;
      pollfd p{fd, POLLIN, 0};
      if (poll(&p, 1, 15000) != 1) {
        ADD_FAILURE() << "no connection";
        close(fd);
        return;
      }
      sockaddr_storage from{};
      socklen_t from_len = sizeof(from);
      const int c = accept(fd, reinterpret_cast<sockaddr*>(&from), &from_len);
      close(fd);
      if (c < 0) return;
      char text[INET6_ADDRSTRLEN] = {};
      if (v4) {
        auto* a = reinterpret_cast<sockaddr_in*>(&from);
        inet_ntop(AF_INET, &a->sin_addr, text, sizeof(text));
        if (peer_port) *peer_port = ntohs(a->sin_port);
      } else {
        auto* a = reinterpret_cast<sockaddr_in6*>(&from);
        inet_ntop(AF_INET6, &a->sin6_addr, text, sizeof(text));
        if (peer_port) *peer_port = ntohs(a->sin6_port);
      }
      peer = text;
      SetTimeouts(c, 20);
      Stream expect(port);
      std::vector<uint8_t> buf(1 << 16), want(1 << 16);
      while (true) {
        const ssize_t n = read(c, buf.data(), buf.size());
        if (n <= 0) break;
        expect.Fill(want.data(), static_cast<size_t>(n));
        mismatched += std::memcmp(buf.data(), want.data(), n) != 0;
        received += static_cast<size_t>(n);
      }
      close(c);
    });
    std::thread cli = a_.InThread([&] {
      for (int i = 0; i < 500 && !listening; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      }
      const int fd = socket(v4 ? AF_INET : AF_INET6, SOCK_STREAM, 0);
      SetTimeouts(fd, 20);
      socklen_t len;
      sockaddr_storage sa = Address(v4, server, port, len);
      if (connect(fd, reinterpret_cast<sockaddr*>(&sa), len) != 0) {
        ADD_FAILURE() << "connect: " << std::strerror(errno);
        close(fd);
        return;
      }
      if (client_port) {
        sockaddr_storage me{};
        socklen_t me_len = sizeof(me);
        getsockname(fd, reinterpret_cast<sockaddr*>(&me), &me_len);
        *client_port =
            ntohs(v4 ? reinterpret_cast<sockaddr_in*>(&me)->sin_port
                     : reinterpret_cast<sockaddr_in6*>(&me)->sin6_port);
      }
      Stream s(port);
      std::vector<uint8_t> buf(1 << 16);
      size_t sent = 0;
      while (sent < bytes) {
        s.Fill(buf.data(), buf.size());
        size_t off = 0;
        while (off < buf.size()) {
          const ssize_t n = write(fd, buf.data() + off, buf.size() - off);
          if (n <= 0) {
            ADD_FAILURE() << "write: " << std::strerror(errno);
            close(fd);
            return;
          }
          off += static_cast<size_t>(n);
        }
        sent += buf.size();
      }
      shutdown(fd, SHUT_WR);
      char c;
      read(fd, &c, 1);  // Until the server closes.
      close(fd);
    });
    cli.join();
    srv.join();
    EXPECT_EQ(received, (bytes + 65535) / 65536 * 65536);
    EXPECT_EQ(mismatched, 0u);
    return peer;
  }

  // TcpBothFamilies sends `bytes` A to B over IPv4 (to `port`) and IPv6
  // (`port` + 1); neither kernel may count a checksum error meanwhile.
  void TcpBothFamilies(size_t bytes, uint16_t port);

  Namespace a_;
  Namespace b_;
  GatewayProcess gateway_;
};

void ExpectErrorCountersUnchanged(const Snmp& before, const Snmp& after,
                                  const char* where) {
  for (const char* k : kErrorCounters) {
    EXPECT_EQ(Delta(before, after, k), 0) << where << " " << k;
  }
}

void NetnsTest::TcpBothFamilies(size_t bytes, uint16_t port) {
  const Snmp a0 = ReadSnmp(a_), b0 = ReadSnmp(b_);
  TcpTransfer(true, bytes, port);
  TcpTransfer(false, bytes, static_cast<uint16_t>(port + 1));
  ExpectErrorCountersUnchanged(a0, ReadSnmp(a_), "A");
  ExpectErrorCountersUnchanged(b0, ReadSnmp(b_), "B");
}

constexpr size_t kMiB = 1 << 20;

// 64 MiB of kernel TCP each way of IP through the gateway, with the
// offloads the kernel offers (partial checksums, TSO frames of up to 64
// KiB): every byte arrives, no kernel counts a checksum error.
TEST_F(NetnsTest, KernelTcpThroughTheGatewayIPv4AndIPv6) {
  ASSERT_NO_FATAL_FAILURE(StartGateway("csum+tso4+tso6", "csum+tso4+tso6"));
  TcpBothFamilies(64 * kMiB, 5001);
  auto c = gateway_.Stop();
  EXPECT_EQ(c["drop_bad_transport_checksum"], 0);
  EXPECT_EQ(c["drop_bad_IPv4_header_checksum"], 0);
  EXPECT_GT(c["forwarded"], 1000);
  EXPECT_GT(c["gso_forwarded"], 0) << "the kernel handed over no TSO frame";
}

// --copy (the benchmarks' floor): frames and their offload metadata move
// between the links unparsed; kernel TCP completes both ways of IP, no
// kernel counts a checksum error, nothing is dropped and the gateway's own
// path handled nothing.
TEST_F(NetnsTest, CopyModeMovesKernelTcpUnparsed) {
  ASSERT_NO_FATAL_FAILURE(
      StartGateway("csum+tso4+tso6", "csum+tso4+tso6", {"--copy"}));
  TcpBothFamilies(8 * kMiB, 5003);
  auto c = gateway_.Stop();
  EXPECT_EQ(c["received"], 0);
  EXPECT_EQ(c["gw0.link_dropped"], 0);
  EXPECT_EQ(c["gw1.link_dropped"], 0);
}

// Every offload combination of the two sides: none; checksum only;
// checksum + TSO into a side without TSO (the endpoint segments in
// software) and into one with it.
TEST_F(NetnsTest, KernelTcpInEveryOffloadCombination) {
  struct Combo {
    const char* a;
    const char* b;
  };
  uint16_t port = 5100;
  for (Combo combo :
       {Combo{"none", "none"}, Combo{"csum", "csum"},
        Combo{"csum+tso4+tso6", "csum"}, Combo{"csum", "csum+tso4+tso6"},
        Combo{"none", "csum+tso4+tso6"}}) {
    SCOPED_TRACE(std::string(combo.a) + " / " + std::string(combo.b));
    // The devices go with the previous gateway; the namespaces stay.
    ASSERT_NO_FATAL_FAILURE(StartGateway(combo.a, combo.b));
    const Snmp a0 = ReadSnmp(a_), b0 = ReadSnmp(b_);
    TcpTransfer(true, 8 * kMiB, port++);
    TcpTransfer(false, 8 * kMiB, port++);
    ExpectErrorCountersUnchanged(a0, ReadSnmp(a_), "A");
    ExpectErrorCountersUnchanged(b0, ReadSnmp(b_), "B");
    auto c = gateway_.Stop();
    EXPECT_EQ(c["drop_bad_transport_checksum"], 0);
  }
}

// UDP both ways at sizes across 0..65507 (IP fragments beyond the MTU,
// which the gateway forwards as they are): B echoes each datagram, A
// compares it byte for byte.
TEST_F(NetnsTest, KernelUdpAllSizesBothWays) {
  ASSERT_NO_FATAL_FAILURE(StartGateway("csum+tso4+tso6", "csum+tso4+tso6"));
  const Snmp a0 = ReadSnmp(a_), b0 = ReadSnmp(b_);
  const std::vector<size_t> sizes = {
      0,    1,    2,    3,    7,    8,    64,    1000,  1232,  1452,  1453,
      1472, 1473, 1480, 3000, 8192, 9000, 16385, 32768, 50001, 65000, 65507};
  for (bool v4 : {true, false}) {
    SCOPED_TRACE(v4 ? "IPv4" : "IPv6");
    const uint16_t port = v4 ? 6001 : 6002;
    std::atomic<bool> bound{false};
    std::thread echo = b_.InThread([&] {
      const int fd = socket(v4 ? AF_INET : AF_INET6, SOCK_DGRAM, 0);
      socklen_t len;
      sockaddr_storage sa = Address(v4, v4 ? "10.2.0.2" : "fd02::2", port, len);
      bind(fd, reinterpret_cast<sockaddr*>(&sa), len);
      bound = true;
      SetTimeouts(fd, 5);
      std::vector<uint8_t> buf(65536);
      for (size_t i = 0; i < sizes.size(); ++i) {
        sockaddr_storage from{};
        socklen_t from_len = sizeof(from);
        const ssize_t n =
            recvfrom(fd, buf.data(), buf.size(), 0,
                     reinterpret_cast<sockaddr*>(&from), &from_len);
        if (n < 0) break;
        sendto(fd, buf.data(), n, 0, reinterpret_cast<sockaddr*>(&from),
               from_len);
      }
      close(fd);
    });
    std::thread client = a_.InThread([&] {
      for (int i = 0; i < 500 && !bound; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      }
      const int fd = socket(v4 ? AF_INET : AF_INET6, SOCK_DGRAM, 0);
      SetTimeouts(fd, 5);
      socklen_t len;
      sockaddr_storage sa = Address(v4, v4 ? "10.2.0.2" : "fd02::2", port, len);
      connect(fd, reinterpret_cast<sockaddr*>(&sa), len);
      std::vector<uint8_t> out(65507), in(65536);
      for (size_t size : sizes) {
        Stream(size + 1).Fill(out.data(), size);
        ASSERT_EQ(send(fd, out.data(), size, 0), static_cast<ssize_t>(size))
            << size << ": " << std::strerror(errno);
        const ssize_t n = recv(fd, in.data(), in.size(), 0);
        ASSERT_EQ(n, static_cast<ssize_t>(size)) << "size " << size;
        EXPECT_EQ(std::memcmp(in.data(), out.data(), size), 0) << size;
      }
      close(fd);
    });
    client.join();
    echo.join();
  }
  ExpectErrorCountersUnchanged(a0, ReadSnmp(a_), "A");
  ExpectErrorCountersUnchanged(b0, ReadSnmp(b_), "B");
  // SIGUSR1 writes the counters while the gateway runs on.
  auto c = gateway_.Snapshot();
  EXPECT_GE(c["forwarded"], static_cast<int64_t>(4 * sizes.size()));
  EXPECT_GT(c["unverified"], 0);  // The fragments.
  EXPECT_EQ(c["drop_bad_transport_checksum"], 0);
}

// TTL / Hop Limit 1: the sender's kernel receives the gateway's Time
// Exceeded (an IP_RECVERR socket sees it, from the gateway's address) and
// counts no ICMP error for it.
TEST_F(NetnsTest, TtlOneGetsTimeExceededAcceptedBySender) {
  ASSERT_NO_FATAL_FAILURE(StartGateway("csum", "csum"));
  const Snmp a0 = ReadSnmp(a_);
  for (bool v4 : {true, false}) {
    SCOPED_TRACE(v4 ? "IPv4" : "IPv6");
    std::thread t = a_.InThread([&] {
      const int fd = socket(v4 ? AF_INET : AF_INET6, SOCK_DGRAM, 0);
      const int one = 1;
      if (v4) {
        setsockopt(fd, IPPROTO_IP, IP_TTL, &one, sizeof(one));
        setsockopt(fd, IPPROTO_IP, IP_RECVERR, &one, sizeof(one));
      } else {
        setsockopt(fd, IPPROTO_IPV6, IPV6_UNICAST_HOPS, &one, sizeof(one));
        setsockopt(fd, IPPROTO_IPV6, IPV6_RECVERR, &one, sizeof(one));
      }
      socklen_t len;
      sockaddr_storage sa =
          Address(v4, v4 ? "10.2.0.2" : "fd02::2", 33434, len);
      connect(fd, reinterpret_cast<sockaddr*>(&sa), len);
      char payload[32] = "traceroute";
      ASSERT_EQ(send(fd, payload, sizeof(payload), 0), 32);
      pollfd p{fd, POLLERR, 0};
      ASSERT_EQ(poll(&p, 1, 5000), 1) << "no error queued";
      char control[512];
      char data[64];
      iovec iov{data, sizeof(data)};
      sockaddr_storage from{};
      msghdr m{};
      m.msg_name = &from;
      m.msg_namelen = sizeof(from);
      m.msg_iov = &iov;
      m.msg_iovlen = 1;
      m.msg_control = control;
      m.msg_controllen = sizeof(control);
      ASSERT_GE(recvmsg(fd, &m, MSG_ERRQUEUE), 0) << std::strerror(errno);
      const sock_extended_err* e = nullptr;
      for (cmsghdr* c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c)) {
        if ((c->cmsg_level == IPPROTO_IP && c->cmsg_type == IP_RECVERR) ||
            (c->cmsg_level == IPPROTO_IPV6 && c->cmsg_type == IPV6_RECVERR)) {
          e = reinterpret_cast<const sock_extended_err*>(CMSG_DATA(c));
        }
      }
      ASSERT_NE(e, nullptr);
      EXPECT_EQ(e->ee_origin, v4 ? SO_EE_ORIGIN_ICMP : SO_EE_ORIGIN_ICMP6);
      EXPECT_EQ(e->ee_type, v4 ? ICMP_TIME_EXCEEDED : ICMP6_TIME_EXCEEDED);
      EXPECT_EQ(e->ee_code, 0);
      const sockaddr* offender = SO_EE_OFFENDER(e);
      char text[INET6_ADDRSTRLEN] = {};
      if (v4) {
        inet_ntop(AF_INET,
                  &reinterpret_cast<const sockaddr_in*>(offender)->sin_addr,
                  text, sizeof(text));
        EXPECT_STREQ(text, "10.1.0.1");
      } else {
        inet_ntop(AF_INET6,
                  &reinterpret_cast<const sockaddr_in6*>(offender)->sin6_addr,
                  text, sizeof(text));
        EXPECT_STREQ(text, "fd01::1");
      }
      close(fd);
    });
    t.join();
  }
  const Snmp a1 = ReadSnmp(a_);
  ExpectErrorCountersUnchanged(a0, a1, "A");
  EXPECT_GE(Delta(a0, a1, "Icmp.InTimeExcds"), 1);
  EXPECT_GE(Delta(a0, a1, "Icmp6InTimeExcds"), 1);
  auto c = gateway_.Stop();
  EXPECT_EQ(c["icmp_time_exceeded"], 2);
  EXPECT_EQ(c["drop_TTL_exceeded"], 2);
}

// Ping sends one echo request from A to `to` on a raw socket and waits for
// the reply with its identifier and sequence.
bool Ping(const Namespace& ns, bool v4, const char* to, uint16_t ident) {
  bool ok = false;
  std::thread t = ns.InThread([&] {
    const int fd = v4 ? socket(AF_INET, SOCK_RAW, IPPROTO_ICMP)
                      : socket(AF_INET6, SOCK_RAW, IPPROTO_ICMPV6);
    if (fd < 0) {
      ADD_FAILURE() << "raw socket: " << std::strerror(errno);
      return;
    }
    uint8_t msg[64] = {};
    msg[0] = v4 ? ICMP_ECHO : ICMP6_ECHO_REQUEST;
    msg[4] = static_cast<uint8_t>(ident >> 8);
    msg[5] = static_cast<uint8_t>(ident);
    msg[7] = 1;
    for (size_t i = 8; i < sizeof(msg); ++i) msg[i] = static_cast<uint8_t>(i);
    if (v4) {
      const uint16_t sum = ~checksum::Checksum(msg, sizeof(msg));
      msg[2] = static_cast<uint8_t>(sum >> 8);
      msg[3] = static_cast<uint8_t>(sum);
    }  // The kernel sums ICMPv6 raw sockets' messages itself.
    socklen_t len;
    sockaddr_storage sa = Address(v4, to, 0, len);
    sendto(fd, msg, sizeof(msg), 0, reinterpret_cast<sockaddr*>(&sa), len);
    uint8_t buf[2048];
    const auto deadline =
        std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (!ok && std::chrono::steady_clock::now() < deadline) {
      pollfd p{fd, POLLIN, 0};
      if (poll(&p, 1, 500) != 1) continue;
      const ssize_t n = recv(fd, buf, sizeof(buf), 0);
      // IPv4 raw sockets see the IP header; IPv6 ones do not.
      const size_t h = v4 ? (buf[0] & 0xfu) * 4 : 0;
      if (n < static_cast<ssize_t>(h + 8)) continue;
      const uint8_t* icmp = buf + h;
      ok = icmp[0] == (v4 ? ICMP_ECHOREPLY : ICMP6_ECHO_REPLY) &&
           icmp[4] == (ident >> 8) && icmp[5] == (ident & 0xff) &&
           icmp[7] == 1 && static_cast<size_t>(n) - h == sizeof(msg);
    }
    close(fd);
  });
  t.join();
  return ok;
}

// Source NAT: B, which has no route back to A's prefix, sees A's
// connections from the gateway's outside address and, port preserved,
// from A's port; a ping from A through the NAT gets its reply; partial
// checksums (the kernel's CHECKSUM_PARTIAL) are rewritten without a
// complement, full ones incrementally, and neither kernel counts an error.
TEST_F(NetnsTest, SourceNatTcpUdpAndPing) {
  ASSERT_NO_FATAL_FAILURE(
      StartGateway("csum+tso4+tso6", "none",
                   {"--snat=10.1.0.0/24,dev=gw1", "--snat=fd01::/64,dev=gw1"},
                   /*route_back=*/false));
  const Snmp a0 = ReadSnmp(a_), b0 = ReadSnmp(b_);
  for (bool v4 : {true, false}) {
    SCOPED_TRACE(v4 ? "IPv4" : "IPv6");
    uint16_t seen_port = 0, client_port = 0;
    const std::string peer =
        TcpTransfer(v4, 4 * kMiB, v4 ? 7001 : 7002, &seen_port, &client_port);
    EXPECT_EQ(peer, v4 ? "10.2.0.1" : "fd02::1");
    EXPECT_EQ(seen_port, client_port);
    EXPECT_TRUE(Ping(a_, v4, v4 ? "10.2.0.2" : "fd02::2", 0x4242));
  }
  ExpectErrorCountersUnchanged(a0, ReadSnmp(a_), "A");
  ExpectErrorCountersUnchanged(b0, ReadSnmp(b_), "B");
  auto c = gateway_.Stop();
  EXPECT_GT(c["nat_outbound"], 0);
  EXPECT_GT(c["nat_inbound"], 0);
  EXPECT_GE(c["nat_created"], 4);
}

// Faults before verification: the gateway drops exactly the frames it
// corrupted, TCP completes by retransmission, and no kernel sees a bad
// checksum.
TEST_F(NetnsTest, FaultBeforeVerificationIsDroppedAndTcpCompletes) {
  ASSERT_NO_FATAL_FAILURE(
      StartGateway("none", "none", {"--fault-flip-before=97"}));
  TcpBothFamilies(4 * kMiB, 8001);
  auto c = gateway_.Stop();
  EXPECT_GT(c["faults_before"], 10);
  EXPECT_EQ(c["faults_before"],
            c["drop_bad_transport_checksum"] + c["drop_bad_ICMP_checksum"]);
}

// Faults after verification: the receiving kernels count them.
TEST_F(NetnsTest, FaultAfterVerificationRaisesReceiversCsumErrors) {
  ASSERT_NO_FATAL_FAILURE(
      StartGateway("none", "none", {"--fault-flip-after=97"}));
  const Snmp a0 = ReadSnmp(a_), b0 = ReadSnmp(b_);
  TcpTransfer(true, 2 * kMiB, 9001);
  const Snmp a1 = ReadSnmp(a_), b1 = ReadSnmp(b_);
  auto c = gateway_.Stop();
  const int64_t seen =
      Delta(a0, a1, "Tcp.InCsumErrors") + Delta(b0, b1, "Tcp.InCsumErrors");
  EXPECT_GT(c["faults_after"], 5);
  EXPECT_GT(seen, 0);
  EXPECT_LE(seen, c["faults_after"]);
}

// TAP links: the kernels resolve the gateway with ARP and Neighbor
// Discovery, the gateway resolves them, and TCP runs through it.
TEST_F(NetnsTest, KernelTcpThroughTapLinksWithArpAndNdp) {
  ASSERT_NO_FATAL_FAILURE(StartGateway("csum+tso4+tso6", "csum", {}, true,
                                       /*tap=*/true));
  const Snmp a0 = ReadSnmp(a_), b0 = ReadSnmp(b_);
  TcpTransfer(true, 16 * kMiB, 5201);
  TcpTransfer(false, 16 * kMiB, 5202);
  EXPECT_TRUE(Ping(a_, true, "10.2.0.2", 0x5151));
  EXPECT_TRUE(Ping(a_, false, "fd02::2", 0x5151));
  ExpectErrorCountersUnchanged(a0, ReadSnmp(a_), "A");
  ExpectErrorCountersUnchanged(b0, ReadSnmp(b_), "B");
  auto c = gateway_.Stop();
  EXPECT_GE(c["arp_replies"], 1);  // B learns the gateway from its request.
  EXPECT_GE(c["nd_advertisements"], 1);
  EXPECT_GE(c["neighbors_learned"], 4);
  EXPECT_EQ(c["drop_neighbor_unreachable"], 0);
}

// UDP GSO (UDP_SEGMENT): with USO on A's device the kernel hands over one
// frame per send, the gateway forwards it whole, and B's side takes it as
// it is (USO) or gets it segmented in software (checksum only); B receives
// each segment as its own datagram, byte for byte.
TEST_F(NetnsTest, KernelUdpGsoForwardedWhole) {
  uint16_t port = 6100;
  for (const char* b_offload : {"csum+tso4+tso6+uso", "csum"}) {
    SCOPED_TRACE(b_offload);
    ASSERT_NO_FATAL_FAILURE(StartGateway("csum+tso4+tso6+uso", b_offload));
    const Snmp a0 = ReadSnmp(a_), b0 = ReadSnmp(b_);
    constexpr size_t kSegment = 1200, kSegments = 20, kSends = 5;
    for (bool v4 : {true, false}) {
      const uint16_t p = port++;
      std::atomic<bool> bound{false};
      size_t good = 0;
      std::thread rx = b_.InThread([&] {
        const int fd = socket(v4 ? AF_INET : AF_INET6, SOCK_DGRAM, 0);
        socklen_t len;
        sockaddr_storage sa = Address(v4, v4 ? "10.2.0.2" : "fd02::2", p, len);
        bind(fd, reinterpret_cast<sockaddr*>(&sa), len);
        bound = true;
        SetTimeouts(fd, 5);
        Stream expect(p);
        std::vector<uint8_t> buf(65536), want(kSegment);
        for (size_t i = 0; i < kSegments * kSends; ++i) {
          const ssize_t n = recv(fd, buf.data(), buf.size(), 0);
          if (n < 0) break;
          expect.Fill(want.data(), kSegment);
          good += n == static_cast<ssize_t>(kSegment) &&
                  std::memcmp(buf.data(), want.data(), kSegment) == 0;
        }
        close(fd);
      });
      std::thread tx = a_.InThread([&] {
        for (int i = 0; i < 500 && !bound; ++i) {
          std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        const int fd = socket(v4 ? AF_INET : AF_INET6, SOCK_DGRAM, 0);
        const int gso = kSegment;
        ASSERT_EQ(setsockopt(fd, IPPROTO_UDP, UDP_SEGMENT, &gso, sizeof(gso)),
                  0)
            << std::strerror(errno);
        socklen_t len;
        sockaddr_storage sa = Address(v4, v4 ? "10.2.0.2" : "fd02::2", p, len);
        connect(fd, reinterpret_cast<sockaddr*>(&sa), len);
        Stream s(p);
        std::vector<uint8_t> buf(kSegment * kSegments);
        for (size_t i = 0; i < kSends; ++i) {
          s.Fill(buf.data(), buf.size());
          ASSERT_EQ(send(fd, buf.data(), buf.size(), 0),
                    static_cast<ssize_t>(buf.size()))
              << std::strerror(errno);
          // Paced, so that B's socket buffer never overflows.
          std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        close(fd);
      });
      tx.join();
      rx.join();
      EXPECT_EQ(good, kSegments * kSends) << (v4 ? "IPv4" : "IPv6");
    }
    ExpectErrorCountersUnchanged(a0, ReadSnmp(a_), "A");
    ExpectErrorCountersUnchanged(b0, ReadSnmp(b_), "B");
    auto c = gateway_.Stop();
    if (gateway_.Log().find("uso") != std::string::npos) {
      EXPECT_GT(c["gso_forwarded"], 0);
    }
  }
}

}  // namespace
}  // namespace ipsum::gateway
