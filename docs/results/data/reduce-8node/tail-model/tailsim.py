#!/usr/bin/env python3
"""Round-free port model of a segmented reduce under random arrivals.

Compares, on the same arrivals, papcoll's `pipelined` tree (complete binary
tree in pre-order, rank 0 the root), the streamed `treedyn` chain (non-roots
in arrival order, then the root; the chain's last link ordered ahead) and
two bounds that hold for any algorithm that does not know the arrivals.

Model: every rank has a send port and a receive port (full duplex); one
segment of s bytes occupies the sender's send port and the receiver's
receive port for s*beta, then arrives alpha later; a combine of a segment
takes s*gamma on the receiver.  Data may land at a rank before it arrives
(eager messages wait in its socket).  A treedyn link other than the last
starts no earlier than the receiver's arrival plus the pairing's round trip
(READY to the root's coordinator, ORDER back: 2 alpha + react).  Run time =
the root's last combine - the first arrival (the root finishes last in both).

  python3 tailsim.py [--draws N] [--seed S] [--ranks P] [--alpha A] [--sizes K,..] [--maxdelays MS,..]
"""
import argparse
import heapq
import random

P = 8
ALPHA = 50e-6          # s per message
BETA = 8.5e-9          # s per byte (about 940 Mbit/s of TCP payload)
GAMMA = 0.5e-9         # s per byte, int sum
REACT = 50e-6          # the coordinator's reaction
SEG = 65472            # papcoll's segment_bytes


def preorder_parents(p):
    """Parent of every rank in a complete binary tree numbered in pre-order."""
    heap_pre = {}
    order = []

    def visit(h):
        if h >= p:
            return
        order.append(h)
        visit(2 * h + 1)
        visit(2 * h + 2)

    visit(0)
    for rank, h in enumerate(order):
        heap_pre[h] = rank
    parent = [-1] * p
    for h in range(1, p):
        parent[heap_pre[h]] = heap_pre[(h - 1) // 2]
    return parent


class Ports:
    """Greedy one-port scheduler: a transfer starts when its data is ready
    and both ports are free, in order of readiness."""

    def __init__(self, p):
        self.send = [0.0] * p
        self.recv = [0.0] * p

    def transfer(self, src, dst, ready, nbytes, not_before=0.0):
        start = max(ready, not_before, self.send[src], self.recv[dst])
        end = start + nbytes * BETA
        self.send[src] = end
        self.recv[dst] = end
        return end + ALPHA


def seg_sizes(n):
    k = max(1, -(-n // SEG))
    return [min(SEG, n - i * SEG) for i in range(k)]


def run_pipelined(a, n):
    parent = preorder_parents(P)
    children = [[c for c in range(P) if parent[c] == v] for v in range(P)]
    segs = seg_sizes(n)
    ports = Ports(P)
    # ready[v][k]: v's partial of segment k (own + its subtree) is combined
    ready = [[0.0] * len(segs) for _ in range(P)]
    # process segments in order, deepest ranks first, so children precede parents
    depth = [0] * P
    for v in range(1, P):
        u, d = v, 0
        while parent[u] >= 0:
            u, d = parent[u], d + 1
        depth[v] = d
    events = []
    for k, s in enumerate(segs):
        for v in sorted(range(P), key=lambda x: -depth[x]):
            t = a[v]
            for c in children[v]:
                got = ports.transfer(c, v, ready[c][k], s)
                t = max(t, got) + s * GAMMA
            ready[v][k] = t
    return max(ready[0]) - min(a)


def run_chain(a, n):
    segs = seg_sizes(n)
    order = sorted((r for r in range(1, P)), key=lambda r: a[r])
    chain = order + [0]
    ports = Ports(P)
    prev = [a[chain[0]]] * len(segs)        # the first link's own value
    for i in range(1, len(chain)):
        src, dst = chain[i - 1], chain[i]
        last_link = i == len(chain) - 2 or dst == 0
        # a link is ordered when dst reports (dst's arrival + round trip);
        # the last non-root link and the link to the root are ordered ahead
        not_before = (a[src] + 2 * ALPHA + REACT) if last_link else (a[dst] + 2 * ALPHA + REACT)
        cur = []
        for k, s in enumerate(segs):
            got = ports.transfer(src, dst, prev[k], s, not_before)
            cur.append(max(a[dst], got) + s * GAMMA)
        prev = cur
    return max(prev) - min(a)


def bound_any(a, n):
    """No algorithm that does not know the arrivals beats this: the last
    non-root L's n bytes leave its port after it arrives and must still be
    combined; a last root needs at least one combine of a segment."""
    last = max(range(P), key=lambda r: a[r])
    s0 = seg_sizes(n)[-1]
    if last == 0:
        return a[0] + s0 * GAMMA - min(a)
    return a[last] + n * BETA + ALPHA + s0 * GAMMA - min(a)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--draws", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--ranks", type=int, default=8)
    ap.add_argument("--alpha", type=float, default=50e-6, help="s per message (default 50e-6)")
    ap.add_argument("--sizes", default="128,256,512,1024,2048,4096", help="KiB, comma-separated")
    ap.add_argument("--maxdelays", default="10,50", help="ms, comma-separated")
    o = ap.parse_args()
    global P, ALPHA
    P, ALPHA = o.ranks, o.alpha
    if P < 2:
        ap.error("--ranks must be at least 2")
    rng = random.Random(o.seed)
    print(f"# P={P} alpha={ALPHA*1e6:.0f}us beta={BETA*1e9:.1f}ns/B gamma={GAMMA*1e9:.1f}ns/B "
          f"segment={SEG}B draws={o.draws} seed={o.seed}; times in ms, means over the draws")
    print("# maxdelay  size   pipelined  chain  chain/pipe  bound  bound/pipe")
    for maxdelay in (float(x) * 1e-3 for x in o.maxdelays.split(",")):
        for kib in (int(x) for x in o.sizes.split(",")):
            n = kib * 1024
            tp = tc = tb = 0.0
            for _ in range(o.draws):
                a = [rng.uniform(0, maxdelay) for _ in range(P)]
                tp += run_pipelined(a, n)
                tc += run_chain(a, n)
                tb += bound_any(a, n)
            tp, tc, tb = (x / o.draws * 1e3 for x in (tp, tc, tb))
            print(f"{maxdelay*1e3:6.0f}ms {kib:6d}K {tp:9.2f} {tc:7.2f} {tc/tp:9.3f} {tb:7.2f} {tb/tp:9.3f}")


if __name__ == "__main__":
    main()
