/*
 * allreduce "treedyn_bcast": the arrival-driven Tree-dyn reduce (reduce/
 * engine_dyn.c: a coordinator in rank 0's monitor thread pairs ranks as
 * they report idle) to rank 0, then the bcast of option allreduce_bcast
 * from rank 0, the rank that holds the result (the coordinator's root
 * never sends, so the result ends there without an extra message).
 *
 * BACKGROUND: the coordinator is this algorithm's background part; without
 * monitor threads the call falls back.  Tree-dyn pairs any two idle ranks,
 * so the association follows the arrivals: COMMUTATIVE_ONLY, the result
 * identical on every rank (the bcast copies it) but not reproducible from
 * run to run unless the arrivals repeat.  Non-commutative operations fall
 * back to reduce_bcast (ORDERED).
 */
#include "allreduce/engine.h"
#include "reduce/engine.h"

int papcoll__plan_ar_treedyn_bcast(papcoll__plan_t *plan, const papcoll__plan_in_t *in)
{
    return papcoll__ar_comp_plan(plan, in, 0, PAPCOLL__A_reduce_treedyn, in->ctx->ar_bcast);
}

int papcoll__allreduce_treedyn_bcast_bg(papcoll__exec_t *x, int root)
{
    const papcoll__ar_comp_t *c = papcoll__ar_comp_of(x->plan);

    (void)root; /* an allreduce has none: the plan's */
    if (c == NULL)
        return PAPCOLL_ERR_STATE; /* the planner did not run (cannot happen with a plan) */
    return papcoll__red_dyn_coordinator(x, &c->part[PAPCOLL__AR_REDUCE], c->root, PAPCOLL__DYN_ANY);
}

int papcoll_allreduce_treedyn_bcast(const papcoll__args_t *a)
{
    return papcoll__ar_comp_run(a, 0);
}
