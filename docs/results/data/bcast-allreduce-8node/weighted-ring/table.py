#!/usr/bin/env python3
"""Tables of run.sh's logs: median run time [ms] per entry.
Usage: table.py OUTDIR [forced|sizes]"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
from papbench_summary import medians  # noqa: E402

NAMES = {1: "basic linear", 2: "nonoverlapping", 3: "recursive doubling", 4: "ring", 5: "segmented ring",
         6: "Rabenseifner"}
PATS = ["u0", "u10", "u50", "s5"]


def load(out, name):
    """A finished run's medians, or None (not run, or still going)."""
    f = os.path.join(out, name + ".log")
    m = medians(f) if os.path.exists(f) else {}
    return m if "weighted_ring" in m else None


def forced(out):
    print("| pattern | K (Open MPI's algorithm) | mpi | ring | sorted_ring | weighted_ring | auto "
          "| weighted_ring / mpi | weighted_ring / ring |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for p in ["u10", "u50", "s5"]:
        for k in range(1, 7):
            m = load(out, "forced-%s-K%d" % (p, k))
            if m is None:
                continue
            w = m["weighted_ring"]
            print("| %s | %d %s | %.2f | %.2f | %.2f | %.2f | %.2f | %.3f | %.3f |" % (
                p, k, NAMES[k], m["mpi"], m["ring"], m["sorted_ring"], w, m["auto"], w / m["mpi"], w / m["ring"]))


def sizes(out):
    cols = None
    for s, label in [("16K", "64 KiB"), ("64K", "256 KiB"), ("256K", "1 MiB"), ("2M", "8 MiB")]:
        for p in PATS:
            m = load(out, "sizes-%s-%s" % (s, p))
            if m is None:
                continue
            if cols is None:
                cols = list(m)
                print("| size | pattern | " + " | ".join(cols) + " | weighted_ring / best other | best |")
                print("| --- | --- | " + " | ".join("---:" for _ in cols) + " | ---: | --- |")
            best = min(m, key=m.get)
            other = min(v for k, v in m.items() if k not in ("weighted_ring", "auto"))
            print("| %s | %s | " % (label, p) + " | ".join(
                ("**%.2f**" if k == best else "%.2f") % m[k] for k in cols) +
                " | %.3f | %s |" % (m["weighted_ring"] / other, best))


if __name__ == "__main__":
    (sizes if len(sys.argv) > 2 and sys.argv[2] == "sizes" else forced)(sys.argv[1])
