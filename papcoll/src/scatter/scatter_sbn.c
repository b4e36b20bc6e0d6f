/*
 * scatter "sbn": Sorted BiNomial tree (Proficz 2020, Fig. 7).  The binomial
 * tree of bnom with ranks placed by predicted arrival: the earliest arrivals
 * take the vranks served in the first rounds (the paper's sort + bit-reversal
 * shuffle), so data flows to the processes that are ready for it first.
 * All ranks must use the same plan (PAPCOLL_F_AGREE).
 * Flat PAP: as bnom plus O(P log P + N) for sorting and shuffling.
 */
#include "scatter/engine.h"

int papcoll_scatter_sbn(const papcoll__args_t *a)
{
    return papcoll__scatter_bn_engine(a);
}
