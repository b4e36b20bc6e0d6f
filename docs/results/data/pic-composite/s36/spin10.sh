#!/usr/bin/env bash
# A 10 ms yielding phase before the naps (/tmp/pic-spin10) against the committed 1 ms / none (bin/pic), IceT beside.
#   OP=zbuffer PROB=two-stream IMG=512x512 ALGO=clairvoyant spin10.sh OUT
set -u
OUT=$1; mkdir -p $OUT
for rep in 1 2 3; do
  for e in new spin10 icet; do
    case $e in
      new) bin=bin/pic; algo=$ALGO;;
      spin10) bin=/tmp/pic-spin10; algo=$ALGO;;
      icet) bin=bin/pic; algo=icet:tree;;
    esac
    jobs/emucluster run -- "$bin" --out "$OUT/$e-r$rep" --problem $PROB --steps 600 --particles 400000 --grid 128x16 \
      --composite $OP --frame-every 10 --image $IMG --frames off --threads 1 --composite-algo "$algo" --quiet \
      > "$OUT/$e-r$rep.log" 2>&1
    echo "$rep $e $(grep -E '^  compositing   ' "$OUT/$e-r$rep.log")"
  done
done
