#!/usr/bin/env python3
"""Issue 11's ratios from papbench logs (summary lines): every entry's median
run time, the best PAP-aware entry against Open MPI's default (mpi) and
against the best baseline, and auto.

  python3 table.py LOG...
"""
import re
import sys

AWARE = {"bcast": ["sorted", "arrival", "bsorted", "bchain"],
         "allreduce": ["sorted_ring", "clairvoyant_bcast", "treedyn_bcast"]}
BASE = {"bcast": ["binomial", "pipelined", "chain", "scatter_allgather"],
        "allreduce": ["recdoubling", "ring", "rabenseifner", "reduce_bcast"]}


def parse(path):
    op, run, el = None, {}, {}
    for line in open(path):
        g = re.match(r"summary: op=(\S+) algo=(\S+) P=\d+ runtime_median_ms=([\d.]+) elapsed_median_ms=([\d.]+)", line)
        if g:
            op = g.group(1)
            run[g.group(2)] = float(g.group(3))
            el[g.group(2)] = float(g.group(4))
    return op, run, el


def main():
    if len(sys.argv) < 2 or sys.argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(sys.argv) > 1 else 2
    for path in sys.argv[1:]:
        op, run, el = parse(path)
        if op is None:
            print(f"{path}: no summary lines")
            continue
        name = path.rsplit("/", 1)[-1].replace(".log", "")
        aw = min((a for a in AWARE[op] if a in run), key=run.get)
        bs = min((a for a in BASE[op] if a in run), key=run.get)
        lo = min(run.values())
        print(f"{name}: " + ", ".join(("**%s %.2f**" if run[a] == lo else "%s %.2f") % (a, run[a]) for a in run))
        print(f"  best PAP-aware {aw} {run[aw]:.2f} (elapsed {el[aw]:.2f}); mpi {run['mpi']:.2f} (elapsed {el['mpi']:.2f}):"
              f" mpi / it {run['mpi'] / run[aw]:.3f}; best baseline {bs} {run[bs]:.2f}: it / baseline {run[aw] / run[bs]:.3f}"
              + (f"; auto {run['auto']:.2f}: auto / best baseline {run['auto'] / run[bs]:.3f}, mpi / auto {run['mpi'] / run['auto']:.3f}" if 'auto' in run else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
