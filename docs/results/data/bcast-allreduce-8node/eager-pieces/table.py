#!/usr/bin/env python3
"""Table of ab.sh's logs: median run time [ms] per entry, old and new binary
side by side, one row per size and pair.  Usage: table.py OUTDIR"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import pairs  # noqa: E402

SIZES = {"16K": "64 KiB", "64K": "256 KiB", "256K": "1 MiB", "1M": "4 MiB", "2M": "8 MiB"}


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    runs, algos = pairs.load(sys.argv[1], r"(\w+)", str)
    print("| size, pair | " + " | ".join("%s old → new" % a for a in algos) + " |")
    print("| --- |" + " ---: |" * len(algos))
    for s, r in sorted({(k[0], k[1]) for k in runs}, key=lambda k: (list(SIZES).index(k[0]), k[1])):
        print("| %s, %d | %s |" % (SIZES.get(s, s), r, " | ".join(pairs.cells(runs, s, r, algos))))


main()
