#!/usr/bin/python3
"""Checks an OTF2 archive of `paptrace otf2` against its HDF5 trace, with
readers independent of papcoll (python3-otf2, h5py).

usage: otf2_check.py TRACE.h5 ARCHIVE.otf2

Per location (rank): as many collective Enter, MpiCollectiveBegin,
MpiCollectiveEnd and Leave events as the trace has calls of that rank with
an arrival and an exit; each Enter at the arrival and each Leave at the exit
within the timer's resolution; the op, root and bytes of MpiCollectiveEnd;
the algorithm attribute; the compute phases' Enter and Leave; times never
going back on a location.  Prints one line per failure and exits 1, or
"otf2_check: ok ..." and exits 0.
"""
import math
import sys

import h5py
import otf2

OPS = {"gather": "GATHER", "scatter": "SCATTER", "bcast": "BCAST", "reduce": "REDUCE", "allreduce": "ALLREDUCE"}


def expected_bytes(op, rank, root, p, b):
    """Bytes sent and received as docs/trace.md ("OTF2") counts them."""
    if op in ("gather", "reduce"):
        return b, p * b if rank == root else 0
    if op in ("scatter", "bcast"):
        return (p * b if rank == root else 0), b
    return p * b, p * b


def read_trace(path):
    """{(site name, call, rank): row} and per-rank counts of calls with arrival and exit."""
    calls, counts, compute = {}, {}, {}
    with h5py.File(path, "r", swmr=True) as f:
        p = int(f.attrs["nranks"])
        for sid in f["sites"]:
            g = f["sites"][sid]
            name, op = g.attrs["name"], g.attrs["op"]
            name = name.decode() if isinstance(name, bytes) else name
            op = op.decode() if isinstance(op, bytes) else op
            algos = [a.decode() if isinstance(a, bytes) else a for a in f["algorithms"][op]["name"]]
            ranks, iters = g["ranks"][()], g["iters"][()]
            for k in range(min(len(ranks), len(iters))):
                it = iters[k]
                for i in range(p):
                    r = ranks[k][i]
                    if math.isnan(r["arrival"]) or math.isnan(r["exit"]):
                        continue
                    calls[(name, int(it["iter"]), i)] = dict(
                        op=op, root=int(it["root"]), bytes=int(it["bytes"]), algo=algos[it["algo"]],
                        arrival=float(r["arrival"]), exit=float(r["exit"]), start=float(r["compute_start"]),
                        end=float(r["compute_end"]), p=p)
                    counts[i] = counts.get(i, 0) + 1
                    if not math.isnan(r["compute_start"]) and not math.isnan(r["compute_end"]):
                        compute[i] = compute.get(i, 0) + 1
    return p, calls, counts, compute


def attrs_by_name(ev):
    return {a.name: v for a, v in (ev.attributes or {}).items()}


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    p, calls, counts, compute = read_trace(sys.argv[1])
    bad = []
    n = {}
    with otf2.reader.open(sys.argv[2]) as tr:
        res = tr.definitions.clock_properties.timer_resolution
        tol = 1.0 / res + 1e-12
        last, open_call, open_comp = {}, {}, {}
        for loc, ev in tr.events:
            i = loc._ref  # the location id, the rank (python3-otf2 has no public name for it)
            c = n.setdefault(i, {"enter": 0, "begin": 0, "end": 0, "leave": 0, "centr": 0, "cleave": 0})
            t = ev.time / res
            if ev.time < last.get(i, 0):
                bad.append(f"location {i}: time goes back at {ev.time}")
            last[i] = ev.time
            name = ev.region.name if hasattr(ev, "region") else ""
            if isinstance(ev, otf2.events.Enter) and name.startswith("MPI_"):
                c["enter"] += 1
                a = attrs_by_name(ev)
                key = (a.get("papcoll_site"), a.get("papcoll_call"), i)
                row = calls.get(key)
                open_call[i] = row
                if row is None:
                    bad.append(f"location {i}: Enter of {key} is not a call of the trace")
                    continue
                if abs(t - row["arrival"]) > tol:
                    bad.append(f"{key}: Enter at {t!r}, arrival {row['arrival']!r}")
                if a.get("papcoll_algorithm") != row["algo"]:
                    bad.append(f"{key}: algorithm {a.get('papcoll_algorithm')!r}, trace {row['algo']!r}")
                if name != "MPI_" + row["op"].capitalize():
                    bad.append(f"{key}: region {name}")
            elif isinstance(ev, otf2.events.MpiCollectiveBegin):
                c["begin"] += 1
            elif isinstance(ev, otf2.events.MpiCollectiveEnd):
                c["end"] += 1
                row = open_call.get(i)
                if row is None:
                    continue
                sent, recv = expected_bytes(row["op"], i, row["root"], p, row["bytes"])
                root = None if row["op"] == "allreduce" else row["root"]
                got_root = ev.root if ev.root != 0xFFFFFFFF else None
                if str(ev.collective_op).split(".")[-1] != OPS[row["op"]] or got_root != root or \
                        (ev.size_sent, ev.size_received) != (sent, recv) or ev.communicator.name != "MPI_COMM_WORLD":
                    bad.append(f"location {i}: MpiCollectiveEnd {ev.collective_op} root {ev.root} "
                               f"{ev.size_sent}/{ev.size_received}, trace {row['op']} root {row['root']} {sent}/{recv}")
            elif isinstance(ev, otf2.events.Leave) and name.startswith("MPI_"):
                c["leave"] += 1
                row = open_call.pop(i, None)
                if row is not None and abs(t - row["exit"]) > tol:
                    bad.append(f"location {i}: Leave at {t!r}, exit {row['exit']!r}")
            elif isinstance(ev, otf2.events.Enter) and name.startswith("compute ("):
                c["centr"] += 1
                open_comp[i] = t
            elif isinstance(ev, otf2.events.Leave) and name.startswith("compute ("):
                c["cleave"] += 1
    for i in range(p):
        c = n.get(i, {})
        want = counts.get(i, 0)
        for kind in ("enter", "begin", "end", "leave"):
            if c.get(kind, 0) != want:
                bad.append(f"location {i}: {c.get(kind, 0)} collective {kind} events, trace has {want} calls")
        for kind in ("centr", "cleave"):
            if c.get(kind, 0) != compute.get(i, 0):
                bad.append(f"location {i}: {c.get(kind, 0)} compute {kind} events, trace {compute.get(i, 0)}")
    for line in bad[:20]:
        print("otf2_check: " + line)
    if bad:
        print(f"otf2_check: {len(bad)} mismatches")
        return 1
    print(f"otf2_check: ok, {p} locations, {sum(counts.values())} calls, resolution {res}/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
