#!/usr/bin/env python3
"""Median run times of every entry of papbench runs (their .log files'
summary lines), and treedyn's and Clairvoyant's ratios to the fastest
fixed tree (binomial, pipelined, inorder, fibonacci, ring, rabenseifner,
radixk) and to Open MPI (mpi).

  python3 table.py LOG...
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
from papbench_summary import medians  # noqa: E402

FIXED = ["binomial", "pipelined", "inorder", "fibonacci", "ring", "rabenseifner", "radixk"]
ORDER = ["treedyn", "noncommut_treedyn", "clairvoyant"] + FIXED + ["mpi"]


def main():
    if len(sys.argv) < 2 or sys.argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(sys.argv) > 1 else 2
    cols = [a for a in ORDER]
    print("| run | " + " | ".join(cols) + " | fastest fixed tree | treedyn / it | clairvoyant / it | treedyn / mpi |")
    print("| --- |" + " ---: |" * len(cols) + " --- | ---: | ---: | ---: |")
    for path in sys.argv[1:]:
        m = medians(path)
        if not m:
            print(f"| {path} | (no summary lines) |")
            continue
        fixed = {a: m[a] for a in FIXED if a in m}
        best = min(fixed, key=fixed.get) if fixed else None
        lo = min(m.values())
        cell = lambda a: ("**%.2f**" if m.get(a) == lo else "%.2f") % m[a] if a in m else ""
        r = lambda a, b: "%.3f" % (m[a] / m[b]) if a in m and b in m else ""
        name = path.rsplit("/", 1)[-1].replace(".log", "")
        print(f"| {name} | " + " | ".join(cell(a) for a in cols) +
              f" | {best} {fixed[best]:.2f} | {r('treedyn', best)} | {r('clairvoyant', best)} | {r('treedyn', 'mpi')} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
