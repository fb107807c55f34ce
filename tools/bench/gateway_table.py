#!/usr/bin/env python3
# Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
"""Rows and the Markdown table of tools/bench/gateway.sh.

  gateway_table.py --row RUN.json --fields REP PATH FAMILY STREAMS SECS
      --cpu TICKS HZ "CLIENT_TIMES" --drops N --dev-drops N --csum-errors N
  gateway_table.py --table RESULTS.tsv [--cpu-model "MODEL"] [--note TEXT]

--row turns one iperf3 -J result into a results.tsv line: bytes received,
bit/s, CPU seconds (TICKS/HZ of the path's long-lived processes plus the
client's `times` line, "0m1.5s 0m2.25s"), retransmissions, the gateway's
and the kernel devices' drops, checksum errors. --table renders every (path, family, streams) case as the median
and range over the repetitions, CPU seconds per GB received, the ratios of
median throughputs against each reference path, and the issue's targets.
"""
import argparse
import csv
import json
import math
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from peers_table import cpu_model  # noqa: E402

REFERENCES = ["kernel", "kernel-nooffload", "copy", "pasta", "slirp4netns"]
# (path, reference, at least): ratios of median Gbit/s in every case.
TARGETS = [("ipsum-snat", "copy", 0.9), ("ipsum-snat", "pasta", 1.5),
           ("ipsum-snat", "slirp4netns", 1.5), ("ipsum-snat", "kernel", 0.6),
           ("ipsum-nooffload", "kernel-nooffload", 0.8)]


def seconds(text):
    """Sums bash `times` fields such as 0m1.250s."""
    total = 0.0
    for m, s in re.findall(r"(\d+)m([\d.]+)s", text):
        total += int(m) * 60 + float(s)
    return total


def row(args):
    with open(args.row) as f:
        d = json.load(f)
    if "error" in d:
        print("iperf3: %s" % d["error"], file=sys.stderr)
        return 1
    end = d["end"]
    ticks, hz, client = args.cpu
    cpu = int(ticks) / int(hz) + seconds(client)
    fields = list(args.fields) + [
        "%d" % end["sum_received"]["bytes"],
        "%.0f" % end["sum_received"]["bits_per_second"],
        "%.3f" % cpu,
        "%d" % end["sum_sent"].get("retransmits", 0),
        str(args.drops), str(args.dev_drops), str(args.csum_errors)]
    print("\t".join(fields))
    return 0


def fmt_range(values, digits=1):
    med = statistics.median(values)
    if len(values) == 1:
        return "%.*f" % (digits, med)
    return "%.*f (%.*f-%.*f)" % (digits, med, digits, min(values), digits,
                                 max(values))


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


def table(args):
    runs = {}  # (path, case) -> rows
    with open(args.table) as f:
        for r in csv.DictReader(f, delimiter="\t"):
            case = "%s ×%s" % (r["family"], r["streams"])
            runs.setdefault((r["path"], case), []).append(r)
    paths, cases = [], []
    for p, c in runs:
        if p not in paths:
            paths.append(p)
        if c not in cases:
            cases.append(c)

    def gbps(p, c):
        rows = runs.get((p, c), [])
        return [float(r["bps"]) / 1e9 for r in rows if float(r["bps"]) > 0]

    def median_gbps(p, c):
        v = gbps(p, c)
        return statistics.median(v) if v else None

    reps = max(len(v) for v in runs.values())
    print("#### iperf3 TCP through a sandbox's network path (%s)" %
          (args.cpu_model or cpu_model()))
    print()
    if args.note:
        print(args.note + ".")
        print()
    print("Gbit/s, median (min-max) of %d; CPU: seconds of every process of "
          "the path per GB received." % reps)
    print()
    print("| path | " + " | ".join(cases) + " | CPU s/GB " +
          " | ".join(cases) + " |")
    print("|---" * (1 + 2 * len(cases)) + "|")
    for p in paths:
        cells = []
        for c in cases:
            v = gbps(p, c)
            cells.append(fmt_range(v) if v else "failed")
        for c in cases:
            rows = [r for r in runs.get((p, c), []) if float(r["bytes"]) > 0]
            per_gb = [float(r["cpu_s"]) / (float(r["bytes"]) / 1e9)
                      for r in rows]
            cells.append("%.2f" % statistics.median(per_gb) if per_gb else "-")
        print("| %s | %s |" % (p, " | ".join(cells)))
    print()

    refs = [r for r in REFERENCES if r in paths]
    if refs:
        print("Ratio of median Gbit/s to each reference: geometric mean over "
              "the cases (lowest-highest case).")
        print()
        print("| path | " + " | ".join("/ " + r for r in refs) + " |")
        print("|---" * (1 + len(refs)) + "|")
        for p in paths:
            cells = []
            for ref in refs:
                ratios = [median_gbps(p, c) / median_gbps(ref, c)
                          for c in cases
                          if median_gbps(p, c) and median_gbps(ref, c)]
                cells.append("%.2f (%.2f-%.2f)" % (geomean(ratios),
                                                   min(ratios), max(ratios))
                             if ratios else "-")
            print("| %s | %s |" % (p, " | ".join(cells)))
        print()

    alts = [p for p in paths if p.endswith("~alt") and p[:-4] in paths]
    if alts:
        print("Paired A/B: main / alt binary, ratio of median Gbit/s per case.")
        print()
        print("| path | " + " | ".join(cases) + " |")
        print("|---" * (1 + len(cases)) + "|")
        for a in alts:
            cells = []
            for c in cases:
                m, b = median_gbps(a[:-4], c), median_gbps(a, c)
                cells.append("%.2f" % (m / b) if m and b else "-")
            print("| %s | %s |" % (a[:-4], " | ".join(cells)))
        print()

    lines = []
    for p, ref, least in TARGETS:
        ratios = {c: median_gbps(p, c) / median_gbps(ref, c) for c in cases
                  if median_gbps(p, c) and median_gbps(ref, c)}
        if not ratios:
            continue
        met = [c for c, x in ratios.items() if x >= least]
        worst = min(ratios, key=ratios.get)
        lines.append("- %s ≥ %.1f× %s: met in %d of %d cases (lowest %.2f, "
                     "%s)" % (p, least, ref, len(met), len(ratios),
                              ratios[worst], worst))
    drops = sum(int(r["drops"]) for v in runs.values() for r in v)
    csum = sum(int(r["csum_errors"]) for v in runs.values() for r in v)
    dev = {}
    for (p, c), v in runs.items():
        dev[p] = dev.get(p, 0) + sum(int(r["dev_drops"]) for r in v)
    failed = sum(1 for v in runs.values() for r in v if float(r["bytes"]) == 0)
    retrans = {}
    for (p, c), v in runs.items():
        retrans[p] = retrans.get(p, 0) + sum(int(r["retransmits"]) for r in v)
    lines.append("- drops counted by the gateway and its links: %d; "
                 "receivers' InCsumErrors change: %d; failed runs: %d" %
                 (drops, csum, failed))
    lines.append("- TCP retransmissions (all runs): " + ", ".join(
        "%s %d" % (p, retrans[p]) for p in paths))
    lines.append("- frames the kernel dropped on the path's devices (all "
                 "runs): " + ", ".join("%s %d" % (p, dev[p]) for p in paths))
    print("Targets:")
    print()
    print("\n".join(lines))
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--row")
    ap.add_argument("--fields", nargs=5)
    ap.add_argument("--cpu", nargs=3)
    ap.add_argument("--drops", type=int, default=0)
    ap.add_argument("--dev-drops", type=int, default=0)
    ap.add_argument("--csum-errors", type=int, default=0)
    ap.add_argument("--table")
    ap.add_argument("--cpu-model", help="CPU model name (default: lscpu's)")
    ap.add_argument("--note", default="")
    args = ap.parse_args()
    if args.row:
        return row(args)
    if args.table:
        return table(args)
    ap.error("--row or --table")
    return 2


if __name__ == "__main__":
    sys.exit(main())
