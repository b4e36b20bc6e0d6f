#!/usr/bin/env bash
# The SLURM scripts under a real SLURM: jobs/slurmcluster brings up 4
# emulated nodes at 1 Gbit/s with slurmctld, a slurmd per node and munge
# (MpiDefault=none), then every jobs/slurm/*.sbatch is submitted with small
# parameters, papbench once more with LAUNCH=mpirun, and two jobs that must
# fail: a bad argument, and a bare srun (no MPI plugin).  Checks: job states
# (squeue --states=all, scontrol, the job completion log), outputs
# (validation: PASSED, results and summary files, table.md, results.md, a
# trace paptrace reads), that the gathers crossed the shaped ports (run times
# and byte counters), the failures' reasons in their logs, nothing of a failed
# job left running, and 'down' leaving no daemon, namespace or file (also
# after a half up and after an 'up' killed part way); errors are one line.
# Exit 0 pass, 1 fail, 77 skip (not root, no network namespaces).  About 60 s,
# mostly daemons starting, so only `make test-full` runs it; `make test` has
# tests/slurm.sh (the same scripts through a fake srun).
# full: only
set -uo pipefail

# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
SC=$ROOT/jobs/slurmcluster
BIN=$OUTDIR/bin

skip() { echo "SKIP: slurmcluster: $*"; exit 77; }
fail() { echo "FAIL: slurmcluster: $*"; exit 1; }

[[ $(id -u) == 0 ]] || skip "needs root"
probe=slmprobe$$
ip netns add "$probe" >/dev/null 2>&1 || skip "cannot create network namespaces"
ip netns del "$probe" >/dev/null 2>&1
need_bins "$BIN/papbench" "$BIN/fft" "$BIN/paptrace"
# Every emulated node has a private /tmp (jobs/slurmcluster), so jobs cannot
# start in a tree below it: their nodes would not see it.
[[ $(cd "$ROOT" && pwd -P)/ != /tmp/* ]] || skip "the tree is below /tmp, which each emulated node has its own of; run it from elsewhere"

# A prefix, subnet and port of our own: a cluster someone has up is left alone.
PREFIX=sct$(($$ % 10000))
SUBNET=10.81.$(($$ % 250)).0/24
PORT=$((20000 + $$ % 20000))
STATE=/run/papcoll-slurmcluster/$PREFIX
# Job output on a file system every node sees (each node has its own /tmp).
DIR=$(mktemp -d /var/tmp/papcoll-slurmtest.XXXXXX)
# shellcheck disable=SC2317  # called by the trap
cleanup() {
    "$SC" --prefix "$PREFIX" down >/dev/null 2>&1
    if [[ ${PAPCOLL_TEST_KEEP:-0} == 1 ]]; then echo "kept $DIR"; else rm -rf "$DIR"; fi
}
trap cleanup EXIT
t0=$SECONDS

# nothing_left WHAT: no daemon, namespace or state of our prefix remains.
nothing_left() {
    local p
    ip netns list | grep -qE "^${PREFIX}n[0-9]" && fail "$1 left namespaces"
    [[ ! -e $STATE ]] || fail "$1 left $STATE"
    for p in /proc/[0-9]*; do
        tr '\0' ' ' 2>/dev/null <"$p/cmdline" | grep -qF "$STATE/" && fail "$1 left process ${p#/proc/}"
    done
    return 0
}
# expect_error TEXT COMMAND...: the command fails with one line containing TEXT.
expect_error() {
    local want=$1 out
    shift
    out=$("$@" 2>&1) && fail "'$*' succeeded; expected an error '$want'"
    [[ $(wc -l <<<"$out") == 1 && $out == *"$want"* ]] ||
        fail "'$*': expected one line containing '$want', got: $(head -n 3 <<<"$out" | tr '\n' ' ')"
}

expect_error "must run as root" setpriv --reuid=65534 --regid=65534 --clear-groups "$SC" --prefix "$PREFIX" status
# A stray node: half up; up refuses, down removes it.
ip netns add "${PREFIX}n0"
[[ $("$SC" --prefix "$PREFIX" status --brief) == "state=half-up prefix=$PREFIX" ]] || fail "status --brief: not half-up"
expect_error "run 'jobs/slurmcluster down' first" "$SC" --prefix "$PREFIX" up 2 --subnet "$SUBNET" --port "$PORT"
"$SC" --prefix "$PREFIX" down >/dev/null 2>&1 || fail "down of a half-up cluster failed"
nothing_left "down of a half-up cluster"
# An 'up' killed part way, once munged and slurmctld have detached: down
# finds and stops them, and removes the nodes.
setsid "$SC" --prefix "$PREFIX" up 2 --subnet "$SUBNET" --port "$PORT" >/dev/null 2>&1 &
for ((i = 0; i < 300; i++)); do
    [[ -e $STATE/slurmctld.pid ]] && break
    sleep 0.1
done
{ kill -KILL -- -$! && wait; } 2>/dev/null
# half-up, unless the kill came after 'up' had finished (a fast machine):
# then it is up, and down must still remove everything.
st=$("$SC" --prefix "$PREFIX" status --brief)
[[ $st == "state=half-up prefix=$PREFIX" || $st == "state=up "* ]] ||
    [[ ! -e $STATE/slurmctld.pid ]] || fail "status --brief: a killed up is neither half-up nor up: $st"
"$SC" --prefix "$PREFIX" down >/dev/null 2>&1 || fail "down after a killed up failed"
nothing_left "down after a killed up"
checks_s=$((SECONDS - t0))

"$SC" --prefix "$PREFIX" up 4 --rate 1gbit --subnet "$SUBNET" --port "$PORT" >"$DIR/up.log" 2>&1 ||
    fail "up failed: $(tail -n 1 "$DIR/up.log")"
export_line=$(tail -n 1 "$DIR/up.log")
[[ $export_line == "export SLURM_CONF=$STATE/slurm.conf" ]] || fail "up did not end with the export line: '$export_line'"
eval "$export_line"
[[ $("$SC" --prefix "$PREFIX" env) == "$export_line" ]] || fail "env does not print the export line"
[[ $(sinfo -h -N -o '%N %T' | tr '\n' ' ') == "${PREFIX}n0 idle ${PREFIX}n1 idle ${PREFIX}n2 idle ${PREFIX}n3 idle " ]] ||
    fail "sinfo: not 4 idle nodes: $(sinfo -h -N -o '%N %T' | tr '\n' ' ')"
grep -qx 'MpiDefault=none' "$STATE/slurm.conf" || fail "slurm.conf is not MpiDefault=none"
up_s=$((SECONDS - t0 - checks_s))

bytes_to_root() { cat "/sys/class/net/${PREFIX}v0/statistics/tx_bytes"; }
rx0=$(bytes_to_root)

# submit NAME SBATCH-OPTIONS... -- SCRIPT ARGS: job id into JOB[NAME].
declare -A JOB
submit() {
    local name=$1 opts=()
    shift
    while [[ $1 != -- ]]; do opts+=("$1"); shift; done
    shift
    JOB[$name]=$(cd "$ROOT" && sbatch --parsable "${opts[@]}" -o "$DIR/slurm-$name-%j.out" "$@") ||
        fail "sbatch of $name failed"
}
export PAPCOLL_RUNS=$DIR/runs PAPCOLL_BIN=$BIN
PB="--algos ls,sls --size 1M --iters 3 --warmup 1 --maxdelay 2 --base-ms 2"
PAPBENCH_ARGS=$PB submit pb -N 4 -- jobs/slurm/papbench.sbatch
FFT_ARGS="--n 65536 --iters 20 --algo bsls" submit fft -N 4 --cpus-per-task=1 -- jobs/slurm/fft.sbatch
SIZES="16K 64K" DELAYS="0 2" ITERS=2 BASE_MS=2 ALGOS=ls,sls \
    submit sweep -N 4 -- jobs/slurm/papbench-sweep.sbatch
submit repro -N 3 -- jobs/slurm/reproduce.sbatch smoke
LAUNCH=mpirun PAPBENCH_ARGS=$PB submit pbmpirun -N 4 -- jobs/slurm/papbench.sbatch
PAPBENCH_ARGS="--size banana" submit bad -N 4 -- jobs/slurm/papbench.sbatch
LAUNCH=srun PAPBENCH_ARGS=$PB submit bare -N 4 -- jobs/slurm/papbench.sbatch

# Wait until no job of ours is pending or running (at most 150 s).
ids=$(IFS=,; echo "${JOB[*]}")
for ((i = 0; i < 150; i++)); do
    [[ -z $(squeue -h -j "$ids" -t PENDING,RUNNING,COMPLETING -o %i 2>/dev/null) ]] && break
    sleep 1
done
[[ $i -lt 150 ]] || fail "jobs still queued or running after 150 s: $(squeue -h -j "$ids" -o '%i %j %T' | tr '\n' ';')"
jobs_s=$((SECONDS - t0 - checks_s - up_s))

state() { squeue -h --states=all -j "${JOB[$1]}" -o %T; }
out() { echo "$DIR/slurm-$1-${JOB[$1]}.out"; }
for n in pb fft sweep repro pbmpirun; do
    [[ $(state "$n") == COMPLETED ]] ||
        fail "job $n (${JOB[$n]}) $(state "$n"): $(grep -v '^ ' "$(out "$n")" | tail -n 2 | tr '\n' ' ')"
    grep -q "JobId=${JOB[$n]} .*JobState=COMPLETED" "$STATE/log/jobcomp.txt" ||
        fail "job completion log: job $n not COMPLETED"
done

# Results: validation, files, the launch method, the shaped network.
d=$DIR/runs
for f in papbench-${JOB[pb]}/{results.json,results.csv,job.txt} fft-${JOB[fft]}/{summary.json,iterations.csv,trace.h5} \
    papbench-sweep-${JOB[sweep]}/table.md reproduce-${JOB[repro]}/smoke/{results.md,results.csv}; do
    [[ -s $d/$f ]] || fail "missing output $d/$f"
done
for log in papbench-${JOB[pb]}/papbench.log fft-${JOB[fft]}/fft.log papbench-${JOB[pbmpirun]}/papbench.log; do
    grep -q '^validation: PASSED' "$d/$log" || fail "$log: no 'validation: PASSED'"
done
[[ $(cat "$d"/papbench-sweep-"${JOB[sweep]}"/*/results.json | grep -o '"validation": *"PASSED"' | wc -l) == 4 ]] ||
    fail "sweep: not all 4 points validated"
grep -q '^| runs | 4 ok, 0 failed |$' "$d/reproduce-${JOB[repro]}/smoke/results.md" || fail "reproduce smoke: not 4 runs ok"
"$BIN/paptrace" info "$d/fft-${JOB[fft]}/trace.h5" >"$DIR/trace.txt" 2>&1 || fail "paptrace info: $(tail -n 1 "$DIR/trace.txt")"
grep -qE '^ranks +4$' "$DIR/trace.txt" || fail "paptrace info: the trace has not 4 ranks"
"$BIN/paptrace" stats "$d/fft-${JOB[fft]}/trace.h5" >"$DIR/stats.txt" 2>&1 || fail "paptrace stats: $(tail -n 1 "$DIR/stats.txt")"
grep -q '^launch: pmix (srun --mpi=list offers pmix)$' "$d/papbench-${JOB[pb]}/job.txt" || fail "papbench: not launched with srun --mpi=pmix"
grep -q '^launch: mpirun (LAUNCH=mpirun)$' "$d/papbench-${JOB[pbmpirun]}/job.txt" || fail "LAUNCH=mpirun: not launched with mpirun"
# 3 blocks of 1 MB into the root take >= 25 ms at 1 Gbit/s (shared memory: ~1 ms).
for j in pb pbmpirun; do
    rt=$(sed -n 's/^summary: op=gather algo=ls P=4 runtime_median_ms=\([0-9.]*\).*/\1/p' "$d/papbench-${JOB[$j]}/papbench.log")
    awk -v r="${rt:-0}" 'BEGIN {exit !(r >= 22)}' || fail "$j: 3 MB gathered in ${rt:-?} ms: not through the 1 Gbit/s ports"
done
# Both papbench jobs: 2 algorithms x 4 calls x 3 MB through the root's port.
rx=$(($(bytes_to_root) - rx0))
((rx >= 2 * 2 * 4 * 3 * 1048576)) || fail "only $rx bytes crossed the root's port"

# The failures: state, reason in the log, nothing left running.
for n in bad bare; do
    [[ $(state "$n") == FAILED ]] || fail "job $n: state $(state "$n"), expected FAILED"
    grep -q "JobId=${JOB[$n]} .*JobState=FAILED .*ExitCode=1:0" "$STATE/log/jobcomp.txt" ||
        fail "job completion log: job $n not FAILED with exit code 1"
done
grep -q '^papbench: .*banana' "$(out bad)" || fail "bad argument: papbench's error not in $(out bad)"
grep -q '^papbench.sbatch: 1 of 1 runs failed (papbench)' "$(out bad)" || fail "bad argument: no summary line in $(out bad)"
# Without PMI the ranks either fail in MPI_Init or start as singletons,
# depending on who srun stops first: either diagnosis names the cause.  Not
# anchored: Open MPI's abort text may end without a newline before it.
grep -qE 'launch: the (4 ranks did not start as one MPI job|ranks did not form one communicator of 4: .*) \(srun: LAUNCH=srun' \
    "$(out bare)" || fail "bare srun: no launch diagnosis in $(out bare): $(grep -v '^ *$' "$(out bare)" | tail -n 4 | tr '\n' ' ')"
[[ $(tail -n 1 "$(out bare)") == "papbench.sbatch: papbench: the ranks did not form one MPI job"* ]] ||
    fail "bare srun: the log does not end with the reason"
# Only the slurmds remain in the nodes (a step's slurmstepd may take a few
# seconds to finish its clean-up).
left_in_nodes() {
    local k
    for ((k = 0; k < 4; k++)); do
        ip netns pids "${PREFIX}n$k" | xargs -r ps -o comm= -p | grep -vx slurmd | sed "s/^/node $k: /"
    done
}
for ((i = 0; i < 20; i++)); do
    left=$(left_in_nodes | tr '\n' ' ')
    [[ -z $left ]] && break
    sleep 0.5
done
[[ -z $left ]] || fail "still running 10 s after the last job: $left"

"$SC" --prefix "$PREFIX" down >"$DIR/down.log" 2>&1 || fail "down failed: $(tail -n 1 "$DIR/down.log")"
nothing_left "down"
"$SC" --prefix "$PREFIX" down >/dev/null 2>&1 || fail "a second down failed"

echo "PASS: slurmcluster: errors and half-up clusters in ${checks_s}s; 4 nodes up in ${up_s}s; 7 jobs in ${jobs_s}s: papbench (srun --mpi=pmix," \
    "and mpirun), fft with a trace, a sweep, reproduce smoke: COMPLETED, validated, through the shaped ports;" \
    "a bad argument and a bare srun: FAILED with their reasons; down left nothing (also half up, killed up)"
exit 0
