/*
 * reduce "binomial": binomial tree in rank order (Sanders 13.2 with the
 * tree of Sect. 13.1.1; Marendic 2016 Sect. 5.5.1; Benoit 2013 Sect. 3.2,
 * Binomial-stat: no synchronised rounds, each transfer starts as soon as
 * both ends are ready).  The lowest-set-bit tree of sched/tree.h on
 * positions = ranks, root at rank 0; a node combines its children smallest
 * subtree first (the broadcast run backwards), each appended to the right
 * of its own value, so the result is m_0 (op) m_1 (op) ... (op) m_P-1.
 *
 *   P = 8:      0             round 1: 1->0 3->2 5->4 7->6
 *            /  |  \          round 2: 2->0 6->4
 *           4   2   1         round 3: 4->0
 *          / \  |             (then 0 -> root when the root is not 0)
 *         6   5 3
 *         |
 *         7
 *
 * Cost: ceil(log2 P) (alpha + n beta + n gamma) (Marendic Table 3), plus
 * alpha + n beta when the root is not rank 0 (the identity placement keeps
 * rank order; a rotated tree would save that message for commutative
 * operations only).  Optimal for short vectors.
 * Memory: an interior node holds its own partial and up to two received
 * vectors (the next child's arrives while the last one is combined).
 * Restrictions: none (ORDERED: any associative operation).
 */
#include "reduce/engine.h"

int papcoll__plan_red_binomial(papcoll__plan_t *plan, const papcoll__plan_in_t *in)
{
    int rc = papcoll__plan_tree(plan, in, PAPCOLL__TREE_BINOMIAL, 2);

    if (rc == PAPCOLL_OK)
        papcoll__place_identity(plan, in);
    return rc;
}

int papcoll_reduce_binomial(const papcoll__args_t *a)
{
    return papcoll__red_tree_engine(a, a->sig.count); /* one segment */
}
