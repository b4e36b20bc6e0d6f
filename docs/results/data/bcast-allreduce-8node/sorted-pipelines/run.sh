#!/bin/sh
# spipelined and schain beside every bcast at 64 and 256 KiB on cubic nodes (jobs/emucluster up 8):
# balanced (seeds 1-3) and uniform delays up to 10 and 50 ms (seed 1), issue 11's form.
# Binary at $PB (default bin/papbench).  Usage: sh run.sh OUTDIR
set -eu
OUT=${1:?usage: run.sh OUTDIR}
PB=${PB:-bin/papbench}
BC=mpi,binomial,pipelined,chain,scatter_allgather,sorted,bsorted,bchain,spipelined,schain,auto
mkdir -p "$OUT"
for s in 16K 64K; do
  for p in u0-1 u0-2 u0-3 u10-1 u50-1; do
    d=${p%-*}; seed=${p#*-}
    name=bcast-$s-$p
    jobs/emucluster run --mca mpi_preconnect_mpi 1 -- "$PB" --op bcast --size "$s" --type float \
        --iters 30 --warmup 2 --base-ms 100 --quiet --shuffle --seed "$seed" --algos "$BC" \
        --baseline binomial --pattern uniform --maxdelay "${d#u}" --out "$OUT/$name" > "$OUT/$name.log" 2>&1
    echo "$(date +%T) done $name"
  done
done
