#!/bin/sh
# Allreduce exchanges in eager pieces (throwaway.patch here, applied to
# c02359f's papcoll__exchange and not kept), paired against c02359f's
# binary: recdoubling, ring, rabenseifner, auto and Open MPI's default,
# balanced, in the form (30 calls shuffled, 2 warm-up, 100 ms base);
# the old and the new binary alternating.  Binaries at $OLD and $NEW; sizes
# (floats) in $SIZES (default "64K 256K 2M"); pairs in $R (default 2);
# pattern in $PAT (default "uniform --maxdelay 0").
# Run from the top of the tree with the emulated cluster up.  Usage: sh ab.sh OUTDIR
set -eu
OUT=${1:?usage: ab.sh OUTDIR}
mkdir -p "$OUT"
for s in ${SIZES:-64K 256K 2M}; do
  for r in $(seq 1 "${R:-2}"); do
    for v in old new; do
      if [ $v = old ]; then pb=$OLD; else pb=$NEW; fi
      # shellcheck disable=SC2086
      jobs/emucluster run --mca mpi_preconnect_mpi 1 -- "$pb" --op allreduce --size "$s" --type float \
          --iters 30 --warmup 2 --base-ms 100 --quiet --shuffle --seed "$r" \
          --algos mpi,recdoubling,ring,rabenseifner,auto --baseline ring --pattern ${PAT:-uniform --maxdelay 0} \
          --out "$OUT/$s-r$r-$v" > "$OUT/$s-r$r-$v.log" 2>&1
      echo "$(date +%T) done $s r$r $v"
    done
  done
done
