/*
 * The public collective entry points (papcoll.h): each puts the user's
 * MPI-style arguments into a papcoll__args_t and enters the call path
 * (call.c), with or without an explicit PAT.
 */
#include "call.h"

/* The user's arguments into a record; MPI_OP_NULL for the non-reductions. */
#define PAPCOLL__ARGS(sb, sc, st, rb, rc_, rt, r, o)                                                         \
    {                                                                                                        \
        .u_sbuf = (sb), .u_scount = (sc), .u_stype = (st), .u_rbuf = (rb), .u_rcount = (rc_),                \
        .u_rtype = (rt), .root = (r), .sig.mop = (o)                                                         \
    }

int papcoll_gather(papcoll_site_t *site, const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                   int rcount, MPI_Datatype rtype, int root)
{
    papcoll__args_t a = PAPCOLL__ARGS(sbuf, scount, stype, rbuf, rcount, rtype, root, MPI_OP_NULL);
    return papcoll__call(site, PAPCOLL_OP_GATHER, NULL, &a);
}

int papcoll_scatter(papcoll_site_t *site, const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                    int rcount, MPI_Datatype rtype, int root)
{
    papcoll__args_t a = PAPCOLL__ARGS(sbuf, scount, stype, rbuf, rcount, rtype, root, MPI_OP_NULL);
    return papcoll__call(site, PAPCOLL_OP_SCATTER, NULL, &a);
}

int papcoll_bcast(papcoll_site_t *site, void *buf, int count, MPI_Datatype type, int root)
{
    papcoll__args_t a = PAPCOLL__ARGS(buf, count, type, buf, count, type, root, MPI_OP_NULL);
    return papcoll__call(site, PAPCOLL_OP_BCAST, NULL, &a);
}

int papcoll_reduce(papcoll_site_t *site, const void *sbuf, void *rbuf, int count, MPI_Datatype type,
                   MPI_Op op, int root)
{
    papcoll__args_t a = PAPCOLL__ARGS(sbuf, count, type, rbuf, count, type, root, op);
    return papcoll__call(site, PAPCOLL_OP_REDUCE, NULL, &a);
}

int papcoll_allreduce(papcoll_site_t *site, const void *sbuf, void *rbuf, int count, MPI_Datatype type,
                      MPI_Op op)
{
    papcoll__args_t a = PAPCOLL__ARGS(sbuf, count, type, rbuf, count, type, -1, op);
    return papcoll__call(site, PAPCOLL_OP_ALLREDUCE, NULL, &a);
}

int papcoll_gather_pat(papcoll_site_t *site, const double *pat, const void *sbuf, int scount,
                       MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype, int root)
{
    papcoll__args_t a = PAPCOLL__ARGS(sbuf, scount, stype, rbuf, rcount, rtype, root, MPI_OP_NULL);
    return papcoll__call(site, PAPCOLL_OP_GATHER, pat, &a);
}

int papcoll_scatter_pat(papcoll_site_t *site, const double *pat, const void *sbuf, int scount,
                        MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype, int root)
{
    papcoll__args_t a = PAPCOLL__ARGS(sbuf, scount, stype, rbuf, rcount, rtype, root, MPI_OP_NULL);
    return papcoll__call(site, PAPCOLL_OP_SCATTER, pat, &a);
}

int papcoll_bcast_pat(papcoll_site_t *site, const double *pat, void *buf, int count, MPI_Datatype type,
                      int root)
{
    papcoll__args_t a = PAPCOLL__ARGS(buf, count, type, buf, count, type, root, MPI_OP_NULL);
    return papcoll__call(site, PAPCOLL_OP_BCAST, pat, &a);
}

int papcoll_reduce_pat(papcoll_site_t *site, const double *pat, const void *sbuf, void *rbuf, int count,
                       MPI_Datatype type, MPI_Op op, int root)
{
    papcoll__args_t a = PAPCOLL__ARGS(sbuf, count, type, rbuf, count, type, root, op);
    return papcoll__call(site, PAPCOLL_OP_REDUCE, pat, &a);
}

int papcoll_allreduce_pat(papcoll_site_t *site, const double *pat, const void *sbuf, void *rbuf, int count,
                          MPI_Datatype type, MPI_Op op)
{
    papcoll__args_t a = PAPCOLL__ARGS(sbuf, count, type, rbuf, count, type, -1, op);
    return papcoll__call(site, PAPCOLL_OP_ALLREDUCE, pat, &a);
}
