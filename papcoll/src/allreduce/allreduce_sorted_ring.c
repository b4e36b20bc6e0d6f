/*
 * allreduce "sorted_ring": a segmented ring in predicted arrival order
 * (positions q = 0 .. P-1, the plan's order, earliest first), in which the
 * reduction runs along the arrival order and the result comes back round
 * the ring.  Reduce: position 0 sends its vector segment by segment to
 * position 1; position q combines each segment it receives with its own
 * (R_q = R_q-1 (op) x_q) and passes it on; the last position P-1 (the
 * predicted latest arrival) completes each segment of the result.  Result:
 * P-1 sends the finished segments to position 0, and they travel on around
 * the ring to position P-2.
 *
 *   positions 0 .. 4 (P = 5), segments flow:
 *     reduce   0 --x0--> 1 --R1--> 2 --R2--> 3 --R3--> 4 (R4 = result)
 *     result   4 --R4--> 0 --R4--> 1 --R4--> 2 --R4--> 3
 *
 * Why not the ring reduce-scatter of "ring" in arrival order: there block b's
 * combine path starts at position b + 1, so the block whose path starts at
 * the latest rank still needs P - 1 steps after it arrives, whatever the
 * order; the ring's run time after the last arrival stays 2(P-1)(alpha + n
 * beta/P).  Here every path starts at the earliest rank: while the late
 * ranks compute, the early ones have already reduced everything they can,
 * and the vector waiting for the latest rank is the pre-reduced R_P-2.
 *
 * Cost, s segments of n/s bytes, a hop g = alpha + (n/s)(beta + gamma):
 * flat PAP, a pipeline of 2P - 2 hops whose middle ports each send 2n
 * (2s segments): about (2s + P - 2) g, i.e. 2 n beta plus the fill; the
 * latest rank arriving last by a margin: (s + P - 1) g after its arrival
 * (ring: 2(P-1)(alpha + n beta/P) after it).
 * The result is computed once, by the last position, and copied: every rank
 * gets the same bytes; the association follows the plan's order:
 * COMMUTATIVE_ONLY, reproducible for a given plan (AGREE).  Memory: one
 * segment.
 */
#include <stdlib.h>

#include "allreduce/engine.h"
#include "bcast/engine.h"

/* Outstanding sends per rank: enough to keep a port busy while the next
 * segment is combined, few enough to bound the requests for any s. */
#define WIN 4

typedef struct {
    const papcoll__args_t *a;
    size_t segel, nseg; /* elements per segment, segments */
    int prev, next;     /* ranks of positions q - 1 and q + 1 (mod P) */
    MPI_Request win[WIN];
    size_t nsent;
} ring_t;

static size_t seg_n(const ring_t *g, size_t i)
{
    size_t lo = i * g->segel, n = (size_t)g->a->sig.count;

    return n - lo < g->segel ? n - lo : g->segel;
}

static int seg_send(ring_t *g, const char *buf, size_t i)
{
    MPI_Request *slot = &g->win[g->nsent++ % WIN];
    int rc = PAPCOLL__ERR(PMPI_Wait(slot, MPI_STATUS_IGNORE));

    if (rc != PAPCOLL_OK)
        return rc;
    return papcoll__isend_bytes(buf + i * g->segel * g->a->sig.esize, seg_n(g, i) * g->a->sig.esize, g->next,
                                PAPCOLL__TAG_DATA, g->a->comm, slot);
}

static int drain(ring_t *g)
{
    return PAPCOLL__ERR(PMPI_Waitall(WIN, g->win, MPI_STATUSES_IGNORE));
}

/* Position 0: sends x_0, collects the result from P-1 (receives posted up
 * to WIN segments ahead, so the last position never waits for it). */
static int first(ring_t *g, int forward)
{
    const papcoll__args_t *a = g->a;
    MPI_Request rq[WIN];
    size_t i, e = a->sig.esize;
    int k, rc = PAPCOLL_OK;

    for (k = 0; k < WIN; k++)
        rq[k] = MPI_REQUEST_NULL;
    for (i = 0; i < g->nseg && rc == PAPCOLL_OK; i++) {
        if ((rc = PAPCOLL__ERR(PMPI_Wait(&rq[i % WIN], MPI_STATUS_IGNORE))) != PAPCOLL_OK)
            break;
        rc = papcoll__irecv_bytes(a->rbuf + i * g->segel * e, seg_n(g, i) * e, g->prev, PAPCOLL__TAG_DATA,
                                  a->comm, &rq[i % WIN]);
        if (rc == PAPCOLL_OK)
            rc = seg_send(g, a->sbuf, i);
    }
    rc = rc ? rc : drain(g);
    for (i = 0; i < g->nseg && rc == PAPCOLL_OK; i++) {
        rc = PAPCOLL__ERR(PMPI_Wait(&rq[i % WIN], MPI_STATUS_IGNORE));
        if (rc == PAPCOLL_OK && forward)
            rc = seg_send(g, a->rbuf, i);
    }
    if (rc != PAPCOLL_OK)
        for (k = 0; k < WIN; k++)
            if (rq[k] != MPI_REQUEST_NULL) {
                PMPI_Cancel(&rq[k]);
                PMPI_Wait(&rq[k], MPI_STATUS_IGNORE);
            }
    return rc ? rc : drain(g);
}

/* Positions 1 .. P-1: combine each received segment with x_q and pass it on
 * (the last position's output is the result); then, but for the last,
 * receive the result and pass it on unless forward is 0. */
static int later(ring_t *g, int last, int forward)
{
    const papcoll__args_t *a = g->a;
    size_t i, e = a->sig.esize;
    char *tmp = malloc(g->segel * e + 1);
    int rc = tmp ? PAPCOLL_OK : PAPCOLL_ERR_NOMEM;

    for (i = 0; i < g->nseg && rc == PAPCOLL_OK; i++) {
        rc = papcoll__recv_bytes(tmp, seg_n(g, i) * e, g->prev, PAPCOLL__TAG_DATA, a->comm);
        if (rc == PAPCOLL_OK) /* R_q-1 (op) x_q */
            rc = papcoll__reduce_local(a, tmp, a->rbuf + i * g->segel * e, (int)seg_n(g, i));
        if (rc == PAPCOLL_OK)
            rc = seg_send(g, a->rbuf, i);
    }
    free(tmp);
    rc = rc ? rc : drain(g); /* the partial segments are free again */
    for (i = 0; i < g->nseg && rc == PAPCOLL_OK && !last; i++) {
        rc = papcoll__recv_bytes(a->rbuf + i * g->segel * e, seg_n(g, i) * e, g->prev, PAPCOLL__TAG_DATA,
                                 a->comm);
        if (rc == PAPCOLL_OK && forward)
            rc = seg_send(g, a->rbuf, i);
    }
    return rc ? rc : drain(g);
}

int papcoll_allreduce_sorted_ring(const papcoll__args_t *a)
{
    const int *order = a->plan->order;
    int P = a->size, q, k;
    ring_t g = {a, 0, 0, 0, 0, {0}, 0};

    papcoll__copy(a->rbuf, a->sbuf, a->bytes);
    if (P == 1 || a->bytes == 0)
        return PAPCOLL_OK;
    for (q = 0; order[q] != a->rank; q++)
        ;
    g.segel = papcoll__segment_bytes(a) / a->sig.esize;
    g.nseg = ((size_t)a->sig.count + g.segel - 1) / g.segel;
    g.prev = order[(q + P - 1) % P];
    g.next = order[(q + 1) % P];
    for (k = 0; k < WIN; k++)
        g.win[k] = MPI_REQUEST_NULL;
    if (q == 0)
        return first(&g, P > 2);
    return later(&g, q == P - 1, q < P - 2);
}
