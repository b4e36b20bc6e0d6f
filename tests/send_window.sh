#!/usr/bin/env bash
# The send windows of clairvoyant and of streamed treedyn (at most
# PAPCOLL__TWOTREE_WINDOW sends of a rank in flight, sched/twotree.h) with
# sends that do not complete at once: Open MPI's shared-memory eager limit
# lowered to 1 KiB, segments above it (clairvoyant: 3 segments of the
# matrix's 4,000-byte vectors; treedyn: 1,200-byte segments, so P = 8
# streams).  The reduce matrix against the MPI library, every PAT kind, at
# P = 3 and 8 (sanitizers: clairvoyant at 3, where its 3 segments already
# fill the window of 2, treedyn at 8); a window that never reopened would deadlock
# (the matrix's watchdog), one that let a segment go early would combine a
# partial that is not there yet.
# sanitizers: yes
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
BIN=$OUTDIR/build/tests/mpi_matrix
need_bins "$BIN"
rc=0
CASES="3:clairvoyant 3:treedyn 8:clairvoyant 8:treedyn"
sanitized && CASES="3:clairvoyant 8:treedyn"
export PAPCOLL_CLAIRVOYANT_SEGMENTS=3 PAPCOLL_SEGMENT_BYTES=1200
for c in $CASES; do
    P=${c%%:*} algo=${c#*:}
    timeout -k 5 240 mpirun --oversubscribe --mca mpi_yield_when_idle 1 --mca btl_vader_eager_limit 1024 \
        -x PAPCOLL_CLAIRVOYANT_SEGMENTS -x PAPCOLL_SEGMENT_BYTES -np "$P" \
        "$BIN" --op reduce --algo "$algo" --all-pats --watchdog 60 >/dev/null 2>&1 ||
        { echo "FAIL send_window.sh: P=$P, --algo $algo"; rc=1; }
done
[[ $rc -eq 0 ]] && echo "send_window.sh: all checks passed"
exit $rc
