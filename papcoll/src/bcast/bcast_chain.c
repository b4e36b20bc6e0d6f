/*
 * bcast "chain": the linear pipeline of Sanders 13.1.4.  Ranks root, root+1,
 * ... (mod P) form a path; each receives segment s + 1 from its predecessor
 * while it forwards segment s (Open MPI's tuned algorithms 2 and 3 are
 * chains with one and more fanouts; this is fanout 1).
 *
 *   P = 8, root 0:   0 -> 1 -> 2 -> 3 -> 4 -> 5 -> 6 -> 7
 *                    step t: rank i forwards segment t - i
 *
 * Cost, s segments, full duplex: (P - 1 + s - 1)(alpha + beta n/s); the best
 * s gives beta n + P alpha + O(sqrt(alpha beta n P)): optimal for a fixed P
 * and large n, and the root's port emits the vector exactly once.  Memory:
 * none.  Restrictions: none.
 */
#include "bcast/engine.h"

int papcoll__plan_bcast_chain(papcoll__plan_t *plan, const papcoll__plan_in_t *in)
{
    int rc = papcoll__plan_tree(plan, in, PAPCOLL__TREE_CHAIN, 1);

    if (rc == PAPCOLL_OK)
        papcoll__place_rotate(plan, in);
    return rc;
}

int papcoll_bcast_chain(const papcoll__args_t *a)
{
    return papcoll__bcast_tree(a, papcoll__segment_bytes(a));
}
