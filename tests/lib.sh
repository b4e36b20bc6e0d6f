# Sourced by the script tests (tests/*.sh; not executable, so tests/run does
# not take it for a test).  Sets ROOT (the tree) and OUTDIR (the build under
# test: $OUT, default the tree itself), exports what Open MPI needs on this
# machine (root, oversubscribed ranks, no CMA, the ob1 PML), and offers:
#   need_bins FILE...   fail (exit 1) naming the first FILE that is not built
#   make_scratch        TMP = a fresh directory, removed when the script exits
#   sanitized           true in a sanitizer build (OUTDIR build/asan, build/tsan)
#   tsan_sample         true in make test's ThreadSanitizer run (not the full run):
#                       a script may leave out what runs in one thread only (TSan
#                       finds races, nothing else)
#   full_run            true in `make test-full` (PAPCOLL_TEST_FULL=1): a script
#                       may then run more of its cases than its sample
# and for the end-to-end tests of a program (papbench.sh, fft.sh, pic.sh),
# after app_test NAME BINARY TIMEOUT (also make_scratch):
#   fail MSG            counts a failure: "FAIL NAME.sh: MSG"
#   run NP ARGS...      BINARY --quiet ARGS on NP ranks (NP 0: one process
#                       without mpirun, so a failing job costs no mpirun
#                       abort handling); output in $TMP/log, status in $rc
#   json FILE KEY       a top-level scalar of a JSON file (one key per line)
#   expect_ok WHAT NP ARGS...   run --out $TMP/out ARGS: exit 0 and
#                       'validation: PASSED', then the script's after_ok
#                       WHAT NP if it defines one; status 1 otherwise
#   expect_error WHAT PATTERN NP ARGS...   exit 2 and exactly one line of
#                       the program's, matching PATTERN (mpirun adds its own
#                       lines when a job fails)
#   expect_split_error WHAT PATTERN ARGS0... -- ARGS1...   the same for a job
#                       of two ranks with their own arguments (MPMD): rank 0
#                       runs ARGS0, rank 1 ARGS1
#   finish              exit 1 after any failure, else "NAME.sh: all checks passed"
# shellcheck shell=bash
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUTDIR=${OUT:-.}
[[ $OUTDIR == /* ]] || OUTDIR=$ROOT/$OUTDIR
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=${OMPI_MCA_btl_vader_single_copy_mechanism:-none}
export OMPI_MCA_pml=${OMPI_MCA_pml:-ob1} # as tests/run: the PML selected here anyway, without probing cm

need_bins() {
    local b
    for b; do
        [[ -x $b ]] || { echo "FAIL: $b missing (run make)"; exit 1; }
    done
}

sanitized() {
    [[ $OUTDIR == *tsan* || $OUTDIR == *asan* ]]
}

tsan_sample() {
    [[ $OUTDIR == *tsan* ]] && ! full_run
}

full_run() {
    [[ ${PAPCOLL_TEST_FULL:-0} == 1 ]]
}

make_scratch() {
    TMP=$(mktemp -d)
    trap 'rm -rf "$TMP"' EXIT
}

app_test() {
    APP=$1 APP_BIN=$2 APP_TIMEOUT=$3
    need_bins "$APP_BIN"
    make_scratch
    fails=0
    MPIRUN=(mpirun --oversubscribe --mca mpi_yield_when_idle 1)
}

fail() {
    echo "FAIL $APP.sh: $*"
    fails=$((fails + 1))
}

run() {
    local np=$1 mpi=("${MPIRUN[@]}" -np "$1")
    shift
    [[ $np -eq 0 ]] && mpi=()
    timeout -k 5 "$APP_TIMEOUT" "${mpi[@]}" "$APP_BIN" --quiet "$@" >"$TMP/log" 2>&1
    rc=$?
}

json() {
    sed -n -E "s/^  \"$2\": \"?([^\",]*)\"?,?$/\1/p" "$1"
}

expect_ok() {
    local what=$1 np=$2
    shift 2
    rm -rf "$TMP/out"
    run "$np" --out "$TMP/out" "$@"
    if [[ $rc -ne 0 ]] || ! grep -q '^validation: PASSED' "$TMP/log"; then
        fail "$what: exit $rc, expected 0 and 'validation: PASSED'"
        sed 's/^/    /' "$TMP/log" | tail -6
        return 1
    fi
    if declare -F after_ok >/dev/null; then
        after_ok "$what" "$np"
    fi
    return 0
}

expect_error() {
    local what=$1 pat=$2 np=$3
    shift 3
    run "$np" "$@"
    error_lines "$what" "$pat"
}

expect_split_error() {
    local what=$1 pat=$2 first=()
    shift 2
    while [[ $# -gt 0 && $1 != -- ]]; do
        first+=("$1")
        shift
    done
    shift
    timeout -k 5 "$APP_TIMEOUT" "${MPIRUN[@]}" -np 1 "$APP_BIN" --quiet "${first[@]}" : \
        -np 1 "$APP_BIN" --quiet "$@" >"$TMP/log" 2>&1
    rc=$?
    error_lines "$what" "$pat"
}

# After a failed run: exit 2 and exactly one line of the program's, matching $2.
error_lines() {
    local what=$1 pat=$2 lines
    lines=$(grep -c "^$APP" "$TMP/log")
    if [[ $rc -ne 2 || $lines -ne 1 ]] || ! grep -qE "^$APP: .*$pat" "$TMP/log"; then
        fail "$what: exit $rc with $lines lines, expected 2 and one line matching '$pat'"
        sed 's/^/    /' "$TMP/log" | head -5
    fi
}

finish() {
    [[ $fails -eq 0 ]] || exit 1
    echo "$APP.sh: all checks passed"
}
