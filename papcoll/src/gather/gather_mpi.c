/*
 * gather "mpi": the MPI library's MPI_Gather on the site's communicator,
 * the baseline every other algorithm is compared (and tested) against.
 */
#include "papcoll_internal.h"

int papcoll_gather_mpi(const papcoll__args_t *a)
{
    return PAPCOLL__ERR(MPI_Gather(a->u_sbuf, a->u_scount, a->u_stype, a->u_rbuf, a->u_rcount,
                                   a->u_rtype, a->root, a->comm));
}
