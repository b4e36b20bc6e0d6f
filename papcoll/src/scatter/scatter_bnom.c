/*
 * scatter "bnom": binomial tree with the classic placement vrank = (rank -
 * root) mod P (MPICH scatter_intra_binomial).  See engine_binomial.c.
 * Any P, any root.
 */
#include "scatter/engine.h"

int papcoll_scatter_bnom(const papcoll__args_t *a)
{
    return papcoll__scatter_bn_engine(a);
}
