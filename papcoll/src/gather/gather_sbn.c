/*
 * gather "sbn": Sorted BiNomial tree (Proficz 2020, Fig. 11).  The binomial
 * tree of bnom with ranks placed by predicted arrival: the earliest arrivals
 * become the first-round leaves and the latest arrival sends last, straight
 * to the root, so early processes push their data up without waiting for
 * late ones.  The root un-permutes the blocks (the paper's bit-reversal
 * shuffle; our subtrees are contiguous, so one permutation suffices).
 * All ranks must use the same plan (PAPCOLL_F_AGREE).
 * Flat PAP: as bnom plus O(P log P + N) for sorting and shuffling.
 */
#include "gather/engine.h"

int papcoll_gather_sbn(const papcoll__args_t *a)
{
    return papcoll__gather_bn_engine(a);
}
