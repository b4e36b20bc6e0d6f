#!/usr/bin/env python3
"""Table of forced.sh's logs: per (f, size) and Open MPI configuration,
the median run time [ms] of Open MPI's reduce and of Clairvoyant, treedyn
and pipelined in the same run.  Usage: table.py OUTDIR"""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
from papbench_summary import medians  # noqa: E402

KS = ["1", "2", "3", "4", "5", "6", "7", "adapt"]


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    d = sys.argv[1]
    runs = {}
    for name in sorted(os.listdir(d)):
        m = re.match(r"f(\d+)-(\w+)-(\w+)\.log$", name)
        if m:
            runs[(int(m.group(1)), m.group(2), m.group(3))] = medians(os.path.join(d, name))
    points = sorted({(f, n) for f, n, _ in runs}, key=lambda p: (p[1] != "32K", p[0]))
    print("| f, size | " + " | ".join("K = " + k if k != "adapt" else "adapt" for k in KS) + " |")
    print("| --- |" + " ---: |" * len(KS))
    for f, n in points:
        for algo in ("mpi", "clairvoyant", "treedyn", "pipelined"):
            cells = []
            for k in KS:
                r = runs.get((f, n, k), {})
                v = r.get(algo)
                best = min(r.values()) if r else None
                cells.append("" if v is None else ("**%.2f**" % v if v == best else "%.2f" % v))
            label = "Open MPI" if algo == "mpi" else algo
            print("| f%d-%s %s | %s |" % (f, n, label, " | ".join(cells)))
    print()
    print("Clairvoyant / Open MPI's forced algorithm (below 1: Clairvoyant faster):")
    for f, n in points:
        rs = []
        for k in KS:
            r = runs.get((f, n, k), {})
            if "mpi" in r and "clairvoyant" in r:
                rs.append("%s %.3f" % (k, r["clairvoyant"] / r["mpi"]))
        print("  f%d-%s: %s" % (f, n, ", ".join(rs)))


if __name__ == "__main__":
    main()
