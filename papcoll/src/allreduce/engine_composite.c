/*
 * Composite allreduce (allreduce/engine.h): reduce to a root, bcast from
 * it.  The bcast copies one rank's result to every rank, so all ranks end
 * with the same bytes; a reduce algorithm that is reproducible for its plan
 * makes the composite reproducible for the composite's plan.
 *
 * Messages: both parts use their own ops' tags on the site's data
 * communicator.  A bcast message from a to b (PAPCOLL__TAG_DATA) cannot be
 * taken by a reduce receive of b: every data message of the reduce is
 * received before the root holds the result, the bcast starts at the root,
 * and a rank sends bcast data only after it received it, so b has finished
 * its reduce receives before anyone sends it bcast data.  The coordinator
 * of an arrival-driven reduce part uses the reduce's own tags.
 */
#include <math.h>
#include <stdlib.h>

#include "allreduce/engine.h"
#include "clock.h"

static const char owner; /* marks the plan data as a composite's */

int papcoll__ar_last_root(const int *order, int P)
{
    return order != NULL ? order[P - 1] : P - 1;
}

int papcoll__ar_reduce_algo(int ralgo, const papcoll__sig_t *sig, int P)
{
    int i = ralgo, steps = 0;

    while (papcoll__algo_check(PAPCOLL_OP_REDUCE, i, sig, P, 0) != PAPCOLL__WHY_OK && steps++ < 8)
        i = papcoll__algo(PAPCOLL_OP_REDUCE, i)->fallback;
    return i;
}

static void comp_free(void *p)
{
    papcoll__ar_comp_t *c = p;

    papcoll__plan_free(&c->part[PAPCOLL__AR_REDUCE]);
    papcoll__plan_free(&c->part[PAPCOLL__AR_BCAST]);
    free(c);
}

static papcoll__ar_comp_t *comp_get(papcoll__plan_t *plan, int P)
{
    papcoll__ar_comp_t *c = papcoll__plan_xdata(plan, &owner);

    if (c != NULL && c->P == P)
        return c;
    if ((c = calloc(1, sizeof(*c))) == NULL)
        return NULL;
    if (papcoll__plan_alloc(&c->part[PAPCOLL__AR_REDUCE], P) != PAPCOLL_OK ||
        papcoll__plan_alloc(&c->part[PAPCOLL__AR_BCAST], P) != PAPCOLL_OK) {
        comp_free(c);
        return NULL;
    }
    c->P = P;
    papcoll__plan_xdata_set(plan, &owner, c, comp_free);
    return c;
}

papcoll__ar_comp_t *papcoll__ar_comp_of(const papcoll__plan_t *plan)
{
    return plan->xowner == &owner ? plan->xdata : NULL;
}

/* The plan's predictions when it has any (NaN everywhere: none). */
static const double *pred_of(const papcoll__plan_t *plan, const papcoll__plan_in_t *in)
{
    int i;

    for (i = 0; in->order != NULL && i < in->P; i++)
        if (isfinite(plan->pred[i]))
            return plan->pred;
    return NULL;
}

static uint64_t mix(uint64_t h, uint64_t v)
{
    return (h ^ v) * 0x100000001B3ull;
}

int papcoll__ar_comp_plan(papcoll__plan_t *plan, const papcoll__plan_in_t *in, int root, int ralgo, int balgo)
{
    papcoll__ar_comp_t *c = comp_get(plan, in->P);
    const double *pred = pred_of(plan, in);
    int rc;

    plan->has_tree = 0;
    if (c == NULL)
        return PAPCOLL_ERR_NOMEM; /* the site's first plan only */
    c->root = root;
    c->algo[PAPCOLL__AR_REDUCE] = ralgo;
    c->algo[PAPCOLL__AR_BCAST] = balgo;
    rc = papcoll__plan_build(&c->part[PAPCOLL__AR_REDUCE], in->ctx, PAPCOLL_OP_REDUCE, ralgo, root, in->bytes,
                             pred, plan->noise, plan->density, in->iter, papcoll__mono());
    if (rc == PAPCOLL_OK)
        rc = papcoll__plan_build(&c->part[PAPCOLL__AR_BCAST], in->ctx, PAPCOLL_OP_BCAST, balgo, root,
                                 in->bytes, pred, plan->noise, plan->density, in->iter, papcoll__mono());
    plan->xhash =
        mix(mix(mix(0xCBF29CE484222325ull, (uint64_t)(unsigned)root), c->part[0].hash), c->part[1].hash);
    return rc;
}

int papcoll__ar_comp_run(const papcoll__args_t *a, int resolve)
{
    papcoll__ar_comp_t *c = papcoll__ar_comp_of(a->plan);
    papcoll__plan_t *rp;
    papcoll__args_t x = *a;
    int ralgo, rc;

    if (c == NULL || c->P != a->size)
        return PAPCOLL_ERR_STATE; /* this rank could not build the plan data */
    rp = &c->part[PAPCOLL__AR_REDUCE];
    ralgo = resolve ? papcoll__ar_reduce_algo(c->algo[PAPCOLL__AR_REDUCE], &a->sig, a->size) : rp->algo;
    if (ralgo != rp->algo &&
        (rc = papcoll__plan_build(rp, a->x->ctx, PAPCOLL_OP_REDUCE, ralgo, c->root, a->bytes, NULL, 0,
                                  a->plan->density, 0, papcoll__mono())) != PAPCOLL_OK)
        return rc; /* the same signature on every rank: every rank rebuilds */
    x.op = PAPCOLL_OP_REDUCE;
    x.root = x.sig.root = c->root;
    x.plan = rp;
    if ((rc = papcoll__algo(PAPCOLL_OP_REDUCE, rp->algo)->fn(&x)) != PAPCOLL_OK)
        return rc;
    x.op = PAPCOLL_OP_BCAST;
    x.sbuf = x.rbuf;
    x.plan = &c->part[PAPCOLL__AR_BCAST];
    return papcoll__algo(PAPCOLL_OP_BCAST, x.plan->algo)->fn(&x);
}
