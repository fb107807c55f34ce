#!/usr/bin/env bash
# Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
#
# Bazel's --run_under launcher for the cross configs: runs a cross-compiled
# binary under QEMU user emulation with the target's libraries from
# /usr/<triple>. Installed as qemu_<cpu>; the name selects the target.
# Anything that is not an ELF file for another machine (a shell script, a
# host x86-64 tool) runs directly.
set -euo pipefail
case "$(basename "$0")" in
  qemu_mips64*) qemu=qemu-mips64 sysroot=/usr/mips64-linux-gnuabi64 ;;
  qemu_aarch64*) qemu=qemu-aarch64 sysroot=/usr/aarch64-linux-gnu ;;
  *) echo "qemu_run.sh: unknown launcher name $0" >&2; exit 2 ;;
esac
# ELF magic, then e_machine (bytes 18-19); x86-64 is 0x3e, little-endian.
header=$(od -An -tx1 -N20 "$1" 2>/dev/null | tr -d ' \n' || true)
if [ "${header:0:8}" = 7f454c46 ] && [ "${header:36:4}" != 3e00 ]; then
  exec "$qemu" -L "$sysroot" "$@"
fi
exec "$@"
