/*
 * Algorithms (algo.c): the tables generated from algos.def, the
 * restriction check and the fallback chain.  Every algorithm file includes
 * this header.  Not installed.
 */
#ifndef PAPCOLL_ALGO_H
#define PAPCOLL_ALGO_H

#include "algo_ids.h"
#include "args.h"
#include "p2p.h"
#include "plan.h"

/* The op of an algos.def line by its lowercase name: PAPCOLL__OPID_gather. */
enum {
#define PAPCOLL_OP(NAME, name, dflt, env, ini, kind) PAPCOLL__OPID_##name = PAPCOLL_OP_##NAME,
#include "papcoll_ops.def"
#undef PAPCOLL_OP
};

/* Foreground entry of an algorithm: the whole collective on this rank. */
typedef int (*papcoll__algo_fn)(const papcoll__args_t *a);
/* Background part (BACKGROUND algorithms), run by the site's monitor thread
 * once the plan exists; the foreground entry collects its result. */
typedef int (*papcoll__bg_fn)(papcoll__exec_t *x, int root);

/* Prototypes of every foreground entry, planner and background part. */
#define PAPCOLL__BGPROTO_NONE(op, name)
#define PAPCOLL__BGPROTO_BG(op, name) int papcoll__##op##_##name##_bg(papcoll__exec_t *x, int root);
#define PAPCOLL_ALGO(op, name, flags, fallback, planner, bg, cost, sorted, bsorted, summary) \
    int papcoll_##op##_##name(const papcoll__args_t *a);                               \
    int papcoll__plan_##planner(papcoll__plan_t *plan, const papcoll__plan_in_t *in); \
    PAPCOLL__BGPROTO_##bg(op, name)
#include "algos.def"
#undef PAPCOLL_ALGO

/* Why an algorithm cannot serve a call (PAPCOLL__WHY_OK: it can). */
typedef enum {
    PAPCOLL__WHY_OK,
    PAPCOLL__WHY_NO_MONITOR,
    PAPCOLL__WHY_NONCOMMUTATIVE,
    PAPCOLL__WHY_USER_OP,
    PAPCOLL__WHY_NOT_POW2
} papcoll__why_t;

/* One line of algos.def. */
typedef struct {
    papcoll_op_t op;
    const char *name;
    unsigned flags;
    int fallback; /* resolved by the compiler: PAPCOLL__A_<op>_<fallback> */
    papcoll__planner_fn planner;
    papcoll__bg_fn bg;
    const char *summary;
    papcoll__algo_fn fn;
} papcoll__algo_t;

/* Algorithm i of op (NULL: none). */
const papcoll__algo_t *papcoll__algo(papcoll_op_t op, int i);
/* Whether algorithm i can serve a call with signature sig on P ranks. */
papcoll__why_t papcoll__algo_check(papcoll_op_t op, int i, const papcoll__sig_t *sig, int P,
                                   int has_monitor);
/* One line on why (for warnings and records). */
const char *papcoll__why_text(papcoll__why_t why);

#endif
