#!/usr/bin/env bash
# sanitizers: yes
# Zero-length calls with NULL buffers and MPI_IN_PLACE at the root, every
# algorithm of every op (tests/mpi_zero.c), at P = 1, 3 and 4; a rank that
# fails alone leaves the others waiting, hence the timeout.
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
BIN=$OUTDIR/build/tests/mpi_zero
need_bins "$BIN"
rc=0
for P in 1 3 4; do
    timeout -k 5 120 mpirun --oversubscribe --mca mpi_yield_when_idle 1 -np "$P" "$BIN" || rc=1
done
exit $rc
