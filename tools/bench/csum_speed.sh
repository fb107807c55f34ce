#!/usr/bin/env bash
# Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
#
# csum's speed on one capture of about 100 MB (the csum benchmark's,
# /tmp/ipsum-csum-benchmark.pcap, written on first use): `csum verify`'s
# work against csum's capture reader alone, and the `csum verify` command
# against tshark's checksum validation of the same file. Prints the
# README's Markdown table, headed by this CPU's model name.
#
#   tools/bench/csum_speed.sh            # REPS=5 rounds, CPU=1, RUNS=3
#
# Each round runs BM_ReadWithReaderOnly and BM_VerifyCapture in one process
# (//tools/csum:csum_benchmark, --config=opt, pinned with taskset); the
# ratio is the median over rounds of verify / reader. The commands are
# timed by wall clock, best of RUNS, output to /dev/null, pinned alike.
# Needs tshark for the last row (it is left out without it).
set -euo pipefail
cd "$(dirname "$0")/../.."
reps=${REPS:-5}
cpu=${CPU:-1}
runs=${RUNS:-3}
file=/tmp/ipsum-csum-benchmark.pcap

bazel build --config=opt --ui_event_filters=-info,-stdout,-stderr \
  --noshow_progress //tools/csum:csum //tools/csum:csum_benchmark >&2
bin=$(bazel info --config=opt bazel-bin 2>/dev/null)/tools/csum

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for i in $(seq "$reps"); do
  taskset -c "$cpu" "$bin/csum_benchmark" \
    --benchmark_filter='^BM_(ReadWithReaderOnly|VerifyCapture)/' \
    --benchmark_min_time=1 --benchmark_format=json >"$out/round$i.json"
done

wall() {  # wall COMMAND...: the shortest of $runs wall-clock seconds
  local min=
  for _ in $(seq "$runs"); do
    local t0 t1
    t0=$(date +%s.%N)
    taskset -c "$cpu" "$@" >/dev/null 2>&1 || true  # csum exits 1 on bad
    t1=$(date +%s.%N)
    min=$(echo "$t0 $t1 $min" |
      awk '{d = $2 - $1; if ($3 == "" || d < $3) print d; else print $3}')
  done
  echo "$min"
}
csum_s=$(wall "$bin/csum" verify "$file")
tshark_s=
if command -v tshark >/dev/null 2>&1; then
  tshark_s=$(wall tshark -o ip.check_checksum:TRUE -o tcp.check_checksum:TRUE \
    -o udp.check_checksum:TRUE -T fields -e tcp.checksum.status -r "$file")
fi

python3 - "$out" "$reps" "$file" "$csum_s" "$tshark_s" <<'EOF'
import json, os, statistics, sys
sys.path.insert(0, os.path.join(os.getcwd(), "tools/bench"))
from peers_table import cpu_model
out, reps, path, csum_s, tshark_s = sys.argv[1:6]
reader, verify, ratio = [], [], []
unit = {"s": 1, "ms": 1e-3, "us": 1e-6, "ns": 1e-9}
for i in range(1, int(reps) + 1):
    times = {b["name"].split("/")[0]: b["real_time"] * unit[b["time_unit"]]
             for b in json.load(open(f"{out}/round{i}.json"))["benchmarks"]}
    r, v = times["BM_ReadWithReaderOnly"], times["BM_VerifyCapture"]
    reader.append(r); verify.append(v); ratio.append(v / r)
model = cpu_model()
mb = os.path.getsize(path) / 1e6
print(f"csum on a {mb:.0f} MB capture of 1514-byte TCP frames ({model}), "
      f"{reps} rounds; medians, seconds per pass.\n")
print("| what | seconds | ratio |")
print("|---|---|---|")
print(f"| capture reader alone | {statistics.median(reader):.3f} | |")
print(f"| `csum verify`'s work (in process) | {statistics.median(verify):.3f} "
      f"| {statistics.median(ratio):.2f}x the reader |")
print(f"| `csum verify FILE` (command, best of runs) | {float(csum_s):.3f} | |")
if tshark_s:
    print(f"| tshark, checksum checks on (best of runs) | {float(tshark_s):.3f} "
          f"| {float(tshark_s) / float(csum_s):.0f}x `csum verify` |")
EOF
