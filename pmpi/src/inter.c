/*
 * Intercommunicator collectives through papcoll (docs/pmpi.md,
 * "Intercommunicators"), by the leader decomposition: each group's part is
 * an intracommunicator collective on its local communicator (comm.c,
 * ip_inter_get), run like any program call (site, agreement, trace or
 * forced algorithm); the groups meet only in one message between the root
 * and the other group's rank 0, its leader:
 *
 *   bcast      root -> leader; the leader's group bcasts from local rank 0
 *   gather     the other group gathers to its leader, which sends the block to the root
 *   scatter    root -> leader; the leader's group scatters from local rank 0
 *   reduce     the other group reduces to its leader (in rank order), which sends to the root
 *   allreduce  each group reduces to its leader, the leaders swap results, each group bcasts
 *
 * MPI_PROC_NULL ranks of the root's group do nothing.  The leaders'
 * messages go over our duplicate of the intercommunicator.  MPI_IN_PLACE is
 * not allowed on intercommunicators: a call that passes it where the buffer
 * counts is refused with MPI_ERR_BUFFER, like an invalid root with
 * MPI_ERR_ROOT, through the program's error handler.
 */
#include <stdlib.h>

#include "pmpi.h"

#define IP_INTER_TAG 31457

/* Room for count elements of type (at least one byte); returns the buffer
 * address MPI takes, *mem what to free. */
static void *scratch(int count, MPI_Datatype type, void **mem)
{
    MPI_Aint lb, extent, tlb, textent;
    size_t n = 1;

    PMPI_Type_get_extent(type, &lb, &extent);
    PMPI_Type_get_true_extent(type, &tlb, &textent);
    if (count > 0)
        n = (size_t)textent + (size_t)(count - 1) * (size_t)(extent > 0 ? extent : -extent);
    *mem = malloc(n);
    return *mem != NULL ? (char *)*mem - tlb : NULL;
}

/* One local collective of the call, from or to local rank 0. */
static int part(const ip_call_t *c, const ip_inter_t *in, papcoll_op_t op, const void *sbuf, void *rbuf, int count,
                MPI_Datatype type)
{
    ip_call_t p = {op, sbuf, count, type, rbuf, count, type, c->mop, 0, in->local, c->caller, 1};

    return ip_collective(&p);
}

static int first(int a, int b)
{
    return a != MPI_SUCCESS ? a : b;
}

static int bcast(const ip_call_t *c, const ip_inter_t *in)
{
    int rc = MPI_SUCCESS;

    if (c->root == MPI_ROOT)
        return PMPI_Send(c->rbuf, c->rcount, c->rtype, 0, IP_INTER_TAG, in->p2p);
    if (in->rank == 0)
        rc = PMPI_Recv(c->rbuf, c->rcount, c->rtype, c->root, IP_INTER_TAG, in->p2p, MPI_STATUS_IGNORE);
    return first(rc, part(c, in, PAPCOLL_OP_BCAST, c->rbuf, c->rbuf, c->rcount, c->rtype));
}

/* The leader's buffer holds its group's blocks, of the send type. */
static int gather(const ip_call_t *c, const ip_inter_t *in)
{
    void *mem = NULL, *tmp = NULL;
    int rc;

    if (c->root == MPI_ROOT)
        return PMPI_Recv(c->rbuf, c->rcount * in->rsize, c->rtype, 0, IP_INTER_TAG, in->p2p, MPI_STATUS_IGNORE);
    if (in->rank == 0 && (tmp = scratch(c->scount * in->size, c->stype, &mem)) == NULL)
        return MPI_ERR_NO_MEM;
    rc = part(c, in, PAPCOLL_OP_GATHER, c->sbuf, tmp, c->scount, c->stype);
    if (in->rank == 0 && rc == MPI_SUCCESS)
        rc = PMPI_Send(tmp, c->scount * in->size, c->stype, c->root, IP_INTER_TAG, in->p2p);
    free(mem);
    return rc;
}

/* The leader's buffer holds its group's blocks, of the receive type. */
static int scatter(const ip_call_t *c, const ip_inter_t *in)
{
    void *mem = NULL, *tmp = NULL;
    int rc = MPI_SUCCESS;

    if (c->root == MPI_ROOT)
        return PMPI_Send(c->sbuf, c->scount * in->rsize, c->stype, 0, IP_INTER_TAG, in->p2p);
    if (in->rank == 0) {
        if ((tmp = scratch(c->rcount * in->size, c->rtype, &mem)) == NULL)
            return MPI_ERR_NO_MEM;
        rc = PMPI_Recv(tmp, c->rcount * in->size, c->rtype, c->root, IP_INTER_TAG, in->p2p, MPI_STATUS_IGNORE);
    }
    rc = first(rc, part(c, in, PAPCOLL_OP_SCATTER, tmp, c->rbuf, c->rcount, c->rtype));
    free(mem);
    return rc;
}

/* reduce and allreduce: the group's reduction at its leader, in rank order. */
static int reduce(const ip_call_t *c, const ip_inter_t *in)
{
    void *mem = NULL, *tmp = c->rbuf; /* insignificant but at the leader */
    int rc;

    if (c->root == MPI_ROOT)
        return PMPI_Recv(c->rbuf, c->rcount, c->rtype, 0, IP_INTER_TAG, in->p2p, MPI_STATUS_IGNORE);
    if (in->rank == 0 && (tmp = scratch(c->rcount, c->rtype, &mem)) == NULL)
        return MPI_ERR_NO_MEM;
    rc = part(c, in, PAPCOLL_OP_REDUCE, c->sbuf, tmp, c->rcount, c->rtype);
    if (in->rank == 0 && rc == MPI_SUCCESS) {
        if (c->root >= 0) /* reduce: to the root */
            rc = PMPI_Send(tmp, c->rcount, c->rtype, c->root, IP_INTER_TAG, in->p2p);
        else /* allreduce: the leaders swap */
            rc = PMPI_Sendrecv(tmp, c->rcount, c->rtype, 0, IP_INTER_TAG, c->rbuf, c->rcount, c->rtype, 0,
                               IP_INTER_TAG, in->p2p, MPI_STATUS_IGNORE);
    }
    free(mem);
    if (c->root < 0)
        rc = first(rc, part(c, in, PAPCOLL_OP_BCAST, c->rbuf, c->rbuf, c->rcount, c->rtype));
    return rc;
}

/* Whether the call's significant arguments are valid on an intercommunicator. */
static int valid(const ip_call_t *c, const ip_inter_t *in)
{
    int sends = c->op != PAPCOLL_OP_SCATTER && c->op != PAPCOLL_OP_BCAST;
    int receives = c->op != PAPCOLL_OP_GATHER && c->op != PAPCOLL_OP_REDUCE;

    if (c->root == MPI_ROOT || c->root == MPI_PROC_NULL)
        return MPI_SUCCESS;
    if (c->root != -1 && (c->root < 0 || c->root >= in->rsize))
        return MPI_ERR_ROOT;
    if ((sends && c->sbuf == MPI_IN_PLACE) || (receives && c->rbuf == MPI_IN_PLACE))
        return MPI_ERR_BUFFER;
    return MPI_SUCCESS;
}

static int (*decomposition(papcoll_op_t op))(const ip_call_t *, const ip_inter_t *)
{
    switch (op) {
    case PAPCOLL_OP_BCAST:
        return bcast;
    case PAPCOLL_OP_GATHER:
        return gather;
    case PAPCOLL_OP_SCATTER:
        return scatter;
    case PAPCOLL_OP_REDUCE:
    case PAPCOLL_OP_ALLREDUCE:
        return reduce;
    default:
        return NULL;
    }
}

/*
 * An intercommunicator call: -1 when it must pass through (an op without a
 * decomposition, or local groups that could not be set up), else the MPI
 * return code.  It counts as one rank-call of its op through papcoll, on
 * every rank of both groups; its local collectives are counted apart.
 */
int ip_inter(const ip_call_t *c)
{
    int (*run)(const ip_call_t *, const ip_inter_t *) = decomposition(c->op);
    ip_inter_t *in;
    int rc;

    if (run == NULL)
        return -1;
    ip_inside++;
    in = ip_inter_get(c->comm);
    ip_inside--;
    if (in == NULL)
        return -1;
    ip_count(IP_CNT_INTER, 1);
    ip_count(IP_CNT_OP0 + (int)c->op, 1);
    if ((rc = valid(c, in)) == MPI_SUCCESS && c->root != MPI_PROC_NULL)
        rc = run(c, in);
    if (rc != MPI_SUCCESS)
        PMPI_Comm_call_errhandler(c->comm, rc);
    return rc;
}
