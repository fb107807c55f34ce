#!/usr/bin/env bash
# Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
#
# Times tshark's checksum validation against `csum verify` on the same
# capture (wall-clock seconds, best of N runs, output to /dev/null):
#
#   tools/csum/compare_tshark.sh [FILE] [RUNS]
#
# FILE defaults to the csum benchmark's capture, /tmp/ipsum-csum-benchmark.pcap
# (made by running //tools/csum:csum_benchmark once). csum is built with
# --config=opt (set BAZEL to, e.g., "bazel --output_base=DIR" to use another
# output base). If tshark is not installed this says so and exits 0.
set -euo pipefail
if ! command -v tshark >/dev/null 2>&1; then
  echo "compare_tshark: tshark is not installed; nothing to compare"
  exit 0
fi
cd "$(dirname "$0")/../.."
file=${1:-/tmp/ipsum-csum-benchmark.pcap}
runs=${2:-3}
if [ ! -r "$file" ]; then
  echo "compare_tshark: $file not found (run bazel-bin/tools/csum/csum_benchmark once, or pass a capture)" >&2
  exit 2
fi

bazel=${BAZEL:-bazel}
$bazel build --config=opt --ui_event_filters=-info,-stdout,-stderr \
  --noshow_progress //tools/csum >&2
csum=$($bazel info --config=opt bazel-bin 2>/dev/null)/tools/csum/csum

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
best tshark tshark -o tcp.check_checksum:TRUE -o udp.check_checksum:TRUE \
  -o ip.check_checksum:TRUE -T fields -e tcp.checksum.status -r "$file"
best csum "$csum" verify "$file"
