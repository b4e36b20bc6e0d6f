#!/usr/bin/env bash
# A/B of papcoll's per-site work buffers in the PIC's compositing, default rig, 512x512 zbuffer (beam).
# before: /var/tmp/pic-before (main 0e63677), after: /var/tmp/pic-after (the working tree).
set -u
OUT=${1:-runs/s33/scratch-ab}; COMP=${2:-zbuffer}; PROB=${3:-beam}; shift 3 || true
ALGS=${ALGS:-"clairvoyant treedyn"}
mkdir -p $OUT
for rep in 1 2 3; do
  for a in $ALGS; do
    for v in before after; do
      jobs/emucluster run -- /var/tmp/pic-$v --out $OUT/$a-$v-r$rep --problem $PROB --steps 600 --particles 400000 --grid 128x16 \
        --composite $COMP --frame-every 10 --image 512x512 --frames off --threads 1 --composite-algo $a --quiet > $OUT/$a-$v-r$rep.log 2>&1
      echo "$rep $a $v $(grep -E '^  compositing   ' $OUT/$a-$v-r$rep.log)"
    done
  done
  jobs/emucluster run -- /var/tmp/pic-after --out $OUT/icet-r$rep --problem $PROB --steps 600 --particles 400000 --grid 128x16 \
    --composite $COMP --frame-every 10 --image 512x512 --frames off --threads 1 --composite-algo icet:tree --quiet > $OUT/icet-r$rep.log 2>&1
  echo "$rep icet:tree - $(grep -E '^  compositing   ' $OUT/icet-r$rep.log)"
done
