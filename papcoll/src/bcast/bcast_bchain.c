/*
 * bcast "bchain": the segmented linear pipeline of "chain" (Sanders
 * 13.1.4), ranks in predicted arrival order after the root, with every
 * non-root's receive and forward in its monitor thread (the background
 * idea of Proficz 2020, Sect. 4.1, applied to the pipeline).  The root
 * streams the vector in its call; every other rank's monitor thread
 * receives each segment and passes it on while it receives the next, from
 * the plan job on.  A rank that is still computing delays nobody, and the
 * pipeline carries the vector at the rate of one port: the root's port emits
 * it once.
 *
 *   root (call)    p1 (monitor)    p2 (monitor)    ...   p7 (monitor)
 *   header ---->   header ---->    header ---->          header
 *   seg 1  ---->   seg 1  ---->    seg 1  ---->          seg 1
 *   seg 2  ---->   seg 2  ---->    ...                   ...
 *   p_i's call: copy (or nothing, when the bound buffer is the call's)
 *
 * The first message is a header {bytes, segment} (the monitor knows neither
 * the call's size nor its datatype); segments are PAPCOLL_SEGMENT_BYTES
 * rounded to whole elements at the root.  The data waits in the bound
 * buffer when it fits, else in the staging buffer, as for bsorted.
 *
 * Cost, s segments: (P + s - 2)(alpha + beta n/s) after the root's arrival
 * (about n beta for large n), plus the background waits' polling (each
 * wait sleeps at most 200 us between tests, p2p.c).  A late non-root: its
 * data is there when it arrives (a copy); the late root delays everyone.
 * Why also "sorted" order, when the forwarding does not wait for the
 * application: the ranks predicted early get the data first, the latest
 * last, so the pipeline's latency (P - 1 hops) falls on the ranks that can
 * least use it.  Memory: one vector per non-root (staged) or none (bound).
 * Restrictions: needs the monitor thread, else it runs as chain.
 */
#include <stdint.h>

#include "bcast/engine.h"

int papcoll__plan_bcast_bchain(papcoll__plan_t *plan, const papcoll__plan_in_t *in)
{
    int rc = papcoll__plan_tree(plan, in, PAPCOLL__TREE_CHAIN, 1);

    if (rc == PAPCOLL_OK && in->order != NULL)
        papcoll__place_order(plan, in); /* the chain's depth order is its receive order */
    else if (rc == PAPCOLL_OK)
        papcoll__place_rotate(plan, in);
    return rc;
}

/* The root's part: header, then the segments, one after another. */
static int stream(const papcoll__args_t *a)
{
    const papcoll__tree_t *t = a->plan->tree;
    uint64_t head[2] = {a->bytes, papcoll__segment_bytes(a)};
    size_t off, len;
    int next, rc;

    if (papcoll__tree_nkids(t, t->root) == 0)
        return PAPCOLL_OK;
    next = a->plan->v2r[papcoll__tree_kid(t, t->root, 0)];
    rc = papcoll__send_bytes(head, sizeof(head), next, PAPCOLL__TAG_DATA, a->comm);
    for (off = 0; off < a->bytes && rc == PAPCOLL_OK; off += len) {
        len = a->bytes - off < head[1] ? a->bytes - off : head[1];
        rc = papcoll__send_bytes(a->rbuf + off, len, next, PAPCOLL__TAG_DATA, a->comm);
    }
    return rc;
}

/* Receives the header from prev and passes it to next (-1: none). */
static int header(papcoll__exec_t *x, int prev, int next, uint64_t *head)
{
    MPI_Request req;
    int rc = papcoll__irecv_bytes(head, 2 * sizeof(uint64_t), prev, PAPCOLL__TAG_DATA, x->comm, &req);

    if (rc == PAPCOLL_OK)
        rc = papcoll__bg_wait(&req);
    if (rc == PAPCOLL_OK && head[1] == 0 && head[0] != 0)
        rc = PAPCOLL_ERR_INVAL; /* only a vector of no bytes comes without segments */
    if (rc == PAPCOLL_OK && next >= 0)
        rc = papcoll__isend_bytes(head, 2 * sizeof(uint64_t), next, PAPCOLL__TAG_DATA, x->comm, &req);
    if (rc == PAPCOLL_OK && next >= 0)
        rc = papcoll__bg_wait(&req);
    return rc;
}

/* Receives the segments into buf, forwarding segment k while receiving
 * segment k + 1 (req[0]: receive, req[1]: send). */
static int relay(papcoll__exec_t *x, int prev, int next, char *buf, size_t n, size_t seg)
{
    MPI_Request req[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    size_t off, len, nlen;
    int rc = PAPCOLL_OK;

    if (n > 0)
        rc = papcoll__irecv_bytes(buf, n < seg ? n : seg, prev, PAPCOLL__TAG_DATA, x->comm, &req[0]);
    for (off = 0; off < n && rc == PAPCOLL_OK; off += len) {
        len = n - off < seg ? n - off : seg;
        if ((rc = papcoll__bg_wait(&req[0])) != PAPCOLL_OK)
            break;
        nlen = n - off - len < seg ? n - off - len : seg;
        if (nlen > 0)
            rc = papcoll__irecv_bytes(buf + off + len, nlen, prev, PAPCOLL__TAG_DATA, x->comm, &req[0]);
        if (rc == PAPCOLL_OK && next >= 0 && (rc = papcoll__bg_wait(&req[1])) == PAPCOLL_OK)
            rc = papcoll__isend_bytes(buf + off, len, next, PAPCOLL__TAG_DATA, x->comm, &req[1]);
    }
    return rc ? rc : papcoll__bg_waitall(2, req, MPI_STATUSES_IGNORE);
}

int papcoll__bcast_bchain_bg(papcoll__exec_t *x, int root)
{
    const papcoll__plan_t *plan = x->plan;
    const papcoll__tree_t *t = plan->tree;
    papcoll__stage_t *st = &x->stage[0];
    int v = plan->r2v[x->ctx->rank], prev, next, rc;
    uint64_t head[2];
    char *buf;

    (void)root; /* the plan was built for it */
    st->len = 0;
    if (t->parent[v] < 0)
        return PAPCOLL_OK; /* the root streams in its call */
    prev = plan->v2r[t->parent[v]];
    next = papcoll__tree_nkids(t, v) > 0 ? plan->v2r[papcoll__tree_kid(t, v, 0)] : -1;
    if ((rc = header(x, prev, next, head)) != PAPCOLL_OK)
        return rc;
    if (x->bound != NULL && head[0] <= x->bound_bytes)
        buf = x->bound;
    else if ((rc = papcoll__stage_reserve(st, (size_t)head[0])) == PAPCOLL_OK)
        buf = st->buf;
    else
        return rc;
    if ((rc = relay(x, prev, next, buf, (size_t)head[0], (size_t)head[1])) == PAPCOLL_OK)
        st->len = (size_t)head[0];
    return rc;
}

int papcoll_bcast_bchain(const papcoll__args_t *a)
{
    if (a->rank == a->root)
        return stream(a);
    return papcoll__bcast_bg_deliver(a);
}
