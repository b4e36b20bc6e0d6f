/*
 * bcast "sorted": the binomial tree of "binomial" with ranks placed by
 * predicted arrival (the bcast analogue of Proficz 2020's sorted binomial
 * scatter, Sect. 4.1, Fig. 7).  The root keeps position 0; the other
 * positions are taken in the order the broadcast reaches them (receive
 * round, papcoll__bcast_place_round), earliest predicted arrival first.
 *
 *   P = 8, predicted order (root excluded) a b c d e f g:
 *                 root                 round 0: root -> a
 *               /  |   \               round 1: root -> b, a -> c
 *              a   b    d              round 2: root -> d, a -> f, b -> e, c -> g
 *             / \  |
 *            c   f e                   the last round's positions are leaves: the
 *            |                         P/2 latest ranks delay nobody
 *            g
 *
 * Why receive rounds and not depth (papcoll__place_order): the root serves
 * its children one after another, so its last child (depth 1) receives in
 * the last round, after grandchildren of its first child.  Placing by depth
 * would give the third-earliest rank that last-round leaf and the
 * sixth-earliest the interior position served in round 1 (the parent of the
 * deepest leaf), whose lateness then holds up its subtree.  By receive round
 * every rank is served in the round its predicted arrival ranks it in, and
 * the latest ranks are all leaves.  (For P = 2^k the rounds are those of
 * papcoll__bn_map_scatter; for other P the engine's actual rounds are used,
 * which differ where the tree is cut at P.)
 *
 * Flat PAP: as binomial, ceil(log2 P)(alpha + n beta).  One late rank
 * predicted last: it is a last-round leaf, so every rank but it and its
 * parent (whose last send waits for it) finishes ceil(log2 P) rounds after
 * the root's arrival, the two others one message after the late arrival.  Planning: O(P log P) on the monitor
 * thread.  All ranks must hold the same plan (AGREE).  Memory: none.
 */
#include "bcast/engine.h"

int papcoll__plan_bcast_sorted(papcoll__plan_t *plan, const papcoll__plan_in_t *in)
{
    int rc = papcoll__plan_tree(plan, in, PAPCOLL__TREE_BINOMIAL, 2);

    if (rc == PAPCOLL_OK)
        papcoll__bcast_place_round(plan, in);
    return rc;
}

int papcoll_bcast_sorted(const papcoll__args_t *a)
{
    return papcoll__bcast_tree(a, 0);
}
