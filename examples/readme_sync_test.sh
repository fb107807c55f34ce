#!/usr/bin/env bash
# Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
#
# Fails unless the README's example shows exactly the code that
# checksum_example_test compiles: the lines between "// BEGIN README" and
# "// END README" of checksum_example.cc, without their indentation, must
# appear in the README's C++ code block that starts with the same includes.
set -euo pipefail
readme=$1
example=$2
want=$(mktemp)
got=$(mktemp)
trap 'rm -f "$want" "$got"' EXIT
sed -n '/\/\/ BEGIN README/,/\/\/ END README/p' "$example" |
  sed '1d;$d' | sed 's/^  //' >"$want"
# The README's C++ blocks, fences removed.
awk '/^```cpp$/ {on = 1; next} /^```$/ {on = 0} on' "$readme" >"$got"
if [[ ! -s "$want" ]]; then
  echo "readme_sync_test: no BEGIN README / END README lines in $example" >&2
  exit 1
fi
# Every line of the example's region, in order, as one contiguous run.
# A quoted expansion inside [[ == ]] matches literally, not as a pattern.
if [[ "$(<"$got")" != *"$(<"$want")"* ]]; then
  echo "readme_sync_test: README.md does not show $example's example:" >&2
  diff -u "$want" "$got" >&2 || true
  exit 1
fi
echo "README's example matches $example"
