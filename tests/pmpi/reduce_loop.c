/*
 * reduce_loop: an ordinary MPI program timing a loop of collectives, for
 * the interposer's overhead (docs/results/overheads.md, "PMPI") and its
 * trace -> paptrace -> papbench test.
 *
 *   reduce_loop [--op reduce|allreduce] [--bytes N] [--iters N] [--warmup N]
 *               [--delay-us D]
 *
 * Each iteration optionally computes (busy-waits) rank-dependent D * (rank %
 * 4) microseconds, so that a trace shows an arrival pattern, then calls the
 * collective on MPI_DOUBLEs (MPI_SUM, root 0).  After --warmup untimed
 * iterations a barrier starts the clock; rank 0 prints one line
 *
 *   reduce_loop: op=reduce P=8 bytes=1048576 iters=1000 time_s=... per_call_us=... check=ok
 *
 * The check compares the last result with the sum computed locally; exit 1
 * when it is wrong.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int allreduce;
    long long bytes;
    long iters, warmup;
    double delay_us;
} opts_t;

static int parse(int argc, char **argv, opts_t *o)
{
    int i;

    *o = (opts_t){0, 1 << 20, 1000, 10, 0.0};
    for (i = 1; i < argc; i++) {
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;

        if (strcmp(argv[i], "--op") == 0 && v && (!strcmp(v, "reduce") || !strcmp(v, "allreduce")))
            o->allreduce = strcmp(v, "allreduce") == 0;
        else if (strcmp(argv[i], "--bytes") == 0 && v && atoll(v) >= 8)
            o->bytes = atoll(v);
        else if (strcmp(argv[i], "--iters") == 0 && v && atol(v) > 0)
            o->iters = atol(v);
        else if (strcmp(argv[i], "--warmup") == 0 && v && atol(v) >= 0)
            o->warmup = atol(v);
        else if (strcmp(argv[i], "--delay-us") == 0 && v && atof(v) >= 0)
            o->delay_us = atof(v);
        else
            return strcmp(argv[i], "--help") == 0 ? 1 : -1;
        i++;
    }
    return 0;
}

static void busy(double us)
{
    double t0 = MPI_Wtime();

    while ((MPI_Wtime() - t0) * 1e6 < us)
        ;
}

int main(int argc, char **argv)
{
    opts_t o;
    int rank, size, rc, n, i, ok = 1;
    double *x, *y, t0, t;
    long it;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if ((rc = parse(argc, argv, &o)) != 0) {
        if (rank == 0)
            fprintf(rc > 0 ? stdout : stderr,
                    "%susage: reduce_loop [--op reduce|allreduce] [--bytes N>=8] [--iters N] [--warmup N] "
                    "[--delay-us D]\n",
                    rc > 0 ? "" : "reduce_loop: bad arguments; ");
        MPI_Finalize();
        return rc > 0 ? 0 : 2;
    }
    n = (int)(o.bytes / 8);
    x = malloc((size_t)n * sizeof *x);
    y = calloc((size_t)n, sizeof *y);
    if (x == NULL || y == NULL) {
        fprintf(stderr, "reduce_loop: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    for (i = 0; i < n; i++)
        x[i] = rank + i % 7;
    t0 = 0;
    for (it = -o.warmup; it < o.iters; it++) {
        if (it == 0) {
            MPI_Barrier(MPI_COMM_WORLD);
            t0 = MPI_Wtime();
        }
        busy(o.delay_us * (rank % 4));
        if (o.allreduce)
            MPI_Allreduce(x, y, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        else
            MPI_Reduce(x, y, n, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    }
    t = MPI_Wtime() - t0;
    for (i = 0; (o.allreduce || rank == 0) && i < n; i++)
        ok &= y[i] == (double)size * (size - 1) / 2 + (double)size * (i % 7);
    if (rank == 0)
        printf("reduce_loop: op=%s P=%d bytes=%lld iters=%ld time_s=%.6f per_call_us=%.3f check=%s\n",
               o.allreduce ? "allreduce" : "reduce", size, (long long)n * 8, o.iters, t, t / o.iters * 1e6,
               ok ? "ok" : "WRONG");
    fflush(stdout);
    free(x);
    free(y);
    MPI_Finalize();
    return !ok;
}
