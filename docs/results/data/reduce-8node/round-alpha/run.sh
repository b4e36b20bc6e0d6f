#!/bin/sh
# Clairvoyant with the model's N from the round alpha (NEW binary) against the
# ping-pong alpha (OLD binary), issue 10's method at 128 KiB on cubic nodes
# (jobs/emucluster up 8): rank 7 late by f x t_c (t_c = 1.785 ms, as in
# ../nsearch), 60 measured calls shuffled, 2 warm-up.
#  single: every papcoll reduce and Open MPI's default decision in one run; per
#          f (FS, default 0 1 3 5) the two binaries alternate, same seed (SEED).
#  forced: with FFS set (e.g. FFS="0 1"), NEW only: each forced coll/tuned
#          reduce (K = 1..7) and coll/adapt in its own run beside Clairvoyant,
#          rabenseifner, radix-k and pipelined.
# Each run measures its model into its own model_cache file, which keeps the
# values the run used (alpha beta gamma xbeta [round alpha]).
# Usage: OLD=<papbench> NEW=<papbench> sh run.sh OUTDIR
set -eu
OUT=${1:?usage: OLD=... NEW=... run.sh OUTDIR}
mkdir -p "$OUT"
ALL=clairvoyant,treedyn,noncommut_treedyn,binomial,pipelined,inorder,fibonacci,ring,rabenseifner,radixk,mpi
common="--op reduce --type int --iters 60 --warmup 2 --root 0 --quiet --shuffle --seed ${SEED:-1} --size 32K"
pat_of() {
  if [ "$1" = 0 ]; then echo "--pattern none"
  else echo "--pattern single:7 --maxdelay $(awk -v f="$1" 'BEGIN { printf "%.3f", f * 1.785 }')"; fi
}
pb() { # name, papbench, mca and papbench arguments...
  name=$1; shift
  PAPCOLL_MODEL_CACHE=$OUT/$name.cache jobs/emucluster run -x PAPCOLL_MODEL_CACHE --mca mpi_preconnect_mpi 1 \
      "$@" > "$OUT/$name.log" 2>&1
  echo "$(date +%T) done $name"
}
if [ -z "${FFS:-}" ]; then
  for f in ${FS:-0 1 3 5}; do
    for b in new old; do
      PB=$NEW; [ "$b" = old ] && PB=$OLD
      # shellcheck disable=SC2046,SC2086
      pb $b-f$f -- "$PB" $common --algos $ALL --baseline clairvoyant $(pat_of $f) --out "$OUT/$b-f$f"
    done
  done
  exit 0
fi
for f in $FFS; do
  for K in 1 2 3 4 5 6 7 adapt; do
    if [ "$K" = adapt ]; then mca="--mca coll_adapt_priority 100"
    else mca="--mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_reduce_algorithm $K"; fi
    # shellcheck disable=SC2046,SC2086
    pb forced-f$f-$K $mca -- "$NEW" $common --algos clairvoyant,rabenseifner,radixk,pipelined,mpi \
        --baseline clairvoyant $(pat_of $f) --out "$OUT/forced-f$f-$K"
  done
done
