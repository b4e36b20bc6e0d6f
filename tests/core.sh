#!/usr/bin/env bash
# The old core's defects, shown fixed (tests/mpi_core.c): no allocation on
# the exchange path, and a site that stays usable after a failed call.
# Normal build only: sanitizer builds replace malloc, which the test wraps.
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
BIN=$OUTDIR/build/tests/mpi_core
need_bins "$BIN"
rc=0
for P in 3 4; do
    timeout -k 5 120 mpirun --oversubscribe --mca mpi_yield_when_idle 1 -np "$P" "$BIN" || rc=1
done
exit $rc
