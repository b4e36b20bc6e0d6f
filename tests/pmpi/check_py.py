#!/usr/bin/python3
"""check_py: an ordinary mpi4py program -- it knows nothing of papcoll --
that checks the results of its own collectives.  tests/pmpi.sh runs it under
libpapcoll_pmpi.so (mpi4py's C calls reach the interposer's MPI_* entries).

Sections: every op at roots 0 and P-1 (count 0 included); MPI.IN_PLACE;
derived datatypes with different layouts on the root and on the leaves;
user operations (Python functions), commutative and not; a sub-communicator
of Split; non-blocking point-to-point mixed with collectives; several call
sites in a loop; one collective reached from two code paths on different
ranks (mpi4py's method on even ranks, MPI_Allreduce through ctypes on odd
ones: Python lines all reach MPI from the same place in mpi4py, see
docs/pmpi.md).

Prints one "FAIL check_py: ..." line per wrong result and a last line
"check_py: P=N: K checks, F failed"; exits 1 when anything failed.
"""
import ctypes
import sys

import numpy as np
from mpi4py import MPI

COMM = MPI.COMM_WORLD
ME, NP = COMM.Get_rank(), COMM.Get_size()
STATS = {"checks": 0, "failed": 0}
AFF_M = 1000003


def check(ok, what):
    STATS["checks"] += 1
    if not ok:
        STATS["failed"] += 1
        print(f"FAIL check_py: rank {ME}: {what}", flush=True)


def val(r, n):
    return r * 1000003 + np.arange(n, dtype=np.int32)


def basic(root, n):
    mine = val(ME, n)
    blocks = np.full(n * NP, -1, dtype=np.int32)
    COMM.Gather(mine, blocks, root=root)
    if ME == root:
        check(all(np.array_equal(blocks[r * n:(r + 1) * n], val(r, n)) for r in range(NP)), "gather")
    if ME == root:
        blocks = np.concatenate([val(r, n) for r in range(NP)]) if n else blocks
    got = np.zeros(n, dtype=np.int32)
    COMM.Scatter(blocks, got, root=root)
    check(np.array_equal(got, mine), "scatter")
    buf = val(7, n) if ME == root else np.zeros(n, dtype=np.int32)
    COMM.Bcast(buf, root=root)
    check(np.array_equal(buf, val(7, n)), "bcast")
    out = np.zeros(n, dtype=np.int32)
    COMM.Reduce(mine, out, op=MPI.SUM, root=root)
    if ME == root:
        check(np.array_equal(out, sum(val(r, n) for r in range(NP)) if n else out), "reduce sum")
    COMM.Allreduce(mine, out, op=MPI.MAX)
    check(np.array_equal(out, val(NP - 1, n)), "allreduce max")


def in_place():
    n, root = 40, NP // 2
    blocks = np.zeros(n * NP, dtype=np.int32)
    mine = val(ME, n)
    if ME == root:
        blocks[root * n:(root + 1) * n] = mine
    COMM.Gather(MPI.IN_PLACE if ME == root else mine, blocks, root=root)
    if ME == root:
        check(np.array_equal(blocks, np.concatenate([val(r, n) for r in range(NP)])), "in-place gather")
    b = mine.copy()
    COMM.Allreduce(MPI.IN_PLACE, b, op=MPI.MIN)
    check(np.array_equal(b, val(0, n)), "in-place allreduce")
    b = mine.copy()
    COMM.Reduce(MPI.IN_PLACE if ME == root else b, b if ME == root else None, op=MPI.SUM, root=root)
    if ME == root:
        check(np.array_equal(b, sum(val(r, n) for r in range(NP))), "in-place reduce")


def layouts():
    """Root: block r lands at r, r+P, ... (transposed); leaves: every other int."""
    n, root = 16, NP - 1
    strided = MPI.INT.Create_vector(n, 1, 2).Commit()
    column = MPI.INT.Create_vector(n, 1, NP)
    tcol = column.Create_resized(0, MPI.INT.Get_size()).Commit()
    src = np.full(2 * n, -1, dtype=np.int32)
    src[::2] = val(ME, n)
    mat = np.zeros(n * NP, dtype=np.int32)
    COMM.Gather([src, 1, strided], [mat, 1, tcol], root=root)
    if ME == root:
        check(all(np.array_equal(mat[r::NP], val(r, n)) for r in range(NP)), "gather: strided leaves, transposed root")
    got = np.zeros(2 * n, dtype=np.int32)
    COMM.Scatter([mat, 1, tcol], [got, 1, strided], root=root)
    check(np.array_equal(got[::2], val(ME, n)) and not got[1::2].any(), "scatter: transposed root, strided leaves")
    buf = np.zeros(2 * n, dtype=np.int32)
    if ME == root:
        buf[::2] = val(3, n)
    COMM.Bcast([buf, 1, strided] if ME == root else [buf, n, MPI.INT], root=root)
    check(np.array_equal(buf[::2] if ME == root else buf[:n], val(3, n)), "bcast: strided root, contiguous leaves")
    for t in (strided, column, tcol):
        t.Free()


def affine(inmem, outmem, datatype):
    """x -> a x + b mod M composed in rank order (not commutative)."""
    f = np.frombuffer(inmem, dtype=np.int64).reshape(-1, 2)
    g = np.frombuffer(outmem, dtype=np.int64).reshape(-1, 2)
    a = f[:, 0] * g[:, 0] % AFF_M
    b = (g[:, 0] * f[:, 1] + g[:, 1]) % AFF_M
    g[:, 0], g[:, 1] = a, b


def absmax(inmem, outmem, datatype):
    a = np.frombuffer(inmem, dtype=np.int32)
    b = np.frombuffer(outmem, dtype=np.int32)
    b[:] = np.maximum(np.abs(a), np.abs(b))


def affine_on(comm, root, n):
    rank, size = comm.Get_rank(), comm.Get_size()

    def maps(r):
        i = np.arange(n)
        return np.stack([2 + (r * 31 + i) % 97, (r * 17 + 3 * i) % 101], axis=1).astype(np.int64)

    want = np.stack([np.ones(n, np.int64), np.zeros(n, np.int64)], axis=1)
    for r in range(size):
        m = maps(r)
        want = np.stack([want[:, 0] * m[:, 0] % AFF_M, (m[:, 0] * want[:, 1] + m[:, 1]) % AFF_M], axis=1)
    pair = MPI.INT64_T.Create_contiguous(2).Commit()
    op = MPI.Op.Create(affine, commute=False)
    y = np.zeros((n, 2), dtype=np.int64)
    comm.Reduce([maps(rank), n, pair], [y, n, pair], op=op, root=root)
    if rank == root:
        check(np.array_equal(y, want), "reduce with a non-commutative op")
    comm.Allreduce([maps(rank), n, pair], [y, n, pair], op=op)
    check(np.array_equal(y, want), "allreduce with a non-commutative op")
    op.Free()
    pair.Free()


def user_ops():
    affine_on(COMM, NP - 1, 9)
    n = 100
    a = ((ME * 13 + np.arange(n)) % 50).astype(np.int32) * (-1 if ME % 2 else 1)
    b = np.zeros(n, dtype=np.int32)
    op = MPI.Op.Create(absmax, commute=True)
    COMM.Allreduce(a, b, op=op)
    want = np.max([(r * 13 + np.arange(n)) % 50 for r in range(NP)], axis=0)
    check(np.array_equal(b, want), "allreduce with a commutative op")
    op.Free()


def subcomm():
    sub = COMM.Split(ME % 2, -ME)
    out = np.zeros(1, dtype=np.int32)
    sub.Allreduce(np.ones(1, dtype=np.int32), out)
    check(out[0] == sub.Get_size(), "allreduce on a split")
    affine_on(sub, 0, 4)
    sub.Free()


def p2p_mixed():
    right, left = (ME + 1) % NP, (ME + NP - 1) % NP
    got = np.full(2, -1, dtype=np.int32)
    reqs = [COMM.Irecv(got, source=left, tag=7), COMM.Isend(np.array([ME, 11], dtype=np.int32), dest=right, tag=7)]
    s = np.zeros(1, dtype=np.int32)
    COMM.Allreduce(np.ones(1, dtype=np.int32), s)
    check(s[0] == NP, "allreduce between isend and wait")
    MPI.Request.Waitall(reqs)
    check(got[0] == left and got[1] == 11, "ring message")


def loop_sites(iters):
    ok = True
    x, s, blocks = np.zeros(1, np.int32), np.zeros(1, np.int32), np.zeros(NP, np.int32)
    for it in range(iters):
        x[0] = ME + it
        COMM.Allreduce(x, s)
        ok &= s[0] == NP * it + NP * (NP - 1) // 2
        COMM.Gather(x, blocks, root=0)
        ok &= ME != 0 or np.array_equal(blocks, np.arange(NP) + it)
        y = np.array([500 + it if ME == 0 else 0], dtype=np.int32)
        COMM.Bcast(y, root=0)
        ok &= y[0] == 500 + it
        COMM.Scatter(blocks, x, root=0)
        ok &= x[0] == ME + it
    check(bool(ok), "four call sites per iteration")


def divergent():
    """The same MPI_Allreduce from mpi4py on even ranks, through ctypes on odd ones."""
    lib = ctypes.CDLL(None)
    handle = ctypes.c_void_p if MPI._sizeof(MPI.Comm) == ctypes.sizeof(ctypes.c_void_p) else ctypes.c_int
    lib.MPI_Allreduce.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int, handle, handle, handle]
    ok = True
    for k in range(3):
        x, s = np.array([k], dtype=np.int32), np.zeros(1, dtype=np.int32)
        if ME % 2 == 0:
            COMM.Allreduce(x, s)
        else:
            lib.MPI_Allreduce(x.ctypes.data, s.ctypes.data, 1, MPI._handleof(MPI.INT), MPI._handleof(MPI.SUM),
                              MPI._handleof(COMM))
        ok &= s[0] == k * NP
    check(bool(ok), "one collective reached from two code paths")


def main():
    if len(sys.argv) > 1:
        if ME == 0:
            print("usage: check_py  (an mpi4py program checking its own collectives)")
        sys.exit(0 if sys.argv[1] == "--help" else 2)
    for root, n in ((0, 0), (0, 1000), (NP - 1, 3)):
        basic(root, n)
    in_place()
    layouts()
    user_ops()
    subcomm()
    p2p_mixed()
    loop_sites(20)
    divergent()
    fails = COMM.reduce(STATS["failed"], op=MPI.SUM, root=0)
    if ME == 0:
        print(f"check_py: P={NP}: {STATS['checks']} checks, {fails} failed", flush=True)
        sys.exit(1 if fails else 0)


main()
