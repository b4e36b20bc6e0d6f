#!/usr/bin/env bash
# SimGrid SMPI (docs/simulation.md): builds the SMPI variant (make smpi) and
# runs papbench's gather on 4 simulated ranks of the parametric cluster
# (jobs/simcluster --platform cluster) with rank 1 late by D = 10 and 50 ms.
# LIN's run time must follow the delay: every iteration takes D plus the late
# rank's block (256 KiB at 1 Gbit/s, about 2.2 ms), so the two runs differ
# by 40 ms.  The times are simulated and, with SMPI's replay of the CPU
# bursts between MPI calls switched off (smpi/simulate-computation:no),
# deterministic: the bounds are tight and no wall clock is involved.
# Then the monitor's exchange on 7 ranks (sorted bcast), and every
# background algorithm of every op (algos.def's BACKGROUND ones,
# papbench's "[monitor thread]") on 4 ranks under 10 ms uniform delays,
# each under timeout 60: it must finish, validate and run without a
# warning (no fallback).  Then gather BSLS with the root late by 19 ms,
# whose background part (the monitor as a coroutine of the rank, coop.h)
# pulls the three leaves' blocks while the root sleeps: validated, and each
# iteration ends within 0.3 ms of the root's arrival (SLS needs 3 blocks
# more, 6.6 ms).  Last, fft with PAPCOLL_FFT_SMPI_PASS_US=1000 and 4 --work
# passes: no pass runs, and each rank computes 4 ms per iteration in simulated
# time (real passes would take none here), plus up to 0.5 ms of the library's
# polls (smpi/test); a bad value exits 2.  Reduce with --shared-buffers (shared
# work buffers) on 6 ranks must run.  Skips when SimGrid is not installed.
# About 30 s on 2 cores (most of it the build).
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
if ! command -v smpicc >/dev/null 2>&1 || ! command -v smpirun >/dev/null 2>&1; then
    echo "SKIP smpi.sh: SimGrid is not installed (smpicc, smpirun; jobs/deps --install adds libsimgrid-dev)"
    exit 77
fi
make_scratch
fails=0
fail() {
    echo "FAIL smpi.sh: $*"
    fails=$((fails + 1))
}

if ! make -C "$ROOT" -s -j2 smpi >"$TMP/build.log" 2>&1; then
    tail -n 20 "$TMP/build.log"
    echo "FAIL smpi.sh: make smpi failed"
    exit 1
fi

# Runs LIN at delay $1 ms into $TMP/d$1; prints each iteration's run time minus the delay, in ms.
late_rank() {
    local d=$1 out=$TMP/d$1
    if ! timeout -k 5 120 "$ROOT/jobs/simcluster" --platform cluster --np 4 --out "$out" \
        --cfg smpi/simulate-computation:no -- papbench \
        --op gather --algos lin --size 256K --iters 4 --warmup 1 --base-ms 5 --pattern single:1 \
        --maxdelay "$d" --no-monitor --quiet >"$out.log" 2>&1; then
        tail -n 20 "$out.log"
        fail "papbench at D = $d ms failed under SMPI"
        return
    fi
    grep -q '^validation: PASSED' "$out.log" || fail "D = $d ms: validation did not pass"
    awk -F, -v d="$d" 'NR > 1 && $1 == "lin" { printf "%.4f\n", 1e3 * $3 - d }' "$out/results.csv"
}

for d in 10 50; do
    late_rank "$d" >"$TMP/excess$d"
    [[ $(wc -l <"$TMP/excess$d") == 4 ]] || fail "D = $d ms: not 4 iterations in results.csv"
    # D + one block of 256 KiB: 2.18 ms at 0.96 Gbit/s, plus latencies (2.22 ms here).
    awk '$1 < 2.1 || $1 > 2.35 { bad = 1 } END { exit bad }' "$TMP/excess$d" ||
        fail "D = $d ms: LIN's run time is not D + 2.1..2.35 ms: $(tr '\n' ' ' <"$TMP/excess$d")"
done
# The delay alone moves the run time: the same excess at both delays.
paste "$TMP/excess10" "$TMP/excess50" | awk '{ x = $1 - $2; if (x < -0.05 || x > 0.05) bad = 1 } END { exit bad }' ||
    fail "LIN's run time minus the delay differs between D = 10 and 50 ms"

# Every background algorithm: "op algo" per line, from algos.def.
background_algos() {
    awk '/^PAPCOLL_ALGO\(/ { l = $0; getline n; l = l n; if (l ~ /F\(BACKGROUND\)/) {
        sub(/^PAPCOLL_ALGO\(/, "", l); split(l, f, /, */); print f[1], f[2] } }' "$ROOT/papcoll/src/algos.def"
}
nbg=0
while read -r op algo; do
    out=$TMP/bg-$op-$algo
    nbg=$((nbg + 1))
    if ! timeout -k 5 60 "$ROOT/jobs/simcluster" --platform cluster --np 4 --out "$out" \
        --cfg smpi/simulate-computation:no -- papbench \
        --op "$op" --algos "$algo" --size 64K --iters 4 --warmup 1 --maxdelay 10 --seed 1 --quiet >"$out.log" 2>&1; then
        tail -n 5 "$out.log"
        fail "$op $algo did not finish under SMPI (exit or timeout of 60 s)"
        continue
    fi
    grep -q '^validation: PASSED' "$out.log" || fail "$op $algo: validation did not pass"
    ! grep -qi 'warning' "$out.log" || fail "$op $algo: a warning (fallback?): $(grep -i -m1 warning "$out.log")"
done < <(background_algos)
[[ $nbg -ge 9 ]] || fail "found only $nbg background algorithms in algos.def"

# The monitor's exchange under SMPI (Bruck's allgather, monitor.c) on 7
# ranks, not a power of two: sorted's tree comes from the exchanged table,
# so a rank holding a wrong row derives another tree and the bcast hangs.
xc=$TMP/xchg
timeout -k 5 60 "$ROOT/jobs/simcluster" --platform cluster --np 7 --out "$xc" -- papbench \
    --op bcast --algos sorted --size 64K --iters 6 --warmup 1 --pattern single:3 --maxdelay 10 \
    --quiet >"$xc.log" 2>&1
grep -q '^validation: PASSED' "$xc.log" || fail "sorted bcast on 7 ranks: the exchange's tables differ (hung or failed)"

# BSLS under a late root: the background part absorbs every block.
bg=$TMP/bsls
if timeout -k 5 120 "$ROOT/jobs/simcluster" --platform cluster --np 4 --out "$bg" \
    --cfg smpi/simulate-computation:no -- papbench \
    --op gather --algos bsls --size 256K --iters 4 --warmup 1 --base-ms 5 --pattern single:0 \
    --maxdelay 20 --quiet >"$bg.log" 2>&1; then
    grep -q '^validation: PASSED' "$bg.log" || fail "BSLS: validation did not pass"
    grep -q 'monitor *running' "$bg.log" || fail "BSLS: the monitor did not run"
    # run time minus the root's arrival offset (a0), ms
    awk -F, 'NR > 1 && $1 == "bsls" { printf "%.4f\n", 1e3 * ($3 - $7) }' "$bg/results.csv" >"$TMP/bsls_excess"
    [[ $(wc -l <"$TMP/bsls_excess") == 4 ]] || fail "BSLS: not 4 iterations in results.csv"
    awk '$1 > 0.3 { bad = 1 } END { exit bad }' "$TMP/bsls_excess" ||
        fail "BSLS: the background part did not absorb the blocks (run time - root delay, ms: $(tr '\n' ' ' <"$TMP/bsls_excess"))"
else
    tail -n 20 "$bg.log"
    fail "papbench BSLS failed under SMPI"
fi

# --shared-buffers: the library's work buffers come from SMPI_SHARED_MALLOC
# too (papcoll_sim_shared_scratch), kept by the site (twotree) or taken per
# call (radixk; rabenseifner's fold on 6 ranks, ring): it must run and free them.
sh=$TMP/shared
timeout -k 5 60 "$ROOT/jobs/simcluster" --platform cluster --np 6 --out "$sh" -- papbench --op reduce \
    --algos twotree,radixk,rabenseifner,ring --size 512K --iters 2 --warmup 1 --shared-buffers --no-monitor \
    --quiet >"$sh.log" 2>&1 && grep -q '^validation: SKIPPED' "$sh.log" ||
    fail "reduce with --shared-buffers failed under SMPI: $(tail -n 3 "$sh.log" | tr '\n' ' ')"

# fft's replayed --work passes (docs/simulation.md): 3 iterations x 4 passes x 1 ms on every rank.
ff=$TMP/fft
if PAPCOLL_FFT_SMPI_PASS_US=1000 timeout -k 5 120 "$ROOT/jobs/simcluster" --platform cluster --np 4 --out "$ff" \
    --cfg smpi/simulate-computation:no -- fft --n 16K --iters 3 --work 4 --algo bsls --quiet >"$ff.log" 2>&1; then
    grep -q '^validation: PASSED' "$ff.log" || fail "fft: validation did not pass"
    python3 -c 'import json, sys; j = json.load(open(sys.argv[1]))
sys.exit(not (j["work_passes"] == 0 and 0.012 <= j["compute_time"] < 0.0135))' "$ff/summary.json" ||
        fail "fft: passes ran, or not 12 ms (+ the library's polls) per rank: $(grep -o '"compute_time": [^,]*' "$ff/summary.json")"
else
    tail -n 20 "$ff.log"
    fail "fft with replayed passes failed under SMPI"
fi
PAPCOLL_FFT_SMPI_PASS_US=-1 "$ROOT/jobs/simcluster" --platform cluster --np 2 --out "$ff-bad" -- fft --n 16K \
    --iters 1 --work 2 --quiet >"$ff-bad.log" 2>&1
[[ $? == 2 ]] && grep -q 'PAPCOLL_FFT_SMPI_PASS_US: expected' "$ff-bad.log" || fail "fft: a bad PAPCOLL_FFT_SMPI_PASS_US did not exit 2"

if [[ $fails -gt 0 ]]; then
    exit 1
fi
echo "smpi.sh: all checks passed ($nbg background algorithms validated; LIN minus the delay, ms: $(tr '\n' ' ' <"$TMP/excess50");" \
    "BSLS minus the root's delay, ms: $(tr '\n' ' ' <"$TMP/bsls_excess"))"
