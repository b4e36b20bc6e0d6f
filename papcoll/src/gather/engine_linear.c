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

#include "papcoll_internal.h"

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

static int pull_one(const papcoll__args_t *a, int r, MPI_Request *req_b)
{
    size_t half = a->bytes / 2;
    char *dst = a->rbuf + (size_t)r * a->bytes;
    MPI_Request req_a;
    MPI_Status st;
    int rc, n = 0;

    if ((rc = papcoll__irecv_bytes(dst, half, r, PAPCOLL__TAG_SEGA, a->comm, &req_a)) != PAPCOLL_OK ||
        (rc = papcoll__send_bytes(NULL, 0, r, PAPCOLL__TAG_SYNC, a->comm)) != PAPCOLL_OK ||
        (rc = papcoll__irecv_bytes(dst + half, a->bytes - half, r, PAPCOLL__TAG_SEGB, a->comm,
                                   req_b)) != PAPCOLL_OK)
        return rc;
    if ((rc = MPI_Wait(&req_a, &st)) != MPI_SUCCESS)
        return PAPCOLL__ERR(rc);
    MPI_Get_count(&st, MPI_BYTE, &n);
    return (size_t)n == half ? PAPCOLL_OK : PAPCOLL_ERR_TRUNCATE;
}

/* Root side of LS / SLS: leaves pulled in the given order (NULL: ranks). */
int papcoll__gather_ls_engine(const papcoll__args_t *a, const int *order)
{
    MPI_Request reqs[a->size];
    MPI_Status sts[a->size];
    int i, r, n = 0, rc = PAPCOLL_OK, got;

    if (a->rank != a->root)
        return papcoll__gather_ls_leaf(a);
    if (a->sbuf != NULL)
        papcoll__copy(a->rbuf + (size_t)a->root * a->bytes, a->sbuf, a->bytes);
    for (i = 0; i < a->size && rc == PAPCOLL_OK; i++) {
        r = order ? order[i] : i;
        if (r != a->root)
            rc = pull_one(a, r, &reqs[n++]);
    }
    if (rc != PAPCOLL_OK)
        return rc;
    if ((rc = MPI_Waitall(n, reqs, sts)) != MPI_SUCCESS)
        return PAPCOLL__ERR(rc);
    for (i = 0; i < n; i++) {
        MPI_Get_count(&sts[i], MPI_BYTE, &got);
        if ((size_t)got != a->bytes - a->bytes / 2)
            return PAPCOLL_ERR_TRUNCATE;
    }
    return PAPCOLL_OK;
}
