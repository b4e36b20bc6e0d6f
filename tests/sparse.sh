#!/usr/bin/env bash
# Reductions with an identity element (tests/mpi_sparse.c): every reduce
# algorithm and the treedyn allreduce against the MPI library, sums and a
# non-commutative matrix product, counts 0 to 70001, dense and sparse data,
# at P = 1, 4, 5 (full run: 1, 2, 3, 5, 6, 8); sanitizer builds at P = 2
# and 5, TSan at P = 3 with --sparse-only (the sparse and background
# algorithms; the full run: every algorithm at 2 and 5).
# sanitizers: yes
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
BIN=$OUTDIR/build/tests/mpi_sparse
need_bins "$BIN"
rc=0
NPS="1 4 5"
full_run && NPS="1 2 3 5 6 8"
ARGS=()
sanitized && NPS="2 5"
tsan_sample && NPS="3" ARGS=(--sparse-only)
for P in $NPS; do
    timeout -k 5 400 mpirun --oversubscribe --mca mpi_yield_when_idle 1 -np "$P" "$BIN" "${ARGS[@]}" || rc=1
done
exit $rc
