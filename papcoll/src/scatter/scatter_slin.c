/*
 * scatter "slin": Sorted LINear tree (Proficz 2020, Fig. 5): the root sends
 * the blocks in predicted arrival order.  Only the root uses the order.
 * Flat PAP: as lin plus O(P log P) sorting.  See engine_linear.c.
 */
#include "scatter/engine.h"

int papcoll_scatter_slin(const papcoll__args_t *a)
{
    return papcoll__scatter_lin_engine(a, a->plan->order);
}
