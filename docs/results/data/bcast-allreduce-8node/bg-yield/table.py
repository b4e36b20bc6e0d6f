#!/usr/bin/env python3
"""Table of ab.sh's logs: median run time [ms] per entry, old and new binary
side by side, one row per delay and pair.  Usage: table.py OUTDIR"""
import os
import re
import sys

LINE = re.compile(r"^summary: op=\w+ algo=(\S+) P=\d+ runtime_median_ms=([0-9.]+)")


def medians(path):
    out = {}
    with open(path) as f:
        for line in f:
            m = LINE.match(line)
            if m:
                out[m.group(1)] = float(m.group(2))
    return out


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    d = sys.argv[1]
    runs = {}
    for name in os.listdir(d):
        m = re.match(r"u(\d+)-r(\d+)-(old|new)\.log$", name)
        if m:
            runs[(int(m.group(1)), int(m.group(2)), m.group(3))] = medians(os.path.join(d, name))
    algos = []
    for r in runs.values():
        algos += [a for a in r if a not in algos]
    print("| delay, pair | " + " | ".join("%s old → new" % a for a in algos) + " | bchain / chain, new |")
    print("| --- |" + " ---: |" * (len(algos) + 1))
    for D, r in sorted({(k[0], k[1]) for k in runs}):
        o, n = runs.get((D, r, "old"), {}), runs.get((D, r, "new"), {})
        cells = ["%.2f → %.2f" % (o.get(a, float("nan")), n.get(a, float("nan"))) for a in algos]
        ratio = n["bchain"] / n["chain"] if "bchain" in n and "chain" in n else float("nan")
        print("| %d ms, %d | %s | %.3f |" % (D, r, " | ".join(cells), ratio))


main()
