#!/usr/bin/env bash
# Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
#
# Times ipsum's C API (libipsum_checksum.so) against the other Internet
# checksum implementations of the peers yardstick, side by side in one
# process, and prints the README's Markdown table (tools/bench/peers_table.py)
# headed by this CPU's model name.
#
#   tools/bench/peers.sh                       (PEERS_DIR=../shared/peers)
#   PEERS_DIR=/path/to/peers CPU=1 tools/bench/peers.sh
#
# The harness pins itself to CPU (default 1) and keeps only samples taken
# while the other CPUs were quiet; run nothing else meanwhile. Its cache and
# raw results go to $PEERS_WORK (default ~/.cache/ipsum-peers).
set -euo pipefail
cd "$(dirname "$0")/../.."
peers=${PEERS_DIR:-../shared/peers}
work=${PEERS_WORK:-$HOME/.cache/ipsum-peers}
cpu=${CPU:-1}
if [[ ! -x "$peers/run.sh" ]]; then
  echo "peers.sh: no peers harness at $peers (set PEERS_DIR)" >&2
  exit 2
fi
mkdir -p "$work"
bazel build -c opt //checksum:libipsum_checksum.so >&2
bin=$(bazel info -c opt bazel-bin 2>/dev/null)
cp -fL "$bin/checksum/libipsum_checksum.so" "$work/"
PEERS_CACHE="$work/cache" PEERS_RESULTS="$work/results" CSB_CPU="$cpu" \
  PROJECT_CHECKSUM_LIB="$work/libipsum_checksum.so" "$peers/run.sh" >&2
tools/bench/peers_table.py "$work/results/latest.tsv" \
  --note "pinned to CPU $cpu (taskset), one run of the peers harness"
