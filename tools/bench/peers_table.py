#!/usr/bin/env python3
# Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
"""Renders the peers yardstick's raw results as the README's Markdown table.

  tools/bench/peers_table.py RESULTS.tsv [--cpu "MODEL"] [--note TEXT]

RESULTS.tsv is the `latest.tsv` that the peers harness writes (one row per
case and column: median ns per call over quiet samples, verification,
fallback flag). The table gives ns per call for ipsum (the harness's
`project` column) and each peer of the main flavor, every one timed in the
same process, interleaved; "best peer / ipsum" is the time of the fastest
verified peer over ipsum's (above 1: ipsum is faster). A cell marked x
failed the harness's verification; one marked † had too few quiet samples.
The CPU's model name heads the table (lscpu's, unless --cpu is given).
"""
import argparse
import csv
import subprocess
import sys

ROWS = ["64", "256", "1500", "4096", "16384", "65536", "40/0", "14/3",
        "7/1", "alt 14/3,40/0", "rand 14/3,40/0", "4 MiB", "64 MiB"]
PEERS = ["kernel", "dpdk", "dpdk-ex", "lwip3", "gvisor", "passt",
         "fastcsum-adx", "fastcsum-avx2"]


def cpu_model():
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True,
                             check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return "unknown CPU"
    fields = {}
    for line in out.splitlines():
        key, _, value = line.partition(":")
        fields[key.strip()] = value.strip()
    name = fields.get("Model name", "unknown CPU")
    # A virtual machine often shows a bare vendor name: add what identifies
    # the core.
    if "CPU family" in fields and "Model" in fields:
        name += " (family %s, model %s)" % (fields["CPU family"],
                                            fields["Model"])
    return name


def fmt_ns(ns, in_us):
    if in_us:
        return "%.0f µs" % (ns / 1000)
    return "%.1f" % ns if ns < 100 else "%.0f" % ns


def parse_table_args(doc):
    """Parses a table script's command line: TSV [--cpu MODEL] [--note TEXT],
    described by the first line of `doc`."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("tsv")
    ap.add_argument("--cpu", help="CPU model name (default: lscpu's)")
    ap.add_argument("--note", default="", help="appended to the heading")
    return ap.parse_args()


def main():
    args = parse_table_args(__doc__)

    cells = {}  # (case, column) -> row
    with open(args.tsv) as f:
        for r in csv.DictReader(f, delimiter="\t"):
            if r["flavor"] == "generic":
                continue
            cells[(r["case"], r["column"])] = r
    cases = [c for c in ROWS if (c, "project") in cells]
    if not cases:
        sys.exit("%s: no `project` column: was PROJECT_CHECKSUM_LIB set?"
                 % args.tsv)
    peers = [p for p in PEERS if any((c, p) in cells for c in cases)]

    def in_us(case):  # A row of long inputs is shown in microseconds.
        return any(float(r["median_ns"]) >= 100000
                   for (c, _), r in cells.items() if c == case)

    def cell(case, col):
        r = cells.get((case, col))
        if r is None:
            return "-"
        s = fmt_ns(float(r["median_ns"]), in_us(case))
        if r["verified"] != "1":
            s += " x"
        if r["all_samples_used"] == "1":
            s += " †"
        return s

    print("ns per call (median; µs where marked), %s%s." % (args.cpu or cpu_model(),
                                           ", " + args.note if args.note else ""))
    print()
    head = ["bytes (len/offset)", "**ipsum**"] + ["`%s`" % p for p in peers]
    head += ["best peer / ipsum"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for c in cases:
        ipsum = float(cells[(c, "project")]["median_ns"])
        best = None
        for p in peers:
            r = cells.get((c, p))
            if r is None or r["verified"] != "1" or r["kind"] != "peer":
                continue
            ns = float(r["median_ns"])
            if best is None or ns < best[0]:
                best = (ns, p)
        ratio = "%.2fx (`%s`)" % (best[0] / ipsum, best[1]) if best else "-"
        row = [c, "**%s**" % cell(c, "project")] + [cell(c, p) for p in peers]
        print("| " + " | ".join(row + [ratio]) + " |")


if __name__ == "__main__":
    main()
