#!/usr/bin/env bash
# Clairvoyant's segment count in the PIC's zbuffer compositing, default rig (jobs/emucluster up 8), IceT's tree
# beside it; run from the repository's top directory.  Entries (NS): model (the binary's own count), icet (IceT's
# tree), or a number N (forced with cvN.ini from this directory).  Each repetition runs every entry once, in order.
#   forced counts:  REPS="1 2 3 4 5" NS="model 8 16 33 icet" nsweep.sh OUT     (then NS="1 2 4 icet")
#   the A/B (ab-*.txt; "new" is model under the change's binary, "old" the committed count forced):
#     PROB=two-stream IMG=1024x1024 NS="model 129 icet" nsweep.sh OUT   (likewise beam 512x512 with 33, beam 1024x1024 with 129)
set -u
OUT=${1:-runs/s34/nsweep}; PROB=${PROB:-two-stream}; IMG=${IMG:-1024x1024}
mkdir -p "$OUT"
for rep in ${REPS:-1 2 3}; do
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
