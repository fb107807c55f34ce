#!/usr/bin/env bash
# Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
#
# Fails if any Bazel target depends on a target of a package above its own
# in ipsum's layering (docs/design.md, "Packages and their dependencies"),
# bottom to top:
#
#   testing  checksum  buffer  header  tcpip  tcpip/link  tools  examples
#
# A package belongs to the layer of its longest listed prefix
# (checksum/bench is checksum's). The root package, testdata/, toolchains/
# and third_party/ hold data and build configuration, no code, and may be
# used from any layer; external repositories are not checked. Reads direct
# dependencies from `bazel query` (implicit ones, the toolchains', left
# out), so a #include without its dependency fails the build, not this.
# .bzl loads follow the same rule. Prints each offending edge; quick (one
# query, no build). tools/test.sh runs it before the host tests.
#
#   tools/check_layering.sh
set -euo pipefail
cd "$(dirname "$0")/.."

layers=(testing checksum buffer header tcpip tcpip/link tools examples)

# rank PACKAGE: the package's layer index; -1 outside the layers (anyone
# may use it); fails for a package no layer or exemption names.
rank() {
  local pkg=$1 best=-2 best_len=-1 i
  case "$pkg" in
    "" | testdata | testdata/* | toolchains | toolchains/* | third_party/*)
      echo -1
      return
      ;;
  esac
  for i in "${!layers[@]}"; do
    local l=${layers[$i]}
    if [[ "$pkg" == "$l" || "$pkg" == "$l"/* ]] && ((${#l} > best_len)); then
      best=$i best_len=${#l}
    fi
  done
  echo "$best"
}

edges=$(bazel query --noshow_progress --noimplicit_deps --output=graph \
  --graph:factored=false 'deps(//..., 1)' 2>/dev/null |
  sed -nE 's/^ *"(\/\/[^"]*)" -> "(\/\/[^"]*)"$/\1 \2/p')
if [ -z "$edges" ]; then
  echo "check_layering: bazel query found no dependencies" >&2
  exit 1
fi

declare -A ranks
bad=0
while read -r from to; do
  # Keyed by the label's package, "//" included (the root's is "//").
  for label in "$from" "$to"; do
    pkg=${label%%:*}
    if [ -z "${ranks[$pkg]+x}" ]; then
      ranks[$pkg]=$(rank "${pkg#//}")
      if [ "${ranks[$pkg]}" -eq -2 ]; then
        echo "check_layering: package $pkg is in no layer; add it to" \
          "tools/check_layering.sh and docs/design.md" >&2
        bad=1
      fi
    fi
  done
  if ((${ranks[${to%%:*}]} > ${ranks[${from%%:*}]})); then
    echo "check_layering: $from depends on $to, a layer above it" >&2
    bad=1
  fi
done <<<"$edges"

# The same rule for build definitions: a BUILD or .bzl file loads .bzl files
# only from its own layer or below (or from the exempt packages).
loads=$(grep -rHoE --include=BUILD.bazel --include=BUILD --include='*.bzl' \
  'load\("//[^:"]*' "${layers[@]}" |
  sed -E 's#^(.*)/[^/]*:load\("(//.*)$#//\1 \2#')
while read -r from to; do
  [ -n "$from" ] || continue
  for pkg in "$from" "$to"; do
    if [ -z "${ranks[$pkg]+x}" ]; then ranks[$pkg]=$(rank "${pkg#//}"); fi
  done
  if ((${ranks[$to]} > ${ranks[$from]})); then
    echo "check_layering: $from loads a .bzl file of $to, a layer above it" >&2
    bad=1
  fi
done <<<"$loads"
if [ "$bad" -ne 0 ]; then exit 1; fi
echo "check_layering: $(wc -l <<<"$edges") dependencies and" \
  "$(wc -l <<<"$loads") .bzl loads read top to bottom"
