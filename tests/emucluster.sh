#!/usr/bin/env bash
# Smoke test of jobs/emucluster: a 3-node emulated cluster, an MPI program
# across it, the shaped rate seen by an 8 MB ping-pong and by two senders into
# one port, and a clean 'down'.  Exit 0 pass, 1 fail, 77 skip (not root, no
# network namespaces, no MPI compiler).  About 10 s.
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
EMU=$ROOT/jobs/emucluster
RATE=200mbit
RATE_BPS=200000000
BYTES=8388608

skip() { echo "SKIP: emucluster: $*"; exit 77; }
fail() { echo "FAIL: emucluster: $*"; exit 1; }

[[ $(id -u) == 0 ]] || skip "needs root"
for c in ip tc; do command -v $c >/dev/null 2>&1 || skip "no '$c' (iproute2)"; done
for c in mpicc mpirun; do command -v $c >/dev/null 2>&1 || skip "no '$c' (Open MPI)"; done
probe=emuprobe$$
ip netns add "$probe" >/dev/null 2>&1 || skip "cannot create network namespaces"
ip netns del "$probe" >/dev/null 2>&1

# A prefix and subnet of our own, so a cluster someone has up is left alone.
PREFIX=et$(($$ % 100000))
SUBNET=10.79.$(($$ % 250)).0/24
TMP=$(mktemp -d)
# shellcheck disable=SC2317  # called by the trap
cleanup() {
    "$EMU" --prefix "$PREFIX" down >/dev/null 2>&1
    rm -rf "$TMP"
}
trap cleanup EXIT

# Identity of each rank, then rank 0 <-> 1 ping-pong, then ranks 1..P-1 all
# sending to rank 0 at once (the root's port is the bottleneck).
cat >"$TMP/emuprobe.c" <<'EOF'
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static double pingpong(char *buf, int n, int rank)
{
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    if (rank == 0) {
        MPI_Send(buf, n, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
        MPI_Recv(buf, n, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
        MPI_Recv(buf, n, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(buf, n, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
    }
    return (MPI_Wtime() - t0) / 2;
}

static double incast(char *buf, int n, int rank, int size)
{
    MPI_Request rq[64];
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    if (rank == 0) {
        for (int i = 1; i < size && i <= 64; i++)
            MPI_Irecv(buf + (size_t)i * n, n, MPI_BYTE, i, 1, MPI_COMM_WORLD, &rq[i - 1]);
        MPI_Waitall(size - 1, rq, MPI_STATUSES_IGNORE);
    } else {
        MPI_Send(buf, n, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
    }
    return MPI_Wtime() - t0;
}

int main(int argc, char **argv)
{
    int rank, size, n = argc > 1 ? atoi(argv[1]) : 1 << 23;
    char host[256] = "?";
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    gethostname(host, sizeof host - 1);
    const char *node = getenv("PAPCOLL_EMU_NODE");
    printf("rank %d of %d host %s node %s\n", rank, size, host, node ? node : "-");
    fflush(stdout);
    char *buf = calloc((size_t)n, rank == 0 ? (size_t)size : 1);
    if (size < 2 || size > 65 || !buf)
        MPI_Abort(MPI_COMM_WORLD, 2);
    pingpong(buf, n, rank); /* warm-up: connections, TCP windows */
    double pp = pingpong(buf, n, rank);
    incast(buf, n, rank, size);
    double in = incast(buf, n, rank, size);
    if (rank == 0)
        printf("pingpong_oneway_s %.6f incast_s %.6f\n", pp, in);
    free(buf);
    MPI_Finalize();
    return 0;
}
EOF
mpicc -O2 -o "$TMP/emuprobe" "$TMP/emuprobe.c" 2>"$TMP/cc.log" ||
    fail "cannot compile the probe program: $(head -n 1 "$TMP/cc.log")"

"$EMU" --prefix "$PREFIX" up 3 --rate "$RATE" --latency 0 --subnet "$SUBNET" \
    >"$TMP/up.log" 2>&1 || fail "up failed: $(tail -n 1 "$TMP/up.log")"

timeout 60 "$EMU" --prefix "$PREFIX" run -- "$TMP/emuprobe" "$BYTES" >"$TMP/run.log" 2>&1 ||
    fail "run failed (rc $?): $(grep -v '^rank ' "$TMP/run.log" | head -n 3 | tr '\n' ' ')"

# All three ranks ran, each on its own node, rank 0 on node 0.
for r in 0 1 2; do
    grep -q "^rank $r of 3 host ${PREFIX}n$r node ${PREFIX}n$r\$" "$TMP/run.log" ||
        fail "rank $r did not report from node ${PREFIX}n$r: $(grep '^rank' "$TMP/run.log" | tr '\n' ';')"
done

read -r pp in < <(awk '/^pingpong_oneway_s/ {print $2, $4}' "$TMP/run.log")
[[ -n ${pp:-} && -n ${in:-} ]] || fail "no timing line in the output"
# One port carries BYTES in pp, the root's port carries 2 x BYTES in the incast.
verdict=$(awk -v pp="$pp" -v in_="$in" -v b="$BYTES" -v r="$RATE_BPS" 'BEGIN {
    t1 = b * 8 / r; t2 = 2 * t1
    printf "%s %.3f %.3f %.3f %.3f\n", (pp >= 0.9 * t1 && in_ >= 0.9 * t2) ? "ok" : "low", pp, 0.9 * t1, in_, 0.9 * t2 }')
read -r ok pps ppmin ins inmin <<<"$verdict"
[[ $ok == ok ]] || fail "transfers faster than the shaped rate: 8 MB one-way ${pps}s" \
    "(want >= ${ppmin}s), 2 senders -> rank 0 ${ins}s (want >= ${inmin}s)"

"$EMU" --prefix "$PREFIX" down >"$TMP/down.log" 2>&1 || fail "down failed: $(tail -n 1 "$TMP/down.log")"
left=$( (ip netns list | awk '{print $1}'; ip -o link show | awk -F': ' '{sub(/@.*/, "", $2); print $2}') |
    grep -E "^${PREFIX}(n[0-9]+|br0|v[0-9]+)\$" | tr '\n' ' ')
[[ -z $left ]] || fail "down left behind: $left"
[[ ! -e /run/papcoll-emucluster/$PREFIX ]] || fail "down left its state directory"

echo "PASS: emucluster: 3 ranks on 3 nodes; 8 MB one-way ${pps}s (>= ${ppmin}s at $RATE);" \
    "2 senders -> rank 0 ${ins}s (>= ${inmin}s); down left nothing"
exit 0
