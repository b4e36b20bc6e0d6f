/*
 * The algorithms' numbers, generated from algos.def: PAPCOLL__A_<op>_<name>
 * is name's index within op (the index of papcoll_algo_name and of every
 * table), PAPCOLL__A_<op>_NONE is -1 (no such algorithm).  Code that means
 * one algorithm names it by this constant, never by its string.  Not
 * installed.
 */
#ifndef PAPCOLL_ALGO_IDS_H
#define PAPCOLL_ALGO_IDS_H

/* Position of each line in algos.def. */
enum {
#define PAPCOLL_ALGO(op, name, flags, fallback, planner, bg, cost, sorted, bsorted, summary)                 \
    PAPCOLL__AG_##op##_##name,
#include "algos.def"
#undef PAPCOLL_ALGO
    PAPCOLL__AG_COUNT
};

/* Index within the op: each op's lines are contiguous and start at "mpi". */
enum {
#define PAPCOLL_ALGO(op, name, flags, fallback, planner, bg, cost, sorted, bsorted, summary)                 \
    PAPCOLL__A_##op##_##name = PAPCOLL__AG_##op##_##name - PAPCOLL__AG_##op##_mpi,
#include "algos.def"
#undef PAPCOLL_ALGO
#define PAPCOLL_OP(NAME, name, dflt, env, ini, kind) PAPCOLL__A_##name##_NONE = -1,
#include "papcoll_ops.def"
#undef PAPCOLL_OP
};

/* The op's baseline, the MPI library's own collective. */
#define PAPCOLL__ALGO_BASELINE 0

#endif
