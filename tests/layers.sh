#!/usr/bin/env bash
# The layers apps -> trace -> papcoll (docs/architecture.md, "Layers"), as the
# built objects show them, besides the include paths the Makefile gives:
#   - no source of papcoll/, trace/ or apps/ includes a header by a relative
#     path out of its directory (a way around the include paths);
#   - libpapcoll needs no symbol that libpaptrace, apps/common or a program
#     defines, and libpaptrace none that apps/common or a program defines;
#   - the metrics (trace/src/metrics.c, stats.c, lowerbound.c) are pure:
#     they need no MPI, HDF5 or papcoll symbol.
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
OBJ=$OUTDIR/build/obj
[[ -d $OUTDIR/obj ]] && OBJ=$OUTDIR/obj # make asan / make tsan
LIBPC=$OUTDIR/lib/libpapcoll.a LIBPT=$OUTDIR/lib/libpaptrace.a COMMON=$OBJ/apps/common/libcommon.a
for f in "$LIBPC" "$LIBPT" "$COMMON"; do
    [[ -f $f ]] || { echo "FAIL layers: $f missing (run make)"; exit 1; }
done
make_scratch
failed=0
fail() { echo "FAIL layers: $*"; failed=$((failed + 1)); }

# Relative includes that leave the file's directory.
bad=$(cd "$ROOT" && grep -rnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^"]*\.\./' papcoll trace apps --include='*.[ch]')
[[ -z $bad ]] || fail "includes by relative path:
$bad"

defined() { nm -g --defined-only "$@" 2>/dev/null | awk 'NF == 3 { print $3 }' | sort -u; }
undefined() { nm -g --undefined-only "$@" 2>/dev/null | awk 'NF == 2 { print $2 }' | sort -u; }

defined "$OBJ"/apps/*/lib*.a "$COMMON" >"$TMP/apps"
defined "$LIBPT" >"$TMP/trace"
undefined "$LIBPC" >"$TMP/pc.undef"
undefined "$LIBPT" >"$TMP/pt.undef"
[[ -s $TMP/apps && -s $TMP/trace && -s $TMP/pc.undef ]] || { echo "FAIL layers: nm found no symbols"; exit 1; }
up=$(sort -u "$TMP/apps" "$TMP/trace" | comm -12 - "$TMP/pc.undef")
[[ -z $up ]] || fail "libpapcoll needs symbols of the layers above: ${up//$'\n'/ }"
up=$(comm -12 "$TMP/apps" "$TMP/pt.undef")
[[ -z $up ]] || fail "libpaptrace needs symbols of apps/: ${up//$'\n'/ }"

# The pure metrics: members metrics.o, stats.o, lowerbound.o of libpaptrace.
members=$(ar t "$LIBPT")
for m in metrics.o stats.o lowerbound.o; do
    grep -qx "$m" <<<"$members" || fail "libpaptrace has no member $m"
    impure=$(nm --undefined-only "$LIBPT" 2>/dev/null |
        awk -v m="$m:" '/:$/ { in_m = ($0 == m) } in_m && NF == 2 { print $2 }' | grep -E '^(P?MPI|H5|papcoll|paptrace|ompi)')
    [[ -z $impure ]] || fail "$m is not pure: needs ${impure//$'\n'/ }"
done

echo "layers: $failed failed"
[[ $failed -eq 0 ]]
