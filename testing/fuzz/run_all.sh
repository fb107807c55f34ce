#!/usr/bin/env bash
# Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
#
# Builds every fuzz target (Bazel targets tagged `fuzzer`, see
# testing/fuzz/fuzz.bzl) with --config=fuzz and runs each under libFuzzer for a
# fixed time, starting from a copy of its seed corpus testdata/fuzz/<name>/
# in a temporary directory, so the tree is never modified. Exits non-zero if
# any target crashes, leaks, times out or fails to build, printing the path
# of the reproducer, which is kept with the run's log. The CI entry point.
#
#   testing/fuzz/run_all.sh [SECONDS] [LABEL...]
#
# SECONDS is each target's -max_total_time (default 30); LABELs restrict the
# run to some targets (default: all). Environment:
#   IPSUM_FUZZ_JOBS        targets run at once (default 1; the machine is
#                          shared, keep it small);
#   IPSUM_FUZZ_KEEP        a directory to keep each target's grown corpus
#                          and log in (default: deleted unless it failed);
#   IPSUM_BAZEL_STARTUP    Bazel startup flags, e.g.
#                          "--output_base=$HOME/.cache/bazel-ipsum-fuzz".
#
# To reproduce a failure: bazel build --config=fuzz //pkg:name, then
#   bazel-bin/pkg/name REPRODUCER
# or, without clang, add the file to testdata/fuzz/<name>/ and run
#   bazel test //pkg:name_regression
set -uo pipefail
cd "$(dirname "$0")/../.."

seconds=${1:-30}
shift || true
jobs=${IPSUM_FUZZ_JOBS:-1}
read -r -a startup <<<"${IPSUM_BAZEL_STARTUP:-}"
bazel_cmd() { bazel "${startup[@]}" "$@"; }
# --symlink_prefix=/ : leave the bazel-* symlinks of the working tree alone.
flags=(--config=fuzz --symlink_prefix=/)

if [ $# -gt 0 ]; then
  targets=("$@")
else
  # //... would also walk the bazel-* symlinks, which may point into another
  # output base; query the real top-level directories instead.
  universe=()
  # Directories with no BUILD file below them (docs/) hold no package, and
  # a pattern over them is an error.
  for d in */; do
    d=${d%/}
    [ -L "$d" ] && continue
    if [ -n "$(find "$d" \( -name BUILD -o -name BUILD.bazel \) -print -quit)" ]; then
      universe+=("//$d/...")
    fi
  done
  query_log=$(mktemp)
  mapfile -t targets < <(bazel_cmd query --noshow_progress \
    "attr(tags, '\bfuzzer\b', set(${universe[*]}))" 2>"$query_log" | sort)
  if [ ${#targets[@]} -eq 0 ]; then
    grep -vE '^(Loading|INFO)' "$query_log" >&2
  fi
  rm -f "$query_log"
fi
if [ ${#targets[@]} -eq 0 ]; then
  echo "run_all.sh: no fuzz targets found" >&2
  exit 1
fi

echo "=== building ${#targets[@]} fuzz targets with --config=fuzz" >&2
build_log=$(mktemp)
if ! bazel_cmd build "${flags[@]}" "${targets[@]}" >"$build_log" 2>&1; then
  grep -vE '^(Loading|Analyzing|\[[0-9,]+ / [0-9,]+\])' "$build_log" >&2
  rm -f "$build_log"
  echo "run_all.sh: build failed" >&2
  exit 1
fi
rm -f "$build_log"
bin=$(bazel_cmd info "${flags[@]}" bazel-bin 2>/dev/null)

results=$(mktemp -d "${TMPDIR:-/tmp}/ipsum-fuzz.XXXXXX")

# run_one LABEL: runs one target; writes $results/<name>.status.
run_one() {
  local label=$1 pkg name work rc status
  pkg=${label#//}
  pkg=${pkg%%:*}
  name=${label##*:}
  work="$results/$name"
  mkdir -p "$work/corpus"
  if [ -d "testdata/fuzz/$name" ]; then
    cp -R "testdata/fuzz/$name/." "$work/corpus/"
  fi
  # libFuzzer stops itself at -max_total_time; timeout is the backstop for
  # a hang it cannot interrupt.
  (cd "$work" && timeout --signal=KILL $((seconds + 120)) \
    "$bin/$pkg/$name" -max_total_time="$seconds" -timeout=25 \
    -rss_limit_mb=2560 -print_final_stats=1 -artifact_prefix="$work/" \
    "$work/corpus") >"$work/log" 2>&1
  rc=$?
  local stats
  stats=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$work/log" | tail -1 |
    sed -E 's/^#([0-9]+)[[:space:]]+DONE[[:space:]]+/\1 execs, /')
  if [ $rc -eq 0 ]; then
    status="PASS $label: ${stats:-no stats}"
  else
    local repro
    repro=$(grep -oE 'Test unit written to [^ ]+' "$work/log" | tail -1 |
      sed 's/Test unit written to //')
    status="FAIL $label (exit $rc): reproducer ${repro:-none (see log)}, log $work/log"
  fi
  echo "$status" >"$results/$name.status"
  echo "$status" >&2
}

echo "=== running each for ${seconds}s (${jobs} at a time)" >&2
running=0
for label in "${targets[@]}"; do
  run_one "$label" &
  running=$((running + 1))
  if [ "$running" -ge "$jobs" ]; then
    wait -n
    running=$((running - 1))
  fi
done
wait

failed=0
for label in "${targets[@]}"; do
  name=${label##*:}
  if ! grep -q '^PASS' "$results/$name.status" 2>/dev/null; then
    failed=$((failed + 1))
    echo "--- $label: last lines of $results/$name/log" >&2
    tail -n 30 "$results/$name/log" >&2
  fi
done

if [ -n "${IPSUM_FUZZ_KEEP:-}" ]; then
  mkdir -p "$IPSUM_FUZZ_KEEP"
  cp -R "$results/." "$IPSUM_FUZZ_KEEP/"
fi
echo "fuzz: $((${#targets[@]} - failed)) passed, $failed failed"
if [ "$failed" -ne 0 ]; then
  echo "fuzz: artifacts kept in $results" >&2
  exit 1
fi
rm -rf "$results"
exit 0
