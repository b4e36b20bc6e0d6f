/*
 * bcast "binomial": the binomial tree of sched/tree.h rotated onto the root
 * (position p on rank (p + root) mod P), one message per edge, children
 * served largest subtree first (Sanders 13.1.1; Open MPI's tuned
 * algorithm 6, MPICH's short-message bcast).
 *
 *   P = 8 (root 0):          0            round 0: 0->4
 *                         /  |  \         round 1: 0->2 4->6
 *                        4   2   1        round 2: 0->1 2->3 4->5 6->7
 *                       / \  |
 *                      6   5 3
 *                      |
 *                      7
 *
 * Cost: ceil(log2 P)(alpha + n beta) (Thm 13.1): optimal in alpha, log2 P
 * times the beta n lower bound, so it is the small-message baseline.  Memory:
 * none.  Restrictions: none (bytes are moved, CONTIG_ONLY packs).
 */
#include "bcast/engine.h"

int papcoll__plan_bcast_binomial(papcoll__plan_t *plan, const papcoll__plan_in_t *in)
{
    int rc = papcoll__plan_tree(plan, in, PAPCOLL__TREE_BINOMIAL, 2);

    if (rc == PAPCOLL_OK)
        papcoll__place_rotate(plan, in);
    return rc;
}

int papcoll_bcast_binomial(const papcoll__args_t *a)
{
    return papcoll__bcast_tree(a, 0);
}
