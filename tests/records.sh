#!/usr/bin/env bash
# sanitizers: yes
# The record sink (papcoll_set_sink) at P = 1, 3 and 4: tests/mpi_records.c.
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUTDIR=${OUT:-.}
[[ $OUTDIR == /* ]] || OUTDIR=$ROOT/$OUTDIR
BIN=$OUTDIR/build/tests/mpi_records
[[ -x $BIN ]] || { echo "FAIL: $BIN missing (run make)"; exit 1; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=${OMPI_MCA_btl_vader_single_copy_mechanism:-none}
rc=0
for P in 1 3 4; do
    timeout -k 5 120 mpirun --oversubscribe --mca mpi_yield_when_idle 1 -np "$P" "$BIN" || rc=1
done
exit $rc
