/*
 * Plans (plan.h): selection's result turned into data the algorithms
 * execute.  Pure: no MPI, no allocation after papcoll__plan_alloc.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "algo.h"
#include "base.h"
#include "plan.h"
#include "sched/twotree.h"

int papcoll__plan_alloc(papcoll__plan_t *plan, int P)
{
    memset(plan, 0, sizeof(*plan));
    plan->algo = -1;
    plan->iter = -1;
    plan->build_time = NAN;
    plan->pred = calloc((size_t)P, sizeof(double));
    plan->order = calloc((size_t)P, sizeof(int));
    plan->v2r = calloc((size_t)P, sizeof(int));
    plan->r2v = calloc((size_t)P, sizeof(int));
    plan->keyed = calloc((size_t)P, sizeof(*plan->keyed));
    if (plan->pred && plan->order && plan->v2r && plan->r2v && plan->keyed)
        return PAPCOLL_OK;
    papcoll__plan_free(plan);
    return PAPCOLL_ERR_NOMEM;
}

void *papcoll__plan_xdata(papcoll__plan_t *plan, const void *owner)
{
    if (plan->xowner == owner)
        return plan->xdata;
    if (plan->xdata != NULL && plan->xfree != NULL)
        plan->xfree(plan->xdata);
    plan->xdata = NULL;
    plan->xfree = NULL;
    plan->xowner = NULL;
    return NULL;
}

void papcoll__plan_xdata_set(papcoll__plan_t *plan, const void *owner, void *data, void (*xfree)(void *))
{
    papcoll__plan_xdata(plan, NULL); /* frees what is there */
    plan->xdata = data;
    plan->xfree = xfree;
    plan->xowner = data != NULL ? owner : NULL;
}

void papcoll__plan_free(papcoll__plan_t *plan)
{
    papcoll__plan_xdata(plan, NULL);
    free(plan->pred);
    free(plan->order);
    free(plan->v2r);
    free(plan->r2v);
    free(plan->keyed);
    plan->pred = NULL;
    plan->order = plan->v2r = plan->r2v = NULL;
    plan->keyed = NULL;
}

/* What every rank must share: algorithm, root, bytes, and for AGREE
 * algorithms the placement (or the order when there is no tree). */
static uint64_t plan_hash(const papcoll__plan_t *p, int P, unsigned flags)
{
    uint64_t bytes = p->bytes, h = 0xCBF29CE484222325ull;

    h = papcoll__fnv(h, &p->algo, sizeof(p->algo));
    h = papcoll__fnv(h, &p->root, sizeof(p->root));
    h = papcoll__fnv(h, &bytes, sizeof(bytes));
    h = papcoll__fnv(h, &p->seg, sizeof(p->seg));
    if (flags & PAPCOLL_F_AGREE) {
        h = p->has_tree ? papcoll__fnv(h, p->v2r, (size_t)P * sizeof(int))
                        : papcoll__fnv(h, p->order, (size_t)P * sizeof(int));
        h = papcoll__fnv(h, &p->xhash, sizeof(p->xhash));
    }
    return h;
}

/* Whether the new order equals the plan's (the placement can stay). */
static int same_order(const papcoll__plan_t *p, const int *order, int P)
{
    return memcmp(p->order, order, (size_t)P * sizeof(int)) == 0;
}

int papcoll__plan_build(papcoll__plan_t *plan, papcoll_ctx_t *ctx, papcoll_op_t op, int algo, int root,
                        size_t bytes, const double *pred, double noise, double density, int iter, double t0)
{
    const papcoll__algo_t *e = papcoll__algo(op, algo);
    unsigned flags = e->flags;
    int P = ctx->size, use_pat = (flags & PAPCOLL_F_NEEDS_PAT) != 0, keep, i, rc = PAPCOLL_OK;
    int *order = plan->order;
    papcoll__plan_in_t in = {ctx, P, root, bytes, NULL, iter};

    keep = plan->algo == algo && plan->root == root && plan->bytes == bytes &&
           plan->has_pat == (use_pat && pred != NULL);
    for (i = 0; i < P; i++)
        plan->pred[i] = (use_pat && pred != NULL) ? pred[i] : NAN;
    plan->noise = use_pat && pred != NULL ? noise : 0;
    plan->density = density;
    /* Sort into the placement array first (rank order without a prediction),
     * then compare with the old order. */
    papcoll__sort_by_key(P, use_pat ? pred : NULL, plan->r2v, plan->keyed);
    keep = keep && same_order(plan, plan->r2v, P);
    memcpy(order, plan->r2v, (size_t)P * sizeof(int));
    in.order = use_pat ? order : NULL;
    if (keep && plan->has_tree) {
        papcoll__perm_invert(P, plan->v2r, plan->r2v); /* r2v was the sort's scratch */
    } else {
        plan->has_tree = 0;
        plan->tree = NULL;
        plan->xhash = 0;
        plan->seg = 0;
        rc = e->planner(plan, &in);
    }
    plan->algo = algo;
    plan->root = root;
    plan->bytes = bytes;
    plan->has_pat = use_pat && pred != NULL;
    plan->iter = iter;
    plan->hash = plan_hash(plan, P, flags);
    plan->build_time = papcoll__mono() - t0;
    return rc;
}

/* ------------------------------------------------------------ planners */

int papcoll__plan_none(papcoll__plan_t *plan, const papcoll__plan_in_t *in)
{
    (void)in;
    plan->has_tree = 0;
    return PAPCOLL_OK;
}

int papcoll__plan_bn_gather(papcoll__plan_t *plan, const papcoll__plan_in_t *in)
{
    papcoll__bn_map_gather(in->P, in->root, in->order, plan->v2r);
    papcoll__perm_invert(in->P, plan->v2r, plan->r2v);
    plan->has_tree = 1;
    return PAPCOLL_OK;
}

int papcoll__plan_bn_scatter(papcoll__plan_t *plan, const papcoll__plan_in_t *in)
{
    papcoll__bn_map_scatter(in->P, in->root, in->order, plan->v2r);
    papcoll__perm_invert(in->P, plan->v2r, plan->r2v);
    plan->has_tree = 1;
    return PAPCOLL_OK;
}

/* ------------------------------------------------------------ trees */

const papcoll__tree_t *papcoll__tree_get(papcoll_ctx_t *ctx, papcoll__tree_shape_t shape, int k)
{
    const papcoll__tree_t *found = NULL;
    papcoll__tree_slot_t *slot;
    int i;

    pthread_mutex_lock(&ctx->tree_lock);
    for (i = 0; i < ctx->ntrees && found == NULL; i++)
        if (ctx->trees[i].tree.shape == shape && ctx->trees[i].k == k)
            found = &ctx->trees[i].tree;
    if (found == NULL && ctx->ntrees < PAPCOLL__MAX_TREES) {
        slot = &ctx->trees[ctx->ntrees];
        if (papcoll__tree_build(&slot->tree, shape, ctx->size, k) == PAPCOLL_OK) {
            slot->k = k;
            ctx->ntrees++;
            found = &slot->tree;
        }
    }
    pthread_mutex_unlock(&ctx->tree_lock);
    return found;
}

int papcoll__plan_tree(papcoll__plan_t *plan, const papcoll__plan_in_t *in, papcoll__tree_shape_t shape,
                       int k)
{
    if ((plan->tree = papcoll__tree_get(in->ctx, shape, k)) == NULL)
        return PAPCOLL_ERR_NOMEM;
    plan->has_tree = 1;
    return PAPCOLL_OK;
}

static void twotree_free(void *p)
{
    papcoll__twotree_free(p);
    free(p);
}

int papcoll__plan_twotree(papcoll__plan_t *plan, const papcoll__plan_in_t *in, int reduce)
{
    const papcoll__model_t *m = &in->ctx->model;
    papcoll__twotree_t *t = papcoll__plan_xdata(plan, papcoll__plan_twotree);
    int rc;

    if (t == NULL) {
        if ((t = malloc(sizeof(*t))) == NULL)
            return PAPCOLL_ERR_NOMEM;
        if ((rc = papcoll__twotree_build(t, in->P)) != PAPCOLL_OK) {
            free(t);
            return rc;
        }
        papcoll__plan_xdata_set(plan, papcoll__plan_twotree, t, twotree_free);
    }
    plan->seg = in->ctx->segment_given || !in->ctx->has_model
                    ? 0
                    : papcoll__twotree_segment(t, in->bytes,
                                               reduce ? papcoll__model_ralpha(m) : m->v[PAPCOLL__M_ALPHA],
                                               m->v[PAPCOLL__M_BETA] + (reduce ? m->v[PAPCOLL__M_GAMMA] : 0),
                                               in->ctx->segment_bytes);
    return PAPCOLL_OK;
}

int papcoll__plan_stwotree(papcoll__plan_t *plan, const papcoll__plan_in_t *in, int reduce)
{
    int rc = papcoll__plan_twotree(plan, in, reduce), root = in->root < 0 ? 0 : in->root;
    papcoll__twotree_t *t = plan->xdata;

    if (rc != PAPCOLL_OK)
        return rc;
    if (in->order != NULL)
        papcoll__twotree_place_sorted(t, reduce ? t->rseq : t->seq, root, in->order, plan->pred, plan->noise,
                                      plan->v2r, plan->r2v);
    else
        papcoll__twotree_place(in->P, root, plan->v2r, plan->r2v);
    plan->has_tree = 1;
    return PAPCOLL_OK;
}

void papcoll__place_rotate(papcoll__plan_t *plan, const papcoll__plan_in_t *in)
{
    int P = in->P, root = in->root < 0 ? plan->tree->root : in->root, p;

    for (p = 0; p < P; p++)
        plan->v2r[p] = ((p - plan->tree->root + root) % P + P) % P;
    papcoll__perm_invert(P, plan->v2r, plan->r2v);
}

void papcoll__place_identity(papcoll__plan_t *plan, const papcoll__plan_in_t *in)
{
    int p;

    for (p = 0; p < in->P; p++)
        plan->v2r[p] = plan->r2v[p] = p;
}

/* Positions by ascending depth, ties by position, into plan->r2v (scratch). */
static void by_depth(const papcoll__tree_t *t, int *out)
{
    int d, p, n = 0;

    for (d = 0; d <= t->height; d++)
        for (p = 0; p < t->P; p++)
            if (t->depth[p] == d)
                out[n++] = p;
}

void papcoll__place_order(papcoll__plan_t *plan, const papcoll__plan_in_t *in)
{
    const papcoll__tree_t *t = plan->tree;
    int *seq = plan->r2v, P = in->P, i, j = 0, r;

    by_depth(t, seq);
    plan->v2r[t->root] = in->root;
    for (i = 1; i < P; i++) { /* seq[0] is the tree's root */
        r = in->order[j++];
        if (r == in->root)
            r = in->order[j++];
        plan->v2r[seq[i]] = r;
    }
    papcoll__perm_invert(P, plan->v2r, plan->r2v);
}
