#!/usr/bin/env bash
# sanitizers: yes
# The data-dependent policies (auto, rules:FILE) at P = 4:
# tests/mpi_policy.c must pass; the same run with the test-only mutant
# build/tests/mpi_policy_mutant (the policies read a local value instead of
# exchanged data; Makefile, PAPCOLL_MUTANT_LOCAL_POLICY) must be caught as a disagreement (exit 3).
# Then papbench's policy interface and the model cache.  Under TSan: mpi_policy
# and papbench's reduce only (the model cache is file handling, and the
# mutant's caught disagreement is the normal build's check).
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
BIN=$OUTDIR/build/tests/mpi_policy
need_bins "$BIN"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
cat >"$TMP/rules.conf" <<'RULES'
# op    P  bytes  ratio   algorithm
gather  *  *      0-0.5   lin
gather  *  *      0.5-    bsls
gather  *  *      *       ls
bcast   *  *      0-0.5   binomial
bcast   *  *      0.5-    bsorted
bcast   *  *      *       chain
allreduce * *     0-0.5   rabenseifner
allreduce * *     0.5-    sorted_ring
allreduce * *     *       recdoubling
RULES
export PAPCOLL_CHECK=1 PAPCOLL_MODEL_ALPHA=20e-6 PAPCOLL_MODEL_BETA=1e-5 PAPCOLL_MODEL_GAMMA=1e-9
rc=0
for P in 4; do
    timeout -k 5 180 mpirun --oversubscribe --mca mpi_yield_when_idle 1 -np "$P" "$BIN" "$TMP/rules.conf" || rc=1
done
# papbench's interface of the benchmark driver (docs/policies.md): fixed
# names and policies in one --algos list, the shipped rules table, a replayed
# PAT file; decision times in results.json.
printf '0 0 0 0\n0 0 0 0.005\n0 0 0 0.005\n0.001 0 0.002 0\n' >"$TMP/pat.txt"
OPS="gather reduce bcast"
tsan_sample && OPS="reduce"
for op in $OPS; do
    timeout -k 5 120 mpirun --oversubscribe --mca mpi_yield_when_idle 1 -np 4 "$OUTDIR/bin/papbench" --op $op \
        --algos mpi,auto,rules:"$ROOT/configs/papcoll/rules-emu8.conf" --pattern replay:"$TMP/pat.txt" \
        --size 4K --iters 8 --warmup 0 --quiet --out "$TMP/pb-$op" >"$TMP/pb-$op.log" 2>&1 || {
        echo "FAIL policy.sh: papbench --op $op with policies"; tail -5 "$TMP/pb-$op.log"; rc=1; }
    grep -q '"decision"' "$TMP/pb-$op/results.json" 2>/dev/null || {
        echo "FAIL policy.sh: papbench --op $op: no decision times in results.json"; rc=1; }
done
if tsan_sample; then
    exit $rc
fi
# model_cache (docs/policies.md): a measured model is appended under the
# machine's key, found by the next run instead of measured again, and the
# values found are the ones the policies use (auto's detail: model=).
mc() {
    PAPCOLL_MODEL_ALPHA='' PAPCOLL_MODEL_BETA='' PAPCOLL_MODEL_GAMMA='' PAPCOLL_MODEL_CACHE="$TMP/model.cache" \
        timeout -k 5 120 mpirun --oversubscribe --mca mpi_yield_when_idle 1 -np 2 "$OUTDIR/bin/papbench" \
        --op gather --algos auto --size 1K --iters 3 --warmup 0 --quiet --out "$TMP/mc$1" \
        --trace "$TMP/mc$1.h5" >"$TMP/mc$1.log" 2>&1 || { echo "FAIL policy.sh: model_cache run $1"; rc=1; }
}
entries() { grep -cE '^[0-9a-f]{16}( [-+.0-9e]+){5}$' "$TMP/model.cache" 2>/dev/null; }
mc 1
[[ $(entries) == 1 ]] || { echo "FAIL policy.sh: model_cache: want 1 entry after a measurement, got $(entries)"; rc=1; }
# The round alpha (the sixth field) is measured: a round of 2 ranks takes time.
awk 'NR == 1 { exit !($6 > 0) }' "$TMP/model.cache" ||
    { echo "FAIL policy.sh: model_cache: no round alpha measured: $(head -n1 "$TMP/model.cache")"; rc=1; }
mc 2
[[ $(entries) == 1 ]] || { echo "FAIL policy.sh: model_cache: the second run measured again ($(entries) entries)"; rc=1; }
echo "$(cut -d' ' -f1 "$TMP/model.cache") 2 0 0 0 0" >>"$TMP/model.cache"
mc 3
"$OUTDIR/bin/paptrace" stats "$TMP/mc3.h5" 2>/dev/null | grep -q 'policy=auto .* model=2 ' ||
    { echo "FAIL policy.sh: model_cache: auto did not use the cached model (alpha 2 s)"; rc=1; }
# Lines of three and four values (the formats before xbeta and before the
# round alpha) are not models.
echo "$(head -n1 "$TMP/model.cache" | cut -d' ' -f1) 5 0 0" >>"$TMP/model.cache"
echo "$(head -n1 "$TMP/model.cache" | cut -d' ' -f1) 6 0 0 0" >>"$TMP/model.cache"
mc 4
"$OUTDIR/bin/paptrace" stats "$TMP/mc4.h5" 2>/dev/null | grep -q 'policy=auto .* model=2 ' ||
    { echo "FAIL policy.sh: model_cache: a three- or four-value line replaced the model (alpha 2 s)"; rc=1; }
timeout -k 5 180 mpirun --oversubscribe --mca mpi_yield_when_idle 1 -np 4 \
    "$BIN"_mutant "$TMP/rules.conf" --iters 20 >"$TMP/mutant.log" 2>&1
m=$?
if [[ $m -ne 3 ]]; then
    echo "FAIL policy.sh: the local-value mutant was not caught (exit $m, want 3)"
    tail -5 "$TMP/mutant.log"
    rc=1
else
    echo "policy.sh: the local-value mutant was caught: $(tail -1 "$TMP/mutant.log")"
fi
exit $rc
