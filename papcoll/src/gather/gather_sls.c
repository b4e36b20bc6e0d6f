/*
 * gather "sls": Sorted Linear Synchronized tree (Proficz 2020, Fig. 9).
 * LS with the leaves pulled in predicted arrival order, so early leaves
 * cross the root's port first instead of waiting behind late ones.
 * Only the root uses the order (no agreement needed).
 * Flat PAP: as LS, (P-1)(3 alpha + (N/P) beta), plus O(P log P) sorting.
 * One late leaf: max(a1 - a0 + 3 alpha + (N/P) beta, r_LS) (Eq. 18).
 */
#include "gather/engine.h"

int papcoll_gather_sls(const papcoll__args_t *a)
{
    return papcoll__gather_ls_engine(a, a->plan->order);
}
