/*
 * bcast "pipelined": the pipelined binary tree of Sanders 13.1.2.  The
 * vector travels in segments of PAPCOLL_SEGMENT_BYTES (whole elements) down
 * the complete binary tree (k-ary, k = 2, positions rotated onto the root);
 * an interior node sends segment s to its left, then its right child while
 * it receives segment s + 1 (Open MPI's tuned algorithm 5 with segments).
 *
 *   P = 8:         0         P = 10:       0           time steps of segment 1:
 *                /   \                   /   \         0->1, 0->5, 1->2, 1->4, 2->3 ...
 *               1     5                 1     7        an interior node then passes
 *              / \   / \              /   \   / \      one segment every 3 steps
 *             2   4 6   7            2     5 8   9
 *             |                     / \    |
 *             3                    3   4   6
 *
 * Cost, s segments, height L = floor(log2 P): at most (2L + 3(s-1))(alpha +
 * beta n/s) (Lemma 13.2), about 3 beta n + 2 alpha log P for the best s
 * (Thm 13.3); each node sends at most 2n.  Memory: none.  Restrictions:
 * none.
 */
#include "bcast/engine.h"

int papcoll__plan_bcast_pipelined(papcoll__plan_t *plan, const papcoll__plan_in_t *in)
{
    int rc = papcoll__plan_tree(plan, in, PAPCOLL__TREE_KARY, 2);

    if (rc == PAPCOLL_OK)
        papcoll__place_rotate(plan, in);
    return rc;
}

int papcoll_bcast_pipelined(const papcoll__args_t *a)
{
    return papcoll__bcast_tree(a, papcoll__segment_bytes(a));
}
