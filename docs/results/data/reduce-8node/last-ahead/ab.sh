#!/bin/sh
# Paired runs, alternating per seed: /tmp/pb-$A then /tmp/pb-$B (default: base, new), reduce of MPI_INT.
# usage: [A=base B=new] ab.sh OUT LABEL SIZE ITERS "PATTERN ARGS" SEEDS...   (output OUT/$v-LABEL-sS)
out=$1 label=$2 size=$3 iters=$4 pat=$5; shift 5
for s in "$@"; do
  for v in ${A:-base} ${B:-new}; do
    jobs/emucluster run --mca mpi_preconnect_mpi 1 -- /tmp/pb-$v --op reduce --type int --size $size \
      --iters $iters --warmup 2 --root 0 --quiet --algos treedyn,noncommut_treedyn,binomial,pipelined,inorder \
      --baseline binomial $pat --seed $s --out $out/$v-$label-s$s > $out/$v-$label-s$s.log 2>&1
  done
done
