// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// ipsum-gateway: a userspace IPv4/IPv6 router between TUN/TAP devices with
// virtio-net offloads (tcpip/link), driven by one epoll loop. The packet
// logic is tools/gateway/gateway.h; this file holds the flags, the devices,
// the loop and the counters' output.
//
//   ipsum-gateway --link=sbx0,addr=10.0.0.1/24,netns=/run/netns/sandbox
//                 --link=up0,addr=10.9.0.1/24
//                 --route=0.0.0.0/0,dev=up0,via=10.9.0.2
//                 --snat=10.0.0.0/24,dev=up0
//
// Exit status: 0 after SIGINT/SIGTERM (or --duration), 1 on a setup error
// (one line on stderr), 2 on a usage error.

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "tcpip/link/endpoint.h"
#include "tools/gateway/config.h"
#include "tools/gateway/gateway.h"

namespace ipsum::gateway {
namespace {

namespace link = tcpip::link;

constexpr char kUsage[] =
    "usage: ipsum-gateway --link=SPEC --link=SPEC... [options]\n"
    "\n"
    "  --link=NAME[,tap][,addr=CIDR]...[,mtu=N][,mac=MAC][,offload=LIST]\n"
    "        [,txqueuelen=N][,netns=PATH]\n"
    "      a TUN (default) or TAP device NAME, created by the gateway (in\n"
    "      the network namespace PATH, e.g. /run/netns/X or /proc/PID/ns/net,\n"
    "      when given); addr: the gateway's IPv4 or IPv6 address and prefix\n"
    "      on it (repeatable; each makes a connected route); offload: what\n"
    "      to negotiate, '+'-separated from csum, tso4, tso6, uso, or\n"
    "      'none' (default csum+tso4+tso6+uso, as the kernel accepts);\n"
    "      txqueuelen: frames the kernel queues for the gateway before it\n"
    "      drops (default: the kernel's, 500 for TUN, 1000 for TAP)\n"
    "  --route=PREFIX,dev=NAME[,via=ADDRESS]\n"
    "      a static route (IPv4 or IPv6); longest prefix wins\n"
    "  --snat=PREFIX,dev=NAME[,to=ADDRESS]\n"
    "      source NAT of PREFIX (inside) leaving by NAME, to ADDRESS\n"
    "      (default: NAME's first address of that family); once per family\n"
    "  --snat-max=N             NAT table size (default 16384)\n"
    "  --icmp-rate=N            ICMP errors per second (default 1000)\n"
    "  --stats-json=PATH        write the counters as JSON at exit and on\n"
    "                           SIGUSR1 ('-': standard output)\n"
    "  --duration=SECONDS       exit after SECONDS (default: run until\n"
    "                           SIGINT/SIGTERM)\n"
    "  --copy                   benchmark only: two --link, each frame\n"
    "                           (with its offload metadata) written to the\n"
    "                           other device unparsed, unverified, unrouted:\n"
    "                           the floor of any path through the links\n"
    "  --fault-flip-before=N    test only: flip a bit in every Nth verified\n"
    "                           frame before verification\n"
    "  --fault-flip-after=N     test only: ... in every Nth forwarded frame\n"
    "                           with a complete checksum, after it\n"
    "\n"
    "Counters go to stderr at exit and on SIGUSR1. Once every device is\n"
    "up, 'ready' is printed on stdout.\n";

// Abseil here is built with its own string_view.
absl::string_view AV(std::string_view s) { return {s.data(), s.size()}; }

int UsageError(const std::string& message) {
  std::fprintf(stderr, "ipsum-gateway: %s\n%s", message.c_str(), kUsage);
  return 2;
}

struct LinkSpec {
  std::string netns;
  link::Offloads offloads = {true, true, true, true, true};
  size_t queue_len = 0;  // txqueuelen=; 0: the kernel's default.
};

struct Options {
  Config config;
  std::vector<LinkSpec> links;
  std::string stats_json;
  uint64_t duration_s = 0;
  bool copy = false;  // --copy: the links' loop without the gateway.
};

absl::Status BadFlag(std::string_view flag, std::string_view why) {
  return absl::InvalidArgumentError(
      absl::StrCat(std::string(flag), ": ", std::string(why)));
}

absl::StatusOr<link::Offloads> ParseOffloads(std::string_view text) {
  link::Offloads o;
  if (text == "none") return o;
  for (absl::string_view part : absl::StrSplit(AV(text), '+')) {
    if (part == "csum") {
      o.csum = true;
    } else if (part == "tso4") {
      o.tso4 = true;
    } else if (part == "tso6") {
      o.tso6 = true;
    } else if (part == "uso") {
      o.uso4 = o.uso6 = true;
    } else {
      return absl::InvalidArgumentError(
          absl::StrCat("unknown offload '", part, "'"));
    }
  }
  return o;
}

absl::Status ParseLink(std::string_view value, Options& options) {
  std::vector<std::string> parts = absl::StrSplit(AV(value), ',');
  InterfaceConfig iface;
  LinkSpec spec;
  iface.name = parts[0];
  if (iface.name.empty()) return BadFlag("--link", "no device name");
  // A locally administered MAC per interface by default.
  iface.mac.bytes = {0x02, 0x69, 0x70, 0x73, 0x75,
                     static_cast<uint8_t>(options.links.size() + 1)};
  for (size_t i = 1; i < parts.size(); ++i) {
    const std::string& p = parts[i];
    const size_t eq = p.find('=');
    const std::string key = p.substr(0, eq);
    const std::string v = eq == std::string::npos ? "" : p.substr(eq + 1);
    if (p == "tap") {
      iface.mode = LinkMode::kTap;
    } else if (p == "tun") {
      iface.mode = LinkMode::kTun;
    } else if (key == "addr") {
      if (v.find(':') != std::string::npos) {
        auto a = ParsePrefixV6(v);
        if (!a.ok()) return a.status();
        iface.v6.push_back(*a);
      } else {
        auto a = ParsePrefixV4(v);
        if (!a.ok()) return a.status();
        iface.v4.push_back(*a);
      }
    } else if (key == "mtu") {
      if (!absl::SimpleAtoi(v, &iface.mtu)) return BadFlag("--link mtu", v);
    } else if (key == "mac") {
      auto m = ParseMac(v);
      if (!m.ok()) return m.status();
      iface.mac = *m;
    } else if (key == "offload") {
      auto o = ParseOffloads(v);
      if (!o.ok()) return o.status();
      spec.offloads = *o;
    } else if (key == "txqueuelen") {
      if (!absl::SimpleAtoi(v, &spec.queue_len) || spec.queue_len == 0 ||
          spec.queue_len > (size_t{1} << 20)) {
        return BadFlag("--link txqueuelen", "1..1048576");
      }
    } else if (key == "netns") {
      spec.netns = v;
    } else {
      return BadFlag("--link", absl::StrCat("unknown field '", p, "'"));
    }
  }
  options.config.interfaces.push_back(std::move(iface));
  options.links.push_back(std::move(spec));
  return absl::OkStatus();
}

std::optional<size_t> FindLink(const Options& o, std::string_view name) {
  for (size_t i = 0; i < o.config.interfaces.size(); ++i) {
    if (o.config.interfaces[i].name == name) return i;
  }
  return std::nullopt;
}

// ParseFields splits "FIRST,key=value,..." into FIRST and the fields.
std::pair<std::string, std::vector<std::pair<std::string, std::string>>>
ParseFields(std::string_view value) {
  std::vector<std::string> parts = absl::StrSplit(AV(value), ',');
  std::vector<std::pair<std::string, std::string>> fields;
  for (size_t i = 1; i < parts.size(); ++i) {
    const size_t eq = parts[i].find('=');
    fields.emplace_back(parts[i].substr(0, eq),
                        eq == std::string::npos ? "" : parts[i].substr(eq + 1));
  }
  return {parts[0], fields};
}

absl::Status ParseRoute(std::string_view value, Options& o) {
  auto [prefix, fields] = ParseFields(value);
  std::optional<size_t> dev;
  std::string via;
  for (const auto& [k, v] : fields) {
    if (k == "dev") {
      dev = FindLink(o, v);
      if (!dev) return BadFlag("--route", absl::StrCat("no --link ", v));
    } else if (k == "via") {
      via = v;
    } else {
      return BadFlag("--route", absl::StrCat("unknown field '", k, "'"));
    }
  }
  if (!dev) return BadFlag("--route", "dev= missing");
  if (prefix.find(':') != std::string::npos) {
    auto p = ParsePrefixV6(prefix);
    if (!p.ok()) return p.status();
    RouteConfig<header::IPv6Address> r{*p, *dev, std::nullopt};
    if (!via.empty()) {
      auto a = ParseIPv6(via);
      if (!a.ok()) return a.status();
      r.via = *a;
    }
    o.config.routes_v6.push_back(r);
  } else {
    auto p = ParsePrefixV4(prefix);
    if (!p.ok()) return p.status();
    RouteConfig<header::IPv4Address> r{*p, *dev, std::nullopt};
    if (!via.empty()) {
      auto a = ParseIPv4(via);
      if (!a.ok()) return a.status();
      r.via = *a;
    }
    o.config.routes_v4.push_back(r);
  }
  return absl::OkStatus();
}

absl::Status ParseSnat(std::string_view value, Options& o) {
  auto [prefix, fields] = ParseFields(value);
  std::optional<size_t> dev;
  std::string to;
  for (const auto& [k, v] : fields) {
    if (k == "dev") {
      dev = FindLink(o, v);
      if (!dev) return BadFlag("--snat", absl::StrCat("no --link ", v));
    } else if (k == "to") {
      to = v;
    } else {
      return BadFlag("--snat", absl::StrCat("unknown field '", k, "'"));
    }
  }
  if (!dev) return BadFlag("--snat", "dev= missing");
  if (!o.config.snat) o.config.snat.emplace();
  SnatConfig& s = *o.config.snat;
  if (s.inside_v4 || s.inside_v6) {
    if (s.outside_interface != *dev) {
      return BadFlag("--snat", "both families must leave by one device");
    }
  }
  s.outside_interface = *dev;
  const InterfaceConfig& out = o.config.interfaces[*dev];
  if (prefix.find(':') != std::string::npos) {
    auto p = ParsePrefixV6(prefix);
    if (!p.ok()) return p.status();
    s.inside_v6 = *p;
    if (!to.empty()) {
      auto a = ParseIPv6(to);
      if (!a.ok()) return a.status();
      s.address_v6 = *a;
    } else if (!out.v6.empty()) {
      s.address_v6 = out.v6.front().address;
    } else {
      return BadFlag("--snat", "no to= and no IPv6 address on the device");
    }
  } else {
    auto p = ParsePrefixV4(prefix);
    if (!p.ok()) return p.status();
    s.inside_v4 = *p;
    if (!to.empty()) {
      auto a = ParseIPv4(to);
      if (!a.ok()) return a.status();
      s.address_v4 = *a;
    } else if (!out.v4.empty()) {
      s.address_v4 = out.v4.front().address;
    } else {
      return BadFlag("--snat", "no to= and no IPv4 address on the device");
    }
  }
  return absl::OkStatus();
}

// ParseArgs fills `o`; a usage error is InvalidArgument.
absl::Status ParseArgs(int argc, char** argv, Options& o) {
  std::vector<std::pair<std::string, std::string>> deferred;
  std::optional<uint64_t> snat_max;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::fputs(kUsage, stdout);
      std::exit(0);
    }
    if (arg == "--copy") {
      o.copy = true;
      continue;
    }
    const size_t eq = arg.find('=');
    if (arg.rfind("--", 0) != 0 || eq == std::string::npos) {
      return absl::InvalidArgumentError(
          absl::StrCat("unknown argument '", arg, "'"));
    }
    const std::string name = arg.substr(0, eq);
    const std::string value = arg.substr(eq + 1);
    uint64_t n = 0;
    auto number = [&]() -> absl::Status {
      if (!absl::SimpleAtoi(value, &n)) {
        return BadFlag(name, absl::StrCat("not a number: '", value, "'"));
      }
      return absl::OkStatus();
    };
    if (name == "--link") {
      absl::Status s = ParseLink(value, o);
      if (!s.ok()) return s;
    } else if (name == "--route" || name == "--snat") {
      deferred.emplace_back(name, value);  // After every --link.
    } else if (name == "--stats-json") {
      o.stats_json = value;
    } else if (name == "--snat-max" || name == "--icmp-rate" ||
               name == "--duration" || name == "--fault-flip-before" ||
               name == "--fault-flip-after") {
      absl::Status s = number();
      if (!s.ok()) return s;
      if (name == "--snat-max") {
        snat_max = n;  // Applied once --snat is parsed.
      } else if (name == "--icmp-rate") {
        o.config.icmp_errors_per_second = static_cast<uint32_t>(n);
      } else if (name == "--duration") {
        o.duration_s = n;
      } else if (name == "--fault-flip-before") {
        o.config.fault.flip_before = n;
      } else {
        o.config.fault.flip_after = n;
      }
    } else {
      return absl::InvalidArgumentError(
          absl::StrCat("unknown flag '", name, "'"));
    }
  }
  for (const auto& [name, value] : deferred) {
    absl::Status s = absl::OkStatus();
    if (name == "--route") {
      s = ParseRoute(value, o);
    } else if (name == "--snat") {
      s = ParseSnat(value, o);
    }
    if (!s.ok()) return s;
  }
  if (snat_max) {
    if (!o.config.snat) return BadFlag("--snat-max", "without --snat");
    o.config.snat->max_entries = *snat_max;
  }
  if (o.config.interfaces.size() < 2) {
    return absl::InvalidArgumentError("at least two --link are needed");
  }
  if (o.copy && (o.config.interfaces.size() != 2 || o.config.snat ||
                 !o.config.routes_v4.empty() || !o.config.routes_v6.empty())) {
    return absl::InvalidArgumentError(
        "--copy takes exactly two --link and no --route or --snat");
  }
  return Validate(o.config);
}

uint64_t NowNs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return uint64_t(ts.tv_sec) * 1000000000u + uint64_t(ts.tv_nsec);
}

// OpenIn opens the endpoint in the network namespace at `netns` (the
// calling thread's when empty) and returns to the original namespace.
absl::StatusOr<std::unique_ptr<link::Endpoint>> OpenIn(
    const std::string& netns, const link::EndpointOptions& options) {
  if (netns.empty()) return link::Endpoint::Open(options);
  const int target = open(netns.c_str(), O_RDONLY | O_CLOEXEC);
  if (target < 0) {
    return absl::NotFoundError(absl::StrCat(
        "cannot open network namespace ", netns, ": ", std::strerror(errno)));
  }
  const int home = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
  if (home < 0) {
    close(target);
    return absl::InternalError(absl::StrCat(
        "cannot open the current network namespace: ", std::strerror(errno)));
  }
  absl::StatusOr<std::unique_ptr<link::Endpoint>> e;
  if (setns(target, CLONE_NEWNET) != 0) {
    const int err = errno;
    e = (err == EPERM ? absl::PermissionDeniedError("")
                      : absl::InvalidArgumentError(""));
    e = absl::Status(e.status().code(),
                     absl::StrCat("cannot enter network namespace ", netns,
                                  ": ", std::strerror(err),
                                  err == EPERM ? " (needs CAP_SYS_ADMIN)" : ""));
  } else {
    e = link::Endpoint::Open(options);
    if (setns(home, CLONE_NEWNET) != 0) {
      e = absl::InternalError(absl::StrCat(
          "cannot return to the original network namespace: ",
          std::strerror(errno)));
    }
  }
  close(target);
  close(home);
  return e;
}

class EndpointOutput : public Output {
 public:
  explicit EndpointOutput(std::vector<std::unique_ptr<link::Endpoint>>& e)
      : endpoints_(e) {}
  bool Send(size_t interface, tcpip::PacketBuffer&& pkt) override {
    return endpoints_[interface]->Send(std::move(pkt));
  }

 private:
  std::vector<std::unique_ptr<link::Endpoint>>& endpoints_;
};

void WriteCounters(Gateway& g,
                   const std::vector<std::unique_ptr<link::Endpoint>>& eps,
                   const std::string& json_path) {
  std::vector<std::string> names;
  for (const auto& i : g.config().interfaces) names.push_back(i.name);
  std::string text = FormatCounters(g.counters(), names);
  for (const auto& e : eps) {
    absl::StrAppend(&text, e->name(), ".link ", e->counters().ToString(),
                    "\n");
  }
  std::fputs(text.c_str(), stderr);
  if (json_path.empty()) return;
  // The gateway's object, with each endpoint's drops (by every reason)
  // added as NAME.link_dropped.
  std::string json = FormatCountersJson(g.counters(), names);
  json.resize(json.rfind('}'));
  for (const auto& e : eps) {
    absl::StrAppend(&json, ",\"", e->name(), ".link_dropped\":",
                    e->counters().total_dropped());
  }
  json += "}\n";
  if (json_path == "-") {
    std::fputs(json.c_str(), stdout);
    std::fflush(stdout);
    return;
  }
  // Written whole to a temporary and renamed, so a reader never sees half.
  const std::string tmp = json_path + ".tmp";
  FILE* f = std::fopen(tmp.c_str(), "w");
  if (f == nullptr) {
    std::fprintf(stderr, "ipsum-gateway: cannot write %s: %s\n", tmp.c_str(),
                 std::strerror(errno));
    return;
  }
  std::fputs(json.c_str(), f);
  std::fclose(f);
  std::rename(tmp.c_str(), json_path.c_str());
}

int Run(int argc, char** argv) {
  Options o;
  absl::Status parsed = ParseArgs(argc, argv, o);
  if (!parsed.ok()) return UsageError(std::string(parsed.message()));

  std::vector<std::unique_ptr<link::Endpoint>> endpoints;
  for (size_t i = 0; i < o.config.interfaces.size(); ++i) {
    const InterfaceConfig& iface = o.config.interfaces[i];
    link::EndpointOptions eo;
    eo.name = iface.name;
    eo.mode = iface.mode == LinkMode::kTap ? link::DeviceMode::kTap
                                           : link::DeviceMode::kTun;
    eo.request = o.links[i].offloads;
    eo.mtu = iface.mtu;
    eo.device_queue_len = o.links[i].queue_len;
    auto e = OpenIn(o.links[i].netns, eo);
    if (!e.ok()) {
      std::fprintf(stderr, "ipsum-gateway: %s\n",
                   std::string(e.status().message()).c_str());
      return 1;
    }
    std::fprintf(stderr, "ipsum-gateway: %s %s offloads %s, %s\n",
                 (*e)->name().c_str(),
                 std::string(link::ToString((*e)->mode())).c_str(),
                 link::ToString((*e)->offloads()).c_str(),
                 (*e)->batched() ? "io_uring" : "readv/writev");
    endpoints.push_back(std::move(*e));
  }
  auto created = Gateway::Create(o.config);
  if (!created.ok()) {
    std::fprintf(stderr, "ipsum-gateway: %s\n",
                 std::string(created.status().message()).c_str());
    return 1;
  }
  Gateway& gateway = **created;

  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGUSR1);
  sigprocmask(SIG_BLOCK, &signals, nullptr);
  const int sfd = signalfd(-1, &signals, SFD_NONBLOCK | SFD_CLOEXEC);
  const int ep = epoll_create1(EPOLL_CLOEXEC);
  if (sfd < 0 || ep < 0) {
    std::fprintf(stderr, "ipsum-gateway: epoll/signalfd: %s\n",
                 std::strerror(errno));
    return 1;
  }
  const uint64_t kSignalTag = endpoints.size();
  epoll_event ev{};
  ev.events = EPOLLIN;
  ev.data.u64 = kSignalTag;
  epoll_ctl(ep, EPOLL_CTL_ADD, sfd, &ev);
  for (size_t i = 0; i < endpoints.size(); ++i) {
    ev.events = EPOLLIN;
    ev.data.u64 = i;
    epoll_ctl(ep, EPOLL_CTL_ADD, endpoints[i]->fd(), &ev);
  }
  std::vector<bool> want_out(endpoints.size(), false);
  std::fputs("ready\n", stdout);
  std::fflush(stdout);

  EndpointOutput out(endpoints);
  std::vector<tcpip::PacketBuffer> burst;
  constexpr uint64_t kTickNs = 200000000;  // 200 ms
  constexpr size_t kBurst = 64;
  constexpr size_t kBurstsPerWakeup = 16;  // Then let the other link run.
  const uint64_t start = NowNs();
  uint64_t next_tick = start + kTickNs;
  bool running = true;
  while (running) {
    std::array<epoll_event, 8> events;
    const int n = epoll_wait(ep, events.data(), events.size(), 100);
    if (n < 0 && errno != EINTR) {
      std::fprintf(stderr, "ipsum-gateway: epoll_wait: %s\n",
                   std::strerror(errno));
      return 1;
    }
    for (int k = 0; k < n; ++k) {
      const uint64_t tag = events[k].data.u64;
      if (tag == kSignalTag) {
        signalfd_siginfo si;
        while (read(sfd, &si, sizeof(si)) == sizeof(si)) {
          if (si.ssi_signo == SIGUSR1) {
            WriteCounters(gateway, endpoints, o.stats_json);
          } else {
            running = false;
          }
        }
        continue;
      }
      if (events[k].events & (EPOLLIN | EPOLLERR | EPOLLHUP)) {
        for (size_t b = 0; b < kBurstsPerWakeup; ++b) {
          burst.clear();
          const size_t got = endpoints[tag]->ReadBurst(burst, kBurst);
          const uint64_t now = NowNs();
          for (tcpip::PacketBuffer& pkt : burst) {
            if (o.copy) {
              endpoints[1 - tag]->Send(std::move(pkt));
            } else {
              gateway.Handle(tag, std::move(pkt), now, out);
            }
          }
          if (got < kBurst) break;
        }
      }
    }
    const uint64_t now = NowNs();
    if (now >= next_tick) {
      gateway.Tick(now, out);
      next_tick = now + kTickNs;
    }
    for (size_t i = 0; i < endpoints.size(); ++i) {
      if (!endpoints[i]->tx_pending()) {
        if (want_out[i]) {
          ev.events = EPOLLIN;
          ev.data.u64 = i;
          epoll_ctl(ep, EPOLL_CTL_MOD, endpoints[i]->fd(), &ev);
          want_out[i] = false;
        }
        continue;
      }
      const link::FlushResult r = endpoints[i]->Flush();
      if (r.blocked != want_out[i]) {
        ev.events = EPOLLIN | (r.blocked ? uint32_t{EPOLLOUT} : 0u);
        ev.data.u64 = i;
        epoll_ctl(ep, EPOLL_CTL_MOD, endpoints[i]->fd(), &ev);
        want_out[i] = r.blocked;
      }
    }
    if (o.duration_s != 0 && now - start >= o.duration_s * 1000000000u) {
      running = false;
    }
  }
  WriteCounters(gateway, endpoints, o.stats_json);
  close(ep);
  close(sfd);
  return 0;
}

}  // namespace
}  // namespace ipsum::gateway

int main(int argc, char** argv) { return ipsum::gateway::Run(argc, argv); }
