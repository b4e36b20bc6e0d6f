#!/usr/bin/env bash
# paptrace pat --otf2: arrival patterns from OTF2 archives that papcoll did
# not write.  tests/otf2_scorep.py writes Score-P-style archives with
# python3-otf2 (4 and 7 ranks; MPI_Gather, MPI_Bcast on the world and on
# the even ranks, MPI_Allreduce; a barrier and compute regions around them)
# and the replay lines it expects; the extracted patterns must equal them
# exactly, by --region, by --op and per --comm.  Refused with one line and
# exit 1: two communicators without --comm, no matching region, mismatched
# call counts, a truncated events file, a truncated definitions file, a
# file that is no archive.  Round trip: a papbench trace through paptrace
# otf2 and back gives paptrace pat's pattern (within the 1 ns tick).
# Skips (77) without OTF2.
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
PB=$OUTDIR/bin/papbench
PT=$OUTDIR/bin/paptrace
PY=/usr/bin/python3
GEN=$ROOT/tests/otf2_scorep.py
need_bins "$PB" "$PT"
make_scratch
fail() { echo "FAIL otf2_import: $*"; exit 1; }

if ! "$PY" -c 'import otf2' 2>/dev/null; then
    echo "SKIP otf2_import: python3-otf2 missing (jobs/deps --install)"
    exit 77
fi
if "$PT" pat --otf2 /nonexistent 2>&1 | grep -q 'built without OTF2'; then
    echo "SKIP otf2_import: bin/paptrace built without OTF2 (libotf2-trace-dev: jobs/deps --install, then make clean all)"
    exit 77
fi

# pat --otf2 ARGS must print exactly the expected replay lines.
same() { # archive dir, expect name, args...
    local dir=$1 name=$2
    shift 2
    "$PT" pat --otf2 "$dir/traces.otf2" "$@" >"$TMP/out" 2>"$TMP/err" || fail "pat --otf2 $*: $(cat "$TMP/err")"
    grep -v '^#' "$TMP/out" | cmp -s - "$dir/expect-$name.txt" ||
        fail "pat --otf2 $dir $*: $(grep -v '^#' "$TMP/out" | head -2) instead of $(head -2 "$dir/expect-$name.txt")"
}
# pat --otf2 ARGS must fail with exit 1 and one line matching PATTERN.
refused() { # pattern, archive, args...
    local pattern=$1 archive=$2 rc
    shift 2
    "$PT" pat --otf2 "$archive" "$@" >/dev/null 2>"$TMP/err"
    rc=$?
    [[ $rc -eq 1 && $(wc -l <"$TMP/err") -eq 1 ]] && grep -q "$pattern" "$TMP/err" ||
        fail "pat --otf2 $archive $*: exit $rc, '$(head -c 300 "$TMP/err")', expected one line with '$pattern'"
}

for p in 4 7; do
    d=$TMP/s$p
    "$PY" "$GEN" "$d" $p || fail "otf2_scorep.py $p"
    same "$d" MPI_Gather --region MPI_Gather
    same "$d" MPI_Gather --op gather
    same "$d" MPI_Allreduce --region MPI_Allreduce
    same "$d" MPI_Bcast-world --region MPI_Bcast --comm 0
    same "$d" MPI_Bcast-even --op bcast --comm 1
    refused 'matching calls on communicators MPI_COMM_WORLD (0) and 1: choose one with --comm' "$d/traces.otf2" \
        --region MPI_Bcast
    "$PT" pat --otf2 "$d/traces.otf2" --op allreduce --stats >"$TMP/stats" 2>"$TMP/err" || fail "--stats: $(cat "$TMP/err")"
    grep -q "communicator MPI_COMM_WORLD (0), $p ranks, 5 calls" "$TMP/stats" && grep -q '^    imbalance I' "$TMP/stats" ||
        fail "--stats: $(cat "$TMP/stats")"
done
d=$TMP/s4
refused 'no collective call matches' "$d/traces.otf2" --region MPI_Alltoall
refused 'no collective call matches' "$d/traces.otf2" --op scatter
refused "unknown collective 'gathr'" "$d/traces.otf2" --op gathr
"$PY" "$GEN" "$TMP/drop" 7 --drop 2 || fail "otf2_scorep.py --drop"
refused 'different call counts on communicator MPI_COMM_WORLD: rank 0 has 5, rank 2 has 4' "$TMP/drop/traces.otf2" \
    --region MPI_Gather
cp -r "$d" "$TMP/cut" && truncate -s 100 "$TMP/cut/traces/2.evt"
refused 'reading the events: .*truncated or corrupt archive' "$TMP/cut/traces.otf2" --region MPI_Gather
cp -r "$d" "$TMP/cutdef" && truncate -s 50 "$TMP/cutdef/traces.def"
refused 'reading the definitions: .*truncated or corrupt archive' "$TMP/cutdef/traces.otf2"
echo hello >"$TMP/no.otf2"
refused 'not an OTF2 archive' "$TMP/no.otf2"
refused 'No such file' "$TMP/none.otf2"
"$PT" pat --otf2 "$d/traces.otf2" --region MPI_Gather --op gather >/dev/null 2>&1
[[ $? -eq 2 ]] || fail "--region with --op: not a command-line error"
"$PT" pat "$TMP/x.h5" --region MPI_Gather >/dev/null 2>&1
[[ $? -eq 2 ]] || fail "--region without --otf2: not a command-line error"

# Round trip: one site, HDF5 -> OTF2 -> pattern, against paptrace pat on the HDF5 trace.
timeout -k 5 120 mpirun --oversubscribe --mca mpi_yield_when_idle 1 -np 4 "$PB" --algos sls --size 4K --iters 8 \
    --warmup 0 --maxdelay 3 --base-ms 1 --quiet --trace "$TMP/run.h5" >"$TMP/pb.out" 2>&1 ||
    { tail -5 "$TMP/pb.out"; fail "papbench --trace"; }
"$PT" otf2 "$TMP/run.h5" "$TMP/rt" >/dev/null 2>"$TMP/err" || fail "paptrace otf2: $(cat "$TMP/err")"
"$PT" pat "$TMP/run.h5" | grep -v '^#' >"$TMP/h5.pat" || fail "paptrace pat of the HDF5 trace"
"$PT" pat --otf2 "$TMP/rt/traces.otf2" --region MPI_Gather | grep -v '^#' >"$TMP/otf2.pat" ||
    fail "paptrace pat --otf2 of the exported archive"
[[ $(wc -l <"$TMP/h5.pat") -eq 8 ]] || fail "pat of the HDF5 trace: $(wc -l <"$TMP/h5.pat") lines, expected 8"
paste -d' ' "$TMP/h5.pat" "$TMP/otf2.pat" | awk '{ n = NF / 2; for (i = 1; i <= n; i++) { d = $i - $(i + n);
    if (d > 1.5e-9 || d < -1.5e-9) exit 1 } } END { if (NR != 8) exit 1 }' ||
    fail "round trip: $(paste -d'|' "$TMP/h5.pat" "$TMP/otf2.pat" | head -3)"
echo "otf2_import: PASS"
