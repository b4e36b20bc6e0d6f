/*
 * reduce "stwotree": the two trees of reduce "twotree" (Sanders, Speck,
 * Träff 2009; sched/twotree.h) with the ranks placed by predicted arrival,
 * and run by data flow instead of twotree's lock step.  Commutative
 * operations only: the placement gives up the in-order numbering.
 *
 * Placement (papcoll__twotree_place_sorted along t->rseq): a late rank
 * holds up its ancestors in both trees, so the ranks predicted latest take
 * the positions with the fewest: the shallowest in the deeper of their two
 * trees, then the fewest ancestors over both, the two tree roots last.
 * Equal predictions (within the predictor's noise) keep twotree's
 * placement (position p on rank root + p mod P; the root is position 0).
 *
 *   P = 8, predicted order after the root a b c d e f g:
 *       tree 0:     c            tree 1:     g       g and f: at most 3 hops in
 *                 /   \                    /         either tree (4 and 5 in all),
 *                a     b                  f          then e and d (3 in both);
 *               / \   / \               /   \        a, b and c are 4 hops deep
 *              d   f e   g             d     e       in tree 1
 *                                       \   / \
 *                                        a c   b
 *
 * Execution: twotree's data flow (papcoll_reduce_twotree) on the placed
 * trees, combining left child, own, right child, so the result is the
 * same run to run.  A late rank delays only its ancestors' parts that
 * depend on it; the other tree, and the subtrees beside it, stream on.
 *
 * Cost: balanced arrivals as twotree.  Under a PAT, the latest rank j:
 * max(twotree's time, a_j - a_root + n beta + (n/2) gamma + h_j (alpha +
 * (n/k)(beta + gamma))), h_j the larger of its hop counts.  Memory: as
 * twotree.  Restrictions: COMMUTATIVE_ONLY (fallback twotree); a
 * prediction (else twotree's placement).
 */
#include "reduce/engine.h"

int papcoll__plan_red_stwotree(papcoll__plan_t *plan, const papcoll__plan_in_t *in)
{
    return papcoll__plan_stwotree(plan, in, 1);
}

int papcoll_reduce_stwotree(const papcoll__args_t *a)
{
    return papcoll_reduce_twotree(a);
}
