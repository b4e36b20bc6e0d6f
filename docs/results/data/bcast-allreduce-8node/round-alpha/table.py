#!/usr/bin/env python3
"""Table of run.sh's logs: median run time [ms] of every entry per point
(the fastest in bold), the best PAP-aware entry and auto against the best
papcoll baseline and Open MPI's default, and what auto ran (from the
traces, with paptrace at $PAPTRACE, default bin/paptrace).

  python3 table.py OUTDIR
"""
import os
import re
import subprocess
import sys

COLS = ["mpi", "recdoubling", "ring", "rabenseifner", "sorted_ring", "weighted_ring",
        "clairvoyant_bcast", "treedyn_bcast", "auto"]
BASE = ["recdoubling", "ring", "rabenseifner"]
PAP = ["sorted_ring", "weighted_ring", "clairvoyant_bcast", "treedyn_bcast"]
SIZES = {"16K": "64 KiB", "64K": "256 KiB", "256K": "1 MiB"}
PATS = ["u0", "u10", "u50", "s5"]


def medians(path):
    m = {}
    for line in open(path):
        g = re.match(r"summary: op=\S+ algo=(\S+) P=\d+ runtime_median_ms=([\d.]+)", line)
        if g:
            m[g.group(1)] = float(g.group(2))
    return m


def auto_ran(h5):
    tool = os.environ.get("PAPTRACE", "bin/paptrace")
    try:
        out = subprocess.run([tool, "stats", h5, "--site", "papbench-auto"], capture_output=True,
                             text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return "?"
    return ", ".join("%s %s" % (a, n) for a, n in re.findall(r"algorithm (\S+): (\d+) calls", out))


def main():
    if len(sys.argv) != 2 or sys.argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(sys.argv) == 2 else 2
    d = sys.argv[1]
    keys = []
    for name in os.listdir(d):
        g = re.match(r"allreduce-(\w+)-(u\d+|s5)(-\d+)?\.log$", name)
        if g:
            keys.append((g.group(1), g.group(2), g.group(3) or ""))
    keys.sort(key=lambda k: (list(SIZES).index(k[0]), PATS.index(k[1]), k[2]))
    print("| size | pattern, seed | " + " | ".join(COLS) +
          " | best PAP / best base | auto / best base | auto / mpi | auto ran (calls) |")
    print("| --- | --- |" + " ---: |" * (len(COLS) + 3) + " --- |")
    for s, p, seed in keys:
        stem = os.path.join(d, "allreduce-%s-%s%s" % (s, p, seed))
        m = medians(stem + ".log")
        if not m:
            print("| %s | %s, %s | (no summary lines) |" % (SIZES[s], p, seed[1:] or "1"))
            continue
        lo = min(m.values())
        cell = lambda a: (("**%.2f**" if m[a] == lo else "%.2f") % m[a]) if a in m else ""
        base = min((a for a in BASE if a in m), key=m.get)
        pap = min((a for a in PAP if a in m), key=m.get)
        print("| %s | %s, %s | %s | %s %.3f | %.3f | %.3f | %s |" % (
            SIZES[s], p, seed[1:] or "1", " | ".join(cell(a) for a in COLS), pap, m[pap] / m[base],
            m["auto"] / m[base], m["auto"] / m["mpi"], auto_ran(stem + ".h5")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
