/*
 * Serial test of the PAP-aware two-tree placement
 * (papcoll__twotree_place_sorted, sched/twotree.h) for P = 1..130 and 200,
 * three roots each:
 *   - a permutation with the root on position 0;
 *   - equal predictions (exactly, NaN, or within the tolerance) give
 *     twotree's placement;
 *   - descendants counted independently match t->desc;
 *   - a rank predicted later never has more descendants than an earlier
 *     one, checked on seeded random PATs;
 *   - no swap of an earlier and a later rank that breaks that order lowers
 *     the modelled completion (below), and for one late rank the placement
 *     never models worse than twotree's.
 * Model: data flow, one unit per hop.  Bcast: position v holds tree t's
 * data at R_t(v) = max(a_v, R_t(parent)) + 1.  A rank completes at the
 * later of its two trees; the modelled completion is the sum over ranks.
 * Reduce (along t->rseq): equal predictions give twotree's placement; a
 * rank predicted later is never deeper (the larger of its two hop counts)
 * than an earlier one; for one late rank the modelled completion at the
 * root never exceeds twotree's.  Model: data flow, one unit per hop; tree
 * t's part of position v leaves it at S_t(v) = max(a_v, S_t(kids)) + 1,
 * and the root completes at the later of S_0(root_0), S_1(root_1).
 * Mutants (bcast placed by the reversed order; reduce placed along the
 * bcast's sequence) must be caught.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "papcoll.h"
#include "sched/sched.h"
#include "sched/twotree.h"
#include "unit.h"

#define MAXP 200

static unsigned long g_seed = 12345;
static long g_bad;
static int g_quiet; /* a mutant: count failures, print nothing */

static double draw(void)
{
    g_seed = g_seed * 6364136223846793005ul + 1442695040888963407ul;
    return (double)((g_seed >> 33) % 100000) / 1e4;
}

static int ok(int c, const char *what, int P, int root)
{
    if (!c) {
        g_bad++;
        if (!g_quiet)
            check(0, "P=%d root=%d: %s", P, root, what);
        return 0;
    }
    unit_checks++;
    return 1;
}

/* Subtree size of v in tree `tree`, by recursion over kid[]. */
static int size_of(const papcoll__twotree_t *t, int tree, int v)
{
    int n = 1, i, c;

    for (i = 0; i < 2; i++)
        if ((c = t->kid[(tree * t->P + v) * 2 + i]) >= 0)
            n += size_of(t, tree, c);
    return n;
}

/* Modelled time of position v in tree `tree` (memo m[], -1: unknown). */
static double hop(const papcoll__twotree_t *t, int tree, int v, const double *ap, double *m)
{
    double x = ap[v];

    if (m[v] >= 0)
        return m[v];
    if (v > 0)
        x = fmax(x, hop(t, tree, t->parent[tree * t->P + v], ap, m));
    return m[v] = x + (v > 0 ? 1 : 0);
}

/* The modelled completion of placement v2r under pred (by rank). */
static double model(const papcoll__twotree_t *t, const int *v2r, const double *pred)
{
    double ap[MAXP], m[2][MAXP], sum = 0;
    int P = t->P, v, tree;

    for (v = 0; v < P; v++)
        ap[v] = pred[v2r[v]], m[0][v] = m[1][v] = -1;
    for (v = 1; v < P; v++)
        for (tree = 0; tree < 2; tree++)
            sum += hop(t, tree, v, ap, m[tree]) / 2;
    return sum;
}

/* Reduce: the time tree `tree`'s part of position v leaves it. */
static double up(const papcoll__twotree_t *t, int tree, int v, const double *ap)
{
    double x = ap[v];
    int i, c;

    for (i = 0; i < 2; i++)
        if ((c = t->kid[(tree * t->P + v) * 2 + i]) >= 0)
            x = fmax(x, up(t, tree, c, ap));
    return x + 1;
}

/* Reduce: the modelled completion at the root of placement v2r. */
static double model_red(const papcoll__twotree_t *t, const int *v2r, const double *pred)
{
    double ap[MAXP];
    int v;

    if (t->P < 2)
        return 0;
    for (v = 0; v < t->P; v++)
        ap[v] = pred[v2r[v]];
    return fmax(up(t, 0, t->root[0], ap), up(t, 1, t->root[1], ap));
}

/* Hops from position 0 to v in tree `tree`. */
static int hops(const papcoll__twotree_t *t, int tree, int v)
{
    int n = 0;

    for (; v > 0; v = t->parent[tree * t->P + v])
        n++;
    return n;
}

static int deep(const papcoll__twotree_t *t, int v)
{
    return hops(t, 0, v) > hops(t, 1, v) ? hops(t, 0, v) : hops(t, 1, v);
}

static const int *g_rseq_as; /* a mutant: the sequence the reduce places along, else t->rseq */

static void place_seq(papcoll__twotree_t *t, const int *seq, int root, const double *pred, double tol,
                      int *v2r, int *r2v)
{
    papcoll__keyed_t work[MAXP];
    int order[MAXP];

    papcoll__sort_by_key(t->P, pred, order, work);
    papcoll__twotree_place_sorted(t, seq, root, order, pred, tol, v2r, r2v);
}

static void place(papcoll__twotree_t *t, int root, const double *pred, double tol, int *v2r, int *r2v)
{
    place_seq(t, t->seq, root, pred, tol, v2r, r2v);
}

static void place_red(papcoll__twotree_t *t, int root, const double *pred, double tol, int *v2r, int *r2v)
{
    place_seq(t, g_rseq_as != NULL ? g_rseq_as : t->rseq, root, pred, tol, v2r, r2v);
}

/* Reduce: equal predictions give twotree's placement; one late rank (each
 * in turn) never models worse at the root; later ranks never deeper. */
static void check_red(papcoll__twotree_t *t, int root)
{
    double pred[MAXP];
    int v2r[MAXP], r2v[MAXP], ref[MAXP], P = t->P, late, i, j, same;

    papcoll__twotree_place(P, root, ref, NULL);
    for (i = 0; i < P; i++)
        pred[i] = 0.5;
    place_red(t, root, pred, 0, v2r, r2v);
    for (same = 1, i = 0; i < P; i++)
        same = same && v2r[i] == ref[i];
    ok(same, "reduce, equal offsets: not twotree's placement", P, root);
    for (late = 0; late < P; late++) {
        if (late == root)
            continue;
        for (i = 0; i < P; i++)
            pred[i] = i == late ? 100 : 0;
        place_red(t, root, pred, 0, v2r, r2v);
        ok(model_red(t, v2r, pred) <= model_red(t, ref, pred),
           "reduce, one late rank: modelled worse than twotree's placement", P, root);
    }
    for (i = 0; i < P; i++)
        pred[i] = draw();
    place_red(t, root, pred, 0, v2r, r2v);
    for (i = 0; i < P; i++)
        for (j = 0; j < P; j++)
            if (i != root && j != root && pred[i] < pred[j] && deep(t, r2v[j]) > deep(t, r2v[i]))
                ok(0, "reduce: a later rank deeper than an earlier one", P, root);
}

/* Equal predictions: twotree's placement. */
static void check_equal(papcoll__twotree_t *t, int root)
{
    double pred[MAXP];
    int v2r[MAXP], r2v[MAXP], ref[MAXP], P = t->P, i, same, kind;

    papcoll__twotree_place(P, root, ref, NULL);
    for (kind = 0; kind < 3; kind++) {
        for (i = 0; i < P; i++)
            pred[i] = kind == 0 ? 0.5 : kind == 1 ? NAN : 1.0 + 1e-3 * ((i * 7) % 5);
        place(t, root, pred, kind == 2 ? 5e-3 : 0, v2r, r2v);
        for (same = 1, i = 0; i < P; i++)
            same = same && v2r[i] == ref[i];
        ok(same,
           kind == 0   ? "equal offsets: not twotree's placement"
           : kind == 1 ? "no offsets (NaN): not twotree's placement"
                       : "offsets within the tolerance: not twotree's placement",
           P, root);
    }
}

/* Order of descendants, and the swaps that break it. */
static void check_pat(papcoll__twotree_t *t, int root, const double *pred)
{
    double base, alt;
    int v2r[MAXP], r2v[MAXP], P = t->P, i, j, pi, pj, perm = 1;

    place(t, root, pred, 0, v2r, r2v);
    for (i = 0; i < P; i++)
        perm = perm && v2r[i] >= 0 && v2r[i] < P && r2v[v2r[i]] == i;
    if (!ok(perm && v2r[0] == root, "not a permutation with the root on position 0", P, root))
        return;
    base = model(t, v2r, pred);
    for (i = 0; i < P; i++)
        for (j = 0; j < P; j++) {
            pi = r2v[i], pj = r2v[j];
            if (i == root || j == root || !(pred[i] < pred[j]))
                continue;
            if (t->desc[pj] <= t->desc[pi])
                continue;
            ok(0, "a later rank has more descendants", P, root);
            v2r[pi] = j, v2r[pj] = i;
            alt = model(t, v2r, pred);
            v2r[pi] = i, v2r[pj] = j;
            ok(alt >= base, "a swap of an earlier and a later rank lowers the modelled completion", P, root);
        }
}

/* One late rank (each in turn): never modelled worse than twotree. */
static void check_one_late(papcoll__twotree_t *t, int root)
{
    double pred[MAXP];
    int v2r[MAXP], r2v[MAXP], ref[MAXP], P = t->P, late, i;

    papcoll__twotree_place(P, root, ref, NULL);
    for (late = 0; late < P; late++) {
        if (late == root)
            continue;
        for (i = 0; i < P; i++)
            pred[i] = i == late ? 100 : 0;
        place(t, root, pred, 0, v2r, r2v);
        ok(model(t, v2r, pred) <= model(t, ref, pred),
           "one late rank: modelled worse than twotree's placement", P, root);
        check_pat(t, root, pred);
    }
}

static void check_P(int P, int mutant)
{
    papcoll__twotree_t t;
    papcoll__keyed_t work[MAXP];
    double pred[MAXP];
    int roots[3] = {0, P / 2, P - 1}, order[MAXP], v2r[MAXP], r2v[MAXP], r, v, n, i;

    if (!check(papcoll__twotree_build(&t, P) == PAPCOLL_OK, "P=%d: build failed", P))
        return;
    for (v = 1; v < P; v++) {
        n = size_of(&t, 0, v) > size_of(&t, 1, v) ? size_of(&t, 0, v) : size_of(&t, 1, v);
        ok(t.desc[v] == n - 1, "descendants differ from the recount", P, v);
    }
    for (r = 0; r < 3; r++) {
        if (mutant) {
            for (i = 0; i < P; i++)
                pred[i] = draw();
            for (i = 0; i < P; i++) /* the order reversed: the latest placed first */
                work[i].key = -pred[i];
            for (i = 0; i < P; i++)
                pred[i] = work[i].key;
            papcoll__sort_by_key(P, pred, order, work);
            papcoll__twotree_place_sorted(&t, t.seq, roots[r], order, pred, 0, v2r, r2v);
            for (i = 0; i < P; i++)
                for (v = 0; v < P; v++)
                    if (i != roots[r] && v != roots[r] && -pred[i] < -pred[v])
                        ok(t.desc[r2v[v]] <= t.desc[r2v[i]], "mutant", P, roots[r]);
            continue;
        }
        check_equal(&t, roots[r]);
        check_one_late(&t, roots[r]);
        check_red(&t, roots[r]);
        for (n = 0; n < 3; n++) {
            for (i = 0; i < P; i++)
                pred[i] = draw();
            check_pat(&t, roots[r], pred);
        }
    }
    papcoll__twotree_free(&t);
}

int main(void)
{
    long bad0;
    int P;

    unit_name = "test_stwotree";
    for (P = 1; P <= 130; P++)
        check_P(P, 0);
    check_P(200, 0);
    bad0 = g_bad;
    g_quiet = 1;
    check_P(21, 1);
    g_quiet = 0;
    check(g_bad > bad0, "mutant (placed by the reversed order) passed the checks");
    bad0 = g_bad;
    g_quiet = 1;
    for (P = 3; P <= 40; P++) {
        papcoll__twotree_t t;

        if (papcoll__twotree_build(&t, P) != PAPCOLL_OK)
            break;
        g_rseq_as = t.seq;
        check_red(&t, 0);
        g_rseq_as = NULL;
        papcoll__twotree_free(&t);
    }
    g_quiet = 0;
    check(g_bad > bad0, "mutant (reduce placed along the bcast's sequence) passed the checks");
    return unit_summary();
}
