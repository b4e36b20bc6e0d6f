/*
 * Latency spread and CPU use per rank (see limits.h).
 */
#include "limits.h"

#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <unistd.h>

enum { TAG_PING = 9201 };

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;

    return (a > b) - (a < b);
}

/* Rank `peer`'s half round trip, measured by the root (min over reps). */
static double ping(MPI_Comm comm, int peer, int reps)
{
    double best = -1.0;
    int k;

    for (k = 0; k < reps; k++) {
        double t0 = MPI_Wtime(), half;

        MPI_Send(NULL, 0, MPI_BYTE, peer, TAG_PING, comm);
        MPI_Recv(NULL, 0, MPI_BYTE, peer, TAG_PING, comm, MPI_STATUS_IGNORE);
        half = 0.5 * (MPI_Wtime() - t0);
        if (best < 0 || half < best)
            best = half;
    }
    return best;
}

/* Root: min, median and max over the P - 1 leaves. */
static void alpha_stats(const double *a, int P, int root, bench_limits_t *l, double *sorted)
{
    int i, n = 0;

    l->alpha_max = -1.0;
    for (i = 0; i < P; i++) {
        if (i == root)
            continue;
        sorted[n++] = a[i];
        if (a[i] > l->alpha_max) {
            l->alpha_max = a[i];
            l->alpha_max_rank = i;
        }
    }
    qsort(sorted, (size_t)n, sizeof *sorted, cmp_double);
    l->alpha_min = sorted[0];
    l->alpha_median = n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
}

int limits_alpha(MPI_Comm comm, int root, int reps, bench_limits_t *l)
{
    double *a = NULL, *sorted = NULL;
    int rank, P, i, k, ok = 1, all;

    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &P);
    if (rank == root) {
        a = calloc((size_t)P, sizeof *a);
        sorted = calloc((size_t)P, sizeof *sorted);
        ok = a != NULL && sorted != NULL;
    }
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, comm);
    if (all && P > 1) {
        for (i = 0; i < P; i++) {
            if (i == root)
                continue;
            if (rank == root)
                a[i] = ping(comm, i, reps);
            else if (rank == i)
                for (k = 0; k < reps; k++) {
                    MPI_Recv(NULL, 0, MPI_BYTE, root, TAG_PING, comm, MPI_STATUS_IGNORE);
                    MPI_Send(NULL, 0, MPI_BYTE, root, TAG_PING, comm);
                }
        }
        if (rank == root)
            alpha_stats(a, P, root, l, sorted);
    }
    free(a);
    free(sorted);
    return all ? 0 : -1;
}

/* This process's user + system time (s) and involuntary context switches. */
static void usage_now(double *cpu, double *nivcsw)
{
    struct rusage ru;

    memset(&ru, 0, sizeof ru);
    getrusage(RUSAGE_SELF, &ru);
    *cpu = (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec + (double)ru.ru_stime.tv_sec +
           1e-6 * (double)ru.ru_stime.tv_usec;
    *nivcsw = (double)ru.ru_nivcsw;
}

void limits_cpu_start(bench_limits_t *l)
{
    usage_now(&l->cpu0, &l->nivcsw0);
    l->t0 = MPI_Wtime();
}

/* Root: statistics of the P (cpu, nivcsw) pairs. */
static void cpu_stats(const double *v, int P, bench_limits_t *l)
{
    int i;

    l->cpu_min = l->cpu_max = v[0];
    l->cpu_total = l->nivcsw_max = 0.0;
    l->cpu_max_rank = 0;
    for (i = 0; i < P; i++) {
        double c = v[2 * i];

        l->cpu_total += c;
        if (c < l->cpu_min)
            l->cpu_min = c;
        if (c > l->cpu_max) {
            l->cpu_max = c;
            l->cpu_max_rank = i;
        }
        if (v[2 * i + 1] > l->nivcsw_max)
            l->nivcsw_max = v[2 * i + 1];
    }
    l->cpu_mean = l->cpu_total / P;
    l->cores = (int)sysconf(_SC_NPROCESSORS_ONLN);
}

int limits_cpu_end(MPI_Comm comm, int root, bench_limits_t *l)
{
    double mine[2], *all = NULL;
    int rank, P, ok = 1, every;

    usage_now(&mine[0], &mine[1]);
    l->wall = MPI_Wtime() - l->t0;
    mine[0] -= l->cpu0;
    mine[1] -= l->nivcsw0;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &P);
    if (rank == root)
        ok = (all = calloc(2 * (size_t)P, sizeof *all)) != NULL;
    MPI_Allreduce(&ok, &every, 1, MPI_INT, MPI_MIN, comm);
    if (every) {
        MPI_Gather(mine, 2, MPI_DOUBLE, all, 2, MPI_DOUBLE, root, comm);
        if (rank == root)
            cpu_stats(all, P, l);
    }
    free(all);
    return every ? 0 : -1;
}
