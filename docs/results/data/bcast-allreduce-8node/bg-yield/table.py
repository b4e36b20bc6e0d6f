#!/usr/bin/env python3
"""Table of ab.sh's logs: median run time [ms] per entry, old and new binary
side by side, one row per delay and pair.  Usage: table.py OUTDIR"""
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
