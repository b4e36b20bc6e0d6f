#!/bin/sh
# A/B: /tmp/pb-c09 then /tmp/pb-k2, alternating, 128 KiB, uniform D ms.  usage: abk.sh OUT D SEEDS...
out=$1 D=$2; shift 2
for s in "$@"; do
  for v in c09 k2; do
    jobs/emucluster run --mca mpi_preconnect_mpi 1 -- /tmp/pb-$v --op reduce --type int --size 32K \
      --iters 40 --warmup 2 --root 0 --quiet --algos treedyn,noncommut_treedyn,binomial,pipelined,inorder \
      --baseline binomial --pattern uniform --maxdelay $D --seed $s --out $out/$v-u$D-s$s > $out/$v-u$D-s$s.log 2>&1
  done
done
