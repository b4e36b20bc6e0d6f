#!/usr/bin/env bash
# bin/papcoll-sched: --help; the exact output for Proficz 2020's Sect. 4.2
# example; the format on larger cases (header fields, four integers per line,
# sorted by round then receiver, one send and one receive per rank and round,
# rounds = last round + 1) checked here with awk, independently of the C
# checker; reference and fast print the same transfers; --pat-file reads what
# --pat reads; --procs alone is the balanced PAT; every rejected input exits 2
# with one line naming the problem; a tiny --bench; progress lines for a
# large schedule (P = N = 2048).  About 5 s.
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
PS=$OUTDIR/bin/papcoll-sched
need_bins "$PS"
make_scratch
failed=0

fail() {
    echo "FAIL papcoll_sched: $*"
    failed=$((failed + 1))
}

# expect_error PATTERN ARGS...: exit 2, exactly one stderr line matching PATTERN, no stdout.
expect_error() {
    local pat=$1 rc
    shift
    timeout -k 2 20 "$PS" "$@" >"$TMP/out" 2>"$TMP/err"
    rc=$?
    if [[ $rc -ne 2 || $(wc -l <"$TMP/err") -ne 1 || -s $TMP/out ]] || ! grep -qF -- "$pat" "$TMP/err" ||
        ! grep -q '^papcoll-sched: ' "$TMP/err"; then
        fail "'$*': exit $rc, stderr '$(head -c 300 "$TMP/err")', want exit 2 and '$pat'"
    fi
}

# check_format FILE: header, integer lines, order, single port, rounds.
check_format() {
    awk '
        BEGIN { pr = -1; pv = -1 }
        NR == 1 {
            if ($0 !~ /^# clairvoyant P=[0-9]+ N=[0-9]+ d=[^ ]+ root=[0-9]+ rounds=[0-9]+ impl=(reference|fast)$/) {
                print "bad header: " $0; bad = 1; exit
            }
            for (i = 3; i <= NF; i++) { split($i, kv, "="); h[kv[1]] = kv[2] }
            P = $2; sub(/P=/, "", P); next
        }
        NF != 4 || $0 !~ /^[0-9]+ [0-9]+ [0-9]+ [0-9]+$/ { print "bad line " NR ": " $0; bad = 1; exit }
        {
            r = $1; s = $2; v = $3; g = $4
            if (r < pr || (r == pr && v <= pv)) { print "line " NR " out of order"; bad = 1; exit }
            if (s >= P || v >= P || g >= h["N"] || s == v) { print "line " NR " out of range"; bad = 1; exit }
            if (sent[r, s]++) { print "rank " s " sends twice in round " r; bad = 1; exit }
            pr = r; pv = v; last = r; n++
        }
        END {
            if (bad) exit 1
            if (h["rounds"] != (n ? last + 1 : 0)) { print "rounds=" h["rounds"] " but last round " last; exit 1 }
        }' "$1"
}

# --help
if ! "$PS" --help >"$TMP/help" 2>&1 || ! grep -q '^usage: papcoll-sched' "$TMP/help"; then
    fail "--help failed"
fi
for opt in pat pat-file procs segments round-time root impl elide bench instances max-p seed json help; do
    grep -q -- "--$opt " "$TMP/help" || fail "--help does not list --$opt"
done

# Proficz 2020, Sect. 4.2: a = (0, 0, 0, 1.1), N = 4, d = 1, root 0 (worked by hand in tests/test_clairvoyant.c).
cat >"$TMP/want" <<'EOF'
# clairvoyant P=4 N=4 d=1 root=0 rounds=6 impl=IMPL
0 1 0 0
0 0 1 1
1 2 0 0
1 3 1 1
1 0 2 2
1 1 3 2
2 3 0 0
2 2 1 1
2 0 2 3
2 1 3 3
3 1 0 1
3 3 2 2
3 2 3 3
4 2 0 2
5 3 0 3
EOF
for impl in reference fast; do
    "$PS" --pat 0,0,0,1.1 --segments 4 --impl "$impl" >"$TMP/got" 2>"$TMP/err" || fail "4.2 example ($impl) exited $?"
    sed "s/IMPL/$impl/" "$TMP/want" | cmp -s - "$TMP/got" || fail "4.2 example ($impl): output differs: $(head -3 "$TMP/got")"
done

# Larger cases: format, and reference == fast.
awk 'BEGIN { srand(7); for (i = 0; i < 60; i++) printf "%.6f\n", rand() * 60.1 }' >"$TMP/nums"
pat=$(paste -sd, "$TMP/nums")
{
    echo "# 60 arrivals, uniform in [0, 60.1]; blanks, commas and newlines separate"
    awk '{ printf "%s%s", $0, (NR % 7 ? ", " : "  # seven\n") } END { print "" }' "$TMP/nums"
} >"$TMP/pat.txt"
for impl in reference fast; do
    "$PS" --pat-file "$TMP/pat.txt" --segments 24 --round-time 0.37 --root 17 --impl "$impl" >"$TMP/$impl" ||
        fail "pat-file case ($impl) exited $?"
    check_format "$TMP/$impl" >"$TMP/why" || fail "pat-file case ($impl): $(cat "$TMP/why")"
done
cmp -s <(tail -n +2 "$TMP/reference") <(tail -n +2 "$TMP/fast") || fail "reference and fast differ on the pat-file case"
"$PS" --pat "$pat" --segments 24 --round-time 0.37 --root 17 >"$TMP/list" || fail "--pat case exited $?"
cmp -s "$TMP/list" "$TMP/fast" || fail "--pat and --pat-file give different schedules"
[[ $(head -1 "$TMP/fast") == "# clairvoyant P=60 N=24 d=0.37 root=17 rounds="*" impl=fast" ]] ||
    fail "header: $(head -1 "$TMP/fast")"

# --procs alone: balanced, ceil(log2 8) + 5 - 1 = 7 rounds; any root.
"$PS" --procs 8 --segments 5 --root 3 >"$TMP/bal" || fail "--procs 8 exited $?"
check_format "$TMP/bal" >"$TMP/why" || fail "balanced: $(cat "$TMP/why")"
grep -q '^# clairvoyant P=8 N=5 d=1 root=3 rounds=7 impl=fast$' "$TMP/bal" || fail "balanced header: $(head -1 "$TMP/bal")"
"$PS" --procs 1 --segments 3 >"$TMP/one" && [[ $(cat "$TMP/one") == "# clairvoyant P=1 N=3 d=1 root=0 rounds=0 impl=fast" ]] ||
    fail "P=1: $(cat "$TMP/one")"
"$PS" --pat 0,0.1,0.3 --round-time 0.1 >"$TMP/d" && grep -q ' d=0.1 ' "$TMP/d" || fail "d printed as $(head -1 "$TMP/d")"

# --elide: what the reduce executes.  Balanced P = 8, N = 5: the root only
# receives and every contribution moves once, (P - 1) N = 35 transfers in the
# same 7 rounds; the late rank of a = (0, 0, 0, 9) streams to the root.
"$PS" --procs 8 --segments 5 --root 3 --elide >"$TMP/el" || fail "--elide exited $?"
check_format "$TMP/el" >"$TMP/why" || fail "--elide: $(cat "$TMP/why")"
[[ $(head -1 "$TMP/el") == "$(head -1 "$TMP/bal")" && $(grep -c '^[0-9]' "$TMP/el") -eq 35 ]] ||
    fail "--elide balanced: $(head -1 "$TMP/el"), $(grep -c '^[0-9]' "$TMP/el") transfers"
awk '!/^#/ && $2 == 3 { bad = 1 } END { exit bad }' "$TMP/el" || fail "--elide balanced: the root sends"
"$PS" --pat 0,0,0,9 --segments 4 --elide | grep '^[0-9]* 3 ' >"$TMP/late" || fail "--elide late rank exited"
[[ $(tr '\n' ';' <"$TMP/late") == "8 3 0 0;9 3 0 1;10 3 0 2;11 3 0 3;" ]] ||
    fail "--elide late rank: $(tr '\n' ';' <"$TMP/late")"

# Rejected input: one line each, exit 2.
printf '0 1\n2 x\n' >"$TMP/bad.txt"
expect_error "--pat has 2 arrival times, but --procs is 3" --pat 0,1 --procs 3
expect_error "--pat-file has 60 arrival times, but --procs is 2" --pat-file "$TMP/pat.txt" --procs 2
expect_error "arrival of rank 1 is -1: must be >= 0" --pat 0,-1,2
expect_error "--pat: value 2 'nan' is not a finite number" --pat 0,nan,2
expect_error "--pat: value 2 'inf' is not a finite number" --pat 0,inf
expect_error "--pat-file: value 4 'x' is not a finite number" --pat-file "$TMP/bad.txt"
expect_error "--pat-file: cannot open" --pat-file "$TMP/missing.txt"
expect_error "no arrival times" --pat-file /dev/null
expect_error "--segments: expected an integer in [1," --procs 3 --segments 0
expect_error "--segments: expected an integer in [1," --procs 3 --segments -4
expect_error "root 3 out of range [0, 3)" --procs 3 --root 3
expect_error "--root: expected an integer" --procs 3 --root -1
expect_error "round time d = 0: must be finite and > 0" --procs 3 --round-time 0
expect_error "--round-time: expected a number" --procs 3 --round-time nan
expect_error "--impl: unknown generator 'linear'" --procs 3 --impl linear
expect_error "give the arrival times" --segments 4
expect_error "exclude each other" --pat 0 --pat-file "$TMP/pat.txt"
expect_error "belong to --bench" --procs 3 --instances 4
expect_error "--bench draws its own instances" --bench --procs 4
expect_error "--bench draws its own instances" --bench --elide
expect_error "unknown option '--frob'" --procs 3 --frob

# A tiny benchmark: both generators, every schedule valid.
if ! "$PS" --bench --max-p 8 --instances 2 >"$TMP/bench" 2>"$TMP/bench.err"; then
    fail "--bench exited $?: $(tail -2 "$TMP/bench.err")"
fi
[[ $(grep -cE '^ +(4|8) +(uniform|skewed) +2 .* 2/2$' "$TMP/bench") -eq 4 ]] || fail "--bench table: $(cat "$TMP/bench")"
[[ $(grep -cE '^(uniform|skewed|balanced) +2 .* 2/2$' "$TMP/bench") -eq 3 ]] || fail "--bench P=128 table"
grep -q '^bench: P=N=8 skewed: 2 instances' "$TMP/bench.err" || fail "--bench progress lines missing"
# A schedule of 2^22 cells or more says on stderr that it is being made, and when it was.
"$PS" --procs 2048 --segments 2048 >/dev/null 2>"$TMP/long.err" || fail "P = N = 2048 exited $?"
grep -q '^papcoll-sched: generating the fast schedule for P = 2048, N = 2048$' "$TMP/long.err" &&
    grep -qE '^papcoll-sched: generated in [0-9.]+ s \(2058 rounds\); checking and printing$' "$TMP/long.err" ||
    fail "P = N = 2048: no progress lines: $(head -c 200 "$TMP/long.err")"
"$PS" --procs 64 --segments 64 >/dev/null 2>"$TMP/short.err"
[[ ! -s $TMP/short.err ]] || fail "P = N = 64 wrote to stderr: $(head -c 200 "$TMP/short.err")"
# An unwritable --json fails before the benchmark runs: no table on stdout.
"$PS" --bench --max-p 8 --instances 2 --json "$TMP/no/such/dir.json" >"$TMP/bench" 2>"$TMP/bench.err"
rc=$?
[[ $rc -eq 1 && ! -s $TMP/bench ]] && grep -q "^papcoll-sched: --json: cannot write" "$TMP/bench.err" ||
    fail "--bench with an unwritable --json: exit $rc, $(wc -l <"$TMP/bench") stdout lines: $(head -c 200 "$TMP/bench.err")"

[[ $failed -eq 0 ]] && echo "papcoll_sched: all cases passed"
exit $((failed > 0))
