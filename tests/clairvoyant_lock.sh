#!/usr/bin/env bash
# Clairvoyant's executor with and without its lock (docs/reduce.md, "The
# executor's lock"): the model is given so that the lock holds on almost
# every plan (alpha 10 ns: a segment of 36 bytes or more takes 4 alphas)
# and on none (alpha 1 ms), whatever this machine measures (dense sites:
# sparse ones run without it, tests/sparse.sh).  The reduce
# matrix of clairvoyant and the clairvoyant_bcast allreduce against the MPI
# library, every PAT kind: with the lock at P = 3 and 8, without it at
# P = 5 (full run: both at P = 3, 5, 8; sanitizers: P = 5, TSan the lock
# only, the executor being one thread); a lock that waited for the wrong
# receive would deadlock (the matrix's watchdog) or combine out of order.
# sanitizers: yes
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
BIN=$OUTDIR/build/tests/mpi_matrix
need_bins "$BIN"
rc=0
export PAPCOLL_MODEL_BETA=1e-9 PAPCOLL_MODEL_GAMMA=1e-10
ALPHAS="1e-8 1e-3"
tsan_sample && ALPHAS="1e-8"
for alpha in $ALPHAS; do
    NPS="3 8"
    [[ $alpha == 1e-3 ]] && NPS="5"
    full_run && NPS="3 5 8"
    sanitized && NPS="5"
    for P in $NPS; do
        for op in "reduce --algo clairvoyant" "allreduce --algo clairvoyant_bcast"; do
            # shellcheck disable=SC2086 # op holds two options
            PAPCOLL_MODEL_ALPHA=$alpha timeout -k 5 240 mpirun --oversubscribe --mca mpi_yield_when_idle 1 \
                -x PAPCOLL_MODEL_ALPHA -x PAPCOLL_MODEL_BETA -x PAPCOLL_MODEL_GAMMA -np "$P" \
                "$BIN" --op $op --all-pats --watchdog 60 >/dev/null 2>&1 ||
                { echo "FAIL clairvoyant_lock.sh: alpha $alpha, P=$P, --op $op"; rc=1; }
        done
    done
done
[[ $rc -eq 0 ]] && echo "clairvoyant_lock.sh: all checks passed"
exit $rc
