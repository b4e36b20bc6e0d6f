#!/bin/sh
# treedyn against the fixed trees on cubic nodes: u10 at 128/256/512 KiB, seeds 4-6; u50 at 256 KiB, seeds 1-3
# from the top of the tree, with jobs/emucluster up 8 (cubic nodes)
O=${1:?OUT}
mkdir -p $O
for S in 4 5 6; do for N in 32K 64K 128K; do
  jobs/emucluster run --mca mpi_preconnect_mpi 1 -- bin/papbench --op reduce --type int --size $N --iters 30 --warmup 2 \
    --root 0 --quiet --shuffle --seed $S --algos treedyn,binomial,pipelined,inorder,fibonacci,radixk,clairvoyant,mpi \
    --baseline binomial --pattern uniform --maxdelay 10 --out $O/u10-$N-s$S > $O/u10-$N-s$S.txt 2>&1
done; done
for S in 1 2 3; do
  jobs/emucluster run --mca mpi_preconnect_mpi 1 -- bin/papbench --op reduce --type int --size 64K --iters 30 --warmup 2 \
    --root 0 --quiet --shuffle --seed $S --algos treedyn,binomial,pipelined,inorder,fibonacci,radixk,clairvoyant,mpi \
    --baseline binomial --pattern uniform --maxdelay 50 --out $O/u50-64K-s$S > $O/u50-64K-s$S.txt 2>&1
done
