#!/usr/bin/env bash
# Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
#
# Times ipsum_checksum at every length from LO to HI (default 7..64) at the
# OFFSETS given (default 0,1,4), called from the static archive, through the
# dlopen'ed shared library and through the PLT, beside the peers yardstick's
# short-input peers (Linux's csum_partial, linked in and in a library of its
# own; DPDK's inline rte_raw_cksum; fastcsum's ADX routine) and an empty
# function each way; prints tools/bench/short_sweep_table.py's table headed
# by this CPU's model name. The peers yardstick times five of these cases;
# this fills in the rest.
#
#   tools/bench/short_sweep.sh
#   CPU=1 REPS=31 LO=7 HI=64 OFFSETS=0,1,3,4 tools/bench/short_sweep.sh
#
# It links the objects the yardstick built in $PEERS_WORK (default
# ~/.cache/ipsum-peers): run tools/bench/peers.sh once first. Pinned to CPU
# (default 1); it keeps only batches timed while the core was quiet, so run
# nothing else meanwhile. Raw times go to $PEERS_WORK/short_sweep/latest.tsv.
set -euo pipefail
cd "$(dirname "$0")/../.."
peers=${PEERS_DIR:-../shared/peers}
work=${PEERS_WORK:-$HOME/.cache/ipsum-peers}
objs=$work/cache/build
out=$work/short_sweep
cpu=${CPU:-1}
for f in "$objs/kcsum_native.o" "$objs/fastcsum_asm.o" \
  "$peers/third_party/fastcsum/include/fastcsum.h"; do
  if [[ ! -f "$f" ]]; then
    echo "short_sweep.sh: no $f; run tools/bench/peers.sh once first" >&2
    exit 2
  fi
done
if ! pkg-config --exists libdpdk; then
  echo "short_sweep.sh: no libdpdk-dev (tools/bench/peers.sh installs it)" >&2
  exit 2
fi
bazel build -c opt //checksum:libipsum_checksum.a \
  //checksum:libipsum_checksum.so >&2
bin=$(bazel info -c opt bazel-bin 2>/dev/null)
rm -rf "$out"
mkdir -p "$out/lib"
cp -L "$bin/checksum/libipsum_checksum.so" "$out/lib/"
cp -L "$bin/checksum/libipsum_checksum.a" "$out/"
chmod u+w "$out/lib/libipsum_checksum.so" "$out/libipsum_checksum.a"
# The archive's functions renamed, so that the shared library's are the
# ones the PLT column reaches.
objcopy --redefine-sym ipsum_checksum=ipsum_short_sweep_static \
  --redefine-sym ipsum_checksum_copy=ipsum_short_sweep_static_copy \
  "$out/libipsum_checksum.a"
# The yardstick's flags for its native columns.
flags=(-O2 -march=native -falign-loops=32)
gcc "${flags[@]}" -shared -o "$out/kernel.so" "$objs/kcsum_native.o"
gcc "${flags[@]}" -fPIC -shared -o "$out/empty.so" \
  tools/bench/short_sweep_empty.c
gcc "${flags[@]}" -c -o "$out/empty.o" tools/bench/short_sweep_empty.c
read -r -a dpdk <<<"$(pkg-config --cflags-only-I libdpdk)"
g++ -std=gnu++17 "${flags[@]}" "${dpdk[@]}" -include rte_config.h \
  -I. -I"$peers/third_party/fastcsum/include" \
  -o "$out/short_sweep" tools/bench/short_sweep.cc "$out/empty.o" \
  "$objs/kcsum_native.o" "$objs/fastcsum_asm.o" "$out/libipsum_checksum.a" \
  -L"$out/lib" -lipsum_checksum -Wl,-rpath,"$out/lib" -lstdc++ -lm -ldl
taskset -c "$cpu" "$out/short_sweep" "$out/lib/libipsum_checksum.so" \
  "$out/kernel.so" "$out/empty.so" "${REPS:-31}" "${LO:-7}" "${HI:-64}" \
  "${OFFSETS:-0,1,4}" >"$out/latest.tsv"
tools/bench/short_sweep_table.py "$out/latest.tsv" \
  --note "pinned to CPU $cpu (taskset), one process"
