/*
 * bcast "fibtree": the golden-ratio tree of Sanders 13.1.4 (Fig. 13.4),
 * for short messages.  A binary tree in which a node sends to its left
 * child one step after it received and to its right child the step after;
 * each subtree's root splits its range by the golden ratio (sched/tree.h,
 * GOLDEN), so the right side, served a step later, is smaller by phi and
 * every leaf receives the first segment at the same step T, the fewest
 * steps any binary tree needs: cap(T) = Fib(T+3) - 1 >= P.  Segmented like
 * "pipelined" (the shared tree engine, bcast/engine_tree.c); positions
 * rotated onto the root.
 *
 *   P = 12, root 7 (T = 4):         7          receive steps:
 *                                /     \       7: 0; 4: 1; 10, 2: 2;
 *                               4       10     6, 9, 1: 3;
 *                             /   \    /  \    0, 3, 5, 8, 11 (every
 *                            2     6  9    11  leaf): 4
 *                           / \   /  /
 *                          1   3 5  8
 *                         /
 *                        0
 *
 * Cost, s segments: at most (T + 3(s-1))(alpha + beta n/s), T about
 * 1.44 log2 P; s = 1: T (alpha + n beta), against 2 floor(log2 P) for the
 * pipelined binary tree's first segment and ceil(log2 P) for the binomial
 * tree (which is not binary and does not pipeline).  Memory: none.
 * Restrictions: none.
 */
#include "bcast/engine.h"

int papcoll__plan_bcast_fibtree(papcoll__plan_t *plan, const papcoll__plan_in_t *in)
{
    int rc = papcoll__plan_tree(plan, in, PAPCOLL__TREE_GOLDEN, 2);

    if (rc == PAPCOLL_OK)
        papcoll__place_rotate(plan, in);
    return rc;
}

int papcoll_bcast_fibtree(const papcoll__args_t *a)
{
    return papcoll__bcast_tree(a, papcoll__segment_bytes(a));
}
