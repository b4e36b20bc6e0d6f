#!/bin/sh
# Clairvoyant's N found by search (clairvoyant_segments = search) against the
# model's N, on cubic nodes (jobs/emucluster up 8), issue 10's method at 128 KiB:
#  single: rank 7 late by f x t_c (t_c = 1.785 ms, the balanced Clairvoyant median
#          of "The executor's lock", as in ../cubic-goals), every papcoll reduce and
#          Open MPI's default decision in one run; once with the search
#          (search-f*) and once with the model's N (model-f*), same seed.
#  forced: f = 0 and 1 with the search, each forced coll/tuned reduce (K = 1..7)
#          and coll/adapt in its own run beside Clairvoyant, rabenseifner,
#          radix-k and pipelined.
# 60 measured calls, 2 warm-up: the search's exploration (12 calls at 128 KiB:
# candidates 9 6 4 3, three calls each) is inside the measured calls.
# Binary at $PB (default bin/papbench).  Usage: sh run.sh OUTDIR
set -eu
OUT=${1:?usage: run.sh OUTDIR}
PB=${PB:-bin/papbench}
ALL=clairvoyant,treedyn,noncommut_treedyn,binomial,pipelined,inorder,fibonacci,ring,rabenseifner,radixk,mpi
mkdir -p "$OUT"
common="--op reduce --type int --iters 60 --warmup 2 --root 0 --quiet --shuffle --seed 1 --size 32K"
pb() { # name, segments (search or 0), extra mca..., -- papbench args...
  name=$1; seg=$2; shift 2
  PAPCOLL_CLAIRVOYANT_SEGMENTS=$seg jobs/emucluster run -x PAPCOLL_CLAIRVOYANT_SEGMENTS \
      --mca mpi_preconnect_mpi 1 "$@" > "$OUT/$name.log" 2>&1
  echo "$(date +%T) done $name"
}
mca_of() {
  if [ "$1" = adapt ]; then echo "--mca coll_adapt_priority 100"
  else echo "--mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_reduce_algorithm $1"; fi
}
pat_of() {
  d=$(awk -v f="$1" 'BEGIN { printf "%.3f", f * 1.785 }')
  if [ "$1" = 0 ]; then echo "--pattern none"; else echo "--pattern single:7 --maxdelay $d"; fi
}
for f in ${FS:-0 1 3 5}; do
  for seg in search 0; do
    name=search-f$f; [ "$seg" = 0 ] && name=model-f$f
    # shellcheck disable=SC2046,SC2086
    pb $name $seg -- "$PB" $common --algos $ALL --baseline clairvoyant $(pat_of $f) --out "$OUT/$name"
  done
done
for f in ${FFS:-0 1}; do
  for K in 1 2 3 4 5 6 7 adapt; do
    # shellcheck disable=SC2046,SC2086
    pb forced-f$f-$K search $(mca_of $K) -- "$PB" $common --algos clairvoyant,rabenseifner,radixk,pipelined,mpi \
        --baseline clairvoyant $(pat_of $f) --out "$OUT/forced-f$f-$K"
  done
done
