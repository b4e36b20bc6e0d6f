/*
 * allreduce "twotree": reduce "twotree" to rank 0, then bcast "twotree"
 * from rank 0 (Sanders, Speck, Träff 2009; Sanders 13.1.4, 13.2): both
 * parts at full bandwidth on the same two in-order binary trees
 * (sched/twotree.h), the reduce keeping rank order, so the composite is
 * ORDERED.  Rank 0 as the root lets a non-commutative reduce end where its
 * positions start: no forwarding hop.
 *
 * The parts run one after the other (engine_composite.c), not pipelined
 * into each other: the reduce finishes segments last first (segment i at
 * reverse step S - 1 - i) while the bcast sends them first first, and
 * overlapping the two would have an interior rank send to its parent and to
 * its child in one step, leaving the one-port schedule.
 *
 * Cost, k segments (at most): (k + 2H + 1)(2 alpha + (n/k)(2 beta +
 * gamma)), H <= floor(log2 P); the best k gives (2 beta + gamma) n +
 * O(alpha log P + sqrt(alpha beta n log P)), like reduce-scatter +
 * allgather (2 beta n + gamma n) but numbered in order.  Memory: the parts'
 * (the vector and one segment per rank).  Restrictions: none (ORDERED).
 */
#include "allreduce/engine.h"

int papcoll__plan_ar_twotree(papcoll__plan_t *plan, const papcoll__plan_in_t *in)
{
    return papcoll__ar_comp_plan(plan, in, 0, PAPCOLL__A_reduce_twotree, PAPCOLL__A_bcast_twotree);
}

int papcoll_allreduce_twotree(const papcoll__args_t *a)
{
    return papcoll__ar_comp_run(a, 0);
}
