#!/usr/bin/env python3
"""Tables of run.sh's logs (issue 10's goals on cubic nodes): median run
time [ms] per entry, the fastest of each run in bold.
  single: every papcoll reduce and Open MPI's default, rank 7 late by f t_c;
  forced: each forced Open MPI algorithm (K) beside Clairvoyant, treedyn, pipelined;
  u10:    each forced Open MPI algorithm beside treedyn and the fixed trees.
Usage: table.py OUTDIR"""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
from papbench_summary import medians  # noqa: E402

KS = ["1", "2", "3", "4", "5", "6", "7", "adapt"]
TREES = ["binomial", "pipelined", "inorder", "fibonacci", "mpi"]


def cell(v, best):
    return "" if v is None else ("**%.2f**" % v if v == best else "%.2f" % v)


def single(runs):
    pts = sorted(runs, key=lambda p: (p[1] != "32K", p[0]))
    if not pts:
        return
    algos = list(runs[pts[0]])
    print("| f, size | " + " | ".join(algos) + " | clairvoyant / fastest other |")
    print("| --- |" + " ---: |" * (len(algos) + 1))
    for p in pts:
        r = runs[p]
        best = min(r.values())
        other = min((v, a) for a, v in r.items() if a != "clairvoyant")
        print("| f%d, %s | %s | %.3f (%s) |" % (p[0], p[1], " | ".join(cell(r.get(a), best) for a in algos),
                                                r["clairvoyant"] / other[0], other[1]))
    print()


def forced(runs, label, rows, ratio):
    pts = sorted({p[:-1] for p in runs}, key=lambda p: (p[-1] != "32K", p))
    if not pts:
        return
    print("| %s | " % label + " | ".join("K = " + k if k != "adapt" else "adapt" for k in KS) + " |")
    print("| --- |" + " ---: |" * len(KS))
    for p in pts:
        for algo in rows:
            cells = []
            for k in KS:
                r = runs.get(p + (k,), {})
                cells.append(cell(r.get(algo), min(r.values()) if r else None))
            print("| %s %s | %s |" % (", ".join(str(x) for x in p), "Open MPI" if algo == "mpi" else algo,
                                      " | ".join(cells)))
    print()
    for p in pts:
        rs = []
        for k in KS:
            r = runs.get(p + (k,), {})
            if r:
                rs.append("%s %s" % (k, ratio(r)))
        print("  %s: %s" % (", ".join(str(x) for x in p), "; ".join(rs)))
    print()


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    d = sys.argv[1]
    s, fo, u = {}, {}, {}
    for name in sorted(os.listdir(d)):
        path = os.path.join(d, name)
        m = re.match(r"single-f(\d+)-(\w+)\.log$", name)
        if m:
            s[(int(m.group(1)), m.group(2))] = medians(path)
        m = re.match(r"forced-f(\d+)-(\w+)-(\w+)\.log$", name)
        if m:
            fo[("f%s" % m.group(1), m.group(2), m.group(3))] = medians(path)
        m = re.match(r"u10-(\w+)-(\w+)\.log$", name)
        if m:
            u[("u10", m.group(1), m.group(2))] = medians(path)
    single(s)
    forced(fo, "f, size", ["mpi", "clairvoyant", "treedyn", "pipelined"],
           lambda r: "clairvoyant/fastest other %.3f" % (
               r["clairvoyant"] / min(v for a, v in r.items() if a != "clairvoyant")))

    def tree_ratio(r):
        t = min((v, a) for a, v in r.items() if a in TREES)
        return "treedyn/fastest tree %.3f (%s), /radixk %.3f" % (r["treedyn"] / t[0], t[1],
                                                                 r["treedyn"] / r["radixk"])
    forced(u, "pattern, size", ["treedyn"] + TREES + ["radixk"], tree_ratio)


if __name__ == "__main__":
    main()
