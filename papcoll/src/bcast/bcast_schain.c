/*
 * bcast "schain": the segmented linear pipeline of "chain" (Sanders
 * 13.1.4) in the order of bchain, the ranks after the root in predicted
 * arrival order, with every receive and forward in the call (bchain's
 * foreground form).  The ranks predicted early get each segment first and
 * the latest is the chain's end, which forwards nothing: a late rank holds
 * back only the ranks after it, all predicted later.  On balanced arrivals
 * it is chain in another order, without bchain's background waits.
 *
 * Cost as chain, (P - 1 + s - 1)(alpha + beta n/s) on balanced arrivals;
 * arrivals in the predicted order: no rank waits for a later one.  Memory:
 * none.  Restrictions: a prediction (else it runs as chain).
 */
#include "bcast/engine.h"

int papcoll_bcast_schain(const papcoll__args_t *a)
{
    return papcoll__bcast_tree(a, papcoll__segment_bytes(a));
}
