#!/bin/sh
set -eu
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
OUT=$1; mkdir -p $OUT
A=mpi,recdoubling,ring,rabenseifner,weighted_ring,clairvoyant_bcast,treedyn_bcast
for pat in none u10; do
 p="--pattern none"; [ $pat = u10 ] && p="--pattern uniform --maxdelay 10"
 for seg in search 0; do
  PAPCOLL_CLAIRVOYANT_SEGMENTS=$seg jobs/emucluster run -x PAPCOLL_CLAIRVOYANT_SEGMENTS --mca mpi_preconnect_mpi 1 -- ${PB:-bin/papbench} --op allreduce --type float --size ${SIZE:-16K} --iters 40 --warmup 2 --quiet --shuffle --seed 1 --algos $A --baseline ring $p --out $OUT/$pat-$seg > $OUT/$pat-$seg.log 2>&1
  echo "$pat $seg: $(grep -h '^summary' $OUT/$pat-$seg.log | sed 's/.*algo=\([a-z_]*\).*runtime_median_ms=\([0-9.]*\).*/\1 \2/' | tr '\n' ' ')"
 done
done
