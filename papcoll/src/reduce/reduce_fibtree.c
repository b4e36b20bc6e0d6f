/*
 * reduce "fibtree": the golden-ratio tree of Sanders 13.1.4 (sched/tree.h,
 * GOLDEN) run backwards (13.2), for short messages: every leaf sends at the
 * same step and the root holds the result after T steps, cap(T) = Fib(T+3)
 * - 1 >= P, the fewest of any binary tree in which a node takes its right
 * child one step after its left.  Positions = ranks, numbered in order: a
 * node combines left (op) own (op) right, so the result keeps rank order
 * for any associative operation.  Pipelined in segments of segment_bytes by
 * the shared tree engine (reduce/engine_tree.c), like "inorder".
 *
 *   P = 12 (T = 4):         7          reduce steps (one segment):
 *                        /     \       0, 3, 5, 8, 11 (every leaf) send
 *                       4       10     at 0; 6, 9, 1 at 1; 2, 10 at 2;
 *                     /   \    /  \    4 at 3; 7 holds the result at 4
 *                    2     6  9    11
 *                   / \   /  /
 *                  1   3 5  8
 *                 /
 *                0
 *
 * The result lands on the tree's root (rank 7 here, in general the golden
 * split of P) and is forwarded segment by segment to any other root (one
 * segment step more).
 * Cost (s segments): at most (T + 3(s-1))(alpha + (n/s)(beta + gamma)), T
 * about 1.44 log2 P, + alpha + (n/s) beta off the tree's root.  Memory: 6
 * segments per interior node.  Restrictions: none (ORDERED).
 */
#include "reduce/engine.h"

int papcoll__plan_red_fibtree(papcoll__plan_t *plan, const papcoll__plan_in_t *in)
{
    int rc = papcoll__plan_tree(plan, in, PAPCOLL__TREE_GOLDEN, 2);

    if (rc == PAPCOLL_OK)
        papcoll__place_identity(plan, in);
    return rc;
}

int papcoll_reduce_fibtree(const papcoll__args_t *a)
{
    return papcoll__red_tree_engine(a, papcoll__red_seg_elems(a));
}
