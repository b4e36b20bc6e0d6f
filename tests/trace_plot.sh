#!/usr/bin/env bash
# trace/plot renders its PNGs (PAP heat map per site, run time, imbalance)
# from a trace written by test_trace --write, and refuses bad input with one
# line.  Skipped without a python3 that has numpy, h5py and matplotlib.
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUTDIR=${OUT:-.}
[[ $OUTDIR == /* ]] || OUTDIR=$ROOT/$OUTDIR
WRITER=$OUTDIR/build/tests/test_trace
[[ -x $WRITER ]] || { echo "FAIL: $WRITER missing (run make)"; exit 1; }
# The OS python3 (/usr/bin) has the Debian packages; another python3 may be first on PATH.
PY=
for p in /usr/bin/python3 python3; do
    if "$p" -c 'import numpy, h5py, matplotlib' 2>/dev/null; then PY=$p; break; fi
done
[[ -n $PY ]] || { echo "SKIP trace_plot: no python3 with numpy, h5py and matplotlib"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL trace_plot: $*"; exit 1; }

"$WRITER" --write "$tmp/t.h5" >/dev/null || fail "test_trace --write"
"$PY" "$ROOT/trace/plot" "$tmp/t.h5" --out "$tmp/png" >"$tmp/list" 2>"$tmp/err" || fail "plot: $(cat "$tmp/err")"
for f in pap-alpha.png pap-beta_with_comma.png runtime.png imbalance.png; do
    [[ -s $tmp/png/$f ]] || fail "$f not written"
    [[ $(head -c 8 "$tmp/png/$f" | od -An -tx1 | tr -d ' \n') == 89504e470d0a1a0a ]] || fail "$f is not a PNG"
    grep -q "/$f\$" "$tmp/list" || fail "$f not listed on stdout"
done
"$PY" "$ROOT/trace/plot" "$tmp/t.h5" --out "$tmp/one" --site alpha --skip 3 >/dev/null 2>"$tmp/err" ||
    fail "plot --site alpha --skip 3: $(cat "$tmp/err")"
[[ -s $tmp/one/pap-alpha.png && ! -e $tmp/one/pap-beta_with_comma.png ]] || fail "--site did not select one site"
# Bad input: one line, exit 1.
printf 'x' >"$tmp/text"
for bad in "$tmp/missing.h5" "$tmp/text"; do
    "$PY" "$ROOT/trace/plot" "$bad" --out "$tmp/bad" >/dev/null 2>"$tmp/err"
    rc=$?
    [[ $rc -eq 1 && $(wc -l <"$tmp/err") -eq 1 ]] && grep -q '^trace/plot: ' "$tmp/err" ||
        fail "$bad: exit $rc, $(head -c 300 "$tmp/err")"
done
"$PY" "$ROOT/trace/plot" "$tmp/t.h5" --out "$tmp/bad" --site nope >/dev/null 2>"$tmp/err"
[[ $? -eq 1 ]] && grep -q "no call site 'nope'" "$tmp/err" || fail "unknown site: $(cat "$tmp/err")"
echo "trace_plot: PASS"
