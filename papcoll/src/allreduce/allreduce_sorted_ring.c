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
 * COMMUTATIVE_ONLY, reproducible for a given plan (AGREE).
 *
 * No position's reduce stream waits for anything downstream: a position
 * receives and combines every segment as it comes, and starts its sends
 * with at most WIN in flight, the rest as those complete; position 0 posts
 * all the result's receives before it sends.  Nobody sends to a rank that
 * has not entered the call: each rank tells its predecessor "send now" (an
 * empty message) on entry, and the predecessor's first segment waits for it
 * (without it, eager segments piled up in the TCP buffers of a rank still
 * computing).  And each stream of segments ends with an empty synchronous
 * send (PAPCOLL__TAG_FLUSH), which completes once the receiver has taken
 * the whole stream; the sender waits for it before its next phase or its
 * return.  Without any such end, with rank 5 of 8 late by 50 ms (1 MiB),
 * 10 of 20 calls took 277-472 ms instead of about 80, in steps of about one
 * papbench iteration (100 ms): some transfer waited for some rank's next
 * MPI call.  Sending synchronously only the last segment of each rank's
 * final stream left 11 of 20 calls slow (191-457 ms); the last segment of
 * every stream removed them (20 of 20 in 75-112 ms), and so does the empty
 * send (40 of 40 in 68-125 ms), which costs no rendezvous: a synchronous
 * segment above 64 KiB with its header waits for one at every hop (about 5
 * ms more in a balanced call).  Which transfer waited is not known yet
 * (docs/bcast-allreduce.md, "sorted_ring").
 * Memory: one segment; position 0 a request per segment.
 */
#include <stdlib.h>

#include "allreduce/engine.h"
#include "bcast/engine.h"

/* Sends in flight per rank: enough to keep a port busy while the next
 * segment is combined, few enough not to flood a rank that still computes. */
#define WIN 4

typedef struct {
    const papcoll__args_t *a;
    size_t segel, nseg; /* elements per segment, segments */
    int prev, next;     /* ranks of positions q - 1 and q + 1 (mod P) */
    MPI_Request win[WIN];
    MPI_Request go;                 /* next's "send now", until it came */
    MPI_Request end_in[2], end_out; /* the streams' ends received (a phase each), sent */
    size_t sent;                    /* segments of the current phase whose send has started */
} ring_t;

static size_t seg_n(const ring_t *g, size_t i)
{
    size_t lo = i * g->segel, n = (size_t)g->a->sig.count;

    return n - lo < g->segel ? n - lo : g->segel;
}

static char *seg_at(const ring_t *g, const char *buf, size_t i)
{
    return (char *)buf + i * g->segel * g->a->sig.esize;
}

/* Starts the sends of the ready segments sent .. ready-1 of buf while a
 * slot is free; block: waits for slots until all of them have started. */
static int pump(ring_t *g, const char *buf, size_t ready, int block)
{
    int k, flag = 1, rc = PAPCOLL_OK;

    if (g->sent < ready && g->go != MPI_REQUEST_NULL)
        rc = block ? PAPCOLL__ERR(PMPI_Wait(&g->go, MPI_STATUS_IGNORE))
                   : PAPCOLL__ERR(PMPI_Test(&g->go, &flag, MPI_STATUS_IGNORE));
    if (!flag)
        return rc; /* next is not in the call yet */
    while (g->sent < ready && rc == PAPCOLL_OK) {
        for (k = 0; k < WIN && g->win[k] != MPI_REQUEST_NULL; k++)
            ;
        if (k == WIN) {
            rc = block ? PAPCOLL__ERR(PMPI_Waitany(WIN, g->win, &k, MPI_STATUS_IGNORE))
                       : PAPCOLL__ERR(PMPI_Testany(WIN, g->win, &k, &flag, MPI_STATUS_IGNORE));
            if (rc != PAPCOLL_OK || k == MPI_UNDEFINED)
                break; /* (not blocking) none has completed */
        }
        rc = papcoll__isend_bytes(seg_at(g, buf, g->sent), seg_n(g, g->sent) * g->a->sig.esize, g->next,
                                  PAPCOLL__TAG_DATA, g->a->comm, &g->win[k]);
        g->sent++;
    }
    return rc;
}

/* Starts what is left of the phase's sends and completes them all (their
 * segments are free again), then ends the stream with an empty synchronous
 * send, complete once next has received the whole stream. */
static int drain(ring_t *g, const char *buf)
{
    int rc = pump(g, buf, g->nseg, 1);

    g->sent = 0;
    rc = rc ? rc : PAPCOLL__ERR(PMPI_Waitall(WIN, g->win, MPI_STATUSES_IGNORE));
    rc = rc ? rc
            : PAPCOLL__ERR(
                  PMPI_Issend(NULL, 0, MPI_BYTE, g->next, PAPCOLL__TAG_FLUSH, g->a->comm, &g->end_out));
    return rc ? rc : PAPCOLL__ERR(PMPI_Wait(&g->end_out, MPI_STATUS_IGNORE));
}

/* After the last segment of phase k's incoming stream: its end. */
static int ended(ring_t *g, int k)
{
    return papcoll__irecv_bytes(NULL, 0, g->prev, PAPCOLL__TAG_FLUSH, g->a->comm, &g->end_in[k]);
}

/* Position 0: posts the result's receives, sends x_0, then passes the
 * result on (forward) as it arrives from P-1. */
static int first(ring_t *g, int forward)
{
    const papcoll__args_t *a = g->a;
    MPI_Request *rq = malloc(g->nseg * sizeof(*rq));
    size_t i, posted = 0;
    int rc = rq ? PAPCOLL_OK : PAPCOLL_ERR_NOMEM;

    for (; posted < g->nseg && rc == PAPCOLL_OK; posted++)
        rc = papcoll__irecv_bytes(seg_at(g, a->rbuf, posted), seg_n(g, posted) * a->sig.esize, g->prev,
                                  PAPCOLL__TAG_DATA, a->comm, &rq[posted]);
    rc = rc ? rc : drain(g, a->sbuf);
    for (i = 0; i < g->nseg && rc == PAPCOLL_OK; i++) {
        rc = PAPCOLL__ERR(PMPI_Wait(&rq[i], MPI_STATUS_IGNORE));
        if (rc == PAPCOLL_OK && forward)
            rc = pump(g, a->rbuf, i + 1, 0);
    }
    rc = rc ? rc : ended(g, 1);
    if (rc != PAPCOLL_OK) /* no receive stays posted */
        for (i = 0; i < posted; i++)
            if (rq[i] != MPI_REQUEST_NULL) {
                PMPI_Cancel(&rq[i]);
                PMPI_Wait(&rq[i], MPI_STATUS_IGNORE);
            }
    free(rq);
    return rc ? rc : forward ? drain(g, a->rbuf) : PAPCOLL_OK;
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
            rc = papcoll__reduce_local(a, tmp, seg_at(g, a->rbuf, i), (int)seg_n(g, i));
        if (rc == PAPCOLL_OK)
            rc = pump(g, a->rbuf, i + 1, 0);
    }
    free(tmp);
    rc = rc ? rc : ended(g, 0);
    rc = rc ? rc : drain(g, a->rbuf);
    for (i = 0; i < g->nseg && rc == PAPCOLL_OK && !last; i++) {
        rc = papcoll__recv_bytes(seg_at(g, a->rbuf, i), seg_n(g, i) * e, g->prev, PAPCOLL__TAG_DATA, a->comm);
        if (rc == PAPCOLL_OK && forward)
            rc = pump(g, a->rbuf, i + 1, 0);
    }
    rc = rc || last ? rc : ended(g, 1);
    return rc ? rc : forward ? drain(g, a->rbuf) : PAPCOLL_OK;
}

int papcoll_allreduce_sorted_ring(const papcoll__args_t *a)
{
    const int *order = a->plan->order;
    int P = a->size, q, k, rc;
    ring_t g = {.a = a};
    MPI_Request here = MPI_REQUEST_NULL;
    /* left at the end: the incoming streams' ends, next's "send now" (these
     * three cancelled after an error), the own "send now" */
    MPI_Request *left[] = {&g.end_in[0], &g.end_in[1], &g.go, &here};

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
    g.end_in[0] = g.end_in[1] = g.end_out = g.go = MPI_REQUEST_NULL;
    if ((rc = papcoll__irecv_bytes(NULL, 0, g.next, PAPCOLL__TAG_SYNC, a->comm, &g.go)) == PAPCOLL_OK &&
        (rc = papcoll__isend_bytes(NULL, 0, g.prev, PAPCOLL__TAG_SYNC, a->comm, &here)) == PAPCOLL_OK)
        rc = q == 0 ? first(&g, P > 2) : later(&g, q == P - 1, q < P - 2);
    for (k = 0; k < 4; k++) {
        if (rc != PAPCOLL_OK && k < 3 && *left[k] != MPI_REQUEST_NULL)
            PMPI_Cancel(left[k]);
        PMPI_Wait(left[k], MPI_STATUS_IGNORE);
    }
    return rc;
}
