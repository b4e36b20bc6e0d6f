#!/usr/bin/env bash
# The PMPI interposer (docs/pmpi.md): unmodified programs that check their
# own collectives -- C (check_c), Fortran with mpif.h (check_mpif) and with
# `use mpi` (check_usempi), Python/mpi4py (check_py.py) -- run under
# LD_PRELOAD=lib/libpapcoll_pmpi.so and must keep passing:
#
#   trace mode, P = 3 and 4: results right, the summary's counts as the
#     programs force them (places that differ, intercommunicator, MPI_COMM_SELF),
#     inter_c's intercommunicator collectives through papcoll via local groups,
#     trace files that paptrace info/stats/pat read, a pat file that papbench
#     replays;
#   replace mode with every algorithm of every op forced (the list comes from
#     papcoll-algos, i.e. papcoll_algo_count/name): run k forces algorithm
#     k mod count(op) of every op at once under check_c, alternating P = 3
#     and 4, and under one of the others in turn (a Fortran checker, split_c,
#     inter_c, the Python checker); the full run: check_c at both, all four;
#   the agreement variants: PAPCOLL_AGREE=stable:N (trusted calls, the late
#     divergence counted), PAPCOLL_SITE_DEPTH=0 (no agreement) and 2,
#     PAPCOLL_SITE_ID=function; a refused configuration (interposer off).
#
# About 45 s on 2 cores (full run: about 1 min).
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
LIB=$OUTDIR/lib/libpapcoll_pmpi.so
T=$OUTDIR/build/tests/pmpi
PT=$OUTDIR/bin/paptrace
PB=$OUTDIR/bin/papbench
PY=/usr/bin/python3
need_bins "$T/check_c" "$T/split_c" "$T/inter_c" "$T/split_f" "$T/check_mpif" "$T/check_usempi" "$T/reduce_loop" "$T/papcoll-algos" "$PT" "$PB"
[[ -f $LIB ]] || { echo "FAIL: $LIB missing (run make)"; exit 1; }
$PY -c 'import mpi4py, numpy' 2>/dev/null ||
    { echo "FAIL: $PY lacks mpi4py or numpy (Debian: python3-mpi4py python3-numpy; jobs/deps --install)"; exit 1; }
make_scratch
cd "$TMP" || exit 1 # trace mode's default file, papcoll-trace.h5, lands here
unset PAPCOLL_MODE PAPCOLL_TRACE PAPCOLL_SITE_DEPTH PAPCOLL_SITE_ID PAPCOLL_AGREE PAPCOLL_MIN_RANKS PAPCOLL_MAX_SITES
unset PAPCOLL_CONFIG PAPCOLL_PREDICTOR PAPCOLL_FALLBACK PAPCOLL_CHECK
while read -r _ _ env; do unset "$env"; done < <("$T/papcoll-algos")
failures=0
fail() {
    echo "FAIL pmpi: $*"
    failures=$((failures + 1))
}

# run NAME NP [VAR=VALUE...] -- PROGRAM ARGS: one mpirun under the
# interposer; its stderr (the interposer's lines) is $TMP/NAME.log, its
# stdout (the program's) $TMP/NAME.out: mpirun forwards the two streams
# separately, and one merged file can get a stdout line inside the
# summary.  Fails unless the program passed its own checks and the
# summary's counts line was printed.
run() {
    local name=$1 np=$2 envs=(-x LD_PRELOAD="$LIB") log=$TMP/$1.log
    shift 2
    while [[ $1 != -- ]]; do envs+=(-x "$1"); shift; done
    shift
    timeout -k 5 120 mpirun --oversubscribe --mca mpi_yield_when_idle 1 -np "$np" "${envs[@]}" "$@" \
        >"${log%.log}.out" 2>"$log"
    local rc=$?
    if [[ $rc -ne 0 ]] || ! grep -qE "check_[a-z_]+: P=$np: [0-9]+ checks, 0 failed$" "${log%.log}.out" ||
        ! grep -q '^papcoll_pmpi: counts:' "$log"; then
        fail "$name: exit $rc; $(cat "$log" "${log%.log}.out" | grep -m3 -E 'FAIL|rror|papcoll_pmpi: rank' | tr '\n' ' ')(logs below)"
        tail -n 15 "$log" "${log%.log}.out" | sed 's/^/    /'
        return 1
    fi
}

# count KEY NAME: a value of the summary's counts line of run NAME.
count() {
    sed -n "s/^papcoll_pmpi: counts:.* $1=\([0-9]*\).*/\1/p" "$TMP/$2.log"
}
handled() {
    local n=0 op
    for op in $OPS; do n=$((n + $(count "$op" "$1"))); done
    echo $n
}
# at_least NAME N: at least N rank-calls went through papcoll.
at_least() {
    [[ $(handled "$1") -ge $2 ]] || fail "$1: only $(handled "$1") rank-calls went through papcoll, expected >= $2"
}
expect() { # NAME KEY OP VALUE
    local v
    v=$(count "$2" "$1")
    awk -v a="${v:-x}" -v b="$4" -v op="$3" 'BEGIN { exit !(a != "x" && (op == "==" ? a == b : op == ">=" ? a >= b : a <= b)) }' ||
        fail "$1: $2=${v:-missing}, expected $3 $4"
}

# arrivals FILE: "ok" when the median of rank 3's delay minus rank 0's is over 1 ms.
arrivals() {
    local d
    d=$(grep -v '^#' "$1" | awk '{ print $4 - $1 }' | sort -g |
        awk '{ v[NR] = $1 } END { print NR ? v[int((NR + 1) / 2)] : "none" }')
    awk -v d="$d" 'BEGIN { exit !(d != "none" && d > 0.001) }' && echo ok ||
        echo "rank 3 arrived a median $d s after rank 0 (expected > 0.001)"
}
OPS=$("$T/papcoll-algos" | awk '!seen[$1]++ { printf "%s ", $1 }')

# 1. Trace mode, the defaults: every call agreed, call sites by return address.
for np in 3 4; do
    run "trace-c-$np" $np PAPCOLL_TRACE="$TMP/c$np.h5" -- "$T/check_c" || continue
    # check_c: 5 + 1 calls whose ranks come from different functions (on
    # signature sites), 2 intercommunicator collectives (via local groups)
    # and one on MPI_COMM_SELF per rank.
    expect "trace-c-$np" differ == 0
    expect "trace-c-$np" signature_keyed == $((6 * np))
    expect "trace-c-$np" intercomm == 0
    expect "trace-c-$np" inter_local == $((2 * np))
    expect "trace-c-$np" small ">=" $np
    expect "trace-c-$np" errors == 0
    at_least "trace-c-$np" $((200 * np))
    grep -q "allreduce/4B \[rank 0 at check_c+0x[0-9a-f]*, others at +0x" "$TMP/trace-c-$np.log" ||
        fail "trace-c-$np: summary does not list the signature site of the diverging calls"
done
# Fortran: the two functions of the diverging call are inlined into one,
# so PAPCOLL_SITE_ID=function sees one site there (and everywhere else).
run trace-mpif-3 3 PAPCOLL_TRACE="$TMP/f.h5" -- "$T/check_mpif" && expect trace-mpif-3 differ == 0 &&
    expect trace-mpif-3 signature_keyed ">=" 9 &&
    at_least trace-mpif-3 250
run trace-usempi-4 4 PAPCOLL_TRACE="$TMP/u.h5" PAPCOLL_SITE_ID=function -- "$T/check_usempi" &&
    expect trace-usempi-4 signature_keyed == 0 && at_least trace-usempi-4 400
run trace-py-4 4 PAPCOLL_TRACE="$TMP/p.h5" -- $PY "$ROOT/tests/pmpi/check_py.py" && expect trace-py-4 differ == 0 &&
    expect trace-py-4 signature_keyed == 12 &&
    at_least trace-py-4 400

# The root/non-root idiom (split_c, split_f): the root calls from one line,
# the others from another.  Every call runs on a signature site and is in
# the trace, under a name that says where the ranks called from, with the
# arrivals of split_c's computation ((rank % 4) x 2 ms before each call).
# rank-calls of split_c at P ranks: 4 ops x (12 + P) split calls, 3 P in
# place, 10 from two functions, the final allreduce.
split_calls() { echo $(($1 * (4 * (12 + $1) + 3 * $1 + 11))); }
for np in 3 4; do
    run "split-trace-$np" $np PAPCOLL_TRACE="$TMP/s$np.h5" -- "$T/split_c" &&
        expect "split-trace-$np" differ == 0 && expect "split-trace-$np" errors == 0 &&
        expect "split-trace-$np" signature_keyed == $(($(split_calls $np) - np)) &&
        [[ $(handled "split-trace-$np") -eq $(split_calls $np) ]] ||
        fail "split-trace-$np: $(handled "split-trace-$np") rank-calls through papcoll, expected $(split_calls $np)"
done
"$PT" info "$TMP/s4.h5" >"$TMP/s4.info" 2>&1 || fail "paptrace info s4.h5: $(head -2 "$TMP/s4.info")"
grep -qE '^ +0  gather/r0/96B \[root at split_c\+0x[0-9a-f]+, others at \+0x[0-9a-f]+\] .* 14  mpi x14$' "$TMP/s4.info" ||
    fail "s4.h5: no site 0 'gather/r0/96B [root at split_c+..., others at +...]' with 14 calls"
# the attribute `places` of a signature site: the root's place, then the others'
h5dump -a /sites/0/places "$TMP/s4.h5" 2>/dev/null | tr -d '\n ' |
    grep -qE 'DATA\{\(0\):"split_c\+0x[0-9a-f]+","split_c\+0x[0-9a-f]+","split_c\+0x[0-9a-f]+",\(3\):"split_c\+0x[0-9a-f]+"\}' ||
    fail "s4.h5: site 0 has no attribute places with 4 places"
"$PT" pat "$TMP/s4.h5" --site gather/r0/96B >"$TMP/s4.pat" 2>"$TMP/err" || fail "paptrace pat s4.h5: $(cat "$TMP/err")"
[[ $(grep -vc '^#' "$TMP/s4.pat") -eq 14 ]] || fail "s4.pat: $(grep -vc '^#' "$TMP/s4.pat") calls, expected 14"
a=$(arrivals "$TMP/s4.pat")
[[ $a == ok ]] || fail "s4.pat does not show split_c's rank-dependent computation: $a"
run split-limit-3 3 PAPCOLL_MAX_SITES=4 -- "$T/split_c" --iters 2 && expect split-limit-3 differ == 0 &&
    expect split-limit-3 overflow ">=" 60 &&
    [[ $(handled split-limit-3) -eq $(($(split_calls 3) - 120)) ]] ||
    fail "split-limit-3: $(handled split-limit-3) rank-calls through papcoll, expected $(($(split_calls 3) - 120))"
run split-f-3 3 PAPCOLL_MODE=replace -- "$T/split_f" && expect split-f-3 differ == 0 &&
    expect split-f-3 signature_keyed == 60
# An erroneous program that plain MPI tolerates (a linear bcast, the root
# sending half of what the others receive): the byte counts differ, so the
# call passes through on every rank, and nothing hangs.
run split-mismatch-4 4 PAPCOLL_MODE=replace OMPI_MCA_coll_tuned_use_dynamic_rules=1 \
    OMPI_MCA_coll_tuned_bcast_algorithm=1 -- "$T/split_c" --mismatch --iters 1 &&
    expect split-mismatch-4 differ == 4 && expect split-mismatch-4 bcast_passed == 4 &&
    { grep -q "calls differ at bcast@split_c+0x[0-9a-f]*/r0/96B  *1 calls" "$TMP/split-mismatch-4.log" ||
        fail "split-mismatch-4: the summary does not list the call whose byte counts differ"; }

# Intercommunicator collectives (inter_c): every rank-call through papcoll
# via the local groups, P (30 P + 12) of them (P roots x 3 counts x 5 calls
# and 6 allreduces, twice).  At P = 5 (groups of 2 and 3) every local
# collective runs through papcoll; at P = 3 group A has one rank, whose
# local collectives pass to PMPI (a small communicator).  Plus one reduce
# on MPI_COMM_WORLD.
inter_ok() { # NAME P PARTS PASSED
    local n=$(($2 * (30 * $2 + 12)))
    expect "$1" errors == 0 && expect "$1" intercomm == 0 && expect "$1" inter_local == $n &&
        expect "$1" parts == "$3" && expect "$1" parts_passed == "$4" &&
        { [[ $(handled "$1") -eq $((n + $2)) ]] || fail "$1: $(handled "$1") rank-calls through papcoll, expected $((n + $2))"; }
}
run inter-trace-5 5 PAPCOLL_TRACE="$TMP/i5.h5" -- "$T/inter_c" && inter_ok inter-trace-5 5 480 0
run inter-trace-3 3 -- "$T/inter_c" && inter_ok inter-trace-3 3 108 84

# The traces: the world's file and the sub-communicators' files.
for f in "$TMP"/c4.h5 "$TMP"/c4.*.h5 "$TMP"/f.h5 "$TMP"/u.h5 "$TMP"/p.h5; do
    [[ -f $f ]] || { fail "trace file $f missing"; continue; }
    "$PT" info "$f" >"$TMP/info" 2>&1 || fail "paptrace info $f: $(head -2 "$TMP/info")"
done
ls "$TMP"/c4.*.h5 >/dev/null 2>&1 || fail "no trace file of check_c's sub-communicators"
grep -q '^program  *check_c$' <("$PT" info "$TMP/c4.h5") || fail "c4.h5: program is not check_c"
"$PT" stats "$TMP/c4.h5" >"$TMP/stats" 2>&1 || fail "paptrace stats c4.h5: $(head -2 "$TMP/stats")"
site=$("$PT" info "$TMP/c4.h5" | awk '$2 ~ /^allreduce@check_c/ && $8 + 0 >= 20 { print $2; exit }')
[[ -n $site ]] || fail "c4.h5: no allreduce site with 20 calls (the loop)"
"$PT" pat "$TMP/c4.h5" --site "$site" >"$TMP/c.pat" 2>"$TMP/err" || fail "paptrace pat: $(cat "$TMP/err")"

# An overhead-style loop: trace, pat, replay in papbench.  Rank r computes
# 5 ms x (r % 4) before each reduce, and the pat file must show it: rank 3
# arrives more than 1 ms after rank 0 in most calls (nominally 15 ms; 2
# cores time-share the busy ranks, so less is certain).  The arrival is the
# entry into MPI_Reduce, not the end of the interposer's agreement: timed
# after it, all ranks arrived within 0.1 ms.  The same in replace mode.
for mode in trace replace; do
    timeout -k 5 120 mpirun --oversubscribe --mca mpi_yield_when_idle 1 -np 4 -x LD_PRELOAD="$LIB" \
        -x PAPCOLL_MODE=$mode -x PAPCOLL_TRACE="$TMP/loop-$mode.h5" "$T/reduce_loop" --iters 30 --warmup 2 \
        --bytes 65536 --delay-us 5000 >"$TMP/loop-$mode.log" 2>&1 && grep -q 'check=ok' "$TMP/loop-$mode.log" ||
        { fail "reduce_loop in $mode mode: $(tail -3 "$TMP/loop-$mode.log")"; continue; }
    loopsite=$("$PT" info "$TMP/loop-$mode.h5" 2>/dev/null | awk '$2 ~ /^reduce@reduce_loop/ { print $2; exit }')
    "$PT" pat "$TMP/loop-$mode.h5" --site "$loopsite" --skip 2 >"$TMP/loop-$mode.pat" 2>"$TMP/err" ||
        fail "pat of reduce_loop ($mode): $(cat "$TMP/err")"
    [[ $(grep -vc '^#' "$TMP/loop-$mode.pat") -eq 30 ]] ||
        fail "loop-$mode.pat: $(grep -vc '^#' "$TMP/loop-$mode.pat") lines, expected 30"
    a=$(arrivals "$TMP/loop-$mode.pat")
    [[ $a == ok ]] || { fail "$mode mode does not trace the arrivals reduce_loop computes: $a; the first calls:"
        grep -v '^#' "$TMP/loop-$mode.pat" | head -5 | sed 's/^/    /'; }
done
cp "$TMP/loop-trace.pat" "$TMP/loop.pat" 2>/dev/null
timeout -k 5 120 mpirun --oversubscribe --mca mpi_yield_when_idle 1 -np 4 "$PB" --algos ls,sls --size 4K --iters 3 \
    --warmup 0 --base-ms 1 --quiet --pattern "replay:$TMP/loop.pat" >"$TMP/replay.log" 2>&1 ||
    fail "papbench does not replay the interposer's pat file: $(tail -2 "$TMP/replay.log")"

# 2. Replace mode, every algorithm of every op forced.
mapfile -t ALGOS < <("$T/papcoll-algos")
# turn J: set k runs the J-th of the other four programs (the full run: all four).
turn() { full_run || [[ $((k % 4)) -eq $1 ]]; }
max=$(printf '%s\n' "${ALGOS[@]}" | awk '{ n[$1]++ } END { for (o in n) if (n[o] > m) m = n[o]; print m }')
for ((k = 0; k < max; k++)); do
    forced=() label=""
    for op in $OPS; do
        mapfile -t mine < <(printf '%s\n' "${ALGOS[@]}" | awk -v o="$op" '$1 == o { print $2 " " $3 }')
        pick=${mine[$((k % ${#mine[@]}))]}
        forced+=("${pick#* }=${pick%% *}")
        label+="${op}:${pick%% *} "
    done
    echo "replace $k: $label"
    np=$((3 + k % 2)) other=$((4 - k % 2))
    cps=$np
    full_run && cps="3 4"
    for p in $cps; do
        run "replace-c-$k-$p" $p PAPCOLL_MODE=replace "${forced[@]}" -- "$T/check_c" &&
            expect "replace-c-$k-$p" errors == 0 && expect "replace-c-$k-$p" differ == 0 &&
            at_least "replace-c-$k-$p" $((200 * p))
    done
    f=$(full_run && echo $k || echo $((k / 4)))
    fprog=$([[ $((f % 2)) -eq 0 ]] && echo check_mpif || echo check_usempi) fnp=$((3 + f % 2))
    if turn 0; then
        run "replace-f-$k" $fnp PAPCOLL_MODE=replace PAPCOLL_SITE_ID=function "${forced[@]}" -- "$T/$fprog" &&
            expect "replace-f-$k" errors == 0 && expect "replace-f-$k" signature_keyed == 0 &&
            at_least "replace-f-$k" $((100 * fnp))
    fi
    if turn 1; then
        run "replace-split-$k" $other PAPCOLL_MODE=replace "${forced[@]}" -- "$T/split_c" --iters 2 &&
            expect "replace-split-$k" errors == 0 && expect "replace-split-$k" differ == 0 &&
            [[ $(handled "replace-split-$k") -eq $(($(split_calls $other) - 40 * other)) ]] ||
            fail "replace-split-$k: $(handled "replace-split-$k") rank-calls through papcoll"
    fi
    if turn 2; then
        run "replace-inter-$k" 5 PAPCOLL_MODE=replace "${forced[@]}" -- "$T/inter_c" && inter_ok "replace-inter-$k" 5 480 0
    fi
    if turn 3; then
        run "replace-py-$k" $other PAPCOLL_MODE=replace "${forced[@]}" -- $PY "$ROOT/tests/pmpi/check_py.py" &&
            expect "replace-py-$k" errors == 0 && at_least "replace-py-$k" $((100 * other))
    fi
done
# The thread level is raised once, where a background algorithm is wanted.
grep -q "thread level raised" "$TMP"/replace-c-*-3.log 2>/dev/null ||
    fail "no run said that it raised the thread level (gather's default, bsls, is a background algorithm)"
for f in "$TMP"/replace-c-*-3.log; do
    [[ $(grep -c "thread level raised" "$f") -le 1 ]] || fail "$(basename "$f"): the thread level message repeats"
done

# 3. Agreement variants.
run stable-4 4 PAPCOLL_MODE=replace PAPCOLL_AGREE=stable:4 PAPCOLL_SITE_DEPTH=2 -- "$T/check_c" --iters 16 &&
    expect stable-4 trusted ">=" 100 && expect stable-4 mispredicted ">=" 2 && expect stable-4 check_failed ">=" 4
run depth0-3 3 PAPCOLL_SITE_DEPTH=0 PAPCOLL_MODE=replace -- "$T/check_c" &&
    expect depth0-3 agreed == 0 && expect depth0-3 differ == 0 && expect depth0-3 signature ">=" 500
run bad-config 3 PAPCOLL_MODE=bogus -- "$T/check_c" && expect bad-config off ">=" 500 &&
    { grep -q "papcoll_pmpi: PAPCOLL_MODE='bogus' is not trace, replace or off; interposer off" "$TMP/bad-config.log" ||
        fail "bad-config: no error line"; }
# The policy names are papcoll's: auto is accepted, tune is refused with papcoll's reason.
run policy-auto 3 PAPCOLL_MODE=replace PAPCOLL_GATHER_ALGORITHM=auto -- "$T/split_c" --iters 2 &&
    expect policy-auto off == 0 && expect policy-auto gather ">=" 33
run policy-tune 3 PAPCOLL_MODE=replace PAPCOLL_GATHER_ALGORITHM=tune -- "$T/split_c" --iters 2 &&
    expect policy-tune off == 120 &&
    { grep -q "papcoll_pmpi: PAPCOLL_GATHER_ALGORITHM='tune': policy 'tune': no online tuner.*interposer off" \
        "$TMP/policy-tune.log" || fail "policy-tune: no error line"; }
run bad-trace 3 PAPCOLL_TRACE="$TMP/no/such/dir/t.h5" -- "$T/check_c" && at_least bad-trace 600 &&
    { grep -q "papcoll_pmpi: trace '$TMP/no/such/dir/t.h5' for MPI_COMM_WORLD (3 ranks): .*; its calls are not recorded" \
        "$TMP/bad-trace.log" || fail "bad-trace: no error line for the missing directory"; }

if [[ $failures -gt 0 ]]; then
    echo "pmpi: $failures failure(s)"
    exit 1
fi
echo "pmpi: PASS"
