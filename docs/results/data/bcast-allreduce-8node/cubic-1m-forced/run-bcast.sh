#!/bin/sh
# bcast 1 MiB beside each forced Open MPI algorithm and coll/adapt, u10 and u50, cubic nodes
# from the top of the tree, jobs/emucluster up 8 (cubic nodes), binaries of 7a18ce8
O=${1:?OUT}; mkdir -p $O
for p in 10 50; do for K in 1 2 3 4 5 6 7 8 9 adapt; do
  if [ $K = adapt ]; then M="--mca coll_adapt_priority 100"; else M="--mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_bcast_algorithm $K"; fi
  jobs/emucluster run --mca mpi_preconnect_mpi 1 $M -- \
    bin/papbench --op bcast --size 256K --type float --iters 30 --warmup 2 --base-ms 100 --quiet --shuffle --seed 1 \
    --algos mpi,chain,bchain,bsorted,auto --baseline chain --pattern uniform --maxdelay $p --out $O/bcast-u$p-K$K > $O/bcast-u$p-K$K.log 2>&1
  echo "$(date +%T) u$p K$K"
done; done
