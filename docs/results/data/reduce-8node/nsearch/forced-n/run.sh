#!/bin/sh
# Clairvoyant with forced segment counts (clairvoyant_segments = N) at 128 KiB,
# balanced, beside rabenseifner and pipelined; two runs (seeds 1, 2) per N.
# From the top of the tree, cubic nodes up (jobs/emucluster up 8).
# Binary at $PB (default bin/papbench).  Usage: sh run.sh OUTDIR
set -eu
OUT=${1:?usage: run.sh OUTDIR}
PB=${PB:-bin/papbench}
mkdir -p "$OUT"
common="--op reduce --type int --iters 40 --warmup 2 --root 0 --quiet --shuffle --size 32K --pattern none"
for rep in 1 2; do
  for n in ${NS:-3 4 5 9}; do
    # shellcheck disable=SC2086
    PAPCOLL_CLAIRVOYANT_SEGMENTS=$n jobs/emucluster run -x PAPCOLL_CLAIRVOYANT_SEGMENTS --mca mpi_preconnect_mpi 1 \
        -- "$PB" $common --seed $rep --algos clairvoyant,rabenseifner,pipelined --baseline rabenseifner \
        --out "$OUT/n$n-$rep" > "$OUT/n$n-$rep.log" 2>&1
    echo "rep $rep n=$n: $(grep -h '^summary' "$OUT/n$n-$rep.log" | sed 's/.*algo=\([a-z]*\).*runtime_median_ms=\([0-9.]*\).*/\1 \2/' | tr '\n' ' ')"
  done
done
