/*
 * Binomial gathers: the generic engine behind bnom and sbn, and helpers of
 * bsbn.  The tree is the contiguous-subtree binomial tree of sched.h; only
 * the placement of ranks on vranks differs between the wrappers.
 *
 *   P = 6, classic placement (root 0):     round 0: 1->0 3->2 5->4
 *        0                                 round 1: 2->0
 *      / | \                               round 2: 4->0
 *     4  2  1
 *     |  |
 *     5  3
 *
 * The placement of ranks on vranks is the plan's (plan.c: classic for bnom,
 * by predicted arrival for sbn), built once per plan, not per call.
 * Each node receives all its children at once into one buffer of span(v)
 * blocks (its subtree is the contiguous vrank range [v, v + span)), then
 * sends the buffer to its parent.  The root un-permutes vrank order into
 * rank order unless the placement is the identity.
 * Cost: ceil(log2 P) alpha + (P-1)(N/P) beta (Proficz 2020, Eq. 7).
 * Memory: span(v) blocks per interior node, P blocks at the root if permuted.
 */
#include <stdlib.h>
#include <string.h>

#include "gather/engine.h"
#include "sched/sched.h"

static int recv_children(const papcoll__args_t *a, const int *v2r, int v, char *buf)
{
    int children[32], nc = papcoll__bn_children(v, a->size, children), i, rc, got;
    MPI_Request reqs[32];
    MPI_Status sts[32];

    for (i = 0; i < nc; i++) {
        size_t len = (size_t)papcoll__bn_span(children[i], a->size) * a->bytes;
        rc = papcoll__irecv_bytes(buf + (size_t)(children[i] - v) * a->bytes, len, v2r[children[i]],
                                  PAPCOLL__TAG_DATA, a->comm, &reqs[i]);
        if (rc != PAPCOLL_OK)
            return rc;
    }
    if ((rc = papcoll__waitall(nc, reqs, sts)) != PAPCOLL_OK)
        return rc;
    for (i = 0; i < nc; i++) {
        PMPI_Get_count(&sts[i], MPI_BYTE, &got);
        if ((size_t)got != (size_t)papcoll__bn_span(children[i], a->size) * a->bytes)
            return PAPCOLL_ERR_TRUNCATE;
    }
    return PAPCOLL_OK;
}

static int is_identity(int P, const int *v2r)
{
    int v;

    for (v = 0; v < P; v++)
        if (v2r[v] != v)
            return 0;
    return 1;
}

static int run(const papcoll__args_t *a, const int *v2r, const int *r2v)
{
    int v = r2v[a->rank], span = papcoll__bn_span(v, a->size), w, rc, in_place;
    const char *own = a->sbuf ? a->sbuf : a->rbuf + (size_t)a->root * a->bytes;
    char *buf;

    if (span == 1 && v != 0)
        return papcoll__send_bytes(a->sbuf, a->bytes, v2r[papcoll__bn_parent(v)], PAPCOLL__TAG_DATA,
                                   a->comm);
    in_place = v == 0 && is_identity(a->size, v2r); /* the root's rbuf: NULL is legal when bytes is 0 */
    buf = in_place ? a->rbuf : malloc((size_t)span * a->bytes + 1);
    if (!in_place && buf == NULL)
        return PAPCOLL_ERR_NOMEM;
    if (buf != own)
        papcoll__copy(buf, own, a->bytes);
    rc = recv_children(a, v2r, v, buf);
    if (rc == PAPCOLL_OK && v != 0)
        rc = papcoll__send_bytes(buf, (size_t)span * a->bytes, v2r[papcoll__bn_parent(v)],
                                 PAPCOLL__TAG_DATA, a->comm);
    else if (rc == PAPCOLL_OK && buf != a->rbuf)
        for (w = 0; w < a->size; w++)
            papcoll__copy(a->rbuf + (size_t)v2r[w] * a->bytes, buf + (size_t)w * a->bytes, a->bytes);
    if (buf != a->rbuf)
        free(buf);
    return rc;
}

int papcoll__gather_bn_engine(const papcoll__args_t *a)
{
    return run(a, a->plan->v2r, a->plan->r2v);
}
