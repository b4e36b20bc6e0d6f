/*
 * scatter "lin": linear tree in rank order (Open MPI basic_linear).
 * See engine_linear.c.  Any P, any root.
 */
#include "scatter/engine.h"

int papcoll_scatter_lin(const papcoll__args_t *a)
{
    return papcoll__scatter_lin_engine(a, NULL);
}
