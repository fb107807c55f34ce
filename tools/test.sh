#!/usr/bin/env bash
# Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
#
# The README's test command: installs what is missing (tools/setup.sh), then
# runs every test on the host, under ASan+UBSan, on big-endian mips64 and on
# aarch64 under QEMU (every config also replays the fuzz corpora as
# regression tests), then runs every libFuzzer target for a short fixed time
# (tools/fuzz/run_all.sh, IPSUM_FUZZ_SECONDS each, default 30). Exits non-zero
# if any run fails; the last line counts the test targets (and fuzz targets)
# that passed and failed.
#
#   tools/test.sh                 # everything
#   IPSUM_CONFIGS="host asan" tools/test.sh   # a subset
set -uo pipefail
cd "$(dirname "$0")/.."

tools/setup.sh || exit 1

configs=${IPSUM_CONFIGS:-host asan mips64 aarch64 fuzz}
passed=0 failed=0 status=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

for config in $configs; do
  if [ "$config" = fuzz ]; then
    seconds=${IPSUM_FUZZ_SECONDS:-30}
    echo "=== tools/fuzz/run_all.sh $seconds" >&2
    start=$(date +%s)
    tools/fuzz/run_all.sh "$seconds" 2>&1 | tee "$log" >&2
    rc=${PIPESTATUS[0]}
    p=$(grep -cE '^PASS ' "$log")
    f=$(grep -cE '^FAIL ' "$log")
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
    echo "=== fuzz: $p passed, $f failed ($(( $(date +%s) - start )) s)" >&2
    passed=$((passed + p)) failed=$((failed + f))
    [ "$rc" -ne 0 ] && status=1
    continue
  fi
  flags=()
  [ "$config" != host ] && flags=(--config="$config")
  echo "=== bazel test ${flags[*]} //..." >&2
  start=$(date +%s)
  bazel test "${flags[@]}" --keep_going --test_summary=short //... 2>&1 | tee "$log" |
    grep -vE '^(INFO|Loading|Analyzing|\[[0-9,]+ / [0-9,]+\])' >&2
  rc=${PIPESTATUS[0]}
  p=$(grep -cE '^//\S+\s+(\(cached\) )?PASSED' "$log")
  f=$(grep -cE '^//\S+\s+(\(cached\) )?(FAILED|TIMEOUT|NO STATUS|INCOMPLETE|FLAKY)' "$log")
  # A build failure fails the run even when no test target reported.
  if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
  echo "=== $config: $p passed, $f failed ($(( $(date +%s) - start )) s)" >&2
  passed=$((passed + p)) failed=$((failed + f))
  [ "$rc" -ne 0 ] && status=1
done

echo "tests: $passed passed, $failed failed"
exit "$status"
