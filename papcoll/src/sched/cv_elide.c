/*
 * Bounce elision: the schedule papcoll executes, derived from a generated one
 * (clairvoyant.h, papcoll__cv_elide; docs/clairvoyant.md, "Bounces").
 *
 * The greedy's rules let a sink give a segment away and get it back: a -> b
 * in round r, then b -> a in a later round r', b's next send of that
 * segment.  At the root under a late rank this is the "2-way reduction" of
 * Marendic Fig. 8: the root sends s+1 to the late rank while the late rank
 * sends s back, every round.  The first transfer only adds a's partial to
 * b's so that it can come back.  Dropping it, a keeps its partial, b sends
 * its own (and whatever else it received) in r', and a combines it there:
 * the same contributions meet at a in the same round, with one transfer
 * less, and b's send no longer waits for a's.  If b then has nothing of its
 * own left to send (it had given its own partial away before and received
 * only a's), the return is dropped as well.
 *
 * Safety: a does not send the segment between r and r', and b does not send
 * it between r and r' either (b's last send must precede r), so only a's and
 * b's states inside (r, r') differ, and from r' on every state is the same
 * set of contributions; every other transfer moves what it moved before.
 * Without the condition on b, a send of b in between would lose a's partial
 * and might become empty.  Decisions are made at the return, in schedule
 * order, on the schedule as elided so far: once a -> b is dropped, a's
 * previous send counts as its last again, so an earlier a -> b that the
 * dropped one kept from being a bounce is dropped as well.  The pass
 * simulates, per segment, how many contributions each rank holds, to decide
 * when b is empty.  It removes transfers and never adds or moves one, so the
 * per-round rules of the checker still hold.  Combination order changes
 * (still fixed for a given schedule), which only commutative operations
 * allow, as for the generated schedule itself.  A partial that returns by a
 * longer path (a -> b -> c -> a, as at P = 2^k + 1 balanced) is kept.
 *
 * Cost O(n + N P) time, O(n + N + P) memory.
 */
#include <stdlib.h>
#include <string.h>

#include "papcoll.h"
#include "sched/clairvoyant.h"

typedef struct {
    const papcoll__cv_xfer_t *x;
    int *held;     /* [P] contributions each rank holds of the current segment */
    int *last;     /* [P] its last send of the segment still eligible as a bounce, or -1 */
    int *last_rnd; /* [P] the round of its last send of the segment, or -1 */
    int *moved;    /* [n] contributions each kept transfer moves */
    int *prev;     /* [n] the sender's last and last_rnd before this transfer: restored */
    int *prev_rnd; /*     when the transfer is dropped as a bounce */
    char *drop;    /* [n] */
} elide_t;

/* Transfers by_seg[lo .. hi) are one segment's, in schedule order. */
static void elide_segment(elide_t *e, const int *by_seg, int lo, int hi, int P)
{
    const papcoll__cv_xfer_t *u, *x;
    int g, end, t, b, a, back;

    for (t = 0; t < P; t++)
        e->held[t] = 1, e->last[t] = -1, e->last_rnd[t] = -1;
    for (g = lo; g < hi; g = end) {
        for (end = g; end < hi && e->x[by_seg[end]].round == e->x[by_seg[g]].round; end++)
            ;
        for (t = g; t < end; t++) { /* the round's sends leave first */
            u = &e->x[by_seg[t]];
            b = u->sender, a = u->receiver;
            while ((back = e->last[a]) >= 0 && (x = &e->x[back])->receiver == b &&
                   x->round > e->last_rnd[b]) {
                e->drop[back] = 1; /* a keeps what it sent in x; b never had it */
                e->held[a] += e->moved[back];
                e->held[b] -= e->moved[back];
                e->last[a] = e->prev[back];
                e->last_rnd[a] = e->prev_rnd[back];
            }
            if (e->held[b] == 0) {
                e->drop[by_seg[t]] = 1;
                continue;
            }
            e->moved[by_seg[t]] = e->held[b];
            e->prev[by_seg[t]] = e->last[b];
            e->prev_rnd[by_seg[t]] = e->last_rnd[b];
            e->held[b] = 0;
            e->last[b] = by_seg[t];
            e->last_rnd[b] = u->round;
        }
        for (t = g; t < end; t++)
            if (!e->drop[by_seg[t]])
                e->held[e->x[by_seg[t]].receiver] += e->moved[by_seg[t]];
    }
}

int papcoll__cv_elide(papcoll__cv_sched_t *s)
{
    elide_t e = {.x = s->x};
    int *by_seg, *start, j, t, k, P = s->P, N = s->N;

    if (s->n == 0)
        return PAPCOLL_OK;
    by_seg = malloc(((size_t)s->n * 4 + (size_t)N + 1 + 3 * (size_t)P) * sizeof(int) + (size_t)s->n);
    if (by_seg == NULL)
        return PAPCOLL_ERR_NOMEM;
    e.moved = by_seg + s->n;
    e.prev = e.moved + s->n;
    e.prev_rnd = e.prev + s->n;
    start = e.prev_rnd + s->n;
    e.held = start + N + 1;
    e.last = e.held + P;
    e.last_rnd = e.last + P;
    e.drop = (char *)(e.last_rnd + P);
    memset(start, 0, ((size_t)N + 1) * sizeof(int));
    memset(e.drop, 0, (size_t)s->n);
    papcoll__cv_by_segment(s, by_seg, start);
    for (j = 0; j < N; j++)
        elide_segment(&e, by_seg, start[j], start[j + 1], P);
    for (t = k = 0; t < s->n; t++)
        if (!e.drop[t])
            s->x[k++] = s->x[t];
    s->n = k;
    s->rounds = k > 0 ? s->x[k - 1].round + 1 : 0;
    free(by_seg);
    return PAPCOLL_OK;
}
