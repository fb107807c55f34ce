#!/usr/bin/env bash
# Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
#
# Compares `csum verify` with tshark (Wireshark), a maintainer's tool; no
# test runs it, and it needs tshark installed:
#
#   tools/csum/compare_tshark.sh verdicts [CAPTURE...]
#   tools/csum/compare_tshark.sh [time] [FILE] [RUNS]
#
# verdicts: for each capture (default: every one in testdata/captures) puts
# csum's TSV records beside tshark's checksum-status fields, frame by
# frame and layer by layer (ipv4 ip.checksum.status, tcp, udp and udplite
# udp.checksum.status, icmpv4 icmp.*, icmpv6, gre), the n-th record of a
# layer in a frame beside tshark's n-th field, both in header order (outer
# first). Prints every place where one side says good or bad and the other
# says otherwise, then a count per capture. csum's unverified and none match
# tshark's Unverified, Not present or no field; `ip` records (a datagram
# csum could not read) have no tshark field and are left out. Where the
# bundled captures differ, and why, is in docs/csum.md.
#
# time: wall-clock seconds, best of RUNS (3) runs, output to /dev/null, of
# tshark's checksum validation and of `csum verify` on FILE (default: the
# csum benchmark's capture, /tmp/ipsum-csum-benchmark.pcap, made by running
# //tools/csum:csum_benchmark once).
#
# csum is built with --config=opt (set BAZEL to, e.g., "bazel
# --output_base=DIR" to use another output base, or CSUM to a csum binary
# to use that one). Exit status: 0, or 1 when verdicts differ. If tshark
# is not installed this says so and exits 0.
set -euo pipefail
if ! command -v tshark >/dev/null 2>&1; then
  echo "compare_tshark: tshark is not installed; nothing to compare"
  exit 0
fi
cd "$(dirname "$0")/../.."
mode=time
case "${1:-}" in
  verdicts) mode=verdicts; shift ;;
  time) shift ;;
esac

if [ -n "${CSUM:-}" ]; then
  csum=$CSUM
else
  bazel=${BAZEL:-bazel}
  $bazel build --config=opt --ui_event_filters=-info,-stdout,-stderr \
    --noshow_progress //tools/csum >&2
  csum=$($bazel info --config=opt bazel-bin 2>/dev/null)/tools/csum/csum
fi

# Every checksum check tshark 4.0 has off by default, on; UDP-Lite over the
# coverage it declares, as RFC 3828 (and csum) judge it.
tshark_checks=(-o ip.check_checksum:TRUE -o tcp.check_checksum:TRUE
  -o udp.check_checksum:TRUE -o udplite.check_checksum:TRUE
  -o udplite.ignore_checksum_coverage:FALSE)
# Frame by frame: tshark would judge a reassembled datagram's transport
# checksum in its last fragment's frame, csum reports each fragment.
tshark_frames=(-o ip.defragment:FALSE -o ipv6.defragment:FALSE)

if [ "$mode" = verdicts ]; then
  if [ $# -eq 0 ]; then
    set -- testdata/captures/*.pcap testdata/captures/*.pcapng
  fi
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  status=0
  for cap in "$@"; do
    "$csum" verify --format=tsv "$cap" >"$tmp/csum.tsv" 2>/dev/null || true
    tshark "${tshark_checks[@]}" "${tshark_frames[@]}" -r "$cap" \
      -T fields -E occurrence=a \
      -E aggregator=, -e frame.number -e ip.checksum.status \
      -e tcp.checksum.status -e udp.checksum.status -e icmp.checksum.status \
      -e icmpv6.checksum.status -e gre.checksum.status \
      >"$tmp/tshark.tsv" 2>/dev/null
    python3 - "$cap" "$tmp/csum.tsv" "$tmp/tshark.tsv" <<'EOF' || status=1
import collections
import sys

cap, csum_path, tshark_path = sys.argv[1:]
# csum's layer -> the position of tshark's status field (after frame).
GROUP = {"ipv4": "ip", "tcp": "tcp", "udp": "udp", "udplite": "udp",
         "icmpv4": "icmp", "icmpv6": "icmpv6", "gre": "gre"}
FIELDS = ["ip", "tcp", "udp", "icmp", "icmpv6", "gre"]
# Wireshark's checksum status values (epan/proto.h, PROTO_CHECKSUM_E_*):
# "illegal" is a zero UDP checksum over IPv6, which csum calls bad.
STATUS = {"0": "bad", "1": "good", "2": "unverified", "3": "not-present",
          "4": "bad"}

csum = collections.defaultdict(list)
with open(csum_path) as f:
    next(f)
    for line in f:
        frame, layer, verdict, *_, reason, depth = line.rstrip("\n").split("\t")
        if layer in GROUP:
            label = f"{verdict}" + (f" ({reason})" if reason else "")
            csum[(int(frame), GROUP[layer])].append((verdict, label, depth))
tshark = collections.defaultdict(list)
frames = 0
with open(tshark_path) as f:
    for line in f:
        cols = line.rstrip("\n").split("\t")
        frames += 1
        for name, value in zip(FIELDS, cols[1:]):
            if value:
                tshark[(int(cols[0]), name)] = [
                    STATUS.get(v, v) for v in value.split(",")]

judged = ("good", "bad")
agree = differ = 0
for key in sorted(set(csum) | set(tshark)):
    ours, theirs = csum.get(key, []), tshark.get(key, [])
    for i in range(max(len(ours), len(theirs))):
        verdict, label, depth = ours[i] if i < len(ours) else ("-", "-", "?")
        other = theirs[i] if i < len(theirs) else "-"
        if verdict not in judged and other not in judged:
            continue
        if verdict == other:
            agree += 1
            continue
        differ += 1
        print(f"{cap}: frame {key[0]} {key[1]} #{i + 1} (ip_depth {depth}): "
              f"csum {label}, tshark {other}")
print(f"{cap}: {frames} frames, {agree} verdicts agree, {differ} differ")
sys.exit(1 if differ else 0)
EOF
  done
  exit "$status"
fi

file=${1:-/tmp/ipsum-csum-benchmark.pcap}
runs=${2:-3}
if [ ! -r "$file" ]; then
  echo "compare_tshark: $file not found (run bazel-bin/tools/csum/csum_benchmark once, or pass a capture)" >&2
  exit 2
fi

best() {  # best NAME COMMAND...: the shortest of $runs wall-clock times
  local name=$1; shift
  local min=
  for _ in $(seq "$runs"); do
    local t0 t1
    t0=$(date +%s.%N)
    "$@" >/dev/null 2>&1 || true  # csum exits 1 on bad checksums
    t1=$(date +%s.%N)
    min=$(echo "$t0 $t1 $min" | awk '{d = $2 - $1; if ($3 == "" || d < $3) print d; else print $3}')
  done
  printf '%-8s %8.3f s\n' "$name" "$min"
}

size=$(stat -L -c %s "$file")
echo "capture: $file ($((size / 1000000)) MB), best of $runs runs"
best tshark tshark "${tshark_checks[@]}" -T fields -e tcp.checksum.status \
  -r "$file"
best csum "$csum" verify "$file"
