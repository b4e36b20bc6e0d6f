#!/bin/sh
# Issue 11's 1 MiB points again after 8a3d13a (papbench validates only once
# every rank has left the call): bcast and allreduce of 256K floats, every
# papcoll algorithm of the op, auto, and Open MPI's default, uniform delays up
# to 0, 10 and 50 ms and one late rank (rank 5, 50 ms), shuffled order.
# Binary at $PB (default /tmp/s40/pb).  Usage: sh run.sh OUTDIR
set -eu
OUT=${1:?usage: run.sh OUTDIR}
PB=${PB:-/tmp/s40/pb}
BC=mpi,binomial,pipelined,chain,scatter_allgather,sorted,arrival,bsorted,bchain,auto
AR=mpi,recdoubling,ring,rabenseifner,sorted_ring,reduce_bcast,clairvoyant_bcast,treedyn_bcast,auto
mkdir -p "$OUT"
for p in uniform:0 uniform:10 uniform:50 single:5:50; do
  case $p in
    uniform:*) pat="--pattern uniform --maxdelay ${p#uniform:}" ;;
    single:*) s=${p#single:}; pat="--pattern single:${s%%:*} --maxdelay ${s#*:}" ;;
  esac
  tag=$(echo "$p" | tr ':' '-')
  for op in bcast allreduce; do
    if [ $op = bcast ]; then algos=$BC base=binomial; else algos=$AR base=ring; fi
    # shellcheck disable=SC2086
    jobs/emucluster run --mca mpi_preconnect_mpi 1 -- "$PB" --op $op --size 256K --type float \
        --iters 30 --warmup 2 --base-ms 100 --quiet --shuffle --seed 1 --algos $algos --baseline $base \
        $pat --out "$OUT/$op-$tag" > "$OUT/$op-$tag.log" 2>&1
    echo "done $op $tag"
  done
done
