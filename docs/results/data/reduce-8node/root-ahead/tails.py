#!/usr/bin/env python3
"""Median tail (last exit - last arrival, ms) of treedyn and pipelined, split by
whether the root was among the last two arrivals, over seeds 1-6 of run.sh.
Usage: tails.py DIR... (run.sh's OUTDIR, or old/ and new/ here: sN-results.csv.gz)"""
import csv
import gzip
import os
import statistics as st
import sys

for d in sys.argv[1:]:
    out = {}
    for s in range(1, 7):
        path = "%s/s%d/results.csv" % (d, s)
        f = open(path) if os.path.exists(path) else gzip.open("%s/s%d-results.csv.gz" % (d, s), "rt")
        for r in csv.DictReader(f):
            if r["algo"] not in ("treedyn", "pipelined"):
                continue
            a = [float(r["a%d" % i]) for i in range(8)]
            e = [float(r["f%d" % i]) for i in range(8)]
            order = sorted(range(8), key=lambda i: a[i])
            k = "root among the last two" if 0 in order[-2:] else "root earlier"
            out.setdefault((r["algo"], k), []).append((max(e) - max(a)) * 1e3)
    print(d, "; ".join("%s, %s: %.2f (n=%d)" % (al, k, st.median(v), len(v)) for (al, k), v in sorted(out.items())))
