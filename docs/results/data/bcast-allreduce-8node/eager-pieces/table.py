#!/usr/bin/env python3
"""Table of ab.sh's logs: median run time [ms] per entry, old and new binary
side by side, one row per size and pair.  Usage: table.py OUTDIR"""
import importlib.util
import os
import re
import sys

# The log parser of reduce-8node's forced-algorithm table.
_spec = importlib.util.spec_from_file_location(
    "forced_table", os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../reduce-8node/forced/table.py"))
_forced = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_forced)
medians = _forced.medians

SIZES = {"16K": "64 KiB", "64K": "256 KiB", "256K": "1 MiB", "1M": "4 MiB", "2M": "8 MiB"}


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    d = sys.argv[1]
    runs = {}
    for name in os.listdir(d):
        g = re.match(r"(\w+)-r(\d+)-(old|new)\.log$", name)
        if g:
            runs[(g.group(1), int(g.group(2)), g.group(3))] = medians(os.path.join(d, name))
    algos = []
    for r in runs.values():
        algos += [a for a in r if a not in algos]
    print("| size, pair | " + " | ".join("%s old → new" % a for a in algos) + " |")
    print("| --- |" + " ---: |" * len(algos))
    for s, r in sorted({(k[0], k[1]) for k in runs}, key=lambda k: (list(SIZES).index(k[0]), k[1])):
        o, n = runs.get((s, r, "old"), {}), runs.get((s, r, "new"), {})
        cells = ["%.2f → %.2f" % (o.get(a, float("nan")), n.get(a, float("nan"))) for a in algos]
        print("| %s, %d | %s |" % (SIZES.get(s, s), r, " | ".join(cells)))


main()
