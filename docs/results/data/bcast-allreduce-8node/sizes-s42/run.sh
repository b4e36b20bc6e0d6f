#!/bin/sh
# Issue 11's size range (64 KiB to 8 MiB) on the binaries of one commit: every
# papcoll bcast and allreduce, auto and Open MPI's default decision, each size
# under uniform delays up to 0, 10 and 50 ms and with rank 5 late by 50 ms, in
# the form (30 calls shuffled, 2 warm-up, 100 ms base, seed 1).  1 MiB
# is in ../bg-yield/ (bcast) and ../validate-after, ../s41-ar0, ../bg-yield/ar0
# (allreduce).  Binary at $PB (default bin/papbench); sizes in $SIZES
# (floats; default "16K 64K 1M 2M"); ops in $OPS (default "bcast allreduce").
# Run from the top of the tree with the emulated cluster up (jobs/emucluster up 8).
# Usage: sh run.sh OUTDIR
set -eu
OUT=${1:?usage: run.sh OUTDIR}
PB=${PB:-bin/papbench}
BC=mpi,binomial,pipelined,chain,scatter_allgather,sorted,arrival,bsorted,bchain,auto
AR=mpi,recdoubling,ring,rabenseifner,sorted_ring,reduce_bcast,clairvoyant_bcast,treedyn_bcast,auto
mkdir -p "$OUT"
for s in ${SIZES:-16K 64K 1M 2M}; do
  for op in ${OPS:-bcast allreduce}; do
    if [ "$op" = bcast ]; then algos=$BC base=binomial; else algos=$AR base=ring; fi
    for p in u0 u10 u50 s5; do
      case $p in
        u*) pat="--pattern uniform --maxdelay ${p#u}" ;;
        s5) pat="--pattern single:5 --maxdelay 50" ;;
      esac
      name=$op-$s-$p
      # shellcheck disable=SC2086
      jobs/emucluster run --mca mpi_preconnect_mpi 1 -- "$PB" --op "$op" --size "$s" --type float \
          --iters 30 --warmup 2 --base-ms 100 --quiet --shuffle --seed 1 --algos "$algos" \
          --baseline "$base" $pat --out "$OUT/$name" > "$OUT/$name.log" 2>&1
      echo "$(date +%T) done $name"
    done
  done
done
