#!/usr/bin/env bash
# bin/paptrace on bad input: every case must end with exactly one error line
# on stderr and a non-zero exit status, never a crash or a hang.  Cases:
# bad command lines (exit 2); a missing file, a directory, a text file, an
# HDF5 file of another format and one of a newer schema version (made with
# h5py when python3 has it), an unknown call site, a --skip beyond every
# call (exit 1); the trace cut at
# 31 offsets and with bytes overwritten at 12 places (exit 0 allowed there
# only for damage HDF5 cannot see: raw data carries no checksum).
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
WRITER=$OUTDIR/build/tests/test_trace
PT=$OUTDIR/bin/paptrace
need_bins "$WRITER" "$PT"
make_scratch
failed=0 cases=0

# expect STATUS PATTERN CMD...: exit STATUS, one stderr line matching PATTERN.
expect() {
    local want=$1 pat=$2 rc lines
    shift 2
    cases=$((cases + 1))
    timeout -k 2 20 "$@" >/dev/null 2>"$TMP/err"
    rc=$?
    lines=$(wc -l <"$TMP/err")
    if [[ $rc -ne $want || $lines -ne 1 ]] || ! grep -qE "^paptrace: .*$pat" "$TMP/err"; then
        echo "FAIL trace_badinput: '${*#"$PT"}': exit $rc (want $want), $lines stderr lines: $(head -c 300 "$TMP/err")"
        failed=$((failed + 1))
    fi
}

# damaged FILE LABEL: exit 0 with no stderr, or exit 1 with one paptrace line; never a signal or timeout.
damaged() {
    local f=$1 label=$2 cmd rc lines
    for cmd in info csv stats chrome; do
        cases=$((cases + 1))
        timeout -k 2 20 "$PT" "$cmd" "$f" >/dev/null 2>"$TMP/err"
        rc=$?
        lines=$(wc -l <"$TMP/err")
        if ! { [[ $rc -eq 0 && $lines -eq 0 ]] || { [[ $rc -eq 1 && $lines -eq 1 ]] && grep -q '^paptrace: ' "$TMP/err"; }; }; then
            echo "FAIL trace_badinput: $cmd on $label: exit $rc, $lines stderr lines: $(head -c 300 "$TMP/err")"
            failed=$((failed + 1))
        fi
    done
}

"$WRITER" --write "$TMP/good.h5" >/dev/null || { echo "FAIL trace_badinput: test_trace --write"; exit 1; }
"$PT" info "$TMP/good.h5" >/dev/null || { echo "FAIL trace_badinput: the good trace does not read"; exit 1; }

# Command lines.
expect 2 "unknown command 'frob'" "$PT" frob "$TMP/good.h5"
expect 2 "expected a trace FILE" "$PT" stats
expect 2 "info takes no --site" "$PT" info "$TMP/good.h5" --site alpha
expect 2 "unknown option" "$PT" csv "$TMP/good.h5" --frob
expect 2 "--alpha: expected a non-negative number" "$PT" stats "$TMP/good.h5" --alpha x
expect 2 "--skip: expected" "$PT" pat "$TMP/good.h5" --skip -1

# Files that are not a readable trace.
expect 1 "No such file or directory" "$PT" info "$TMP/missing.h5"
expect 1 "not a regular file" "$PT" info "$TMP"
printf 'iter,rank\n0,1\n' >"$TMP/text.csv"
expect 1 "not an HDF5 file" "$PT" csv "$TMP/text.csv"
: >"$TMP/empty.h5"
expect 1 "not an HDF5 file" "$PT" dump "$TMP/empty.h5"
expect 1 "no call site 'nope'.*sites: alpha" "$PT" csv "$TMP/good.h5" --site nope
expect 1 "choose one with --site" "$PT" pat "$TMP/good.h5"
expect 1 "--skip 1000000 leaves none of the [0-9]+ calls of site 'alpha'" "$PT" pat "$TMP/good.h5" --site alpha --skip 1000000
expect 1 "--skip 1000000 leaves no call of any site" "$PT" stats "$TMP/good.h5" --skip 1000000
# The OS python3 (/usr/bin) has the Debian h5py; another python3 may be first on PATH.
PY=
for p in /usr/bin/python3 python3; do
    if "$p" -c 'import h5py' 2>/dev/null; then PY=$p; break; fi
done
if [[ -n $PY ]]; then
    "$PY" - "$TMP" <<'PY'
import sys, h5py
d = sys.argv[1]
with h5py.File(d + "/other.h5", "w") as f:
    f["x"] = [1, 2, 3]
with h5py.File(d + "/v3.h5", "w") as f:
    f.attrs["format"] = "paptrace".encode()
    f.attrs["schema_version"] = 3
PY
    expect 1 "not a paptrace file" "$PT" info "$TMP/other.h5"
    expect 1 "schema version 3, this reader knows 1 to 2" "$PT" stats "$TMP/v3.h5"
else
    echo "note: no python3 with h5py: other-format and other-schema cases not run"
fi

# Truncated at 31 offsets, from the superblock to the last byte.
size=$(stat -c %s "$TMP/good.h5")
for i in $(seq 0 30); do
    off=$((i == 0 ? 40 : size * i / 31))
    head -c "$off" "$TMP/good.h5" >"$TMP/cut.h5"
    expect 1 "(truncated|not an HDF5 file)" "$PT" stats "$TMP/cut.h5"
done

# Overwritten with 64 bytes of 0xA5 at 12 offsets.
for i in $(seq 1 12); do
    off=$((size * i / 13))
    cp "$TMP/good.h5" "$TMP/bad.h5"
    head -c 64 /dev/zero | tr '\0' '\245' | dd of="$TMP/bad.h5" bs=1 seek="$off" conv=notrunc status=none
    damaged "$TMP/bad.h5" "bytes $off..$((off + 63)) overwritten"
done

echo "trace_badinput: $cases cases, $failed failed"
[[ $failed -eq 0 ]]
