#!/usr/bin/env bash
# paptrace otf2: a papbench trace (4 ranks, 3 sites) as an OTF2 archive,
# checked by readers that are not ours: otf2-print must read it (exit 0) and
# tests/otf2_check.py (python3-otf2 and h5py) compares every event with the
# HDF5 trace.  Also: a small --chunk gives the same archive (the streaming
# merge across chunk boundaries), a rank call without arrival is left out
# and reported, the checker itself catches a 1 us difference, and bad
# input gets one line and exit 1.  Skips (77) without OTF2.
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
PB=$OUTDIR/bin/papbench
PT=$OUTDIR/bin/paptrace
PY=/usr/bin/python3
CHECK=$ROOT/tests/otf2_check.py
need_bins "$PB" "$PT"
make_scratch
fail() { echo "FAIL otf2: $*"; exit 1; }

if ! command -v otf2-print >/dev/null 2>&1 || ! "$PY" -c 'import otf2, h5py' 2>/dev/null; then
    echo "SKIP otf2: otf2-print or python3-otf2/h5py missing (jobs/deps --install)"
    exit 77
fi
if "$PT" otf2 /nonexistent "$TMP/none" 2>&1 | grep -q 'built without OTF2'; then
    echo "SKIP otf2: bin/paptrace built without OTF2 (libotf2-trace-dev: jobs/deps --install, then make clean all)"
    exit 77
fi

timeout -k 5 120 mpirun --oversubscribe --mca mpi_yield_when_idle 1 -np 4 "$PB" --algos ls,sls,bsls --size 4K \
    --iters 6 --warmup 1 --maxdelay 3 --base-ms 1 --quiet --trace "$TMP/run.h5" >"$TMP/pb.out" 2>&1 ||
    { tail -5 "$TMP/pb.out"; fail "papbench --trace"; }

"$PT" otf2 "$TMP/run.h5" "$TMP/a" >"$TMP/sum" 2>"$TMP/err" || fail "paptrace otf2: $(cat "$TMP/err")"
grep -q "^paptrace otf2: $TMP/a/traces.otf2: 4 locations, 3 sites, 84 rank calls" "$TMP/sum" ||
    fail "summary: $(cat "$TMP/sum")"
grep -q skipped "$TMP/sum" && fail "a complete trace skipped calls: $(cat "$TMP/sum")"
otf2-print "$TMP/a/traces.otf2" >"$TMP/a.print" 2>"$TMP/err" || fail "otf2-print: $(head -3 "$TMP/err")"
"$PY" "$CHECK" "$TMP/run.h5" "$TMP/a/traces.otf2" || fail "the archive does not match the trace"

# Two calls per chunk: the same events in the same order.
"$PT" otf2 "$TMP/run.h5" "$TMP/b" --chunk 2 >/dev/null 2>"$TMP/err" || fail "--chunk 2: $(cat "$TMP/err")"
otf2-print "$TMP/b/traces.otf2" >"$TMP/b.print" 2>&1 || fail "otf2-print of the --chunk 2 archive"
cmp -s "$TMP/a.print" "$TMP/b.print" || fail "--chunk 2 gives another archive than the default chunk"

# Rank 2 never called in call 3 of papbench-sls: left out, said, the rest checked.
cp "$TMP/run.h5" "$TMP/nan.h5"
"$PY" - "$TMP/nan.h5" <<'PY' || fail "cannot prepare the NaN trace"
import sys, h5py
with h5py.File(sys.argv[1], "r+") as f:
    site = next(g for g in f["sites"].values() if g.attrs["name"] in (b"papbench-sls", "papbench-sls"))
    r = site["ranks"][3]
    r[2]["arrival"] = float("nan")
    site["ranks"][3] = r
PY
"$PT" otf2 "$TMP/nan.h5" "$TMP/c" >"$TMP/sum" 2>"$TMP/err" || fail "paptrace otf2 with a NaN: $(cat "$TMP/err")"
grep -q "83 rank calls" "$TMP/sum" && grep -q '^skipped: 1 rank calls without arrival or exit' "$TMP/sum" ||
    fail "the NaN call is not reported: $(cat "$TMP/sum")"
"$PY" "$CHECK" "$TMP/nan.h5" "$TMP/c/traces.otf2" || fail "the archive of the NaN trace does not match it"

# The checker fails when an exit differs by 1 us.
cp "$TMP/run.h5" "$TMP/off.h5"
"$PY" - "$TMP/off.h5" <<'PY' || fail "cannot prepare the shifted trace"
import sys, h5py
with h5py.File(sys.argv[1], "r+") as f:
    site = f["sites"][sorted(f["sites"])[0]]
    r = site["ranks"][2]
    r[1]["exit"] += 1e-6
    site["ranks"][2] = r
PY
"$PY" "$CHECK" "$TMP/off.h5" "$TMP/a/traces.otf2" >"$TMP/neg" 2>&1 && fail "the checker accepts an exit 1 us off"
grep -q 'Leave at' "$TMP/neg" || fail "the checker fails for another reason: $(head -3 "$TMP/neg")"

# Bad input: one line, exit 1.
"$PT" otf2 "$TMP/run.h5" "$TMP/a" >/dev/null 2>"$TMP/err"
rc=$?
[[ $rc -eq 1 && $(wc -l <"$TMP/err") -eq 1 ]] && grep -q 'exists: choose an empty OUTDIR' "$TMP/err" ||
    fail "an existing archive: exit $rc, $(cat "$TMP/err")"
"$PT" otf2 "$TMP/missing.h5" "$TMP/d" >/dev/null 2>"$TMP/err"
rc=$?
[[ $rc -eq 1 && $(wc -l <"$TMP/err") -eq 1 ]] || fail "a missing trace: exit $rc, $(cat "$TMP/err")"
"$PT" otf2 "$TMP/run.h5" >/dev/null 2>&1
[[ $? -eq 2 ]] || fail "otf2 without OUTDIR: not a command-line error"
echo "otf2: PASS"
