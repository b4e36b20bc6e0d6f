#!/bin/sh
# Issue 10's Clairvoyant goal against Open MPI's own reduce: rank 7 delayed by
# f x t_c, each forced coll/tuned algorithm (K = 1..7, tuned's default
# segmentation) and coll/adapt, each in its own run beside Clairvoyant, treedyn
# and pipelined (papcoll's fastest fixed tree at f >= 3).  t_c is Clairvoyant's
# balanced median of ../lock/single (the default decision's run of the same
# size), so the delays are the ones of that table.  Binary at $PB (default
# /tmp/s42/pb); sizes in MPI_INT elements in $SIZES (default "32K 512K"), f in
# $FS (default "0 1 3 5").  Usage: sh forced.sh OUTDIR
set -eu
OUT=${1:?usage: forced.sh OUTDIR}
PB=${PB:-/tmp/s42/pb}
LOCK=$(dirname "$0")/../lock/single
mkdir -p "$OUT"
for n in ${SIZES:-32K 512K}; do
  tc=$(sed -n 's/^summary: op=reduce algo=clairvoyant P=8 runtime_median_ms=\([0-9.]*\).*/\1/p' "$LOCK/f0-$n.log")
  for f in ${FS:-0 1 3 5}; do
    d=$(awk -v f=$f -v t="$tc" 'BEGIN { printf "%.3f", f * t }')
    pat="--pattern single:7 --maxdelay $d"; [ "$f" = 0 ] && pat="--pattern none"
    for K in 1 2 3 4 5 6 7 adapt; do
      if [ "$K" = adapt ]; then mca="--mca coll_adapt_priority 100"
      else mca="--mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_reduce_algorithm $K"; fi
      # shellcheck disable=SC2086
      jobs/emucluster run --mca mpi_preconnect_mpi 1 $mca -- "$PB" --op reduce --type int --size $n \
          --iters 30 --warmup 2 --root 0 --quiet --shuffle --seed 1 \
          --algos clairvoyant,treedyn,pipelined,mpi --baseline clairvoyant $pat \
          --out "$OUT/f$f-$n-$K" > "$OUT/f$f-$n-$K.log" 2>&1
      echo "$(date +%T) done f$f $n $K (delay $d ms)"
    done
  done
done
