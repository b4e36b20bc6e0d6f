/*
 * bcast "spipelined": the segmented binary tree of "pipelined" (Sanders
 * 13.1.2) with the ranks placed by predicted arrival, as "sorted" places
 * them in its binomial tree (papcoll__bcast_place_round): the earlier a
 * rank is predicted, the earlier its position receives the first segment,
 * so the ranks predicted late are leaves and forward nothing.  On balanced
 * arrivals it is pipelined in another placement: where a whole vector
 * rides the ports' burst (64 KiB on the emulated cluster) the binary tree,
 * with two sends per interior node, is ahead of the binomial tree of
 * sorted, whose root sends log2 P times.
 *
 * Cost as pipelined, at most (2L + 3(s-1))(alpha + beta n/s) on balanced
 * arrivals; a late rank j that is a leaf: max(a_j - a_root + alpha + beta
 * n, pipelined's run time).  Memory: none.  Restrictions: a prediction
 * (else it runs as pipelined).
 */
#include "bcast/engine.h"

int papcoll__plan_bcast_spipelined(papcoll__plan_t *plan, const papcoll__plan_in_t *in)
{
    int rc = papcoll__plan_tree(plan, in, PAPCOLL__TREE_KARY, 2);

    if (rc == PAPCOLL_OK)
        papcoll__bcast_place_round(plan, in);
    return rc;
}

int papcoll_bcast_spipelined(const papcoll__args_t *a)
{
    return papcoll__bcast_tree(a, papcoll__segment_bytes(a));
}
