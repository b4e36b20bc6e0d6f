/*
 * gather "bsbn": Background Sorted BiNomial tree (Proficz 2020, Fig. 12).
 * The tree and placement of sbn; every interior node receives its
 * children's subtrees in the monitor thread from the moment the plan exists,
 * and the foreground only forwards (or, at the root, places) the result.
 * A late interior node therefore no longer holds up its subtree's transfers.
 * Late root: max(a0 - a1, r_BN) (Eq. 24).
 * Memory: each interior node stages its subtree (reused across calls) and
 * copies it once more into the outgoing buffer.  All ranks share the plan.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gather/engine.h"
#include "sched/sched.h"

/* Receives every child's subtree into stage[child], whichever comes first. */
static int recv_children(papcoll__exec_t *x, int nc, const int *children, const int *v2r)
{
    int pending[32], np = nc, i, flag, n, rc;
    MPI_Message msg;
    MPI_Status st;
    MPI_Request req;
    struct timespec nap = {0, 20000};

    for (i = 0; i < nc; i++) {
        pending[i] = children[i];
        x->stage[children[i]].len = 0;
    }
    while (np > 0) {
        for (i = 0, flag = 0; i < np && !flag; i++) {
            papcoll__stage_t *sg = &x->stage[pending[i]];
            if ((rc = papcoll__improbe(v2r[pending[i]], PAPCOLL__TAG_DATA, x->comm, &flag, &msg, &st)) !=
                MPI_SUCCESS)
                return PAPCOLL__ERR(rc);
            if (!flag)
                continue;
            PMPI_Get_count(&st, MPI_BYTE, &n);
            if ((rc = papcoll__stage_reserve(sg, (size_t)n)) != PAPCOLL_OK)
                return rc;
            if ((rc = PAPCOLL__ERR(papcoll__imrecv(sg->buf, n, MPI_BYTE, &msg, &req))) != PAPCOLL_OK ||
                (rc = papcoll__bg_wait(&req)) != PAPCOLL_OK)
                return rc;
            sg->len = (size_t)n;
            pending[i] = pending[--np];
        }
        if (!flag)
            nanosleep(&nap, NULL);
    }
    return PAPCOLL_OK;
}

int papcoll__gather_bsbn_bg(papcoll__exec_t *x, int root)
{
    int P = x->ctx->size, children[32], nc;

    (void)root; /* the plan was built for it */
    nc = papcoll__bn_children(x->plan->r2v[x->ctx->rank], P, children);
    return recv_children(x, nc, children, x->plan->v2r);
}

/* Writes the subtree of v (own block + staged children) to rank order at
 * the root, or packs it in vrank order into out for the parent. */
static int assemble(const papcoll__args_t *a, const int *v2r, int v, char *out)
{
    int children[32], nc = papcoll__bn_children(v, a->size, children), i, k, span;
    const char *own = a->sbuf ? a->sbuf : a->rbuf + (size_t)a->root * a->bytes;
    papcoll__stage_t *sg;

    if (v == 0 && a->sbuf != NULL)
        papcoll__copy(a->rbuf + (size_t)a->root * a->bytes, own, a->bytes);
    else if (v != 0)
        papcoll__copy(out, own, a->bytes);
    for (i = 0; i < nc; i++) {
        span = papcoll__bn_span(children[i], a->size);
        sg = &a->x->stage[children[i]];
        if (sg->len != (size_t)span * a->bytes)
            return PAPCOLL_ERR_TRUNCATE;
        if (v != 0) {
            papcoll__copy(out + (size_t)(children[i] - v) * a->bytes, sg->buf, sg->len);
            continue;
        }
        for (k = 0; k < span; k++)
            papcoll__copy(a->rbuf + (size_t)v2r[children[i] + k] * a->bytes, sg->buf + (size_t)k * a->bytes,
                   a->bytes);
    }
    return PAPCOLL_OK;
}

int papcoll_gather_bsbn(const papcoll__args_t *a)
{
    const int *maps = a->plan->v2r;
    int v, span, rc;
    char *out = NULL;

    v = a->plan->r2v[a->rank];
    span = papcoll__bn_span(v, a->size);
    rc = papcoll__exec_wait_bg(a->x);
    if (rc == PAPCOLL_OK && v != 0 && span == 1)
        rc = papcoll__send_bytes(a->sbuf, a->bytes, maps[papcoll__bn_parent(v)], PAPCOLL__TAG_DATA,
                                 a->comm);
    else if (rc == PAPCOLL_OK) {
        if (v != 0 && (out = malloc((size_t)span * a->bytes + 1)) == NULL)
            rc = PAPCOLL_ERR_NOMEM;
        if (rc == PAPCOLL_OK)
            rc = assemble(a, maps, v, out);
        if (rc == PAPCOLL_OK && v != 0)
            rc = papcoll__send_bytes(out, (size_t)span * a->bytes, maps[papcoll__bn_parent(v)],
                                     PAPCOLL__TAG_DATA, a->comm);
        free(out);
    }
    return rc;
}
