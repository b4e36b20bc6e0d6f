#!/usr/bin/env bash
# End to end: papbench on 4 ranks with --trace, records delivered by
# papcoll's sink to rank 0; then paptrace info (decisions included), stats,
# csv, chrome and pat on the file.  The trace's median run time must lie
# within papbench's own (median over the measured iterations) and not 10 %
# below it, and the pat file must replay in papbench.
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
PB=$OUTDIR/bin/papbench
PT=$OUTDIR/bin/paptrace
need_bins "$PB" "$PT"
MPIRUN=(timeout -k 5 120 mpirun --oversubscribe --mca mpi_yield_when_idle 1 -np 4)
make_scratch
fail() { echo "FAIL trace_e2e: $*"; exit 1; }
WARMUP=2 ITERS=12

"${MPIRUN[@]}" "$PB" --algos ls,sls,bsls --size 64K --iters $ITERS --warmup $WARMUP --maxdelay 5 --base-ms 2 \
    --quiet --trace "$TMP/run.h5" >"$TMP/pb.out" 2>&1 || { tail -5 "$TMP/pb.out"; fail "papbench --trace"; }
"$PT" info "$TMP/run.h5" >"$TMP/info" 2>"$TMP/err" || fail "paptrace info: $(cat "$TMP/err")"
grep -q '^ranks  *4$' "$TMP/info" || fail "info does not show 4 ranks"
grep -q '^program  *papbench$' "$TMP/info" || fail "info does not name papbench"
grep -q 'alpha = ' "$TMP/info" || fail "info lacks papbench's configuration"
"$PT" stats "$TMP/run.h5" --skip $WARMUP >"$TMP/stats" 2>"$TMP/err" || fail "paptrace stats: $(cat "$TMP/err")"
grep -q "the trace's configuration" "$TMP/stats" || fail "stats did not take alpha/beta from the trace"
grep -qE '^ *credit = [0-9.e+-]+$' "$TMP/info" || fail "info lacks the lower bound's credit"
"$PT" stats "$TMP/run.h5" --skip $WARMUP --credit 0.25 2>"$TMP/err" | grep -q '^model: .*credit 0.25 s (command line)' ||
    fail "stats --credit 0.25 not used: $(cat "$TMP/err")"
"$PT" chrome "$TMP/run.h5" >"$TMP/run.json" 2>"$TMP/err" || fail "paptrace chrome: $(cat "$TMP/err")"
for algo in ls sls bsls; do
    site=papbench-$algo
    grep -q "^site [0-9]* '$site': gather, 4 ranks, $((WARMUP + ITERS)) calls" "$TMP/stats" ||
        fail "stats: site $site missing or with the wrong number of calls"
    # papcoll's reason for the first call's algorithm, through the sink and the file.
    grep -A1 "^  site [0-9]* '$site': 1$" "$TMP/info" | grep -q "^    call 0  $algo: policy fixed:$algo$" ||
        fail "info: site $site lacks its one decision (call 0, policy fixed:$algo)"
    "$PT" csv "$TMP/run.h5" --site "$site" >"$TMP/$algo.csv" 2>"$TMP/err" || fail "paptrace csv: $(cat "$TMP/err")"
    rows=$(($(wc -l <"$TMP/$algo.csv") - 1))
    [[ $rows -eq $(((WARMUP + ITERS) * 4)) ]] || fail "csv of $site: $rows rows, expected $(((WARMUP + ITERS) * 4))"
    # Median run time (ms) of the measured calls, from the trace and from papbench.
    trace_ms=$(awk -F, -v w=$WARMUP 'NR > 1 && $6 == 0 && $2 >= w { print $14 * 1e3 }' "$TMP/$algo.csv" | sort -g |
        awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
    bench_ms=$(sed -n "s/^summary: .* algo=$algo .*runtime_median_ms=\([0-9.]*\).*/\1/p" "$TMP/pb.out")
    # The library times each rank from its entry to its exit, inside papbench's own timestamps, so the trace's run
    # time can only be shorter, by papbench's and the record's own overhead (a few % on a loaded machine).  A trace
    # that stored another quantity (elapsed, one rank's time, another site's) lands far below 0.9 of it.
    awk -v a="$trace_ms" -v b="$bench_ms" 'BEGIN { exit !(b > 0 && a <= b + 0.0005 && a >= 0.9 * b) }' ||
        fail "$site: median run time $trace_ms ms in the trace, $bench_ms ms measured by papbench"
    echo "$site: median run time $trace_ms ms (trace), $bench_ms ms (papbench)"
done
"$PT" pat "$TMP/run.h5" --site papbench-sls --skip $WARMUP >"$TMP/pat.txt" 2>"$TMP/err" || fail "paptrace pat: $(cat "$TMP/err")"
[[ $(grep -vc '^#' "$TMP/pat.txt") -eq $ITERS ]] || fail "pat: expected $ITERS lines"
"${MPIRUN[@]}" "$PB" --algos ls --size 4K --iters 3 --warmup 0 --base-ms 1 --quiet --pattern "replay:$TMP/pat.txt" \
    >"$TMP/replay.out" 2>&1 || { tail -3 "$TMP/replay.out"; fail "papbench does not replay the pat file"; }
"${MPIRUN[@]}" "$PB" --algos ls --size 4K --iters 1 --quiet --trace "$TMP/no/such/dir/x.h5" >"$TMP/bad.out" 2>&1
rc=$?
[[ $rc -eq 2 ]] && grep -q "^papbench: --trace: '$TMP/no/such/dir/x.h5': " "$TMP/bad.out" ||
    fail "papbench --trace into a missing directory: exit $rc, $(head -c 300 "$TMP/bad.out")"
echo "trace_e2e: PASS"
