/*
 * bcast "stwotree": the two trees of "twotree" (Sanders, Speck, Träff 2009;
 * sched/twotree.h) with the ranks placed by predicted arrival, and run by
 * data flow instead of twotree's lock step.
 *
 * Placement (papcoll__twotree_place_sorted): every rank is interior in one
 * tree and a leaf of the other, and a late rank holds up its descendants in
 * its interior tree, so the ranks predicted latest take the interior
 * positions with the fewest descendants (one or two leaf children each),
 * the deepest of them the latest, and the earliest the two tree roots.
 * Equal predictions (within the predictor's noise) keep twotree's placement.
 *
 *   P = 8, predicted order after the root a b c d e f g:
 *       tree 0:     b            tree 1:     a       d, e, f, g: interior in one
 *                 /   \                    /         tree with one or two leaf
 *                d     e                  c          children; g (one child, d)
 *               / \   / \               /   \        is three hops deep in both
 *              g   c f   a             g     f       trees
 *                                       \   / \
 *                                        d b   e
 *
 * Execution: twotree's data flow (papcoll_bcast_twotree) on the placed
 * trees.  A rank waiting for one tree's segment still serves the other
 * tree, so a late rank delays only its own subtree: itself and, when it is
 * placed last, one or two leaves.
 *
 * Cost: balanced arrivals as twotree, (k + 2H + 1)(alpha + beta n/k) with
 * the edge colouring's steps kept only by the order of the segments on
 * each link (the network shares a port between a rank's two sends; every
 * port still carries at most the vector in and the vector out).  Under a
 * PAT, the latest rank j placed last: max(twotree's time, a_j - a_root +
 * alpha + beta n + the segment its leaf children wait for): j receives the
 * whole vector after it arrives and streams half of it on, one segment
 * behind.  Memory: the trees (14P ints per site), 2k + 2 requests and k statuses
 * per call.
 * Restrictions: a prediction (else it runs in twotree's placement).
 */
#include "bcast/engine.h"

int papcoll__plan_bcast_stwotree(papcoll__plan_t *plan, const papcoll__plan_in_t *in)
{
    return papcoll__plan_stwotree(plan, in, 0);
}

int papcoll_bcast_stwotree(const papcoll__args_t *a)
{
    return papcoll_bcast_twotree(a);
}
