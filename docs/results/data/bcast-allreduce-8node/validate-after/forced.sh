#!/bin/sh
# Issue 11's 1 MiB points under uniform 50 ms beside each forced Open MPI
# algorithm, after 8a3d13a: allreduce with coll_tuned_allreduce_algorithm
# K = 1..6, bcast with coll_tuned_bcast_algorithm K = 1..9 and coll/adapt
# (segments of 65472 bytes, as papcoll's), every run with papcoll's best
# entries and auto.  Binary at $PB (default /tmp/s40/pb).  Usage: sh forced.sh OUTDIR
set -eu
OUT=${1:?usage: forced.sh OUTDIR}
PB=${PB:-/tmp/s40/pb}
mkdir -p "$OUT"
B="--size 256K --type float --iters 20 --warmup 2 --base-ms 100 --quiet --shuffle --seed 1 --pattern uniform --maxdelay 50"
T="--mca coll_tuned_use_dynamic_rules 1"
for K in 1 2 3 4 5 6; do
  # shellcheck disable=SC2086
  jobs/emucluster run --mca mpi_preconnect_mpi 1 $T --mca coll_tuned_allreduce_algorithm $K \
      --mca coll_tuned_allreduce_algorithm_segmentsize 65472 -- "$PB" --op allreduce \
      --algos mpi,sorted_ring,rabenseifner,ring,auto --baseline ring $B --out "$OUT/allreduce-K$K" \
      > "$OUT/allreduce-K$K.log" 2>&1
  echo "done allreduce K$K"
done
for K in 1 2 3 4 5 6 7 8 9 adapt; do
  if [ $K = adapt ]; then M="--mca coll_adapt_priority 100 --mca coll_adapt_bcast_segment_size 65472"
  else M="$T --mca coll_tuned_bcast_algorithm $K --mca coll_tuned_bcast_algorithm_segmentsize 65472"; fi
  # shellcheck disable=SC2086
  jobs/emucluster run --mca mpi_preconnect_mpi 1 $M -- "$PB" --op bcast \
      --algos mpi,bchain,bsorted,chain,auto --baseline chain $B --out "$OUT/bcast-K$K" \
      > "$OUT/bcast-K$K.log" 2>&1
  echo "done bcast K$K"
done
