#!/usr/bin/env bash
# The FFT proxy (bin/fft) end to end: configuration errors are one line and
# exit 2 before any work; runs at P = 1, 2, 4, 8 and several N validate
# against FFTW (own and fftw kernels); a deliberately corrupted block (test-only
# PAPCOLL_FFT_TEST_CORRUPT) makes the validation FAIL with exit 1 and stops every
# rank; every gather algorithm and `mpi` runs; the INI file, noise injection and
# the output files (summary.json, iterations.csv, --trace) work; ranks whose
# configurations differ are refused; --work validates and reports its checksum.  ~35 s on 2 cores.
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
FFT=$OUTDIR/bin/fft
app_test fft "$FFT" 60
# Oversubscribed OpenMP teams must sleep, not spin, while they wait.
export OMP_WAIT_POLICY=passive
unset PAPCOLL_CONFIG PAPCOLL_PREDICTOR PAPCOLL_GATHER_ALGORITHM PAPCOLL_FFT_TEST_CORRUPT

# After every successful run: summary.json agrees with it.
after_ok() {
    [[ $(json "$TMP/out/summary.json" validation) == PASSED && $(json "$TMP/out/summary.json" P) == "$2" ]] ||
        fail "$1: summary.json disagrees with the run"
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
expect_error "delay beyond an hour" "uniform:MS: expected milliseconds in \\[0, 3600000\\]" 0 --noise uniform:1e300
expect_error "slow factor too large" "FACTOR must be a number in \\[1, 10000\\]" 0 --noise slow-rank:0,1e300
expect_error "configuration file a directory" "is not a regular file" 0 --config "$TMP"
expect_error "unreadable trace" "cannot read trace file" 0 --noise trace:"$TMP/missing.txt"
expect_error "unknown option" "unknown option" 0 --size 4096
expect_error "bad iterations" "iters" 0 --iters 0
expect_error "negative work" "--work: .*0..100000" 0 --work -1
expect_error "work too large" "--work: .*0..100000" 0 --work 100001
expect_error "missing config file" "cannot read" 0 --config "$TMP/none.ini"
printf '[fft]\nsize = 4096\n' >"$TMP/bad.ini"
expect_error "unknown INI key" "line 2: unknown key 'size'" 0 --config "$TMP/bad.ini"
PAPCOLL_GATHER_ALGORITHM=foo expect_error "bad algorithm from the environment" \
    "PAPCOLL_GATHER_ALGORITHM" 0 --n 4096
expect_split_error "configurations that differ" "the configuration differs between ranks" --n 4096 -- --n 8192

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

# --- --work W: multitaper passes inside the PAT window; the run still validates, the checksum is
# the signal's energy (2^log2P * 2/3 per pass for the uniform signal after log2P master stages,
# docs/fft.md) and does not depend on the gather algorithm ---
work_checksum() {
    local w=$1 np=$2 iters=$3 what=$4 passes ratio
    sum=$(json "$TMP/out/summary.json" work_checksum)
    passes=$(json "$TMP/out/summary.json" work_passes)
    [[ $(json "$TMP/out/summary.json" work) == "$w" && $passes == $((w * np * iters)) ]] ||
        fail "$what: summary.json work=$(json "$TMP/out/summary.json" work) passes=$passes"
    ratio=$(awk -v s="$sum" -v p="$passes" -v np="$np" 'BEGIN { print s / (p * np * 2 / 3) }')
    awk -v r="$ratio" 'BEGIN { exit !(r > 0.95 && r < 1.05) }' ||
        fail "$what: work checksum $sum is $ratio x the signal's expected energy"
    grep -q "^summary: .* work=$w work_checksum=" "$TMP/log" || fail "$what: no work in the summary line"
}
if expect_ok "work 6, own" 4 --n 16384 --iters 4 --verify-every 2 --work 6 --algo ls; then
    work_checksum 6 4 4 "work 6, own"
    sum_ls=$sum
    if expect_ok "work 6, bsls" 4 --n 16384 --iters 4 --verify-every 2 --work 6 --algo bsls; then
        work_checksum 6 4 4 "work 6, bsls"
        sum_bsls=$sum
        awk -v a="$sum_ls" -v b="$sum_bsls" 'BEGIN { d = a - b; exit !(d * d <= 1e-12 * a * a) }' ||
            fail "work checksum differs between ls ($sum_ls) and bsls ($sum_bsls)"
    fi
fi
expect_ok "work 3 (odd), fftw kernel" 2 --n 8192 --iters 3 --verify-every 1 --work 3 --kernel fftw &&
    work_checksum 3 2 3 "work 3, fftw"

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

finish
