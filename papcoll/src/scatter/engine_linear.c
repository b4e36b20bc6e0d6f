/*
 * Linear scatters: the engine behind lin, slin and the root of bsln.
 * The root sends the blocks one after the other in the given order (rank
 * order for lin, predicted arrival order for slin / bsln), so that the
 * block of a process that arrives early is not queued behind late ones.
 *
 *   root: for r in order: send block r to r      leaf: recv block
 *
 * Cost for a flat PAP: (P-1)(alpha + (N/P) beta) (Proficz 2020, Eq. 3).
 * One late first receiver: SLIN max(a1 - a0 + alpha + (N/P) beta, r_LIN)
 * (Eq. 10) against a1 - a0 + r_LIN for LIN (Eq. 9).
 */
#include <string.h>

#include "scatter/engine.h"

/* Root side: serve every leaf in order (NULL: rank order). */
int papcoll__scatter_lin_root(const papcoll__args_t *a, const int *order)
{
    int i, r, rc;

    if (a->rbuf != NULL)
        papcoll__copy(a->rbuf, a->sbuf + (size_t)a->root * a->bytes, a->bytes);
    for (i = 0; i < a->size; i++) {
        r = order ? order[i] : i;
        if (r == a->root)
            continue;
        rc = papcoll__send_bytes(a->sbuf + (size_t)r * a->bytes, a->bytes, r, PAPCOLL__TAG_DATA, a->comm);
        if (rc != PAPCOLL_OK)
            return rc;
    }
    return PAPCOLL_OK;
}

int papcoll__scatter_lin_engine(const papcoll__args_t *a, const int *order)
{
    if (a->rank == a->root)
        return papcoll__scatter_lin_root(a, order);
    return papcoll__recv_bytes(a->rbuf, a->bytes, a->root, PAPCOLL__TAG_DATA, a->comm);
}
