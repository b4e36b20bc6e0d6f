#!/usr/bin/env bash
# The policy benchmark's workload and pipeline (docs/results/policies.md):
# paptrace synth's one-line errors; the phase boundaries and the rows of
# every kind of phase (balanced, uniform, single, drift, @FILE); the same
# seed gives the same file and another seed other uniform rows only;
# jobs/policy-bench on 3 local ranks (fixed gather algorithms, no policy:
# papbench replays the file, paptrace policy attributes the calls to the
# phases) and paptrace policy refusing a file the run did not replay; --config
# reaching papbench (a misspelt option refused) and a missing one refused.  The
# analysis's numbers are checked on a hand-made trace by test_policy.
# About 10 s on 2 cores.
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
PT=$OUTDIR/bin/paptrace
app_test paptrace "$PT" 60 # APP: the prefix of paptrace's error lines; the messages name this script
fail() {
    echo "FAIL policy_bench.sh: $*"
    fails=$((fails + 1))
}
need_bins "$OUTDIR/bin/papbench"

synth() { "$PT" synth "$@" >"$TMP/log" 2>&1; rc=$?; }

# --- one-line errors, exit 2 ---
for bad in "--phases foo:3|unknown kind 'foo'" "--phases uniform|expected KIND:N" "--phases uniform:0|expected KIND:N" \
    "--late-rank 4|--late-rank: expected a rank in 0..3" "--drift-every 0|--drift-every: expected" \
    "--maxdelay -1|--maxdelay: expected a non-negative number"; do
    read -r -a args <<<"${bad%%|*}"
    synth --ranks 4 "${args[@]}"
    error_lines "synth ${bad%%|*}" "${bad#*|}"
done
synth --phases balanced:2
error_lines "synth without --ranks" "--ranks: expected a number of ranks"
synth --ranks 4 --phases "@$TMP/none.pat:2"
if [[ $rc -ne 1 ]] || ! grep -q "cannot read replay file" "$TMP/log"; then fail "synth with a missing @FILE: exit $rc"; fi

# --- phase boundaries and rows: 4 ranks, late rank 1, drift every 2 rows, 10 ms ---
printf '# a file\n0.001 0.002 0.003 0.004\n0.005 0.006 0.007 0.008\n' >"$TMP/two.pat"
spec=balanced:3,uniform:2,single:2,drift:4,@$TMP/two.pat:3
synth --ranks 4 --phases "$spec" --late-rank 1 --drift-every 2 --maxdelay 10 --seed 7
cp "$TMP/log" "$TMP/a.pat"
[[ $rc -eq 0 ]] || fail "synth: exit $rc"
[[ $(grep '^# phase' "$TMP/a.pat" | awk '{print $4, $5, $6}' | paste -sd' ' -) == \
    "balanced first=0 count=3 uniform first=3 count=2 single first=5 count=2 drift first=7 count=4 @two.pat first=11 count=3" ]] ||
    fail "phase lines: $(grep '^# phase' "$TMP/a.pat")"
# Data rows with their phase kind in front: the rows each kind must give.
awk '/^# phase/ { k = $4; next } /^#/ { next } { print k, $0 }' "$TMP/a.pat" >"$TMP/rows"
[[ $(wc -l <"$TMP/rows") -eq 14 ]] || fail "14 data rows expected, got $(wc -l <"$TMP/rows")"
awk '$1 == "balanced" && ($2 + $3 + $4 + $5) != 0 { exit 1 }
     $1 == "uniform" { for (i = 2; i <= 5; i++) if ($i < 0 || $i >= 0.01) exit 1 }
     $1 == "single" && !($2 == 0 && $3 == 0.01 && $4 == 0 && $5 == 0) { exit 1 }' "$TMP/rows" ||
    fail "balanced, uniform or single rows wrong: $(cat "$TMP/rows")"
[[ $(awk '$1 == "drift" { for (i = 2; i <= 5; i++) if ($i > 0) printf "%d", i - 2 }' "$TMP/rows") == 1122 ]] ||
    fail "drift: the late rank must be 1, 1, 2, 2"
[[ $(awk '$1 == "@two.pat" { printf "%s,", $2 }' "$TMP/rows") == 0.001000000,0.005000000,0.001000000, ]] ||
    fail "@FILE phase: rows of the file, cycled"
awk '!/^#/ && NF != 4 { exit 1 }' "$TMP/a.pat" || fail "every data row must have 4 delays"

# --- determinism by seed ---
synth --ranks 4 --phases "$spec" --late-rank 1 --drift-every 2 --maxdelay 10 --seed 7
cmp -s "$TMP/log" "$TMP/a.pat" || fail "the same seed must give the same file"
synth --ranks 4 --phases "$spec" --late-rank 1 --drift-every 2 --maxdelay 10 --seed 8
changed=$(diff <(grep -v seed "$TMP/log") <(grep -v seed "$TMP/a.pat") | grep '^<')
[[ $(grep -c '^< 0\.' <<<"$changed") -eq 2 && $(wc -l <<<"$changed") -eq 2 ]] ||
    fail "another seed must change the 2 uniform rows and nothing else: $changed"

# --- the pipeline: papbench replays it (3 ranks), paptrace policy attributes the calls ---
"$PT" synth --ranks 3 --phases balanced:2,uniform:2,single:2,drift:3 --drift-every 1 --maxdelay 4 >"$TMP/p3.pat"
timeout -k 5 120 "$ROOT/jobs/policy-bench" --local 3 --policies '' --ops gather --size 3K --base-ms 1 --warmup 1 \
    --pat "$TMP/p3.pat" --out "$TMP/pb" >"$TMP/log" 2>&1
rc=$?
p=$TMP/pb/gather/policy.txt
if [[ $rc -ne 0 || ! -s $p ]]; then
    fail "jobs/policy-bench: exit $rc"
    tail -5 "$TMP/log" | sed 's/^/    /'
else
    grep -q '9 measured calls per entry (after 0 calibration and 1 warm-up calls).*9 rows, 4 phases' "$p" ||
        fail "policy header: $(head -1 "$p")"
    [[ $(awk '/^\(! marks/ { exit } /^[0-3] +(balanced|uniform|single|drift) /{ print $1 $2 $3 }' "$p" |
        paste -sd' ' -) == \
        "0balanced2 1uniform2 2single2 3drift3" ]] || fail "phases and their calls: $(cat "$p")"
    grep -q '^validation: PASSED' "$TMP/pb/gather/run.log" || fail "papbench's validation"
    grep -q 'policy-bench: .*\[1/1\] gather: done' "$TMP/log" || fail "no progress line"
    "$PT" policy "$TMP/pb/gather/trace.h5" >"$TMP/log" 2>&1
    rc=$?
    error_lines "policy without --pat" "policy needs --pat FILE"
    "$PT" synth --ranks 3 --phases balanced:2,uniform:2,single:2,drift:3 --seed 2 >"$TMP/other.pat"
    "$PT" policy "$TMP/pb/gather/trace.h5" --pat "$TMP/other.pat" >"$TMP/log" 2>&1
    rc=$?
    if [[ $rc -ne 1 ]] || ! grep -q "is not the file the run replayed" "$TMP/log"; then
        fail "a file not replayed must be refused: exit $rc"
    fi
fi
# --config reaches papbench on every rank: a misspelt option there fails the run, naming it
printf '[papcoll]\nclairvoyant_segments = serch\n' >"$TMP/bad.ini"
timeout -k 5 60 "$ROOT/jobs/policy-bench" --local 3 --policies '' --ops gather --size 1K --base-ms 1 --warmup 0 \
    --iters 1 --pat "$TMP/p3.pat" --config "$TMP/bad.ini" --out "$TMP/pbc" >"$TMP/log" 2>&1 &&
    fail "jobs/policy-bench --config with a bad value succeeded"
grep -q "clairvoyant_segments 'serch'" "$TMP/log" || fail "--config: papbench did not read it: $(tail -2 "$TMP/log")"
timeout -k 5 60 "$ROOT/jobs/policy-bench" --local 3 --policies '' --ops gather --pat "$TMP/p3.pat" \
    --config "$TMP/none.ini" --out "$TMP/pbc" >"$TMP/log" 2>&1 && fail "jobs/policy-bench --config with no file succeeded"
grep -q -- "--config: cannot read" "$TMP/log" || fail "--config with no file: $(tail -2 "$TMP/log")"
[[ $fails -eq 0 ]] || exit 1
echo "policy_bench.sh: all checks passed"
