#!/bin/sh
# Allreduce with the round alpha in the reduction costs (docs/policies.md,
# "auto"): every papcoll allreduce, auto and Open MPI's default
# decision at 64 KiB (16K floats) under every pattern of issue 11, and at
# 256 KiB and 1 MiB balanced and under uniform 10 and 50 ms (points in
# $POINTS: SIZE-PATTERN, floats), in the form
# (30 calls shuffled, 2 warm-up, 100 ms base, seed $SEED, default 1; the
# logs of a seed other than 1 end in -SEED).  Traces for auto's
# decisions (paptrace stats --site papbench-auto).  Binary at $PB (default
# bin/papbench).  Run from the top of the tree with the emulated cluster up
# (jobs/emucluster up 8).  Usage: sh run.sh OUTDIR
set -eu
OUT=${1:?usage: run.sh OUTDIR}
PB=${PB:-bin/papbench}
AR=mpi,recdoubling,ring,rabenseifner,sorted_ring,weighted_ring,clairvoyant_bcast,treedyn_bcast,auto
mkdir -p "$OUT"
for point in ${POINTS:-16K-u0 16K-u10 16K-u50 16K-s5 64K-u0 64K-u10 64K-u50 256K-u0 256K-u10 256K-u50}; do
  s=${point%-*} p=${point#*-}
  case $p in
    u*) pat="--pattern uniform --maxdelay ${p#u}" ;;
    s5) pat="--pattern single:5 --maxdelay 50" ;;
  esac
  case ${SEED:-1} in 1) name=allreduce-$point ;; *) name=allreduce-$point-$SEED ;; esac
  # shellcheck disable=SC2086
  jobs/emucluster run --mca mpi_preconnect_mpi 1 -- "$PB" --op allreduce --size "$s" --type float \
      --iters 30 --warmup 2 --base-ms 100 --quiet --shuffle --seed "${SEED:-1}" --algos "$AR" \
      --baseline ring $pat --trace "$OUT/$name.h5" --out "$OUT/$name" > "$OUT/$name.log" 2>&1
  echo "$(date +%T) done $name"
done
