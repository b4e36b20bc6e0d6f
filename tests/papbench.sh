#!/usr/bin/env bash
# papbench (bin/papbench) end to end, every operation (docs/papbench.md):
# configuration errors are one line and exit 2; a configuration that differs
# between ranks (MPMD argv standing in for a file that differs between
# nodes) is refused, and a file missing on one rank is reported by that
# rank; every algorithm of every op, as --help lists them from algos.def,
# runs at a small size on 3 ranks with its results validated and
# results.json / results.csv written; reductions with other operations and
# types; the Marendic setup (rank P-1 delayed by a multiple of the measured
# balanced run time) with its absorption; a corrupted element
# (test-only PAPCOLL_PAPBENCH_TEST_CORRUPT) fails the validation of every op;
# --shuffle gives each round its own order; --trace of a reduction
# read back by paptrace.  About 30 s on 2 cores.
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
PB=$OUTDIR/bin/papbench
PT=$OUTDIR/bin/paptrace
need_bins "$PT"
app_test papbench "$PB" 60
unset PAPCOLL_CONFIG PAPCOLL_PREDICTOR PAPCOLL_PAPBENCH_TEST_CORRUPT
for op in GATHER SCATTER BCAST REDUCE ALLREDUCE; do unset "PAPCOLL_${op}_ALGORITHM"; done
SMALL=(--iters 2 --warmup 1 --base-ms 1 --maxdelay 2)

# The algorithms of op from --help (the list algos.def generates).
algos_of() {
    "$PB" --help | awk -v op="  $1:" '$0 == op { on = 1; next } /^  [a-z]+:$/ || /^$/ { on = 0 } on { print $1 }'
}

# After every successful run: both files, and results.json of the op and P run.
after_ok() {
    [[ -s $TMP/out/results.csv ]] || fail "$1: no results.csv"
    [[ $(json "$TMP/out/results.json" validation) == PASSED && $(json "$TMP/out/results.json" P) == "$2" ]] ||
        fail "$1: results.json disagrees with the run"
}

# --- usage and configuration errors, before any work ---
run 0 --help
[[ $rc -eq 0 ]] && grep -q -- '--reduce-op' "$TMP/log" && grep -q '^  allreduce:$' "$TMP/log" || fail "--help"
expect_error "unknown op" "expected gather, scatter, bcast, reduce or allreduce, got 'alltoall'" 0 --op alltoall
expect_error "sum of bytes" "not defined on --type byte" 0 --op reduce --type byte
expect_error "allreduce with a root" "allreduce has no root" 2 --op allreduce --root 1
expect_error "relative delay without calibration" "needs --calibrate" 0 --maxdelay 2x --calibrate 0
expect_error "unknown finished wait" "--finished: expected mpi or sleep, got 'spin'" 0 --finished spin
expect_error "blocks of nothing" "leave every one of the 2 ranks an empty block" 2 --op gather --size 1
expect_error "delay beyond an hour" "--maxdelay: expected at most 3600000 milliseconds" 0 --maxdelay 1e300
expect_error "computation beyond an hour" "--base-ms: expected at most 3600000 milliseconds" 0 --base-ms 1e300
expect_error "configuration file a directory" "--config: '$TMP'" 0 --config "$TMP"
expect_error "unknown policy file" "papcoll_site_create\\(rules:$TMP/none\\)" 0 --algos lin,rules:"$TMP/none"
printf '0 1e300\n' >"$TMP/huge.pat"
expect_error "replayed delay beyond an hour" "line 1: expected seconds in \\[0, 3600\\], got '1e300'" 2 \
    --pattern replay:"$TMP/huge.pat"

# --- the configuration every rank parsed must be the same; a rank that cannot read a file says so ---
expect_split_error "configurations that differ" "the configuration differs between ranks: rank 1's is not rank 0's" \
    --op reduce --iters 2 -- --op reduce --iters 3
printf '0 0.001\n' >"$TMP/pat.txt"
expect_split_error "replay file missing on rank 1" "--pattern: cannot read replay file '$TMP/none.txt'" \
    --pattern "replay:$TMP/pat.txt" -- --pattern "replay:$TMP/none.txt"
# The same text, "replay:pat.txt", names files that differ on the two "nodes" (working directories).
mkdir -p "$TMP/a" "$TMP/b"
printf '0 0.001\n' >"$TMP/a/pat.txt"
printf '0 0.002\n' >"$TMP/b/pat.txt"
timeout -k 5 60 "${MPIRUN[@]}" -np 1 -wdir "$TMP/a" "$PB" --quiet --pattern replay:pat.txt : \
    -np 1 -wdir "$TMP/b" "$PB" --quiet --pattern replay:pat.txt >"$TMP/log" 2>&1
rc=$?
error_lines "replay files that differ between nodes" "the configuration differs between ranks"

# --- every algorithm of every op, validated, at a small size ---
for op in gather scatter bcast reduce allreduce; do
    list=$(algos_of "$op" | paste -sd, -)
    [[ $list == mpi* ]] || { fail "$op: no algorithms in --help"; continue; }
    if expect_ok "$op, every algorithm ($list)" 3 --op "$op" --algos all --size 3K "${SMALL[@]}"; then
        [[ $(json "$TMP/out/results.json" op) == "$op" ]] || fail "$op: results.json names another op"
        n=$(grep -c '"algo":' "$TMP/out/results.json")
        [[ $n -eq $(tr ',' '\n' <<<"$list" | wc -l) ]] || fail "$op: $n results for the algorithms $list"
        [[ $(wc -l <"$TMP/out/results.csv") -eq $((2 * n + 1)) ]] || fail "$op: results.csv rows"
        grep -q '"efficiency": {' "$TMP/out/results.json" || fail "$op: no efficiency"
    fi
done

# --- other operations and types; a vector of P ranks' size means every rank's vector ---
if expect_ok "reduce max int" 4 --op reduce --reduce-op max --type int --size 1000 --root 3 "${SMALL[@]}"; then
    [[ $(json "$TMP/out/results.json" size) == 1000 && $(json "$TMP/out/results.json" reduce_op) == max ]] ||
        fail "reduce: size or reduce_op in results.json"
    grep -q '"gamma": ' "$TMP/out/results.json" && grep -q '"round_model": {' "$TMP/out/results.json" ||
        fail "reduce: no gamma or round model in results.json"
    [[ $(json "$TMP/out/results.json" finished) == mpi ]] || fail "reduce: finished is not mpi by default"
fi
if expect_ok "reduce, finished ranks sleep" 4 --op reduce --type int --size 1000 --finished sleep "${SMALL[@]}"; then
    [[ $(json "$TMP/out/results.json" finished) == sleep ]] || fail "--finished sleep: not in results.json"
    grep -q '^  finished     sleep' "$TMP/log" || fail "--finished sleep: not in the header"
fi
expect_ok "allreduce band byte" 3 --op allreduce --reduce-op band --type byte --size 777 "${SMALL[@]}"
expect_ok "allreduce prod double" 2 --op allreduce --reduce-op prod --type double --size 100 "${SMALL[@]}"
expect_ok "bcast double, root 2" 3 --op bcast --type double --size 2K --root 2 "${SMALL[@]}"

# --- Marendic 2016 Fig. 12/13: rank P-1 delayed by a multiple of the balanced run time ---
if expect_ok "reduce, rank 2 delayed 1x" 3 --op reduce --type int --size 4K --pattern single:2 --maxdelay 1x \
    --calibrate 3 --iters 2 --warmup 0 --base-ms 1; then
    grep -q '^  maxdelay     1 x the balanced median run time of mpi$' "$TMP/log" &&
        grep -q '^balanced run time t(pi) and absorption' "$TMP/log" ||
        fail "calibration: no balanced run time or absorption table"
    grep -q '"absorption_norm": {' "$TMP/out/results.json" &&
        [[ $(json "$TMP/out/results.json" maxdelay_factor) == 1 ]] || fail "calibration: results.json"
fi

# --- a corrupted element must fail the validation (rank 1: a non-root) ---
for op in bcast reduce allreduce; do
    PAPCOLL_PAPBENCH_TEST_CORRUPT=1 run 3 --op "$op" --algos mpi --size 3K "${SMALL[@]}"
    [[ $rc -eq 1 ]] && grep -q "^papbench: validation FAILED: $op mpi, warm-up iteration 1/1, rank 1: " "$TMP/log" ||
        { fail "$op: corrupted element on rank 1: exit $rc"; tail -3 "$TMP/log"; }
done
PAPCOLL_PAPBENCH_TEST_CORRUPT=0 run 3 --op reduce --algos mpi --size 3K "${SMALL[@]}"
[[ $rc -eq 1 ]] && grep -q "^papbench: validation FAILED: reduce mpi, .*rank 0: result, first bad element 1024" "$TMP/log" ||
    { fail "reduce: corrupted result on the root: exit $rc"; tail -3 "$TMP/log"; }

# --- --shuffle: every round its own order (results.csv: the entries of each round by first arrival) ---
round_orders() {
    sort -t, -k2,2n -k5,5g "$TMP/out/results.csv" | awk -F, '$1 != "algo" {
        o[$2] = o[$2] substr($1, 1, 1) } END { for (i = 0; i in o; i++) printf "%s ", o[i] }'
}
SHUF=(--op reduce --algos mpi,binomial,inorder --size 1K --iters 12 --warmup 0 --base-ms 1 --maxdelay 2)
if expect_ok "--shuffle" 2 "${SHUF[@]}" --shuffle; then
    orders=$(round_orders)
    # With a fixed or merely rotated order only mbi, bim, imb can occur; a shuffle also reverses pairs.
    [[ $(tr ' ' '\n' <<<"$orders" | sort -u | grep -c .) -ge 4 && $(json "$TMP/out/results.json" order) == shuffle ]] ||
        fail "--shuffle: round orders $orders"
fi
if expect_ok "fixed order" 2 "${SHUF[@]}"; then
    [[ $(round_orders) == "$(printf 'mbi %.0s' {1..12})" && $(json "$TMP/out/results.json" order) == fixed ]] ||
        fail "fixed order: round orders $(round_orders)"
fi

# --- --trace of a reduction: the sites, the configuration, paptrace stats with gamma ---
if expect_ok "--trace reduce" 3 --op reduce --algos mpi --size 2K --trace "$TMP/r.h5" "${SMALL[@]}"; then
    "$PT" info "$TMP/r.h5" >"$TMP/info" 2>&1
    grep -qE '^ +0 +papbench-mpi +reduce .* 3 ' "$TMP/info" && grep -q 'reduce-op = sum' "$TMP/info" &&
        grep -qE '^ *gamma = [0-9.e+-]+$' "$TMP/info" || fail "--trace: paptrace info"
    "$PT" stats "$TMP/r.h5" >"$TMP/stats" 2>&1 && grep -q '^model: .*gamma' "$TMP/stats" ||
        fail "--trace: paptrace stats: $(head -2 "$TMP/stats")"
fi

finish
