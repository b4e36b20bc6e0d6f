/*
 * One-way transfer, exchange with one peer, and ring exchange of N bytes,
 * on every pair (rank XOR 1) or around the ring at once; best of 5 after a
 * warm-up.  Not part of the build (docs/results/bcast-allreduce-8node.md,
 * "Every size of the range").  Usage: duplex [N]
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
    int me, P, reps = 5, r;
    size_t n = argc > 1 ? (size_t)atol(argv[1]) : 8u << 20;
    char *sb, *rb;
    double t, best[3] = {1e9, 1e9, 1e9};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    sb = calloc(n, 1); rb = calloc(n, 1);
    for (r = 0; r < reps + 1; r++) {
        int peer = me ^ 1;
        /* one-way: even ranks send to odd partner */
        MPI_Barrier(MPI_COMM_WORLD); t = MPI_Wtime();
        if (me % 2 == 0) { MPI_Send(sb, (int)n, MPI_BYTE, peer, 1, MPI_COMM_WORLD); MPI_Recv(rb, 0, MPI_BYTE, peer, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE); }
        else { MPI_Recv(rb, (int)n, MPI_BYTE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE); MPI_Send(sb, 0, MPI_BYTE, peer, 2, MPI_COMM_WORLD); }
        t = MPI_Wtime() - t; if (r && t < best[0]) best[0] = t;
        /* same-peer exchange */
        MPI_Barrier(MPI_COMM_WORLD); t = MPI_Wtime();
        MPI_Sendrecv(sb, (int)n, MPI_BYTE, peer, 3, rb, (int)n, MPI_BYTE, peer, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Barrier(MPI_COMM_WORLD);
        t = MPI_Wtime() - t; if (r && t < best[1]) best[1] = t;
        /* ring: send to next, receive from prev */
        MPI_Barrier(MPI_COMM_WORLD); t = MPI_Wtime();
        MPI_Sendrecv(sb, (int)n, MPI_BYTE, (me + 1) % P, 4, rb, (int)n, MPI_BYTE, (me + P - 1) % P, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Barrier(MPI_COMM_WORLD);
        t = MPI_Wtime() - t; if (r && t < best[2]) best[2] = t;
    }
    if (me == 0) printf("P=%d n=%zu  one-way %.2f ms  same-peer exchange %.2f ms  ring exchange %.2f ms\n", P, n, best[0]*1e3, best[1]*1e3, best[2]*1e3);
    MPI_Finalize();
    return 0;
}
