/*
 * allreduce "weighted_ring": the ring reduce-scatter + allgather in
 * predicted arrival order with block sizes planned from the predicted
 * arrivals (sched/wring.h; docs/bcast-allreduce.md, "weighted_ring").
 *
 * Equal blocks make it the ring, which moves the least through every port
 * when arrivals are balanced (2(P-1)/P n each way); one block holding the
 * whole vector makes it a chain along the arrival order and back, the
 * shape of sorted_ring, which pre-reduces the most while late ranks
 * compute but sends 2n through the middle ports.  Under a spread of
 * arrivals the late ranks' ports bound both: the ring's latest rank still
 * sends 1.75 n after it arrives (P = 8), sorted_ring's ranks just before it
 * 2n.  The planner moves parts of the vector between blocks while the port
 * model of wring.h says the ring ends earlier, so that the late ranks send
 * less and the early ones, who wait anyway, more.  It plans in bytes of
 * the vector; the executor cuts the blocks at whole elements.
 *
 * Plan (built in the monitor after the PAT exchange, this file's plan
 * data): positions from the plan's order, arrivals from the predictions
 * (an unknown one counts as the latest known), the model's alpha, beta and
 * gamma, segments of PAPCOLL_SEGMENT_BYTES; spreads below the predictor's
 * noise plan equal blocks (no search), and so does P > 16 (the search
 * tries every pair of blocks: about P^2 evaluations of O(P n / seg) per
 * move size).  At P = 8 and 1 MiB a search takes 200-400 evaluations.
 * The blocks are the same on every rank (same exchanged bytes, AGREE;
 * their hash is the plan's xhash).
 *
 * Execution: each position runs one stream out to the next position and
 * one in from the previous one, in the order of wring.h (its own block,
 * then every received segment of the reduce-scatter, combined, and of the
 * allgather, passed on, the last block received excepted), segment by
 * segment: out item k >= n0 (n0: segments of its own block) is in item
 * k - n0 once that has arrived.  Receives are posted in stream order, at
 * most WIN ahead, the reduce-scatter's into slots, the allgather's straight
 * into the result once this rank's own send of that region has completed;
 * at most WIN sends are in flight.  Nobody sends before its next position
 * has entered the call (an empty "send now", as in sorted_ring), and the
 * stream ends with an empty synchronous send that completes once the next
 * position has taken all of it (sorted_ring's reason: a rank that returns
 * while its last segments are still queued leaves them to its next MPI
 * call).  Every block is reduced on one path and copied: all ranks end
 * with the same bytes, bit for bit for a given plan; the association
 * follows the ring from the block's entry position: COMMUTATIVE_ONLY.
 *
 * Cost: the port model's time (wring.h); balanced, the ring's
 * 2(P-1)(alpha + n beta / P) plus one segment's fill per step.  Memory:
 * WIN segments; per call two entries per item of the rank's streams.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "allreduce/engine.h"
#include "bcast/engine.h"
#include "sched/wring.h"

#define WIN 4 /* receives posted ahead, and sends in flight */

typedef struct {
    int P, valid;
    size_t *len;  /* [P] bytes of each block, by entry position */
    double *arr;  /* [P] arrivals by position */
    double *work; /* the port model's workspace */
    size_t wcap;
} wr_t;

static const char owner; /* marks the plan data as this planner's */

static void wr_free(void *p)
{
    wr_t *w = p;

    free(w->work);
    free(w);
}

static wr_t *wr_get(papcoll__plan_t *plan, int P)
{
    wr_t *w = papcoll__plan_xdata(plan, &owner);

    if (w != NULL && w->P == P)
        return w;
    if ((w = calloc(1, sizeof(*w) + (size_t)P * (sizeof(size_t) + sizeof(double)))) == NULL)
        return NULL;
    w->P = P;
    w->len = (size_t *)(w + 1);
    w->arr = (double *)(w->len + P);
    papcoll__plan_xdata_set(plan, &owner, w, wr_free);
    return w;
}

int papcoll__plan_ar_weighted_ring(papcoll__plan_t *plan, const papcoll__plan_in_t *in)
{
    const papcoll__model_t *m = &in->ctx->model;
    wr_t *w = wr_get(plan, in->P);
    papcoll__wring_model_t pm = {0, 0, 0, 1, in->ctx->segment_bytes > 0 ? in->ctx->segment_bytes : 1};
    double lo = INFINITY, hi = -INFINITY, x, spread = INFINITY;
    int P = in->P, q;
    size_t need;

    if (w == NULL)
        return PAPCOLL_ERR_NOMEM; /* the site's first plan only */
    w->valid = 0;
    for (q = 0; q < P; q++) {
        x = in->order != NULL ? plan->pred[in->order[q]] : NAN;
        lo = isfinite(x) && x < lo ? x : lo;
        hi = isfinite(x) && x > hi ? x : hi;
    }
    for (q = 0; q < P; q++) {
        x = in->order != NULL ? plan->pred[in->order[q]] : NAN;
        w->arr[q] = lo <= hi ? (isfinite(x) ? x : hi) - lo : 0;
    }
    if (in->ctx->has_model && lo <= hi) { /* else equal blocks */
        pm.alpha = m->v[PAPCOLL__M_ALPHA];
        pm.beta = m->v[PAPCOLL__M_BETA];
        pm.gamma = m->v[PAPCOLL__M_GAMMA];
        spread = plan->noise;
    }
    if (P <= PAPCOLL__WRING_MAX_P && (need = papcoll__wring_work(P, in->bytes, pm.seg)) > w->wcap) {
        double *work = realloc(w->work, need * sizeof(double));
        if (work == NULL)
            return PAPCOLL_ERR_NOMEM; /* a rank that cannot plan fails its call (like clairvoyant) */
        w->work = work;
        w->wcap = need;
    }
    papcoll__wring_plan(P, w->arr, in->bytes, &pm, spread, w->len, w->work);
    w->valid = 1;
    plan->xhash = papcoll__fnv(0xCBF29CE484222325ull, w->len, (size_t)P * sizeof(size_t));
    return PAPCOLL_OK;
}

/* One segment of the in stream. */
typedef struct {
    size_t off, n; /* elements of the vector */
    int rs;        /* a reduce-scatter segment (combined), else allgather (in place) */
} item_t;

typedef struct {
    const papcoll__args_t *a;
    int prev, next;
    item_t *in;                   /* [nin] the in stream */
    int nin, nrs, n0;             /* items; of them reduce-scatter; segments of the own block */
    int nout;                     /* out items: the own block's n0, then in[0 .. nout - n0) */
    size_t own, own_end, segel;   /* the own block's elements [own, own_end) */
    unsigned char *sent;          /* [nout] the send has completed */
    char *slots;                  /* WIN segments */
    MPI_Request req[1 + 2 * WIN]; /* go, receives (in item mod WIN), sends (window slot) */
    int win_item[WIN];            /* the out item of each send slot */
} ring_t;

/* Segments of elements [lo, hi) appended to in (NULL: only counted). */
static int segments(const ring_t *g, item_t *in, int k, size_t lo, size_t hi, int rs)
{
    size_t j;

    for (j = lo; j < hi; j += g->segel, k++)
        if (in != NULL)
            in[k] = (item_t){j, hi - j < g->segel ? hi - j : g->segel, rs};
    return k;
}

/* The in stream of position q (the out stream of q - 1) and the counts;
 * boff[P+1] the blocks' element offsets.  The out stream is the own block,
 * then the in stream but its last step (wring.h): the allgather's in items
 * follow the reduce-scatter's out items one to one (blocks q, q-1, ..,
 * q-P+2, the same segments), so allgather in item nrs + i lands where out
 * item i was sent from. */
static int items(ring_t *g, int P, int q, const size_t *boff)
{
    int t, b, last = 0;

    g->n0 = segments(g, NULL, 0, boff[q], boff[q + 1], 0);
    g->own = boff[q];
    g->own_end = boff[q + 1];
    for (g->nin = 0, t = 0; t < 2 * (P - 1); t++) {
        b = papcoll__wring_block(P, (q + P - 1) % P, t);
        last = g->nin;
        g->nin = segments(g, NULL, g->nin, boff[b], boff[b + 1], 0);
    }
    if ((g->in = malloc((size_t)g->nin * sizeof(item_t) + (size_t)g->nin + (size_t)g->n0 + 1)) == NULL)
        return PAPCOLL_ERR_NOMEM;
    for (g->nin = 0, t = 0; t < 2 * (P - 1); t++) {
        b = papcoll__wring_block(P, (q + P - 1) % P, t);
        g->nin = segments(g, g->in, g->nin, boff[b], boff[b + 1], t <= P - 2);
        if (t == P - 2)
            g->nrs = g->nin;
    }
    g->nout = g->n0 + last;
    g->sent = (unsigned char *)(g->in + g->nin);
    memset(g->sent, 0, (size_t)g->nout);
    return PAPCOLL_OK;
}

/* Elements of out item k and where they are. */
static char *out_at(const ring_t *g, int k, size_t *n)
{
    size_t off = k < g->n0 ? g->own + (size_t)k * g->segel : g->in[k - g->n0].off;

    if (k < g->n0) {
        size_t rest = g->own_end - off;
        *n = rest < g->segel ? rest : g->segel;
    } else
        *n = g->in[k - g->n0].n;
    return g->a->rbuf + off * g->a->sig.esize;
}

/* Posts the in stream's receives in order, at most WIN ahead of those
 * taken; an allgather segment only once its region's own send completed. */
static int post(ring_t *g, int *posted, int taken)
{
    const papcoll__args_t *a = g->a;
    int rc = PAPCOLL_OK;

    while (rc == PAPCOLL_OK && *posted < g->nin && *posted - taken < WIN) {
        const item_t *it = &g->in[*posted];
        char *dst = it->rs ? g->slots + (size_t)(*posted % WIN) * g->segel * a->sig.esize
                           : a->rbuf + it->off * a->sig.esize;
        if (!it->rs && !g->sent[*posted - g->nrs])
            break;
        rc = papcoll__irecv_bytes(dst, it->n * a->sig.esize, g->prev, PAPCOLL__TAG_DATA, a->comm,
                                  &g->req[1 + *posted % WIN]);
        ++*posted;
    }
    return rc;
}

/* Starts the ready out items while a send slot is free and next is in the call. */
static int pump(ring_t *g, int *started, int taken)
{
    int k, rc = PAPCOLL_OK;
    size_t n;

    while (rc == PAPCOLL_OK && g->req[0] == MPI_REQUEST_NULL && *started < g->nout &&
           (*started < g->n0 || *started - g->n0 < taken)) {
        for (k = 0; k < WIN && g->req[1 + WIN + k] != MPI_REQUEST_NULL; k++)
            ;
        if (k == WIN)
            break;
        char *src = out_at(g, *started, &n);
        g->win_item[k] = *started;
        rc = papcoll__isend_bytes(src, n * g->a->sig.esize, g->next, PAPCOLL__TAG_DATA, g->a->comm,
                                  &g->req[1 + WIN + k]);
        ++*started;
    }
    return rc;
}

/* Both streams, to the end of the in stream and the completion of every send. */
static int streams(ring_t *g)
{
    const papcoll__args_t *a = g->a;
    int posted = 0, taken = 0, started = 0, done = 0, idx, rc = PAPCOLL_OK;

    while (rc == PAPCOLL_OK && (taken < g->nin || done < g->nout)) {
        if ((rc = post(g, &posted, taken)) != PAPCOLL_OK || (rc = pump(g, &started, taken)) != PAPCOLL_OK)
            break;
        /* Only the oldest receive is waited for: the stream is taken in order. */
        MPI_Request set[2 + WIN];
        set[0] = g->req[0];
        set[1] = taken < posted ? g->req[1 + taken % WIN] : MPI_REQUEST_NULL;
        memcpy(set + 2, g->req + 1 + WIN, WIN * sizeof(MPI_Request));
        if ((rc = PAPCOLL__ERR(PMPI_Waitany(2 + WIN, set, &idx, MPI_STATUS_IGNORE))) != PAPCOLL_OK)
            break;
        if (idx == MPI_UNDEFINED) {
            rc = PAPCOLL_ERR_STATE; /* nothing to wait for, yet items left: cannot happen */
            break;
        }
        if (idx == 0)
            g->req[0] = MPI_REQUEST_NULL; /* next is in the call */
        else if (idx == 1) {
            const item_t *it = &g->in[taken];
            g->req[1 + taken % WIN] = MPI_REQUEST_NULL;
            if (it->rs)
                rc = papcoll__reduce_local(a, g->slots + (size_t)(taken % WIN) * g->segel * a->sig.esize,
                                           a->rbuf + it->off * a->sig.esize, (int)it->n);
            taken++;
        } else {
            g->req[1 + WIN + idx - 2] = MPI_REQUEST_NULL;
            g->sent[g->win_item[idx - 2]] = 1;
            done++;
        }
    }
    return rc;
}

int papcoll_allreduce_weighted_ring(const papcoll__args_t *a)
{
    const wr_t *w = a->plan->xdata;
    const int *order = a->plan->order;
    int P = a->size, q, b, k, rc;
    ring_t g = {.a = a};
    MPI_Request here = MPI_REQUEST_NULL, end_in = MPI_REQUEST_NULL, end_out = MPI_REQUEST_NULL;
    size_t boff[PAPCOLL__WRING_MAX_P + 1], *bo = boff, cum = 0;

    papcoll__copy(a->rbuf, a->sbuf, a->bytes);
    if (P == 1 || a->bytes == 0)
        return PAPCOLL_OK;
    if (a->plan->xowner != &owner || !w->valid)
        return PAPCOLL_ERR_NOMEM; /* this rank could not plan */
    if (P > PAPCOLL__WRING_MAX_P && (bo = malloc((size_t)(P + 1) * sizeof(size_t))) == NULL)
        return PAPCOLL_ERR_NOMEM;
    for (b = 0; b <= P; b++) { /* the plan's byte blocks cut at whole elements */
        bo[b] = cum / a->sig.esize;
        cum += b < P ? w->len[b] : 0;
    }
    bo[P] = (size_t)a->sig.count;
    for (q = 0; order[q] != a->rank; q++)
        ;
    g.segel = papcoll__segment_bytes(a) / a->sig.esize;
    g.prev = order[(q + P - 1) % P];
    g.next = order[(q + 1) % P];
    for (k = 0; k < 1 + 2 * WIN; k++)
        g.req[k] = MPI_REQUEST_NULL;
    rc = items(&g, P, q, bo);
    if (bo != boff)
        free(bo);
    if (rc == PAPCOLL_OK &&
        (g.slots = papcoll__scratch(a, PAPCOLL__SCR_TMP, WIN * g.segel * a->sig.esize)) == NULL)
        rc = PAPCOLL_ERR_NOMEM;
    if (rc == PAPCOLL_OK &&
        (rc = papcoll__irecv_bytes(NULL, 0, g.next, PAPCOLL__TAG_SYNC, a->comm, &g.req[0])) == PAPCOLL_OK &&
        (rc = papcoll__isend_bytes(NULL, 0, g.prev, PAPCOLL__TAG_SYNC, a->comm, &here)) == PAPCOLL_OK &&
        (rc = streams(&g)) == PAPCOLL_OK &&
        (rc = papcoll__irecv_bytes(NULL, 0, g.prev, PAPCOLL__TAG_FLUSH, a->comm, &end_in)) == PAPCOLL_OK)
        rc = PAPCOLL__ERR(PMPI_Issend(NULL, 0, MPI_BYTE, g.next, PAPCOLL__TAG_FLUSH, a->comm, &end_out));
    if (rc != PAPCOLL_OK) /* leave no receive posted */
        for (k = 0; k < 1 + WIN; k++)
            if (g.req[k] != MPI_REQUEST_NULL)
                PMPI_Cancel(&g.req[k]);
    PMPI_Waitall(1 + 2 * WIN, g.req, MPI_STATUSES_IGNORE);
    PMPI_Wait(&end_out, MPI_STATUS_IGNORE);
    PMPI_Wait(&end_in, MPI_STATUS_IGNORE);
    PMPI_Wait(&here, MPI_STATUS_IGNORE);
    free(g.in);
    return rc;
}
