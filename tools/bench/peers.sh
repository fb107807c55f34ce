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
#   LIB=a tools/bench/peers.sh    (the static archive, linked into the
#                                  harness and called directly)
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
lib=${LIB:-so}
if [[ "$lib" != so && "$lib" != a ]]; then
  echo "peers.sh: LIB must be so or a" >&2
  exit 2
fi
mkdir -p "$work"
bazel build -c opt "//checksum:libipsum_checksum.$lib" >&2
bin=$(bazel info -c opt bazel-bin 2>/dev/null)
rm -f "$work/libipsum_checksum.$lib"
cp -L "$bin/checksum/libipsum_checksum.$lib" "$work/"
chmod u+w "$work/libipsum_checksum.$lib"
how="libipsum_checksum.so, dlopen'ed"
if [[ "$lib" == a ]]; then
  # The harness links an archive and calls project_checksum directly.
  objcopy --redefine-sym ipsum_checksum=project_checksum \
    "$work/libipsum_checksum.a"
  export PROJECT_LDFLAGS="-lstdc++ -lm"
  how="libipsum_checksum.a, linked in"
fi
PEERS_CACHE="$work/cache" PEERS_RESULTS="$work/results" CSB_CPU="$cpu" \
  PROJECT_CHECKSUM_LIB="$work/libipsum_checksum.$lib" "$peers/run.sh" >&2
tools/bench/peers_table.py "$work/results/latest.tsv" \
  --note "$how, pinned to CPU $cpu (taskset), one run of the peers harness"
