#!/bin/sh
# Paired runs of one binary, /tmp/pb-fin: --finished mpi then --finished sleep, per seed.
# usage: abfin.sh OUT LABEL SIZE ITERS "PATTERN ARGS" "ALGOS" SEEDS...
out=$1 label=$2 size=$3 iters=$4 pat=$5 algos=$6; shift 6
for s in "$@"; do
  for w in mpi sleep; do
    jobs/emucluster run --mca mpi_preconnect_mpi 1 -- /tmp/pb-fin --op reduce --type int --size $size \
      --iters $iters --warmup 2 --root 0 --quiet --algos $algos --finished $w \
      --baseline binomial $pat --seed $s --out $out/$w-$label-s$s > $out/$w-$label-s$s.log 2>&1
  done
done
