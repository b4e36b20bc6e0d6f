#!/bin/sh
# pic on cubic nodes (jobs/emucluster up 8): the default sites, every site under auto and only the
# scatter site under auto, with the binary before ($OLD) and after ($NEW) the scatter and ls leaves'
# napping receives; 3 interleaved rounds.  Usage: OLD=... NEW=... sh run.sh OUTDIR
set -u
O=${1:?usage: run.sh OUTDIR}
mkdir -p "$O"
for r in 1 2 3; do
  for v in new old; do
    if [ $v = new ]; then B=$NEW; else B=$OLD; fi
    if [ $v = new ]; then
      jobs/emucluster run -- "$B" --config configs/pic/beam.ini --out "$O/pic-$v-default-$r" --snapshot-every 0 \
          > "$O/pic-$v-default-$r.log" 2>&1
    fi
    jobs/emucluster run -- "$B" --config configs/pic/beam.ini --gather-algo auto --scatter-algo auto \
        --composite-algo auto --out "$O/pic-$v-allauto-$r" --snapshot-every 0 > "$O/pic-$v-allauto-$r.log" 2>&1
    jobs/emucluster run -- "$B" --config configs/pic/beam.ini --scatter-algo auto \
        --out "$O/pic-$v-scatterauto-$r" --snapshot-every 0 > "$O/pic-$v-scatterauto-$r.log" 2>&1
    echo "$(date +%T) round $r $v done"
  done
done
