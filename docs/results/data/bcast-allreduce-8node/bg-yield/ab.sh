#!/bin/sh
# Background waits that yield once their call is there (site->bg_naps_until),
# paired against the binary before it: bcast of 256K floats (1 MiB), chain,
# bchain, bsorted and auto, uniform delays up to D ms, R pairs of runs, the
# old and the new binary alternating.  Binaries at $OLD and $NEW; delays in
# $DS (default "0 10 50"), pairs in $R (default 3).
# Usage: sh ab.sh OUTDIR
set -eu
OUT=${1:?usage: ab.sh OUTDIR}
mkdir -p "$OUT"
for D in ${DS:-0 10 50}; do
  for r in $(seq 1 "${R:-3}"); do
    for v in old new; do
      if [ $v = old ]; then pb=$OLD; else pb=$NEW; fi
      jobs/emucluster run --mca mpi_preconnect_mpi 1 -- "$pb" --op bcast --size 256K --type float \
          --iters 30 --warmup 2 --base-ms 100 --quiet --shuffle --seed "$r" \
          --algos chain,bchain,bsorted,auto --baseline chain --pattern uniform --maxdelay "$D" \
          --out "$OUT/u$D-r$r-$v" > "$OUT/u$D-r$r-$v.log" 2>&1
      echo "$(date +%T) done u$D r$r $v"
    done
  done
done
