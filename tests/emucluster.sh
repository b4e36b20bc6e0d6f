#!/usr/bin/env bash
# Smoke test of jobs/emucluster: one-line errors (not root, no iproute2, half
# up, latency without netem), a 3-node emulated cluster, an MPI program across
# it, the shaped rate seen by an 8 MB ping-pong and by two senders into one
# port, 'status --brief', and a clean 'down'.  Where the kernel has netem, a
# 2-node cluster with 2 ms latency must show it on small messages.
# Exit 0 pass, 1 fail, 77 skip (not root, no network namespaces, no MPI
# compiler).  About 15 s.
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

# expect_error TEXT COMMAND...: the command fails with one line containing TEXT.
expect_error() {
    local want=$1 out
    shift
    out=$("$@" 2>&1) && fail "'$*' succeeded; expected an error '$want'"
    [[ $(wc -l <<<"$out") == 1 && $out == *"$want"* ]] ||
        fail "'$*': expected one line containing '$want', got: $(head -n 3 <<<"$out" | tr '\n' ' ')"
}

# nothing_left: no namespace, link or state of our prefix remains.
nothing_left() {
    local left
    left=$( (ip netns list | awk '{print $1}'; ip -o link show | awk -F': ' '{sub(/@.*/, "", $2); print $2}') |
        grep -E "^${PREFIX}(n[0-9]+|br0|v[0-9]+)\$" | tr '\n' ' ')
    [[ -z $left ]] || fail "$1 left behind: $left"
    [[ ! -e /run/papcoll-emucluster/$PREFIX ]] || fail "$1 left its state directory"
}

expect_error "must run as root" \
    setpriv --reuid=65534 --regid=65534 --clear-groups "$EMU" --prefix "$PREFIX" status
# A PATH with what the script needs besides iproute2.
mkdir "$TMP/bin"
for c in bash env dirname readlink id awk grep; do ln -s "$(command -v $c)" "$TMP/bin/$c"; done
expect_error "'ip' not found" env PATH="$TMP/bin" "$EMU" --prefix "$PREFIX" up 2
ip netns add "${PREFIX}n0"
expect_error "half up" "$EMU" --prefix "$PREFIX" up 3 --subnet "$SUBNET"
[[ $("$EMU" --prefix "$PREFIX" status --brief) == "state=half-up prefix=$PREFIX" ]] ||
    fail "status --brief does not report the half-up cluster"
"$EMU" --prefix "$PREFIX" down >/dev/null 2>&1 || fail "down of a half-up cluster failed"
nothing_left "down of a half-up cluster"

expect_error "bad --cc" "$EMU" --prefix "$PREFIX" up 2 --cc 'cu bic' --subnet "$SUBNET"
expect_error "'nosuchcc' is not available" "$EMU" --prefix "$PREFIX" up 2 --cc nosuchcc --subnet "$SUBNET"
nothing_left "up with an unknown --cc"

# The nodes run cubic (the default), whatever the host runs; the host's
# default is the same after 'up' as before.
CCKEY=net.ipv4.tcp_congestion_control
host_cc=$(sysctl -n $CCKEY)
"$EMU" --prefix "$PREFIX" up 3 --rate "$RATE" --latency 0 --subnet "$SUBNET" \
    >"$TMP/up.log" 2>&1 || fail "up failed: $(tail -n 1 "$TMP/up.log")"
[[ $(sysctl -n $CCKEY) == "$host_cc" ]] || fail "up changed the host's $CCKEY from $host_cc"
for i in 0 1 2; do
    got=$(ip netns exec "${PREFIX}n$i" sysctl -n $CCKEY)
    [[ $got == cubic ]] || fail "node $i runs TCP congestion control '$got', not cubic"
done

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

brief=$("$EMU" --prefix "$PREFIX" status --brief)
[[ $brief == "state=up prefix=$PREFIX nodes=3 rate=$RATE rate_bps=$RATE_BPS latency_us=0 "*" cc=cubic" ]] ||
    fail "status --brief: unexpected '$brief'"
"$EMU" --prefix "$PREFIX" status >"$TMP/status.log" 2>&1 || fail "status failed"
grep -q "tbf .*rate 200Mbit" "$TMP/status.log" || fail "status shows no tbf shaping"

"$EMU" --prefix "$PREFIX" down >"$TMP/down.log" 2>&1 || fail "down failed: $(tail -n 1 "$TMP/down.log")"
nothing_left "down"

# Latency: netem where the kernel has it, else one clear error and nothing left.
lat="no netem on this kernel: --latency refused"
if [[ $brief == *" netem_available=yes "* ]]; then
    "$EMU" --prefix "$PREFIX" up 2 --rate 1gbit --latency 2ms --subnet "$SUBNET" >"$TMP/up.log" 2>&1 ||
        fail "up with --latency failed: $(tail -n 1 "$TMP/up.log")"
    timeout 60 "$EMU" --prefix "$PREFIX" run -- "$TMP/emuprobe" 8 >"$TMP/run.log" 2>&1 ||
        fail "run with latency failed: $(grep -v '^rank ' "$TMP/run.log" | head -n 3 | tr '\n' ' ')"
    pp=$(awk '/^pingpong_oneway_s/ {print $2}' "$TMP/run.log")
    awk -v pp="${pp:-0}" 'BEGIN {exit !(pp >= 0.0018)}' ||
        fail "8-byte one-way time ${pp:-?}s with --latency 2ms (want >= 0.0018 s)"
    "$EMU" --prefix "$PREFIX" down >/dev/null 2>&1 || fail "down failed"
    lat="8 B one-way ${pp}s with --latency 2ms"
else
    expect_error "netem" "$EMU" --prefix "$PREFIX" up 2 --latency 50us --subnet "$SUBNET"
fi
nothing_left "down"

echo "PASS: emucluster: 3 ranks on 3 nodes; 8 MB one-way ${pps}s (>= ${ppmin}s at $RATE);" \
    "2 senders -> rank 0 ${ins}s (>= ${inmin}s); TCP cubic on the nodes (host: $host_cc); $lat;" \
    "errors one line; down left nothing"
exit 0
