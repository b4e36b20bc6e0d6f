/*
 * The probe behind the round alpha (docs/reduce.md, "The round alpha"): on
 * every rank, the best of 3 means of 20 back-to-back empty MPI_Sendrecv
 * rounds to rank + 1 from rank - 1 (maximum over ranks), and half the
 * shortest of 20 ping-pongs of each pair (2i, 2i+1) at once (maximum over
 * pairs), as papcoll's model measures alpha.
 *   mpicc -O2 -o ralpha ralpha.c
 *   jobs/emucluster up 8; for i in 1 2 3 4 5; do jobs/emucluster run -- ./ralpha; done
 * Output of the five launches (cubic nodes, 2026-12-03): output.txt.
 */
#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv)
{
    int rank, size;
    char b[1], c[1];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    double best = 1e9, pp = 1e9;
    for (int rep = 0; rep < 3; rep++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double s = MPI_Wtime();
        for (int r = 0; r < 20; r++)
            MPI_Sendrecv(b, 0, MPI_BYTE, (rank + 1) % size, 3, c, 0, MPI_BYTE, (rank - 1 + size) % size, 3,
                         MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        double t = (MPI_Wtime() - s) / 20;
        if (t < best)
            best = t;
    }
    double mx;
    MPI_Allreduce(&best, &mx, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    int peer = rank ^ 1;
    for (int r = 0; r < 20; r++) {
        double s = MPI_Wtime();
        if (!(rank & 1)) {
            MPI_Send(b, 0, MPI_BYTE, peer, 1, MPI_COMM_WORLD);
            MPI_Recv(b, 0, MPI_BYTE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(b, 0, MPI_BYTE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(b, 0, MPI_BYTE, peer, 1, MPI_COMM_WORLD);
        }
        double t = MPI_Wtime() - s;
        if (!(rank & 1) && t < pp)
            pp = t;
    }
    pp /= 2;
    double ppm;
    if (rank & 1)
        pp = 0;
    MPI_Allreduce(&pp, &ppm, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0)
        printf("round alpha (best of 3 means of 20, max over ranks) %.1f us; pingpong alpha %.1f us\n",
               mx * 1e6, ppm * 1e6);
    MPI_Finalize();
}
