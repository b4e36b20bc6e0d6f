/*
 * Serial test of sched/twotree: for P = 1..200 the two trees' structure
 * (both span positions 1..P-1 from the root's two edges, in-order
 * numbering, each position interior in one tree and a leaf of the other,
 * heights), the colouring (the two edges into a position differ, the edges
 * out of a position differ), the placement for every root, and the packet
 * schedule simulated step by step for several packet counts: each position
 * sends at most one packet and receives at most one per step, sends only
 * packets it already holds, and ends with every packet; the step count
 * stays within k + 2H + 1; the model's segment size is the modelled
 * time's least (papcoll__twotree_segment).  Mutants (a flipped colour, swapped children, a
 * position interior in both trees, a lost packet) must be caught.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "papcoll.h"
#include "sched/twotree.h"
#include "unit.h"

#define MAXP 200

static char g_ctx[64];
static int g_mutant; /* 1: failures are expected; count them, print nothing */
static long g_bad;

static int tc(int ok, const char *fmt, ...)
{
    va_list ap;
    int r = ok;

    if (!ok)
        g_bad++;
    if (!g_mutant) {
        va_start(ap, fmt);
        r = vcheck(ok, fmt, ap);
        va_end(ap);
    }
    return r;
}

#define TC(ok, ...) ((ok) ? (unit_checks++, 1) : tc(0, __VA_ARGS__))

static int floor_log2(int x)
{
    int l = 0;

    while (x > 1)
        x /= 2, l++;
    return l;
}

static int kid(const papcoll__twotree_t *t, int tree, int v, int i)
{
    return t->kid[(tree * t->P + v) * 2 + i];
}

static int nkids(const papcoll__twotree_t *t, int tree, int v)
{
    return (kid(t, tree, v, 0) >= 0) + (kid(t, tree, v, 1) >= 0);
}

/* ------------------------------------------------------------ structure */

/* Tree `tree` spans 1..P-1 once from its root, parents match the kids, the
 * in-order traversal is 1, 2, ..., P-1 and the height is the stored one. */
static void check_tree(const papcoll__twotree_t *t, int tree, int *stack, int *depth)
{
    int P = t->P, n = 0, next = 1, v, h = 0, seen = 0;

    TC(t->parent[tree * P + 0] == -1 && kid(t, tree, 0, 0) == t->root[tree] && kid(t, tree, 0, 1) == -1,
       "%s tree %d: position 0 is not the root's slot", g_ctx, tree);
    TC(t->root[tree] >= 1 && t->root[tree] < P && t->parent[tree * P + t->root[tree]] == 0,
       "%s tree %d: root %d not under position 0", g_ctx, tree, t->root[tree]);
    if (t->root[tree] < 1 || t->root[tree] >= P)
        return;
    for (v = 1; v < P; v++)
        for (int i = 0; i < 2; i++) {
            int c = kid(t, tree, v, i);
            if (c >= 0)
                TC(c >= 1 && c < P && t->parent[tree * P + c] == v, "%s tree %d: kid %d of %d has parent %d",
                   g_ctx, tree, c, v, c >= 1 && c < P ? t->parent[tree * P + c] : -9);
        }
    /* iterative in-order walk: left subtree, node, right subtree */
    v = t->root[tree];
    depth[v] = 0;
    while ((v >= 0 || n > 0) && seen <= P) {
        if (v >= 0) {
            stack[n++] = v;
            if (kid(t, tree, v, 0) >= 0)
                depth[kid(t, tree, v, 0)] = depth[v] + 1;
            v = kid(t, tree, v, 0);
            continue;
        }
        v = stack[--n];
        seen++;
        TC(v == next, "%s tree %d: in-order visit %d is position %d", g_ctx, tree, next, v);
        next++;
        h = depth[v] > h ? depth[v] : h;
        if (kid(t, tree, v, 1) >= 0)
            depth[kid(t, tree, v, 1)] = depth[v] + 1;
        v = kid(t, tree, v, 1);
    }
    TC(seen == P - 1, "%s tree %d: spans %d positions, not %d", g_ctx, tree, seen, P - 1);
    TC(h == t->height[tree], "%s tree %d: height %d, stored %d", g_ctx, tree, h, t->height[tree]);
    TC(h <= floor_log2(P), "%s tree %d: height %d > floor(log2 P) = %d", g_ctx, tree, h, floor_log2(P));
}

/* Interior in exactly one tree (P >= 3); both trees' root and leaf (P = 2). */
static void check_complement(const papcoll__twotree_t *t)
{
    int v, a, b;

    for (v = 1; v < t->P; v++) {
        a = nkids(t, 0, v) > 0, b = nkids(t, 1, v) > 0;
        if (t->P == 2)
            TC(!a && !b, "%s: position 1 has kids", g_ctx);
        else
            TC(a != b, "%s: position %d interior in tree 0: %d, tree 1: %d", g_ctx, v, a, b);
    }
}

/* The colour of the edge into v in tree `tree`. */
static int colour(const papcoll__twotree_t *t, int tree, int v)
{
    return t->offset[tree * t->P + v] & 1;
}

static void check_colouring(const papcoll__twotree_t *t)
{
    int v, tree;

    for (v = 1; v < t->P; v++)
        TC(colour(t, 0, v) != colour(t, 1, v), "%s: both edges into %d have colour %d", g_ctx, v,
           colour(t, 0, v));
    TC(t->P < 2 || colour(t, 0, t->root[0]) != colour(t, 1, t->root[1]),
       "%s: both edges out of the root have one colour", g_ctx);
    for (tree = 0; tree < 2; tree++)
        for (v = 1; v < t->P; v++)
            if (nkids(t, tree, v) == 2)
                TC(colour(t, tree, kid(t, tree, v, 0)) != colour(t, tree, kid(t, tree, v, 1)),
                   "%s tree %d: both edges out of %d have one colour", g_ctx, tree, v);
}

/* ------------------------------------------------------------- schedule */

/* Simulates k packets step by step from the edges alone, then compares
 * with papcoll__twotree_recv/send.  got[v * k + i]: step at which v got
 * packet i (-2: not yet; -1: the root, which holds all from the start). */
static void check_schedule(const papcoll__twotree_t *t, long k, long *got, int *nsend, int *nrecv)
{
    int P = t->P, v, tree, u, H = t->height[0] > t->height[1] ? t->height[0] : t->height[1];
    long S = papcoll__twotree_steps(t, k), s, i, j, off;

    for (i = 0; i < (long)P * k; i++)
        got[i] = i < k ? -1 : -2;
    TC(P < 2 || k == 0 || S <= k + 2 * H + 1, "%s k=%ld: %ld steps > k + 2H + 1 = %ld", g_ctx, k, S,
       k + 2 * H + 1);
    for (s = 0; s < S; s++) {
        memset(nsend, 0, (size_t)P * sizeof(int));
        memset(nrecv, 0, (size_t)P * sizeof(int));
        for (tree = 0; tree < 2; tree++)
            for (v = 1; v < P; v++) {
                off = t->offset[tree * P + v];
                if (off < 0 || s < off || (s - off) % 2 != 0 || (j = (s - off) / 2) >= (k - tree + 1) / 2)
                    continue;
                i = 2 * j + tree, u = t->parent[tree * P + v];
                nsend[u]++, nrecv[v]++;
                TC(u >= 0 && got[u * k + i] > -2 && got[u * k + i] < s,
                   "%s k=%ld step %ld: %d sends packet %ld to %d before holding it", g_ctx, k, s, u, i, v);
                TC(got[v * k + i] == -2, "%s k=%ld: %d receives packet %ld twice", g_ctx, k, v, i);
                got[v * k + i] = s;
            }
        for (v = 0; v < P; v++) {
            int rt, rf, st, sto, r = 0, sn = 0;
            long rp, sp;

            TC(nsend[v] <= 1 && nrecv[v] <= 1, "%s k=%ld step %ld: %d sends %d, receives %d", g_ctx, k, s, v,
               nsend[v], nrecv[v]);
            r = papcoll__twotree_recv(t, v, s, k, &rt, &rf, &rp);
            sn = papcoll__twotree_send(t, v, s, k, &st, &sto, &sp);
            TC(r == (nrecv[v] > 0) && sn == (nsend[v] > 0),
               "%s k=%ld step %ld: %d recv/send %d/%d, edges %d/%d", g_ctx, k, s, v, r, sn, nrecv[v],
               nsend[v]);
            if (r)
                TC(got[v * k + rp] == s && t->parent[rt * P + v] == rf && rp % 2 == rt,
                   "%s k=%ld step %ld: %d's receive of packet %ld from %d does not match", g_ctx, k, s, v, rp,
                   rf);
            if (sn)
                TC(got[sto * k + sp] == s && t->parent[st * P + sto] == v && sp % 2 == st,
                   "%s k=%ld step %ld: %d's send of packet %ld to %d does not match", g_ctx, k, s, v, sp,
                   sto);
        }
    }
    for (v = 1; v < P; v++)
        for (i = 0; i < k; i++)
            TC(got[v * k + i] >= 0, "%s k=%ld: position %d never gets packet %ld", g_ctx, k, v, i);
    for (i = 0; i < k && P > 1; i++) /* the root's port is busy from the first step to the k-th */
        TC(got[t->root[i % 2] * k + i] == i, "%s k=%ld: the root sends packet %ld at step %ld", g_ctx, k, i,
           got[t->root[i % 2] * k + i]);
}

static void check_place(int P)
{
    int v2r[MAXP], r2v[MAXP], root, p;

    for (root = 0; root < P; root++) {
        papcoll__twotree_place(P, root, v2r, r2v);
        TC(v2r[0] == root, "P=%d root=%d: position 0 on rank %d", P, root, v2r[0]);
        for (p = 0; p < P; p++)
            TC(v2r[p] >= 0 && v2r[p] < P && r2v[v2r[p]] == p, "P=%d root=%d: placement not a bijection at %d",
               P, root, p);
    }
}

/* Everything about one build; k values include 0, 1, odd and > P. */
static void check_all(const papcoll__twotree_t *t, long *got, int *a, int *b)
{
    static const long ks[] = {0, 1, 2, 3, 8, 21};
    size_t i;

    if (t->P >= 2) {
        check_tree(t, 0, a, b);
        check_tree(t, 1, a, b);
        check_complement(t);
        check_colouring(t);
    } else {
        TC(t->root[0] == -1 && t->root[1] == -1 && papcoll__twotree_steps(t, 5) == 0,
           "%s: one position but trees", g_ctx);
    }
    for (i = 0; i < sizeof(ks) / sizeof(ks[0]); i++)
        check_schedule(t, ks[i], got, a, b);
}

static void test_all(long *got, int *a, int *b)
{
    papcoll__twotree_t t;
    int P;

    for (P = 1; P <= MAXP; P++) {
        snprintf(g_ctx, sizeof(g_ctx), "P=%d", P);
        if (!check(papcoll__twotree_build(&t, P) == PAPCOLL_OK, "%s: build failed", g_ctx))
            continue;
        check_all(&t, got, a, b);
        check_place(P);
        if (P == 8 || P == 200)
            printf("P=%d: heights %d %d, roots %d %d, %ld steps for 64 packets\n", P, t.height[0],
                   t.height[1], t.root[0], t.root[1], papcoll__twotree_steps(&t, 64));
        papcoll__twotree_free(&t);
    }
}

/* The trees drawn in twotree.h (P = 8). */
static void test_drawn(void)
{
    static const int par0[8] = {-1, 2, 4, 2, 0, 6, 4, 6}, par1[8] = {-1, 3, 1, 7, 5, 3, 5, 0};
    papcoll__twotree_t t;
    int v;

    if (!check(papcoll__twotree_build(&t, 8) == PAPCOLL_OK, "P=8: build failed"))
        return;
    for (v = 0; v < 8; v++)
        check(t.parent[v] == par0[v] && t.parent[8 + v] == par1[v], "P=8 drawn: parents of %d are %d %d", v,
              t.parent[v], t.parent[8 + v]);
    papcoll__twotree_free(&t);
}

static void test_bad_args(void)
{
    papcoll__twotree_t t;

    memset(&t, 0xA5, sizeof(t));
    check(papcoll__twotree_build(&t, 0) == PAPCOLL_ERR_INVAL && t.parent == NULL && t.P == 0,
          "build P=0 not refused cleanly");
    check(papcoll__twotree_build(&t, -3) == PAPCOLL_ERR_INVAL, "build P=-3 accepted");
    check(papcoll__twotree_build(NULL, 5) == PAPCOLL_ERR_INVAL, "build(NULL) accepted");
    papcoll__twotree_free(&t);
    papcoll__twotree_free(NULL);
}

/* One corruption of a sound build of P positions must fail a check. */
static void mutant(int P, int which, const char *desc, long *got, int *a, int *b)
{
    papcoll__twotree_t t;
    long bad0 = g_bad;
    int v, x;

    if (!check(papcoll__twotree_build(&t, P) == PAPCOLL_OK, "mutant %s: build failed", desc))
        return;
    v = t.root[0];
    switch (which) {
    case 0: /* an edge's colour flipped: two receives or two sends in a step */
        t.offset[P + 3] ^= 1;
        break;
    case 1: /* the root's kids in tree 0 swapped: not in order */
        x = t.kid[v * 2], t.kid[v * 2] = t.kid[v * 2 + 1], t.kid[v * 2 + 1] = x;
        break;
    case 2: /* a leaf of tree 0 given a kid that is also its parent's: interior in both */
        t.kid[1 * 2 + 1] = 2;
        break;
    default: /* an offset one period late: the kids below get packets the sender lacks */
        t.offset[v] += 2;
    }
    g_mutant = 1;
    snprintf(g_ctx, sizeof(g_ctx), "mutant %s", desc);
    check_all(&t, got, a, b);
    g_mutant = 0;
    check(g_bad > bad0, "mutant %s (P=%d) passed the checks", desc, P);
    papcoll__twotree_free(&t);
}

/* Modelled time of n bytes in segments of seg over t (sched/twotree.h). */
static double seg_time(const papcoll__twotree_t *t, double n, double seg, double alpha, double c)
{
    double k = ceil(n / seg);
    int H = t->height[0] > t->height[1] ? t->height[0] : t->height[1];

    return (k + 2 * H + 1) * (alpha + n / k * c);
}

/* The model's segment: the least modelled time among the sizes around it
 * (a halved or doubled segment is no faster), within the cap, and the cap
 * or n where the model has nothing to cut. */
static void test_segment(void)
{
    static const int Ps[] = {2, 8, 64, 1024};
    static const double ns[] = {8, 65536, 1 << 20, 32 << 20};
    papcoll__twotree_t t;
    size_t cap = 65472, seg;
    double a = 50e-6, c = 8.3e-9;

    for (int i = 0; i < 4; i++) {
        if (papcoll__twotree_build(&t, Ps[i]) != PAPCOLL_OK) {
            TC(0, "segment: build P=%d", Ps[i]);
            continue;
        }
        for (int j = 0; j < 4; j++) {
            double n = ns[j];

            seg = papcoll__twotree_segment(&t, (size_t)n, a, c, cap);
            TC(seg >= 1 && seg <= cap, "segment P=%d n=%.0f: %zu outside [1, cap]", Ps[i], n, seg);
            TC(seg_time(&t, n, (double)seg, a, c) <= seg_time(&t, n, fmax(1, seg / 2.0), a, c) &&
                   (2.0 * seg > cap ||
                    seg_time(&t, n, (double)seg, a, c) <= seg_time(&t, n, 2.0 * seg, a, c)),
               "segment P=%d n=%.0f: %zu B is not the model's least time", Ps[i], n, seg);
        }
        TC(papcoll__twotree_segment(&t, 1 << 20, 0, c, cap) == cap &&
               papcoll__twotree_segment(&t, 1 << 20, a, NAN, cap) == cap,
           "segment P=%d: no model gives the cap", Ps[i]);
        TC(papcoll__twotree_segment(&t, 100, a, c, cap) == 100, "segment P=%d: 100 B in one segment", Ps[i]);
        papcoll__twotree_free(&t);
    }
    /* 1 MiB at P = 1024 (H = 9): about 60 segments of 17 KiB, not 16 of the cap. */
    papcoll__twotree_build(&t, 1024);
    seg = papcoll__twotree_segment(&t, 1 << 20, a, c, cap);
    TC(seg > 12000 && seg < 24000, "segment P=1024 1 MiB: %zu B", seg);
    papcoll__twotree_free(&t);
}

int main(void)
{
    long *got = malloc((size_t)MAXP * 21 * sizeof(long));
    int *a = malloc(MAXP * sizeof(int)), *b = malloc(MAXP * sizeof(int));

    unit_name = "test_twotree";
    if (got == NULL || a == NULL || b == NULL) {
        printf("FAIL test_twotree: out of memory for the scratch arrays\n");
        return 1;
    }
    test_bad_args();
    test_drawn();
    test_all(got, a, b);
    test_segment();
    mutant(13, 0, "colour", got, a, b);
    mutant(13, 1, "in-order", got, a, b);
    mutant(13, 2, "complement", got, a, b);
    mutant(13, 3, "offset", got, a, b);
    free(got), free(a), free(b);
    return unit_summary();
}
