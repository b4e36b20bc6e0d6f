# shellcheck shell=bash disable=SC2034
# Shared helpers for the jobs/ scripts.  Sourced, never executed.
#
# Every script sets PAP_TOOL (the prefix of its messages) before sourcing this
# file.  Errors are one line on stderr, "<tool>: <what went wrong>": exit 2
# for a command line the script does not understand (pap_usage_die, as the C
# programs do), exit 1 for everything else (pap_die).

PAP_TOOL=${PAP_TOOL:-jobs}

# Top of the source tree (jobs/lib/.. /..), whatever the caller's directory.
PAP_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

pap_die() {
    echo "$PAP_TOOL: $*" >&2
    exit 1
}

pap_usage_die() {
    echo "$PAP_TOOL: $*" >&2
    exit 2
}

pap_warn() {
    echo "$PAP_TOOL: warning: $*" >&2
}

pap_need_cmd() {
    local c
    for c in "$@"; do
        command -v "$c" >/dev/null 2>&1 || pap_die "'$c' not found in PATH"
    done
}

# A usage error unless $1 is a positive decimal integer; $2 names it.
pap_need_posint() {
    if ! [[ $1 =~ ^[0-9]+$ ]] || ((10#$1 < 1)); then
        pap_usage_die "$2 must be an integer >= 1 (got '$1')"
    fi
}

# Elements of a 4-byte type (float, int) in a size in bytes with an optional
# K or M suffix ("8M" -> 2097152); a usage error unless $1 is such a size.
pap_elems4() {
    local n=${1%[KM]}
    [[ $n =~ ^[0-9]+$ ]] || pap_usage_die "'$1' is not a size (bytes, K or M)"
    case $1 in *K) n=$((n * 1024)) ;; *M) n=$((n * 1048576)) ;; esac
    echo $((n / 4))
}

# Arguments every mpirun of ours takes, into the array PAP_MPIRUN_ARGS; MCA
# keys given as arguments are left out (the caller sets them itself).
#  - oversubscribe: this machine has 2 cores, jobs run more ranks than that;
#  - mpi_yield_when_idle: ranks that wait yield the core instead of spinning,
#    otherwise a rank spinning in MPI_Recv delays the one it waits for and every
#    measured latency grows with the number of ranks per core;
#  - as root, Open MPI refuses to start unless told twice; the variables are
#    exported here and forwarded to every rank with -x.
pap_mpirun_args() {
    PAP_MPIRUN_ARGS=(--oversubscribe)
    [[ " $* " == *" mpi_yield_when_idle "* ]] || PAP_MPIRUN_ARGS+=(--mca mpi_yield_when_idle 1)
    if [[ $(id -u) == 0 ]]; then
        export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
        PAP_MPIRUN_ARGS+=(-x OMPI_ALLOW_RUN_AS_ROOT -x OMPI_ALLOW_RUN_AS_ROOT_CONFIRM)
    fi
}
