#!/usr/bin/env python3
"""Tables of run.sh's logs (Clairvoyant's N from the round alpha, 128 KiB, cubic
nodes).
  single: median run time [ms] per entry, the fastest of each run in bold,
          Clairvoyant over the fastest other entry, and the model each run
          measured (its model_cache file: alpha, beta, gamma, xbeta[, round
          alpha]) with the N it gives at 128 KiB, P = 8
          (papcoll__model_segments, cap 65472 bytes);
  forced: per forced Open MPI algorithm (K), Clairvoyant, the best other
          entry, Open MPI, and Clairvoyant over the fastest other.
Usage: table.py OUTDIR..."""
import math
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
from papbench_summary import medians  # noqa: E402

BYTES, CAP = 131072, 65472


def model(path):
    """(alpha used for N [us], N) from a run's model_cache file."""
    if not os.path.exists(path):
        return None
    v = [float(x) for x in open(path).read().split()[1:]]
    a = v[4] if len(v) > 4 and v[4] > 0 else v[0]
    n = int(math.floor(math.sqrt(2 * BYTES * (v[1] + v[2]) / a) + 0.5))
    return 1e6 * a, max(n, -(-BYTES // CAP))


KS = ["1", "2", "3", "4", "5", "6", "7", "adapt"]


def forced(d):
    runs = {}
    for name in os.listdir(d):
        m = re.fullmatch(r"forced-f(\d+)-(\w+)\.log", name)
        if m and medians(os.path.join(d, name)):
            runs[(int(m.group(1)), m.group(2))] = medians(os.path.join(d, name))
    if not runs:
        return
    print("| f | entry | " + " | ".join("K = " + k if k != "adapt" else k for k in KS) + " |")
    print("| --- | --- |" + " ---: |" * len(KS))
    for f in sorted({k[0] for k in runs}):
        rows = {"clairvoyant": [], "best other": [], "Open MPI": [], "clairvoyant / fastest other": []}
        for k in KS:
            r = runs.get((f, k))
            if r is None:
                for v in rows.values():
                    v.append("")
                continue
            other = min(v for a, v in r.items() if a not in ("clairvoyant", "mpi"))
            fastest = min(v for a, v in r.items() if a != "clairvoyant")
            rows["clairvoyant"].append(("**%.2f**" if r["clairvoyant"] < fastest else "%.2f") % r["clairvoyant"])
            rows["best other"].append("%.2f" % other)
            rows["Open MPI"].append("%.2f" % r["mpi"])
            rows["clairvoyant / fastest other"].append("%.3f" % (r["clairvoyant"] / fastest))
        for entry, cells in rows.items():
            print("| f%d | %s | %s |" % (f, entry, " | ".join(cells)))
    print()


def main(d):
    runs = {}
    for name in os.listdir(d):
        m = re.fullmatch(r"(new|old)-f(\d+)\.log", name)
        if m and medians(os.path.join(d, name)):
            runs[(int(m.group(2)), m.group(1))] = (medians(os.path.join(d, name)),
                                                   model(os.path.join(d, name[:-4] + ".cache")))
    if not runs:
        return
    algos = list(next(iter(runs.values()))[0])
    print("| run | alpha for N [us] | N | " + " | ".join(algos) + " | clairvoyant / fastest other |")
    print("| --- | ---: | ---: |" + " ---: |" * (len(algos) + 1))
    for key in sorted(runs, key=lambda k: (k[0], k[1] != "new")):
        r, mod = runs[key]
        best = min(r.values())
        other = min((v, a) for a, v in r.items() if a != "clairvoyant")
        cells = " | ".join(("**%.2f**" if r[a] == best else "%.2f") % r[a] for a in algos)
        print("| %s f%d | %s | %s | %s | %.3f (%s) |" % (
            key[1], key[0], "%.0f" % mod[0] if mod else "", mod[1] if mod else "", cells,
            r["clairvoyant"] / other[0], other[1]))
    print()


if __name__ == "__main__":
    for out in sys.argv[1:] or ["."]:
        print("### " + out + "\n")
        main(out)
        forced(out)
