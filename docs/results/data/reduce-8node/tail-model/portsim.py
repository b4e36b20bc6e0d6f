#!/usr/bin/env python3
"""Fluid port model of Clairvoyant's executor on a printed schedule.

Reads a schedule in bin/papcoll-sched's format and runs it the way
reduce_clairvoyant.c does, driven by data: a send of segment s starts once
the rank's earlier events of s are done and its earlier sends to the same
receiver have started.  With --lock a send also waits until every receive
of the rank from an earlier round has arrived (the executor's lock on
balanced plans).

Ports: each rank sends one segment at a time, the oldest started first
(--send fifo, the default) or the one of the lowest round (--send round);
the flows into one receiver share its port fairly (max-min), as TCP
streams from several senders do behind one shaped port.  A segment of s
bytes alone on its ports takes s*beta, then alpha until it is combined
(plus s*gamma).  --chain runs the streamed chain P-1 -> ... -> 0 instead.

  bin/papcoll-sched --procs 8 --segments 33 --elide > s.txt
  python3 portsim.py s.txt [--bytes 2097152] [--lock] [--send fifo|round] [--arrive a0,a1,...]
  python3 portsim.py --chain --procs 8 --segments 33
"""
import argparse
from collections import defaultdict

ALPHA = 50e-6   # s per message
BETA = 8.5e-9   # s per byte (about 940 Mbit/s of TCP payload)
GAMMA = 0.5e-9  # s per byte, int sum


def load(path):
    xs = []
    with open(path) as f:
        for line in f:
            if line.startswith('#'):
                head = dict(w.split('=') for w in line.split() if '=' in w)
                P, N = int(head['P']), int(head['N'])
            elif line.strip():
                t, s, r, g = map(int, line.split())
                xs.append((t, s, r, g))
    return P, N, xs


def chain(P, N):
    return [(g + P - 1 - i, i, i - 1, g) for i in range(1, P) for g in range(N)]


def rates(flows, xs):
    """Max-min fair rates of the flows (one per sender) on receive ports."""
    out, left = {}, set(flows)
    cap = {xs[i][2]: 1 / BETA for i in flows}
    while left:
        n = defaultdict(int)
        for i in left:
            n[xs[i][2]] += 1
        r = min(n, key=lambda p: cap[p] / n[p])
        share = cap[r] / n[r]
        for i in [i for i in left if xs[i][2] == r]:
            out[i] = share
            left.discard(i)
        del cap[r]
    return out


def run(P, xs, seg, lock=False, arrive=None, by_round=False):
    arrive = arrive or [0.0] * P
    seg_ev = defaultdict(list)    # (rank, segment) -> transfers in round order
    to_recv = defaultdict(list)   # (sender, receiver) -> transfers in round order
    recvs = defaultdict(list)     # rank -> its receives in round order
    for i, (t, s, r, g) in enumerate(xs):
        seg_ev[(s, g)].append(i)
        seg_ev[(r, g)].append(i)
        to_recv[(s, r)].append(i)
        recvs[r].append(i)
    for d in (seg_ev, to_recv, recvs):
        for k in d:
            d[k].sort(key=lambda i: xs[i][0])
    started, done = set(), {}     # done: transfer -> time its data is combined
    queue = defaultdict(list)     # sender -> transfers waiting for its port
    flows, now, todo = {}, 0.0, set(range(len(xs)))

    def ready(i):
        t, s, r, g = xs[i]
        if now < arrive[s]:
            return False
        for e in seg_ev[(s, g)]:
            if e == i:
                break
            if xs[e][2] == s and done.get(e, float('inf')) > now:
                return False
            if xs[e][1] == s and e not in started:
                return False
        o = to_recv[(s, r)]
        j = o.index(i)
        if j > 0 and o[j - 1] not in started:
            return False
        if lock and any(done.get(e, float('inf')) > now for e in recvs[s] if xs[e][0] < t):
            return False
        return True

    while todo or flows or any(queue.values()):
        for i in sorted(todo, key=lambda i: xs[i][0]):
            if ready(i):
                started.add(i)
                todo.discard(i)
                queue[xs[i][1]].append(i)
        for s, q in queue.items():
            if q and not any(xs[f][1] == s for f in flows):
                if by_round:
                    q.sort(key=lambda i: xs[i][0])
                flows[q.pop(0)] = seg
        rate = rates(flows, xs)
        nxt = [now + flows[i] / rate[i] for i in flows]
        nxt += [v for v in done.values() if v > now] + [a for a in arrive if a > now]
        if not nxt:
            break
        tn = min(nxt)
        for i in list(flows):
            flows[i] -= rate[i] * (tn - now)
            if flows[i] <= 1e-6:
                del flows[i]
                done[i] = max(tn, arrive[xs[i][2]]) + ALPHA + seg * GAMMA
        now = tn
    return max(done.values()) - min(arrive)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('schedule', nargs='?')
    ap.add_argument('--bytes', type=float, default=2 * 1024 * 1024)
    ap.add_argument('--lock', action='store_true')
    ap.add_argument('--chain', action='store_true')
    ap.add_argument('--send', choices=('fifo', 'round'), default='fifo')
    ap.add_argument('--procs', type=int, default=8)
    ap.add_argument('--segments', type=int, default=33)
    ap.add_argument('--arrive', help='arrival times in ms, comma-separated')
    o = ap.parse_args()
    if o.chain:
        P, N, xs = o.procs, o.segments, chain(o.procs, o.segments)
    elif o.schedule:
        P, N, xs = load(o.schedule)
    else:
        ap.error('a schedule file or --chain')
    arrive = [float(a) / 1e3 for a in o.arrive.split(',')] if o.arrive else None
    if arrive and len(arrive) != P:
        ap.error('--arrive needs %d times' % P)
    seg = o.bytes / N
    rounds = max(x[0] for x in xs) + 1
    print('P=%d N=%d rounds=%d round model %.2f ms, modelled run %.2f ms' %
          (P, N, rounds, rounds * (ALPHA + seg * (BETA + GAMMA)) * 1e3,
           run(P, xs, seg, o.lock, arrive, o.send == 'round') * 1e3))


if __name__ == '__main__':
    main()
