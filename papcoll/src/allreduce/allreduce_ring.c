/*
 * allreduce "ring": reduce-scatter then allgather around the ring of
 * ranks (Patarasuk and Yuan 2009, bandwidth optimal; Open MPI's tuned
 * algorithm 4, MPICH's long-message ring).  The vector is cut into P
 * blocks of whole elements.  Reduce-scatter: in step k rank r sends block
 * r - k to r + 1 and adds the block r - k - 1 it receives from r - 1 to its
 * own, so after P - 1 steps rank r holds block r + 1 fully reduced;
 * allgather: P - 1 more steps pass the finished blocks around.
 *
 *   P = 4, blocks A B C D:   step 0: 0 sends A, 1 sends B, 2 sends C, 3 sends D
 *                            ...     after 3 steps: 0 owns B, 1 owns C, 2 owns D, 3 owns A
 *                            allgather: 3 more steps, every rank holds A B C D
 *
 * Every block is combined on one path and then copied, so all ranks end
 * with the same bytes; the association of block b starts at rank b + 1 and
 * follows the ring (not rank order): COMMUTATIVE_ONLY, reproducible for a
 * given P.  Cost: 2(P-1)(alpha + n beta / P) + (P-1) n gamma / P.  Memory:
 * one block.
 */
#include <stdlib.h>

#include "allreduce/engine.h"

/* Elements and byte offset of block b (mod P). */
static size_t blen(const papcoll__args_t *a, int b)
{
    return papcoll__block_off(a->sig.count, a->size, b + 1) - papcoll__block_off(a->sig.count, a->size, b);
}

static char *bptr(const papcoll__args_t *a, char *buf, int b)
{
    return buf + papcoll__block_off(a->sig.count, a->size, b) * a->sig.esize;
}

int papcoll_allreduce_ring(const papcoll__args_t *a)
{
    int P = a->size, r = a->rank, next = (r + 1) % P, prev = (r + P - 1) % P, k, s, t, rc = PAPCOLL_OK;
    char *tmp = malloc(blen(a, 0) * a->sig.esize + 1);

    if (tmp == NULL)
        return PAPCOLL_ERR_NOMEM;
    papcoll__copy(a->rbuf, a->sbuf, a->bytes);
    for (k = 0; k < P - 1 && rc == PAPCOLL_OK; k++) {
        s = ((r - k) % P + P) % P;
        t = ((r - k - 1) % P + P) % P;
        rc = papcoll__exchange(a, bptr(a, a->rbuf, s), blen(a, s), next, tmp, blen(a, t), prev);
        if (rc == PAPCOLL_OK)
            rc = papcoll__reduce_local(a, tmp, bptr(a, a->rbuf, t), (int)blen(a, t));
    }
    for (k = 0; k < P - 1 && rc == PAPCOLL_OK; k++) {
        s = ((r + 1 - k) % P + P) % P;
        t = ((r - k) % P + P) % P;
        rc = papcoll__exchange(a, bptr(a, a->rbuf, s), blen(a, s), next, bptr(a, a->rbuf, t), blen(a, t),
                               prev);
    }
    free(tmp);
    return rc;
}
