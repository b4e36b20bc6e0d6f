#!/usr/bin/env python3
"""Table of run.sh's logs: median run time [ms] per bcast, the fastest in
bold, and the ratios of the PAP-aware forms to their baselines.
Usage: table.py OUTDIR"""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
from papbench_summary import medians  # noqa: E402

BASE = ["binomial", "pipelined", "chain", "scatter_allgather"]
PAP = ["sorted", "bsorted", "bchain", "spipelined", "schain"]


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    d = sys.argv[1]
    runs = []
    for name in sorted(os.listdir(d)):
        m = re.match(r"bcast-(\w+)-(u\d+)-(\d+)\.log$", name)
        if m:
            runs.append((m.group(1), m.group(2), m.group(3), medians(os.path.join(d, name))))
    runs.sort(key=lambda r: (r[0] != "16K", r[1], r[2]))
    algos = list(runs[0][3])
    print("| size | pattern, seed | " + " | ".join(algos) +
          " | spipelined / pipelined | schain / chain | best PAP / best base | auto / best base |")
    print("| --- | --- |" + " ---: |" * (len(algos) + 4))
    for size, pat, seed, r in runs:
        best = min(r.values())
        cells = ["**%.2f**" % r[a] if r[a] == best else "%.2f" % r[a] for a in algos]
        bb = min((r[a], a) for a in BASE)
        bp = min((r[a], a) for a in PAP)
        kib = {"16K": "64 KiB", "64K": "256 KiB"}.get(size, size)
        print("| %s | %s, %s | %s | %.3f | %.3f | %s %.3f | %.3f |" % (
            kib, pat, seed, " | ".join(cells), r["spipelined"] / r["pipelined"], r["schain"] / r["chain"],
            bp[1], bp[0] / bb[0], r["auto"] / bb[0]))


if __name__ == "__main__":
    main()
