#!/usr/bin/env bash
# Crash safety of traces, through bin/paptrace: `test_trace --crash FILE`
# writes records in a child process (a third call site appears after SWMR
# writing started) and kills it with SIGKILL after several flushes; then
# paptrace info, csv and stats must read FILE and csv must hold every
# iteration the writer had flushed.
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
WRITER=$OUTDIR/build/tests/test_trace
PT=$OUTDIR/bin/paptrace
need_bins "$WRITER" "$PT"
make_scratch
fail() { echo "FAIL trace_crash: $*"; exit 1; }

"$WRITER" --crash "$TMP/killed.h5" >"$TMP/writer.log" 2>&1 || { cat "$TMP/writer.log"; fail "test_trace --crash"; }
"$PT" info "$TMP/killed.h5" >"$TMP/info" 2>"$TMP/err" || fail "paptrace info: $(cat "$TMP/err")"
"$PT" stats "$TMP/killed.h5" >/dev/null 2>"$TMP/err" || fail "paptrace stats: $(cat "$TMP/err")"
P=$(awk '$1 == "ranks" { print $2; exit }' "$TMP/info")
[[ $P == 5 ]] || fail "info shows $P ranks, expected 5"
checked=0
while read -r _ line; do
    site=${line% *} n=${line##* }
    "$PT" csv "$TMP/killed.h5" --site "$site" >"$TMP/csv" 2>"$TMP/err" || fail "paptrace csv --site '$site': $(cat "$TMP/err")"
    rows=$(($(wc -l <"$TMP/csv") - 1))
    # Every flushed iteration is there, P rows each, and iterations run 0..n-1 without holes.
    [[ $rows -ge $((n * P)) ]] || fail "site '$site': $rows csv rows, $n iterations x $P ranks were flushed"
    holes=$(awk -F, -v P="$P" 'NR > 1 { k = (NR - 2 - (NR - 2) % P) / P; if ($(NF - 13) != k) bad++ } END { print bad + 0 }' "$TMP/csv")
    [[ $holes -eq 0 ]] || fail "site '$site': $holes rows with an unexpected iteration number"
    echo "site '$site': $n iterations flushed before SIGKILL, $((rows / P)) readable"
    checked=$((checked + 1))
done < <(grep '^flushed ' "$TMP/writer.log")
[[ $checked -eq 3 ]] || fail "expected 3 sites in the writer's log, got $checked"
echo "trace_crash: PASS"
