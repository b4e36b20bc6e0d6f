# Sourced by the script tests (tests/*.sh; not executable, so tests/run does
# not take it for a test).  Sets ROOT (the tree) and OUTDIR (the build under
# test: $OUT, default the tree itself), exports what Open MPI needs on this
# machine (root, oversubscribed ranks, no CMA), and offers:
#   need_bins FILE...   fail (exit 1) naming the first FILE that is not built
#   make_scratch        TMP = a fresh directory, removed when the script exits
# shellcheck shell=bash
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUTDIR=${OUT:-.}
[[ $OUTDIR == /* ]] || OUTDIR=$ROOT/$OUTDIR
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=${OMPI_MCA_btl_vader_single_copy_mechanism:-none}

need_bins() {
    local b
    for b; do
        [[ -x $b ]] || { echo "FAIL: $b missing (run make)"; exit 1; }
    done
}

make_scratch() {
    TMP=$(mktemp -d)
    trap 'rm -rf "$TMP"' EXIT
}
