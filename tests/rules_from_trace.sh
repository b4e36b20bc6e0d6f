#!/usr/bin/env bash
# jobs/rules-table --from-trace (docs/policies.md, "Rules from a trace"): a
# trace of a small papbench run at 3 ranks becomes a rules file whose
# gather rules name only the candidates given, and papbench runs with
# rules:FILE and passes its validation.  A corrupt trace, a missing one and a
# failing papbench (an unknown candidate) must each end the job with a
# non-zero exit and one clear "rules-table:" message.
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
PB=$OUTDIR/bin/papbench
need_bins "$PB" "$OUTDIR/bin/paptrace"
command -v python3 >/dev/null || { echo "SKIP rules_from_trace.sh: no python3"; exit 77; }
make_scratch
rc=0
fail() { echo "FAIL rules_from_trace.sh: $*"; rc=1; }
RT=("$ROOT/jobs/rules-table" --bin "$OUTDIR/bin")
MPIRUN=(timeout -k 5 60 mpirun --oversubscribe --mca mpi_yield_when_idle 1 -np 3)

"${MPIRUN[@]}" "$PB" --op gather --algos lin --size 3K --iters 6 --warmup 0 --base-ms 5 --maxdelay 5 --quiet \
    --trace "$TMP/t.h5" >"$TMP/trace.log" 2>&1 || { fail "recording the trace"; tail -5 "$TMP/trace.log"; exit 1; }
timeout -k 5 120 "${RT[@]}" --from-trace "$TMP/t.h5" --np 3 --algos lin,ls,bnom --iters 4 \
    >"$TMP/rules.conf" 2>"$TMP/rt.log" || { fail "rules-table --from-trace"; tail -5 "$TMP/rt.log"; exit 1; }
grep -q "site 'papbench-lin', replayed" "$TMP/rt.log" || fail "no progress line for the site on stderr"
grep -Eq '^gather +3 +\* +\S+ +(lin|ls|bnom)$' "$TMP/rules.conf" ||
    fail "no gather rule at P 3 naming a candidate: $(grep -v '^#' "$TMP/rules.conf" | tr '\n' '|')"
"${MPIRUN[@]}" "$PB" --op gather --algos rules:"$TMP/rules.conf" --size 3K --iters 3 --warmup 0 --base-ms 5 \
    --pattern none --quiet >"$TMP/run.log" 2>&1 && grep -q 'validation: PASSED' "$TMP/run.log" ||
    { fail "papbench with rules:FILE"; tail -5 "$TMP/run.log"; }

# expect_fail WHAT PATTERN ARGS...: a non-zero exit, and stderr's last line is rules-table's and matches PATTERN.
expect_fail() {
    local what=$1 pat=$2
    shift 2
    if timeout -k 5 60 "${RT[@]}" "$@" >"$TMP/out" 2>"$TMP/err"; then
        fail "$what: exit 0"
    elif ! grep -Eq "^rules-table: .*$pat" "$TMP/err"; then
        fail "$what: no clear message matching '$pat': $(head -c 300 "$TMP/err")"
    fi
}
head -c 4096 /dev/urandom >"$TMP/bad.h5"
expect_fail "corrupt trace" 'paptrace info .*failed' --from-trace "$TMP/bad.h5" --np 3
expect_fail "missing trace" 'no such trace file' --from-trace "$TMP/none.h5"
expect_fail "failing papbench" 'mpirun .*failed' --from-trace "$TMP/t.h5" --np 3 --algos nosuch --iters 2
grep -q 'nosuch' "$TMP/err" || fail "failing papbench: its log tail is not in the message"
[[ $rc == 0 ]] && echo "rules_from_trace.sh: all checks passed"
exit $rc
