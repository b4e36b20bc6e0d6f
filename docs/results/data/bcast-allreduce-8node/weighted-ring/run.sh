#!/bin/sh
# weighted_ring beside every allreduce, issue 11's form (30 calls shuffled,
# 2 warm-up, 100 ms base, seed 1), cubic nodes.  Run from the top of the
# tree with the emulated cluster up (jobs/emucluster up 8); binary at $PB
# (default bin/papbench).  Usage: sh run.sh OUTDIR [forced|sizes]
#   forced  1 MiB beside each forced Open MPI allreduce (tuned 1..6), under
#           u10, u50 and rank 5 late by 50 ms (18 runs, ~11 min)
#   sizes   every allreduce, Open MPI's default decision, 64 KiB to 8 MiB,
#           u0, u10, u50, s5 (16 runs, ~15 min)
set -eu
OUT=${1:?usage: run.sh OUTDIR [forced|sizes]}
PB=${PB:-bin/papbench}
mkdir -p "$OUT"
pat_of() {
  case $1 in
    u*) echo "--pattern uniform --maxdelay ${1#u}" ;;
    s5) echo "--pattern single:5 --maxdelay 50" ;;
  esac
}
COMMON="--op allreduce --type float --iters 30 --warmup 2 --base-ms 100 --quiet --shuffle --seed 1 --baseline ring"
if [ "${2:-forced}" = forced ]; then
  for p in u10 u50 s5; do for K in 1 2 3 4 5 6; do
    name=forced-$p-K$K
    # shellcheck disable=SC2046,SC2086
    jobs/emucluster run --mca mpi_preconnect_mpi 1 --mca coll_tuned_use_dynamic_rules 1 \
        --mca coll_tuned_allreduce_algorithm $K -- "$PB" $COMMON --size 256K \
        --algos mpi,ring,sorted_ring,weighted_ring,auto $(pat_of $p) --out "$OUT/$name" > "$OUT/$name.log" 2>&1
    echo "$(date +%T) done $name"
  done; done
else
  AR=mpi,recdoubling,ring,rabenseifner,sorted_ring,weighted_ring,reduce_bcast,clairvoyant_bcast,treedyn_bcast,auto
  for s in 16K 64K 256K 2M; do for p in u0 u10 u50 s5; do
    name=sizes-$s-$p
    # shellcheck disable=SC2046,SC2086
    jobs/emucluster run --mca mpi_preconnect_mpi 1 -- "$PB" $COMMON --size $s --algos "$AR" $(pat_of $p) \
        --out "$OUT/$name" > "$OUT/$name.log" 2>&1
    echo "$(date +%T) done $name"
  done; done
fi
