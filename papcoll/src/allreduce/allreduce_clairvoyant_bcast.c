/*
 * allreduce "clairvoyant_bcast": the Clairvoyant reduce (reduce/
 * reduce_clairvoyant.c: a segment schedule generated in the monitor from
 * the predicted arrivals) to the predicted LAST arrival, then the "sorted"
 * bcast (binomial tree, ranks placed by predicted arrival) from it.
 *
 * Why the last arrival: Clairvoyant lets the early ranks pre-reduce while
 * the late ones compute; at the root the result needs every rank's value,
 * and the root's own value needs no transfer, so the latest rank as root
 * joins its value at the top of the schedule (Marendic 2016: the root
 * arriving last is the case the schedule finishes soonest after the last
 * arrival).  Without a prediction the root is rank P - 1.
 *
 * Both parts are planned from the same exchanged predictions (the plan
 * holds the reduce's schedule and the bcast's placement), so every rank
 * holds the same plan (AGREE, checked with PAPCOLL_CHECK).  The result is
 * the root's and is copied by the bcast: identical on every rank,
 * reproducible for a given plan.  Clairvoyant associates in its schedule's
 * order: COMMUTATIVE_ONLY, falling back to reduce_bcast (ORDERED).
 */
#include "allreduce/engine.h"

int papcoll__plan_ar_clairvoyant_bcast(papcoll__plan_t *plan, const papcoll__plan_in_t *in)
{
    return papcoll__ar_comp_plan(plan, in, papcoll__ar_last_root(in->order, in->P),
                                 PAPCOLL__A_reduce_clairvoyant, PAPCOLL__A_bcast_sorted);
}

int papcoll_allreduce_clairvoyant_bcast(const papcoll__args_t *a)
{
    return papcoll__ar_comp_run(a, 0);
}
