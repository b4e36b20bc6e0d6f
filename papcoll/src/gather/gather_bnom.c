/*
 * gather "bnom": binomial tree with the classic placement vrank = (rank -
 * root) mod P (MPICH gather_intra_binomial).  See engine_binomial.c.
 * Any P, any root.
 */
#include "gather/engine.h"

int papcoll_gather_bnom(const papcoll__args_t *a)
{
    return papcoll__gather_bn_engine(a);
}
