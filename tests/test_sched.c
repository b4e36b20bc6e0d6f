/*
 * Serial unit tests of the schedule module (papcoll/src/sched): arrival
 * orders, bit reversal, the lowest-set-bit binomial tree and the placement
 * of ranks on its vranks.  No MPI calls: every rank of a tree is simulated
 * in this one process, for every P in 1..70 and awkward sizes up to 4097.
 *
 * Each failed check prints one line with its parameters; the program exits
 * non-zero when any check failed.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/sched.h"
#include "unit.h"

#define MAXP 4097
static int rnd_below(int n)
{
    return (int)(rnd() % (uint64_t)n);
}

static void shuffle(int n, int *a)
{
    int i, j, t;

    for (i = n - 1; i > 0; i--) {
        j = rnd_below(i + 1);
        t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

/* 1 when a[0..n) holds every value of 0..n-1 exactly once. */
static int is_perm(int n, const int *a)
{
    static char seen[MAXP];
    int i;

    memset(seen, 0, (size_t)n);
    for (i = 0; i < n; i++) {
        if (a[i] < 0 || a[i] >= n || seen[a[i]])
            return 0;
        seen[a[i]] = 1;
    }
    return 1;
}

/* The tree sizes every tree test runs on. */
static int sizes(int *ps)
{
    static const int awkward[] = {127, 128, 129, 255, 256, 257, 509, 576, 1000, 1023, 1024, 1025, 4097};
    int n = 0;
    size_t k;

    for (n = 0; n < 70; n++)
        ps[n] = n + 1;
    for (k = 0; k < sizeof(awkward) / sizeof(awkward[0]); k++)
        ps[n++] = awkward[k];
    return n;
}

/* ---------------------------------------------------------------- sorting */

/* a before b in a sorted order: key ascending, NaN last, ties by rank. */
static int sorted_before(const double *key, int a, int b)
{
    int na = isnan(key[a]), nb = isnan(key[b]);

    if (na != nb)
        return nb;
    if (!na && key[a] != key[b])
        return key[a] < key[b];
    return a < b;
}

/* The caller-provided workspace of papcoll__sort_by_key. */
static papcoll__keyed_t g_work[MAXP];

static void test_sort_fixed(void)
{
    const double key[] = {3.0, 1.0, NAN, 1.0, -INFINITY, 2.0, INFINITY, NAN, -0.0, 0.0};
    const int expect[] = {4, 8, 9, 1, 3, 5, 0, 6, 2, 7};
    int order[10], i;

    papcoll__sort_by_key(10, key, order, g_work);
    for (i = 0; i < 10; i++)
        check(order[i] == expect[i], "sort_by_key fixed keys: order[%d]=%d, expected %d", i,
              order[i], expect[i]);
}

static void test_sort_random(void)
{
    static const double pool[] = {0.0, -0.0, 1.0, 1.0, 2.5, -3.0, 1e-300, NAN, INFINITY};
    static double key[MAXP];
    static int order[MAXP];
    int ps[100], np = sizes(ps), t, i, k, P;

    for (t = 0; t < np; t++) {
        P = ps[t];
        papcoll__sort_by_key(P, NULL, order, g_work);
        for (i = 0; i < P; i++)
            if (!check(order[i] == i, "sort_by_key P=%d key=NULL: order[%d]=%d", P, i, order[i]))
                break;
        for (k = 0; k < 3; k++) {
            /* k = 0: few distinct keys (many ties); 1: all NaN; 2: distinct. */
            for (i = 0; i < P; i++)
                key[i] = k == 0 ? pool[rnd_below(9)] : k == 1 ? NAN : (double)rnd_below(1 << 30);
            papcoll__sort_by_key(P, key, order, g_work);
            if (!check(is_perm(P, order), "sort_by_key P=%d keyset=%d: not a permutation", P, k))
                continue;
            for (i = 0; i + 1 < P; i++)
                if (!check(sorted_before(key, order[i], order[i + 1]),
                           "sort_by_key P=%d keyset=%d: order[%d]=%d (key %g) before order[%d]=%d (key %g)",
                           P, k, i, order[i], key[order[i]], i + 1, order[i + 1], key[order[i + 1]]))
                    break;
        }
    }
}

/* ------------------------------------------------------ bit tricks */

static void test_bitrev(void)
{
    static const unsigned cases[][3] = {
        {0, 0, 0}, {1, 1, 1}, {1, 4, 8}, {3, 4, 12}, {11, 5, 26}, {6, 3, 3}, {1, 31, 1u << 30}, {5, 3, 5}};
    unsigned v, r, slow;
    int nbits, i;
    size_t k;

    for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        r = papcoll__bitrev(cases[k][0], (int)cases[k][1]);
        check(r == cases[k][2], "bitrev(%u, %u) = %u, expected %u", cases[k][0], cases[k][1], r,
              cases[k][2]);
    }
    for (nbits = 0; nbits <= 14; nbits++) {
        for (v = 0; v < (1u << nbits); v++) {
            r = papcoll__bitrev(v, nbits);
            for (slow = 0, i = 0; i < nbits; i++)
                if (v & (1u << i))
                    slow |= 1u << (nbits - 1 - i);
            if (!check(r == slow, "bitrev(%u, %d) = %u, expected %u", v, nbits, r, slow))
                break;
            if (!check(papcoll__bitrev(r, nbits) == v, "bitrev(bitrev(%u, %d)) != %u", v, nbits, v))
                break;
        }
    }
}

static void test_ceil_log2(void)
{
    int P, L, e;

    for (P = 1; P <= 70000; P = P < 5000 ? P + 1 : P + 997) {
        L = papcoll__ceil_log2(P);
        for (e = 0; (1 << e) < P; e++)
            ;
        if (!check(L == e, "ceil_log2(%d) = %d, expected %d", P, L, e))
            break;
    }
    check(papcoll__ceil_log2(1 << 30) == 30, "ceil_log2(2^30) = %d", papcoll__ceil_log2(1 << 30));
}

/* ------------------------------------------------------ binomial tree */

static int g_nch[MAXP], g_ch[MAXP][32];

/* Parent, children and spans of one P: a spanning tree rooted at vrank 0
 * whose subtrees are the contiguous ranges [v, v + span(v)). */
static int check_tree_shape(int P)
{
    static int cnt[MAXP], lo[MAXP], hi[MAXP], seen[MAXP];
    int v, k, c, L = papcoll__ceil_log2(P), bad0 = (int)unit_failed;

    check(papcoll__bn_parent(0) == -1, "bn_parent(0) = %d, expected -1", papcoll__bn_parent(0));
    memset(seen, 0, sizeof(int) * (size_t)P);
    for (v = 0; v < P; v++) {
        int p = papcoll__bn_parent(v);
        if (v > 0)
            check(p >= 0 && p < v, "P=%d: bn_parent(%d) = %d, not in [0, %d)", P, v, p, v);
        g_nch[v] = papcoll__bn_children(v, P, g_ch[v]);
        check(g_nch[v] >= 0 && g_nch[v] <= 31, "P=%d: bn_children(%d) returned %d", P, v, g_nch[v]);
        for (k = 0; k < g_nch[v] && k < 31; k++) {
            c = g_ch[v][k];
            if (!check(c > v && c < P, "P=%d: child %d of %d out of range", P, c, v))
                return 0;
            seen[c]++;
            check(papcoll__bn_parent(c) == v, "P=%d: %d lists child %d whose parent is %d", P, v, c,
                  papcoll__bn_parent(c));
            /* Largest (nominal, 2^ctz) subtree first = scatter receive rounds ascending. */
            if (k > 0)
                check(__builtin_ctz(c) < __builtin_ctz(g_ch[v][k - 1]),
                      "P=%d: children of %d not largest-subtree-first: %d (lowbit %d) after %d (lowbit %d)",
                      P, v, c, c & -c, g_ch[v][k - 1], g_ch[v][k - 1] & -g_ch[v][k - 1]);
        }
    }
    check(seen[0] == 0, "P=%d: the root is somebody's child", P);
    for (v = 1; v < P; v++)
        check(seen[v] == 1, "P=%d: vrank %d is listed as a child %d times", P, v, seen[v]);
    /* Subtree sizes bottom-up (children have larger vranks). */
    for (v = P - 1; v >= 0; v--) {
        int depth = 0, u = v;
        cnt[v] = 1, lo[v] = hi[v] = v;
        for (k = 0; k < g_nch[v]; k++) {
            c = g_ch[v][k];
            cnt[v] += cnt[c];
            lo[v] = lo[c] < lo[v] ? lo[c] : lo[v];
            hi[v] = hi[c] > hi[v] ? hi[c] : hi[v];
        }
        int span = papcoll__bn_span(v, P);
        check(cnt[v] == span, "P=%d: span(%d) = %d but the subtree has %d vranks", P, v, span, cnt[v]);
        check(lo[v] == v && hi[v] == v + cnt[v] - 1,
              "P=%d: subtree of %d is not the contiguous range [%d, %d): spans [%d, %d]", P, v, v,
              v + span, lo[v], hi[v]);
        while (u != 0 && depth <= L + 1)
            u = papcoll__bn_parent(u), depth++;
        check(u == 0 && depth <= L, "P=%d: vrank %d does not reach the root in %d steps", P, v, L);
    }
    check(papcoll__bn_span(0, P) == P, "P=%d: span(0) = %d", P, papcoll__bn_span(0, P));
    return (int)unit_failed == bad0;
}

/* Gather rounds: v sends its whole subtree to its parent in round ctz(v).
 * Every child must have delivered first; a node receives one block per round. */
static void check_gather_rounds(int P)
{
    static int have[MAXP], sent[MAXP], recv_round[MAXP];
    int L = papcoll__ceil_log2(P), r, v;

    for (v = 0; v < P; v++)
        have[v] = 1, sent[v] = 0, recv_round[v] = -1;
    for (r = 0; r < L; r++) {
        for (v = 1; v < P; v++) {
            int p = papcoll__bn_parent(v);
            if (__builtin_ctz(v) != r)
                continue;
            check(have[v] == papcoll__bn_span(v, P),
                  "P=%d gather round %d: vrank %d sends %d blocks, its span is %d", P, r, v, have[v],
                  papcoll__bn_span(v, P));
            check(recv_round[p] != r, "P=%d gather round %d: vrank %d receives twice", P, r, p);
            recv_round[p] = r;
            sent[v]++;
        }
        for (v = 1; v < P; v++)
            if (__builtin_ctz(v) == r)
                have[papcoll__bn_parent(v)] += have[v];
    }
    for (v = 1; v < P; v++)
        check(sent[v] == 1, "P=%d gather: vrank %d sent %d times in %d rounds", P, v, sent[v], L);
    check(have[0] == P, "P=%d gather: the root holds %d blocks after %d rounds", P, have[0], L);
}

/* Scatter rounds: v receives in round L-1-__builtin_ctz(v), after its parent did, and a
 * parent serves its children in list order, one per round. */
static void check_scatter_rounds(int P)
{
    int L = papcoll__ceil_log2(P), v, k;

    for (v = 0; v < P; v++) {
        int rv = v == 0 ? -1 : L - 1 - __builtin_ctz(v), prev = rv;
        if (v > 0)
            check(rv >= 0 && rv < L, "P=%d scatter: vrank %d receives in round %d of %d", P, v, rv, L);
        for (k = 0; k < g_nch[v]; k++) {
            int rc = L - 1 - __builtin_ctz(g_ch[v][k]);
            check(rc > prev, "P=%d scatter: child %d of %d receives in round %d, not after round %d",
                  P, g_ch[v][k], v, rc, prev);
            prev = rc;
        }
    }
}

static void test_trees(void)
{
    int ps[100], np = sizes(ps), t;

    for (t = 0; t < np; t++) {
        if (!check_tree_shape(ps[t]))
            continue;
        check_gather_rounds(ps[t]);
        check_scatter_rounds(ps[t]);
    }
}

/* ------------------------------------------------------ rank placement */

/* Round in which vrank v is active: gather sends in __builtin_ctz(v), scatter
 * receives in L-1-__builtin_ctz(v). */
static int active_round(int v, int L, int gather)
{
    return gather ? __builtin_ctz(v) : L - 1 - __builtin_ctz(v);
}

static void check_map(int P, int root, const int *order, int gather, const char *oname)
{
    static int v2r[MAXP], r2v[MAXP], back[MAXP];
    const char *op = gather ? "bn_map_gather" : "bn_map_scatter";
    int L = papcoll__ceil_log2(P), v, i, prev = -1;

    if (gather)
        papcoll__bn_map_gather(P, root, order, v2r);
    else
        papcoll__bn_map_scatter(P, root, order, v2r);
    if (!check(is_perm(P, v2r), "%s P=%d root=%d order=%s: v2r is not a permutation", op, P, root,
               oname))
        return;
    check(v2r[0] == root, "%s P=%d root=%d order=%s: v2r[0] = %d, not the root", op, P, root, oname,
          v2r[0]);
    papcoll__perm_invert(P, v2r, r2v);
    for (v = 0; v < P; v++)
        check(r2v[v2r[v]] == v, "perm_invert P=%d: r2v[v2r[%d]] = %d", P, v, r2v[v2r[v]]);
    papcoll__perm_invert(P, r2v, back);
    for (v = 0; v < P; v++)
        check(back[v] == v2r[v], "perm_invert P=%d: not an involution at %d", P, v);
    if (order == NULL) {
        for (v = 0; v < P; v++)
            check(v2r[v] == (v + root) % P, "%s P=%d root=%d order=NULL: v2r[%d] = %d, expected %d", op,
                  P, root, v, v2r[v], (v + root) % P);
        return;
    }
    /* The non-root ranks in arrival order must take vranks in activity order
     * (round ascending, ties by vrank): early arrivals are active first. */
    for (i = 0; i < P; i++) {
        int r = order[i], v = r2v[r];
        if (r == root)
            continue;
        if (prev >= 0) {
            int rp = active_round(prev, L, gather), rv = active_round(v, L, gather);
            check(rp < rv || (rp == rv && prev < v),
                  "%s P=%d root=%d order=%s: rank %d (arrival #%d) on vrank %d (round %d) is active "
                  "before the earlier arrival on vrank %d (round %d)",
                  op, P, root, oname, r, i, v, rv, prev, rp);
        }
        prev = v;
    }
}

static void test_maps(void)
{
    static int order[MAXP];
    int ps[100], np = sizes(ps), t, k, g, i, P, nroot;

    for (t = 0; t < np; t++) {
        P = ps[t];
        int roots[4] = {0, P - 1, P / 2, rnd_below(P)};
        nroot = P > 1 ? 4 : 1;
        for (k = 0; k < nroot; k++) {
            int root = roots[k];
            for (g = 0; g <= 1; g++) {
                check_map(P, root, NULL, g, "NULL");
                for (i = 0; i < P; i++)
                    order[i] = i;
                check_map(P, root, order, g, "identity");
                for (i = 0; i < P; i++)
                    order[i] = P - 1 - i;
                check_map(P, root, order, g, "reversed");
                shuffle(P, order);
                check_map(P, root, order, g, "random");
                for (i = 0; i < P && order[i] != root; i++)
                    ;
                order[i] = order[0], order[0] = root;
                check_map(P, root, order, g, "random-root-first");
                order[0] = order[P - 1], order[P - 1] = root;
                check_map(P, root, order, g, "random-root-last");
            }
        }
    }
}

/* Two concrete placements written out by hand (P = 6, see sched.h). */
static void test_maps_fixed(void)
{
    /* P = 6, root 2, arrival order 5 2 0 4 1 3.  Gather rounds: ctz 0 -> {1,3,5},
     * ctz 1 -> {2}, ctz 2 -> {4}.  Scatter rounds (L = 3): {4}, {2}, {1,3,5}. */
    const int order[6] = {5, 2, 0, 4, 1, 3};
    const int g_expect[6] = {2, 5, 1, 0, 3, 4};
    const int s_expect[6] = {2, 4, 0, 1, 5, 3};
    int v2r[6], v;

    papcoll__bn_map_gather(6, 2, order, v2r);
    for (v = 0; v < 6; v++)
        check(v2r[v] == g_expect[v], "bn_map_gather P=6 root=2 order=520413: v2r[%d] = %d, expected %d",
              v, v2r[v], g_expect[v]);
    papcoll__bn_map_scatter(6, 2, order, v2r);
    for (v = 0; v < 6; v++)
        check(v2r[v] == s_expect[v],
              "bn_map_scatter P=6 root=2 order=520413: v2r[%d] = %d, expected %d", v, v2r[v], s_expect[v]);
}

int main(void)
{
    unit_name = "test_sched";
    test_sort_fixed();
    test_sort_random();
    test_bitrev();
    test_ceil_log2();
    test_trees();
    test_maps();
    test_maps_fixed();
    return unit_summary();
}
