/*
 * paptrace stats computes efficiency against papbench's root-port lower
 * bound (DESIGN.md "Metrics").  The bound is one implementation,
 * apps/bench/lowerbound.c; the build links no program's pieces into
 * another program, so this unit compiles that same source into bin/paptrace.
 */
#include "../../apps/bench/lowerbound.c"
