#!/usr/bin/env python3
# Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
"""Writes testdata/checksum/: files with known Internet checksums.

The expected sums in SUMS come from the byte-wise reference below (RFC 1071
section 1: big-endian 16-bit words, an odd last byte padded with zero,
end-around carry), independent of ipsum's C++ code. Deterministic: running it
again rewrites the same bytes.

  tools/testdata/make_checksum_vectors.py testdata/checksum
"""
import os
import random
import struct
import sys


def internet_sum(data: bytes) -> int:
    if len(data) % 2:
        data += b"\0"
    s = 0
    for i in range(0, len(data), 2):
        s += (data[i] << 8) | data[i + 1]
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return s


def vectors():
    rng = random.Random(1071)
    yield "rfc1071-example.bin", bytes([0x00, 0x01, 0xF2, 0x03, 0xF4, 0xF5, 0xF6, 0xF7])
    yield "empty.bin", b""
    yield "one-byte.bin", b"\xab"
    yield "ones-65537.bin", b"\xff" * 65537
    yield "random-1500.bin", bytes(rng.randrange(256) for _ in range(1500))
    # Crosses csum's 256 KiB read blocks, with an odd tail.
    yield "random-300001.bin", bytes(rng.randrange(256) for _ in range(300001))
    # An IPv4 header (RFC 791) with its checksum filled in sums to 0xffff.
    h = bytearray(struct.pack("!BBHHHBBH4s4s", 0x45, 0, 1500, 0x1C46, 0x4000,
                              64, 6, 0, bytes([192, 0, 2, 1]),
                              bytes([198, 51, 100, 7])))
    struct.pack_into("!H", h, 10, ~internet_sum(bytes(h)) & 0xFFFF)
    yield "ipv4-header.bin", bytes(h)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "testdata/checksum"
    os.makedirs(out, exist_ok=True)
    lines = []
    for name, data in sorted(vectors()):
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)
        lines.append("%04x  %s\n" % (internet_sum(data), name))
    with open(os.path.join(out, "SUMS"), "w") as f:
        f.write("# Expected `csum sum` sums (RFC 1071, folded, not complemented).\n")
        f.write("# Made by tools/testdata/make_checksum_vectors.py.\n")
        f.writelines(lines)


if __name__ == "__main__":
    main()
