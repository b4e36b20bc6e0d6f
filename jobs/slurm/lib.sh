# shellcheck shell=bash
# Shared by the jobs/slurm/*.sbatch scripts (jobs/README.md); sourced after
# their edit block, never run.  A script calls
#
#   slurm_init NAME "$@"          job directory, threads, launch method, job.txt
#   slurm_run LABEL -- CMD ARGS   CMD on every node (jobs/slurm/launch: srun
#                                 --mpi=pmix or mpirun), output to LABEL.log
#   slurm_finish                  summary; exit status 1 if a run failed
#
# With --dry-run (or PAPCOLL_DRY_RUN=1) nothing runs and nothing is written:
# the commands are printed.  Values SLURM would set come from the environment
# (tests/slurm.sh fakes them) or, when absent, from the script's #SBATCH lines.

# shellcheck source=../lib/common.sh source-path=SCRIPTDIR
source "$PAP_ROOT/jobs/lib/common.sh"

# Value of '#SBATCH --NAME=VALUE' in the running script, else $2.
sbatch_opt() {
    local v
    v=$(sed -n "s/^#SBATCH --$1=\([^[:space:]]*\).*/\1/p" "$0" 2>/dev/null | head -n 1)
    echo "${v:-$2}"
}

# The program NAME of this tree (or of $PAPCOLL_BIN); must exist unless dry.
slurm_bin() {
    local p=${PAPCOLL_BIN:-$PAP_ROOT/bin}/$1
    [[ $SLURM_DRY == 1 || -x $p ]] || pap_die "$p not found or not executable (run make on the cluster first)"
    echo "$p"
}

# Prints a command as the shell would read it back.
slurm_show() {
    printf '+'
    printf ' %q' "$@"
    printf '\n'
}

slurm_job_txt() {
    local rev
    rev=$(git -C "$PAP_ROOT" rev-parse --short HEAD 2>/dev/null || echo none)
    {
        echo "job: $JOB_NAME $JOB_ID (script $0)"
        echo "date_utc: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
        echo "nodes: $JOB_NODES (${SLURM_JOB_NODELIST:-?}), 1 rank per node, $JOB_CPUS CPUs per task"
        echo "OMP_NUM_THREADS: $OMP_NUM_THREADS"
        echo "git: $rev"
        echo "mpi: $(mpirun --version 2>/dev/null | head -n 1 || echo unknown)"
        echo "srun: $(srun --version 2>/dev/null || echo unknown)"
        echo "launch: $LAUNCH_DESC"
        echo "modules: $( (type module >/dev/null 2>&1 && module -t list 2>&1 || echo none) | tr '\n' ' ')"
    } >"$JOB_DIR/job.txt"
}

slurm_init() {
    JOB_NAME=$1
    shift
    SLURM_DRY=${PAPCOLL_DRY_RUN:-0}
    SLURM_ARGS=()
    local a
    for a in "$@"; do
        if [[ $a == --dry-run ]]; then SLURM_DRY=1; else SLURM_ARGS+=("$a"); fi
    done
    if [[ $SLURM_DRY != 1 && -z ${SLURM_JOB_ID:-} ]]; then
        pap_die "not inside a SLURM job: submit it with 'sbatch $0', or print its commands with '$0 --dry-run'"
    fi
    JOB_ID=${SLURM_JOB_ID:-dryrun}
    JOB_NODES=${SLURM_JOB_NUM_NODES:-${SLURM_NNODES:-$(sbatch_opt nodes 1)}}
    JOB_CPUS=${SLURM_CPUS_PER_TASK:-$(sbatch_opt cpus-per-task 1)}
    pap_need_posint "$JOB_NODES" "the number of nodes"
    pap_need_posint "$JOB_CPUS" "the number of CPUs per task"
    # OpenMP threads fill the task's CPUs; papcoll's monitor thread shares them.
    export OMP_NUM_THREADS=$JOB_CPUS
    JOB_DIR=${PAPCOLL_RUNS:-$PAP_ROOT/runs}/$JOB_NAME-$JOB_ID
    # The launcher reads these from the environment (edit block or submission).
    export LAUNCH=${LAUNCH:-auto} SRUN_EXTRA=${SRUN_EXTRA:-} MPIRUN_EXTRA=${MPIRUN_EXTRA:-}
    LAUNCHER=("$PAP_ROOT/jobs/slurm/launch" --nodes "$JOB_NODES" --cpus "$JOB_CPUS")
    LAUNCH_DESC=$("${LAUNCHER[@]}" --which) || exit 1
    SLURM_RUNS=0 SLURM_FAILED=()
    echo "$PAP_TOOL: job $JOB_ID, $JOB_NODES nodes x 1 rank, $JOB_CPUS CPUs per task; output in $JOB_DIR"
    echo "$PAP_TOOL: ranks start with $LAUNCH_DESC"
    if [[ $SLURM_DRY == 1 ]]; then
        echo "$PAP_TOOL: dry run: commands are printed, not run"
        slurm_show export OMP_NUM_THREADS="$OMP_NUM_THREADS"
        slurm_show mkdir -p "$JOB_DIR"
        return 0
    fi
    mkdir -p "$JOB_DIR" || pap_die "cannot create $JOB_DIR"
    slurm_job_txt
}

# slurm_run LABEL -- CMD...: one launch; a failed run is counted, not fatal,
# but ranks that do not form one MPI job (launch exit 3) end the job: every
# further run would start the same way.
slurm_run() {
    local label=$1 rc=0
    shift
    [[ ${1:-} == -- ]] && shift
    SLURM_RUNS=$((SLURM_RUNS + 1))
    if [[ $SLURM_DRY == 1 ]]; then
        "${LAUNCHER[@]}" --dry-run -- "$@"
        return 0
    fi
    echo "command $label: $(printf '%q ' "${LAUNCHER[@]}" -- "$@")" >>"$JOB_DIR/job.txt"
    "${LAUNCHER[@]}" -- "$@" 2>&1 | tee "$JOB_DIR/$label.log" || rc=${PIPESTATUS[0]}
    echo "exit $label: $rc" >>"$JOB_DIR/job.txt"
    if [[ $rc == 3 ]]; then
        pap_die "$label: the ranks did not form one MPI job ($LAUNCH_DESC); stopping; log $JOB_DIR/$label.log"
    fi
    if [[ $rc != 0 ]]; then
        SLURM_FAILED+=("$label")
        echo "$PAP_TOOL: $label FAILED (exit $rc); log $JOB_DIR/$label.log" >&2
    fi
}

slurm_finish() {
    if [[ $SLURM_DRY == 1 ]]; then
        echo "$PAP_TOOL: dry run: $SLURM_RUNS launch commands"
        return 0
    fi
    if [[ ${#SLURM_FAILED[@]} -gt 0 ]]; then
        pap_die "${#SLURM_FAILED[@]} of $SLURM_RUNS runs failed (${SLURM_FAILED[*]}); output in $JOB_DIR"
    fi
    echo "$PAP_TOOL: $SLURM_RUNS runs done; output in $JOB_DIR"
}
