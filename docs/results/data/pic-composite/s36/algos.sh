#!/usr/bin/env bash
# Interleaved series of pic runs on the default rig, one binary, several compositing algorithms.
#   OP=zbuffer PROB=two-stream IMG=512x512 ALGOS="clairvoyant noncommut_treedyn icet:tree" algos.sh OUT
set -u
OUT=${1:-runs/algos}; PROB=${PROB:-two-stream}; IMG=${IMG:-512x512}; OP=${OP:-zbuffer}
BIN=${BIN:-bin/pic}; ALGOS=${ALGOS:-clairvoyant icet:tree}; EXTRA=${EXTRA:-}
mkdir -p "$OUT"
for rep in ${REPS:-1 2 3}; do
  for a in $ALGOS; do
    tag=${a//:/-}
    jobs/emucluster run -- "$BIN" --out "$OUT/$tag-r$rep" --problem "$PROB" --steps 600 --particles 400000 --grid 128x16 \
      --composite "$OP" --frame-every 10 --image "$IMG" --frames off --threads 1 --composite-algo "$a" --quiet $EXTRA \
      > "$OUT/$tag-r$rep.log" 2>&1
    echo "$rep $a $(grep -E '^  compositing   ' "$OUT/$tag-r$rep.log")"
  done
done
