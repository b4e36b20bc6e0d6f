/*
 * Arrival-driven pairing's rules (dyn.h): Tree-dyn's slot, Non-Commut-
 * Tree-dyn's neighbouring ranges, the last pairing decided before its
 * sender reports, and the streamed chain.
 */
#include "sched/dyn.h"

void papcoll__dyn_init(papcoll__dyn_t *c, int P, int *ints)
{
    c->P = P;
    c->hi = ints;
    c->lo_of = c->hi + P;
    c->holder = c->lo_of + P;
    c->idle = c->holder + P;
    c->range = c->idle + P;
    c->seen = c->range + P;
}

void papcoll__dyn_reset(papcoll__dyn_t *c, papcoll__dyn_policy_t policy, int root)
{
    int r;

    c->policy = policy;
    c->root = root;
    c->slot = c->pre = -1;
    c->pairs = c->nseen = 0;
    for (r = 0; r < c->P; r++) {
        c->hi[r] = r + 1;
        c->lo_of[r] = c->holder[r] = c->range[r] = r;
        c->idle[r] = c->seen[r] = 0;
    }
}

/* Tree-dyn: one slot; the newcomer sends, unless it is the root. */
static int any_ready(papcoll__dyn_t *c, int q, papcoll__dyn_pair_t *out)
{
    int s = c->slot;

    if (s < 0) {
        c->slot = q;
        return 0;
    }
    c->slot = -1;
    out->snd = q == c->root ? s : q;
    out->rcv = q == c->root ? q : s;
    out->left = 1; /* commutative: the cheaper side */
    return 1;
}

/* Merges the idle ranges starting at A (below) and B (above); the range
 * holding the root receives, else the upper one (the incoming value is then
 * its left operand: no copy). */
static int merge(papcoll__dyn_t *c, int A, int B, papcoll__dyn_pair_t *out)
{
    int top = c->hi[B], upper_gets = !(c->root >= A && c->root < B);

    out->rcv = upper_gets ? c->holder[B] : c->holder[A];
    out->snd = upper_gets ? c->holder[A] : c->holder[B];
    out->left = upper_gets;
    c->hi[A] = top;
    c->lo_of[top - 1] = A;
    c->hi[B] = -1;
    c->idle[A] = c->idle[B] = 0;
    c->holder[A] = out->rcv;
    c->range[out->rcv] = A;
    return 1;
}

/* Non-Commut-Tree-dyn: pair with an idle neighbouring range, the lower first. */
static int neighbour_ready(papcoll__dyn_t *c, int q, papcoll__dyn_pair_t *out)
{
    int lo = c->range[q], hi = c->hi[lo];

    c->idle[lo] = 1;
    if (lo > 0 && c->idle[c->lo_of[lo - 1]])
        return merge(c, c->lo_of[lo - 1], lo, out);
    if (hi < c->P && c->idle[hi])
        return merge(c, lo, hi, out);
    return 0;
}

/* The pairing decided ahead: the last rank sends to the root. */
static void last_pair(const papcoll__dyn_t *c, papcoll__dyn_pair_t *out)
{
    /* NEIGHBOUR: the root's range is every rank but pre, so pre is rank 0
     * (its value the left operand) or P - 1 */
    *out = (papcoll__dyn_pair_t){c->pre, c->root, c->policy == PAPCOLL__DYN_ANY || c->pre < c->root, 1};
}

int papcoll__dyn_ready(papcoll__dyn_t *c, int q, papcoll__dyn_pair_t *out)
{
    int paired;

    c->nseen += !c->seen[q];
    c->seen[q] = 1;
    if (c->pre >= 0) { /* the last pairing is decided: the root takes it */
        if (q == c->root)
            last_pair(c, out);
        return q == c->root;
    }
    paired = c->policy == PAPCOLL__DYN_ANY ? any_ready(c, q, out) : neighbour_ready(c, q, out);
    if (paired)
        out->final = ++c->pairs == c->P - 1;
    return paired;
}

int papcoll__dyn_last(papcoll__dyn_t *c, papcoll__dyn_pair_t *out)
{
    int r;

    if (c->pre >= 0 || c->P < 2 || c->pairs != c->P - 2 || c->nseen != c->P - 1 || !c->seen[c->root])
        return 0;
    for (r = 0; c->seen[r]; r++)
        ;
    c->pre = r;
    c->pairs++;
    c->slot = -1; /* the root, if it waited there */
    last_pair(c, out);
    return 1;
}

int papcoll__dyn_expects(const papcoll__dyn_t *c)
{
    return c->pairs < c->P - 1 || (c->pre >= 0 && !c->seen[c->pre]);
}

int papcoll__dyn_streams(int P, int S)
{
    int lg = 0;

    while ((1 << lg) < P)
        lg++;
    return P > 1 && (long)S * (lg - 1) > P - 1;
}

/* Streamed Tree-dyn: the slot's rank streams to the newcomer q, which takes
 * the slot; the last non-root to report streams to the root.  Once one
 * non-root L is left to report its place is known, last in the chain, and
 * L is ordered ahead; the root's FROM says so (late), and the root takes
 * L's READY. */
int papcoll__dyn_stream_ready(papcoll__dyn_t *c, int q, papcoll__dyn_order_t out[PAPCOLL__DYN_MAXORD])
{
    int n = 0, L;

    c->nseen += !c->seen[q];
    c->seen[q] = 1;
    if (q == c->pre)
        return 0; /* ordered ahead */
    out[n++] = (papcoll__dyn_order_t){q, PAPCOLL__DYN_FROM, c->slot, 0};
    if (c->slot >= 0)
        out[n++] = (papcoll__dyn_order_t){c->slot, PAPCOLL__DYN_TO, q, 0};
    c->pairs += c->slot >= 0;
    c->slot = q;
    if (c->nseen == c->P - 1) { /* P = 2: nobody was left to order ahead */
        out[n++] = (papcoll__dyn_order_t){q, PAPCOLL__DYN_TO, c->root, 0};
        out[n++] = (papcoll__dyn_order_t){c->root, PAPCOLL__DYN_FROM, q, 0};
        c->pairs++;
    } else if (c->nseen == c->P - 2) {
        for (L = 0; L == c->root || c->seen[L]; L++)
            ;
        out[n++] = (papcoll__dyn_order_t){L, PAPCOLL__DYN_FROM, q, 0};
        out[n++] = (papcoll__dyn_order_t){L, PAPCOLL__DYN_TO, c->root, 0};
        out[n++] = (papcoll__dyn_order_t){c->root, PAPCOLL__DYN_FROM, L, 1};
        out[n++] = (papcoll__dyn_order_t){q, PAPCOLL__DYN_TO, L, 0};
        c->pre = L;
        c->pairs += 2;
    }
    return n;
}
