#!/usr/bin/env bash
# Clairvoyant's segment count found by search (clairvoyant_segments =
# search, papcoll/src/sched/nsearch.h; docs/reduce.md, "N by search"): the
# model is given (alpha 1 us, beta 10 ns/B, gamma 0.1 ns/B) so that the
# model's N is large and the search has up to six candidates, whatever
# this machine measures.
#   - the clairvoyant reduce and clairvoyant_bcast allreduce matrix with
#     PAPCOLL_CHECK=1, every PAT kind, P = 3, 5, 8 (sanitizer builds: 5):
#     the stress phase's sites run dozens of calls, so the search explores
#     and exploits; a rank whose N differed from the others' would fail
#     the agreement check;
#   - papbench, 60 calls of one signature per pattern (balanced and one
#     late rank), validated, PAPCOLL_CHECK=1, and the note rank 0 prints
#     when an exploration ends;
#   - papbench under tune, which switches the site between Clairvoyant and
#     the other reduces, validated with PAPCOLL_CHECK=1;
#   - a misspelt value is refused with a message that names the option.
# sanitizers: yes
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
MATRIX=$OUTDIR/build/tests/mpi_matrix PB=$OUTDIR/bin/papbench
need_bins "$MATRIX" "$PB"
make_scratch
rc=0
NPS="3 5 8"
sanitized && NPS="5"
export PAPCOLL_MODEL_ALPHA=1e-6 PAPCOLL_MODEL_BETA=1e-8 PAPCOLL_MODEL_GAMMA=1e-10 PAPCOLL_CLAIRVOYANT_SEGMENTS=search
RUN=(timeout -k 5 300 mpirun --oversubscribe --mca mpi_yield_when_idle 1 -x PAPCOLL_MODEL_ALPHA -x PAPCOLL_MODEL_BETA
     -x PAPCOLL_MODEL_GAMMA -x PAPCOLL_CLAIRVOYANT_SEGMENTS)
for P in $NPS; do
    for op in "reduce --algo clairvoyant" "allreduce --algo clairvoyant_bcast"; do
        # shellcheck disable=SC2086 # op holds two options
        "${RUN[@]}" -np "$P" "$MATRIX" --op $op --all-pats --iters 60 --watchdog 60 >"$TMP/log" 2>&1 ||
            { echo "FAIL clairvoyant_search.sh: matrix, P=$P, --op $op"; tail -5 "$TMP/log"; rc=1; }
    done
done
for pat in "--pattern none" "--pattern single:3 --maxdelay 5"; do
    # shellcheck disable=SC2086 # pat holds several options
    PAPCOLL_CHECK=1 "${RUN[@]}" -x PAPCOLL_CHECK -np 4 "$PB" --op reduce --type int --size 64K --algos clairvoyant \
        --iters 60 --warmup 0 --base-ms 2 $pat --quiet --out "$TMP/pb" >"$TMP/log" 2>&1 &&
        grep -q "validation: PASSED" "$TMP/log" ||
        { echo "FAIL clairvoyant_search.sh: papbench $pat"; tail -5 "$TMP/log"; rc=1; }
    # the end of the exploration is reported: 3 calls of each candidate, then the choice
    grep -Eq "^papcoll: clairvoyant_segments search, (balanced|apart) calls, 262144 bytes at P = 4, call [0-9]+: N = [0-9]+ " "$TMP/log" ||
        { echo "FAIL clairvoyant_search.sh: papbench $pat: no report of the search's choice"; rc=1; }
done
# under tune the site switches between Clairvoyant and the others and keeps its search (plan.h,
# papcoll__plan_kept): the ranks must still agree on every plan
PAPCOLL_CHECK=1 "${RUN[@]}" -x PAPCOLL_CHECK -np 4 "$PB" --op reduce --type int --size 64K --algos tune \
    --iters 80 --warmup 0 --base-ms 2 --pattern uniform --maxdelay 3 --quiet --out "$TMP/pbt" >"$TMP/log" 2>&1 &&
    grep -q "validation: PASSED" "$TMP/log" || { echo "FAIL clairvoyant_search.sh: papbench under tune"; tail -5 "$TMP/log"; rc=1; }
PAPCOLL_CLAIRVOYANT_SEGMENTS=serch "${RUN[@]}" -np 1 "$PB" --op reduce --algos clairvoyant --iters 1 --quiet \
    --out "$TMP/bad" >"$TMP/log" 2>&1 && { echo "FAIL clairvoyant_search.sh: 'serch' accepted"; rc=1; }
grep -q "clairvoyant_segments 'serch'" "$TMP/log" ||
    { echo "FAIL clairvoyant_search.sh: no message for 'serch'"; cat "$TMP/log"; rc=1; }
[[ $rc -eq 0 ]] && echo "clairvoyant_search.sh: all checks passed"
exit $rc
