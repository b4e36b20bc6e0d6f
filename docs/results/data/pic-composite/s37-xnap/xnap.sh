#!/usr/bin/env bash
# exchange naps experiment: TMP_XNAP=1 makes the monitor's exchange an Iallgather waited with bg naps.
set -u
OUT=$1; OP=${OP:-zbuffer}; PROB=${PROB:-two-stream}; IMG=${IMG:-512x512}; B=/work/scratch-x/bin/pic
mkdir -p $OUT
for rep in ${REPS:-1 2 3}; do
  for e in ${ENTRIES:-cv cv-x nct nct-x icet}; do
    case $e in
      cv) algo=clairvoyant; X="";;
      cv-x) algo=clairvoyant; X="-x TMP_XNAP=1";;
      nct) algo=noncommut_treedyn; X="";;
      nct-x) algo=noncommut_treedyn; X="-x TMP_XNAP=1";;
      icet) algo=icet:tree; X="";;
    esac
    jobs/emucluster run $X -- "$B" --out "$OUT/$e-r$rep" --problem $PROB --steps 600 --particles 400000 --grid 128x16 \
      --composite $OP --frame-every 10 --image $IMG --frames off --threads 1 --composite-algo "$algo" --quiet \
      > "$OUT/$e-r$rep.log" 2>&1
    echo "$rep $e $(grep -E '^  compositing   ' "$OUT/$e-r$rep.log") total $(grep -oE 'total_time=[0-9.]+' $OUT/$e-r$rep.log)"
  done
done
