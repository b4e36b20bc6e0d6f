#!/bin/sh
# treedyn at 128 KiB under uniform 10 ms beside the fixed trees, radix-k and
# Open MPI, 30 calls shuffled, cubic nodes up.  Run once with main's papbench
# (whole values in 3 pieces) and once with a papbench built with
# streamed-4.patch (treedyn streams in 4 segments of 32 KiB wherever it would
# send 2 or 3 pieces), alternating seed by seed.  Usage: sh run.sh OUTDIR PAPBENCH
set -u
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
OUT=$1; PB=$2; mkdir -p $OUT
common="--op reduce --type int --iters 30 --warmup 2 --root 0 --quiet --shuffle --size 32K --pattern uniform --maxdelay 10"
for seed in ${SEEDS:-1 2 3}; do
  jobs/emucluster run --mca mpi_preconnect_mpi 1 -- $PB $common --seed $seed --algos treedyn,binomial,pipelined,inorder,fibonacci,radixk,mpi --baseline pipelined --out $OUT/s$seed > $OUT/s$seed.log 2>&1
  echo "seed $seed: $(grep -h '^summary' $OUT/s$seed.log | sed 's/.*algo=\([a-z_]*\).*runtime_median_ms=\([0-9.]*\).*/\1 \2/' | tr '\n' ' ')"
done
