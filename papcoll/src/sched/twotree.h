/*
 * The two trees of Sanders, Speck and Träff (2009; Sanders 13.1.4, 13.2) as
 * pure data, with their packet schedule.  No MPI here; tests/test_twotree.c
 * checks every property for P = 1..200.
 *
 * Positions 0..P-1; position 0 is the root of the collective and belongs to
 * neither tree.  Trees 0 and 1 both span positions 1..m (m = P - 1), both
 * numbered in order (left subtree below a node, right subtree above), so a
 * reduction up either tree keeps position order.  Tree 0 is the in-order
 * "binary counter" tree on x = 1..m: the height of x is the number of
 * trailing zero bits of x, its children are x -/+ lowbit(x)/2, and a right
 * child beyond m is replaced by the left descendant that exists.  Tree 1 is
 * the same tree on x = 1..m+1 shifted down by one (position x - 1) with
 * x = 1 (position 0, a leaf) removed.  So tree 0's leaves are the odd
 * positions and its interior nodes the even ones; tree 1 has it the other
 * way round: for m >= 2 every position is interior in exactly one tree and
 * a leaf of the other (m = 1: position 1 is both trees' root and leaf).
 *
 *   P = 8 (m = 7)   tree 0:     4             tree 1:         7
 *                             /   \                         /
 *                            2     6                       3
 *                           / \   / \                    /   \
 *                          1   3 5   7                  1     5
 *                                                         \   / \
 *                                                          2 4   6
 *
 * Schedule: k packets; tree t carries packets t, t + 2, t + 4, ... (even
 * packets down tree 0, odd down tree 1).  Every tree edge, and the root's
 * edge to each tree root, has a colour in {0, 1} such that the two edges
 * into a position (one per tree) differ and the (at most two) edges out of
 * a position differ: a 2-edge-colouring of the bipartite sender/receiver
 * graph, whose degrees are at most 2 (König).  An edge of colour c is used
 * only at steps s = c (mod 2), so each position sends at most one packet
 * and receives at most one packet per step (full duplex).  Packet j of a
 * tree (its j-th, global number 2j + t) crosses edge e at step
 * offset[e] + 2j; offset[e] = c for the root's edges, and for an edge below
 * position u the first step of its colour after u received: one or two
 * more than u's own offset.  Steps <= k + 2 H + 1, H the larger height.
 * The executors (bcast and reduce twotree, stwotree) do not step: they run
 * by data flow in the schedule's order of segments on each link, and the
 * schedule is the bound their cost column (policy.c, two_tree) counts.
 *
 * Cost (alpha-beta, n bytes in k packets, full duplex): (k + O(log P))
 * (alpha + beta n/k); the best k gives beta n + O(alpha log P +
 * sqrt(alpha beta n log P)) (Sanders 13.1.4).  Building: O(P log P) (the sort of seq), one
 * allocation of 14P ints, no recursion.
 */
#ifndef PAPCOLL_SCHED_TWOTREE_H
#define PAPCOLL_SCHED_TWOTREE_H

#include <stddef.h>

typedef struct {
    int P;
    int root[2];   /* the position of tree t's root; -1 when P = 1 */
    int *parent;   /* [2P] parent[t*P + v] in tree t: 0 for root[t], -1 for v = 0 */
    int *kid;      /* [4P] kid[(t*P + v)*2 + i], i = 0 left, 1 right; -1: none.  Position 0 has
                    * root[t] as its left kid in tree t. */
    int *offset;   /* [2P] offset[t*P + v]: step at which v receives tree t's first packet; its
                    * parity is the colour of the edge into v (-1 for v = 0) */
    int height[2]; /* edges from root[t] down to its deepest position (0 when P = 1) */
    int maxoff[2]; /* the largest offset in tree t (-1 when P = 1) */
    int *desc;     /* [P] descendants of v in the tree where it is interior (P - 1 for v = 0) */
    int *seq;      /* [P] positions 1..P-1, the one a late arrival delays most first: most
                    * descendants, then the shallower (hops in the leaf tree plus desc + 1 times
                    * the hops in the interior tree), then the lower position; 0 last */
    int *rseq;     /* [P] the same for a reduction: the most ancestors first (the larger of
                    * the hops from position 0 in the two trees, then their sum), then the
                    * lower position; 0 last */
    int *work;     /* [3P] papcoll__twotree_place_sorted's scratch */
} papcoll__twotree_t;

/* Builds the two trees and the colouring for P positions (P >= 1): 0 or
 * PAPCOLL_ERR_INVAL (P < 1, t NULL), PAPCOLL_ERR_NOMEM; *t zeroed on
 * failure.  papcoll__twotree_free releases and zeroes (a zeroed t too). */
int papcoll__twotree_build(papcoll__twotree_t *t, int P);
void papcoll__twotree_free(papcoll__twotree_t *t);

/* Placement for a collective rooted at rank root: position p on rank
 * (root + p) mod P, so position 0 is the root and the trees span the other
 * ranks in cyclic order from root + 1.  v2r[P], r2v[P] (either may be NULL). */
void papcoll__twotree_place(int P, int root, int *v2r, int *r2v);

/*
 * PAP-aware placement (bcast and reduce "stwotree") along seq = t->seq
 * (bcast) or t->rseq (reduce), whose end gets the latest ranks.  Every
 * position but 0 is interior in one tree and a leaf of the other, so no
 * rank is a leaf of both.  In a bcast a late rank delays its descendants in
 * its interior tree (they wait for its packets), so the ranks predicted
 * latest take the positions with the fewest: t->seq ends with the interior
 * positions with one or two leaf children, the deepest of them
 * (sequence() in twotree.c) last.  In a reduction a late rank delays its
 * ancestors in both trees, so t->rseq ends with the shallowest positions,
 * the two tree roots last.  pred[P] (by rank; NaN sorts last) are the
 * predicted arrival offsets and order[P] the ranks by ascending pred, ties by
 * rank (papcoll__sort_by_key).  The root keeps position 0.  Ranks whose
 * offsets lie within tol of the first of their group (in order) form one
 * group; a group of g ranks takes the next g positions of seq and lays
 * them out among themselves as twotree does (cyclic rank order from root on
 * ascending positions), so equal offsets give papcoll__twotree_place.
 * Pure: O(P), scratch t->work.
 */
void papcoll__twotree_place_sorted(papcoll__twotree_t *t, const int *seq, int root, const int *order,
                                   const double *pred, double tol, int *v2r, int *r2v);

/*
 * The segment size of n bytes by the alpha-beta model: k segments take
 * k + 2H + 1 steps of alpha + (n/k) c (H the larger tree height, c the
 * per-byte cost: beta, plus gamma for a reduction), least at k =
 * sqrt((2H + 1) n c / alpha).  Returns ceil(n / k), at most cap (the
 * context's segment_bytes: the largest eager message) and at least 1; cap
 * when alpha or c is not a positive number, n when n <= cap and k = 1.
 */
size_t papcoll__twotree_segment(const papcoll__twotree_t *t, size_t n, double alpha, double c, size_t cap);

/* Segments the executors keep in flight on one link: two keep a port busy
 * while the next is posted.  More would not go faster over a socket, which
 * sends them one after the other anyway, and a network model that shares a
 * port among every message in flight (SimGrid's) would deliver them all at
 * the end. */
#define PAPCOLL__TWOTREE_WINDOW 2

/* Packets tree 0 or 1 carries of k. */
static inline long papcoll__twotree_npackets(long k, int tree)
{
    return k > tree ? (k - tree + 1) / 2 : 0;
}

/* Steps of the whole schedule for k packets (0 when k = 0 or P = 1). */
long papcoll__twotree_steps(const papcoll__twotree_t *t, long k);

/*
 * Whether position v receives at step s (of k packets): 1 with the tree,
 * the sender's position and the global packet number, else 0.
 */
int papcoll__twotree_recv(const papcoll__twotree_t *t, int v, long s, long k, int *tree, int *from,
                          long *packet);

/*
 * Whether position v sends at step s: 1 with the tree, the receiver's
 * position and the global packet number, else 0.
 */
int papcoll__twotree_send(const papcoll__twotree_t *t, int v, long s, long k, int *tree, int *to,
                          long *packet);

#endif
