/*
 * reduce "inorder": in-order binary tree (Sanders 13.1.3, Fig. 13.5, and
 * the InOrderTree::reduce of 13.2): the root of a range [a, b) is its
 * middle, the left subtree [a, v) and the right one [v+1, b), positions =
 * ranks.  A node combines left (op) own (op) right, so the result keeps
 * rank order for any associative operation; pipelined in segments of
 * segment_bytes like "pipelined" (Lemma 13.4 holds for any binary tree).
 *
 *   P = 8:       4          P = 10:     5            P = 12:        6
 *              /   \                  /   \                      /     \
 *             2     6                2     8                    3       9
 *            / \   / \              / \   / \                  / \     / \
 *           1   3 5   7            1   4 7   9                1   5   8   11
 *          /                      /   /  /                   / \  /   /   /
 *         0                      0   3  6                   0  2 4   7   10
 *
 * The result lands on rank P/2 and is forwarded segment by segment to any
 * other root (one segment step more).
 * Cost (s segments, L = ceil(log2(P+1)) - 1): at most (2L + 3(s-1)) (alpha
 * + (n/s)(beta + gamma)) (Lemma 13.4).
 * Memory: 6 segments per interior node.
 * Restrictions: none (ORDERED).
 */
#include "reduce/engine.h"

int papcoll__plan_red_inorder(papcoll__plan_t *plan, const papcoll__plan_in_t *in)
{
    int rc = papcoll__plan_tree(plan, in, PAPCOLL__TREE_INORDER, 2);

    if (rc == PAPCOLL_OK)
        papcoll__place_identity(plan, in);
    return rc;
}

int papcoll_reduce_inorder(const papcoll__args_t *a)
{
    return papcoll__red_tree_engine(a, papcoll__red_seg_elems(a));
}
