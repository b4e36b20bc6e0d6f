#!/bin/sh
# BBR against cubic on the nodes, radixk + pipelined, 1 MiB, u10, 100 calls, seed 2
OUT=${1:?usage: rk.sh OUTDIR (from the top of the tree)}
mkdir -p "$OUT"
for pair in 1 2; do
for cc in bbr cubic; do
  jobs/emucluster down >/dev/null 2>&1
  jobs/emucluster up 8 --rate 1gbit --cc $cc >/dev/null
  jobs/emucluster run --mca mpi_preconnect_mpi 1 -- bin/papbench --op reduce --type int --size 256K --iters 100 --warmup 2 \
    --root 0 --quiet --shuffle --seed 2 --algos radixk,pipelined --baseline pipelined --pattern uniform --maxdelay 10 \
    --out "$OUT/rk-$cc-$pair" > "$OUT/rk-$cc-$pair.txt" 2>&1
done; done
jobs/emucluster down >/dev/null 2>&1
jobs/emucluster up 8 --rate 1gbit >/dev/null
