#!/usr/bin/env python3
"""Per algorithm over papbench results.csv.gz files: the median run time and
the median tail, a call's run time after its last arrival (max f - max a),
over every call of the files given.

  python3 tails.py u10-32K-[0-9]-results.csv.gz
"""
import csv
import gzip
import statistics
import sys


def main(paths):
    if not paths or paths[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if paths else 2
    run, tail = {}, {}
    for path in paths:
        for r in csv.DictReader(gzip.open(path, "rt")):
            ranks = sum(1 for k in r if k.startswith("a") and k[1:].isdigit())
            last = max(float(r["a%d" % i]) for i in range(ranks))
            run.setdefault(r["algo"], []).append(float(r["runtime"]))
            tail.setdefault(r["algo"], []).append(float(r["runtime"]) - last)
    print("%-12s %6s %14s %15s" % ("algo", "calls", "run median ms", "tail median ms"))
    for algo in run:
        print("%-12s %6d %14.3f %15.3f" % (algo, len(run[algo]), 1e3 * statistics.median(run[algo]),
                                           1e3 * statistics.median(tail[algo])))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
