#!/bin/sh
# The decision at the edge: a data-driven site (auto, and rules with the
# one line of cv.rules) running Clairvoyant beside the fixed Clairvoyant
# site, 128 KiB reduce (32K MPI_INT), balanced, 60 calls shuffled, seeds
# 3..8; once with binaries that decide in the call (before the edge's
# choice was reused) and once with binaries that take the edge's choice.
# Usage: sh run.sh OUTDIR CALL_PAPBENCH EDGE_PAPBENCH   (emulated cluster up)
set -eu
OUT=${1:?usage: run.sh OUTDIR CALL_PAPBENCH EDGE_PAPBENCH}
CALL=${2:?}
EDGE=${3:?}
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT"
for s in 3 4 5 6 7 8; do
  for v in call edge; do
    if [ $v = call ]; then pb=$CALL; else pb=$EDGE; fi
    jobs/emucluster run --mca mpi_preconnect_mpi 1 -- "$pb" --op reduce --size 32K --iters 60 --warmup 2 \
        --base-ms 100 --quiet --shuffle --seed $s --algos "clairvoyant,auto,rules:$HERE/cv.rules,radixk" \
        --baseline radixk --pattern uniform --maxdelay 0 > "$OUT/$v-seed$s.log" 2>&1
  done
done
