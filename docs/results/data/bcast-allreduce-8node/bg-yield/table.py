#!/usr/bin/env python3
"""Table of ab.sh's logs: median run time [ms] per entry, old and new binary
side by side, one row per delay and pair.  Usage: table.py OUTDIR"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import pairs  # noqa: E402


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    runs, algos = pairs.load(sys.argv[1], r"u(\d+)", int)
    print("| delay, pair | " + " | ".join("%s old → new" % a for a in algos) + " | bchain / chain, new |")
    print("| --- |" + " ---: |" * (len(algos) + 1))
    for D, r in sorted({(k[0], k[1]) for k in runs}):
        n = runs.get((D, r, "new"), {})
        ratio = n["bchain"] / n["chain"] if "bchain" in n and "chain" in n else float("nan")
        print("| %d ms, %d | %s | %.3f |" % (D, r, " | ".join(pairs.cells(runs, D, r, algos)), ratio))


main()
