/*
 * reduce "pipelined": pipelined binary tree (Sanders 13.1.2 and 13.2,
 * Lemma 13.4).  The complete binary tree of sched/tree.h (k-ary, k = 2,
 * numbered in pre-order) on positions = ranks, root at rank 0; the vector
 * travels in segments of segment_bytes (PAPCOLL_SEGMENT_BYTES, rounded to
 * whole elements), so every level works on a different segment at once.
 * Pre-order numbering makes each subtree a contiguous rank range above its
 * root: own value, then left subtree, then right subtree is rank order.
 *
 *   P = 8:      0             segment s of a node: receive s from 1, from 5,
 *             /   \           combine, send to the parent while s+1 arrives
 *            1     5
 *           / \   / \
 *          2   4 6   7
 *          |
 *          3
 *
 * Cost (s segments, L = floor(log2 P)): at most (2L + 3(s-1)) (alpha +
 * (n/s)(beta + gamma)) (Lemma 13.4: an interior node handles one segment
 * every three steps); optimal s gives 3 beta n + 2 alpha log P + O(sqrt(
 * alpha beta n log P)) (Corollary 13.5).  A root other than rank 0 gets
 * each finished segment from rank 0: one more segment step.
 * Memory: 6 segments per interior node (4 receive buffers, 2 partials).
 * Restrictions: none (ORDERED).
 */
#include "reduce/engine.h"

int papcoll__plan_red_binary(papcoll__plan_t *plan, const papcoll__plan_in_t *in)
{
    int rc = papcoll__plan_tree(plan, in, PAPCOLL__TREE_KARY, 2);

    if (rc == PAPCOLL_OK)
        papcoll__place_identity(plan, in);
    return rc;
}

int papcoll_reduce_pipelined(const papcoll__args_t *a)
{
    return papcoll__red_tree_engine(a, papcoll__red_seg_elems(a));
}
