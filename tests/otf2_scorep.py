#!/usr/bin/python3
"""Writes an OTF2 archive the way Score-P records an MPI program, with
python3-otf2's writer (never papcoll's exporter), for tests/otf2_import.sh.

usage: otf2_scorep.py OUTDIR P [--drop RANK]

P ranks on two hosts, each a process location group with its master
thread.  MPI_COMM_WORLD over all ranks and a second communicator over the
even ranks.  Every rank: Enter main; MPI_Barrier; then 5 iterations of a
compute region and MPI_Gather (root 0), MPI_Bcast (root 1) on the world,
MPI_Bcast (root 0) on the even ranks, MPI_Allreduce; Leave main.  Each MPI
call is Enter, MpiCollectiveBegin, MpiCollectiveEnd, Leave, as Score-P
writes it.  Arrivals follow a fixed formula; the expected replay lines go
to OUTDIR/expect-NAME.txt (NAME: MPI_Gather, MPI_Allreduce,
MPI_Bcast-world, MPI_Bcast-even), formatted as `paptrace pat` prints them.
--drop RANK: that rank leaves out its last MPI_Gather (mismatched counts).
"""
import sys

import otf2
from otf2.enums import CollectiveOp, GroupType, LocationGroupType, LocationType, Paradigm, RegionRole

RES = 100_000_000  # ticks per second (Score-P uses the timer's own rate)
ITERS = 5


def arrival(k, j, r):
    """Ticks of rank r's arrival at collective j of iteration k."""
    return 10_000_000 + k * 2_000_000 + j * 300_000 + ((r * 37 + k * 11 + j * 5) % 13) * 1_000 + r * 7


def main():
    args = sys.argv[1:]
    drop = None
    if "--drop" in args:
        i = args.index("--drop")
        drop = int(args[i + 1])
        del args[i:i + 2]
    if len(args) != 2:
        print(__doc__.strip().splitlines()[3], file=sys.stderr)
        return 2
    outdir, p = args[0], int(args[1])
    calls = [("MPI_Gather", RegionRole.COLL_ALL2ONE, CollectiveOp.GATHER, 0, "world"),
             ("MPI_Bcast", RegionRole.COLL_ONE2ALL, CollectiveOp.BCAST, 1, "world"),
             ("MPI_Bcast", RegionRole.COLL_ONE2ALL, CollectiveOp.BCAST, 0, "even"),
             ("MPI_Allreduce", RegionRole.COLL_ALL2ALL, CollectiveOp.ALLREDUCE, None, "world")]
    expect = {"MPI_Gather": [], "MPI_Bcast-world": [], "MPI_Bcast-even": [], "MPI_Allreduce": []}
    with otf2.writer.open(outdir, timer_resolution=RES) as trace:
        d = trace.definitions
        machine = d.system_tree_node("machine")
        hosts = [d.system_tree_node(f"node{h}", class_name="node", parent=machine) for h in range(2)]
        locs = []
        for r in range(p):
            g = d.location_group(f"MPI Rank {r}", location_group_type=LocationGroupType.PROCESS,
                                 system_tree_parent=hosts[r % 2])
            locs.append(d.location("Master thread", type=LocationType.CPU_THREAD, group=g))
        d.group("", group_type=GroupType.COMM_LOCATIONS, paradigm=Paradigm.MPI, members=locs)
        world = d.comm("MPI_COMM_WORLD", group=d.group("", group_type=GroupType.COMM_GROUP, paradigm=Paradigm.MPI,
                                                       members=list(range(p))))
        even_ranks = list(range(0, p, 2))
        even = d.comm("even", group=d.group("", group_type=GroupType.COMM_GROUP, paradigm=Paradigm.MPI,
                                            members=even_ranks), parent=world)
        comms = {"world": world, "even": even}
        main_region = d.region("main", region_role=RegionRole.FUNCTION, paradigm=Paradigm.USER)
        compute = d.region("compute", region_role=RegionRole.FUNCTION, paradigm=Paradigm.USER)
        barrier = d.region("MPI_Barrier", region_role=RegionRole.BARRIER, paradigm=Paradigm.MPI)
        regions = {name: d.region(name, region_role=role, paradigm=Paradigm.MPI) for name, role, _, _, _ in calls}
        for r in range(p):
            w = trace.event_writer_from_location(locs[r])
            w.enter(1_000_000, main_region)
            w.enter(2_000_000 + r, barrier)
            w.mpi_collective_begin(2_000_000 + r)
            w.mpi_collective_end(3_000_000, CollectiveOp.BARRIER, world, 0xFFFFFFFF, 0, 0)
            w.leave(3_000_000, barrier)
            for k in range(ITERS):
                w.enter(10_000_000 + k * 2_000_000 - 500_000, compute)
                w.leave(10_000_000 + k * 2_000_000 - 1, compute)
                for j, (name, _, op, root, cname) in enumerate(calls):
                    if cname == "even" and r % 2:
                        continue
                    if name == "MPI_Gather" and r == drop and k == ITERS - 1:
                        continue
                    a = arrival(k, j, r)
                    w.enter(a, regions[name])
                    w.mpi_collective_begin(a)
                    w.mpi_collective_end(a + 200_000, op, comms[cname], 0xFFFFFFFF if root is None else root,
                                         64, 64)
                    w.leave(a + 200_000, regions[name])
            w.leave(30_000_000, main_region)
    for k in range(ITERS):
        for j, (name, _, _, _, cname) in enumerate(calls):
            ranks = even_ranks if cname == "even" else range(p)
            a = [arrival(k, j, r) for r in ranks]
            key = name if name != "MPI_Bcast" else f"{name}-{cname}"
            expect[key].append(" ".join(f"{(x - min(a)) / RES:.9f}" for x in a))
    for key, lines in expect.items():
        with open(f"{outdir}/expect-{key}.txt", "w") as f:
            f.write("".join(line + "\n" for line in lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
