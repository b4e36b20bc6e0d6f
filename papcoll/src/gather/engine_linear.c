/*
 * Linear gathers: the generic engines behind lin, ls, sls and bsls.
 *
 * Linear synchronized (LS, Proficz 2020 Sect. 2.1 and Fig. 9): the root
 * pulls every leaf's block in two segments A and B; a leaf sends only after
 * the root's empty "sync" message, so the root controls the order in which
 * blocks cross its port.  B of one leaf overlaps with A of the next.
 *
 *   root:  for r in order: irecv A(r); send sync(r); irecv B(r); wait A(r)
 *          wait all B
 *   leaf:  recv sync; send A; send B
 *
 * Cost for a flat PAP: (P-1)(3 alpha + (N/P) beta) (Eq. 5).
 */
#include <string.h>

#include "gather/engine.h"

/* Leaf side of LS, SLS and BSLS. */
int papcoll__gather_ls_leaf(const papcoll__args_t *a)
{
    size_t half = a->bytes / 2;
    int rc;

    if ((rc = papcoll__recv_bytes(NULL, 0, a->root, PAPCOLL__TAG_SYNC, a->comm)) != PAPCOLL_OK)
        return rc;
    if ((rc = papcoll__send_bytes(a->sbuf, half, a->root, PAPCOLL__TAG_SEGA, a->comm)) != PAPCOLL_OK)
        return rc;
    return papcoll__send_bytes(a->sbuf + half, a->bytes - half, a->root, PAPCOLL__TAG_SEGB, a->comm);
}

/* Pulls leaf r's block into dst: A is awaited, B is left in *req_b.
 * In the monitor thread (bg) the wait polls instead of spinning. */
int papcoll__ls_pull(MPI_Comm comm, int r, char *dst, size_t bytes, MPI_Request *req_b, int bg)
{
    size_t half = bytes / 2;
    MPI_Request req_a;
    MPI_Status st;
    int rc, n = 0;

    if ((rc = papcoll__irecv_bytes(dst, half, r, PAPCOLL__TAG_SEGA, comm, &req_a)) != PAPCOLL_OK ||
        (rc = papcoll__send_bytes(NULL, 0, r, PAPCOLL__TAG_SYNC, comm)) != PAPCOLL_OK ||
        (rc = papcoll__irecv_bytes(dst + half, bytes - half, r, PAPCOLL__TAG_SEGB, comm, req_b)) !=
            PAPCOLL_OK)
        return rc;
    rc = bg ? papcoll__bg_waitall(1, &req_a, &st) : PAPCOLL__ERR(PMPI_Wait(&req_a, &st));
    if (rc != PAPCOLL_OK)
        return rc;
    PMPI_Get_count(&st, MPI_BYTE, &n);
    return (size_t)n == half ? PAPCOLL_OK : PAPCOLL_ERR_TRUNCATE;
}

/* Checks that every segment B of n pulls had the size of a block's second half. */
int papcoll__ls_check_b(int n, const MPI_Status *sts, size_t bytes)
{
    int i, got;

    for (i = 0; i < n; i++) {
        PMPI_Get_count(&sts[i], MPI_BYTE, &got);
        if ((size_t)got != bytes - bytes / 2)
            return PAPCOLL_ERR_TRUNCATE;
    }
    return PAPCOLL_OK;
}

/* Root side of LS / SLS: leaves pulled in the given order (NULL: ranks). */
int papcoll__gather_ls_engine(const papcoll__args_t *a, const int *order)
{
    MPI_Request *reqs = a->x->fg.reqs;
    MPI_Status *sts = a->x->fg.sts;
    int i, r, n = 0, rc = PAPCOLL_OK;

    if (a->rank != a->root)
        return papcoll__gather_ls_leaf(a);
    if (a->sbuf != NULL)
        papcoll__copy(a->rbuf + (size_t)a->root * a->bytes, a->sbuf, a->bytes);
    for (i = 0; i < a->size && rc == PAPCOLL_OK; i++) {
        r = order ? order[i] : i;
        if (r != a->root)
            rc = papcoll__ls_pull(a->comm, r, a->rbuf + (size_t)r * a->bytes, a->bytes, &reqs[n++], 0);
    }
    if (rc != PAPCOLL_OK)
        return rc;
    if ((rc = papcoll__waitall(n, reqs, sts)) != PAPCOLL_OK)
        return rc;
    return papcoll__ls_check_b(n, sts, a->bytes);
}
