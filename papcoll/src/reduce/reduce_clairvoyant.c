/*
 * reduce "clairvoyant": Marendic, Lemeire, Vucinic, Schelkens 2016 (Sect.
 * 5.4, Algorithm 1; execution Sect. 5.4.3) with the fixes and the fast
 * generator of Proficz and Ocetkiewicz 2020 (sched/clairvoyant.h, cv_fast.c,
 * docs/clairvoyant.md).  The vector is cut into N segments; knowing when
 * every rank arrives (the monitor's prediction), the generator plans per
 * round of length d = alpha + B (beta + gamma) (B = n / N bytes) who sends
 * its partial of which segment to whom, so that the early ranks reduce among
 * themselves while the late ones still compute, and segments trickle to the
 * root.
 *
 * Plan (built in the monitor right after the PAT exchange, plan data of
 * this file): N from the linear model (papcoll__model_segments, Marendic
 * Sect. 5.2), raised so that no segment exceeds segment_bytes (by less than
 * an element when the element size does not divide it; docs/reduce.md,
 * "Segments": above the transport's eager limit every segment costs a
 * rendezvous); option clairvoyant_segments overrides; d from the model, the
 * arrivals shifted to start at 0 (an unknown or non-finite prediction counts
 * as the latest known one; spreads beyond 2^28 rounds are clipped) and
 * those closer than the predictor's noise made one group (plan->noise,
 * papcoll__cv_cluster: balanced calls are not planned on jitter), then the
 * fast generator, its bounces dropped (cv_elide.c: a sink no longer lends a
 * partial that only comes back to it), and each rank's transfer list.  A
 * new schedule is generated only when what the generator's decisions depend
 * on changed: N, d, the root, the round of each arrival (k_i) and the order
 * of their phases within a round (Marendic Sect. 7: amortise the
 * generation).  All ranks plan from the
 * same exchanged bytes, so they hold the same schedule (its hash is part of
 * the plan's, PAPCOLL_CHECK).
 *
 * Execution, driven by data: each rank runs each segment's events (its
 * sends and receives of it) in round order, the segments independently.  A
 * send starts once the segment's earlier events are done, the rank's
 * earlier sends to the same receiver have started (messages between two
 * ranks match in schedule order) and fewer than CV_WINDOW of the rank's
 * sends are in flight: the two trees' window (sched/twotree.h), Marendic's
 * one send per round plus the next.  Without it a rank that runs ahead
 * posts many segments at once; a socket sends them one after the other,
 * a network model that shares the port among them (SimGrid's) delivers
 * them all late (in SMPI, 4 MiB balanced on emu8: 88 ms without, 66 ms
 * with, 37 ms the round model).  An eager send completes at once, so the
 * window holds rendezvous sends only.  An arrived partial is combined into the rank's own, or, at a sink that
 * gave the segment away earlier, replaces it once that send completed.  Receives are posted ahead in round order, up
 * to N at a time, each into its own slot.  When a segment's transfer
 * takes at least CV_LOCK_RATIO round alphas, a send also waits until this rank's
 * receives of earlier rounds have arrived (the lock): without it senders
 * run ahead into receivers still taking an earlier round's segment, two
 * segments share the receiver's port, and the rounds stretch (measured
 * 1.3x at 2 MiB balanced on 8 emulated nodes; docs/reduce.md, "The
 * executor's lock").  With shorter transfers the port is idle most of a
 * round and the lock only adds waits (measured +6 % at 128 KiB balanced);
 * so it does with sparse segments, whose encoding and merging occupy the
 * cores (the PIC's compositing: +7-10 %), which therefore run without it.
 * Marendic's executor waits for both transfers of each round; here a
 * ready segment leaves whatever the others wait for
 * once the rank's earlier rounds have delivered.  No deadlock: an event
 * waits only for events of earlier rounds or for the matching send of its
 * round (receives are posted in round order).  Waits poll, not MPI's
 * spinning wait, napping where ranks share cores (p2p.c, a->nap): ranks
 * that wait for a late one leave shared cores to the ranks still computing.  Partials
 * are combined in schedule order: COMMUTATIVE_ONLY (falls back to
 * rabenseifner); for a given schedule the bracketing is fixed, so results
 * repeat bit for bit.  SPARSE: with the site's identity (sparse.h) each
 * segment travels run-length encoded (one encoding buffer per segment in
 * flight; receives take up to the dense size + 4 bytes), and a segment
 * that comes back to its sink is rebuilt from the identity and its runs.
 *
 *   P = N = 4, root 0, segments a b c d; the fast generator's schedule
 *   (bin/papcoll-sched --procs 4 --segments 4), rounds 0..4:
 *     0: 1->0 a  0->1 b  3->2 a  2->3 b      3: 2->0 c  3->1 d
 *     1: 2->0 a  3->1 b  0->2 c  1->3 c      4: 1->0 d
 *     2: 1->0 b  0->1 d  3->2 c  2->3 d      = ceil(log2 P) + N - 1 rounds
 *   executed without its bounces (--elide): the root's 0->1 b, 0->2 c and
 *   0->1 d go, so the root only receives: (P - 1) N = 12 transfers, same
 *   rounds.  Arrivals (0, 0, 0, 9 d) (--pat 0,0,0,9): ranks 0..2 reduce
 *   among themselves in rounds 0..4; from round 8 rank 3 and the root swap
 *   segments (3->0 a, 0->3 b; 3->0 b, 0->3 c; ...) and finish in round 11:
 *   the imbalance plus a 2-way reduction (Marendic Fig. 8); elided, rank 3
 *   streams a..d to the root in rounds 8..11 and waits for nothing.
 *
 * Cost: R rounds of d, R = ceil(log2 P) + N - 1 for balanced arrivals (the
 * optimum of the model; docs/clairvoyant.md lists the few P where the greedy
 * needs one more), the generated schedule's length otherwise (at best the
 * imbalance plus a 2-way reduction: Marendic Prop. 3.7).  Generation: O(P
 * log P + R_sum W min(|G|, log P)) (cv_fast.c), only when the key changes.
 * Memory: the vector (root: its receive buffer), up to N receive slots of a
 * segment each, N send requests, the rank's events (at most two per round;
 * sparse: one more vector, the encodings);
 * the plan: the schedule (about (P-1) N transfers of 16 bytes, the same on
 * every rank) and its index (8 bytes per transfer).
 * NOMEM: the plan data is allocated on the site's first plan; the generator
 * allocates its working set at every generation and the index grows with the
 * largest schedule seen.  A rank whose generation failed returns
 * PAPCOLL_ERR_NOMEM from the call while the others wait for its transfers (as
 * with any allocation failure inside a collective): generation runs only
 * when the key changed.
 */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reduce/engine.h"
#include "sched/clairvoyant.h"
#include "sched/twotree.h"
#include "sparse.h"

#define CV_MAX_PN (1 << 29)  /* the generator's P * N limit */
#define CV_MAX_SPREAD 0x1p28 /* arrivals clipped to this many rounds (generator: 2^29) */
#define CV_LOCK_RATIO 4      /* the lock holds when a segment's transfer takes this many round alphas */
#define CV_WINDOW PAPCOLL__TWOTREE_WINDOW /* a rank's sends in flight (see exec) */

typedef struct {
    int P, N, root, valid;
    int lock; /* sends wait for the rank's receives of earlier rounds (see exec) */
    double d;
    int *k, *phase;   /* [P] the key: round of each arrival, ranks by phase within the round */
    int *k2, *phase2; /* [P] a new key, compared with the old */
    int *tmp;         /* [P] sort scratch */
    double *pat, *f;  /* [P] sanitised arrivals, their phases */
    papcoll__cv_sched_t s;
    int *start; /* [P+1]: rank r's transfers are idx[start[r] .. start[r+1]) */
    int *idx;   /* [icap] */
    int icap;
    uint64_t hash; /* of N, d, root and the transfers */
} cv_t;

static const char owner; /* marks the plan data as this planner's */

static void cv_free(void *p)
{
    cv_t *c = p;

    papcoll__cv_free(&c->s);
    free(c->idx);
    free(c);
}

static cv_t *cv_get(papcoll__plan_t *plan, int P)
{
    cv_t *c = papcoll__plan_xdata(plan, &owner);
    size_t ints = 6 * (size_t)P + 1;

    if (c != NULL && c->P == P)
        return c;
    if ((c = calloc(1, sizeof(*c) + 2 * (size_t)P * sizeof(double) + ints * sizeof(int))) == NULL)
        return NULL;
    c->P = P;
    c->pat = (double *)(c + 1);
    c->f = c->pat + P;
    c->k = (int *)(c->f + P);
    c->phase = c->k + P;
    c->k2 = c->phase + P;
    c->phase2 = c->k2 + P;
    c->tmp = c->phase2 + P;
    c->start = c->tmp + P;
    papcoll__plan_xdata_set(plan, &owner, c, cv_free);
    return c;
}

/* The range of the finite predictions; 0 when there are none. */
static int finite_range(const double *pred, int P, double *lo, double *hi)
{
    *lo = INFINITY, *hi = -INFINITY;
    for (int i = 0; i < P; i++)
        if (isfinite(pred[i])) {
            *lo = pred[i] < *lo ? pred[i] : *lo;
            *hi = pred[i] > *hi ? pred[i] : *hi;
        }
    return *lo <= *hi;
}

/* Arrivals from the plan's predictions (see the top of the file); 0 when
 * there are none (balanced). */
static int sanitise(const double *pred, int P, double d, double *pat)
{
    double lo, hi, x;
    int i;

    if (!finite_range(pred, P, &lo, &hi))
        return 0;
    for (i = 0; i < P; i++) {
        x = isfinite(pred[i]) ? pred[i] - lo : hi - lo;
        pat[i] = x > CV_MAX_SPREAD * d ? CV_MAX_SPREAD * d : x;
    }
    return 1;
}

/* A new schedule for the key in k2/phase2; its index and hash. */
static int generate(cv_t *c, const double *pat)
{
    int rc, need;

    papcoll__cv_free(&c->s);
    c->valid = 0;
    if ((rc = papcoll__cv_fast(c->P, c->N, c->d, c->root, pat, &c->s)) != PAPCOLL_OK ||
        (rc = papcoll__cv_elide(&c->s)) != PAPCOLL_OK)
        return rc;
    if ((need = 2 * c->s.n + 1) > c->icap) {
        int *idx = realloc(c->idx, (size_t)need * sizeof(int));
        if (idx == NULL)
            return PAPCOLL_ERR_NOMEM;
        c->idx = idx;
        c->icap = need;
    }
    papcoll__cv_rank_index(&c->s, c->start, c->idx);
    memcpy(c->k, c->k2, (size_t)c->P * sizeof(int));
    memcpy(c->phase, c->phase2, (size_t)c->P * sizeof(int));
    c->hash = papcoll__fnv(
        papcoll__fnv(papcoll__fnv(0xCBF29CE484222325ull, &c->N, sizeof(c->N)), &c->d, sizeof(c->d)), &c->root,
        sizeof(c->root));
    c->hash = papcoll__fnv(c->hash, c->s.x, (size_t)c->s.n * sizeof(*c->s.x));
    c->valid = 1;
    return PAPCOLL_OK;
}

int papcoll__plan_red_clairvoyant(papcoll__plan_t *plan, const papcoll__plan_in_t *in)
{
    const papcoll__model_t *m = &in->ctx->model;
    cv_t *c = cv_get(plan, in->P);
    int P = in->P, N, has, same;
    double d, ra = papcoll__model_ralpha(m);

    if (c == NULL)
        return PAPCOLL_ERR_NOMEM; /* the site's first plan only */
    if (!in->ctx->has_model || in->bytes == 0) {
        c->valid =
            in->bytes == 0; /* nothing to move; without a model (cannot happen: the site measured it) */
        plan->xhash = 0;
        return c->valid ? PAPCOLL_OK : PAPCOLL_ERR_STATE;
    }
    N = in->ctx->cv_segments > 0
            ? in->ctx->cv_segments
            : papcoll__model_sparse_segments(m, P, in->bytes, plan->density, in->ctx->segment_bytes);
    N = (long long)N * P > CV_MAX_PN ? CV_MAX_PN / P : N;
    d = papcoll__model_round(m, (double)in->bytes / N);
    d = d > 1e-9 ? d : 1e-9; /* a model of zeros (P = 1) */
    c->lock = d - ra >= CV_LOCK_RATIO * ra;
    if ((has = sanitise(plan->pred, P, d, c->pat)) && plan->noise > 0) {
        papcoll__cv_sort(P, c->pat, c->tmp, c->phase2); /* phase2: scratch until split below */
        papcoll__cv_cluster(P, c->tmp, plan->noise, c->pat);
    }
    papcoll__cv_split_times(P, d, has ? c->pat : NULL, c->k2, c->f, NULL);
    papcoll__cv_sort(P, c->f, c->phase2, c->tmp);
    same = c->valid && c->N == N && c->d == d && c->root == in->root &&
           memcmp(c->k, c->k2, (size_t)P * sizeof(int)) == 0 &&
           memcmp(c->phase, c->phase2, (size_t)P * sizeof(int)) == 0;
    c->N = N, c->d = d, c->root = in->root;
    if (!same) {
        int rc = generate(c, has ? c->pat : NULL);
        if (rc != PAPCOLL_OK)
            return rc;
    }
    plan->xhash = c->hash;
    return PAPCOLL_OK;
}

/* First element of segment s of N over count elements. */
static int seg_lo(int count, int N, int s)
{
    return (int)((long long)count * s / N);
}

/* One transfer of this rank, an event of its segment. */
typedef struct {
    const papcoll__cv_xfer_t *x;
    int next;           /* send: this rank's next send to the same receiver (event index; -1: none) */
    int slot;           /* receive: its buffer slot once posted */
    int bytes;          /* receive: bytes arrived (-1: not yet) */
    unsigned char back; /* receive: the segment comes back to this sink (its previous event was a send) */
    unsigned char held; /* send: in the lock's list of held segments */
    unsigned char full; /* send: in the list of segments waiting for room in the window */
} ev_t;

/* A rank's execution state. */
typedef struct {
    const papcoll__args_t *a;
    const cv_t *c;
    char *work;          /* the vector */
    ev_t *ev;            /* [m] grouped by segment, in round order within each */
    int *first, *cur;    /* [N+1], [N]: segment s's events ev[first[s] .. first[s+1]), the next one */
    int m, started;      /* events, events done */
    int *rx, nr, posted; /* [nr] receive events in round order (the posting order); posted so far */
    char *slots;         /* [W] receive buffers of smax bytes */
    size_t smax;
    int W, *slot_ev, *freeslot, nfree; /* [W] the event a posted slot holds; the free slots */
    MPI_Request *rreq;                 /* [W] receives, by slot */
    MPI_Request *sreq;   /* [N] the send of each segment, while in flight; rreq follows */
    int *to;             /* [N] the receiver of segment s's send in flight, or -1 */
    int *head;           /* [P] per receiver: the next send to start (event; -1: none) */
    int fly;             /* sends in flight */
    int *win, nwin;      /* [N] segments whose next event is a send the window holds */
    int *todo, ntodo;    /* segments to advance */
    int lock;            /* the plan's lock, on dense segments only (see the top of the file) */
    int arrived;         /* receives arrived, in round order: rx[0 .. arrived) */
    int *held, nheld;    /* [N] segments whose next event is a send the lock holds */
    const void *id;      /* the site's identity (sparse.h), or NULL: dense segments */
    char *enc;           /* sparse: the encoding of each segment in flight (segment s at s's
                            offset + 4 s bytes) */
    double sent_enc, sent_dense; /* sparse: bytes of the encodings sent, and of what they encode */
} exec_t;

static char *seg_at(const exec_t *e, int s)
{
    return e->work + (size_t)seg_lo(e->a->sig.count, e->c->N, s) * e->a->sig.esize;
}

static int seg_n(const exec_t *e, int s)
{
    return seg_lo(e->a->sig.count, e->c->N, s + 1) - seg_lo(e->a->sig.count, e->c->N, s);
}

/* Where the runs of a sparse segment that comes back go. */
typedef struct {
    const papcoll__args_t *a;
    char *seg;
} runs_t;

static int copy_run(void *arg, size_t off, size_t len, char *data)
{
    const runs_t *r = arg;

    memcpy(r->seg + off * r->a->sig.esize, data, len * r->a->sig.esize);
    return 0;
}

/* Posts receives in round order while slots are free. */
static int post(exec_t *e)
{
    const papcoll__args_t *a = e->a;
    int rc = PAPCOLL_OK;

    while (rc == PAPCOLL_OK && e->posted < e->nr && e->nfree > 0) {
        int k = e->rx[e->posted++], slot = e->freeslot[--e->nfree], s = e->ev[k].x->segment;
        size_t n = (size_t)seg_n(e, s);

        e->ev[k].slot = slot;
        e->slot_ev[slot] = k;
        rc = papcoll__irecv_bytes(e->slots + (size_t)slot * e->smax,
                                  e->id != NULL ? papcoll__sparse_bound(n, a->sig.esize) : n * a->sig.esize,
                                  e->ev[k].x->sender, PAPCOLL__TAG_DATA, a->comm, &e->rreq[slot]);
    }
    return rc;
}

/* Starts a send: its segment leaves in the background; the next send to
 * the same receiver may start now if the window has room. */
static int start_send(exec_t *e, ev_t *v)
{
    const papcoll__args_t *a = e->a;
    int s = v->x->segment, r = v->x->receiver;

    e->head[r] = v->next;
    e->fly++;
    e->to[s] = r;
    if (v->next >= 0)
        e->todo[e->ntodo++] = e->ev[v->next].x->segment;
    if (e->id == NULL)
        return papcoll__isend_bytes(seg_at(e, s), (size_t)seg_n(e, s) * a->sig.esize, v->x->receiver,
                                    PAPCOLL__TAG_DATA, a->comm, &e->sreq[s]);
    char *buf = e->enc + (size_t)seg_lo(a->sig.count, e->c->N, s) * a->sig.esize + 4 * (size_t)s;
    size_t dense = (size_t)seg_n(e, s), n = papcoll__sparse_encode(seg_at(e, s), dense, a->sig.esize, e->id, buf);

    e->sent_enc += (double)n;
    e->sent_dense += (double)dense * (double)a->sig.esize;
    return papcoll__isend_bytes(buf, n, v->x->receiver, PAPCOLL__TAG_DATA, a->comm, &e->sreq[s]);
}

/* Segment s's send completed: its place in the window goes to the waiting
 * send of the earliest round, and a partial that came back to s may be
 * taken. */
static void sent(exec_t *e, int s)
{
    int i, best = 0;

    e->to[s] = -1;
    e->fly--;
    for (i = 1; i < e->nwin; i++)
        if (e->ev[e->cur[e->win[i]]].x->round < e->ev[e->cur[e->win[best]]].x->round)
            best = i;
    if (e->nwin > 0) {
        e->ev[e->cur[e->win[best]]].full = 0;
        e->todo[e->ntodo++] = e->win[best];
        e->win[best] = e->win[--e->nwin];
    }
    e->todo[e->ntodo++] = s;
}

/* Takes an arrived partial: combines it into the segment or, when it comes
 * back to this sink, makes it the segment (the sink's own send of it is
 * done: advance waits for it); frees its slot for the next receive. */
static int take(exec_t *e, ev_t *v)
{
    const papcoll__args_t *a = e->a;
    size_t es = a->sig.esize, n;
    int s = v->x->segment, rc = PAPCOLL_OK;
    char *buf = e->slots + (size_t)v->slot * e->smax;

    n = (size_t)seg_n(e, s);
    if (e->id == NULL && v->back)
        papcoll__copy(seg_at(e, s), buf, n * es);
    else if (e->id == NULL)
        rc = papcoll__reduce_local(a, buf, seg_at(e, s), (int)n);
    else if (!v->back)
        rc = papcoll__red_combine_sparse(a, buf, (size_t)v->bytes, seg_at(e, s), (int)n, 1);
    else {
        runs_t r = {a, seg_at(e, s)};
        size_t i;

        for (i = 0; i < n; i++)
            memcpy(seg_at(e, s) + i * es, e->id, es);
        rc = papcoll__sparse_runs(buf, (size_t)v->bytes, n, es, copy_run, &r);
        rc = rc < 0 ? PAPCOLL_ERR_TRUNCATE : rc;
    }
    e->freeslot[e->nfree++] = v->slot;
    return rc == PAPCOLL_OK ? post(e) : rc;
}

/* 1 when the lock holds send v: a receive of an earlier round has not arrived. */
static int locked(const exec_t *e, const ev_t *v)
{
    return e->lock && e->arrived < e->nr && e->ev[e->rx[e->arrived]].x->round < v->x->round;
}

/* Moves the arrived prefix on and queues the held sends it frees. */
static void unlock(exec_t *e)
{
    int i, k = 0, before = e->arrived;

    if (!e->lock)
        return;
    while (e->arrived < e->nr && e->ev[e->rx[e->arrived]].bytes >= 0)
        e->arrived++;
    if (e->arrived == before)
        return;
    for (i = 0; i < e->nheld; i++) {
        int s = e->held[i];
        if (locked(e, &e->ev[e->cur[s]]))
            e->held[k++] = s;
        else {
            e->ev[e->cur[s]].held = 0;
            e->todo[e->ntodo++] = s;
        }
    }
    e->nheld = k;
}

/* Runs segment s's events in round order until one must wait: a send for
 * an earlier send to its receiver to start, for room in the window or,
 * under the lock, for an earlier round's receive; a receive for its
 * message and, coming back, for the segment's send to complete. */
static int advance(exec_t *e, int s)
{
    int rc = PAPCOLL_OK;

    for (; rc == PAPCOLL_OK && e->cur[s] < e->first[s + 1]; e->cur[s]++, e->started++) {
        ev_t *v = &e->ev[e->cur[s]];
        int r = v->x->receiver;

        if (v->x->sender == e->a->rank ? e->head[r] != e->cur[s] : v->bytes < 0 || (v->back && e->to[s] >= 0))
            break;
        if (v->x->sender == e->a->rank && e->fly >= CV_WINDOW) {
            if (!v->full)
                e->win[e->nwin++] = s;
            v->full = 1;
            break;
        }
        if (v->x->sender == e->a->rank && locked(e, v)) {
            if (!v->held)
                e->held[e->nheld++] = s;
            v->held = 1;
            break;
        }
        rc = v->x->sender == e->a->rank ? start_send(e, v) : take(e, v);
    }
    return rc;
}

/* This rank's events from its transfers (schedule order), the first send
 * to each receiver; last[P] scratch. */
static void events(exec_t *e, int *last)
{
    const cv_t *c = e->c;
    int me = e->a->rank, t, s, k, *pos = e->cur;
    const papcoll__cv_xfer_t *x;

    memset(e->first, 0, (size_t)(c->N + 1) * sizeof(int));
    for (t = c->start[me]; t < c->start[me + 1]; t++)
        e->first[c->s.x[c->idx[t]].segment + 1]++;
    for (s = 0; s < c->N; s++) {
        e->first[s + 1] += e->first[s];
        pos[s] = e->first[s];
    }
    for (t = 0; t < c->P; t++)
        last[t] = e->head[t] = -1;
    for (t = c->start[me]; t < c->start[me + 1]; t++) {
        x = &c->s.x[c->idx[t]];
        k = pos[x->segment]++;
        e->ev[k] = (ev_t){.x = x, .next = -1, .slot = -1, .bytes = -1};
        if (x->sender == me) {
            if (last[x->receiver] >= 0)
                e->ev[last[x->receiver]].next = k;
            else
                e->head[x->receiver] = k;
            last[x->receiver] = k;
        } else {
            e->ev[k].back = k > e->first[x->segment] && e->ev[k - 1].x->sender == me;
            e->rx[e->nr++] = k;
        }
    }
    for (s = 0; s < c->N; s++)
        e->cur[s] = e->first[s];
}

int papcoll_reduce_clairvoyant(const papcoll__args_t *a)
{
    const cv_t *c = a->plan->xdata;
    exec_t e = {.a = a, .c = c};
    int me = a->rank, i, s, done, rc = PAPCOLL_OK;
    MPI_Status *st = NULL;
    int *ints = NULL, *idx;

    if (a->bytes == 0)
        return PAPCOLL_OK;
    if (a->plan->xowner != &owner || !c->valid)
        return PAPCOLL_ERR_NOMEM; /* this rank could not build the schedule */
    e.m = c->start[me + 1] - c->start[me];
    e.W = e.m < c->N ? e.m : c->N;
    e.W = e.W > 0 ? e.W : 1;
    e.smax = (size_t)(a->sig.count / c->N + 1) * a->sig.esize + 4; /* + 4: a sparse encoding */
    e.id = papcoll__red_identity(a);
    e.lock = c->lock && e.id == NULL;
    e.work = me == a->root ? a->rbuf : papcoll__scratch(a, PAPCOLL__SCR_ACC, a->bytes);
    e.slots = papcoll__scratch(a, PAPCOLL__SCR_TMP, (size_t)e.W * e.smax);
    e.ev = malloc((size_t)e.m * sizeof(ev_t) + 1);
    e.sreq = malloc((size_t)c->N * sizeof(MPI_Request) + (size_t)e.W * sizeof(MPI_Request));
    st = malloc(((size_t)c->N + e.W) * sizeof(MPI_Status));
    ints = malloc(((size_t)7 * c->N + 5 * (size_t)e.m + 3 * (size_t)e.W + 2 * (size_t)c->P + 1) * sizeof(int));
    e.enc = e.id != NULL ? papcoll__scratch(a, PAPCOLL__SCR_ENC, a->bytes + 4 * (size_t)c->N) : NULL;
    if (e.work == NULL || e.slots == NULL || e.ev == NULL || e.sreq == NULL || st == NULL || ints == NULL ||
        (e.id != NULL && e.enc == NULL)) {
        rc = PAPCOLL_ERR_NOMEM;
        goto out;
    }
    e.rreq = e.sreq + c->N;
    e.first = ints;
    e.cur = e.first + c->N + 1;
    e.todo = e.cur + c->N; /* N + 4 m: every segment once, one per arrival, per started, per held
                              send and two per completed one */
    e.held = e.todo + c->N + 4 * e.m; /* N */
    e.rx = e.held + c->N;             /* m */
    e.slot_ev = e.rx + e.m;       /* W */
    e.freeslot = e.slot_ev + e.W; /* W */
    e.to = e.freeslot + e.W;      /* N */
    e.win = e.to + c->N;          /* N */
    e.head = e.win + c->N;        /* P */
    idx = e.head + c->P;          /* N + W, then P of scratch */
    for (i = 0; i < c->N; i++)
        e.sreq[i] = MPI_REQUEST_NULL, e.to[i] = -1;
    for (i = 0; i < e.W; i++) {
        e.rreq[i] = MPI_REQUEST_NULL;
        e.freeslot[e.nfree++] = e.W - 1 - i;
    }
    events(&e, idx + c->N + e.W); /* P ints of scratch after idx */
    papcoll__copy(e.work, a->sbuf, a->bytes);
    rc = post(&e);
    for (s = 0; s < c->N; s++)
        e.todo[e.ntodo++] = s;
    while (rc == PAPCOLL_OK) {
        while (rc == PAPCOLL_OK && e.ntodo > 0)
            rc = advance(&e, e.todo[--e.ntodo]);
        if (rc != PAPCOLL_OK || e.started == e.m)
            break;
        /* the sends (sreq[0..N)) and the receive slots (rreq = sreq + N) */
        if ((rc = papcoll__fg_waitsome(c->N + e.W, e.sreq, &done, idx, st, a->nap)) != PAPCOLL_OK)
            break;
        if (done == MPI_UNDEFINED) {
            rc = PAPCOLL_ERR_STATE; /* nothing to wait for, yet events left: not a valid schedule */
            break;
        }
        for (i = 0; i < done && rc == PAPCOLL_OK; i++) {
            ev_t *v = idx[i] >= c->N ? &e.ev[e.slot_ev[idx[i] - c->N]] : NULL;

            if (v == NULL) {
                sent(&e, idx[i]);
                continue;
            }
            rc = PAPCOLL__ERR(PMPI_Get_count(&st[i], MPI_BYTE, &v->bytes));
            e.todo[e.ntodo++] = v->x->segment;
        }
        unlock(&e);
    }
    if (rc == PAPCOLL_OK)
        rc = papcoll__fg_waitall(c->N, e.sreq, MPI_STATUSES_IGNORE, a->nap);
    if (e.sent_dense > 0) /* for the next plans' segment count (papcoll__model_density) */
        a->x->sent_density = e.sent_enc / e.sent_dense;
out:
    free(e.ev);
    free(e.sreq);
    free(st);
    free(ints);
    return rc;
}
