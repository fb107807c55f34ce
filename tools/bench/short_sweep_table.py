#!/usr/bin/env python3
# Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
"""Renders short_sweep's raw times as a Markdown table by size class.

  tools/bench/short_sweep_table.py LATEST.tsv [--cpu "MODEL"] [--note TEXT]

LATEST.tsv has one row per length/offset and one column per way of calling
(tools/bench/short_sweep.cc lists them). Each row of the table is one class
of eight lengths (7-8, 9-16, ..., 57-64) at one offset; each time is the
slowest length of the class. The ratios are the least over the class's
lengths, so a ratio of 1 or more holds at every length:
  linked-in peer / ipsum.a   the fastest of kernel, dpdk and fastcsum-adx
                             (all in the sweep's binary) over the archive;
  kernel.so / ipsum.so       csum_partial over ipsum_checksum, both in a
                             dlopen'ed library called by pointer;
  peer / ipsum.h:const       with the length a constant in the source: the
                             fastest linked-in peer, DPDK's inline sum
                             with that constant included, over the
                             header's ipsum_checksum.
The CPU's model name heads the table (lscpu's, unless --cpu is given).
"""
import csv
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from peers_table import cpu_model, parse_table_args  # noqa: E402

COLUMNS = ["ipsum.a", "ipsum.so", "ipsum.so-plt", "kernel", "kernel.so",
           "dpdk", "fastcsum-adx", "empty", "empty.so", "ipsum.h:const",
           "dpdk:const"]
LINKED_PEERS = ["kernel", "dpdk", "fastcsum-adx"]
CONSTANT_PEERS = LINKED_PEERS + ["dpdk:const"]


def size_class(n):
    """Returns the first and last length of n's class of eight (9-16...)."""
    if n <= 8:
        return (0, 8)
    first = (n - 1) // 8 * 8 + 1
    return (first, first + 7)


def main():
    args = parse_table_args(__doc__)

    rows = {}  # (length, offset) -> {column: ns}
    with open(args.tsv) as f:
        for r in csv.DictReader(f, delimiter="\t"):
            length, offset = (int(x) for x in r["len/offset"].split("/"))
            rows[(length, offset)] = {c: float(r[c]) for c in COLUMNS}
    if not rows:
        sys.exit("%s: no rows" % args.tsv)

    classes = {}  # (class, offset) -> [(length, times)]
    for (length, offset), times in sorted(rows.items()):
        classes.setdefault((size_class(length), offset), []).append(
            (length, times))

    print("ns per call (slowest length of each class; ratios: least over the "
          "class, above 1 means ipsum is faster), %s, %s."
          % (args.cpu or cpu_model(), args.note or "one process"))
    print()
    print("| bytes/offset | " + " | ".join("`%s`" % c for c in COLUMNS) +
          " | linked-in peer / ipsum.a | kernel.so / ipsum.so"
          " | peer / ipsum.h:const |")
    print("|---" * (len(COLUMNS) + 4) + "|")
    for ((first, last), offset), members in sorted(
            classes.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        lengths = [n for n, _ in members]
        label = "%d-%d/%d" % (min(lengths), max(lengths), offset)
        worst = {c: max(t[c] for _, t in members) for c in COLUMNS}
        # The least ratio over the class, with the peer and length it
        # belongs to.
        linked = min((min(t[p] for p in LINKED_PEERS) / t["ipsum.a"], n,
                      min(LINKED_PEERS, key=lambda p: t[p]))
                     for n, t in members)
        shared = min((t["kernel.so"] / t["ipsum.so"], n) for n, t in members)
        constant = min((min(t[p] for p in CONSTANT_PEERS) / t["ipsum.h:const"],
                        n, min(CONSTANT_PEERS, key=lambda p: t[p]))
                       for n, t in members)
        print("| %s | " % label +
              " | ".join("%.2f" % worst[c] for c in COLUMNS) +
              " | %.2fx (`%s` at %d) | %.2fx (at %d) | %.2fx (`%s` at %d) |"
              % (linked[0], linked[2], linked[1], shared[0], shared[1],
                 constant[0], constant[2], constant[1]))


if __name__ == "__main__":
    main()
