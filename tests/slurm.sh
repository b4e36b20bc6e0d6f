#!/usr/bin/env bash
# Test of the SLURM scripts without SLURM: syntax (bash -n, shellcheck when
# installed), dry runs under faked SLURM variables (the launch lines: one rank
# per node, CPUs per task, OpenMP threads, the job directory), the launch
# method jobs/slurm/launch picks from what a (fake) srun offers, one real run
# of papbench.sbatch through a fake srun that starts mpirun on local ranks,
# one through a fake srun that starts separate singletons (caught, the job
# stops), and the error outside a job.  Exit 0 pass, 1 fail.  About 10 s.
# A real SLURM: tests/slurmcluster.sh.
set -uo pipefail

. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT" || exit 1
BIN=$OUTDIR/bin
S=$ROOT/jobs/slurm

fail() { echo "FAIL: slurm: $*"; exit 1; }

make_scratch

for f in "$S"/*.sbatch "$S"/lib.sh "$S"/launch "$ROOT"/jobs/slurmcluster; do
    bash -n "$f" || fail "bash -n $f"
done
sc="shellcheck not installed"
if command -v shellcheck >/dev/null 2>&1; then
    shellcheck -x "$S"/*.sbatch "$S"/lib.sh "$S"/launch "$ROOT"/jobs/slurmcluster >"$TMP/sc.log" 2>&1 || fail "shellcheck: $(head -n 3 "$TMP/sc.log" | tr '\n' ' ')"
    sc="shellcheck clean"
fi

# A job of 8 nodes with 4 CPUs per task, as sbatch would describe it; srun
# --mpi=pmix (LAUNCH=pmix: this machine's srun, if any, has no cluster).
fake_job() {
    env SLURM_JOB_ID=4242 SLURM_JOB_NUM_NODES=8 SLURM_NTASKS=8 SLURM_CPUS_PER_TASK=4 \
        SLURM_JOB_NODELIST='n[01-08]' SLURM_SUBMIT_DIR="$ROOT" PAPCOLL_RUNS="$TMP/runs" LAUNCH=pmix "$@"
}
SRUN='+ srun --nodes=8 --ntasks=8 --ntasks-per-node=1 --cpus-per-task=4 --kill-on-bad-exit=1 --mpi=pmix '

fake_job bash "$S/papbench.sbatch" --dry-run >"$TMP/pb.log" 2>&1 || fail "papbench.sbatch --dry-run: $(tail -n 1 "$TMP/pb.log")"
grep -qx '+ export OMP_NUM_THREADS=4' "$TMP/pb.log" || fail "papbench.sbatch: OMP_NUM_THREADS not from the CPUs per task"
[[ $(grep -c '^+ srun' "$TMP/pb.log") == 1 ]] || fail "papbench.sbatch: expected one srun"
grep -qF "${SRUN}$ROOT/bin/papbench --out $TMP/runs/papbench-4242 --op gather" "$TMP/pb.log" ||
    fail "papbench.sbatch: unexpected srun line: $(grep '^+ srun' "$TMP/pb.log")"

fake_job bash "$S/fft.sbatch" --dry-run >"$TMP/fft.log" 2>&1 || fail "fft.sbatch --dry-run: $(tail -n 1 "$TMP/fft.log")"
grep -qF "${SRUN}$ROOT/bin/fft --out $TMP/runs/fft-4242 --threads 4 --trace $TMP/runs/fft-4242/trace.h5 " \
    "$TMP/fft.log" || fail "fft.sbatch: unexpected srun line: $(grep '^+ srun' "$TMP/fft.log")"

fake_job bash "$S/pic.sbatch" --dry-run >"$TMP/pic.log" 2>&1 || fail "pic.sbatch --dry-run: $(tail -n 1 "$TMP/pic.log")"
grep -qF "${SRUN}$ROOT/bin/pic --out $TMP/runs/pic-4242 --threads 4 --trace $TMP/runs/pic-4242/trace.h5 --config $TMP/runs/pic-4242/beam.ini " \
    "$TMP/pic.log" || fail "pic.sbatch: unexpected srun line: $(grep '^+ srun' "$TMP/pic.log")"

fake_job env OP=scatter PAPCOLL_DRY_RUN=1 bash "$S/papbench-sweep.sbatch" >"$TMP/sw.log" 2>&1 ||
    fail "papbench-sweep.sbatch (PAPCOLL_DRY_RUN=1): $(tail -n 1 "$TMP/sw.log")"
[[ $(grep -c "^${SRUN}.*/papbench --out $TMP/runs/papbench-sweep-4242/scatter-size.*--baseline lin " "$TMP/sw.log") == 35 ]] ||
    fail "papbench-sweep.sbatch: expected 35 scatter runs (5 sizes x 7 delays)"
grep -q '^papbench-sweep.sbatch: point 35 of 35: scatter, size 2M, max delay 500 ms$' "$TMP/sw.log" ||
    fail "papbench-sweep.sbatch: no progress line 'point 35 of 35'"

fake_job bash "$S/reproduce.sbatch" smoke --dry-run >"$TMP/re.log" 2>&1 || fail "reproduce.sbatch --dry-run: $(tail -n 1 "$TMP/re.log")"
[[ $(grep -c "^    $S/launch --nodes 3 --ppn 1 --cpus 4 -- .* --out $TMP/runs/reproduce-4242/smoke/runs/" \
    "$TMP/re.log") == 4 ]] || fail "reproduce.sbatch: expected 4 launch lines of the smoke experiment"
[[ ! -e $TMP/runs ]] || fail "a dry run created $TMP/runs"

# Outside a job: one line, non-zero.
out=$(env -u SLURM_JOB_ID bash "$S/papbench.sbatch" 2>&1) && fail "papbench.sbatch ran outside a job"
[[ $(wc -l <<<"$out") == 1 && $out == *"not inside a SLURM job"* ]] || fail "outside a job: '$out'"
out=$(env -u SLURM_JOB_ID "$ROOT/jobs/reproduce" smoke --rig slurm 2>&1) && fail "reproduce --rig slurm ran outside a job"
[[ $(tail -n 1 <<<"$out") == "reproduce: --rig slurm runs inside an allocation"* ]] || fail "reproduce outside a job: '$out'"

# The launch method from what srun offers (a fake srun answers --mpi=list).
mkdir "$TMP/fake"
fake_srun() { # $1: the plugins 'srun --mpi=list' names; $2: the launch line
    cat >"$TMP/fake/srun" <<EOF
#!/bin/bash
[[ \${1:-} == --version ]] && { echo "slurm (fake)"; exit 0; }
[[ \${1:-} == --mpi=list ]] && { echo "MPI plugin types are..."; printf '\t%s\n' $1; exit 0; }
n=1
while [[ \${1:-} == --* ]]; do [[ \$1 == --ntasks=* ]] && n=\${1#--ntasks=}; shift; done
$2
EOF
    chmod +x "$TMP/fake/srun"
}
which_launch() { env PATH="$TMP/fake:$PATH" "$@" "$S/launch" --which; }
fake_srun "none pmix cray_shasta pmi2" "exit 1"
[[ $(which_launch LAUNCH=auto) == "pmix (srun --mpi=list offers pmix)" ]] || fail "launch: pmix offered, not chosen"
[[ $(which_launch SRUN_EXTRA=--mpi=pmi2) == "srun (SRUN_EXTRA names the MPI plugin)" ]] || fail "launch: SRUN_EXTRA --mpi ignored"
[[ $(which_launch LAUNCH=mpirun) == "mpirun (LAUNCH=mpirun)" ]] || fail "launch: LAUNCH=mpirun ignored"
fake_srun "none pmi2" "exit 1"
[[ $(which_launch LAUNCH=auto) == "mpirun (srun --mpi=list offers no pmix)" ]] || fail "launch: no pmix, and not mpirun"
out=$(which_launch LAUNCH=bogus 2>&1) && fail "launch: LAUNCH=bogus accepted"
[[ $out == "launch: LAUNCH must be auto, pmix, mpirun or srun (got 'bogus')" ]] || fail "launch: LAUNCH=bogus: '$out'"

# Real runs through a fake srun: mpirun on local ranks, as many as --ntasks;
# then separate singletons (an MPI without the cluster's PMI): caught.
real="no real run (no mpirun or $BIN/papbench)"
if command -v mpirun >/dev/null 2>&1 && [[ -x $BIN/papbench ]]; then
    MPI='mpirun --oversubscribe --mca mpi_yield_when_idle 1'
    pb_job() { # $1: job id
        env SLURM_JOB_ID="$1" SLURM_JOB_NUM_NODES=3 SLURM_CPUS_PER_TASK=1 SLURM_SUBMIT_DIR="$ROOT" \
            PAPCOLL_RUNS="$TMP/runs" PAPCOLL_BIN="$BIN" PATH="$TMP/fake:$PATH" \
            PAPBENCH_ARGS="--algos ls,sls --size 16K --iters 3 --warmup 1 --maxdelay 2 --base-ms 2 --quiet" \
            bash "$S/papbench.sbatch"
    }
    fake_srun "none pmix" "exec $MPI -np \"\$n\" \"\$@\""
    pb_job 77 >"$TMP/real.log" 2>&1 || fail "papbench.sbatch with a fake srun: $(tail -n 2 "$TMP/real.log" | tr '\n' ' ')"
    d=$TMP/runs/papbench-77
    for f in results.json results.csv papbench.log job.txt; do [[ -s $d/$f ]] || fail "real run: no $d/$f"; done
    grep -q '^exit papbench: 0$' "$d/job.txt" || fail "real run: job.txt has no exit status"
    grep -q '^launch: pmix (srun --mpi=list offers pmix)$' "$d/job.txt" || fail "real run: job.txt has no launch method"
    grep -q 'validation: PASSED' "$d/papbench.log" || fail "real run: papbench did not validate"
    grep -q '^launch: pmix (srun --mpi=list offers pmix): srun .*--mpi=pmix .*/papbench ' "$d/papbench.log" ||
        fail "real run: the log does not show the launch command"

    fake_srun "none pmix" "for ((i = 0; i < n; i++)); do $MPI -np 1 \"\$@\" & done; wait"
    pb_job 78 >"$TMP/single.log" 2>&1 && fail "papbench.sbatch with singletons succeeded"
    want="launch: the ranks did not form one communicator of 3: 3 program(s) of size(s) 1 1 1 (pmix:"
    grep -qF "$want" "$TMP/single.log" || fail "singletons: no line '$want': $(tail -n 2 "$TMP/single.log" | tr '\n' ' ')"
    [[ $(tail -n 1 "$TMP/single.log") == "papbench.sbatch: papbench: the ranks did not form one MPI job"* ]] ||
        fail "singletons: the job's last line is not the launch failure: $(tail -n 1 "$TMP/single.log")"
    grep -q '^exit papbench: 3$' "$TMP/runs/papbench-78/job.txt" || fail "singletons: job.txt has no exit 3"

    # srun can kill the step after one rank's PMIx client line, before Open
    # MPI's help text: still a launch failure.
    fake_srun "none" "echo '[n2:99] OPAL ERROR: Unreachable in file ext3x_client.c at line 112' >&2; exit 143"
    LAUNCH=srun pb_job 79 >"$TMP/killed.log" 2>&1 && fail "papbench.sbatch with a killed bare srun succeeded"
    grep -q '^launch: the 3 ranks did not start as one MPI job (srun: LAUNCH=srun; exit 143)' "$TMP/killed.log" ||
        fail "killed bare srun: no launch diagnosis: $(tail -n 2 "$TMP/killed.log" | tr '\n' ' ')"
    real="papbench.sbatch through a fake srun wrote runs/papbench-<id>/; singletons and a killed bare srun caught"
fi

echo "PASS: slurm: bash -n, $sc; dry runs: launch lines, threads, job directories, 35-point sweep;" \
    "launch method from srun --mpi=list; errors outside a job; $real"
exit 0
