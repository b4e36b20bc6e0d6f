#!/bin/sh
# treedyn at 128 KiB under uniform 10 ms beside every fixed tree, radix-k and Open MPI,
# seeds 1-6 (SEEDS), 30 calls shuffled; cubic nodes up.  Usage: sh run.sh OUTDIR PAPBENCH
set -eu
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
OUT=$1; PB=$2; mkdir -p $OUT
common="--op reduce --type int --iters 30 --warmup 2 --root 0 --quiet --shuffle --size 32K --pattern uniform --maxdelay 10"
for seed in ${SEEDS:-1 2 3}; do
  jobs/emucluster run --mca mpi_preconnect_mpi 1 -- $PB $common --seed $seed --algos treedyn,binomial,pipelined,inorder,fibonacci,radixk,mpi --baseline pipelined --out $OUT/s$seed > $OUT/s$seed.log 2>&1
  echo "seed $seed: $(grep -h '^summary' $OUT/s$seed.log | sed 's/.*algo=\([a-z_]*\).*runtime_median_ms=\([0-9.]*\).*/\1 \2/' | tr '\n' ' ')"
done
