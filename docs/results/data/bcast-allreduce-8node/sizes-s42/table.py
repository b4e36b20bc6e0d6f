#!/usr/bin/env python3
"""Tables of run.sh's logs: median run time [ms] of every entry per size and
pattern (the fastest in bold), and for each op the ratios the goals of issue
11 name: the best PAP-aware entry against every Open MPI entry and the best
papcoll baseline, and auto against the best baseline.

  python3 table.py OUTDIR
"""
import os
import re
import sys

BASE = {"bcast": ["binomial", "pipelined", "chain", "scatter_allgather"],
        "allreduce": ["recdoubling", "ring", "rabenseifner", "reduce_bcast"]}
PAP = {"bcast": ["sorted", "arrival", "bsorted", "bchain"],
       "allreduce": ["sorted_ring", "clairvoyant_bcast", "treedyn_bcast"]}
SIZES = {"16K": "64 KiB", "64K": "256 KiB", "256K": "1 MiB", "1M": "4 MiB", "2M": "8 MiB"}
PATS = ["u0", "u10", "u50", "s5"]


def summaries(path):
    run, el = {}, {}
    for line in open(path):
        g = re.match(r"summary: op=\S+ algo=(\S+) P=\d+ runtime_median_ms=([\d.]+) "
                     r"elapsed_median_ms=([\d.]+)", line)
        if g:
            run[g.group(1)] = float(g.group(2))
            el[g.group(1)] = float(g.group(3))
    return run, el


def main():
    if len(sys.argv) != 2 or sys.argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(sys.argv) == 2 else 2
    d = sys.argv[1]
    runs = {}
    for name in os.listdir(d):
        g = re.match(r"(bcast|allreduce)-(\w+)-(u\d+|s5)\.log$", name)
        if g:
            runs[(g.group(1), g.group(2), g.group(3))] = summaries(os.path.join(d, name))
    for op in ("bcast", "allreduce"):
        keys = sorted((k for k in runs if k[0] == op),
                      key=lambda k: (list(SIZES).index(k[1]), PATS.index(k[2])))
        if not keys:
            continue
        cols = ["mpi"] + BASE[op] + PAP[op] + ["auto"]
        print("\n%s, median run time [ms]\n" % op)
        print("| size | pattern | " + " | ".join(cols) +
              " | best PAP / mpi | best PAP / best base | auto / best base | auto elapsed / mpi elapsed |")
        print("| --- | --- |" + " ---: |" * (len(cols) + 4))
        for k in keys:
            m, el = runs[k]
            if not m:
                print("| %s | %s | (no summary lines) |" % (SIZES.get(k[1], k[1]), k[2]))
                continue
            lo = min(m.values())
            cell = lambda a: (("**%.2f**" if m[a] == lo else "%.2f") % m[a]) if a in m else ""
            base = min((a for a in BASE[op] if a in m), key=m.get)
            pap = min((a for a in PAP[op] if a in m), key=m.get)
            r = lambda a, b: "%.3f" % (m[a] / m[b]) if a in m and b in m else ""
            rel = "%.3f" % (el["auto"] / el["mpi"]) if "auto" in el and "mpi" in el else ""
            print("| %s | %s | %s | %s %s | %s %s | %s | %s |" % (
                SIZES.get(k[1], k[1]), k[2], " | ".join(cell(a) for a in cols),
                pap, r(pap, "mpi"), pap, r(pap, base), r("auto", base), rel))
    return 0


if __name__ == "__main__":
    sys.exit(main())
