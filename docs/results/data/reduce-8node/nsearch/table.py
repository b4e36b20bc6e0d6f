#!/usr/bin/env python3
"""Tables of run.sh's logs (Clairvoyant's N by search, 128 KiB, cubic nodes):
median run time [ms] per entry, the fastest of each run in bold.
  single: every papcoll reduce and Open MPI's default, rank 7 late by f t_c,
          with the search (search-f*) and with the model's N (model-f*);
  forced: each forced Open MPI algorithm (K) beside Clairvoyant (search),
          rabenseifner, radix-k and pipelined.
Also Clairvoyant's median over the calls after the search's exploration
(calls 13 on: 2 warm-up + 10 measured exploring calls).
Usage: table.py OUTDIR (run.sh's, or this directory: its NAME-results.csv.gz)"""
import csv
import gzip
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
from papbench_summary import medians  # noqa: E402

KS = ["1", "2", "3", "4", "5", "6", "7", "adapt"]
EXPLORING = 10  # measured calls of the exploration (12 calls, 2 of them warm-up)


def cell(v, best):
    return "" if v is None else ("**%.2f**" % v if v == best else "%.2f" % v)


def after_exploration(d, algo="clairvoyant"):
    """Median run time [ms] of algo's calls after the exploration."""
    path, gz = os.path.join(d, "results.csv"), d + "-results.csv.gz"
    if os.path.exists(path):
        f = open(path)
    elif os.path.exists(gz):
        f = gzip.open(gz, "rt")
    else:
        return None
    rows = [r for r in csv.DictReader(f) if r["algo"] == algo]
    rows.sort(key=lambda r: int(r["iter"]))
    rest = [1e3 * float(r["runtime"]) for r in rows[EXPLORING:]]
    return statistics.median(rest) if rest else None


def single(d, runs):
    pts = sorted(runs)
    if not pts:
        return
    algos = list(runs[pts[0]])
    print("| run | " + " | ".join(algos) + " | clairvoyant / fastest other | after exploration / fastest other |")
    print("| --- |" + " ---: |" * (len(algos) + 2))
    for p in pts:
        r = runs[p]
        best = min(r.values())
        other = min((v, a) for a, v in r.items() if a != "clairvoyant")
        ax = after_exploration(os.path.join(d, "%s-f%d" % (p[1], p[0]))) if p[1] == "search" else None
        print("| %s f%d | %s | %.3f (%s) | %s |" % (p[1], p[0], " | ".join(cell(r.get(a), best) for a in algos),
                                                 r["clairvoyant"] / other[0], other[1],
                                                 "%.3f" % (ax / other[0]) if ax else ""))
    print()


def forced(d, runs):
    fs = sorted({p[0] for p in runs})
    if not fs:
        return
    print("| f | entry | " + " | ".join("K = " + k if k != "adapt" else "adapt" for k in KS) + " |")
    print("| --- | --- |" + " ---: |" * len(KS))
    algos = ["clairvoyant", "rabenseifner", "radixk", "pipelined", "mpi"]
    for f in fs:
        for a in algos:
            cells = []
            for k in KS:
                r = runs.get((f, k), {})
                cells.append(cell(r.get(a), min(r.values()) if r else None))
            print("| f%d | %s | %s |" % (f, "Open MPI" if a == "mpi" else a, " | ".join(cells)))
        cells = []
        for k in KS:
            r = runs.get((f, k), {})
            if r:
                other = min(v for a, v in r.items() if a != "clairvoyant")
                cells.append("%.3f" % (r["clairvoyant"] / other))
            else:
                cells.append("")
        print("| f%d | clairvoyant / fastest other | %s |" % (f, " | ".join(cells)))
    print()


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    d = sys.argv[1]
    s, fo = {}, {}
    for name in sorted(os.listdir(d)):
        path = os.path.join(d, name)
        m = re.match(r"(search|model)-f(\d+)\.log$", name)
        if m:
            s[(int(m.group(2)), m.group(1))] = medians(path)
        m = re.match(r"forced-f(\d+)-(\w+)\.log$", name)
        if m:
            fo[(int(m.group(1)), m.group(2))] = medians(path)
    single(d, s)
    forced(d, fo)


if __name__ == "__main__":
    main()
