/*
 * Root-port lower bound (see lowerbound.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lowerbound.h"

static int cmp_double(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return (a > b) - (a < b);
}

/* Leaf arrivals sorted ascending into out (P-1 values); returns min of all. */
static double sorted_leaves(int P, const double *a, int root, double *out)
{
    double lo = a[0];
    int i, n = 0;

    for (i = 0; i < P; i++) {
        lo = a[i] < lo ? a[i] : lo;
        if (i != root)
            out[n++] = a[i];
    }
    qsort(out, (size_t)n, sizeof(double), cmp_double);
    return lo;
}

double lb_gather(int P, const double *a, int root, double alpha, double beta, size_t block)
{
    double c = alpha + (double)block * beta, t = -INFINITY, lo;
    double *leaf = malloc((size_t)P * sizeof(double));
    int i;

    if (leaf == NULL)
        return NAN;
    lo = sorted_leaves(P, a, root, leaf);
    for (i = 0; i < P - 1; i++)
        t = (t > leaf[i] ? t : leaf[i]) + c;
    free(leaf);
    t = t > a[root] ? t : a[root];
    return t - lo;
}

double lb_scatter(int P, const double *a, int root, double alpha, double beta, size_t block)
{
    double c = alpha + (double)block * beta, t = a[root], lo, slot;
    double *leaf = malloc((size_t)P * sizeof(double));
    int i;

    if (leaf == NULL)
        return NAN;
    lo = sorted_leaves(P, a, root, leaf);
    for (i = 0; i < P - 1; i++) {
        slot = a[root] + (i + 1) * c;
        slot = slot > leaf[i] ? slot : leaf[i];
        t = slot > t ? slot : t;
    }
    free(leaf);
    return t - lo;
}

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

int lb_measure(MPI_Comm comm, int root, size_t block, int reps, double *alpha, double *beta)
{
    double ab[2] = {0, 0};
    int rank, P, peer, n = block > (size_t)1 << 30 ? 1 << 30 : (int)block;
    char *buf;

    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &P);
    *alpha = *beta = 0;
    if (P < 2)
        return 0;
    if ((buf = calloc((size_t)n + 1, 1)) == NULL)
        return -1;
    peer = (root + P - 1) % P;
    ab[0] = pingpong(comm, rank, root, peer, buf, 0, reps);
    if (n > 0)
        ab[1] = (pingpong(comm, rank, root, peer, buf, n, reps) - ab[0]) / n;
    free(buf);
    MPI_Bcast(ab, 2, MPI_DOUBLE, root, comm);
    *alpha = ab[0];
    *beta = ab[1] > 0 ? ab[1] : 0;
    return 0;
}
