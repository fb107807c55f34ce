#!/usr/bin/env bash
# Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
#
# The README's test command: installs what is missing (tools/setup.sh), then
# runs every test on the host, under ASan+UBSan, on big-endian mips64 and on
# aarch64 under QEMU, and replays the fuzz corpora. Exits non-zero if any run
# fails; the last line counts the test targets that passed and failed.
#
#   tools/test.sh                 # everything
#   IPSUM_CONFIGS="host asan" tools/test.sh   # a subset
set -uo pipefail
cd "$(dirname "$0")/.."

tools/setup.sh || exit 1

configs=${IPSUM_CONFIGS:-host asan mips64 aarch64}
passed=0 failed=0 status=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

for config in $configs; do
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
