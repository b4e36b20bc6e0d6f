#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
static int cmp(const void *a, const void *b) { double x = *(double *)a, y = *(double *)b; return x < y ? -1 : x > y; }
int main(int argc, char **argv)
{
    int r, n, reps = argc > 1 ? atoi(argv[1]) : 20;
    double t[1000], all[8][1000];
    char b[1];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < reps; i++) {
        double t0 = MPI_Wtime();
        if (r % 2 == 0) { MPI_Send(b, 0, MPI_BYTE, r + 1, 0, MPI_COMM_WORLD); MPI_Recv(b, 0, MPI_BYTE, r + 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); }
        else { MPI_Recv(b, 0, MPI_BYTE, r - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); MPI_Send(b, 0, MPI_BYTE, r - 1, 0, MPI_COMM_WORLD); }
        t[i] = (MPI_Wtime() - t0) / 2;
    }
    qsort(t, reps, sizeof t[0], cmp);
    if (r % 2 == 0) printf("rank %d: alpha min %.1f us, median %.1f us, max %.1f us\n", r, 1e6 * t[0], 1e6 * t[reps / 2], 1e6 * t[reps - 1]);
    MPI_Finalize();
    return 0;
}
