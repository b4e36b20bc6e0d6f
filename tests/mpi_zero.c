/*
 * MPI test of zero-length calls with NULL buffers, the form MPICH's
 * test/mpi/coll/gather2 ends with: every algorithm of every op, on a site
 * forced to it (fixed:NAME), gets a call of 0 elements whose buffers are
 * NULL, with MPI_IN_PLACE at the root (gather, scatter, reduce) or on every
 * rank (allreduce), and a count of -1 and MPI_DATATYPE_NULL where MPI says
 * the argument is not significant.  Every rank must return PAPCOLL_OK.  A
 * zero-byte buffer is legal MPI; an algorithm that takes the root's NULL
 * receive buffer for a failed allocation returns PAPCOLL_ERR_NOMEM here (or
 * leaves the other ranks waiting: tests/zero.sh runs this under a timeout).
 *
 * usage: mpirun -np P mpi_zero
 */
#include <mpi.h>
#include <stdio.h>

#include "papcoll.h"

static int zero_call(papcoll_site_t *s, papcoll_op_t op, int rank, int root)
{
    int me = rank == root;

    switch (op) {
    case PAPCOLL_OP_GATHER:
        return me ? papcoll_gather(s, MPI_IN_PLACE, -1, MPI_DATATYPE_NULL, NULL, 0, MPI_BYTE, root)
                  : papcoll_gather(s, NULL, 0, MPI_BYTE, NULL, -1, MPI_DATATYPE_NULL, root);
    case PAPCOLL_OP_SCATTER:
        return me ? papcoll_scatter(s, NULL, 0, MPI_BYTE, MPI_IN_PLACE, -1, MPI_DATATYPE_NULL, root)
                  : papcoll_scatter(s, NULL, -1, MPI_DATATYPE_NULL, NULL, 0, MPI_BYTE, root);
    case PAPCOLL_OP_BCAST:
        return papcoll_bcast(s, NULL, 0, MPI_BYTE, root);
    case PAPCOLL_OP_REDUCE:
        return papcoll_reduce(s, me ? MPI_IN_PLACE : NULL, NULL, 0, MPI_INT, MPI_SUM, root);
    default:
        return papcoll_allreduce(s, MPI_IN_PLACE, NULL, 0, MPI_INT, MPI_SUM);
    }
}

int main(int argc, char **argv)
{
    papcoll_options_t o = {.quiet = 1};
    papcoll_ctx_t *ctx = NULL;
    papcoll_site_t *s;
    char policy[64];
    int provided, rank, size, op, i, k, rc, failed = 0, all = 0;

    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if ((rc = papcoll_init(MPI_COMM_WORLD, &o, &ctx)) != PAPCOLL_OK) {
        fprintf(stderr, "FAIL mpi_zero: papcoll_init: %s\n", papcoll_strerror(rc));
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (op = 0; op < PAPCOLL_OP_COUNT; op++)
        for (i = 0; i < papcoll_algo_count((papcoll_op_t)op); i++) {
            snprintf(policy, sizeof policy, "fixed:%s", papcoll_algo_name((papcoll_op_t)op, i));
            if ((rc = papcoll_site_create(ctx, "zero", (papcoll_op_t)op, policy, &s)) != PAPCOLL_OK) {
                fprintf(stderr, "FAIL mpi_zero: rank %d: site %s: %s\n", rank, policy, papcoll_strerror(rc));
                failed++;
                continue;
            }
            for (k = 0; k < 3; k++) { /* the second and third calls take the monitor's decision */
                rc = zero_call(s, (papcoll_op_t)op, rank, op == PAPCOLL_OP_ALLREDUCE ? -1 : (k + size - 1) % size);
                if (rc != PAPCOLL_OK) {
                    fprintf(stderr, "FAIL mpi_zero: rank %d: %s %s, call %d: %s\n", rank,
                            papcoll_op_name((papcoll_op_t)op), papcoll_algo_name((papcoll_op_t)op, i), k,
                            papcoll_strerror(rc));
                    failed++;
                }
            }
            papcoll_site_free(&s);
        }
    papcoll_finalize(&ctx);
    MPI_Allreduce(&failed, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("mpi_zero: P=%d: %d failed calls\n", size, all);
    MPI_Finalize();
    return all != 0;
}
