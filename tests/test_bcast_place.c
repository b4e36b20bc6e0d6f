/*
 * Serial unit test of the sorted bcast placement (papcoll/src/bcast/
 * engine.h, papcoll__bcast_place_round) on the binomial tree of
 * sched/tree.h.  No MPI: the broadcast of papcoll__bcast_tree is simulated
 * under the one-port model (a node that has the vector at round t serves its
 * children in service order at rounds t + 1, t + 2, ...).
 *
 * For every P in 1..70, 127, 128, 129, 509, 1000, 1024, roots {0, P-1, P/2}
 * and random predicted orders:
 *   - the placement is a permutation with the root on the tree's root and
 *     r2v its inverse;
 *   - the broadcast takes ceil(log2 P) rounds (Sanders Thm 13.1);
 *   - ranks are served in predicted order: the receive round is
 *     non-decreasing along the order (the property sorted is built for);
 *   - for P = 2^k the placement equals papcoll__bn_map_scatter's, an
 *     independent implementation of the same rule;
 *   - without an order, the rotated placement of binomial.
 * Mutant: the depth placement (papcoll__place_order) must fail the order
 * check for P = 8, so the check can fail.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bcast/engine.h"
#include "unit.h"

/* Receive round of every position under the one-port schedule. */
static int simulate(const papcoll__tree_t *t, int *round)
{
    int *stack = malloc((size_t)t->P * sizeof(int)), n = 0, v, i, last = -1;

    round[t->root] = -1;
    stack[n++] = t->root;
    while (n > 0) {
        v = stack[--n];
        for (i = 0; i < papcoll__tree_nkids(t, v); i++) {
            int c = papcoll__tree_kid(t, v, i);
            round[c] = round[v] + 1 + i;
            last = round[c] > last ? round[c] : last;
            stack[n++] = c;
        }
    }
    free(stack);
    return last + 1;
}

static void shuffle(int P, int *order)
{
    int i, j, x;

    for (i = 0; i < P; i++)
        order[i] = i;
    for (i = P - 1; i > 0; i--) {
        j = (int)(rnd() % (uint64_t)(i + 1));
        x = order[i], order[i] = order[j], order[j] = x;
    }
}

/* The checks on one placement; returns 1 when the order check held. */
static int check_placement(const papcoll__tree_t *t, const papcoll__plan_t *plan, const int *order, int root,
                           int *round, int *seen)
{
    int P = t->P, v, k, ok = 1, prev = -1, rounds;

    memset(seen, 0, (size_t)P * sizeof(int));
    for (v = 0; v < P; v++) {
        ok &= plan->v2r[v] >= 0 && plan->v2r[v] < P && !seen[plan->v2r[v]];
        if (plan->v2r[v] >= 0 && plan->v2r[v] < P)
            seen[plan->v2r[v]] = 1;
    }
    check(ok, "P=%d root=%d: v2r is not a permutation", P, root);
    if (!ok)
        return 0;
    check(plan->v2r[t->root] == root, "P=%d root=%d: the root is not on the tree's root", P, root);
    for (v = 0; v < P; v++)
        ok &= plan->r2v[plan->v2r[v]] == v;
    check(ok, "P=%d root=%d: r2v is not the inverse", P, root);
    rounds = simulate(t, round);
    check(rounds == papcoll__ceil_log2(P), "P=%d: %d rounds, want ceil(log2 P) = %d", P, rounds,
          papcoll__ceil_log2(P));
    ok = 1;
    for (k = 0; k < P && order != NULL; k++) {
        if (order[k] == root)
            continue;
        ok &= round[plan->r2v[order[k]]] >= prev;
        prev = round[plan->r2v[order[k]]];
    }
    return ok;
}

static void one_p(int P, papcoll__plan_t *plan, int *order, int *round, int *seen, int *ref)
{
    papcoll__tree_t t;
    int roots[3] = {0, P - 1, P / 2}, ri, rep, v, ok;

    if (!check(papcoll__tree_binomial(&t, P) == PAPCOLL_OK, "P=%d: binomial tree", P))
        return;
    plan->tree = &t;
    for (ri = 0; ri < 3; ri++) {
        papcoll__plan_in_t in = {NULL, P, roots[ri], 0, NULL, 0};
        papcoll__bcast_place_round(plan, &in);
        check_placement(&t, plan, NULL, roots[ri], round, seen);
        for (v = 0, ok = 1; v < P; v++)
            ok &= plan->v2r[v] == (v + roots[ri]) % P;
        check(ok, "P=%d root=%d: no order must give the rotated placement", P, roots[ri]);
        for (rep = 0; rep < 4; rep++) {
            shuffle(P, order);
            in.order = order;
            papcoll__bcast_place_round(plan, &in);
            check(check_placement(&t, plan, order, roots[ri], round, seen),
                  "P=%d root=%d: a rank is served in an earlier round than a rank predicted before it", P,
                  roots[ri]);
            if ((P & (P - 1)) == 0) {
                papcoll__bn_map_scatter(P, roots[ri], order, ref);
                check(memcmp(ref, plan->v2r, (size_t)P * sizeof(int)) == 0,
                      "P=%d root=%d: differs from bn_map_scatter", P, roots[ri]);
            }
        }
    }
    papcoll__tree_free(&t);
}

/* The depth placement serves the third-earliest rank in the last round
 * and the sixth in round 1: the order check must reject it. */
static void mutant(papcoll__plan_t *plan, int *order, int *round, int *seen)
{
    papcoll__tree_t t;
    papcoll__plan_in_t in = {NULL, 8, 0, 0, order, 0};
    int k;

    papcoll__tree_binomial(&t, 8);
    plan->tree = &t;
    for (k = 0; k < 8; k++)
        order[k] = k;
    papcoll__place_order(plan, &in);
    check(!check_placement(&t, plan, order, 0, round, seen),
          "mutant: the depth placement passed the order check");
    papcoll__tree_free(&t);
}

int main(void)
{
    static const int extra[] = {127, 128, 129, 509, 1000, 1024};
    papcoll__plan_t plan;
    int maxp = 1024, P, i;
    int *order = malloc(4 * (size_t)maxp * sizeof(int)), *round = order + maxp, *seen = round + maxp,
        *ref = seen + maxp;

    unit_name = "test_bcast_place";
    if (order == NULL || papcoll__plan_alloc(&plan, maxp) != PAPCOLL_OK) {
        printf("FAIL %s: out of memory\n", unit_name);
        return 1;
    }
    for (P = 1; P <= 70; P++)
        one_p(P, &plan, order, round, seen, ref);
    for (i = 0; i < (int)(sizeof(extra) / sizeof(extra[0])); i++)
        one_p(extra[i], &plan, order, round, seen, ref);
    mutant(&plan, order, round, seen);
    papcoll__plan_free(&plan);
    free(order);
    return unit_summary();
}
