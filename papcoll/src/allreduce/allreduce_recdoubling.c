/*
 * allreduce "recdoubling": recursive doubling (Sanders 13.2.1, the
 * hypercube all-reduce; Open MPI's tuned algorithm 3, MPICH's short-message
 * allreduce), with the fold of engine.h for any P.  In round k new rank j
 * exchanges its whole vector with j XOR 2^k and both combine the two
 * partials lower group first, so after round k every group of 2^(k+1)
 * aligned new ranks holds the reduction of its (contiguous) old ranks.
 *
 *   P = 8:   round 0: 0<->1 2<->3 4<->5 6<->7     x01   x23   x45   x67
 *            round 1: 0<->2 1<->3 4<->6 5<->7     x0123       x4567
 *            round 2: 0<->4 1<->5 2<->6 3<->7     x01234567 everywhere
 *
 * Both partners compute (lower) op (upper) from the same bytes, so every
 * rank ends with the same bytes, and the association depends only on P:
 * reproducible, and ORDERED (non-commutative operations keep rank order).
 * Cost: log2(pof2)(alpha + n beta + n gamma), plus the fold's 2(alpha + n
 * beta) + n gamma when P is not a power of two: the small-message
 * algorithm.  Memory: one vector.
 */
#include <stdlib.h>

#include "allreduce/engine.h"

static int core(const papcoll__args_t *a, char **acc, char **tmp, const papcoll__fold_t *f)
{
    int mask, peer, rc = PAPCOLL_OK;
    char *t;

    for (mask = 1; mask < f->pof2 && rc == PAPCOLL_OK; mask <<= 1) {
        peer = f->newrank ^ mask;
        rc = papcoll__exchange(a, *acc, (size_t)a->sig.count, papcoll__fold_rank(f, peer), *tmp,
                               (size_t)a->sig.count, papcoll__fold_rank(f, peer));
        if (rc != PAPCOLL_OK)
            break;
        if (peer < f->newrank) {
            rc = papcoll__reduce_local(a, *tmp, *acc, a->sig.count); /* peer (op) mine */
        } else {
            rc = papcoll__reduce_local(a, *acc, *tmp, a->sig.count); /* mine (op) peer, into tmp */
            t = *acc, *acc = *tmp, *tmp = t;
        }
    }
    return rc;
}

int papcoll_allreduce_recdoubling(const papcoll__args_t *a)
{
    char *tmp = malloc(a->bytes + 1), *acc = a->rbuf, *other = tmp;
    papcoll__fold_t f;
    int rc;

    if (tmp == NULL)
        return PAPCOLL_ERR_NOMEM;
    papcoll__copy(a->rbuf, a->sbuf, a->bytes);
    rc = papcoll__fold_in(a, acc, other, &f);
    if (rc == PAPCOLL_OK && f.newrank >= 0)
        rc = core(a, &acc, &other, &f);
    if (rc == PAPCOLL_OK && acc != a->rbuf)
        papcoll__copy(a->rbuf, acc, a->bytes);
    if (rc == PAPCOLL_OK)
        rc = papcoll__fold_out(a, a->rbuf, &f);
    free(tmp);
    return rc;
}
