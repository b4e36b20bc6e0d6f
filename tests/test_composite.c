/*
 * Serial unit test of the composite allreduce planning (papcoll/src/
 * allreduce/engine.h, engine_composite.c).  No MPI: plans are built on a
 * context filled by hand (P, a model, the tree cache).
 *
 *   - papcoll__ar_last_root: the last of the order, P - 1 without one;
 *   - papcoll__ar_reduce_algo, for every reduce algorithm, P = 1..13 and a
 *     commutative predefined, a commutative user and a non-commutative user
 *     operation: the result serves the call in the foreground, keeps rank
 *     order for the non-commutative one, and is the algorithm itself when
 *     that one serves;
 *   - clairvoyant_bcast's plan, P = 1..40, random distinct predictions: the
 *     root is the rank predicted last; the reduce part is Clairvoyant at
 *     that root with a valid schedule hash; the bcast part is sorted with
 *     the root on its tree's root, a permutation and its inverse; a second
 *     plan from the same predictions has the same hash (what PAPCOLL_CHECK
 *     compares), and moving the last rank changes root and hash;
 *   - reduce_bcast's plan: root 0, the configured pair;
 *   - a rebuild with another order replaces the parts (no stale part);
 */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "allreduce/engine.h"
#include "unit.h"

static void test_last_root(void)
{
    int order[5] = {3, 1, 4, 0, 2};

    check(papcoll__ar_last_root(order, 5) == 2, "last_root: %d, not 2", papcoll__ar_last_root(order, 5));
    check(papcoll__ar_last_root(NULL, 5) == 4, "last_root without order: %d", papcoll__ar_last_root(NULL, 5));
}

static void test_reduce_algo(void)
{
    papcoll__sig_t sig[3] = {
        {-1, 8, 2, 4, MPI_SUM, 1, 1}, {-1, 8, 2, 4, MPI_OP_NULL, 1, 0}, {-1, 8, 2, 4, MPI_OP_NULL, 0, 0}};
    int n = papcoll_algo_count(PAPCOLL_OP_REDUCE), P, i, s, r;

    for (P = 1; P <= 13; P++)
        for (i = 0; i < n; i++)
            for (s = 0; s < 3; s++) {
                r = papcoll__ar_reduce_algo(i, &sig[s], P);
                check(r >= 0 && r < n &&
                          papcoll__algo_check(PAPCOLL_OP_REDUCE, r, &sig[s], P, 0) == PAPCOLL__WHY_OK,
                      "reduce_algo(%s, sig %d, P %d) = %d cannot serve",
                      papcoll_algo_name(PAPCOLL_OP_REDUCE, i), s, P, r);
                check(s < 2 || (papcoll_algo_flags(PAPCOLL_OP_REDUCE, r) & PAPCOLL_F_ORDERED),
                      "reduce_algo(%s, P %d): %s does not keep rank order",
                      papcoll_algo_name(PAPCOLL_OP_REDUCE, i), P, papcoll_algo_name(PAPCOLL_OP_REDUCE, r));
                if (papcoll__algo_check(PAPCOLL_OP_REDUCE, i, &sig[s], P, 0) == PAPCOLL__WHY_OK)
                    check(r == i, "reduce_algo(%s, sig %d) replaced a serving algorithm",
                          papcoll_algo_name(PAPCOLL_OP_REDUCE, i), s);
            }
}

static void fake_ctx(papcoll_ctx_t *ctx, int P)
{
    memset(ctx, 0, sizeof(*ctx));
    ctx->size = P;
    ctx->segment_bytes = 65536;
    ctx->quiet = 1; /* no notes from the planners (the N search's) */
    ctx->has_model = 1;
    ctx->model.v[PAPCOLL__M_ALPHA] = 20e-6;
    ctx->model.v[PAPCOLL__M_BETA] = 1e-9;
    ctx->model.v[PAPCOLL__M_GAMMA] = 2e-10;
    ctx->ar_reduce = papcoll_algo_find(PAPCOLL_OP_REDUCE, "binomial");
    ctx->ar_bcast = papcoll_algo_find(PAPCOLL_OP_BCAST, "binomial");
    pthread_mutex_init(&ctx->tree_lock, NULL);
}

/* The checks of one clairvoyant_bcast plan; returns its root. */
static int check_cv(const papcoll__plan_t *plan, const double *pred, int P)
{
    const papcoll__ar_comp_t *c = papcoll__ar_comp_of(plan);
    const papcoll__plan_t *b;
    int last = 0, i;

    if (!check(c != NULL, "P %d: no composite data", P))
        return -1;
    for (i = 1; i < P; i++)
        last = pred[i] > pred[last] ? i : last;
    b = &c->part[PAPCOLL__AR_BCAST];
    check(c->root == last, "P %d: root %d, predicted last %d", P, c->root, last);
    check(c->part[PAPCOLL__AR_REDUCE].algo == papcoll_algo_find(PAPCOLL_OP_REDUCE, "clairvoyant") &&
              c->part[PAPCOLL__AR_REDUCE].root == last && (P == 1 || c->part[PAPCOLL__AR_REDUCE].xhash != 0),
          "P %d: reduce part algo %d root %d", P, c->part[PAPCOLL__AR_REDUCE].algo,
          c->part[PAPCOLL__AR_REDUCE].root);
    check(b->algo == papcoll_algo_find(PAPCOLL_OP_BCAST, "sorted") && b->has_tree &&
              b->v2r[b->tree->root] == last,
          "P %d: bcast part not sorted at the root", P);
    for (i = 0; i < P; i++)
        check(b->v2r[i] >= 0 && b->v2r[i] < P && b->r2v[b->v2r[i]] == i, "P %d: bcast placement at %d", P, i);
    return c->root;
}

static void test_plans(int P)
{
    papcoll_ctx_t ctx;
    papcoll__plan_t p1, p2;
    int cv = papcoll_algo_find(PAPCOLL_OP_ALLREDUCE, "clairvoyant_bcast");
    int rb = papcoll_algo_find(PAPCOLL_OP_ALLREDUCE, "reduce_bcast"), i, old, rc;
    double *pred = malloc((size_t)P * sizeof(double));
    const papcoll__ar_comp_t *c;

    fake_ctx(&ctx, P);
    if (pred == NULL || papcoll__plan_alloc(&p1, P) != PAPCOLL_OK ||
        papcoll__plan_alloc(&p2, P) != PAPCOLL_OK) {
        check(0, "out of memory");
        exit(1);
    }
    for (i = 0; i < P; i++)
        pred[i] = rnd_unit() * 0.05;
    rc = papcoll__plan_build(&p1, &ctx, PAPCOLL_OP_ALLREDUCE, cv, -1, 1 << 20, pred, 0, 1, 0, 0.0);
    rc = rc ? rc : papcoll__plan_build(&p2, &ctx, PAPCOLL_OP_ALLREDUCE, cv, -1, 1 << 20, pred, 0, 1, 0, 0.0);
    check(rc == PAPCOLL_OK, "P %d: plan_build %d", P, rc);
    old = check_cv(&p1, pred, P);
    check_cv(&p2, pred, P);
    check(p1.hash == p2.hash && p1.xhash == p2.xhash, "P %d: two plans from the same predictions differ", P);
    if (P > 1) { /* the first predicted rank becomes the last */
        pred[p1.order[0]] = 1.0;
        rc = papcoll__plan_build(&p1, &ctx, PAPCOLL_OP_ALLREDUCE, cv, -1, 1 << 20, pred, 0, 1, 1, 0.0);
        check(rc == PAPCOLL_OK && check_cv(&p1, pred, P) != old && p1.hash != p2.hash,
              "P %d: a new last arrival kept the root or the hash", P);
    }
    rc = papcoll__plan_build(&p1, &ctx, PAPCOLL_OP_ALLREDUCE, rb, -1, 4096, NULL, 0, 1, 2, 0.0);
    c = papcoll__ar_comp_of(&p1);
    check(rc == PAPCOLL_OK && c != NULL && c->root == 0 &&
              c->part[PAPCOLL__AR_REDUCE].algo == ctx.ar_reduce &&
              c->part[PAPCOLL__AR_BCAST].algo == ctx.ar_bcast &&
              c->part[PAPCOLL__AR_BCAST].v2r[c->part[PAPCOLL__AR_BCAST].tree->root] == 0,
          "P %d: reduce_bcast plan", P);
    papcoll__plan_free(&p1);
    papcoll__plan_free(&p2);
    for (int i = 0; i < ctx.ntrees; i++) /* the context's tree cache, as papcoll_finalize frees it */
        papcoll__tree_free(&ctx.trees[i].tree);
    pthread_mutex_destroy(&ctx.tree_lock);
    free(pred);
}

int main(void)
{
    int P;

    unit_name = "test_composite";
    test_last_root();
    test_reduce_algo();
    for (P = 1; P <= 40; P++)
        test_plans(P);
    return unit_summary();
}
