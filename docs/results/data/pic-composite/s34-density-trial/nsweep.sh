#!/usr/bin/env bash
# Clairvoyant's segment count at 1024x1024 zbuffer, balanced (two-stream), default rig, IceT's tree beside it.
set -u
OUT=${1:-runs/s34/nsweep}; PROB=${PROB:-two-stream}; IMG=${IMG:-1024x1024}
for rep in ${REPS:-1 2}; do  # REPS, NS: the repetitions and counts to run
  for n in ${NS:-model 8 16 33 icet}; do
    case $n in
      model) extra="--composite-algo clairvoyant";;
      icet) extra="--composite-algo icet:tree";;
      *) extra="--composite-algo clairvoyant --config $(dirname "$0")/cv$n.ini";;
    esac
    jobs/emucluster run -- bin/pic --out $OUT/$n-r$rep --problem $PROB --steps 600 --particles 400000 --grid 128x16 \
      --composite zbuffer --frame-every 10 --image $IMG --frames off --threads 1 $extra --quiet > $OUT/$n-r$rep.log 2>&1
    echo "$rep $n $(grep -E '^  compositing   ' $OUT/$n-r$rep.log)"
  done
done
