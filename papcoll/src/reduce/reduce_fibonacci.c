/*
 * reduce "fibonacci": Fibonacci-stat (Benoit, Canon, Marchal 2013, Sect.
 * 3.2, after Canon and Antoniu 2012).  The schedule FS_k puts FS_k-1 (on
 * the first F(k+1) ranks) and FS_k-2 (on the next F(k)) side by side; the
 * root of FS_k-2 sends its value to the root of FS_k-1 during that root's
 * last combine of FS_k-1, which then combines it last.  So a root receives
 * its next child while it combines the previous one: communication
 * overlaps combining.  The tree (sched/tree.h, FIBONACCI) is FS_k for the
 * smallest k with F(k+2) >= P, cut at P; positions = ranks, root rank 0.
 * Only neighbouring ranges are ever combined (each child's range follows
 * what its parent holds), so rank order is kept.
 *
 *   P = 8 (FS_4 = FS_3 + FS_2):      time (c = d = 1): 1->0 [0,1] combine [1,2]
 *            0                        2->0 [1,2] combine [2,3]    4->3 [0,1]
 *     / /  |   \                      3->0 [2,3] combine [3,4]    6,7->5 ...
 *    1 2   3    5                     5->0 [3,4] combine [4,5]: 5 = k + 1 steps
 *          |   / \
 *          4  6   7
 *
 * Cost (Benoit Sect. 4, c = n gamma, d = alpha + n beta): d + (k-1)
 * max(d, c) + c with k about 1.44 log2 P; optimal when c = d, where it needs
 * (k+1) d against ceil(log2 P) 2d for the binomial tree; with c << d the
 * binomial tree is better (k > log2 P).  Plus alpha + n beta when the root
 * is not rank 0.
 * Memory: an interior node holds its partial and two received vectors.
 * Restrictions: none (ORDERED).
 */
#include "reduce/engine.h"

int papcoll__plan_red_fibonacci(papcoll__plan_t *plan, const papcoll__plan_in_t *in)
{
    int rc = papcoll__plan_tree(plan, in, PAPCOLL__TREE_FIBONACCI, 2);

    if (rc == PAPCOLL_OK)
        papcoll__place_identity(plan, in);
    return rc;
}

int papcoll_reduce_fibonacci(const papcoll__args_t *a)
{
    return papcoll__red_tree_engine(a, a->sig.count); /* atomic values, as in the paper */
}
