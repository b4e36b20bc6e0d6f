/*
 * gather "ls": linear synchronized tree in rank order (Open MPI
 * linear_sync; Proficz 2020 Sect. 2.1).  See engine_linear.c for the
 * protocol and cost.  Any P, any root.
 */
#include "gather/engine.h"

int papcoll_gather_ls(const papcoll__args_t *a)
{
    return papcoll__gather_ls_engine(a, NULL);
}
