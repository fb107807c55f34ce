#!/usr/bin/env bash
# Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
#
# The README's test command: installs what is missing (tools/setup.sh), then
# checks the layering of the packages (tools/check_layering.sh) and runs
# every test on the host, once more optimized (opt: what the library
# and csum ship as), under ASan+UBSan, under ThreadSanitizer (tsan: the
# tests tagged "tsan", those whose threads share buffers, reference counts
# or the dispatcher's first use; tag any new test that starts threads), on
# big-endian mips64 and on aarch64 under QEMU (every config also replays the
# fuzz corpora as regression tests), then runs every libFuzzer target for a
# short fixed time (testing/fuzz/run_all.sh, IPSUM_FUZZ_SECONDS each, default
# 30). Exits non-zero if any run fails. The last line is
#
#   tests: N passed, N failed, N skipped
#
# where passed and failed count test targets, once per config (fuzz targets
# included), and skipped counts the test cases that passing targets skipped
# (GTEST_SKIP, e.g. an instruction set this CPU lacks), each named above it.
#
#   tools/test.sh                 # everything
#   IPSUM_CONFIGS="host asan" tools/test.sh   # a subset
set -uo pipefail
cd "$(dirname "$0")/.."

tools/setup.sh || exit 1

configs=${IPSUM_CONFIGS:-host opt asan tsan mips64 aarch64 fuzz}
passed=0 failed=0 skipped=0 status=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

# count_skipped prints, to stderr, each test case that a passing target of
# the last run skipped, and echoes how many there were. Reads GoogleTest's
# XML reports under the config's bazel-testlogs ($1).
count_skipped() {
  local testlogs=$1 n=0 target xml name
  for target in $(grep -oE '^//\S+\s+(\(cached\) )?PASSED' "$log" |
                  awk '{print $1}'); do
    xml="$testlogs/$(echo "${target#//}" | tr : /)/test.xml"
    [ -f "$xml" ] || continue
    while read -r name; do
      [ -n "$name" ] || continue
      echo "SKIPPED $target $name" >&2
      n=$((n + 1))
    done < <(grep -oE '<testcase name="[^"]*"[^>]*result="skipped"[^>]*classname="[^"]*"' "$xml" |
             sed -E 's/^<testcase name="([^"]*)".*classname="([^"]*)"$/\2.\1/')
  done
  echo "$n"
}

for config in $configs; do
  if [ "$config" = fuzz ]; then
    seconds=${IPSUM_FUZZ_SECONDS:-30}
    echo "=== testing/fuzz/run_all.sh $seconds" >&2
    start=$(date +%s)
    testing/fuzz/run_all.sh "$seconds" 2>&1 | tee "$log" >&2
    rc=${PIPESTATUS[0]}
    p=$(grep -cE '^PASS ' "$log")
    f=$(grep -cE '^FAIL ' "$log")
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
    echo "=== fuzz: $p passed, $f failed ($(( $(date +%s) - start )) s)" >&2
    passed=$((passed + p)) failed=$((failed + f))
    [ "$rc" -ne 0 ] && status=1
    continue
  fi
  if [ "$config" = host ]; then
    # The package graph reads top to bottom (docs/design.md): one query.
    if tools/check_layering.sh; then
      passed=$((passed + 1))
    else
      failed=$((failed + 1)) status=1
    fi
  fi
  flags=()
  [ "$config" != host ] && flags=(--config="$config")
  testlogs=$(bazel info "${flags[@]}" bazel-testlogs 2>/dev/null)
  case "$config" in
    # opt runs the host's tests; building every benchmark optimized as well
    # would only add time.
    opt) flags+=(--build_tests_only) ;;
    # ThreadSanitizer's runtime in GCC 12 maps its shadow memory at fixed
    # addresses, which a kernel with more than 28 bits of mmap randomness
    # (vm.mmap_rnd_bits, 32 on some 6.x kernels) can already have given
    # away ("FATAL: ThreadSanitizer: unexpected memory mapping"); the tests
    # therefore run with address randomization off, under `setarch -R`, as
    # a per-process setting that leaves the machine's sysctl alone.
    tsan) flags+=(--build_tests_only --test_tag_filters=tsan
                  "--run_under=setarch -R") ;;
  esac
  echo "=== bazel test ${flags[*]} //..." >&2
  start=$(date +%s)
  bazel test "${flags[@]}" --keep_going --test_summary=short //... 2>&1 | tee "$log" |
    grep -vE '^(INFO|Loading|Analyzing|\[[0-9,]+ / [0-9,]+\])' >&2
  rc=${PIPESTATUS[0]}
  p=$(grep -cE '^//\S+\s+(\(cached\) )?PASSED' "$log")
  f=$(grep -cE '^//\S+\s+(\(cached\) )?(FAILED|TIMEOUT|NO STATUS|INCOMPLETE|FLAKY)' "$log")
  # A build failure fails the run even when no test target reported.
  if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
  s=$(count_skipped "$testlogs")
  echo "=== $config: $p passed, $f failed, $s skipped ($(( $(date +%s) - start )) s)" >&2
  passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
  [ "$rc" -ne 0 ] && status=1
done

echo "tests: $passed passed, $failed failed, $skipped skipped"
exit "$status"
