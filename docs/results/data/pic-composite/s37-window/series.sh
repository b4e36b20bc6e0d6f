#!/usr/bin/env bash
# Interleaved pic series on the default rig: ENTRIES="label=BIN,ALGO ..." (IceT entries take icet:tree).
#   OP=zbuffer PROB=two-stream IMG=512x512 ENTRIES="new-cv=/tmp/pic-new,clairvoyant icet=/tmp/pic-new,icet:tree" series.sh OUT
set -u
OUT=$1; OP=${OP:-zbuffer}; PROB=${PROB:-two-stream}; IMG=${IMG:-512x512}
mkdir -p $OUT
for rep in ${REPS:-1 2 3}; do
  for e in $ENTRIES; do
    lab=${e%%=*}; rest=${e#*=}; bin=${rest%%,*}; algo=${rest#*,}
    jobs/emucluster run -- "$bin" --out "$OUT/$lab-r$rep" --problem $PROB --steps 600 --particles 400000 --grid 128x16 \
      --composite $OP --frame-every 10 --image $IMG --frames off --threads 1 --composite-algo "$algo" --quiet \
      > "$OUT/$lab-r$rep.log" 2>&1
    echo "$rep $lab $(grep -E '^  compositing   ' "$OUT/$lab-r$rep.log") $(grep -oE 'total_time=[0-9.]+' $OUT/$lab-r$rep.log) $(grep -oE 'validation: [A-Z]+' $OUT/$lab-r$rep.log)"
  done
done
