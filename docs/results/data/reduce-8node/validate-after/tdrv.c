/*
 * A minimal papcoll driver (docs/results/reduce-8node.md, "Validation after
 * the call"): the papbench iteration without papbench (double barrier,
 * processing start, 50 ms, edge, 50 ms, processing end, papcoll_reduce of n
 * ints, MPI_SUM to rank 0), run time = max exit - min arrival, median of
 * TRIALS after 2 warm-up calls.  No validation.  Not part of the build.
 *
 *   mpicc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -Ipapcoll/include -o tdrv tdrv.c lib/libpapcoll.a -linih -lm -pthread
 *   jobs/emucluster run -- ./tdrv ALGO [n [TRIALS [EDGE 0|1]]]
 */
#include <mpi.h>
#include <papcoll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static void nap(double s) { struct timespec ts = {(time_t)s, (long)((s - (time_t)s) * 1e9)}; nanosleep(&ts, NULL); }
static int cmp(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return (x > y) - (x < y); }
int main(int argc, char **argv)
{
    int prov, me, P, n = argc > 2 ? atoi(argv[2]) : 524288, trials = argc > 3 ? atoi(argv[3]) : 15, edge = argc > 4 ? atoi(argv[4]) : 1, t;
    const char *algo = argc > 1 ? argv[1] : "treedyn";
    papcoll_ctx_t *ctx; papcoll_site_t *site;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &prov);
    MPI_Comm_rank(MPI_COMM_WORLD, &me); MPI_Comm_size(MPI_COMM_WORLD, &P);
    if (papcoll_init(MPI_COMM_WORLD, NULL, &ctx) || papcoll_site_create(ctx, "drv", PAPCOLL_OP_REDUCE, algo, &site)) { fprintf(stderr, "init failed\n"); MPI_Abort(MPI_COMM_WORLD, 1); }
    int *v = malloc(n * sizeof(int)), *r = malloc(n * sizeof(int)); double *dt = malloc(trials * sizeof(double));
    for (int i = 0; i < n; i++) v[i] = me + i;
    for (t = 0; t < trials + 2; t++) {
        double a, f, amin, fmax;
        MPI_Barrier(MPI_COMM_WORLD); MPI_Barrier(MPI_COMM_WORLD);
        if (edge) { papcoll_processing_start(site); nap(0.05); papcoll_edge(site, 0.5); nap(0.05); papcoll_processing_end(site); }
        else nap(0.1);
        a = MPI_Wtime();
        papcoll_reduce(site, v, r, n, MPI_INT, MPI_SUM, 0);
        f = MPI_Wtime();
        MPI_Allreduce(&a, &amin, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
        MPI_Allreduce(&f, &fmax, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        if (t >= 2) dt[t - 2] = fmax - amin;
    }
    if (me == 0) { qsort(dt, trials, sizeof *dt, cmp); printf("%s n=%d edge=%d: median %.2f ms (min %.2f)\n", algo, n, edge, dt[trials / 2] * 1e3, dt[0] * 1e3); }
    papcoll_site_free(&site); papcoll_finalize(&ctx); MPI_Finalize(); return 0;
}
