/*
 * The two trees and their schedule (shapes, colouring and cost in
 * twotree.h).  Each tree comes from the arithmetic of the binary counter
 * tree; the colouring propagates along the alternating paths and cycles of
 * the sender/receiver graph (each edge is tied to at most two others: the
 * other edge into its receiver, the other edge out of its sender), and
 * the offsets follow the edges down from the roots.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "papcoll.h"
#include "sched/twotree.h"

void papcoll__twotree_free(papcoll__twotree_t *t)
{
    if (t == NULL)
        return;
    free(t->parent);
    memset(t, 0, sizeof(*t));
}

/* The right child of x (lowbit lb >= 2) in the counter tree on 1..n: x +
 * lb/2, or its first left descendant <= n; 0 when x + 1 > n. */
static int right_kid(int x, int lb, int n)
{
    int c = x + lb / 2;

    while (c > n) {
        if ((c & -c) == 1)
            return 0;
        c -= (c & -c) / 2;
    }
    return c;
}

/* Tree t: the counter tree on x = 1..m+t, position x - t; position 0 is
 * dropped (it is the leaf x = 1 of tree 1). */
static void build_tree(papcoll__twotree_t *t, int tree)
{
    int P = t->P, n = P - 1 + tree, x, lb, c, top = 1;

    for (x = 1; x <= n; x++) {
        int v = x - tree, *k = &t->kid[(tree * P + v) * 2];

        lb = x & -x;
        if (v == 0 || lb == 1)
            continue;
        c = x - lb / 2 - tree;
        k[0] = c > 0 ? c : -1;
        c = right_kid(x, lb, n) - tree;
        k[1] = c > 0 ? c : -1;
        if (k[0] >= 0)
            t->parent[tree * P + k[0]] = v;
        if (k[1] >= 0)
            t->parent[tree * P + k[1]] = v;
    }
    while (top * 2 <= n)
        top *= 2;
    t->root[tree] = top - tree;
    t->parent[tree * P + t->root[tree]] = 0;
    t->kid[(tree * P + 0) * 2] = t->root[tree];
}

/* The other edge out of the sender of edge e (-1: none). */
static int sender_partner(const papcoll__twotree_t *t, int e)
{
    int P = t->P, tree = e / P, u = t->parent[e];
    const int *k = &t->kid[(tree * P + u) * 2];

    if (u == 0)
        return (1 - tree) * P + t->root[1 - tree];
    if (k[0] >= 0 && k[1] >= 0)
        return tree * P + (k[0] == e % P ? k[1] : k[0]);
    return -1;
}

/* Gives edge e colour 0 unless it has one, and its alternating path or
 * cycle the colours that follow.  stack: 2P ints. */
static void paint(papcoll__twotree_t *t, int e, int *stack)
{
    int P = t->P, n = 1, q[2], j;

    if (t->offset[e] >= 0)
        return;
    t->offset[e] = 0;
    stack[0] = e;
    while (n > 0) {
        e = stack[--n];
        q[0] = (1 - e / P) * P + e % P; /* the other edge into the same position */
        q[1] = sender_partner(t, e);
        for (j = 0; j < 2; j++)
            if (q[j] >= 0 && t->offset[q[j]] < 0) {
                t->offset[q[j]] = 1 - t->offset[e];
                stack[n++] = q[j];
            }
    }
}

/* Colours every edge into offset[] (0 or 1); the root's edge to tree 0
 * first, so that the root sends packet i at step i. */
static void colour(papcoll__twotree_t *t, int *stack)
{
    int e;

    paint(t, t->root[0], stack);
    for (e = 0; e < 2 * t->P; e++)
        if (e % t->P != 0)
            paint(t, e, stack);
}

/* Turns tree t's colours into offsets, top down, and sets its height and
 * largest offset.  queue, depth: P ints each. */
static void offsets(papcoll__twotree_t *t, int tree, int *queue, int *depth)
{
    int P = t->P, head = 0, tail = 0, u, c, i, *off = &t->offset[tree * P];

    queue[tail++] = t->root[tree];
    depth[t->root[tree]] = 0;
    t->height[tree] = 0;
    t->maxoff[tree] = off[t->root[tree]];
    while (head < tail) {
        u = queue[head++];
        for (i = 0; i < 2; i++) {
            c = t->kid[(tree * P + u) * 2 + i];
            if (c < 0)
                continue;
            off[c] = off[u] + ((off[c] - off[u]) % 2 != 0 ? 1 : 2);
            depth[c] = depth[u] + 1;
            t->height[tree] = depth[c] > t->height[tree] ? depth[c] : t->height[tree];
            t->maxoff[tree] = off[c] > t->maxoff[tree] ? off[c] : t->maxoff[tree];
            queue[tail++] = c;
        }
    }
}

/* Per position v and tree t: hops[t*P + v], the edges from position 0 down
 * to v, and the descendants of v in its interior tree (the one where its
 * subtree is larger; both are 1 for the single position when P = 2), from
 * subtree sizes accumulated bottom up over a breadth-first order.  queue,
 * size0: P ints each. */
static void descendants(papcoll__twotree_t *t, int *queue, int *size0, int *hops)
{
    int P = t->P, tree, head, tail, u, c, i, *size, *h;

    for (tree = 0; tree < 2; tree++) {
        size = tree == 0 ? size0 : t->desc;
        h = hops + tree * P;
        head = tail = 0;
        queue[tail++] = t->root[tree];
        h[t->root[tree]] = 1;
        while (head < tail)
            for (u = queue[head++], i = 0; i < 2; i++)
                if ((c = t->kid[(tree * P + u) * 2 + i]) >= 0)
                    queue[tail++] = c, h[c] = h[u] + 1;
        for (i = tail - 1; i >= 0; i--) {
            u = queue[i];
            size[u] = 1;
            if ((c = t->kid[(tree * P + u) * 2]) >= 0)
                size[u] += size[c];
            if ((c = t->kid[(tree * P + u) * 2 + 1]) >= 0)
                size[u] += size[c];
        }
    }
    for (u = 1; u < P; u++)
        t->desc[u] = (size0[u] > t->desc[u] ? size0[u] : t->desc[u]) - 1;
    t->desc[0] = P - 1;
}

typedef struct {
    int desc, depth, v;
} slot_t;

static int cmp_slot(const void *x, const void *y)
{
    const slot_t *a = x, *b = y;

    if (a->desc != b->desc)
        return a->desc > b->desc ? -1 : 1;
    if (a->depth != b->depth)
        return a->depth < b->depth ? -1 : 1;
    return (a->v > b->v) - (a->v < b->v);
}

/* seq[]: positions 1..P-1 by descendants descending, then by ascending
 * depth = hops in the leaf tree + (descendants + 1) hops in the interior
 * tree (the one where v has a child; tree 0 when neither), then position.
 * Depth is what a late rank on v hides: with one hop per step, a rank
 * arriving L late completes at L + 1 in both trees wherever it sits, and
 * each descendant at L + 1 + its hops below v, so on v it costs the sum of
 * completions 2 L + 2 - hops_0(v) - hops_1(v) + desc(v) (L + 1 - hops_int(v))
 * more than on time: the deepest of the positions with the fewest
 * descendants costs least.
 * rseq[]: positions 1..P-1 by the larger of hops_0 and hops_1 descending,
 * then their sum descending, then position.  In a reduction a late rank on
 * v holds up its ancestors in both trees: the root completes at L plus the
 * larger of v's hop counts, and hops_0 + hops_1 ranks wait for it. */
static int sequence(papcoll__twotree_t *t, const int *hops)
{
    int P = t->P, v, it, h0, h1;
    slot_t *s = malloc(sizeof(*s) * (size_t)P);

    if (s == NULL)
        return PAPCOLL_ERR_NOMEM;
    for (v = 1; v < P; v++) {
        it = t->kid[(P + v) * 2] >= 0 || t->kid[(P + v) * 2 + 1] >= 0;
        s[v - 1] = (slot_t){t->desc[v], hops[(1 - it) * P + v] + (t->desc[v] + 1) * hops[it * P + v], v};
    }
    qsort(s, (size_t)(P - 1), sizeof(*s), cmp_slot);
    for (v = 1; v < P; v++)
        t->seq[v - 1] = s[v - 1].v;
    for (v = 1; v < P; v++) {
        h0 = hops[v], h1 = hops[P + v];
        s[v - 1] = (slot_t){h0 > h1 ? h0 : h1, -(h0 + h1), v};
    }
    qsort(s, (size_t)(P - 1), sizeof(*s), cmp_slot);
    for (v = 1; v < P; v++)
        t->rseq[v - 1] = s[v - 1].v;
    t->seq[P - 1] = t->rseq[P - 1] = 0;
    free(s);
    return PAPCOLL_OK;
}

int papcoll__twotree_build(papcoll__twotree_t *t, int P)
{
    int *m, *scratch, i, rc = PAPCOLL_OK;

    if (t == NULL)
        return PAPCOLL_ERR_INVAL;
    memset(t, 0, sizeof(*t));
    if (P < 1)
        return PAPCOLL_ERR_INVAL;
    if ((size_t)P > SIZE_MAX / sizeof(int) / 14)
        return PAPCOLL_ERR_NOMEM;
    m = malloc(14 * (size_t)P * sizeof(int));
    scratch = malloc(4 * (size_t)P * sizeof(int));
    if (m == NULL || scratch == NULL) {
        free(m), free(scratch);
        return PAPCOLL_ERR_NOMEM;
    }
    for (i = 0; i < 14 * P; i++)
        m[i] = -1;
    t->P = P;
    t->parent = m;
    t->kid = m + 2 * P;
    t->offset = m + 6 * P;
    t->desc = m + 8 * P;
    t->seq = m + 9 * P;
    t->rseq = m + 10 * P;
    t->work = m + 11 * P;
    t->desc[0] = P - 1;
    t->seq[0] = t->rseq[0] = 0;
    t->root[0] = t->root[1] = t->maxoff[0] = t->maxoff[1] = -1;
    if (P > 1) {
        build_tree(t, 0);
        build_tree(t, 1);
        colour(t, scratch);
        offsets(t, 0, scratch, scratch + P);
        offsets(t, 1, scratch, scratch + P);
        descendants(t, scratch, scratch + P, scratch + 2 * P);
        rc = sequence(t, scratch + 2 * P);
    }
    free(scratch);
    if (rc != PAPCOLL_OK)
        papcoll__twotree_free(t);
    return rc;
}

void papcoll__twotree_place(int P, int root, int *v2r, int *r2v)
{
    int p;

    for (p = 0; p < P; p++) {
        if (v2r != NULL)
            v2r[p] = (root + p) % P;
        if (r2v != NULL)
            r2v[(root + p) % P] = p;
    }
}

/* The same group: offsets within tol of the group's first, or both unknown. */
static int same_group(double x, double first, double tol)
{
    return (isnan(x) && isnan(first)) || fabs(x - first) <= tol;
}

void papcoll__twotree_place_sorted(papcoll__twotree_t *t, const int *seq, int root, const int *order,
                                   const double *pred, double tol, int *v2r, int *r2v)
{
    int P = t->P, *gpos = t->work, *grank = t->work + P, *cur = t->work + 2 * P, *list = r2v;
    int i, j = 0, g = -1, first = -1, r, p;

    /* Groups in predicted order, each on the next stretch of seq[]. */
    for (i = 0; i < P; i++) {
        if ((r = order[i]) == root)
            continue;
        if (first < 0 || !same_group(pred[r], pred[first], tol))
            cur[++g] = j, first = r;
        grank[r] = g;
        gpos[seq[j++]] = g;
    }
    /* Each group's positions ascending (list, by group), then its ranks in
     * cyclic order from root onto them. */
    for (p = 1; p < P; p++)
        list[cur[gpos[p]]++] = p;
    for (i = g; i > 0; i--)
        cur[i] = cur[i - 1];
    cur[0] = 0;
    v2r[0] = root;
    for (i = 1; i < P; i++) {
        r = (root + i) % P;
        v2r[list[cur[grank[r]]++]] = r;
    }
    for (p = 0; p < P; p++)
        r2v[v2r[p]] = p;
}

long papcoll__twotree_steps(const papcoll__twotree_t *t, long k)
{
    long S = 0, n, last;
    int tree;

    for (tree = 0; tree < 2; tree++) {
        n = papcoll__twotree_npackets(k, tree);
        last = t->maxoff[tree] + 2 * (n - 1) + 1;
        if (n > 0 && t->maxoff[tree] >= 0 && last > S)
            S = last;
    }
    return S;
}

/* The packet of tree `tree` crossing the edge of offset off at step s: its
 * global number, or -1. */
static long crossing(int off, int tree, long s, long k)
{
    long j;

    if (off < 0 || s < off || (s - off) % 2 != 0)
        return -1;
    j = (s - off) / 2;
    return j < papcoll__twotree_npackets(k, tree) ? 2 * j + tree : -1;
}

int papcoll__twotree_recv(const papcoll__twotree_t *t, int v, long s, long k, int *tree, int *from,
                          long *packet)
{
    int i;

    for (i = 0; i < 2 && v > 0; i++)
        if ((*packet = crossing(t->offset[i * t->P + v], i, s, k)) >= 0) {
            *tree = i;
            *from = t->parent[i * t->P + v];
            return 1;
        }
    return 0;
}

int papcoll__twotree_send(const papcoll__twotree_t *t, int v, long s, long k, int *tree, int *to,
                          long *packet)
{
    int i, j, c;

    for (i = 0; i < 2; i++)
        for (j = 0; j < 2; j++) {
            c = t->kid[(i * t->P + v) * 2 + j];
            if (c >= 0 && (*packet = crossing(t->offset[i * t->P + c], i, s, k)) >= 0) {
                *tree = i;
                *to = c;
                return 1;
            }
        }
    return 0;
}

size_t papcoll__twotree_segment(const papcoll__twotree_t *t, size_t n, double alpha, double c, size_t cap)
{
    int H = t->height[0] > t->height[1] ? t->height[0] : t->height[1];
    double k, seg;

    if (!(alpha > 0) || !(c > 0) || !isfinite(alpha) || !isfinite(c) || n == 0)
        return cap > 0 ? cap : 1;
    k = ceil(sqrt((2.0 * H + 1) * (double)n * c / alpha));
    seg = ceil((double)n / (k < 1 ? 1 : k));
    return seg >= (double)cap ? (cap > 0 ? cap : 1) : seg < 1 ? 1 : (size_t)seg;
}
