#!/usr/bin/env bash
# Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
#
# Installs everything ipsum needs on a Debian 12 (bookworm) machine, from
# Debian's archive only: Bazel and its rule sets, the compilers and QEMU for
# the cross configs, and the source packages Bazel builds Abseil and Google
# Benchmark from. Idempotent, and silent when there is nothing to do.
#
#   tools/setup.sh            # install what is missing
#
# Third-party sources are unpacked outside the tree, into $IPSUM_DEPS
# (default /usr/local/src/ipsum-deps); WORKSPACE reads them from there.
set -euo pipefail

IPSUM_DEPS=${IPSUM_DEPS:-/usr/local/src/ipsum-deps}

PACKAGES=(
  bazel-bootstrap bazel-rules-cc bazel-rules-java bazel-skylib bazel-platforms
  g++ googletest dpkg-dev
  g++-mips64-linux-gnuabi64 g++-aarch64-linux-gnu qemu-user
  clang llvm-14 libclang-rt-14-dev clang-format
  libpcap-dev gnuplot-nox tshark
  iproute2
  iperf3 passt slirp4netns ethtool linux-perf
)

# Source packages: name, version and the directory they unpack to.
SOURCES=(
  "abseil 20220623.1-1+deb12u2 abseil-20220623.1"
  "benchmark 1.7.1-1 benchmark-1.7.1"
)

log() { printf 'setup: %s\n' "$*" >&2; }

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

apt_updated=0
apt_update() {
  if [ "$apt_updated" -eq 0 ]; then
    as_root apt-get update -qq >/dev/null
    apt_updated=1
  fi
}

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done
if [ "${#missing[@]}" -gt 0 ]; then
  log "installing ${missing[*]}"
  apt_update
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
    --no-install-recommends "${missing[@]}" >/dev/null
fi

# Debian's source packages need a deb-src entry for bookworm.
ensure_deb_src() {
  if grep -rqsE '^(deb-src|Types:.*deb-src)' /etc/apt/sources.list /etc/apt/sources.list.d/; then
    return
  fi
  log "adding a deb-src entry for bookworm"
  as_root tee /etc/apt/sources.list.d/ipsum-deb-src.sources >/dev/null <<'SRC'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
  apt_updated=0
}

for entry in "${SOURCES[@]}"; do
  read -r name version dir <<<"$entry"
  dest="$IPSUM_DEPS/$name"
  if [ -f "$dest/.ipsum-version" ] && [ "$(cat "$dest/.ipsum-version")" = "$version" ]; then
    continue
  fi
  log "unpacking Debian source package $name $version into $dest"
  ensure_deb_src
  apt_update
  tmp=$(mktemp -d)
  (cd "$tmp" && apt-get source -qq "$name=$version" >/dev/null 2>&1) || {
    log "apt-get source $name=$version failed; trying the newest $name"
    (cd "$tmp" && apt-get source -qq "$name" >/dev/null 2>&1)
    dir=$(cd "$tmp" && ls -d "$name"-*/ | head -n1)
  }
  as_root mkdir -p "$IPSUM_DEPS"
  as_root rm -rf "$dest"
  as_root mv "$tmp/${dir%/}" "$dest"
  echo "$version" | as_root tee "$dest/.ipsum-version" >/dev/null
  rm -rf "$tmp"
done
