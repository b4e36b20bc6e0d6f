#!/usr/bin/env bash
# The FFT proxy (bin/fft) end to end: configuration errors are one line and
# exit 2 before any work; runs at P = 1, 2, 4, 8 and several N validate
# against FFTW (own and fftw kernels); a deliberately corrupted block (test-only
# PAPCOLL_FFT_TEST_CORRUPT) makes the validation FAIL with exit 1 and stops every
# rank; every gather algorithm and `mpi` runs; the INI file, noise injection and
# the output files (summary.json, iterations.csv, --trace) work.  ~30 s on 2 cores.
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
FFT=$OUTDIR/bin/fft
need_bins "$FFT"
# Oversubscribed OpenMP teams must sleep, not spin, while they wait.
export OMP_WAIT_POLICY=passive
unset PAPCOLL_CONFIG PAPCOLL_PREDICTOR PAPCOLL_GATHER_ALGORITHM PAPCOLL_FFT_TEST_CORRUPT
make_scratch
fails=0

fail() { echo "FAIL fft.sh: $*"; fails=$((fails + 1)); }

# run NP ARGS...: runs fft, output in $TMP/log, exit status in $rc.  NP 0 runs
# one process without mpirun (MPI singleton): a failing job then costs no
# mpirun abort handling (1-2 s each).
run() {
    local np=$1 mpi=(mpirun --oversubscribe --mca mpi_yield_when_idle 1 -np "$1")
    shift
    [[ $np -eq 0 ]] && mpi=()
    timeout -k 5 60 "${mpi[@]}" "$FFT" --quiet "$@" >"$TMP/log" 2>&1
    rc=$?
}

# json FILE KEY: a top-level scalar of summary.json (the writer puts one key per line).
json() {
    sed -n -E "s/^  \"$2\": \"?([^\",]*)\"?,?$/\1/p" "$1"
}

# expect_ok WHAT NP ARGS...: exit 0, validation PASSED, summary.json consistent.
expect_ok() {
    local what=$1 np=$2
    shift 2
    rm -rf "$TMP/out"
    run "$np" --out "$TMP/out" "$@"
    if [[ $rc -ne 0 ]] || ! grep -q '^validation: PASSED' "$TMP/log"; then
        fail "$what: exit $rc, expected 0 and 'validation: PASSED'"
        sed 's/^/    /' "$TMP/log" | tail -5
        return 1
    fi
    [[ $(json "$TMP/out/summary.json" validation) == PASSED && $(json "$TMP/out/summary.json" P) == "$np" ]] ||
        fail "$what: summary.json disagrees with the run"
    return 0
}

# expect_error WHAT PATTERN NP ARGS...: exit 2 and exactly one line of fft's,
# matching PATTERN (mpirun adds its own lines when a job fails).
expect_error() {
    local what=$1 pat=$2 np=$3
    shift 3
    run "$np" "$@"
    local lines
    lines=$(grep -c '^fft' "$TMP/log")
    if [[ $rc -ne 2 || $lines -ne 1 ]] || ! grep -qE "^fft: .*$pat" "$TMP/log"; then
        fail "$what: exit $rc with $lines lines, expected 2 and one line matching '$pat'"
        sed 's/^/    /' "$TMP/log" | head -5
    fi
}

# --- usage and configuration errors (before any work) ---
run 0 --help
[[ $rc -eq 0 ]] && grep -q -- '--verify-every' "$TMP/log" && grep -q 'bsls' "$TMP/log" || fail "--help"
expect_error "n not a power of two" "power of two" 0 --n 1000
expect_error "block below minimum" "below the minimum" 0 --n 32
expect_error "P not a power of two" "P must be a power of two" 3 --n 4096
expect_error "unknown algorithm" "\\(mpi lin ls .*got 'foo'" 0 --n 4096 --algo foo
expect_error "unknown kernel" "own or fftw" 0 --kernel cuda
expect_error "bad noise" "uniform:MS" 0 --noise gauss
expect_error "slow rank out of range" "R must be a rank" 0 --noise slow-rank:1,2
expect_error "unreadable trace" "cannot read trace file" 0 --noise trace:"$TMP/missing.txt"
expect_error "unknown option" "unknown option" 0 --size 4096
expect_error "bad iterations" "iters" 0 --iters 0
expect_error "missing config file" "cannot read" 0 --config "$TMP/none.ini"
printf '[fft]\nsize = 4096\n' >"$TMP/bad.ini"
expect_error "unknown INI key" "line 2: unknown key 'size'" 0 --config "$TMP/bad.ini"
PAPCOLL_GATHER_ALGORITHM=foo expect_error "bad algorithm from the environment" \
    "PAPCOLL_GATHER_ALGORITHM" 0 --n 4096

# --- P x N with both kernels, validated every other iteration ---
for case in "1 64" "1 65536" "2 8192" "4 131072" "8 512" "8 32768"; do
    read -r np n <<<"$case"
    expect_ok "P=$np n=$n own" "$np" --n "$n" --iters 5 --verify-every 2 --kernel own
done
expect_ok "P=2 n=16384 fftw, 2 threads" 2 --n 16384 --iters 4 --verify-every 1 --kernel fftw --threads 2
expect_ok "P=8 n=16384 fftw" 8 --n 16384 --iters 4 --verify-every 1 --kernel fftw
# The output files of the last run: 4 rows, a/f/c columns for 8 ranks.
if [[ -f $TMP/out/iterations.csv ]]; then
    [[ $(wc -l <"$TMP/out/iterations.csv") -eq 5 ]] || fail "iterations.csv: expected 4 rows and a header"
    head -1 "$TMP/out/iterations.csv" | grep -q '^iter,runtime,elapsed,imbalance,min_arrival,prep,post,a0,.*,f7,c0,.*,c7$' ||
        fail "iterations.csv header: $(head -1 "$TMP/out/iterations.csv")"
    for key in app n iters threads algo ran_as kernel noise total_time compute_time max_rel_err; do
        [[ -n $(json "$TMP/out/summary.json" "$key") ]] || fail "summary.json: no $key"
    done
    for key in runtime elapsed; do
        grep -q "^  \"$key\": {" "$TMP/out/summary.json" || fail "summary.json: no $key statistics"
    done
fi

# --- a corrupted block must fail the validation, on a slave and on the master ---
for spec in "4 3" "2 0"; do
    read -r np r <<<"$spec"
    rm -rf "$TMP/out"
    PAPCOLL_FFT_TEST_CORRUPT=$r run "$np" --n 16384 --iters 9 --verify-every 3 --out "$TMP/out"
    if [[ $rc -ne 1 ]] || ! grep -q '^validation: FAILED at iteration 3/9' "$TMP/log"; then
        fail "corrupted block of rank $r (P=$np): exit $rc, expected 1 and 'validation: FAILED at iteration 3/9'"
        sed 's/^/    /' "$TMP/log" | tail -5
    elif [[ $(json "$TMP/out/summary.json" validation) != FAILED || $(json "$TMP/out/summary.json" iters) != 3 ]]; then
        fail "corrupted block: summary.json should say FAILED after 3 iterations"
    fi
done

# --- every gather algorithm, and the MPI library's ---
algos=$(sed -n '/^gather algorithms/,/^$/p' <("$FFT" --help) | awk 'NF && !/:$/ {print $1}')
[[ -n $algos ]] || fail "no algorithms in --help"
for a in $algos; do
    if expect_ok "algorithm $a" 4 --n 16384 --iters 6 --verify-every 3 --algo "$a"; then
        [[ $(json "$TMP/out/summary.json" algo) == "$a" ]] || fail "algorithm $a: summary.json algo"
    fi
done

# --- INI file (command line wins), [papcoll] section for the library ---
printf '[fft]\nn = 8192\niters = 3\nkernel = fftw\nverify_every = 1\nalgo = ls\n[papcoll]\npredictor = last\n' \
    >"$TMP/run.ini"
if expect_ok "INI file" 2 --config "$TMP/run.ini" --algo sls; then
    [[ $(json "$TMP/out/summary.json" n) == 8192 && $(json "$TMP/out/summary.json" kernel) == fftw &&
        $(json "$TMP/out/summary.json" algo) == sls && $(json "$TMP/out/summary.json" predictor) == last ]] ||
        fail "INI file values not applied (or the command line did not win)"
fi

# --- noise injection ---
printf '# PAP\n0 0.004\n0.002 0\n' >"$TMP/pap.txt"
expect_ok "uniform noise" 2 --n 8192 --iters 4 --noise uniform:3
expect_ok "slow rank" 2 --n 8192 --iters 4 --noise slow-rank:1,3
expect_ok "trace noise" 2 --n 8192 --iters 4 --noise trace:"$TMP/pap.txt"

# --- --trace FILE: an HDF5 trace (libpaptrace); a path that cannot be created is a usage error ---
if expect_ok "--trace" 2 --n 8192 --iters 5 --trace "$TMP/run.h5"; then
    [[ -s $TMP/run.h5 ]] || fail "--trace: no file written"
    if [[ -x $OUTDIR/bin/paptrace ]]; then
        "$OUTDIR/bin/paptrace" info "$TMP/run.h5" 2>&1 | grep -qE '^ +0 +fft-result +gather .* 5 ' ||
            fail "--trace: paptrace info does not show 5 calls of site fft-result"
    fi
fi
expect_error "trace file in a missing directory" "--trace: '.*': " 0 --n 4096 --trace "$TMP/no/such/dir.h5"

[[ $fails -eq 0 ]] || exit 1
echo "fft.sh: all checks passed"
