/*
 * The two trees and their schedule (shapes, colouring and cost in
 * twotree.h).  Each tree comes from the arithmetic of the binary counter
 * tree; the colouring propagates along the alternating paths and cycles of
 * the sender/receiver graph (each edge is tied to at most two others: the
 * other edge into its receiver, the other edge out of its sender), and
 * the offsets follow the edges down from the roots.
 */
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

int papcoll__twotree_build(papcoll__twotree_t *t, int P)
{
    int *m, *scratch, i;

    if (t == NULL)
        return PAPCOLL_ERR_INVAL;
    memset(t, 0, sizeof(*t));
    if (P < 1)
        return PAPCOLL_ERR_INVAL;
    if ((size_t)P > SIZE_MAX / sizeof(int) / 8)
        return PAPCOLL_ERR_NOMEM;
    m = malloc(8 * (size_t)P * sizeof(int));
    scratch = malloc(3 * (size_t)P * sizeof(int));
    if (m == NULL || scratch == NULL) {
        free(m), free(scratch);
        return PAPCOLL_ERR_NOMEM;
    }
    for (i = 0; i < 8 * P; i++)
        m[i] = -1;
    t->P = P;
    t->parent = m;
    t->kid = m + 2 * P;
    t->offset = m + 6 * P;
    t->root[0] = t->root[1] = t->maxoff[0] = t->maxoff[1] = -1;
    if (P > 1) {
        build_tree(t, 0);
        build_tree(t, 1);
        colour(t, scratch);
        offsets(t, 0, scratch, scratch + P);
        offsets(t, 1, scratch, scratch + P);
    }
    free(scratch);
    return PAPCOLL_OK;
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
