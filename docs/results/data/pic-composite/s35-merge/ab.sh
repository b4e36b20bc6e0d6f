#!/usr/bin/env bash
# A/B of two pic binaries on the default rig (jobs/emucluster up 8), IceT's tree beside them, interleaved:
# each repetition runs every entry once, in order.  Run from the repository's top directory.
#   NEW=bin/pic OLD=<the parent commit's bin/pic> OP=over PROB=two-stream IMG=1024x1024 ALGO=noncommut_treedyn ab.sh OUT
# Entries (ENTRIES): new, old (ALGO under each binary), icet (icet:tree under NEW).
set -u
OUT=${1:-runs/ab}; PROB=${PROB:-two-stream}; IMG=${IMG:-1024x1024}; OP=${OP:-over}; ALGO=${ALGO:-noncommut_treedyn}
NEW=${NEW:-bin/pic}; OLD=${OLD:?the old binary}
mkdir -p "$OUT"
for rep in ${REPS:-1 2 3}; do
  for e in ${ENTRIES:-new old icet}; do
    case $e in
      new) bin=$NEW; algo=$ALGO;;
      old) bin=$OLD; algo=$ALGO;;
      icet) bin=$NEW; algo=icet:tree;;
    esac
    jobs/emucluster run -- "$bin" --out "$OUT/$e-r$rep" --problem "$PROB" --steps 600 --particles 400000 --grid 128x16 \
      --composite "$OP" --frame-every 10 --image "$IMG" --frames off --threads 1 --composite-algo "$algo" --quiet \
      > "$OUT/$e-r$rep.log" 2>&1
    echo "$rep $e $(grep -E '^  compositing   ' "$OUT/$e-r$rep.log")"
  done
done
