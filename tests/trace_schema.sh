#!/usr/bin/env bash
# Trace schema versions and operation sets (trace/SCHEMA.md, "Changes"):
#   - a schema-1 file (tests/fixtures/trace-schema1.h5.gz, written by papcoll
#     0.1's test_trace --write: two sites, tables of gather and scatter only)
#     reads bit for bit (test_trace --schema1) and through every paptrace
#     command, which says that decisions were not recorded;
#   - a schema-2 file describes exactly the operations its sites use (a
#     subset of papcoll_ops.def) and reads;
#   - an unknown operation name in /algorithms (added with h5copy, in a
#     schema-2 and in the schema-1 file) is refused with one line naming it;
#   - with python3 + h5py: an unknown operation of a site, and a site whose
#     operation has no table, are refused with one line.
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
WRITER=$OUTDIR/build/tests/test_trace
PT=$OUTDIR/bin/paptrace
need_bins "$WRITER" "$PT"
make_scratch
failed=0 cases=0
fail() { echo "FAIL trace_schema: $*"; failed=$((failed + 1)); }

# refused FILE PATTERN: every command exits 1 with one stderr line matching PATTERN.
refused() {
    local f=$1 pat=$2 cmd rc
    for cmd in info stats; do
        cases=$((cases + 1))
        timeout -k 2 20 "$PT" "$cmd" "$f" >/dev/null 2>"$TMP/err"
        rc=$?
        if [[ $rc -ne 1 || $(wc -l <"$TMP/err") -ne 1 ]] || ! grep -qE "^paptrace: .*$pat" "$TMP/err"; then
            fail "$cmd $(basename "$f"): exit $rc (want 1): $(head -c 300 "$TMP/err")"
        fi
    done
}

# reads FILE: every command succeeds without a word on stderr.
reads() {
    local f=$1 cmd site
    for cmd in info dump csv chrome stats pat; do
        cases=$((cases + 1))
        site=()
        [[ $cmd == pat ]] && site=(--site alpha)
        if ! timeout -k 2 20 "$PT" "$cmd" "$f" "${site[@]}" >"$TMP/$cmd.out" 2>"$TMP/err" || [[ -s $TMP/err ]]; then
            fail "$cmd $(basename "$f"): $(head -c 300 "$TMP/err")"
        fi
    done
}

# Schema 1.
gzip -dc "$ROOT/tests/fixtures/trace-schema1.h5.gz" >"$TMP/v1.h5" || { echo "FAIL trace_schema: fixture"; exit 1; }
cases=$((cases + 1))
"$WRITER" --schema1 "$TMP/v1.h5" >"$TMP/v1.log" 2>&1 || fail "test_trace --schema1: $(grep -m3 FAIL "$TMP/v1.log")"
reads "$TMP/v1.h5"
grep -q '^schema version  *1$' "$TMP/info.out" || fail "info of the schema-1 file does not say schema version 1"
grep -q '^  not recorded (schema 1 file)$' "$TMP/info.out" || fail "info of the schema-1 file lists decisions"
grep -q '^  decisions: not recorded (schema 1 file)$' "$TMP/stats.out" || fail "stats of the schema-1 file lists decisions"

# Schema 2: the tables of the operations used, and the decisions.
"$WRITER" --write "$TMP/v2.h5" >/dev/null || { echo "FAIL trace_schema: test_trace --write"; exit 1; }
reads "$TMP/v2.h5"
cases=$((cases + 1))
tables=$(h5ls "$TMP/v2.h5/algorithms" 2>/dev/null | awk '{ print $1 }' | tr '\n' ' ')
[[ $tables == "gather scatter " ]] || fail "schema-2 file: /algorithms holds '$tables', expected the two operations used"
grep -q '^schema version  *2$' "$TMP/info.out" || fail "info of the schema-2 file does not say schema version 2"
grep -q "^  site 0 'alpha': 10$" "$TMP/info.out" || fail "info does not count site alpha's 10 decisions"
grep -q "^    \.\.\. 3 more (paptrace dump --site 'alpha' shows every call's) \.\.\.$" "$TMP/info.out" ||
    fail "info does not abbreviate site alpha's 10 decisions"
grep -q "^  decisions: 10 " "$TMP/stats.out" || fail "stats does not count site alpha's decisions"
grep -q '^    call 4  sls: policy fixed:x4$' "$TMP/stats.out" || fail "stats does not list call 4's decision"
"$PT" dump "$TMP/v2.h5" --site alpha | grep -c '^    decision: policy fixed:x' | grep -qx 10 ||
    fail "dump does not show the 10 decisions of site alpha"

# An operation this reader does not know.
for v in 1 2; do
    cp "$TMP/v$v.h5" "$TMP/op$v.h5"
    if ! h5copy -i "$TMP/v$v.h5" -o "$TMP/op$v.h5" -s /algorithms/gather -d /algorithms/alltoall 2>"$TMP/err"; then
        echo "FAIL trace_schema: h5copy (hdf5-tools, jobs/deps --install): $(head -c 200 "$TMP/err")"
        exit 1
    fi
    refused "$TMP/op$v.h5" "op$v.h5: unknown operation 'alltoall' in /algorithms \(this reader knows gather, scatter,"
done

# The OS python3 (/usr/bin) has the Debian h5py; another python3 may be first on PATH.
PY=
for p in /usr/bin/python3 python3; do
    if "$p" -c 'import h5py' 2>/dev/null; then PY=$p; break; fi
done
if [[ -n $PY ]]; then
    cp "$TMP/v2.h5" "$TMP/siteop.h5"
    cp "$TMP/v2.h5" "$TMP/notable.h5"
    "$PY" - "$TMP" <<'PY'
import sys, h5py, numpy
d = sys.argv[1]
with h5py.File(d + "/siteop.h5", "r+") as f:
    del f["sites/1"].attrs["op"]
    f["sites/1"].attrs.create("op", numpy.bytes_("alltoall"))
with h5py.File(d + "/notable.h5", "r+") as f:
    del f["algorithms/scatter"]
PY
    refused "$TMP/siteop.h5" "siteop.h5: unknown operation 'alltoall' in sites/1 \(this reader knows gather,"
    refused "$TMP/notable.h5" "sites/1 \(operation scatter has no table in /algorithms\)"
else
    echo "note: no python3 with h5py: the site-operation cases not run"
fi

echo "trace_schema: $cases cases, $failed failed"
[[ $failed -eq 0 ]]
