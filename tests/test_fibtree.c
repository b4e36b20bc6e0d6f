/*
 * Serial test of the golden-ratio tree (sched/tree.h, GOLDEN; bcast and
 * reduce "fibtree").  No MPI.  For every P in 1..MAXP and a few large P:
 *   - it spans every position: one root, parent and child links agree, at
 *     most two children (left below, right above), every position reached
 *     from the root;
 *   - in-order numbering: each subtree is the contiguous range [lo, hi),
 *     the left child's range [lo, v), the right one's [v + 1, hi), so a
 *     reduction combining left, own, right keeps position order;
 *   - single-ported timing (a node that holds the message at step t sends
 *     to its left child at t + 1 and its right child at t + 2): every leaf
 *     receives at the same step T, and T is the fewest steps any binary tree
 *     under that model needs, cap(T - 1) < P <= cap(T), cap(T) = Fib(T + 3)
 *     - 1 computed here by its recurrence;
 *   - the Fibonacci rule: at every node whose leaves must be reached at
 *     relative step T', the left subtree's size is the one nearest
 *     (n - 1) / phi among the splits that keep every leaf at T' (found by an
 *     exhaustive table of the sizes reachable with all leaves at one step),
 *     and the right subtree is empty only when no such split exists; at P =
 *     cap(T) the root's subtrees are cap(T - 1) and cap(T - 2) (ratio phi);
 *   - for every root (P <= ROOTP), the rotated placement of bcast "fibtree"
 *     is a permutation with the tree's root on the call's root.
 * Mutants (swapped children, a moved subtree root, a leaf one step late)
 * must fail.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"
#include "sched/tree.h"
#include "unit.h"

#define MAXP 700
#define ROOTP 40
#define MAXT 46
#define PHI 1.6180339887498949

static long cap[MAXT];          /* the most positions reached in T steps */
static unsigned char *ok[MAXT]; /* ok[T][n]: n positions can have all leaves at step T */
static char g_ctx[64];
static int g_mutant; /* 1: failures are expected; count them, print nothing */
static long g_bad;

static int tc(int ok_, const char *fmt, ...)
{
    va_list ap;
    int r = ok_;

    if (!ok_)
        g_bad++;
    if (!g_mutant) {
        va_start(ap, fmt);
        r = vcheck(ok_, fmt, ap);
        va_end(ap);
    }
    return r;
}

#define TC(cond, ...) tc((cond), __VA_ARGS__)

/* cap by its recurrence (a node, its left subtree one step later, its right
 * one two steps later), checked against Fib(T + 3) - 1; ok[][] for n <=
 * MAXP by trying every split. */
static int tables(void)
{
    long f0 = 2, f1 = 3, f; /* Fib(3), Fib(4) */
    int T, n, l;

    cap[0] = 1, cap[1] = 2;
    for (T = 2; T < MAXT; T++)
        cap[T] = 1 + cap[T - 1] + cap[T - 2];
    for (T = 0; T < MAXT; T++) {
        check(cap[T] == f0 - 1, "cap(%d) = %ld is not Fib(%d) - 1 = %ld", T, cap[T], T + 3, f0 - 1);
        f = f0 + f1, f0 = f1, f1 = f;
        if ((ok[T] = calloc(MAXP + 1, 1)) == NULL)
            return 0;
    }
    ok[0][1] = 1;
    for (T = 1; T < MAXT; T++)
        for (n = 2; n <= MAXP; n++)
            for (l = 1; l < n && !ok[T][n]; l++)
                ok[T][n] = ok[T - 1][l] && (l == n - 1 || (T >= 2 && ok[T - 2][n - 1 - l]));
    return 1;
}

static int steps_for(int P)
{
    int T = 0;

    while (cap[T] < P)
        T++;
    return T;
}

/* Links, ranges and in-order numbering; 1 when sound enough to simulate. */
static int check_links(const papcoll__tree_t *t, int P)
{
    long bad0 = g_bad;
    int v, i, c, roots = 0, nk = 0;

    TC(t->shape == PAPCOLL__TREE_GOLDEN && t->desc == 0 && t->P == P, "%s: shape %d desc %d P %d", g_ctx,
       t->shape, t->desc, t->P);
    for (v = 0; v < P; v++) {
        roots += t->parent[v] < 0;
        nk += papcoll__tree_nkids(t, v);
        TC(papcoll__tree_nkids(t, v) <= 2, "%s: %d has %d children", g_ctx, v, papcoll__tree_nkids(t, v));
        TC(t->lo[v] <= v && v < t->hi[v], "%s: %d outside its range [%d, %d)", g_ctx, v, t->lo[v], t->hi[v]);
    }
    TC(roots == 1 && t->parent[t->root] < 0 && nk == P - 1, "%s: %d roots, root %d, %d children", g_ctx, roots,
       t->root, nk);
    TC(t->lo[t->root] == 0 && t->hi[t->root] == P, "%s: the root spans [%d, %d)", g_ctx, t->lo[t->root],
       t->hi[t->root]);
    if (g_bad != bad0)
        return 0;
    for (v = 0; v < P; v++) {
        int left = 0, right = 0;

        for (i = 0; i < papcoll__tree_nkids(t, v); i++) {
            c = papcoll__tree_kid(t, v, i);
            if (!TC(c >= 0 && c < P && t->parent[c] == v, "%s: child %d of %d has parent %d", g_ctx, c, v,
                    c >= 0 && c < P ? t->parent[c] : -2))
                return 0;
            TC(papcoll__tree_kid_asc(t, v, i) == c, "%s: service and ascending orders differ at %d", g_ctx, v);
            TC(t->depth[c] == t->depth[v] + 1, "%s: depth of %d", g_ctx, c);
            if (c < v) {
                left++;
                TC(i == 0 && t->lo[c] == t->lo[v] && t->hi[c] == v, "%s: left child %d of %d: [%d, %d), #%d",
                   g_ctx, c, v, t->lo[c], t->hi[c], i);
            } else {
                right++;
                TC(t->lo[c] == v + 1 && t->hi[c] == t->hi[v], "%s: right child %d of %d: [%d, %d)", g_ctx, c,
                   v, t->lo[c], t->hi[c]);
            }
        }
        TC(left == (t->lo[v] < v) && right == (v + 1 < t->hi[v]), "%s: %d has %d left, %d right children",
           g_ctx, v, left, right);
    }
    return g_bad == bad0;
}

/* Receive steps from the root down (pre-order by descent; every position
 * reached once), then the leaves' steps and the split rule. */
static void check_steps(const papcoll__tree_t *t, int P, int *step, int *stack)
{
    int T = steps_for(P), sp = 0, v, i, c, seen = 0, leaves_at_T = 1, maxstep = 0;

    stack[sp++] = t->root;
    step[t->root] = 0;
    while (sp > 0) {
        v = stack[--sp];
        seen++;
        maxstep = step[v] > maxstep ? step[v] : maxstep;
        if (papcoll__tree_nkids(t, v) == 0 && step[v] != T && leaves_at_T)
            leaves_at_T = TC(0, "%s: leaf %d receives at step %d, not %d", g_ctx, v, step[v], T);
        for (i = 0; i < papcoll__tree_nkids(t, v); i++) {
            c = papcoll__tree_kid(t, v, i);
            step[c] = step[v] + 1 + i;
            stack[sp++] = c;
        }
    }
    TC(seen == P && maxstep == T, "%s: %d positions reached, last at step %d (T = %d)", g_ctx, seen, maxstep, T);
    TC(T == 0 || cap[T - 1] < P, "%s: %d steps although %ld positions fit in %d", g_ctx, T, cap[T - 1], T - 1);
    for (v = 0; v < P && P <= MAXP; v++) {
        int n = t->hi[v] - t->lo[v], nl = v - t->lo[v], Tv = T - step[v], best = -1, l;
        double dbest = 1e300;

        if (n == 1 || Tv < 1)
            continue;
        for (l = 1; l < n - 1; l++) /* splits with both sides, every leaf at Tv */
            if (Tv >= 2 && ok[Tv - 1][l] && ok[Tv - 2][n - 1 - l] && fabs(l - (n - 1) / PHI) < dbest)
                dbest = fabs(l - (n - 1) / PHI), best = l;
        if (best < 0)
            TC(nl == n - 1, "%s: %d (n %d, step %d) splits %d + %d, no split keeps the leaves at one step",
               g_ctx, v, n, Tv, nl, n - 1 - nl);
        else
            TC(nl < n - 1 && fabs(nl - (n - 1) / PHI) <= dbest + 1e-9,
               "%s: %d (n %d, step %d) splits %d + %d, the golden split is %d + %d", g_ctx, v, n, Tv, nl,
               n - 1 - nl, best, n - 1 - best);
    }
}

static void check_tree(const papcoll__tree_t *t, int P, int *step, int *stack)
{
    if (check_links(t, P))
        check_steps(t, P, step, stack);
}

/* The rotated placement for every root: a permutation, tree root on the call's root. */
static void check_roots(const papcoll__tree_t *t, int P, papcoll__plan_t *plan)
{
    papcoll__plan_in_t in = {0};
    int root, p;

    plan->tree = t;
    in.P = P;
    for (root = 0; root < P; root++) {
        in.root = root;
        papcoll__place_rotate(plan, &in);
        TC(plan->v2r[t->root] == root, "%s root %d: the tree's root is on rank %d", g_ctx, root,
           plan->v2r[t->root]);
        for (p = 0; p < P; p++)
            TC(plan->v2r[p] >= 0 && plan->v2r[p] < P && plan->r2v[plan->v2r[p]] == p,
               "%s root %d: position %d on rank %d is not inverted", g_ctx, root, p, plan->v2r[p]);
    }
    plan->tree = NULL;
}

static void test_all(int *step, int *stack, papcoll__plan_t *plan)
{
    static const int big[] = {1000, 4181, 4182, 10945, 65536, 121392, 1000003};
    papcoll__tree_t t;
    int P, i;

    for (i = 0; i < MAXP + (int)(sizeof(big) / sizeof(big[0])); i++) {
        P = i < MAXP ? i + 1 : big[i - MAXP];
        snprintf(g_ctx, sizeof(g_ctx), "golden P=%d", P);
        if (!check(papcoll__tree_build(&t, PAPCOLL__TREE_GOLDEN, P, 2) == PAPCOLL_OK, "%s: build failed", g_ctx))
            continue;
        check_tree(&t, P, step, stack);
        if (P <= ROOTP)
            check_roots(&t, P, plan);
        papcoll__tree_free(&t);
    }
    for (i = 12; i < 30; i++) { /* perfect sizes: the root splits cap(T-1) + cap(T-2), ratio phi */
        P = (int)cap[i];
        if (papcoll__tree_build(&t, PAPCOLL__TREE_GOLDEN, P, 2) != PAPCOLL_OK)
            continue;
        check(t.root == cap[i - 1] && fabs((double)t.root / (P - 1 - t.root) - PHI) < 1e-2,
              "golden P=%d: root splits %d + %d", P, t.root, P - 1 - t.root);
        papcoll__tree_free(&t);
    }
    check(papcoll__tree_golden(&t, 0) == PAPCOLL_ERR_INVAL && t.parent == NULL, "golden P=0 accepted");
}

/* One corruption of a sound tree of P positions must fail a check. */
static void mutant(int P, int which, const char *desc, int *step, int *stack)
{
    papcoll__tree_t t;
    long bad0 = g_bad;
    int v, x;

    /* which 1: Sanders' middle split (the in-order tree) under the golden label */
    if (!check((which == 1 ? papcoll__tree_inorder(&t, P) : papcoll__tree_golden(&t, P)) == PAPCOLL_OK,
               "mutant %s: build failed", desc))
        return;
    v = t.root;
    if (which == 1)
        t.shape = PAPCOLL__TREE_GOLDEN;
    else if (which == 0) /* the root's children swapped: the right one served first */
        x = t.kids[t.first[v]], t.kids[t.first[v]] = t.kids[t.first[v] + 1], t.kids[t.first[v] + 1] = x;
    else /* the root's right child under its left child's range: ranges broken */
        t.lo[t.kids[t.first[v] + 1]] = 0;
    g_mutant = 1;
    snprintf(g_ctx, sizeof(g_ctx), "mutant %s", desc);
    check_tree(&t, P, step, stack);
    g_mutant = 0;
    check(g_bad > bad0, "mutant %s (P=%d) passed the checks", desc, P);
    papcoll__tree_free(&t);
}

int main(void)
{
    int *step = malloc(1000003 * sizeof(int)), *stack = malloc(1000003 * sizeof(int));
    papcoll__plan_t plan;

    unit_name = "test_fibtree";
    if (step == NULL || stack == NULL || !tables() || papcoll__plan_alloc(&plan, ROOTP) != PAPCOLL_OK) {
        printf("FAIL test_fibtree: out of memory for the scratch arrays\n");
        return 1;
    }
    test_all(step, stack, &plan);
    mutant(20, 0, "service order", step, stack);
    mutant(10, 1, "middle split", step, stack);
    mutant(20, 2, "range", step, stack);
    papcoll__plan_free(&plan);
    for (int T = 0; T < MAXT; T++)
        free(ok[T]);
    free(step), free(stack);
    return unit_summary();
}
