#!/usr/bin/env bash
# Test of jobs/reproduce: the smoke experiment on 3 local ranks must give a
# table and a CSV with every algorithm of every point; a run that fails must
# be reported while the others go on, with exit status 1; dry runs of the
# paper experiments (Table 5 at the paper's conditions, the node sweeps)
# must plan the right runs and write nothing; an unwritable --out is one
# error line.  Then the other jobs/ scripts: --help exits 0, an unknown
# option 2.
# Exit 0 pass, 1 fail, 77 skip (no python3 or mpirun).  About 12 s.
set -uo pipefail

. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT" || exit 1
BIN=$OUTDIR/bin
REPRO=$ROOT/jobs/reproduce

skip() { echo "SKIP: reproduce: $*"; exit 77; }
fail() { echo "FAIL: reproduce: $*"; exit 1; }

command -v python3 >/dev/null 2>&1 || skip "no python3"
command -v mpirun >/dev/null 2>&1 || skip "no mpirun (Open MPI)"
[[ -x $BIN/papbench ]] || fail "$BIN/papbench missing (run make first)"
make_scratch

# check_csv FILE ROWS: ROWS data rows; with every run ok, every number there.
check_csv() {
    python3 - "$@" <<'EOF'
import csv, sys
path, rows, failed = sys.argv[1], int(sys.argv[2]), sys.argv[3] if len(sys.argv) > 3 else None
with open(path) as f:
    data = list(csv.DictReader(f))
if len(data) != rows:
    sys.exit("%s: %d rows, expected %d" % (path, len(data), rows))
for r in data:
    bad = r["size"] == failed
    if bad != (r["runtime_mean_s"] == "") or bad != (r["failed_runs"] != "0"):
        sys.exit("%s: row %s" % (path, r))
    if not bad and not (float(r["runtime_mean_s"]) > 0 and float(r["elapsed_ratio"]) > 0):
        sys.exit("%s: bad numbers in row %s" % (path, r))
    if not bad and r["algorithm"] == "ls" and r["runtime_ratio"] != "1.0000":
        sys.exit("%s: baseline ratio %s, expected 1.0000" % (path, r["runtime_ratio"]))
EOF
}

# 1. The smoke experiment: 2 sizes x 2 delays, 4 algorithms.
"$REPRO" smoke --rig local --bin "$BIN" --out "$TMP/ok" >"$TMP/ok.log" 2>&1 ||
    fail "smoke run failed: $(tail -n 3 "$TMP/ok.log" | tr '\n' ' ')"
grep -q '^reproduce: run 4/4: point 4/4 (size = 64K, maxdelay = 4)' "$TMP/ok.log" ||
    fail "no progress line 'run 4/4: point 4/4' in the output"
md=$TMP/ok/results.md
[[ $(grep -c '^## size = ' "$md") == 4 ]] || fail "results.md: expected 4 point tables"
grep -q '^| algorithm | run time \[ms\] | ratio | elapsed time \[ms\] | ratio | n |$' "$md" ||
    fail "results.md: no table header"
grep -qE '^\| \*\*ls\*\* \(baseline\) \| [0-9.]+ ± [0-9.]+ \| 1\.00 \|' "$md" || fail "results.md: no baseline row"
[[ $(grep -cE '^\| (sls|bsls|mpi) \| [0-9.]+ ± [0-9.]+ \| [0-9.]+ \|' "$md") == 12 ]] ||
    fail "results.md: expected 12 algorithm rows with mean ± sd and ratio"
for k in CPU kernel MPI rig 'netem latency available' 'date (UTC)'; do
    grep -q "^| $k | ." "$md" || fail "results.md: no '$k' line"
done
grep -q '^| rig | local: 3 ranks' "$md" || fail "results.md: rig not stated"
for m in run elapsed; do
    grep -q "^## sls vs ls: $m time ratio" "$md" || fail "results.md: no size x delay matrix of the $m time"
done
# Matrix rows: every cell is "quotient (difference in ms)", e.g. "1.05 (-0.3)".
[[ $(grep -cE '^\| 64K( \| [0-9]+\.[0-9]{2} \([+-][0-9]+\.[0-9]\)){2} \|$' "$md") == 6 ]] ||
    fail "results.md: expected 6 matrix rows for 64K with quotient (difference) cells"
check_csv "$TMP/ok/results.csv" 16 || fail "results.csv of the smoke run"
# papbench's efficiency and the rig's limits (alpha per rank, CPU per rank) under every point.
[[ $(grep -cE '^Efficiency \(median .*: ls [0-9.]+, sls [0-9.]+, bsls [0-9.]+, mpi [0-9.]+\.$' "$md") == 4 ]] ||
    fail "results.md: expected an efficiency line under each of the 4 points"
[[ $(grep -cE '^Limits of the rig .*α root ↔ rank min / median / max [0-9.]+ / [0-9.]+ / [0-9.]+ µs; CPU per rank .*mean [0-9.]+ s' "$md") == 4 ]] ||
    fail "results.md: expected a limits line under each of the 4 points"
python3 - "$TMP/ok/results.csv" <<'EOF2' || fail "results.csv: no efficiency or limits columns"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert all(0 < float(r["efficiency_median"]) <= 1.5 and float(r["cpu_rank_max_s"]) > 0 for r in rows)
EOF2

# 2. One point fails (a size papbench refuses), the other runs.
"$REPRO" smoke --rig local --bin "$BIN" --out "$TMP/bad" --set "sweep.size=bogus 16K" \
    --set sweep.maxdelay=0 >"$TMP/bad.log" 2>&1
rc=$?
[[ $rc == 1 ]] || fail "a failed run gave exit status $rc, expected 1"
grep -q "^reproduce: run 1/2 FAILED: exit 2: papbench: --size" "$TMP/bad.log" ||
    fail "the failed run is not reported with papbench's error: $(grep FAILED "$TMP/bad.log")"
grep -q '^reproduce: run 2/2 ok' "$TMP/bad.log" || fail "the run after the failed one did not run"
# shellcheck disable=SC2016  # backquotes of markdown
grep -q '^Failed runs: `runs/sizebogus-maxdelay0-r1`' "$TMP/bad/results.md" || fail "results.md: failed run not listed"
check_csv "$TMP/bad/results.csv" 8 bogus || fail "results.csv with a failed run"

# 3. Dry runs of the paper experiments: the runs they plan, nothing written.
"$REPRO" proficz2020-gather --dry-run --out "$TMP/dry" >"$TMP/dry.log" 2>&1 || fail "dry run of proficz2020-gather failed"
[[ $(grep -c 'jobs/emucluster --prefix pap run --ppn 1 --np 8 -- .*papbench .* --algos ls,lin,bnom,sls,sbn,bsls,bsbn,mpi --baseline ls$' \
    "$TMP/dry.log") == 35 ]] || fail "proficz2020-gather: expected 35 papbench runs on 8 emulated nodes"
grep -q 'would run: .*emucluster --prefix pap up 8 --rate 1gbit --latency 0' "$TMP/dry.log" ||
    fail "proficz2020-gather: the dry run does not show the cluster it would bring up"
"$REPRO" proficz2020-scatter --dry-run --rig local --out "$TMP/dry" >"$TMP/dry2.log" 2>&1 || fail "dry run of proficz2020-scatter failed"
[[ $(grep -c -- '--op scatter .* --algos lin,bnom,slin,sbn,bsln,bsbn,mpi --baseline lin$' "$TMP/dry2.log") == 35 ]] ||
    fail "proficz2020-scatter: expected 35 runs"
"$REPRO" fft-table5 --dry-run --out "$TMP/dry" >"$TMP/dry3.log" 2>&1 || fail "dry run of fft-table5 failed"
[[ $(grep -c 'bin/fft --out .* --algo ' "$TMP/dry3.log") == 70 ]] || fail "fft-table5: expected 7 algorithms x 10 repetitions"
"$REPRO" fft-table5-paper --dry-run --out "$TMP/dry" >"$TMP/dry4.log" 2>&1 || fail "dry run of fft-table5-paper failed"
[[ $(grep -c 'bin/fft --out .* --n 131072 --iters 1000 --work [1-9][0-9]* .* --algo ' "$TMP/dry4.log") == 24 ]] ||
    fail "fft-table5-paper: expected 8 algorithms x 3 repetitions of 1 MiB, 1000 iterations, work > 0"
# The scalability sweeps: nodes swept (one run per count, the cluster sized for the largest).
for op in gather scatter; do
    "$REPRO" scaling-$op --dry-run --out "$TMP/dry" >"$TMP/dry5.log" 2>&1 || fail "dry run of scaling-$op failed"
    for np in 4 8 16 32 48; do
        [[ $(grep -c -- "run --ppn 1 --np $np -- .*papbench .*--op $op .*--size 2M --maxdelay 50 .*--pattern uniform" \
            "$TMP/dry5.log") == 1 ]] || fail "scaling-$op: no run on $np nodes"
    done
    grep -q -- '--nodes' "$TMP/dry5.log" && fail "scaling-$op: nodes passed to papbench"
    grep -q 'would run: .*emucluster --prefix pap up 48 ' "$TMP/dry5.log" ||
        fail "scaling-$op: the cluster is not sized for 48 nodes"
done
"$REPRO" scaling-gather --dry-run --rig slurm --out "$TMP/dry" >"$TMP/dry6.log" 2>&1 || fail "SLURM dry run of scaling-gather failed"
grep -q 'slurm/launch --nodes 32 --ppn 1 ' "$TMP/dry6.log" || fail "scaling-gather: SLURM launch not per node count"
out=$("$REPRO" scaling-gather --set "sweep.nodes=4 x" --dry-run 2>&1) && fail "nodes = x accepted"
[[ $out == *"[sweep] nodes must be integers >= 1"* ]] || fail "bad swept nodes: unexpected error '$out'"
[[ ! -e $TMP/dry ]] || fail "a dry run wrote $TMP/dry"
out=$("$REPRO" smoke --set experiment.nodes=0 --dry-run 2>&1) && fail "nodes = 0 accepted"
[[ $out == "reproduce: "*"nodes must be an integer >= 1"* ]] || fail "bad nodes: unexpected error '$out'"
: >"$TMP/file"
out=$("$REPRO" smoke --rig local --out "$TMP/file/out" 2>&1) && fail "an output directory inside a file accepted"
[[ $(grep -c '' <<<"$out") == 2 && $out == *$'\n'"reproduce: cannot write the output directory $TMP/file/out: Not a directory" ]] ||
    fail "unwritable --out: unexpected output '$out'"
# Every jobs/ script answers --help with exit 0 and rejects an unknown option with exit 2.
JOBS=$(cd "$ROOT/jobs" && for f in *; do [[ -f $f && -x $f ]] && echo "$f"; done)
[[ $(wc -w <<<"$JOBS") -ge 12 ]] || fail "found only these jobs/ scripts: $JOBS"
for j in $JOBS; do
    "$ROOT/jobs/$j" --help >/dev/null 2>&1 || fail "jobs/$j --help: exit $?"
done
for j in $JOBS; do
    "$ROOT/jobs/$j" --frob >/dev/null 2>&1
    rc=$?
    [[ $rc == 2 ]] || fail "jobs/$j --frob: exit $rc, expected 2"
done

echo "PASS: reproduce: smoke table (4 points x 4 algorithms) and CSV; a failed run reported, exit 1," \
    "the others done; dry runs plan 35, 35, 70 and 24 runs and the 4..48-node sweeps"
exit 0
