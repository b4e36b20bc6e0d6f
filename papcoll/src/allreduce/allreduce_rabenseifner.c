/*
 * allreduce "rabenseifner": reduce-scatter by recursive vector halving,
 * then allgather by recursive doubling (Rabenseifner 2004; Thakur,
 * Rabenseifner and Gropp 2005, Sect. 4.3; Open MPI's tuned algorithm 6),
 * with the fold of engine.h for any P.  The vector is cut into pof2 blocks
 * of whole elements.  Round k of the reduce-scatter (distance 2^k): new
 * rank j and j XOR 2^k hold the same block range; the lower keeps its lower
 * half, the upper its upper half, each sends the other half and combines
 * what it receives, lower group first.  After log2(pof2) rounds new rank j
 * owns one block (block bitreverse(j)) fully reduced; the allgather runs
 * the rounds backwards and doubles the owned range each time.
 *
 *   pof2 = 4, blocks A B C D:   round 0 (0<->1, 2<->3): 0,2 keep A B; 1,3 keep C D
 *                               round 1 (0<->2, 1<->3): 0 keeps A, 2 B, 1 C, 3 D
 *                               allgather: round 1 back, then round 0 back
 *
 * Groups are aligned new-rank ranges, hence contiguous old ranks, and every
 * combine puts the lower group first: ORDERED.  Every block is reduced on
 * one rank and then copied: all ranks get the same bytes, reproducibly.
 * Cost: 2 log2(pof2) alpha + 2 (pof2-1)/pof2 n beta + (pof2-1)/pof2 n gamma,
 * plus the fold.  Memory: one vector.
 */
#include <stdlib.h>
#include <string.h>

#include "allreduce/engine.h"

typedef struct {
    const papcoll__args_t *a;
    int pof2;
} blocks_t;

static size_t off(const blocks_t *b, int i)
{
    return papcoll__block_off(b->a->sig.count, b->pof2, i);
}

/* Reduce-scatter: on return this rank owns blocks [*lo, *hi). */
static int halve(const blocks_t *b, const papcoll__fold_t *f, char *acc, char *tmp, int *lo, int *hi)
{
    const papcoll__args_t *a = b->a;
    size_t e = a->sig.esize;
    int mask, peer, mid, klo, khi, slo, shi, rc = PAPCOLL_OK;

    for (mask = 1; mask < f->pof2 && rc == PAPCOLL_OK; mask <<= 1) {
        peer = f->newrank ^ mask;
        mid = *lo + (*hi - *lo) / 2;
        klo = peer > f->newrank ? *lo : mid;
        khi = peer > f->newrank ? mid : *hi;
        slo = peer > f->newrank ? mid : *lo;
        shi = peer > f->newrank ? *hi : mid;
        rc = papcoll__exchange(a, acc + off(b, slo) * e, off(b, shi) - off(b, slo),
                               papcoll__fold_rank(f, peer), tmp + off(b, klo) * e, off(b, khi) - off(b, klo),
                               papcoll__fold_rank(f, peer));
        if (rc != PAPCOLL_OK)
            break;
        if (peer < f->newrank) { /* peer's group is the lower one */
            rc = papcoll__reduce_local(a, tmp + off(b, klo) * e, acc + off(b, klo) * e,
                                       (int)(off(b, khi) - off(b, klo)));
        } else {
            rc = papcoll__reduce_local(a, acc + off(b, klo) * e, tmp + off(b, klo) * e,
                                       (int)(off(b, khi) - off(b, klo)));
            papcoll__copy(acc + off(b, klo) * e, tmp + off(b, klo) * e, (off(b, khi) - off(b, klo)) * e);
        }
        *lo = klo;
        *hi = khi;
    }
    return rc;
}

/* Allgather: the halving's rounds backwards, the owned range doubling. */
static int doubling(const blocks_t *b, const papcoll__fold_t *f, char *acc, int lo, int hi)
{
    const papcoll__args_t *a = b->a;
    size_t e = a->sig.esize;
    int mask, peer, plo, phi, rc = PAPCOLL_OK;

    for (mask = f->pof2 / 2; mask >= 1 && rc == PAPCOLL_OK; mask >>= 1) {
        peer = f->newrank ^ mask;
        plo = peer > f->newrank ? hi : lo - (hi - lo);
        phi = peer > f->newrank ? hi + (hi - lo) : lo;
        rc = papcoll__exchange(a, acc + off(b, lo) * e, off(b, hi) - off(b, lo), papcoll__fold_rank(f, peer),
                               acc + off(b, plo) * e, off(b, phi) - off(b, plo), papcoll__fold_rank(f, peer));
        lo = plo < lo ? plo : lo;
        hi = phi > hi ? phi : hi;
    }
    return rc;
}

int papcoll_allreduce_rabenseifner(const papcoll__args_t *a)
{
    char *tmp = malloc(a->bytes + 1);
    papcoll__fold_t f;
    blocks_t b = {a, 1};
    int lo = 0, hi, rc;

    if (tmp == NULL)
        return PAPCOLL_ERR_NOMEM;
    papcoll__copy(a->rbuf, a->sbuf, a->bytes);
    rc = papcoll__fold_in(a, a->rbuf, tmp, &f);
    b.pof2 = hi = f.pof2;
    if (rc == PAPCOLL_OK && f.newrank >= 0)
        rc = halve(&b, &f, a->rbuf, tmp, &lo, &hi);
    if (rc == PAPCOLL_OK && f.newrank >= 0)
        rc = doubling(&b, &f, a->rbuf, lo, hi);
    if (rc == PAPCOLL_OK)
        rc = papcoll__fold_out(a, a->rbuf, &f);
    free(tmp);
    return rc;
}
