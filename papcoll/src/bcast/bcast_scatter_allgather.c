/*
 * bcast "scatter_allgather": van de Geijn's large-message bcast (Barnett et
 * al. 1994; MPICH's long-message bcast, Open MPI's tuned algorithms 8/9).
 * The vector is cut into P pieces, piece p for tree position p (the
 * binomial tree rotated onto the root, as in "binomial"); a binomial scatter
 * gives every position the pieces of its subtree, then a ring allgather over
 * the positions completes every copy.
 *
 *   P = 4, root 0, pieces A B C D     scatter: 0 -> 2 (C D), 0 -> 1 (B), 2 -> 3 (D)
 *     0: A B C D                      ring, step 1: p sends piece p to p + 1
 *     2:     C D       3: D           ring, step k: p passes on what it got at step k-1
 *     1:   B                          after P - 1 steps every position holds A B C D
 *
 * Pieces are byte ranges (off(p) = p floor(n/P) + min(p, n mod P)), so the
 * buffer is filled in place on every rank.  Cost: ceil(log2 P) alpha + (P-1)/P
 * n beta for the scatter (Sanders Sect. 13.5.2) plus (P-1)(alpha + n beta / P)
 * for the ring: about 2 n beta for large n, with no rank sending more than
 * 2n.  Memory: none.  Restrictions: none (small n works, with empty pieces).
 */
#include <limits.h>

#include "bcast/engine.h"

/* Binomial scatter of the subtree ranges, in place. */
static int scatter(const papcoll__args_t *a, const papcoll__tree_t *t, int v)
{
    const int *v2r = a->plan->v2r;
    size_t n = a->bytes;
    int P = a->size, i, c, rc = PAPCOLL_OK;

    if (t->parent[v] >= 0)
        rc = papcoll__recv_bytes(a->rbuf + papcoll__piece(n, P, t->lo[v]),
                                 papcoll__piece(n, P, t->hi[v]) - papcoll__piece(n, P, t->lo[v]),
                                 v2r[t->parent[v]], PAPCOLL__TAG_DATA, a->comm);
    for (i = 0; i < papcoll__tree_nkids(t, v) && rc == PAPCOLL_OK; i++) {
        c = papcoll__tree_kid(t, v, i);
        rc = papcoll__send_bytes(a->rbuf + papcoll__piece(n, P, t->lo[c]),
                                 papcoll__piece(n, P, t->hi[c]) - papcoll__piece(n, P, t->lo[c]), v2r[c],
                                 PAPCOLL__TAG_DATA, a->comm);
    }
    return rc;
}

/* Ring allgather of the pieces over the positions: at step k position v
 * sends piece v - k and receives piece v - k - 1 (mod P). */
static int ring(const papcoll__args_t *a, int v)
{
    size_t n = a->bytes;
    int P = a->size, k, s, r, rc = PAPCOLL_OK, next = a->plan->v2r[(v + 1) % P],
        prev = a->plan->v2r[(v + P - 1) % P];

    for (k = 0; k < P - 1 && rc == PAPCOLL_OK; k++) {
        s = ((v - k) % P + P) % P;
        r = ((v - k - 1) % P + P) % P;
        rc = PAPCOLL__ERR(PMPI_Sendrecv(a->rbuf + papcoll__piece(n, P, s),
                                        (int)(papcoll__piece(n, P, s + 1) - papcoll__piece(n, P, s)),
                                        MPI_BYTE, next, PAPCOLL__TAG_DATA, a->rbuf + papcoll__piece(n, P, r),
                                        (int)(papcoll__piece(n, P, r + 1) - papcoll__piece(n, P, r)),
                                        MPI_BYTE, prev, PAPCOLL__TAG_DATA, a->comm, MPI_STATUS_IGNORE));
    }
    return rc;
}

int papcoll_bcast_scatter_allgather(const papcoll__args_t *a)
{
    int v = a->plan->r2v[a->rank], rc;

    if (a->bytes / (size_t)a->size > (size_t)INT_MAX / 2)
        return PAPCOLL_ERR_INVAL; /* a piece must fit an int count */
    if ((rc = scatter(a, a->plan->tree, v)) != PAPCOLL_OK)
        return rc;
    return ring(a, v);
}
