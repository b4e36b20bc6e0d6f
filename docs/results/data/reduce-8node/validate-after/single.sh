#!/bin/sh
# Issue 10's Clairvoyant goal again after 8a3d13a (papbench validates only once
# every rank has left the call): rank 7 delayed by f x t_c, t_c Clairvoyant's
# balanced median of the f = 0 run of the same size, every reduce algorithm and
# Open MPI's default, 128 KiB and 2 MiB of MPI_INT.  Binary at $PB (default
# /tmp/s40/pb); sizes in $SIZES (default "32K 512K").  Usage: sh single.sh OUTDIR
set -eu
OUT=${1:?usage: single.sh OUTDIR}
PB=${PB:-/tmp/s40/pb}
ALL=clairvoyant,treedyn,noncommut_treedyn,binomial,pipelined,inorder,fibonacci,ring,rabenseifner,radixk,mpi
mkdir -p "$OUT"
run() { # name, pattern args...
  name=$1; shift
  jobs/emucluster run --mca mpi_preconnect_mpi 1 -- "$PB" --op reduce --type int --size $n \
      --iters 30 --warmup 2 --root 0 --quiet --shuffle --seed 1 --algos $ALL --baseline clairvoyant \
      "$@" --out "$OUT/$name" > "$OUT/$name.log" 2>&1
}
for n in ${SIZES:-32K 512K}; do
  run "f0-$n" --pattern none
  tc=$(sed -n 's/^summary: op=reduce algo=clairvoyant P=8 runtime_median_ms=\([0-9.]*\).*/\1/p' "$OUT/f0-$n.log")
  echo "t_c($n) = $tc ms"
  for f in 1 3 5; do
    d=$(awk -v f=$f -v t="$tc" 'BEGIN { printf "%.3f", f * t }')
    run "f$f-$n" --pattern single:7 --maxdelay "$d"
    echo "done f$f $n (delay $d ms)"
  done
done
