#!/usr/bin/env bash
# sanitizers: yes
# The global clock with injected offsets and drifts (tests/mpi_clock.c):
# rank r runs r * 40 ppm fast and r * 1.5 ms ahead; the recovered clock must
# be within 20 us of the truth at P = 2 and 4.  About 8 s.
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
BIN=$OUTDIR/build/tests/mpi_clock
need_bins "$BIN"
export PAPCOLL_TEST_CLOCK_SKEW=1500,40
rc=0
for P in 2 4; do
    timeout -k 5 120 mpirun --oversubscribe --mca mpi_yield_when_idle 1 \
        -x PAPCOLL_TEST_CLOCK_SKEW -np "$P" "$BIN" || rc=1
done
exit $rc
