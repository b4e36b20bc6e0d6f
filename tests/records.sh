#!/usr/bin/env bash
# sanitizers: yes
# The record sink (papcoll_set_sink) at P = 1, 3 and 4: tests/mpi_records.c.
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
BIN=$OUTDIR/build/tests/mpi_records
need_bins "$BIN"
rc=0
for P in 1 3 4; do
    timeout -k 5 120 mpirun --oversubscribe --mca mpi_yield_when_idle 1 -np "$P" "$BIN" || rc=1
done
exit $rc
