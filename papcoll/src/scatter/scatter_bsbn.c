/*
 * scatter "bsbn": Background Sorted BiNomial tree (Proficz 2020, Fig. 8).
 * The tree and placement of sbn; every non-root rank receives its range and
 * forwards its children's ranges in the monitor thread, so a process that
 * is still computing does not hold up the data of its subtree.
 * One late first receiver: max(a1 - a0, r_BN) (Eq. 15).
 * Memory: span(v) staged blocks per non-root rank (reused), one memcpy.
 */
#include <stdlib.h>
#include <string.h>

#include "scatter/engine.h"
#include "sched/sched.h"

static int forward(papcoll__exec_t *x, const int *v2r, int v, size_t bytes)
{
    int P = x->ctx->size, children[32], nc = papcoll__bn_children(v, P, children), i, rc;
    const char *buf = x->stage[0].buf;
    MPI_Request req;

    for (i = 0; i < nc; i++) {
        rc = papcoll__isend_bytes(buf + (size_t)(children[i] - v) * bytes,
                                  (size_t)papcoll__bn_span(children[i], P) * bytes, v2r[children[i]],
                                  PAPCOLL__TAG_DATA, x->comm, &req);
        if (rc == PAPCOLL_OK)
            rc = papcoll__bg_wait(&req);
        if (rc != PAPCOLL_OK)
            return rc;
    }
    return PAPCOLL_OK;
}

int papcoll__scatter_bsbn_bg(papcoll__exec_t *x, int root)
{
    int P = x->ctx->size, v, span, rc;
    const int *maps = x->plan->v2r;
    papcoll__stage_t *st = &x->stage[0];

    (void)root; /* the plan was built for it */
    v = x->plan->r2v[x->ctx->rank];
    span = papcoll__bn_span(v, P);
    st->len = 0;
    rc = PAPCOLL_OK;
    if (v != 0)
        rc = papcoll__bg_recv(st, maps[papcoll__bn_parent(v)], PAPCOLL__TAG_DATA, x->comm, NULL);
    if (rc == PAPCOLL_OK && v != 0 && st->len % (size_t)span != 0)
        rc = PAPCOLL_ERR_TRUNCATE;
    if (rc == PAPCOLL_OK && v != 0)
        rc = forward(x, maps, v, st->len / (size_t)span);
    return rc;
}

int papcoll_scatter_bsbn(const papcoll__args_t *a)
{
    const int *maps = a->plan->v2r;
    papcoll__stage_t *st = &a->x->stage[0];
    int rc;

    if (a->rank == a->root)
        rc = papcoll__scatter_bn_root(a, maps);
    else if ((rc = papcoll__exec_wait_bg(a->x)) == PAPCOLL_OK) {
        if (st->len != (size_t)papcoll__bn_span(a->plan->r2v[a->rank], a->size) * a->bytes)
            rc = PAPCOLL_ERR_TRUNCATE;
        else
            papcoll__copy(a->rbuf, st->buf, a->bytes);
    }
    return rc;
}
