#!/bin/sh
# allreduce 1 MiB beside each forced Open MPI algorithm, u10 and u50, cubic nodes
# from the top of the tree, jobs/emucluster up 8 (cubic nodes), binaries of 7a18ce8
O=${1:?OUT}; mkdir -p $O
for p in 10 50; do for K in 1 2 3 4 5 6; do
  jobs/emucluster run --mca mpi_preconnect_mpi 1 --mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_allreduce_algorithm $K -- \
    bin/papbench --op allreduce --size 256K --type float --iters 30 --warmup 2 --base-ms 100 --quiet --shuffle --seed 1 \
    --algos mpi,ring,sorted_ring,auto --baseline ring --pattern uniform --maxdelay $p --out $O/allreduce-u$p-K$K > $O/allreduce-u$p-K$K.log 2>&1
  echo "$(date +%T) u$p K$K"
done; done
