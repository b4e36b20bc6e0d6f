#!/bin/sh
# tune's explorations in a policy-bench run: for each (regime, exploration)
# the first call whose decision shows it (paptrace dump lists the calls
# that switched algorithm), and why (first, or change point).
# Usage: sh explorations.sh RUNDIR/OP/trace.h5 [paptrace]
T=${1:?usage: explorations.sh TRACE.h5 [paptrace]}
PT=${2:-bin/paptrace}
"$PT" dump "$T" --site papbench-tune | awk '
  /^  iter/ { it = $2 }
  /decision: policy tune/ && /explor/ {
    match($0, /regime=[0-9]/); rg = substr($0, RSTART + 7, 1)
    match($0, /explorations=[0-9]+/); ex = substr($0, RSTART + 13, RLENGTH - 13)
    match($0, /step=[0-9]+/); st = substr($0, RSTART + 5, RLENGTH - 5)
    if (!((rg, ex) in seen)) {
      seen[rg, ex] = 1
      printf "call %s regime %s exploration %s (%s, step %s)\n", it, rg, ex,
             ($0 ~ /change point/ ? "change point" : "first"), st
    }
  }'
