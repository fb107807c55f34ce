#!/usr/bin/env bash
# Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
#
# The csum command line: output format, exit codes and error messages.
set -uo pipefail
csum=$1
dir=testdata/checksum
fail=0
check() {  # check NAME CONDITION...
  local name=$1; shift
  if "$@"; then echo "ok   $name"; else echo "FAIL $name"; fail=1; fi
}

# sum: one line per input, "<hex>  <implementation>  <path>", in input order.
out=$("$csum" sum "$dir"/*.bin); rc=$?
check "sum exits 0" test "$rc" -eq 0
want=$(grep -v '^#' "$dir/SUMS" | awk -v d="$dir" '{print $1 "  " d "/" $2}')
got=$(echo "$out" | awk '{print $1 "  " $3}')
check "sum matches SUMS" test "$got" = "$want"
check "sum lines have three fields" test -z "$(echo "$out" | awk 'NF != 3')"

# stdin.
got=$("$csum" sum - < "$dir/rfc1071-example.bin")
check "sum - reads stdin" test "${got%% *}" = ddf2

# errors: a missing file is reported, the others still summed, exit 2.
out=$("$csum" sum "$dir/rfc1071-example.bin" /nonexistent/x 2>err); rc=$?
check "missing file exits 2" test "$rc" -eq 2
check "missing file named on stderr" grep -q '/nonexistent/x' err
check "other files still summed" test "${out%% *}" = ddf2

"$csum" >/dev/null 2>err; rc=$?
check "no command exits 2" test "$rc" -eq 2
check "no command prints usage" grep -q '^usage: csum' err
"$csum" frobnicate 2>err; rc=$?
check "unknown command exits 2" test "$rc" -eq 2
check "unknown command named" grep -q "unknown command 'frobnicate'" err
"$csum" sum 2>err; rc=$?
check "sum without files exits 2" test "$rc" -eq 2
"$csum" help >out; rc=$?
check "help exits 0" test "$rc" -eq 0

exit $fail
