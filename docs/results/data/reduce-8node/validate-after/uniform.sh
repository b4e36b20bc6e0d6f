#!/bin/sh
# Issue 10's treedyn goal again after papbench validates only once every rank
# has left the call (8a3d13a): every reduce algorithm and Open MPI's default,
# uniform delays up to 10 and 50 ms, 128 KiB to 4 MiB of MPI_INT, shuffled
# order.  Binary: a copy of bin/papbench of 8a3d13a at $PB (default
# /tmp/s40/pb).  Usage: sh uniform.sh OUTDIR
set -eu
OUT=${1:?usage: uniform.sh OUTDIR}
PB=${PB:-/tmp/s40/pb}
ALL=treedyn,noncommut_treedyn,binomial,pipelined,inorder,fibonacci,ring,rabenseifner,radixk,clairvoyant,mpi
mkdir -p "$OUT"
for D in 10 50; do
  for n in 32K 64K 128K 256K 512K 1M; do
    jobs/emucluster run --mca mpi_preconnect_mpi 1 -- "$PB" --op reduce --type int --size $n \
        --iters 30 --warmup 2 --root 0 --quiet --shuffle --seed 1 --algos $ALL --baseline pipelined \
        --pattern uniform --maxdelay $D --out "$OUT/u$D-$n" > "$OUT/u$D-$n.log" 2>&1
    echo "done u$D $n: $(grep -c '^summary' "$OUT/u$D-$n.log") summaries"
  done
done
