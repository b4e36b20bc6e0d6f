/*
 * gather "lin": linear tree (Open MPI basic_linear).  The root posts a
 * receive for every leaf at once and waits for all; leaves send their block.
 * Cost for a flat PAP: (P-1)(alpha + (N/P) beta) (Proficz 2020, Eq. 3).
 * Memory: none beyond the buffers.  Any P, any root.
 */
#include <string.h>

#include "gather/engine.h"

int papcoll_gather_lin(const papcoll__args_t *a)
{
    MPI_Request *reqs = a->x->fg.reqs;
    int r, n = 0, rc;

    if (a->rank != a->root)
        return papcoll__send_bytes(a->sbuf, a->bytes, a->root, PAPCOLL__TAG_DATA, a->comm);
    if (a->sbuf != NULL)
        papcoll__copy(a->rbuf + (size_t)a->root * a->bytes, a->sbuf, a->bytes);
    for (r = 0; r < a->size; r++) {
        if (r == a->root)
            continue;
        rc = papcoll__irecv_bytes(a->rbuf + (size_t)r * a->bytes, a->bytes, r, PAPCOLL__TAG_DATA,
                                  a->comm, &reqs[n++]);
        if (rc != PAPCOLL_OK)
            return rc;
    }
    return papcoll__waitall(n, reqs, MPI_STATUSES_IGNORE);
}
