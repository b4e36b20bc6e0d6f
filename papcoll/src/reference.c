/*
 * The "mpi" algorithm of every operation (papcoll_ops.def): the user's
 * arguments handed unchanged to the MPI library's collective on the site's
 * communicator.  It is the baseline every other algorithm is compared (and
 * tested) against, and the end of every fallback chain: it serves any call.
 * One exception to "unchanged": a predefined MPI_Op on a derived datatype of
 * one basic type, which MPI does not define and papcoll does (papcoll.h);
 * call.c packs such a reduction (a->sbuf set) and it runs on the basic type.
 */
#include "algo.h"

int papcoll_gather_mpi(const papcoll__args_t *a)
{
    return PAPCOLL__ERR(PMPI_Gather(a->u_sbuf, a->u_scount, a->u_stype, a->u_rbuf, a->u_rcount, a->u_rtype,
                                    a->root, a->comm));
}

int papcoll_scatter_mpi(const papcoll__args_t *a)
{
    return PAPCOLL__ERR(PMPI_Scatter(a->u_sbuf, a->u_scount, a->u_stype, a->u_rbuf, a->u_rcount, a->u_rtype,
                                     a->root, a->comm));
}

int papcoll_bcast_mpi(const papcoll__args_t *a)
{
    return PAPCOLL__ERR(PMPI_Bcast(a->u_rbuf, a->u_rcount, a->u_rtype, a->root, a->comm));
}

int papcoll_reduce_mpi(const papcoll__args_t *a)
{
    if (a->sbuf != NULL)
        return PAPCOLL__ERR(PMPI_Reduce(a->sbuf, a->rbuf, a->sig.count * a->red.per, a->red.basic, a->sig.mop,
                                        a->root, a->comm));
    return PAPCOLL__ERR(PMPI_Reduce(a->u_sbuf, a->u_rbuf, a->u_scount, a->u_stype, a->sig.mop, a->root, a->comm));
}

int papcoll_allreduce_mpi(const papcoll__args_t *a)
{
    if (a->sbuf != NULL)
        return PAPCOLL__ERR(
            PMPI_Allreduce(a->sbuf, a->rbuf, a->sig.count * a->red.per, a->red.basic, a->sig.mop, a->comm));
    return PAPCOLL__ERR(PMPI_Allreduce(a->u_sbuf, a->u_rbuf, a->u_scount, a->u_stype, a->sig.mop, a->comm));
}
