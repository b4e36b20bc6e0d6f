#!/usr/bin/env bash
# The density-aware segment count (new: bin/pic built with the change, since reverted) against the old dense count (forced 129 at
# 1024x1024, 33 at 512x512) and IceT's tree, default rig, 3 repetitions.
set -u
OUT=${1:-runs/s34/ab}; PROB=${PROB:-two-stream}; IMG=${IMG:-1024x1024}; OLD=${OLD:-129}
mkdir -p $OUT
for rep in ${REPS:-1 2 3}; do
  for n in new old icet; do
    case $n in
      new) extra="--composite-algo clairvoyant";;
      old) extra="--composite-algo clairvoyant --config $(dirname "$0")/cv$OLD.ini";;
      icet) extra="--composite-algo icet:tree";;
    esac
    jobs/emucluster run -- bin/pic --out $OUT/$n-r$rep --problem $PROB --steps 600 --particles 400000 --grid 128x16 \
      --composite zbuffer --frame-every 10 --image $IMG --frames off --threads 1 $extra --quiet > $OUT/$n-r$rep.log 2>&1
    echo "$rep $n $(grep -E '^  compositing   ' $OUT/$n-r$rep.log)"
  done
done
