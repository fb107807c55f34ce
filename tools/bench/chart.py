#!/usr/bin/env python3
# Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
"""Renders Google Benchmark JSON as a throughput chart and a Markdown table.

  bazel-bin/checksum/checksum_benchmark --benchmark_out=bench.json \
      --benchmark_out_format=json --benchmark_repetitions=5
  tools/bench/chart.py bench.json --png checksum.png --table table.md

Benchmarks are named FAMILY/SERIES/len:N[/off:M] (e.g. BM_Sum/x86_avx2/
len:1500/off:0). The chart plots bytes_per_second against len for every
series at offset 0, one line each, with gnuplot (Debian's gnuplot-nox). With
repetitions, the median aggregate is used. The table gives GB/s per series at
the sizes in --sizes and, with --baseline SERIES, each as a ratio of it.
"""
import argparse
import collections
import json
import os
import re
import subprocess
import sys
import tempfile

NAME = re.compile(r"^(?P<series>.+?)/len:(?P<len>\d+)(?:/off:(?P<off>\d+))?"
                  r"(?:/[a-z_]+:\d+)*(?:_(?P<agg>mean|median|stddev|cv))?$")


def load(path):
    """Returns {series: {(len, off): bytes_per_second}}."""
    with open(path) as f:
        doc = json.load(f)
    runs = collections.defaultdict(dict)
    have_median = any(b.get("aggregate_name") == "median"
                      for b in doc["benchmarks"])
    for b in doc["benchmarks"]:
        if b.get("error_occurred") or "bytes_per_second" not in b:
            continue
        agg = b.get("aggregate_name")
        if have_median and agg != "median":
            continue
        if not have_median and agg:
            continue
        name = b.get("run_name", b["name"])
        m = NAME.match(name)
        if not m:
            continue
        key = (int(m["len"]), int(m["off"] or 0))
        runs[m["series"]][key] = b["bytes_per_second"]
    return runs


def chart(runs, png, title):
    with tempfile.TemporaryDirectory() as tmp:
        plots = []
        for i, (series, points) in enumerate(sorted(runs.items())):
            pts = sorted((l, v) for (l, o), v in points.items() if o == 0)
            if len(pts) < 2:
                continue
            data = os.path.join(tmp, "%d.dat" % i)
            with open(data, "w") as f:
                for l, v in pts:
                    f.write("%d %.6f\n" % (l, v / 1e9))
            plots.append("'%s' using 1:2 with linespoints title '%s'" %
                         (data, series))
        script = "\n".join([
            "set terminal png size 1100,650 noenhanced",
            "set output '%s'" % png,
            "set title '%s'" % title,
            "set logscale x 2",
            "set xlabel 'bytes'",
            "set ylabel 'GB/s'",
            "set key outside right",
            "set grid",
            "plot " + ", ".join(plots),
        ])
        subprocess.run(["gnuplot"], input=script.encode(), check=True)


def table(runs, sizes, baseline):
    cols = sizes
    out = ["| series | " + " | ".join("%s B" % s for s in cols) + " |",
           "| --- |" + " --- |" * len(cols)]
    base = runs.get(baseline, {}) if baseline else {}
    for series, points in sorted(runs.items()):
        cells = []
        for s in cols:
            key = tuple(int(x) for x in s.split("/")) if "/" in s else (int(s), 0)
            v = points.get(key)
            if v is None:
                cells.append("")
                continue
            cell = "%.2f" % (v / 1e9)
            if key in base and base[key]:
                cell += " (%.2fx)" % (v / base[key])
            cells.append(cell)
        out.append("| %s | %s |" % (series, " | ".join(cells)))
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("json")
    ap.add_argument("--png")
    ap.add_argument("--title", default="Internet checksum throughput")
    ap.add_argument("--table")
    ap.add_argument("--sizes", default="64,1500,65536",
                    help="comma-separated len or len/off columns")
    ap.add_argument("--baseline", help="series the table divides by")
    args = ap.parse_args()
    runs = load(args.json)
    if not runs:
        sys.exit("chart.py: no benchmark with bytes_per_second in " + args.json)
    if args.png:
        chart(runs, args.png, args.title)
    t = table(runs, args.sizes.split(","), args.baseline)
    if args.table:
        with open(args.table, "w") as f:
            f.write(t)
    else:
        sys.stdout.write(t)


if __name__ == "__main__":
    main()
