#!/usr/bin/env bash
# Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
#
# Measures the throughput and CPU cost of a sandbox's network path through
# ipsum-gateway side by side with what a user would run instead, and prints
# the Markdown table (tools/bench/gateway_table.py) headed by this CPU's
# model name. Needs root, /dev/net/tun, iperf3, passt (pasta), slirp4netns
# and ethtool (tools/setup.sh installs them).
#
#   tools/bench/gateway.sh                      # 3 repetitions of 10 s
#   REPS=1 SECS=3 tools/bench/gateway.sh        # a quick look
#   PATHS="kernel copy ipsum" FAMILIES=4 STREAMS=1 tools/bench/gateway.sh
#   ALT_GATEWAY=/tmp/old-gateway tools/bench/gateway.sh   # paired A/B
#
# Paths (each in namespaces of its own, iperf3 TCP client -> server):
#   kernel              client ns -> veth -> router ns (forwarding) -> veth
#                       -> server ns
#   kernel-nooffload    the same, TSO/GSO/GRO/checksum offloads off on the
#                       router's devices (ethtool -K)
#   copy[-nooffload]    client ns -> TUN -> ipsum-gateway --copy -> TUN ->
#                       server ns: the links' loop without parsing
#   ipsum[-nooffload]   ... ipsum-gateway routing, every checksum verified
#   ipsum-snat[-nooffload]  ... with source NAT
#   pasta, slirp4netns  sandbox ns -> the user-mode network -> a server on
#                       the host's loopback
# "-nooffload" gateway paths negotiate no offload: frames of at most the
# 1500-byte MTU with complete checksums, summed in software.
#
# Every repetition runs every (family, streams) case on every path in turn,
# so ratios compare figures taken minutes apart at most. CPU is the user +
# system time of every process of the path (iperf3 client and server, the
# forwarder, the kernel's ksoftirqd threads) from /proc and the client's
# rusage, per GB received. Each run also checks that no gateway or link
# drop was counted and that TCP/UDP InCsumErrors stayed put on both ends.
# The gateway paths set their devices' txqueuelen to GW_TXQUEUELEN (4096).
# Namespaces are named with this shell's pid and removed on exit.
set -euo pipefail
cd "$(dirname "$0")/../.."

REPS=${REPS:-3}
SECS=${SECS:-10}
FAMILIES=${FAMILIES:-"4 6"}
STREAMS=${STREAMS:-"1 4"}
ALL_PATHS="kernel kernel-nooffload copy copy-nooffload ipsum ipsum-nooffload
  ipsum-snat ipsum-snat-nooffload pasta slirp4netns"
PATHS=${PATHS:-$ALL_PATHS}
OUT=${OUT:-}
# Debian's interpreter starts fastest (a version manager's shim may not).
PYTHON=${PYTHON:-$(command -v /usr/bin/python3 || command -v python3)}
# The gateway's TUN devices queue this many frames for it (txqueuelen).
GW_TXQUEUELEN=${GW_TXQUEUELEN:-4096}

die() { echo "gateway.sh: $*" >&2; exit 1; }
[[ $(id -u) -eq 0 ]] || die "needs root (network namespaces, TUN devices)"
[[ -c /dev/net/tun ]] || die "no /dev/net/tun"
for tool in iperf3 ethtool pasta slirp4netns ip python3; do
  command -v "$tool" >/dev/null || die "no $tool (tools/setup.sh installs it)"
done
[[ $REPS =~ ^[0-9]+$ && $REPS -ge 1 && $REPS -le 100 ]] || die "REPS 1..100"
[[ $SECS =~ ^[0-9]+$ && $SECS -ge 1 && $SECS -le 600 ]] || die "SECS 1..600"

tag="gwb$$"
work=$(mktemp -d "/tmp/ipsum-gwbench.XXXXXX")
namespaces=()
pids=()
cleanup() {
  local p n
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do
    for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
  done
  for n in "${namespaces[@]}"; do ip netns del "$n" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# The binary is copied out of bazel-bin so later builds cannot change it.
if [[ -z ${GATEWAY:-} ]]; then
  bazel build --config=opt //tools/gateway:ipsum-gateway >&2
  GATEWAY="$(bazel info --config=opt bazel-bin 2>/dev/null)/tools/gateway/ipsum-gateway"
fi
cp -fL "$GATEWAY" "$work/gw-main"
variants=("main")
if [[ -n ${ALT_GATEWAY:-} ]]; then
  cp -fL "$ALT_GATEWAY" "$work/gw-alt"
  variants+=("alt")
fi

# newns VAR NAME: a namespace of this run, its loopback up, named in VAR
# (not printed: a command substitution's subshell would not record it).
newns() {
  local ns="$tag-$2"
  namespaces+=("$ns")
  ip netns add "$ns"
  ip -n "$ns" link set lo up
  printf -v "$1" '%s' "$ns"
}

# wait_for CMD...: retries CMD (quietly), 50 times over at least 5 s.
wait_for() {
  for _ in $(seq 50); do "$@" >/dev/null 2>&1 && return 0; sleep 0.1; done
  return 1
}

start_server() {  # start_server NS PIDFILE: an iperf3 server in NS.
  ip netns exec "$1" iperf3 -s -D -I "$2" >/dev/null
  wait_for test -s "$2" || die "iperf3 server in $1 did not start"
  pids+=("$(cat "$2")")
}

# Per path: client ns, server ns ("" = host), target addresses, process ids
# whose CPU counts, and the gateway's stats file.
declare -A CLIENT SERVER DST4 DST6 PROCS STATS PORT NSS
host_port=$((20000 + $$ % 20000))
host_server_started=0

setup_kernel() {  # setup_kernel PATH [nooffload]
  local p=$1 c s r
  newns c "$p-c"; newns s "$p-s"; newns r "$p-r"
  ip -n "$c" link add eth0 type veth peer name c0 netns "$r"
  ip -n "$s" link add eth0 type veth peer name s0 netns "$r"
  ip -n "$r" link set lo up
  ip netns exec "$r" sysctl -qw net.ipv4.ip_forward=1 \
    net.ipv6.conf.all.forwarding=1
  ip -n "$c" addr add 10.1.0.2/24 dev eth0
  ip -n "$c" -6 addr add fd01::2/64 dev eth0 nodad
  ip -n "$r" addr add 10.1.0.1/24 dev c0
  ip -n "$r" -6 addr add fd01::1/64 dev c0 nodad
  ip -n "$r" addr add 10.2.0.1/24 dev s0
  ip -n "$r" -6 addr add fd02::1/64 dev s0 nodad
  ip -n "$s" addr add 10.2.0.2/24 dev eth0
  ip -n "$s" -6 addr add fd02::2/64 dev eth0 nodad
  local d
  for d in "$c:eth0" "$s:eth0" "$r:c0" "$r:s0"; do
    ip -n "${d%%:*}" link set "${d#*:}" up
  done
  ip -n "$c" route add default via 10.1.0.1
  ip -n "$c" -6 route add default via fd01::1
  ip -n "$s" route add default via 10.2.0.1
  ip -n "$s" -6 route add default via fd02::1
  if [[ ${2:-} == nooffload ]]; then
    for d in c0 s0; do
      ip netns exec "$r" ethtool -K "$d" tso off gso off gro off tx off \
        rx off >/dev/null 2>&1 || die "ethtool -K $d in $r"
    done
  fi
  start_server "$s" "$work/$p.server"
  CLIENT[$p]=$c SERVER[$p]=$s DST4[$p]=10.2.0.2 DST6[$p]=fd02::2
  PROCS[$p]="$(cat "$work/$p.server")" STATS[$p]="" PORT[$p]=5201
  NSS[$p]="$c $r $s"
}

# setup_gateway PATH BINARY MODE OFFLOAD: MODE copy, route or snat.
setup_gateway() {
  local p=$1 bin=$2 mode=$3 offload=$4 c s
  newns c "$p-c"; newns s "$p-s"
  local q="offload=$offload,txqueuelen=$GW_TXQUEUELEN"
  local args=(
    "--link=t0,addr=10.1.0.1/24,addr=fd01::1/64,$q,netns=/run/netns/$c"
    "--link=t1,addr=10.2.0.1/24,addr=fd02::1/64,$q,netns=/run/netns/$s"
    "--stats-json=$work/$p.json")
  case $mode in
    copy) args=("--copy" "--link=t0,$q,netns=/run/netns/$c"
                "--link=t1,$q,netns=/run/netns/$s"
                "--stats-json=$work/$p.json") ;;
    route) args+=("--route=0.0.0.0/0,dev=t1" "--route=::/0,dev=t1") ;;
    snat) args+=("--route=0.0.0.0/0,dev=t1" "--route=::/0,dev=t1"
                 "--snat=10.1.0.0/24,dev=t1" "--snat=fd01::/64,dev=t1") ;;
  esac
  "$bin" "${args[@]}" >"$work/$p.out" 2>"$work/$p.err" &
  pids+=("$!")
  local gw=$!
  wait_for grep -q ready "$work/$p.out" ||
    die "$p: gateway did not start: $(cat "$work/$p.err")"
  ip -n "$c" addr add 10.1.0.2/24 dev t0
  ip -n "$c" -6 addr add fd01::2/64 dev t0 nodad
  ip -n "$c" route add 10.2.0.0/24 dev t0
  ip -n "$c" -6 route add fd02::/64 dev t0
  ip -n "$s" addr add 10.2.0.2/24 dev t1
  ip -n "$s" -6 addr add fd02::2/64 dev t1 nodad
  if [[ $mode != snat ]]; then
    ip -n "$s" route add 10.1.0.0/24 dev t1
    ip -n "$s" -6 route add fd01::/64 dev t1
  fi
  start_server "$s" "$work/$p.server"
  CLIENT[$p]=$c SERVER[$p]=$s DST4[$p]=10.2.0.2 DST6[$p]=fd02::2
  PROCS[$p]="$gw $(cat "$work/$p.server")" STATS[$p]="$work/$p.json"
  PORT[$p]=5201 NSS[$p]="$c $s"
}

host_server() {
  if [[ $host_server_started -eq 0 ]]; then
    iperf3 -s -p "$host_port" -D -I "$work/host.server" >/dev/null
    wait_for test -s "$work/host.server" || die "host iperf3 did not start"
    pids+=("$(cat "$work/host.server")")
    host_server_started=1
  fi
}

setup_pasta() {
  local p=$1 c
  host_server
  newns c "$p-c"
  pasta --runas 0 --config-net --netns "/run/netns/$c" -P "$work/$p.pid" -q \
    2>"$work/$p.err" || die "pasta: $(cat "$work/$p.err")"
  wait_for test -s "$work/$p.pid" || die "pasta wrote no pid"
  pids+=("$(cat "$work/$p.pid")")
  # pasta maps its default gateway addresses to the host's loopback.
  CLIENT[$p]=$c SERVER[$p]=""
  DST4[$p]=$(ip -n "$c" -4 route show default | awk '{print $3; exit}')
  DST6[$p]=$(ip -n "$c" -6 route show default | awk '{print $3; exit}')
  PROCS[$p]="$(cat "$work/$p.pid") $(cat "$work/host.server")"
  STATS[$p]="" PORT[$p]=$host_port NSS[$p]=$c
}

setup_slirp() {
  local p=$1 c
  host_server
  newns c "$p-c"
  slirp4netns --configure --mtu=65520 --enable-ipv6 --netns-type=path \
    "/run/netns/$c" tap0 >"$work/$p.err" 2>&1 &
  pids+=("$!")
  local sp=$!
  wait_for ip -n "$c" -6 addr show dev tap0 scope global ||
    die "slirp4netns: $(cat "$work/$p.err")"
  # slirp4netns maps 10.0.2.2 and fd00::2 to the host's loopback.
  CLIENT[$p]=$c SERVER[$p]="" DST4[$p]=10.0.2.2 DST6[$p]=fd00::2
  PROCS[$p]="$sp $(cat "$work/host.server")" STATS[$p]="" PORT[$p]=$host_port
  NSS[$p]=$c
}

# reach ADDRESS PORT: a TCP connection to the iperf3 server (which ignores
# a connection closed before its test starts).
reach='
import socket, sys
socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=1).close()'

paths=()
for p in $PATHS; do
  for v in "${variants[@]}"; do
    name=$p
    [[ $v == alt ]] && name="$p~alt"
    case $p in
      kernel) [[ $v == main ]] && setup_kernel "$p" ;;
      kernel-nooffload) [[ $v == main ]] && setup_kernel "$p" nooffload ;;
      copy) setup_gateway "$name" "$work/gw-$v" copy csum+tso4+tso6+uso ;;
      copy-nooffload) setup_gateway "$name" "$work/gw-$v" copy none ;;
      ipsum) setup_gateway "$name" "$work/gw-$v" route csum+tso4+tso6+uso ;;
      ipsum-nooffload) setup_gateway "$name" "$work/gw-$v" route none ;;
      ipsum-snat) setup_gateway "$name" "$work/gw-$v" snat csum+tso4+tso6+uso ;;
      ipsum-snat-nooffload) setup_gateway "$name" "$work/gw-$v" snat none ;;
      pasta) [[ $v == main ]] && setup_pasta "$p" ;;
      slirp4netns) [[ $v == main ]] && setup_slirp "$p" ;;
      *) die "unknown path '$p' (known: $ALL_PATHS)" ;;
    esac
    [[ -n ${CLIENT[$name]:-} ]] && paths+=("$name")
    echo "gateway.sh: $(date -u +%T) $name set up" >&2
  done
done
for p in "${paths[@]}"; do
  for f in $FAMILIES; do
    dst=$([[ $f == 4 ]] && echo "${DST4[$p]}" || echo "${DST6[$p]}")
    wait_for ip netns exec "${CLIENT[$p]}" "$PYTHON" -c "$reach" "$dst" "${PORT[$p]}" ||
      die "$p: $dst unreachable"
  done
done

# cpu_ticks PID...: user + system clock ticks of the processes and of the
# kernel's ksoftirqd threads.
softirqd=$(for d in /proc/[0-9]*; do
  if [[ $(cat "$d/comm" 2>/dev/null) == ksoftirqd/* ]]; then
    echo "${d#/proc/}"
  fi
done)
cpu_ticks() {
  local t=0 p f
  for p in "$@" $softirqd; do
    read -ra f <"/proc/$p/stat" || continue
    # Fields 14 and 15 (utime, stime), after the parenthesised name.
    local i=0
    while [[ ${f[$i]} != *')' ]]; do i=$((i + 1)); done
    t=$((t + f[i + 12] + f[i + 13]))
  done
  echo "$t"
}
hz=$(getconf CLK_TCK)

# csum_errors NS: the TCP and UDP InCsumErrors of NS ("": the host).
csum_errors() {
  local run=()
  [[ -n $1 ]] && run=(ip netns exec "$1")
  "${run[@]}" cat /proc/net/snmp /proc/net/snmp6 | awk '
    /^(Tcp|Udp|UdpLite):/ { if (!($1 in hdr)) { hdr[$1] = $0; next }
      n = split(hdr[$1], h); split($0, v)
      for (i = 2; i <= n; i++) if (h[i] == "InCsumErrors") s += v[i] }
    /^(Udp6|UdpLite6)InCsumErrors/ { s += $2 }
    END { print s + 0 }'
}

# dev_drops PATH: frames the kernel dropped on the path's own devices (RX
# and TX dropped, every interface of its namespaces; the host's are shared
# with everything else and not counted).
dev_drops() {
  local ns t=0 n
  for ns in ${NSS[$1]}; do
    for n in $(ip netns exec "$ns" sh -c \
      'cat /sys/class/net/*/statistics/rx_dropped /sys/class/net/*/statistics/tx_dropped'); do
      t=$((t + n))
    done
  done
  echo "$t"
}

# gw_drops PATH: the gateway's and its links' drops (refreshed by SIGUSR1).
gw_drops() {
  local f=${STATS[$1]} gw=${PROCS[$1]%% *}
  [[ -z $f ]] && { echo 0; return; }
  rm -f "$f"
  kill -USR1 "$gw"
  wait_for test -s "$f" || die "$1: no stats from the gateway"
  grep -o '"\(dropped\|[^"]*link_dropped\)":[0-9]*' "$f" |
    awk -F: '{s += $2} END {print s + 0}'
  cp "$f" "$work/$1.last.json"
}

# drop_reasons PATH: the gateway's non-zero drop counters, for the log.
drop_reasons() {
  [[ -f $work/$1.last.json ]] || return 0
  grep -o '"[^"]*drop[^"]*":[1-9][0-9]*' "$work/$1.last.json" | tr '\n' ' '
}

results="$work/results.tsv"
printf 'rep\tpath\tfamily\tstreams\tsecs\tbytes\tbps\tcpu_s\tretransmits\tdrops\tdev_drops\tcsum_errors\n' >"$results"
runs=$((REPS * $(wc -w <<<"$FAMILIES") * $(wc -w <<<"$STREAMS") * ${#paths[@]}))
echo "gateway.sh: $runs runs of $SECS s: ${paths[*]}" >&2
n=0
for rep in $(seq "$REPS"); do
  for f in $FAMILIES; do
    for st in $STREAMS; do
      for p in "${paths[@]}"; do
        n=$((n + 1))
        c=${CLIENT[$p]}
        dst=$([[ $f == 4 ]] && echo "${DST4[$p]}" || echo "${DST6[$p]}")
        read -ra procs <<<"${PROCS[$p]}"
        d0=$(gw_drops "$p")
        k0=$(dev_drops "$p")
        e0=$(($(csum_errors "$c") + $(csum_errors "${SERVER[$p]}")))
        t0=$(cpu_ticks "${procs[@]}")
        # The client's CPU: `times` in this subshell reports its child.
        client_times=$( {
          timeout $((SECS + 30)) ip netns exec "$c" iperf3 -c "$dst" \
            -p "${PORT[$p]}" -t "$SECS" -P "$st" -J >"$work/run.json" || true
          times; } | tail -1)
        t1=$(cpu_ticks "${procs[@]}")
        e1=$(($(csum_errors "$c") + $(csum_errors "${SERVER[$p]}")))
        d1=$(gw_drops "$p")
        k1=$(dev_drops "$p")
        "$PYTHON" tools/bench/gateway_table.py --row "$work/run.json" \
          --fields "$rep" "$p" "IPv$f" "$st" "$SECS" \
          --cpu "$(((t1 - t0)))" "$hz" "$client_times" \
          --drops "$((d1 - d0))" --dev-drops "$((k1 - k0))" \
          --csum-errors "$((e1 - e0))" >>"$results" ||
          printf '%s\t%s\tIPv%s\t%s\t%s\t0\t0\t0\t0\t%s\t%s\t%s\n' "$rep" \
            "$p" "$f" "$st" "$SECS" "$((d1 - d0))" "$((k1 - k0))" \
            "$((e1 - e0))" >>"$results"
        echo "gateway.sh: [$n/$runs] $(tail -1 "$results")" >&2
        if [[ $d1 != "$d0" ]]; then
          echo "gateway.sh: $p drops so far: $(drop_reasons "$p")" >&2
        fi
      done
    done
  done
done
[[ -n $OUT ]] && cp "$results" "$OUT"
"$PYTHON" tools/bench/gateway_table.py --table "$results" \
  --note "iperf3 TCP, $REPS x $SECS s per case, interleaved; median (min-max)"
