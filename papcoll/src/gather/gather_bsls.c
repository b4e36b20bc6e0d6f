/*
 * gather "bsls": Background Sorted Linear Synchronized tree (Proficz 2020,
 * Fig. 10).  The root's side of SLS runs in the monitor thread as soon as
 * the plan exists (at the edge), so leaves that finish computing early
 * deliver their blocks while the root itself is still computing.  The
 * foreground root only waits (and, without a bound buffer, copies the
 * staged blocks into place).
 *
 * Flat PAP: as LS.  Late root: max(a0 - a1, r_LS) (Eq. 20).
 * Memory: with papcoll_site_bind_recv() none, the blocks land in the bound
 * buffer; otherwise the root stages P-1 blocks (reused across calls) and
 * copies N bytes at the call.  Only the root uses the order.
 */
#include <string.h>

#include "gather/engine.h"

/* Staged pull of leaf r: A's size is learnt by probing, B (= A or A + 1
 * bytes, B = bytes - bytes/2) is posted with room for A + 1. */
static int pull_staged(papcoll__exec_t *x, int r, MPI_Request *req_b)
{
    papcoll__stage_t *st = &x->stage[r];
    size_t a_len = 0;
    int rc;

    st->len = 0;
    if ((rc = papcoll__send_bytes(NULL, 0, r, PAPCOLL__TAG_SYNC, x->comm)) != PAPCOLL_OK ||
        (rc = papcoll__bg_recv(st, r, PAPCOLL__TAG_SEGA, x->comm, &a_len)) != PAPCOLL_OK ||
        (rc = papcoll__stage_reserve(st, 2 * a_len + 1)) != PAPCOLL_OK)
        return rc;
    return papcoll__irecv_bytes(st->buf + a_len, a_len + 1, r, PAPCOLL__TAG_SEGB, x->comm, req_b);
}

int papcoll__gather_bsls_bg(papcoll__exec_t *x, int root)
{
    int P = x->ctx->size, i, r, n = 0, rc = PAPCOLL_OK, got;
    MPI_Request *reqs = x->bg.reqs;
    MPI_Status *sts = x->bg.sts;
    int *src = x->bg.ints;

    if (x->ctx->rank != root)
        return PAPCOLL_OK;
    for (i = 0; i < P && rc == PAPCOLL_OK; i++) {
        r = x->plan->order[i];
        if (r == root)
            continue;
        src[n] = r;
        rc = x->bound ? papcoll__ls_pull(x->comm, r, x->bound + (size_t)r * x->bound_bytes,
                                            x->bound_bytes, &reqs[n++], 1)
                         : pull_staged(x, r, &reqs[n++]);
    }
    if (rc == PAPCOLL_OK)
        rc = papcoll__bg_waitall(n, reqs, sts);
    if (rc != PAPCOLL_OK || x->bound)
        return rc != PAPCOLL_OK ? rc : papcoll__ls_check_b(n, sts, x->bound_bytes);
    for (i = 0; i < n; i++) {
        PMPI_Get_count(&sts[i], MPI_BYTE, &got);
        x->stage[src[i]].len_b = (size_t)got;
    }
    return PAPCOLL_OK;
}

/* Copies every leaf's block from the bound buffer or its stage into rbuf. */
static int place(const papcoll__args_t *a)
{
    const papcoll__exec_t *x = a->x;
    const papcoll__stage_t *st;
    int r;

    if (x->bound && x->bound_bytes != a->bytes)
        return PAPCOLL_ERR_TRUNCATE;
    for (r = 0; r < a->size; r++) {
        size_t off = (size_t)r * a->bytes;
        if (r == a->root)
            continue;
        if (x->bound) {
            if (x->bound != a->rbuf)
                papcoll__copy(a->rbuf + off, x->bound + off, a->bytes);
            continue;
        }
        st = &x->stage[r];
        if (st->len != a->bytes / 2 || st->len + st->len_b != a->bytes)
            return PAPCOLL_ERR_TRUNCATE;
        papcoll__copy(a->rbuf + off, st->buf, a->bytes);
    }
    return PAPCOLL_OK;
}

int papcoll_gather_bsls(const papcoll__args_t *a)
{
    int rc;

    if (a->rank != a->root)
        return papcoll__gather_ls_leaf(a);
    if (a->sbuf != NULL)
        papcoll__copy(a->rbuf + (size_t)a->root * a->bytes, a->sbuf, a->bytes);
    if ((rc = papcoll__exec_wait_bg(a->x)) != PAPCOLL_OK)
        return rc;
    return place(a);
}
