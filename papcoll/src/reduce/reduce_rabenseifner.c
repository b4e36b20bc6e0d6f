/*
 * reduce "rabenseifner": reduce-scatter by recursive halving, then a
 * binomial gather of the pieces (Rabenseifner 2004; Thakur, Rabenseifner,
 * Gropp 2005, Sect. 4.5; Marendic 2016 Sect. 5.5.3 "Butterfly"): the radix
 * engine (engine_radix.c) with k = (2, 2, ..., 2).
 *
 * Non-power-of-two P (Rabenseifner's treatment, as in MPICH): with P' the
 * largest power of two <= P and rem = P - P', the first 2 rem ranks pair
 * up, each even rank sends its vector to the odd one above it, which
 * combines (even first: rank order) and takes part as vrank rank/2; ranks
 * from 2 rem on are vranks rank - rem.  vranks keep rank order, so every
 * partial stays a contiguous rank range.  A root among the even ranks that
 * left gets the result from the rank above it at the end.
 *
 *   P = 6 (P' = 4, rem = 2), root 0, vector a b c d:
 *     0 -> 1, 2 -> 3 (whole vectors); vranks 0 1 2 3 = ranks 1 3 4 5
 *     halving, pairs 1-3, 4-5: 1 keeps ab, 3 cd, 4 ab, 5 cd
 *     halving, pairs 1-4, 3-5: 1 a, 4 b, 3 c, 5 d
 *     gather: 4 -> 1 (ab), 5 -> 3 (cd); then 3 -> 1 (abcd); 1 -> 0
 *
 * Cost, P a power of two: 2 log2 P alpha + 2 ((P-1)/P) n beta + ((P-1)/P) n
 * gamma (Marendic Table 3): half the binomial tree's combining, twice its
 * bandwidth at the root at most.  Otherwise add alpha + n (beta + gamma)
 * for the first step and alpha + n beta when the root left.
 * Memory: one vector (at a participating root, its receive buffer) and
 * another for the pieces received.
 * Restrictions: none (ORDERED).
 */
#include <stdlib.h>

#include "reduce/engine.h"

/* The pre-step of the first 2 rem ranks: an even rank sends its vector up,
 * the odd one above combines it into work (the even rank's value is the
 * lower operand). */
static int fold(const papcoll__args_t *a, char *work)
{
    char *tmp;
    int rc;

    if (a->rank % 2 == 0)
        return papcoll__send_bytes(a->sbuf, a->bytes, a->rank + 1, PAPCOLL__TAG_DATA, a->comm);
    if ((tmp = papcoll__work_alloc(a->bytes + 1)) == NULL)
        return PAPCOLL_ERR_NOMEM;
    rc = papcoll__recv_bytes(tmp, a->bytes, a->rank - 1, PAPCOLL__TAG_DATA, a->comm);
    if (rc == PAPCOLL_OK)
        rc = papcoll__reduce_local(a, tmp, work, a->sig.count);
    papcoll__work_free(tmp);
    return rc;
}

int papcoll_reduce_rabenseifner(const papcoll__args_t *a)
{
    int P = a->size, me = a->rank, root = a->root, p2 = 1, r = 0, rem, vme, vroot, holder, v, rc = PAPCOLL_OK;
    int k[PAPCOLL__RADIX_MAX], *v2r = a->x->fg.ints;
    char *work;

    if (a->bytes == 0)
        return PAPCOLL_OK;
    while (2 * p2 <= P)
        p2 *= 2, k[r++] = 2;
    rem = P - p2;
    vme = me < 2 * rem ? (me % 2 ? me / 2 : -1) : me - rem;
    vroot = root < 2 * rem ? root / 2 : root - rem;
    for (v = 0; v < p2; v++)
        v2r[v] = v < rem ? 2 * v + 1 : v + rem;
    holder = v2r[vroot];
    if (vme < 0) { /* an even rank of the pre-step: sends, and receives if it is the root */
        rc = fold(a, NULL);
        return rc == PAPCOLL_OK && me == root
                   ? papcoll__recv_bytes(a->rbuf, a->bytes, holder, PAPCOLL__TAG_DATA, a->comm)
                   : rc;
    }
    work = me == root ? a->rbuf : papcoll__work_alloc(a->bytes + 1);
    if (work == NULL)
        return PAPCOLL_ERR_NOMEM;
    papcoll__copy(work, a->sbuf, a->bytes);
    if (me < 2 * rem)
        rc = fold(a, work);
    if (rc == PAPCOLL_OK)
        rc = papcoll__red_radix_engine(a, work, vme, v2r, vroot, k, r);
    if (rc == PAPCOLL_OK && me == holder && me != root)
        rc = papcoll__send_bytes(work, a->bytes, root, PAPCOLL__TAG_DATA, a->comm);
    if (work != a->rbuf)
        papcoll__work_free(work);
    return rc;
}
