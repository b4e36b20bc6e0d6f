#!/usr/bin/env bash
# zbuffer balanced 512: clairvoyant and noncommut_treedyn with naps (committed rule) and without (TMP_NONAP), IceT beside.
set -u
OUT=$1; mkdir -p $OUT
for rep in 1 2 3; do
  for e in cv cv-nonap nct nct-nonap icet; do
    case $e in
      cv) bin=bin/pic; algo=clairvoyant; X="";;
      cv-nonap) bin=/tmp/pic-nonap; algo=clairvoyant; X="-x TMP_NONAP=1";;
      nct) bin=bin/pic; algo=noncommut_treedyn; X="";;
      nct-nonap) bin=/tmp/pic-nonap; algo=noncommut_treedyn; X="-x TMP_NONAP=1";;
      icet) bin=bin/pic; algo=icet:tree; X="";;
    esac
    jobs/emucluster run $X -- "$bin" --out "$OUT/$e-r$rep" --problem two-stream --steps 600 --particles 400000 --grid 128x16 \
      --composite zbuffer --frame-every 10 --image 512x512 --frames off --threads 1 --composite-algo "$algo" --quiet \
      > "$OUT/$e-r$rep.log" 2>&1
    echo "$rep $e $(grep -E '^  compositing   ' "$OUT/$e-r$rep.log")"
  done
done
