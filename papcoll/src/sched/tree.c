/*
 * Tree builders (shapes and cost models in tree.h).  Each builder fills
 * every field directly from the shape's arithmetic, in one pass over the
 * positions in ascending order and without recursion; the children of a
 * position are appended to kids[] when that position is visited, so
 * first[] is a running count.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "papcoll.h"
#include "sched/sched.h"
#include "sched/tree.h"

/* Zeroes *t, checks the arguments (k_ok: the builder accepts k), then
 * allocates the arrays in one block of 6P ints: parent[P] first[P+1]
 * kids[P-1] lo[P] hi[P] depth[P]. */
static int tree_init(papcoll__tree_t *t, papcoll__tree_shape_t shape, int P, int k, int k_ok)
{
    int *m;

    if (t == NULL)
        return PAPCOLL_ERR_INVAL;
    memset(t, 0, sizeof(*t));
    if (P < 1 || !k_ok)
        return PAPCOLL_ERR_INVAL;
    if ((size_t)P > SIZE_MAX / sizeof(int) / 6)
        return PAPCOLL_ERR_NOMEM;
    m = malloc(6 * (size_t)P * sizeof(int));
    if (m == NULL)
        return PAPCOLL_ERR_NOMEM;
    t->P = P;
    t->shape = shape;
    t->k = k;
    t->parent = m;
    t->first = m + P;
    t->kids = t->first + P + 1;
    t->lo = t->kids + P - 1;
    t->hi = t->lo + P;
    t->depth = t->hi + P;
    return PAPCOLL_OK;
}

void papcoll__tree_free(papcoll__tree_t *t)
{
    if (t == NULL)
        return;
    free(t->parent);
    memset(t, 0, sizeof(*t));
}

/* Appends the children count of the last visited position and the height. */
static void tree_close(papcoll__tree_t *t, int nkids)
{
    int v;

    t->first[t->P] = nkids;
    t->height = 0;
    for (v = 0; v < t->P; v++)
        if (t->depth[v] > t->height)
            t->height = t->depth[v];
}

int papcoll__tree_binomial(papcoll__tree_t *t, int P)
{
    int v, n = 0, rc;

    if ((rc = tree_init(t, PAPCOLL__TREE_BINOMIAL, P, 2, 1)) != PAPCOLL_OK)
        return rc;
    t->desc = 1;
    for (v = 0; v < P; v++) {
        t->parent[v] = papcoll__bn_parent(v);
        t->first[v] = n;
        n += papcoll__bn_children(v, P, t->kids + n);
        t->lo[v] = v;
        t->hi[v] = v + papcoll__bn_span(v, P);
        t->depth[v] = __builtin_popcount((unsigned)v);
    }
    tree_close(t, n);
    return PAPCOLL_OK;
}

/* k-nomial: v = (digits) with lowest non-zero digit d at position j has
 * parent v - d k^j and subtree [v, v + k^j); the root's "k^j" is the
 * smallest power of k >= P. */
int papcoll__tree_knomial(papcoll__tree_t *t, int P, int k)
{
    int v, n = 0, rc;
    int64_t unit, u, d;

    if ((rc = tree_init(t, PAPCOLL__TREE_KNOMIAL, P, k, k >= 2)) != PAPCOLL_OK)
        return rc;
    t->desc = 1;
    for (v = 0; v < P; v++) {
        if (v == 0) {
            for (unit = 1; unit < P; unit *= k)
                ;
            t->parent[v] = -1;
            t->depth[v] = 0;
        } else {
            for (unit = 1; (v / unit) % k == 0; unit *= k)
                ;
            t->parent[v] = (int)(v - (v / unit) % k * unit);
            t->depth[v] = t->depth[t->parent[v]] + 1;
        }
        t->first[v] = n;
        for (u = unit / k; u >= 1; u /= k) {
            d = (P - 1 - v) / u < k - 1 ? (P - 1 - v) / u : k - 1;
            for (; d >= 1; d--)
                t->kids[n++] = (int)(v + d * u);
        }
        t->lo[v] = v;
        t->hi[v] = (int)(v + unit < P ? v + unit : P);
    }
    tree_close(t, n);
    return PAPCOLL_OK;
}

/* Size of the subtree of heap index h in the complete k-ary tree of P
 * nodes: level by level its heap indices form one range [a, b]. */
static int heap_size(int64_t h, int P, int k)
{
    int64_t a = h, b = h, s = 0;

    if (k == 1)
        return (int)(P - h);
    while (a < P) {
        b = b < P - 1 ? b : P - 1;
        s += b - a + 1;
        a = a * k + 1;
        b = b * k + k;
    }
    return (int)s;
}

/* Complete k-ary tree in pre-order.  Visiting positions in ascending order
 * reaches every parent before its children; until position v is visited,
 * depth[v] holds v's heap index, which gives its children's heap indices
 * (h k + 1 .. h k + k) and subtree sizes. */
int papcoll__tree_kary(papcoll__tree_t *t, int P, int k)
{
    int v, n = 0, rc, c;
    int64_t h, hc;

    if ((rc = tree_init(t, PAPCOLL__TREE_KARY, P, k, k >= 1)) != PAPCOLL_OK)
        return rc;
    t->parent[0] = -1;
    t->depth[0] = 0;
    t->hi[0] = P;
    for (v = 0; v < P; v++) {
        h = t->depth[v];
        t->first[v] = n;
        t->lo[v] = v;
        c = v + 1;
        for (hc = h * k + 1; hc <= h * k + k && hc < P; hc++) {
            t->kids[n++] = c;
            t->parent[c] = v;
            t->depth[c] = (int)hc;
            t->hi[c] = c + heap_size(hc, P, k);
            c = t->hi[c];
        }
        t->depth[v] = v == 0 ? 0 : t->depth[t->parent[v]] + 1;
    }
    tree_close(t, n);
    return PAPCOLL_OK;
}

static int mid(int a, int b)
{
    return a + (b - a) / 2;
}

/* In-order tree: v's place is found by descending from the root through
 * the ranges (O(log P) per position); its children are the middles of
 * [lo, v) and [v+1, hi). */
int papcoll__tree_inorder(papcoll__tree_t *t, int P)
{
    int v, n = 0, rc, a, b, x;

    if ((rc = tree_init(t, PAPCOLL__TREE_INORDER, P, 2, 1)) != PAPCOLL_OK)
        return rc;
    t->root = mid(0, P);
    for (v = 0; v < P; v++) {
        a = 0, b = P, x = t->root;
        t->parent[v] = -1;
        t->depth[v] = 0;
        while (x != v) {
            t->parent[v] = x;
            t->depth[v]++;
            if (v < x)
                b = x;
            else
                a = x + 1;
            x = mid(a, b);
        }
        t->lo[v] = a;
        t->hi[v] = b;
        t->first[v] = n;
        if (a < v)
            t->kids[n++] = mid(a, v);
        if (v + 1 < b)
            t->kids[n++] = mid(v + 1, b);
    }
    tree_close(t, n);
    return PAPCOLL_OK;
}

int papcoll__tree_chain(papcoll__tree_t *t, int P)
{
    int v, rc;

    if ((rc = tree_init(t, PAPCOLL__TREE_CHAIN, P, 1, 1)) != PAPCOLL_OK)
        return rc;
    for (v = 0; v < P; v++) {
        t->parent[v] = v - 1;
        t->first[v] = v;
        if (v + 1 < P)
            t->kids[v] = v + 1;
        t->lo[v] = v;
        t->hi[v] = P;
        t->depth[v] = v;
    }
    tree_close(t, P - 1);
    return PAPCOLL_OK;
}

/* Fibonacci tree: positions are visited in ascending order, and until v is
 * visited lo[v] holds the order j of the schedule FS_j rooted at v, set by
 * its parent (the root's is the smallest k with F(k+2) >= P). */
int papcoll__tree_fibonacci(papcoll__tree_t *t, int P)
{
    int64_t F[64];
    int v, n = 0, rc, i, j, k = -1;
    int64_t c;

    if ((rc = tree_init(t, PAPCOLL__TREE_FIBONACCI, P, 2, 1)) != PAPCOLL_OK)
        return rc;
    F[0] = 0, F[1] = F[2] = 1;
    for (i = 3; i < 64; i++)
        F[i] = F[i - 1] + F[i - 2];
    while (F[k + 2] < P)
        k++;
    t->desc = 1;
    t->parent[0] = -1;
    t->depth[0] = 0;
    t->hi[0] = P;
    t->lo[0] = k;
    for (v = 0; v < P; v++) {
        j = t->lo[v];
        t->lo[v] = v;
        t->first[v] = n;
        for (i = j; i >= 1; i--) {
            if ((c = v + F[i + 1]) >= P)
                continue;
            t->kids[n++] = (int)c;
            t->parent[c] = v;
            t->depth[c] = t->depth[v] + 1;
            t->hi[c] = (int)(c + F[i] < P ? c + F[i] : P);
            t->lo[c] = i - 2;
        }
    }
    tree_close(t, n);
    return PAPCOLL_OK;
}

/* Golden-ratio tree.  cap[T] = Fib(T + 3) - 1, the most positions a binary
 * tree reaches in T steps when a node sends to its left child one step
 * after it received and to its right child the step after that; a subtree
 * whose leaves must all receive at relative step T can have exactly
 * T + 1 .. cap[T] positions. */
#define GOLDEN_MAXT 46 /* cap[45] > INT_MAX */

static int golden_steps(int P, const int64_t *cap)
{
    int T = 0;

    while (cap[T] < P)
        T++;
    return T;
}

/* Left-subtree size of a subtree of n positions whose leaves all receive at
 * relative step T: the size nearest (n - 1) / phi among those that keep
 * both sides at that step (left n_L in [T, cap[T-1]], right in [T - 1,
 * cap[T-2]]); when none exists (n < 2T) the right subtree is empty. */
static int golden_left(int n, int T, const int64_t *cap)
{
    int64_t lo, hi, g;

    if (n <= 1)
        return 0;
    if (T < 2)
        return n - 1;
    lo = n - 1 - cap[T - 2] > T ? n - 1 - cap[T - 2] : T;
    hi = cap[T - 1] < n - T ? cap[T - 1] : n - T;
    if (lo > hi)
        return n - 1;
    g = (int64_t)floor((n - 1) / 1.6180339887498949 + 0.5);
    return (int)(g < lo ? lo : g > hi ? hi : g);
}

/* Golden-ratio tree: v's place is found by descending from the root through
 * the ranges, each with its leaves' relative step (O(log P) per position). */
int papcoll__tree_golden(papcoll__tree_t *t, int P)
{
    int64_t cap[GOLDEN_MAXT];
    int v, n = 0, rc, a, b, x, T, T0, i;

    if ((rc = tree_init(t, PAPCOLL__TREE_GOLDEN, P, 2, 1)) != PAPCOLL_OK)
        return rc;
    cap[0] = 1, cap[1] = 2;
    for (i = 2; i < GOLDEN_MAXT; i++)
        cap[i] = 1 + cap[i - 1] + cap[i - 2];
    T0 = golden_steps(P, cap);
    t->root = golden_left(P, T0, cap);
    for (v = 0; v < P; v++) {
        a = 0, b = P, x = t->root, T = T0;
        t->parent[v] = -1;
        t->depth[v] = 0;
        while (x != v) {
            t->parent[v] = x;
            t->depth[v]++;
            if (v < x)
                b = x, T -= 1;
            else
                a = x + 1, T -= 2;
            x = a + golden_left(b - a, T, cap);
        }
        t->lo[v] = a;
        t->hi[v] = b;
        t->first[v] = n;
        if (a < v)
            t->kids[n++] = a + golden_left(v - a, T - 1, cap);
        if (v + 1 < b)
            t->kids[n++] = v + 1 + golden_left(b - v - 1, T - 2, cap);
    }
    tree_close(t, n);
    return PAPCOLL_OK;
}

int papcoll__tree_build(papcoll__tree_t *t, papcoll__tree_shape_t shape, int P, int k)
{
    switch (shape) {
    case PAPCOLL__TREE_BINOMIAL:
        return papcoll__tree_binomial(t, P);
    case PAPCOLL__TREE_KNOMIAL:
        return papcoll__tree_knomial(t, P, k);
    case PAPCOLL__TREE_KARY:
        return papcoll__tree_kary(t, P, k);
    case PAPCOLL__TREE_INORDER:
        return papcoll__tree_inorder(t, P);
    case PAPCOLL__TREE_CHAIN:
        return papcoll__tree_chain(t, P);
    case PAPCOLL__TREE_FIBONACCI:
        return papcoll__tree_fibonacci(t, P);
    case PAPCOLL__TREE_GOLDEN:
        return papcoll__tree_golden(t, P);
    default:
        if (t != NULL)
            memset(t, 0, sizeof(*t));
        return PAPCOLL_ERR_INVAL;
    }
}

const char *papcoll__tree_shape_name(papcoll__tree_shape_t shape)
{
    static const char *const names[] = {
#define PAPCOLL__TREE_NAME(e, name) name,
        PAPCOLL__TREE_SHAPES(PAPCOLL__TREE_NAME)
#undef PAPCOLL__TREE_NAME
    };

    if ((int)shape < 0 || shape >= PAPCOLL__TREE_NSHAPES)
        return NULL;
    return names[shape];
}
