/*
 * Serial unit tests of the tree module (papcoll/src/sched/tree.h).  No MPI:
 * every position of every tree is simulated in this one process.
 *
 * For every shape (k-nomial k = 2, 3, 4, 7 and flat; k-ary k = 1, 2, 3, 4,
 * 7 and flat; Fibonacci) and every P in 1..70, 127, 509, 1000:
 *   - structure: parent and children agree, one root, depths and height,
 *     contiguous subtree ranges tiled by the children, pre-order or
 *     in-order traversal = 0..P-1, the declared child orders, and each
 *     shape's own definition (bn_* for the binomial tree, digits for the
 *     k-nomial, heap indices for the k-ary, range middles for the in-order,
 *     the recursive FS_k = FS_k-1 + FS_k-2 construction for the Fibonacci);
 *   - a broadcast/scatter and a reduce/gather simulated round by round under
 *     the one-port model, with their round counts against formulas;
 * then trees written out by hand, P = 2^20 (structure only), bad arguments,
 * and mutants: corrupted trees the checker must reject.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "papcoll.h"
#include "sched/sched.h"
#include "sched/tree.h"
#include "unit.h"

#define BIGP ((1 << 20) + 3)
#define FLAT (1 << 20) /* a k that makes the k-nomial and k-ary trees flat */

typedef struct {
    papcoll__tree_shape_t shape;
    int k;
} spec_t;

static const spec_t specs[] = {
    {PAPCOLL__TREE_BINOMIAL, 2}, {PAPCOLL__TREE_KNOMIAL, 2}, {PAPCOLL__TREE_KNOMIAL, 3},
    {PAPCOLL__TREE_KNOMIAL, 4},  {PAPCOLL__TREE_KNOMIAL, 7}, {PAPCOLL__TREE_KNOMIAL, FLAT},
    {PAPCOLL__TREE_KARY, 1},     {PAPCOLL__TREE_KARY, 2},    {PAPCOLL__TREE_KARY, 3},
    {PAPCOLL__TREE_KARY, 4},     {PAPCOLL__TREE_KARY, 7},    {PAPCOLL__TREE_KARY, FLAT},
    {PAPCOLL__TREE_INORDER, 2},  {PAPCOLL__TREE_CHAIN, 1},    {PAPCOLL__TREE_FIBONACCI, 2},
};
#define NSPECS ((int)(sizeof(specs) / sizeof(specs[0])))

/* Scratch: BIGP + 2 ints each, and the reduce's matrices for P <= SIMP. */
#define SIMP 1000
static int *s_a, *s_b, *s_c, *s_d;
static uint64_t (*s_m)[4];

/* ------------------------------------------------ checks that may be muted */

static char g_ctx[96]; /* "kary k=3 P=13", prefixed to every message */
static int g_mutant;   /* 1: failures are expected; count them, print nothing */
static long g_bad;     /* failed checks so far (muted or not) */

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

/* A passing check costs a compare; only a failure goes through tc(). */
#define TC(ok, ...) ((ok) ? (unit_checks++, 1) : tc(0, __VA_ARGS__))

static int imax(int a, int b)
{
    return a > b ? a : b;
}

/* ------------------------------------------------------------- structure */

/* Parent and children agree, exactly one root, depths, height.  Returns 0
 * when the arrays cannot be walked safely. */
static int check_links(const papcoll__tree_t *t, int P)
{
    int *listed = s_a, v, i, c, p, roots = 0, maxd = 0;

    if (!TC(t->P == P && t->first[0] == 0 && t->first[P] == P - 1,
            "%s: P = %d, first[0] = %d, first[P] = %d (expected P-1 children in all)", g_ctx, t->P,
            t->first[0], t->first[P]))
        return 0;
    for (v = 0; v < P; v++)
        if (!TC(t->first[v] <= t->first[v + 1], "%s: first[] decreases at %d", g_ctx, v))
            return 0;
    for (i = 0; i < P - 1; i++)
        if (!TC(t->kids[i] >= 0 && t->kids[i] < P, "%s: kids[%d] = %d out of range", g_ctx, i, t->kids[i]))
            return 0;
    for (v = 0; v < P; v++) {
        p = t->parent[v];
        listed[v] = 0;
        if (!TC(p >= -1 && p < P && p != v, "%s: parent[%d] = %d", g_ctx, v, p))
            return 0;
    }
    for (v = 0; v < P; v++) {
        if (t->parent[v] < 0) {
            roots++;
            TC(v == t->root && t->depth[v] == 0, "%s: root %d (t->root %d) has depth %d", g_ctx, v, t->root,
               t->depth[v]);
        }
        for (i = 0; i < papcoll__tree_nkids(t, v); i++) {
            c = papcoll__tree_kid(t, v, i);
            listed[c]++;
            TC(t->parent[c] == v, "%s: %d lists child %d whose parent is %d", g_ctx, v, c, t->parent[c]);
            TC(t->depth[c] == t->depth[v] + 1, "%s: depth[%d] = %d under depth[%d] = %d", g_ctx, c,
               t->depth[c], v, t->depth[v]);
        }
        maxd = imax(maxd, t->depth[v]);
    }
    TC(roots == 1, "%s: %d positions have no parent", g_ctx, roots);
    for (v = 0; v < P; v++)
        TC(listed[v] == (v != t->root), "%s: position %d is listed as a child %d times", g_ctx, v, listed[v]);
    TC(t->height == maxd, "%s: height %d, deepest position at %d", g_ctx, t->height, maxd);
    return 1;
}

/* Ranges: [lo, hi) contains v and is tiled, in ascending position order, by
 * v and its children's ranges; the ascending helper is ascending and the
 * service order is monotone in the declared direction. */
static void check_ranges(const papcoll__tree_t *t, int P, int preorder)
{
    int v, i, c, pos, n, prev;

    TC(t->lo[t->root] == 0 && t->hi[t->root] == P, "%s: root range [%d, %d)", g_ctx, t->lo[t->root],
       t->hi[t->root]);
    for (v = 0; v < P; v++) {
        n = papcoll__tree_nkids(t, v);
        TC(t->lo[v] <= v && v < t->hi[v], "%s: %d outside its range [%d, %d)", g_ctx, v, t->lo[v], t->hi[v]);
        if (preorder)
            TC(t->lo[v] == v, "%s: pre-order, but lo[%d] = %d", g_ctx, v, t->lo[v]);
        for (pos = t->lo[v], prev = -1, i = 0; i < n; i++) {
            c = papcoll__tree_kid_asc(t, v, i);
            TC(c > prev, "%s: kid_asc of %d not ascending: %d after %d", g_ctx, v, c, prev);
            if (i > 0)
                TC((papcoll__tree_kid(t, v, i) < papcoll__tree_kid(t, v, i - 1)) == t->desc,
                   "%s: service order of %d is not %s at child %d", g_ctx, v,
                   t->desc ? "descending" : "ascending", i);
            pos += pos == v;
            TC(t->lo[c] == pos, "%s: child %d of %d starts at %d, expected %d", g_ctx, c, v, t->lo[c], pos);
            pos = t->hi[c], prev = c;
        }
        pos += pos == v;
        TC(pos == t->hi[v], "%s: the children of %d tile [%d, %d), not [%d, %d)", g_ctx, v, t->lo[v], pos,
           t->lo[v], t->hi[v]);
    }
}

/* The child of v below it (left) or above it (right), -1 if none. */
static int left_of(const papcoll__tree_t *t, int v)
{
    return papcoll__tree_nkids(t, v) > 0 && papcoll__tree_kid_asc(t, v, 0) < v
               ? papcoll__tree_kid_asc(t, v, 0)
               : -1;
}

static int right_of(const papcoll__tree_t *t, int v)
{
    int n = papcoll__tree_nkids(t, v);

    return n > 0 && papcoll__tree_kid_asc(t, v, n - 1) > v ? papcoll__tree_kid_asc(t, v, n - 1) : -1;
}

/* Pre-order (children by ascending position) or in-order traversal from
 * the root must visit 0, 1, ..., P-1: every position reached once, no
 * cycle.  s_b is the stack. */
static void check_traversal(const papcoll__tree_t *t, int P, int preorder)
{
    int *stack = s_b, sp = 0, out = 0, v, i, n, cur = t->root;

    if (preorder) {
        stack[sp++] = t->root;
        while (sp > 0 && out <= P) {
            v = stack[--sp];
            TC(v == out, "%s: pre-order visit #%d is %d", g_ctx, out, v);
            out++;
            for (n = papcoll__tree_nkids(t, v), i = n - 1; i >= 0 && sp < P; i--)
                stack[sp++] = papcoll__tree_kid_asc(t, v, i);
        }
    } else {
        for (v = 0; v < P; v++) {
            n = papcoll__tree_nkids(t, v);
            if (!TC(n <= 2 && (n < 2 || papcoll__tree_kid_asc(t, v, 0) < v) &&
                        (n < 2 || papcoll__tree_kid_asc(t, v, 1) > v),
                    "%s: %d has %d children, not one left and one right", g_ctx, v, n))
                return;
        }
        while ((cur >= 0 || sp > 0) && out <= P) {
            for (; cur >= 0 && sp < P; cur = left_of(t, cur))
                stack[sp++] = cur;
            v = stack[--sp];
            TC(v == out, "%s: in-order visit #%d is %d", g_ctx, out, v);
            out++;
            cur = right_of(t, v);
        }
    }
    TC(out == P, "%s: the traversal visits %d positions", g_ctx, out);
}

/* ------------------------------------------------- each shape's definition */

static void check_binomial(const papcoll__tree_t *t, int P)
{
    int v, i, n, ch[32];

    /* The most one-bits of a position < P: floor(log2 P). */
    TC(t->root == 0 && t->desc == 1 && t->height == papcoll__ceil_log2(P + 1) - 1,
       "%s: root %d desc %d height %d", g_ctx, t->root, t->desc, t->height);
    for (v = 0; v < P; v++) {
        n = papcoll__bn_children(v, P, ch);
        TC(t->parent[v] == papcoll__bn_parent(v) && papcoll__tree_span(t, v) == papcoll__bn_span(v, P),
           "%s: %d: parent %d span %d, bn_parent %d bn_span %d", g_ctx, v, t->parent[v],
           papcoll__tree_span(t, v), papcoll__bn_parent(v), papcoll__bn_span(v, P));
        if (!TC(papcoll__tree_nkids(t, v) == n, "%s: %d has %d children, bn_children %d", g_ctx, v,
                papcoll__tree_nkids(t, v), n))
            continue;
        for (i = 0; i < n; i++)
            TC(papcoll__tree_kid(t, v, i) == ch[i], "%s: child %d of %d is %d, bn_children says %d", g_ctx, i,
               v, papcoll__tree_kid(t, v, i), ch[i]);
    }
}

/* Parent = v minus its lowest non-zero base-k digit; subtree [v, v + k^j). */
static void check_knomial(const papcoll__tree_t *t, int P, int k)
{
    int v, digits, maxdigits = 0;
    int64_t unit, w;

    TC(t->root == 0 && t->desc == 1, "%s: root %d desc %d", g_ctx, t->root, t->desc);
    for (v = 1; v < P; v++) {
        for (unit = 1; v / unit % k == 0; unit *= k)
            ;
        TC(t->parent[v] == v - v / unit % k * unit && t->hi[v] == (v + unit < P ? v + unit : P),
           "%s: %d: parent %d hi %d", g_ctx, v, t->parent[v], t->hi[v]);
        for (digits = 0, w = v; w > 0; w /= k)
            digits += w % k != 0;
        maxdigits = imax(maxdigits, digits);
    }
    TC(t->height == maxdigits, "%s: height %d, expected %d non-zero digits", g_ctx, t->height, maxdigits);
}

/* Complete k-ary shape: listed by (depth, position), the i-th position's
 * parent is the (i-1)/k-th, as in a heap. */
static void check_kary(const papcoll__tree_t *t, int P, int k)
{
    int *cnt = s_a, *idx = s_b, v, d, h;
    int64_t full, level;

    TC(t->root == 0 && t->desc == 0, "%s: root %d desc %d", g_ctx, t->root, t->desc);
    memset(cnt, 0, sizeof(int) * (size_t)(t->height + 2));
    for (v = 0; v < P; v++)
        cnt[t->depth[v] + 1]++;
    for (d = 1; d <= t->height + 1; d++)
        cnt[d] += cnt[d - 1];
    for (v = 0; v < P; v++)
        idx[v] = cnt[t->depth[v]]++;
    for (v = 1; v < P; v++)
        TC(idx[t->parent[v]] == (idx[v] - 1) / k, "%s: %d is heap node %d, its parent %d heap node %d", g_ctx,
           v, idx[v], t->parent[v], idx[t->parent[v]]);
    for (h = 0, full = 1, level = 1; full < P; h++)
        level = level * k > P ? P : level * k, full += level;
    TC(t->height == h, "%s: height %d, a complete %d-ary tree has %d", g_ctx, t->height, k, h);
}

static void check_inorder(const papcoll__tree_t *t, int P)
{
    int v;

    TC(t->root == P / 2 && t->desc == 0 && t->height == papcoll__ceil_log2(P + 1) - 1,
       "%s: root %d desc %d height %d", g_ctx, t->root, t->desc, t->height);
    for (v = 0; v < P; v++)
        TC(v == t->lo[v] + (t->hi[v] - t->lo[v]) / 2, "%s: %d is not the middle of [%d, %d)", g_ctx, v,
           t->lo[v], t->hi[v]);
}

static void check_chain(const papcoll__tree_t *t, int P)
{
    int v;

    TC(t->root == 0 && t->desc == 0 && t->height == P - 1, "%s: root %d desc %d height %d", g_ctx, t->root,
       t->desc, t->height);
    for (v = 0; v < P; v++)
        TC(t->parent[v] == v - 1, "%s: parent[%d] = %d", g_ctx, v, t->parent[v]);
}

/* Order k of the Fibonacci tree of P positions: the smallest k >= -1 with
 * F(k+2) >= P, F(1) = F(2) = 1. */
static int fib_order(int P)
{
    int64_t a = 1, b = 1, x; /* F(k+2), F(k+3) for k = -1 */
    int k = -1;

    while (a < P)
        x = a + b, a = b, b = x, k++;
    return k;
}

/* Benoit's recursive construction, literally: FS_j on [lo, lo + F(j+2))
 * is FS_j-1 on the front, FS_j-2 behind it, whose root sends to lo; the
 * parent of every position < P goes into par. */
static void fib_ref(int lo, int j, int P, int *par)
{
    int64_t f1 = 1, f2 = 1, x; /* F(j+1), F(j+2) */
    int i;

    if (j <= 0 || lo >= P)
        return;
    for (i = 0; i < j; i++)
        x = f1 + f2, f1 = f2, f2 = x;
    fib_ref(lo, j - 1, P, par);
    if (lo + f1 < P) {
        par[lo + f1] = lo;
        fib_ref((int)(lo + f1), j - 2, P, par);
    }
}

static void check_fibonacci(const papcoll__tree_t *t, int P)
{
    int *par = s_a, k = fib_order(P), v;

    TC(t->root == 0 && t->desc == 1 && t->height <= (k + 1) / 2 && (P == 1 || papcoll__tree_nkids(t, 0) == k),
       "%s: root %d desc %d height %d children of 0 %d (order %d)", g_ctx, t->root, t->desc, t->height,
       papcoll__tree_nkids(t, 0), k);
    par[0] = -1;
    fib_ref(0, k, P, par);
    for (v = 0; v < P; v++)
        TC(t->parent[v] == par[v], "%s: parent[%d] = %d, FS_%d says %d", g_ctx, v, t->parent[v], k, par[v]);
}

/* Everything but the simulations; returns 1 when the tree is sound. */
static int check_structure(const papcoll__tree_t *t, const spec_t *s, int P)
{
    long bad0 = g_bad;
    int pre = s->shape != PAPCOLL__TREE_INORDER;

    TC(t->shape == s->shape && t->k == s->k, "%s: tree says shape %d k %d", g_ctx, t->shape, t->k);
    if (!check_links(t, P) || g_bad != bad0)
        return 0; /* the rest would index with broken links or depths */
    check_ranges(t, P, pre);
    check_traversal(t, P, pre);
    if (s->shape == PAPCOLL__TREE_BINOMIAL || (s->shape == PAPCOLL__TREE_KNOMIAL && s->k == 2))
        check_binomial(t, P);
    if (s->shape == PAPCOLL__TREE_KNOMIAL)
        check_knomial(t, P, s->k);
    else if (s->shape == PAPCOLL__TREE_KARY)
        check_kary(t, P, s->k);
    else if (s->shape == PAPCOLL__TREE_INORDER)
        check_inorder(t, P);
    else if (s->shape == PAPCOLL__TREE_CHAIN)
        check_chain(t, P);
    else if (s->shape == PAPCOLL__TREE_FIBONACCI)
        check_fibonacci(t, P);
    return g_bad == bad0;
}

/* ----------------------------------------------------------- simulations */

/* Broadcast/scatter, round by round: a position that holds the data since
 * an earlier round sends to its next child in service order (one send per
 * round); the child must not have received before.  The message carries
 * the child's range: every element of it must belong to the sender, and
 * afterwards to the child.  Returns the number of rounds. */
static int sim_down(const papcoll__tree_t *t, int P)
{
    int *got = s_a, *next = s_b, *owner = s_c, r, v, c, x, active, last = 0;

    for (v = 0; v < P; v++)
        got[v] = -1, next[v] = 0, owner[v] = t->root;
    got[t->root] = 0;
    for (r = 1, active = 1; active; r++) {
        for (active = 0, v = 0; v < P; v++) {
            if (got[v] < 0 || got[v] >= r || next[v] == papcoll__tree_nkids(t, v))
                continue;
            c = papcoll__tree_kid(t, v, next[v]++);
            TC(got[c] < 0 && t->parent[c] == v, "%s: down round %d: %d sends to %d (parent %d, got in %d)",
               g_ctx, r, v, c, t->parent[c], got[c]);
            got[c] = r;
            for (x = t->lo[c]; x < t->hi[c]; x++) {
                TC(owner[x] == v, "%s: down round %d: %d forwards block %d that %d holds", g_ctx, r, v, x,
                   owner[x]);
                owner[x] = c;
            }
            active = 1, last = r;
        }
    }
    for (v = 0; v < P; v++)
        TC(got[v] >= 0 && owner[v] == v, "%s: after the scatter %d got data in round %d, block %d is at %d",
           g_ctx, v, got[v], v, owner[v]);
    return last;
}

/* 2x2 matrix product c = a b over the integers mod 2^64: associative, not
 * commutative. */
static void mat_mul(const uint64_t *a, const uint64_t *b, uint64_t *c)
{
    uint64_t r[4] = {a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3], a[2] * b[0] + a[3] * b[2],
                     a[2] * b[1] + a[3] * b[3]};

    memcpy(c, r, sizeof(r));
}

/* One receive of the reduce: v (holding [lo, hi) of acc) absorbs the child's
 * value, which must be adjacent, and its range must be the child's subtree. */
static void absorb(const papcoll__tree_t *t, int v, int c, int *lo, int *hi)
{
    TC(lo[c] == t->lo[c] && hi[c] == t->hi[c], "%s: up: %d sends [%d, %d), its subtree is [%d, %d)", g_ctx, c,
       lo[c], hi[c], t->lo[c], t->hi[c]);
    if (hi[c] == lo[v]) {
        mat_mul(s_m[c], s_m[v], s_m[v]);
        lo[v] = lo[c];
    } else if (lo[c] == hi[v]) {
        mat_mul(s_m[v], s_m[c], s_m[v]);
        hi[v] = hi[c];
    } else {
        TC(0, "%s: up: %d holds [%d, %d) and receives the non-adjacent [%d, %d) from %d", g_ctx, v, lo[v],
           hi[v], lo[c], hi[c], c);
    }
}

/* Reduce/gather, round by round: each position receives its children in
 * ascending order, one per round; a child sends (once) in a round after
 * the one in which it received its last child.  Values are random 2x2
 * matrices, so the root's product equals the rank-order product only if
 * every combine kept position order.  Returns the number of rounds. */
static int sim_up(const papcoll__tree_t *t, int P)
{
    int *next = s_a, *done = s_b, *lo = s_c, *hi = s_d, r, v, c, active, i;
    uint64_t ref[4] = {1, 0, 0, 1};

    if (!TC(P <= SIMP, "%s: sim_up has matrices for P <= %d only", g_ctx, SIMP))
        return -1;
    for (v = 0; v < P; v++) {
        next[v] = 0, lo[v] = v, hi[v] = v + 1;
        done[v] = papcoll__tree_nkids(t, v) == 0 ? 0 : -1;
        for (i = 0; i < 4; i++)
            s_m[v][i] = rnd();
        mat_mul(ref, s_m[v], ref);
    }
    for (r = 1, active = 1; active; r++) {
        for (active = 0, v = 0; v < P; v++) {
            if (next[v] == papcoll__tree_nkids(t, v))
                continue;
            c = papcoll__tree_kid_asc(t, v, next[v]);
            if (done[c] < 0 || done[c] >= r)
                continue;
            absorb(t, v, c, lo, hi);
            done[c] = P + r; /* sent: never again */
            if (++next[v] == papcoll__tree_nkids(t, v))
                done[v] = r;
            active = 1;
        }
    }
    v = t->root;
    TC(lo[v] == 0 && hi[v] == P && memcmp(s_m[v], ref, sizeof(ref)) == 0,
       "%s: up: the root ends with [%d, %d)%s", g_ctx, lo[v], hi[v],
       memcmp(s_m[v], ref, sizeof(ref)) ? " and a product out of rank order" : "");
    for (c = 0; c < P; c++)
        TC(c == v ? done[c] >= 0 && done[c] <= P : done[c] > P, "%s: up: %d never %s", g_ctx, c,
           c == v ? "completed" : "sent");
    return done[v] < 0 ? -1 : done[v];
}

/* ------------------------------------------------------ round formulas */

/* In-order tree of n positions, left (n/2) served first: broadcast rounds. */
static int inorder_down(int n)
{
    int right = n - 1 - n / 2;

    if (n <= 1)
        return 0;
    return imax(1 + inorder_down(n / 2), right > 0 ? 2 + inorder_down(right) : 0);
}

/* ... and reduce rounds (left received first, then right). */
static int inorder_up(int n)
{
    int right = n - 1 - n / 2, r = 0;

    if (n <= 1)
        return 0;
    r = imax(r, inorder_up(n / 2)) + 1;
    if (right > 0)
        r = imax(r, inorder_up(right)) + 1;
    return r;
}

/* Complete k-ary tree by heap index: broadcast and reduce rounds. */
static void kary_rounds(int P, int k, int *down, int *up)
{
    int *rd = s_a, *ru = s_b, i;
    int64_t c;

    *down = 0;
    for (rd[0] = 0, i = 1; i < P; i++) {
        rd[i] = rd[(i - 1) / k] + (i - 1) % k + 1;
        *down = imax(*down, rd[i]);
    }
    for (i = P - 1; i >= 0; i--)
        for (ru[i] = 0, c = (int64_t)i * k + 1; c <= (int64_t)i * k + k && c < P; c++)
            ru[i] = imax(ru[i], ru[c]) + 1;
    *up = ru[0];
}

/* Smallest m with k^m >= P. */
static int ceil_logk(int P, int k)
{
    int m = 0;
    int64_t u = 1;

    for (; u < P; u *= k)
        m++;
    return m;
}

static void check_rounds(const spec_t *s, int P, int down, int up)
{
    int L2 = papcoll__ceil_log2(P), m = ceil_logk(P, imax(s->k, 2)), ed = -1, eu = -1;
    int64_t pw = 1;

    TC(down >= L2 && up >= L2, "%s: %d/%d rounds beat the one-port bound ceil(log2 P) = %d", g_ctx, down, up,
       L2);
    switch (s->shape) {
    case PAPCOLL__TREE_BINOMIAL:
        ed = eu = L2;
        break;
    case PAPCOLL__TREE_KNOMIAL:
        for (int i = 0; i < m; i++)
            pw *= s->k;
        if (s->k == 2)
            ed = eu = L2;
        else if (s->k >= P - 1)
            ed = eu = P - 1;
        else if (pw == P)
            ed = eu = (s->k - 1) * m;
        TC(down <= (s->k - 1) * m && up <= (s->k - 1) * m, "%s: %d/%d rounds exceed (k-1) ceil(log_k P) = %d",
           g_ctx, down, up, (s->k - 1) * m);
        break;
    case PAPCOLL__TREE_KARY:
        kary_rounds(P, s->k, &ed, &eu);
        break;
    case PAPCOLL__TREE_INORDER:
        ed = inorder_down(P), eu = inorder_up(P);
        if (((P + 1) & P) == 0) /* P = 2^(h+1) - 1: a perfect tree, 2 rounds per level */
            TC(ed == 2 * (papcoll__ceil_log2(P + 1) - 1), "%s: perfect tree needs 2h rounds", g_ctx);
        break;
    case PAPCOLL__TREE_FIBONACCI:
        ed = eu = imax(fib_order(P), 0);
        break;
    default:
        ed = eu = P - 1;
    }
    if (ed >= 0)
        TC(down == ed && up == eu, "%s: %d broadcast / %d reduce rounds, expected %d / %d", g_ctx, down, up,
           ed, eu);
}

/* ------------------------------------------------------------- drivers */

static void set_ctx(const spec_t *s, int P, const char *what)
{
    snprintf(g_ctx, sizeof(g_ctx), "%s%s k=%d P=%d", what, papcoll__tree_shape_name(s->shape), s->k, P);
}

/* The whole check of one tree; returns the rounds through *down, *up. */
static void check_tree(const papcoll__tree_t *t, const spec_t *s, int P, int *down, int *up)
{
    *down = *up = -1;
    if (!check_structure(t, s, P))
        return;
    *down = sim_down(t, P);
    *up = sim_up(t, P);
    check_rounds(s, P, *down, *up);
}

static void test_all_shapes(void)
{
    static const int extra[] = {127, 509, 1000};
    int i, n, P, rc, down, up;
    papcoll__tree_t t;

    for (i = 0; i < NSPECS; i++) {
        for (n = 0; n < 70 + 3; n++) {
            P = n < 70 ? n + 1 : extra[n - 70];
            set_ctx(&specs[i], P, "");
            rc = papcoll__tree_build(&t, specs[i].shape, P, specs[i].k);
            if (!check(rc == PAPCOLL_OK, "%s: build returned %d", g_ctx, rc))
                continue;
            check_tree(&t, &specs[i], P, &down, &up);
            if (P == 1000)
                printf("%s: broadcast %d rounds, reduce %d, height %d\n", g_ctx, down, up, t.height);
            papcoll__tree_free(&t);
        }
    }
}

/* k-nomial with k = 2 is the binomial tree, array for array. */
static void test_knomial2(void)
{
    static const int ps[] = {1, 2, 3, 5, 7, 13, 64, 127, 509, 1000, 4097};
    papcoll__tree_t a, b;
    size_t i, bytes;

    for (i = 0; i < sizeof(ps) / sizeof(ps[0]); i++) {
        papcoll__tree_binomial(&a, ps[i]);
        papcoll__tree_knomial(&b, ps[i], 2);
        bytes = 6 * (size_t)ps[i] * sizeof(int); /* the whole block, every array */
        check(a.parent && b.parent && memcmp(a.parent, b.parent, bytes) == 0 && a.height == b.height,
              "knomial k=2 P=%d differs from the binomial tree", ps[i]);
        papcoll__tree_free(&a);
        papcoll__tree_free(&b);
    }
}

/* Structure at P = 2^20 + 3 (the simulations are O(P * rounds)) for the
 * builders with arithmetic of their own (the binomial tree is bn_*, the
 * chain trivial), the k-ary one with a fan-out that does not divide P. */
static void test_big(void)
{
    static const spec_t big[] = {
        {PAPCOLL__TREE_KNOMIAL, 3}, {PAPCOLL__TREE_KARY, 7}, {PAPCOLL__TREE_INORDER, 2}};
    papcoll__tree_t t;
    size_t i;

    for (i = 0; i < sizeof(big) / sizeof(big[0]); i++) {
        set_ctx(&big[i], BIGP, "");
        if (check(papcoll__tree_build(&t, big[i].shape, BIGP, big[i].k) == PAPCOLL_OK, "%s: build failed",
                  g_ctx))
            check_structure(&t, &big[i], BIGP);
        papcoll__tree_free(&t);
    }
}

/* ------------------------------------------------ trees written by hand */

/* Parents and the children lists (service order, by position) of the
 * drawings in tree.h and sched.h. */
typedef struct {
    spec_t s;
    int P;
    int parent[12];
    int kids[11];
} literal_t;

static const literal_t literals[] = {
    {{PAPCOLL__TREE_BINOMIAL, 2}, 6, {-1, 0, 0, 2, 0, 4}, {4, 2, 1, 3, 5}},
    {{PAPCOLL__TREE_BINOMIAL, 2}, 8, {-1, 0, 0, 2, 0, 4, 4, 6}, {4, 2, 1, 3, 6, 5, 7}},
    {{PAPCOLL__TREE_BINOMIAL, 2}, 10, {-1, 0, 0, 2, 0, 4, 4, 6, 0, 8}, {8, 4, 2, 1, 3, 6, 5, 7, 9}},
    {{PAPCOLL__TREE_BINOMIAL, 2},
     12,
     {-1, 0, 0, 2, 0, 4, 4, 6, 0, 8, 8, 10},
     {8, 4, 2, 1, 3, 6, 5, 7, 10, 9, 11}},
    {{PAPCOLL__TREE_KNOMIAL, 3}, 8, {-1, 0, 0, 0, 3, 3, 0, 6}, {6, 3, 2, 1, 5, 4, 7}},
    {{PAPCOLL__TREE_KNOMIAL, 3}, 10, {-1, 0, 0, 0, 3, 3, 0, 6, 6, 0}, {9, 6, 3, 2, 1, 5, 4, 8, 7}},
    {{PAPCOLL__TREE_KNOMIAL, 3},
     12,
     {-1, 0, 0, 0, 3, 3, 0, 6, 6, 0, 9, 9},
     {9, 6, 3, 2, 1, 5, 4, 8, 7, 11, 10}},
    {{PAPCOLL__TREE_KARY, 2}, 8, {-1, 0, 1, 2, 1, 0, 5, 5}, {1, 5, 2, 4, 3, 6, 7}},
    {{PAPCOLL__TREE_KARY, 2}, 10, {-1, 0, 1, 2, 2, 1, 5, 0, 7, 7}, {1, 7, 2, 5, 3, 4, 6, 8, 9}},
    {{PAPCOLL__TREE_KARY, 2}, 12, {-1, 0, 1, 2, 2, 1, 5, 5, 0, 8, 9, 8}, {1, 8, 2, 5, 3, 4, 6, 7, 9, 11, 10}},
    {{PAPCOLL__TREE_KARY, 3}, 10, {-1, 0, 1, 1, 1, 0, 5, 5, 5, 0}, {1, 5, 9, 2, 3, 4, 6, 7, 8}},
    {{PAPCOLL__TREE_INORDER, 2}, 8, {1, 2, 4, 2, -1, 6, 4, 6}, {0, 1, 3, 2, 6, 5, 7}},
    {{PAPCOLL__TREE_INORDER, 2}, 10, {1, 2, 5, 4, 2, -1, 7, 8, 5, 8}, {0, 1, 4, 3, 2, 8, 6, 7, 9}},
    {{PAPCOLL__TREE_INORDER, 2},
     12,
     {1, 3, 1, 6, 5, 3, -1, 8, 9, 6, 11, 9},
     {0, 2, 1, 5, 4, 3, 9, 7, 8, 11, 10}},
    {{PAPCOLL__TREE_CHAIN, 1}, 6, {-1, 0, 1, 2, 3, 4}, {1, 2, 3, 4, 5}},
    {{PAPCOLL__TREE_FIBONACCI, 2}, 8, {-1, 0, 0, 0, 3, 0, 5, 5}, {5, 3, 2, 1, 4, 7, 6}},
    {{PAPCOLL__TREE_FIBONACCI, 2}, 10, {-1, 0, 0, 0, 3, 0, 5, 5, 0, 8}, {8, 5, 3, 2, 1, 4, 7, 6, 9}},
    {{PAPCOLL__TREE_FIBONACCI, 2},
     12,
     {-1, 0, 0, 0, 3, 0, 5, 5, 0, 8, 8, 8},
     {8, 5, 3, 2, 1, 4, 7, 6, 11, 10, 9}},
};

static void test_literals(void)
{
    papcoll__tree_t t;
    size_t i;
    int v, P;

    for (i = 0; i < sizeof(literals) / sizeof(literals[0]); i++) {
        const literal_t *l = &literals[i];
        P = l->P;
        set_ctx(&l->s, P, "drawn ");
        if (!check(papcoll__tree_build(&t, l->s.shape, P, l->s.k) == PAPCOLL_OK, "%s: build failed", g_ctx))
            continue;
        for (v = 0; v < P; v++)
            check(t.parent[v] == l->parent[v], "%s: parent[%d] = %d, drawn %d", g_ctx, v, t.parent[v],
                  l->parent[v]);
        for (v = 0; v < P - 1; v++)
            check(t.kids[v] == l->kids[v], "%s: kids[%d] = %d, drawn %d", g_ctx, v, t.kids[v], l->kids[v]);
        papcoll__tree_free(&t);
    }
}

/* ------------------------------------------------------- bad arguments */

static void expect_inval(int rc, papcoll__tree_t *t, const char *what)
{
    check(rc == PAPCOLL_ERR_INVAL, "%s returned %d, expected PAPCOLL_ERR_INVAL", what, rc);
    check(t->parent == NULL && t->P == 0, "%s left the tree non-zero", what);
    papcoll__tree_free(t);
}

static void test_bad_args(void)
{
    papcoll__tree_t t;
    int i;
    char what[64];

    memset(&t, 0xA5, sizeof(t)); /* builders must not read *t */
    expect_inval(papcoll__tree_binomial(&t, 0), &t, "binomial P=0");
    expect_inval(papcoll__tree_knomial(&t, -1, 3), &t, "knomial P=-1");
    expect_inval(papcoll__tree_knomial(&t, 5, 1), &t, "knomial k=1");
    expect_inval(papcoll__tree_knomial(&t, 5, 0), &t, "knomial k=0");
    expect_inval(papcoll__tree_knomial(&t, 5, -2), &t, "knomial k=-2");
    expect_inval(papcoll__tree_kary(&t, 0, 2), &t, "kary P=0");
    expect_inval(papcoll__tree_kary(&t, 5, 0), &t, "kary k=0");
    expect_inval(papcoll__tree_kary(&t, 5, -1), &t, "kary k=-1");
    expect_inval(papcoll__tree_inorder(&t, 0), &t, "inorder P=0");
    expect_inval(papcoll__tree_chain(&t, -7), &t, "chain P=-7");
    expect_inval(papcoll__tree_fibonacci(&t, 0), &t, "fibonacci P=0");
    expect_inval(papcoll__tree_build(&t, PAPCOLL__TREE_NSHAPES, 5, 2), &t, "build shape=NSHAPES");
    expect_inval(papcoll__tree_build(&t, (papcoll__tree_shape_t)-1, 5, 2), &t, "build shape=-1");
    check(papcoll__tree_chain(NULL, 5) == PAPCOLL_ERR_INVAL, "chain(NULL) accepted");
    check(papcoll__tree_build(NULL, PAPCOLL__TREE_KARY, 5, 2) == PAPCOLL_ERR_INVAL, "build(NULL) accepted");
    papcoll__tree_free(NULL);
    check(papcoll__tree_shape_name(PAPCOLL__TREE_NSHAPES) == NULL, "shape_name(NSHAPES) is not NULL");
    for (i = 0; i < PAPCOLL__TREE_NSHAPES; i++) {
        snprintf(what, sizeof(what), "shape %d", i);
        check(papcoll__tree_shape_name((papcoll__tree_shape_t)i) != NULL, "%s has no name", what);
    }
    check(strcmp(papcoll__tree_shape_name(PAPCOLL__TREE_INORDER), "inorder") == 0, "inorder's name");
}

/* ------------------------------------------------------------- mutants */

/* Builds (shape, k, P), applies one corruption, runs the whole check muted:
 * it must report at least one failure. */
static void mutant(const spec_t *s, int P, int which, const char *desc)
{
    papcoll__tree_t t;
    spec_t expect = *s;
    long bad0 = g_bad;
    int down, up, r, x;

    if (!check(papcoll__tree_build(&t, s->shape, P, s->k) == PAPCOLL_OK, "mutant %s: build failed", desc))
        return;
    r = t.root;
    switch (which) {
    case 0: /* service order of the root swapped */
        x = t.kids[t.first[r]], t.kids[t.first[r]] = t.kids[t.first[r] + 1], t.kids[t.first[r] + 1] = x;
        break;
    case 1: /* a subtree range one too long */
        t.hi[t.kids[t.first[r]]]++;
        break;
    case 2: /* a depth off by one (height left alone) */
        t.depth[P - 1]++;
        break;
    case 3: /* a parent pointer that the children lists do not have */
        t.parent[P - 1] = P - 3;
        break;
    case 4: /* no root: 0 points at the last position */
        t.parent[0] = P - 1;
        break;
    case 5: /* a sound tree of another shape: k-nomial k=3 claimed as binomial */
        t.shape = PAPCOLL__TREE_BINOMIAL, t.k = 2, expect.shape = PAPCOLL__TREE_BINOMIAL, expect.k = 2;
        break;
    default: /* the height off by one */
        t.height++;
    }
    g_mutant = 1;
    snprintf(g_ctx, sizeof(g_ctx), "mutant %s", desc);
    check_tree(&t, &expect, P, &down, &up);
    g_mutant = 0;
    check(g_bad > bad0, "mutant %s (%s k=%d P=%d) passed the checks", desc,
          papcoll__tree_shape_name(s->shape), s->k, P);
    papcoll__tree_free(&t);
}

/* Ends a muted check: it must have reported a failure. */
static void expect_caught(const char *desc, long bad0)
{
    g_mutant = 0;
    check(g_bad > bad0, "mutant %s passed the checks", desc);
}

/* Mutants that are sound trees by every link and range, or that reach the
 * simulations and formulas directly. */
static void test_mutants_deep(void)
{
    /* P = 3: root 0 with both children to its right, a fine pre-order tree
     * but not an in-order one. */
    int parent[3] = {-1, 0, 0}, first[4] = {0, 2, 2, 2}, kids[2] = {1, 2}, lo[3] = {0, 1, 2},
        hi[3] = {3, 2, 3}, depth[3] = {0, 1, 1};
    papcoll__tree_t h = {3, PAPCOLL__TREE_INORDER, 2, 0, parent, first, kids, lo, hi, depth, 1, 0}, t;
    spec_t in = {PAPCOLL__TREE_INORDER, 2}, bn = {PAPCOLL__TREE_BINOMIAL, 2};
    long bad0;
    int down, up;

    bad0 = g_bad, g_mutant = 1, snprintf(g_ctx, sizeof(g_ctx), "mutant pre-order as in-order");
    check_tree(&h, &in, 3, &down, &up);
    expect_caught(g_ctx, bad0);

    /* Round counts that the formulas must refuse. */
    bad0 = g_bad, g_mutant = 1, snprintf(g_ctx, sizeof(g_ctx), "mutant rounds");
    check_rounds(&bn, 13, 5, 4);
    expect_caught(g_ctx, bad0);

    /* Reduce in descending order: the combines stop being adjacent. */
    papcoll__tree_binomial(&t, 13);
    t.desc = 0;
    bad0 = g_bad, g_mutant = 1, snprintf(g_ctx, sizeof(g_ctx), "mutant reduce order");
    sim_up(&t, 13);
    expect_caught(g_ctx, bad0);

    /* A scatter range that overlaps the next sibling's. */
    t.desc = 1;
    t.hi[4] = 12;
    bad0 = g_bad, g_mutant = 1, snprintf(g_ctx, sizeof(g_ctx), "mutant scatter range");
    sim_down(&t, 13);
    expect_caught(g_ctx, bad0);
    papcoll__tree_free(&t);
}

static void test_mutants(void)
{
    static const struct {
        spec_t s;
        int P, which;
        const char *desc;
    } m[] = {
        {{PAPCOLL__TREE_BINOMIAL, 2}, 13, 0, "binomial service order"},
        {{PAPCOLL__TREE_INORDER, 2}, 13, 0, "in-order service order"},
        {{PAPCOLL__TREE_KARY, 2}, 13, 1, "k-ary range"},
        {{PAPCOLL__TREE_INORDER, 2}, 13, 1, "in-order range"},
        {{PAPCOLL__TREE_KNOMIAL, 3}, 13, 2, "k-nomial depth"},
        {{PAPCOLL__TREE_CHAIN, 1}, 7, 3, "chain parent"},
        {{PAPCOLL__TREE_KARY, 3}, 13, 4, "k-ary without root"},
        {{PAPCOLL__TREE_KNOMIAL, 3}, 13, 5, "k-nomial as binomial"},
        {{PAPCOLL__TREE_CHAIN, 1}, 7, 6, "chain height"},
    };
    size_t i;

    for (i = 0; i < sizeof(m) / sizeof(m[0]); i++)
        mutant(&m[i].s, m[i].P, m[i].which, m[i].desc);
    test_mutants_deep();
}

int main(void)
{
    struct timespec t0, t1;

    unit_name = "test_tree";
    clock_gettime(CLOCK_MONOTONIC, &t0);
    s_a = malloc((BIGP + 2) * sizeof(int));
    s_b = malloc((BIGP + 2) * sizeof(int));
    s_c = malloc((BIGP + 2) * sizeof(int));
    s_d = malloc((BIGP + 2) * sizeof(int));
    s_m = malloc(SIMP * sizeof(*s_m));
    if (s_a == NULL || s_b == NULL || s_c == NULL || s_d == NULL || s_m == NULL) {
        printf("FAIL test_tree: out of memory for the scratch arrays\n");
        return 1;
    }
    test_bad_args();
    test_literals();
    test_knomial2();
    test_all_shapes();
    test_big();
    test_mutants();
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("test_tree: %.2f s\n", (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
    free(s_a), free(s_b), free(s_c), free(s_d), free(s_m);
    return unit_summary();
}
