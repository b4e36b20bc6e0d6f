/*
 * Clairvoyant schedule, fast generator: Listing 8 of Proficz & Ocetkiewicz
 * 2020 (Sect. 5), producing the same schedule as the reference (Listing 2).
 *
 * State, in 64-bit words (W = ceil(N / 64) per column):
 *   hold[p]   1 bit per segment: p holds it (A or P) or not (E)    P columns
 *   tree      segment tree over 2P leaf columns (leaves padded to L, a power
 *             of two): leaf = a member's sendable segments (hold minus the
 *             P' bit, all zero once it sent in this step, zero for
 *             non-members); inner node = OR of its children          2L columns
 * so about 5 bits per (process, segment) cell (Sect. 5.5), plus SMALL_G
 * columns for small groups.
 *
 *   leaf order = G's order.  Ranks are sorted once by (f, rank), the phase of
 *   their arrival within a round (Sect. 5.4.3).  Every member of G has the
 *   head's k or the head's k + 1 (its time lies in [T, T + d]); the first
 *   kind uses leaf pos, the second leaf pos + P (the "alternative index").
 *   This is the paper's rule, except that we compare k instead of f: with
 *   "f < f_head" a member exactly d after the head with the same phase and a
 *   larger rank would sort among the head's group.
 *
 *   the root goes first (pseudo-root): when it is in G it is served first
 *   and, as a peer, checked before the tree search; its leaf stays in place.
 *
 *   G without a priority queue (Listing 6): members stay in time order when
 *   all advance by d, so the next G is the old one (completed members
 *   removed) merged with a prefix of the awaiting queue, ranks sorted once.
 *
 *   idle rounds (Sect. 5.1): a G of one process jumps straight to the round
 *   in which the next process joins it.
 *
 *   search (Listings 3-5, 7): find_pair(), O(W log L) per member.
 *
 *   tree updates: leaves change one at a time and each change walks to the
 *   root, stopping as soon as a node does not change: OR-in when a column
 *   gains bits (restores at the start of a step), recompute when it loses
 *   bits (a sender is disabled), one bit when a receiver's segment turns P';
 *   after many changes the inner nodes are rebuilt in one pass instead.
 *
 *   small G (fewer than SMALL_G members, our addition): the members'
 *   sendable columns are copied in G's order and scanned, O(W |G|) per
 *   member with nothing to maintain, instead of the tree's O(W log L) walks
 *   for every search and update.  With arrivals spread out (the uniform
 *   setup) most steps have a few members; this halves the work there.
 *
 * Nothing is allocated per step.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "papcoll.h"
#include "sched/clairvoyant.h"

typedef struct {
    int P, N, W, L, depth, root;
    int rleaf;       /* the root's leaf when it is in G, else 0 */
    int rpos;        /* small G: the root's position in G, else -1 */
    int tree_ok;     /* the tree holds this G (the last step used it) */
    int changed;     /* leaves changed in the last step: walk or rebuild */
    uint64_t *vbuf;  /* W words of scratch */
    uint64_t *hold;  /* P * W */
    uint64_t *tree;  /* 2L * W, node 1 is the root, leaves L .. 2L-1 */
    uint64_t *rmask; /* receivers of this step, ceil(P / 64) words */
    uint64_t *scol;  /* small G: sendable columns in G's order, SMALL_G * W */
    double *f, *x;   /* time of p: (k[p], f[p]); x[p] = a_p - a_min */
    int *k;
    int *pos, *at; /* phase order: pos[rank], at[pos] */
    int *await, an, ah;
    int *G, *G2, g; /* members in time order */
    int *leaf;      /* tree node of p's column, 0: none */
    int *nheld;     /* segments p holds */
    int *rfrom, *rseg;
    unsigned char *stale; /* p's leaf is not hold[p] any more */
    unsigned char *ing;   /* p is in this step's G */
} fast_t;

/* The hot functions take the column width W as an argument and are always
 * inlined into run_w(); run() instantiates run_w() once with the constant 1
 * (N <= 64, the common case, compiles to plain word operations) and once
 * with a variable W. */
#define HOT static inline __attribute__((always_inline))

#define COL(w, n, W) ((w)->tree + (size_t)(n) * (W))

/* A G with fewer members is served by scanning its columns, without the
 * tree (see step()). */
#define SMALL_G 16

HOT int before(const fast_t *w, int a, int b)
{
    if (w->k[a] != w->k[b])
        return w->k[a] < w->k[b];
    if (w->f[a] != w->f[b])
        return w->f[a] < w->f[b];
    return a < b;
}

/* q's time <= h's time + d. */
HOT int within(const fast_t *w, int q, int h)
{
    return w->k[q] < w->k[h] + 1 || (w->k[q] == w->k[h] + 1 && w->f[q] <= w->f[h]);
}

/* Leaf n gained bits: OR them into its ancestors, up to the first one that
 * has them all already. */
HOT void or_up(fast_t *w, int n, const int W)
{
    const uint64_t *v = COL(w, n, W);
    uint64_t *p, missing;
    int x;

    for (n >>= 1; n >= 1; n >>= 1) {
        p = COL(w, n, W);
        for (missing = 0, x = 0; x < W; x++)
            missing |= v[x] & ~p[x];
        if (!missing)
            return;
        for (x = 0; x < W; x++)
            p[x] |= v[x];
    }
}

/* Leaf n lost bits: recompute its ancestors from the running OR of the
 * path's siblings, up to the first one that does not change. */
HOT void recompute_up(fast_t *w, int n, const int W)
{
    uint64_t *acc = w->vbuf, *p, a, changed;
    const uint64_t *sib;
    int x;

    if (W == 1) {
        for (a = *COL(w, n, 1); n > 1; n >>= 1) {
            a |= *COL(w, n ^ 1, 1);
            if (*COL(w, n >> 1, 1) == a)
                return;
            *COL(w, n >> 1, 1) = a;
        }
        return;
    }
    memcpy(acc, COL(w, n, W), (size_t)W * sizeof(*acc));
    for (; n > 1; n >>= 1) {
        sib = COL(w, n ^ 1, W);
        p = COL(w, n >> 1, W);
        for (changed = 0, x = 0; x < W; x++) {
            a = acc[x] |= sib[x];
            changed |= a ^ p[x];
            p[x] = a;
        }
        if (!changed)
            return;
    }
}

/* Bit b of word x of leaf n was cleared: clear it upwards until a sibling
 * still has it. */
HOT void bit_up(fast_t *w, int n, int x, uint64_t b, const int W)
{
    for (; n > 1 && !(COL(w, n ^ 1, W)[x] & b); n >>= 1)
        COL(w, n >> 1, W)[x] &= ~b;
}

HOT void set_leaf(fast_t *w, int n, const uint64_t *src, const int W)
{
    int x;

    for (x = 0; x < W; x++)
        COL(w, n, W)[x] = src != NULL ? src[x] : 0;
}

HOT int rank_of(const fast_t *w, int n)
{
    int idx = n - w->L;

    return w->at[idx < w->P ? idx : idx - w->P];
}

/* Listing 6: the next G from the members (already advanced) and the
 * awaiting queue; completed members were removed at the end of the step.
 * Members stay in G, so only arrivals change it: a merge of two runs. */
static void merge(fast_t *w)
{
    int a = 0, b = w->ah, n = 0, h, end, *t;

    h = w->g > 0 && (w->ah == w->an || before(w, w->G[0], w->await[w->ah])) ? w->G[0] : w->await[w->ah];
    for (end = w->ah; end < w->an && within(w, w->await[end], h); end++)
        ;
    if (end == w->ah)
        return;
    w->changed += end - w->ah;
    while (a < w->g || b < end)
        w->G2[n++] = b == end || (a < w->g && before(w, w->G[a], w->await[b])) ? w->G[a++] : w->await[b++];
    w->ah = end;
    t = w->G;
    w->G = w->G2;
    w->G2 = t;
    w->g = n;
}

/* Sect. 5.1: G = {p}; p idles until the next awaiting process q is within d. */
static void skip_idle(fast_t *w)
{
    int p = w->G[0], q = w->await[w->ah];

    w->k[p] = w->f[q] <= w->f[p] ? w->k[q] - 1 : w->k[q];
    merge(w);
}

/* Inner nodes from the leaves, bottom-up. */
HOT void rebuild(fast_t *w, const int W)
{
    uint64_t *p, *l;
    int n, x;

    for (n = w->L - 1; n >= 1; n--)
        for (p = COL(w, n, W), l = COL(w, 2 * n, W), x = 0; x < W; x++)
            p[x] = l[x] | l[x + W];
}

/* Puts every member's column, all of it sendable again, at its leaf for
 * this step's head.  Each changed leaf walks to the root, unless so many
 * leaves changed in the last step that rebuilding every inner node is
 * cheaper (dense G). */
HOT void place_leaves(fast_t *w, const int W)
{
    const int kh = w->k[w->G[0]];
    const int walk = w->changed * w->depth < w->L;
    int t, m, n;

    for (t = 0; t < w->g; t++) {
        m = w->G[t];
        n = w->L + w->pos[m] + (w->k[m] != kh ? w->P : 0);
        if (w->leaf[m] != n) {
            if (w->leaf[m] != 0) {
                set_leaf(w, w->leaf[m], NULL, W);
                if (walk)
                    recompute_up(w, w->leaf[m], W);
            }
            w->leaf[m] = n;
        } else if (!w->stale[m]) {
            continue;
        }
        set_leaf(w, n, w->hold + (size_t)m * W, W);
        if (walk)
            or_up(w, n, W);
        w->stale[m] = 0;
    }
    if (!walk)
        rebuild(w, W);
    w->rleaf = w->ing[w->root] ? w->leaf[w->root] : 0;
}

/* Listing 4 from node n, whose bit b of word x is set; branch-free, since
 * which child holds the bit is unpredictable. */
HOT int leftmost(const fast_t *w, int n, int x, uint64_t b, const int W)
{
    while (n < w->L) {
        n *= 2;
        n += (COL(w, n, W)[x] & b) == 0;
    }
    return n;
}

/* The leftmost holder of bit b of word x other than leaf self, given the
 * sibling words sib[0 .. top-1] on self's path (sib[l] at height l): it lies
 * in the highest sibling left of the path that has b, else in the lowest
 * sibling right of it.  Bit l of self tells that the path's node at height
 * l is a right child, i.e. that sib[l] is a left sibling. */
HOT int leftmost_other(const fast_t *w, int self, const uint64_t *sib, int top, int x, uint64_t b,
                       const int W)
{
    unsigned has = 0, left;
    int l;

    for (l = 0; l < top; l++)
        has |= (unsigned)((sib[l] & b) != 0) << l;
    left = has & (unsigned)self;
    l = left ? 31 - __builtin_clz(left) : __builtin_ctz(has);
    return leftmost(w, (self >> l) ^ 1, x, b, W);
}

/* All-except-one (Listing 3) for word x from leaf self, keeping the
 * sibling words; returns the path length. */
HOT int walk_up(const fast_t *w, int self, int x, uint64_t *sib, uint64_t *acc, const int W)
{
    uint64_t a = 0;
    int l = 0;

    for (; self > 1; self >>= 1, l++)
        a |= sib[l] = COL(w, self ^ 1, W)[x];
    *acc = a;
    return l;
}

/*
 * Listing 7: the lowest segment that another enabled member can send to i
 * (i must hold it unless it is the sink), and the first such member in G's
 * order: the root when it is in G (pseudo-root), else the leftmost leaf
 * other than i's.  We first try the lowest bit b that anybody has: if i's
 * leaf lacks b, or find-leftmost (Listing 4) is not i, or find-leftmost-from
 * (Listing 5) finds someone right of i, that is the answer, usually for one
 * descent.  Otherwise nobody else has b, and one walk up from i computes
 * all-except-one (Listing 3) for the rest of the word, keeping the sibling
 * words so that the sender of the next candidate bit needs no second
 * search from i (leftmost_other).
 */
HOT int find_pair(const fast_t *w, int i, int sink, int *peer, const int W)
{
    const uint64_t *hi = w->hold + (size_t)i * W;
    const int self = w->leaf[i];
    uint64_t sib[32], mask, own, acc, b;
    int x, n, top;

    for (x = 0; x < W; x++) {
        mask = (sink ? ~0ull : hi[x]) & COL(w, 1, W)[x];
        if (mask == 0)
            continue;
        own = COL(w, self, W)[x];
        b = mask & -mask;
        if (w->rleaf != 0 && w->rleaf != self && (COL(w, w->rleaf, W)[x] & b)) {
            *peer = w->rleaf;
            return x * 64 + __builtin_ctzll(b);
        }
        n = leftmost(w, 1, x, b, W);
        if (n != self) {
            *peer = n;
            return x * 64 + __builtin_ctzll(b);
        }
        for (; n > 1; n >>= 1) /* Listing 5 */
            if (!(n & 1) && (COL(w, n + 1, W)[x] & b)) {
                *peer = leftmost(w, n + 1, x, b, W);
                return x * 64 + __builtin_ctzll(b);
            }
        top = walk_up(w, self, x, sib, &acc, W);
        mask &= acc;
        if (mask == 0)
            continue;
        b = mask & -mask;
        if (w->rleaf != 0 && w->rleaf != self && (COL(w, w->rleaf, W)[x] & b))
            *peer = w->rleaf;
        else if (own & b)
            *peer = leftmost_other(w, self, sib, top, x, b, W);
        else
            *peer = leftmost(w, 1, x, b, W);
        return x * 64 + __builtin_ctzll(b);
    }
    return -1;
}

/* z sends segment s to i: z holds nothing of s any more; i holds s (the
 * sink may get back a segment it had sent). */
HOT void record_event(fast_t *w, int z, int i, int s, const int W)
{
    const int x = s >> 6;
    const uint64_t b = 1ull << (s & 63);

    w->rfrom[i] = z;
    w->rseg[i] = s;
    w->rmask[i >> 6] |= 1ull << (i & 63);
    w->hold[(size_t)z * W + x] &= ~b;
    w->nheld[z]--;
    if (!(w->hold[(size_t)i * W + x] & b)) {
        w->hold[(size_t)i * W + x] |= b;
        w->nheld[i]++;
    }
}

/* Member i with the tree: z sends nothing more in this step (its leaf is
 * cleared), i must not forward s in this step (P'). */
HOT void serve_tree(fast_t *w, int i, int sink, const int W)
{
    int zn, z, s, x;
    uint64_t b;

    if ((s = find_pair(w, i, sink, &zn, W)) < 0)
        return;
    x = s >> 6;
    b = 1ull << (s & 63);
    z = rank_of(w, zn);
    record_event(w, z, i, s, W);
    set_leaf(w, zn, NULL, W);
    recompute_up(w, zn, W);
    w->stale[z] = 1;
    if (COL(w, w->leaf[i], W)[x] & b) {
        COL(w, w->leaf[i], W)[x] &= ~b;
        bit_up(w, w->leaf[i], x, b, W);
    }
    w->stale[i] = 1;
}

/* Member G[t] of a small G: the same search as find_pair() by scanning the
 * other members' sendable columns scol[] in G's order (root first). */
HOT void serve_small(fast_t *w, int t, int sink, const int W)
{
    const int i = w->G[t], g = w->g;
    const uint64_t *hi = w->hold + (size_t)i * W;
    uint64_t *c = w->scol, mask, others, b;
    int x, u;

    for (x = 0; x < W; x++) {
        mask = sink ? ~0ull : hi[x];
        for (others = 0, u = 0; u < g; u++)
            others |= u != t ? c[(size_t)u * W + x] : 0;
        mask &= others;
        if (mask == 0)
            continue;
        b = mask & -mask;
        if (w->rpos >= 0 && w->rpos != t && (c[(size_t)w->rpos * W + x] & b))
            u = w->rpos;
        else
            for (u = 0; u == t || !(c[(size_t)u * W + x] & b); u++)
                ;
        record_event(w, w->G[u], i, x * 64 + __builtin_ctzll(b), W);
        memset(c + (size_t)u * W, 0, (size_t)W * sizeof(*c));
        c[(size_t)t * W + x] &= ~b;
        return;
    }
}

/* Serves a small G: every member's column, sendable again, in G's order. */
HOT void serve_all_small(fast_t *w, int sink, const int W)
{
    int t, x;

    w->rpos = -1;
    for (t = 0; t < w->g; t++) {
        for (x = 0; x < W; x++)
            w->scol[(size_t)t * W + x] = w->hold[(size_t)w->G[t] * W + x];
        w->rpos = w->G[t] == w->root ? t : w->rpos;
    }
    serve_small(w, w->rpos >= 0 ? w->rpos : 0, 1, W);
    for (t = 0; t < w->g; t++)
        if (w->G[t] != sink)
            serve_small(w, t, 0, W);
    w->tree_ok = 0;
}

/* Serves a large G with the tree, which the last step may have left
 * behind (then it starts from empty leaves). */
HOT void serve_all_tree(fast_t *w, int sink, const int W)
{
    int t;

    if (!w->tree_ok) {
        memset(w->tree, 0, (size_t)2 * w->L * W * sizeof(*w->tree));
        for (t = 0; t < w->g; t++)
            w->leaf[w->G[t]] = 0;
        w->changed = w->g;
        w->tree_ok = 1;
    }
    place_leaves(w, W);
    serve_tree(w, sink, 1, W);
    for (t = 0; t < w->g; t++)
        if (w->G[t] != sink)
            serve_tree(w, w->G[t], 0, W);
}

/* Appends this step's transfers by receiver rank (room was reserved). */
static void emit(fast_t *w, papcoll__cv_sched_t *s, int round)
{
    papcoll__cv_xfer_t *out = s->x + s->n;
    int word, i;
    uint64_t m;

    for (word = 0; word < (w->P + 63) / 64; word++) {
        for (m = w->rmask[word]; m != 0; m &= m - 1) {
            i = word * 64 + __builtin_ctzll(m);
            out->round = round;
            out->sender = w->rfrom[i];
            out->receiver = i;
            out->segment = w->rseg[i];
            out++;
        }
        w->rmask[word] = 0;
    }
    s->n = (int)(out - s->x);
}

/*
 * One step.  A large G uses the tree (Listing 8).  A small one is served
 * from a compact copy of its members' columns in G's order: each search
 * scans fewer than SMALL_G columns and nothing needs maintaining, where
 * the tree would walk log L levels for every search and update.  Both give
 * the same answers; the tree is rebuilt when G grows large again.
 */
HOT int step(fast_t *w, papcoll__cv_sched_t *s, int *cap, const int W)
{
    const int round = w->k[w->G[0]];
    const int n0 = s->n;
    int t, m, sink, keep = 0, rc;

    if ((rc = papcoll__cv_reserve(s, cap, w->g)) != 0)
        return rc;
    for (t = 0; t < w->g; t++)
        w->ing[w->G[t]] = 1;
    sink = w->ing[w->root] ? w->root : w->G[0];
    if (w->g < SMALL_G)
        serve_all_small(w, sink, W);
    else
        serve_all_tree(w, sink, W);
    emit(w, s, round);
    w->changed = 2 * (s->n - n0);
    for (t = 0; t < w->g; t++) {
        m = w->G[t];
        w->ing[m] = 0;
        if (m != w->root && w->nheld[m] == 0) {
            w->leaf[m] = 0; /* its column was cleared when it sent */
            w->stale[m] = 0;
        } else {
            w->k[m]++;
            w->G[keep++] = m;
        }
    }
    w->g = keep;
    return 0;
}

HOT int run_w(fast_t *w, papcoll__cv_sched_t *s, const int W)
{
    int cap = 0, rc;

    /* Every rank but the root sends every segment at least once. */
    if ((rc = papcoll__cv_reserve(s, &cap, (w->P - 1) * w->N + w->P)) != 0)
        return rc;
    while (w->g + (w->an - w->ah) > 1) {
        merge(w);
        if (w->g == 1)
            skip_idle(w);
        if ((rc = step(w, s, &cap, W)) != 0)
            return rc;
    }
    s->rounds = s->n > 0 ? s->x[s->n - 1].round + 1 : 0;
    return 0;
}

static int run(fast_t *w, papcoll__cv_sched_t *s)
{
    return w->W == 1 ? run_w(w, s, 1) : run_w(w, s, w->W);
}

/* One allocation for everything; returns it (NULL: out of memory). */
static void *setup(fast_t *w, int P, int N, int root)
{
    size_t words, ints, bytes;
    char *mem;
    int L = 2;

    while (L < 2 * P)
        L *= 2;
    memset(w, 0, sizeof(*w));
    w->P = P;
    w->N = N;
    w->W = (N + 63) / 64;
    w->L = L;
    for (w->depth = 1; (1 << (w->depth - 1)) < L; w->depth++)
        ;
    w->root = root;
    words = (size_t)P * w->W + (size_t)2 * L * w->W + (size_t)(P + 63) / 64 + (size_t)(1 + SMALL_G) * w->W;
    ints = (size_t)11 * P;
    bytes = words * 8 + (size_t)2 * P * sizeof(double) + ints * sizeof(int) + (size_t)2 * P;
    mem = malloc(bytes);
    if (mem == NULL)
        return NULL;
    w->hold = (uint64_t *)mem;
    w->tree = w->hold + (size_t)P * w->W;
    w->rmask = w->tree + (size_t)2 * L * w->W;
    w->vbuf = w->rmask + (P + 63) / 64;
    w->scol = w->vbuf + w->W;
    w->f = (double *)(w->scol + (size_t)SMALL_G * w->W);
    w->x = w->f + P;
    w->k = (int *)(w->x + P);
    w->pos = w->k + P;
    w->at = w->pos + P;
    w->await = w->at + P;
    w->G = w->await + P;
    w->G2 = w->G + P;
    w->leaf = w->G2 + P;
    w->nheld = w->leaf + P;
    w->rfrom = w->nheld + P;
    w->rseg = w->rfrom + P;
    w->stale = (unsigned char *)(w->rseg + 2 * P); /* after P ints of sort scratch */
    w->ing = w->stale + P;
    /* Everything else is written before it is read; the tree is cleared
     * when a step first uses it (tree_ok == 0). */
    memset(w->rmask, 0, (size_t)(P + 63) / 64 * sizeof(*w->rmask));
    memset(w->leaf, 0, (size_t)P * sizeof(*w->leaf));
    memset(w->stale, 0, (size_t)2 * P);
    return mem;
}

static void init_state(fast_t *w, double d, const double *pat)
{
    int *scratch = w->rseg + w->P, p, x;

    papcoll__cv_split_times(w->P, d, pat, w->k, w->f, w->x);
    papcoll__cv_sort(w->P, w->x, w->await, scratch);
    papcoll__cv_sort(w->P, w->f, w->at, scratch);
    w->an = w->P;
    for (p = 0; p < w->P; p++) {
        w->pos[w->at[p]] = p;
        w->nheld[p] = w->N;
        for (x = 0; x < w->W; x++)
            w->hold[(size_t)p * w->W + x] = x < w->N / 64 ? ~0ull : (1ull << (w->N % 64)) - 1;
    }
}

int papcoll__cv_fast(int P, int N, double d, int root, const double *pat, papcoll__cv_sched_t *out)
{
    fast_t w;
    void *mem;
    int rc;

    papcoll__cv_init(out, P, N, d, root);
    if (papcoll__cv_input_check(P, N, d, root, pat, NULL, 0) != 0)
        return PAPCOLL_ERR_INVAL;
    mem = setup(&w, P, N, root);
    if (mem == NULL)
        return PAPCOLL_ERR_NOMEM;
    init_state(&w, d, pat);
    rc = run(&w, out);
    if (rc != 0)
        papcoll__cv_free(out);
    free(mem);
    return rc;
}
