#!/bin/sh
# 2 MiB: Clairvoyant with the search against the model's N (candidates 37 33 or
# so: the segment cap leaves little to choose), balanced and rank 7 late by 1x
# t_c (20.247 ms), beside treedyn, pipelined, rabenseifner and radix-k, 40 calls.
# From the top of the tree, cubic nodes up.  Binary at $PB.  Usage: sh run2m.sh OUTDIR
set -eu
OUT=${1:?usage: run2m.sh OUTDIR}
PB=${PB:-bin/papbench}
mkdir -p "$OUT"
common="--op reduce --type int --iters 40 --warmup 2 --root 0 --quiet --shuffle --seed 1 --size 512K"
for f in 0 1; do
  pat="--pattern none"; [ $f = 1 ] && pat="--pattern single:7 --maxdelay 20.247"
  for seg in search 0; do
    name=$([ $seg = 0 ] && echo model || echo search)-f$f-2M
    # shellcheck disable=SC2086
    PAPCOLL_CLAIRVOYANT_SEGMENTS=$seg jobs/emucluster run -x PAPCOLL_CLAIRVOYANT_SEGMENTS --mca mpi_preconnect_mpi 1 \
        -- "$PB" $common --algos clairvoyant,treedyn,pipelined,rabenseifner,radixk --baseline clairvoyant $pat \
        --out "$OUT/$name" > "$OUT/$name.log" 2>&1
    echo "$name: $(grep -h '^summary' "$OUT/$name.log" | sed 's/.*algo=\([a-z_]*\).*runtime_median_ms=\([0-9.]*\).*/\1 \2/' | tr '\n' ' ')"
  done
done
