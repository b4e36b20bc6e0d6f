/*
 * Arrival orders and permutations (pure data, no MPI).
 */
#include <math.h>
#include <stdlib.h>

#include "sched/sched.h"

/* NaN sorts after every number; ties by rank keep the order deterministic,
 * which the agreement invariant needs. */
static int cmp_keyed(const void *pa, const void *pb)
{
    const papcoll__keyed_t *a = pa, *b = pb;
    int na = isnan(a->key), nb = isnan(b->key);
    if (na != nb)
        return na - nb;
    if (!na && a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return (a->rank > b->rank) - (a->rank < b->rank);
}

void papcoll__sort_by_key(int P, const double *key, int *order, papcoll__keyed_t *work)
{
    int i;

    for (i = 0; i < P; i++)
        order[i] = i;
    if (key == NULL || P < 2)
        return;
    for (i = 0; i < P; i++) {
        work[i].key = key[i];
        work[i].rank = i;
    }
    qsort(work, (size_t)P, sizeof(*work), cmp_keyed);
    for (i = 0; i < P; i++)
        order[i] = work[i].rank;
}

unsigned papcoll__bitrev(unsigned v, int nbits)
{
    unsigned r = 0;
    int i;

    for (i = 0; i < nbits; i++) {
        r = (r << 1) | (v & 1u);
        v >>= 1;
    }
    return r;
}

int papcoll__ceil_log2(int P)
{
    int L = 0;

    while ((1 << L) < P)
        L++;
    return L;
}

void papcoll__perm_invert(int P, const int *v2r, int *r2v)
{
    int v;

    for (v = 0; v < P; v++)
        r2v[v2r[v]] = v;
}
