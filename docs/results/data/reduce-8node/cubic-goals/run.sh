#!/bin/sh
# Issue 10's goals again on cubic nodes (jobs/emucluster up 8, since ac8411b).
#  single: rank 7 delayed by f x t_c, every papcoll reduce and Open MPI's default
#          decision in one run; t_c is Clairvoyant's balanced median of ../lock/single
#          (the BBR-era run), so the delays are those of "The executor's lock".
#  forced: the same delays for f in $FFS, each forced coll/tuned reduce (K = 1..7)
#          and coll/adapt in its own run beside Clairvoyant, treedyn and pipelined.
#  u10:    uniform delays up to 10 ms, each forced algorithm and coll/adapt in its own
#          run beside treedyn and every papcoll fixed tree.
# Binary at $PB (default bin/papbench); sizes in MPI_INT elements.  Usage: sh run.sh OUTDIR
set -eu
OUT=${1:?usage: run.sh OUTDIR}
PB=${PB:-bin/papbench}
LOCK=$(dirname "$0")/../lock/single
ALL=clairvoyant,treedyn,noncommut_treedyn,binomial,pipelined,inorder,fibonacci,ring,rabenseifner,radixk,mpi
TREES=treedyn,binomial,pipelined,inorder,fibonacci,radixk,mpi
mkdir -p "$OUT"
pb() { # name, extra mca..., -- papbench args...
  name=$1; shift
  jobs/emucluster run --mca mpi_preconnect_mpi 1 "$@" > "$OUT/$name.log" 2>&1
  echo "$(date +%T) done $name"
}
mca_of() {
  if [ "$1" = adapt ]; then echo "--mca coll_adapt_priority 100"
  else echo "--mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_reduce_algorithm $1"; fi
}
common="--op reduce --type int --iters 30 --warmup 2 --root 0 --quiet --shuffle --seed 1"
for n in ${SIZES:-32K 512K}; do
  tc=$(sed -n 's/^summary: op=reduce algo=clairvoyant P=8 runtime_median_ms=\([0-9.]*\).*/\1/p' "$LOCK/f0-$n.log")
  for f in ${FS:-0 1 3 5}; do
    d=$(awk -v f=$f -v t="$tc" 'BEGIN { printf "%.3f", f * t }')
    pat="--pattern single:7 --maxdelay $d"; [ "$f" = 0 ] && pat="--pattern none"
    # shellcheck disable=SC2086
    pb single-f$f-$n -- "$PB" $common --size $n --algos $ALL --baseline clairvoyant $pat --out "$OUT/single-f$f-$n"
  done
  for f in ${FFS:-1 3}; do
    d=$(awk -v f=$f -v t="$tc" 'BEGIN { printf "%.3f", f * t }')
    for K in 1 2 3 4 5 6 7 adapt; do
      # shellcheck disable=SC2086
      pb forced-f$f-$n-$K $(mca_of $K) -- "$PB" $common --size $n --algos clairvoyant,treedyn,pipelined,mpi \
          --baseline clairvoyant --pattern single:7 --maxdelay $d --out "$OUT/forced-f$f-$n-$K"
    done
  done
done
for n in ${USIZES:-32K 64K}; do
  for K in 1 2 3 4 5 6 7 adapt; do
    # shellcheck disable=SC2086
    pb u10-$n-$K $(mca_of $K) -- "$PB" $common --size $n --algos $TREES --baseline binomial \
        --pattern uniform --maxdelay 10 --out "$OUT/u10-$n-$K"
  done
done
