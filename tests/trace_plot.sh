#!/usr/bin/env bash
# trace/plot renders its PNGs (PAP heat map per site, run time, imbalance)
# from a trace written by test_trace --write, and refuses bad input with one
# line.  Skipped without a python3 that has numpy, h5py and matplotlib.
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
WRITER=$OUTDIR/build/tests/test_trace
need_bins "$WRITER"
# The OS python3 (/usr/bin) has the Debian packages; another python3 may be first on PATH.
PY=
for p in /usr/bin/python3 python3; do
    if "$p" -c 'import numpy, h5py, matplotlib' 2>/dev/null; then PY=$p; break; fi
done
[[ -n $PY ]] || { echo "SKIP trace_plot: no python3 with numpy, h5py and matplotlib"; exit 77; }
make_scratch
fail() { echo "FAIL trace_plot: $*"; exit 1; }

"$WRITER" --write "$TMP/t.h5" >/dev/null || fail "test_trace --write"
"$PY" "$ROOT/trace/plot" "$TMP/t.h5" --out "$TMP/png" >"$TMP/list" 2>"$TMP/err" || fail "plot: $(cat "$TMP/err")"
for f in pap-alpha.png pap-beta_with_comma.png runtime.png imbalance.png; do
    [[ -s $TMP/png/$f ]] || fail "$f not written"
    [[ $(head -c 8 "$TMP/png/$f" | od -An -tx1 | tr -d ' \n') == 89504e470d0a1a0a ]] || fail "$f is not a PNG"
    grep -q "/$f\$" "$TMP/list" || fail "$f not listed on stdout"
done
"$PY" "$ROOT/trace/plot" "$TMP/t.h5" --out "$TMP/one" --site alpha --skip 3 >/dev/null 2>"$TMP/err" ||
    fail "plot --site alpha --skip 3: $(cat "$TMP/err")"
[[ -s $TMP/one/pap-alpha.png && ! -e $TMP/one/pap-beta_with_comma.png ]] || fail "--site did not select one site"
# Bad input: one line, exit 1.
printf 'x' >"$TMP/text"
for bad in "$TMP/missing.h5" "$TMP/text"; do
    "$PY" "$ROOT/trace/plot" "$bad" --out "$TMP/bad" >/dev/null 2>"$TMP/err"
    rc=$?
    [[ $rc -eq 1 && $(wc -l <"$TMP/err") -eq 1 ]] && grep -q '^trace/plot: ' "$TMP/err" ||
        fail "$bad: exit $rc, $(head -c 300 "$TMP/err")"
done
"$PY" "$ROOT/trace/plot" "$TMP/t.h5" --out "$TMP/bad" --site nope >/dev/null 2>"$TMP/err"
[[ $? -eq 1 ]] && grep -q "no call site 'nope'" "$TMP/err" || fail "unknown site: $(cat "$TMP/err")"
echo "trace_plot: PASS"
