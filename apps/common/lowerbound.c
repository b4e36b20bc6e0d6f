/*
 * Measurement of the lower bound's port model (see lowerbound.h).
 */
#include <math.h>
#include <stdlib.h>

#include "lowerbound.h"

/* The back-to-back measurement: blocks per stream, and the largest block it
 * sends (the credit of a token bucket does not depend on the block size). */
#define LB_STREAM_BLOCKS 4
#define LB_STREAM_MAX (4 << 20)

/* Minimum one-way time of reps ping-pongs of n bytes between root and peer. */
static double pingpong(MPI_Comm comm, int rank, int root, int peer, char *buf, int n, int reps)
{
    double best = INFINITY, t;
    int i;

    for (i = 0; i < reps; i++) {
        MPI_Barrier(comm);
        t = MPI_Wtime();
        if (rank == root) {
            MPI_Send(buf, n, MPI_BYTE, peer, 77, comm);
            MPI_Recv(buf, n, MPI_BYTE, peer, 77, comm, MPI_STATUS_IGNORE);
        } else if (rank == peer) {
            MPI_Recv(buf, n, MPI_BYTE, root, 77, comm, MPI_STATUS_IGNORE);
            MPI_Send(buf, n, MPI_BYTE, root, 77, comm);
        }
        t = (MPI_Wtime() - t) / 2;
        best = t < best ? t : best;
    }
    return best;
}

/* Minimum over reps of the root's time from asking the peer for k blocks
 * of n bytes to having received them all (buf holds k blocks). */
static double stream(MPI_Comm comm, int rank, int root, int peer, char *buf, int n, int k, int reps)
{
    MPI_Request req[LB_STREAM_BLOCKS];
    double best = INFINITY, t;
    int i, j;

    for (i = 0; i < reps; i++) {
        MPI_Barrier(comm);
        t = MPI_Wtime();
        if (rank == root) {
            for (j = 0; j < k; j++)
                MPI_Irecv(buf + (size_t)j * n, n, MPI_BYTE, peer, 78, comm, &req[j]);
            MPI_Send(NULL, 0, MPI_BYTE, peer, 79, comm);
            MPI_Waitall(k, req, MPI_STATUSES_IGNORE);
        } else if (rank == peer) {
            MPI_Recv(NULL, 0, MPI_BYTE, root, 79, comm, MPI_STATUS_IGNORE);
            for (j = 0; j < k; j++)
                MPI_Send(buf + (size_t)j * n, n, MPI_BYTE, root, 78, comm);
        }
        t = MPI_Wtime() - t;
        best = t < best ? t : best;
    }
    return best;
}

int lb_measure(MPI_Comm comm, int root, size_t block, int reps, pm_lb_model_t *m)
{
    double v[3] = {0, 0, 0}, single, per_block;
    int rank, P, peer, n = block > (size_t)LB_STREAM_MAX ? LB_STREAM_MAX : (int)block;
    char *buf;

    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &P);
    m->alpha = m->beta = m->credit = 0;
    if (P < 2)
        return 0;
    if ((buf = calloc((size_t)n * LB_STREAM_BLOCKS + 1, 1)) == NULL)
        return -1;
    peer = (root + P - 1) % P;
    v[0] = pingpong(comm, rank, root, peer, buf, 0, reps);
    if (n > 0) {
        single = pingpong(comm, rank, root, peer, buf, n, reps);
        per_block = (stream(comm, rank, root, peer, buf, n, LB_STREAM_BLOCKS, reps) -
                     stream(comm, rank, root, peer, buf, n, 1, reps)) /
                    (LB_STREAM_BLOCKS - 1);
        v[1] = (per_block - v[0]) / n;
        v[2] = per_block - single;
    }
    free(buf);
    MPI_Bcast(v, 3, MPI_DOUBLE, root, comm);
    m->alpha = v[0];
    m->beta = v[1] > 0 ? v[1] : 0;
    m->credit = v[2] > 0 ? v[2] : 0;
    return 0;
}
