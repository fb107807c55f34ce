#!/usr/bin/env bash
# Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
#
# Builds every benchmark with --config=opt and runs each, pinned to one CPU,
# with repetitions; writes Google Benchmark JSON per binary into OUT_DIR and
# the checksum chart. Run it on a quiet machine: figures are only comparable
# within one run.
#
#   tools/bench/run_all.sh [OUT_DIR]      (default /tmp/ipsum-bench)
#   CPU=1 REPS=5 MIN_TIME=0.2 tools/bench/run_all.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-/tmp/ipsum-bench}
cpu=${CPU:-1}
reps=${REPS:-5}
min_time=${MIN_TIME:-0.1}
mkdir -p "$out"

targets=(
  //checksum:checksum_benchmark
  //checksum:fastpath_benchmark
  //buffer:buffer_benchmark
  //header:header_benchmark
  //tcpip:tcpip_benchmark
  //tools/csum:csum_benchmark
)
bazel build --config=opt "${targets[@]}" >&2
bin=$(bazel info --config=opt bazel-bin 2>/dev/null)
for t in "${targets[@]}"; do
  path=${t#//}
  path=${path/://}
  name=$(basename "$path")
  echo "=== $name" >&2
  taskset -c "$cpu" "$bin/$path" \
    --benchmark_repetitions="$reps" \
    --benchmark_report_aggregates_only=true \
    --benchmark_min_time="$min_time" \
    --benchmark_out="$out/$name.json" --benchmark_out_format=json \
    >"$out/$name.txt"
done
tools/bench/chart.py "$out/checksum_benchmark.json" --png "$out/checksum.png" \
  --title "Internet checksum throughput by implementation (this machine)" \
  --sizes 64,1500,65536 --baseline BM_Memcpy >"$out/checksum_table.md"
echo "results in $out" >&2
