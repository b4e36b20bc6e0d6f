#!/usr/bin/env bash
# Crash safety of traces, through bin/paptrace: `test_trace --crash FILE`
# writes records in a child process (a third call site appears after SWMR
# writing started) and kills it with SIGKILL after several flushes; then
# paptrace info, csv and stats must read FILE and csv must hold every
# iteration the writer had flushed.
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUTDIR=${OUT:-.}
[[ $OUTDIR == /* ]] || OUTDIR=$ROOT/$OUTDIR
WRITER=$OUTDIR/build/tests/test_trace
PT=$OUTDIR/bin/paptrace
for b in "$WRITER" "$PT"; do [[ -x $b ]] || { echo "FAIL: $b missing (run make)"; exit 1; }; done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL trace_crash: $*"; exit 1; }

"$WRITER" --crash "$tmp/killed.h5" >"$tmp/writer.log" 2>&1 || { cat "$tmp/writer.log"; fail "test_trace --crash"; }
"$PT" info "$tmp/killed.h5" >"$tmp/info" 2>"$tmp/err" || fail "paptrace info: $(cat "$tmp/err")"
"$PT" stats "$tmp/killed.h5" >/dev/null 2>"$tmp/err" || fail "paptrace stats: $(cat "$tmp/err")"
P=$(awk '$1 == "ranks" { print $2; exit }' "$tmp/info")
[[ $P == 5 ]] || fail "info shows $P ranks, expected 5"
checked=0
while read -r _ line; do
    site=${line% *} n=${line##* }
    "$PT" csv "$tmp/killed.h5" --site "$site" >"$tmp/csv" 2>"$tmp/err" || fail "paptrace csv --site '$site': $(cat "$tmp/err")"
    rows=$(($(wc -l <"$tmp/csv") - 1))
    # Every flushed iteration is there, P rows each, and iterations run 0..n-1 without holes.
    [[ $rows -ge $((n * P)) ]] || fail "site '$site': $rows csv rows, $n iterations x $P ranks were flushed"
    holes=$(awk -F, -v P="$P" 'NR > 1 { k = (NR - 2 - (NR - 2) % P) / P; if ($(NF - 13) != k) bad++ } END { print bad + 0 }' "$tmp/csv")
    [[ $holes -eq 0 ]] || fail "site '$site': $holes rows with an unexpected iteration number"
    echo "site '$site': $n iterations flushed before SIGKILL, $((rows / P)) readable"
    checked=$((checked + 1))
done < <(grep '^flushed ' "$tmp/writer.log")
[[ $checked -eq 3 ]] || fail "expected 3 sites in the writer's log, got $checked"
echo "trace_crash: PASS"
