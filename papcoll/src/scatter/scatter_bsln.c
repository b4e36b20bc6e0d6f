/*
 * scatter "bsln": Background Sorted LiNear tree (Proficz 2020, Fig. 6).
 * The root sends as slin; every leaf receives its block in the monitor
 * thread from the edge on, so an early root is never blocked by a leaf that
 * is still computing.  One late first receiver: max(a1 - a0, r_LIN)
 * (Eq. 11).  Memory: with papcoll_site_bind_recv() none, the block lands in
 * the bound buffer; otherwise one staged block per leaf and one memcpy.
 */
#include <string.h>

#include "scatter/engine.h"

int papcoll__scatter_bsln_bg(papcoll__exec_t *x, int root)
{
    papcoll__stage_t *st = &x->stage[0];
    MPI_Request req;
    MPI_Status status;
    int rc, got = 0;

    if (x->ctx->rank == root)
        return PAPCOLL_OK;
    st->len = 0;
    if (!x->bound)
        return papcoll__bg_recv(st, root, PAPCOLL__TAG_DATA, x->comm, NULL);
    rc = papcoll__irecv_bytes(x->bound, x->bound_bytes, root, PAPCOLL__TAG_DATA, x->comm, &req);
    if (rc == PAPCOLL_OK)
        rc = papcoll__bg_waitall(1, &req, &status);
    if (rc == PAPCOLL_OK)
        PMPI_Get_count(&status, MPI_BYTE, &got);
    st->len = (size_t)got;
    return rc;
}

int papcoll_scatter_bsln(const papcoll__args_t *a)
{
    const papcoll__exec_t *x = a->x;
    int rc;

    if (a->rank == a->root)
        return papcoll__scatter_lin_root(a, a->plan->order);
    if ((rc = papcoll__exec_wait_bg(a->x)) != PAPCOLL_OK)
        return rc;
    if (x->stage[0].len != a->bytes)
        return PAPCOLL_ERR_TRUNCATE;
    if (x->bound != a->rbuf)
        papcoll__copy(a->rbuf, x->bound ? x->bound : x->stage[0].buf, a->bytes);
    return PAPCOLL_OK;
}
