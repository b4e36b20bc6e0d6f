/*
 * check_split: the root/non-root idiom of unmodified MPI programs, where the
 * root calls a collective from one line and the other ranks from another:
 *
 *   if (rank == root) MPI_Gather(sbuf, n, MPI_INT, rbuf, n, MPI_INT, root, comm);
 *   else              MPI_Gather(sbuf, n, MPI_INT, NULL, 0, MPI_INT, root, comm);
 *
 * for gather, scatter, bcast and reduce, with MPI_IN_PLACE at the root,
 * and the zero-length gather with NULL buffers that ends MPICH's gather2.
 * Each call of the main loop follows a computation of (rank % 4) x 2 ms, so
 * that a trace shows rank-dependent arrivals.  Then: the same op with
 * several roots from split lines (one signature per root), and a reduce and
 * an allreduce that even and odd ranks reach from different functions.
 * With --mismatch, rank 0 broadcasts n ints and the others receive 2n: an
 * erroneous program that plain MPI tolerates with a linear bcast, whose
 * ranks' byte counts differ (the interposer must pass it through).
 *
 * Prints one "FAIL check_split: ..." line per wrong result and a last line
 * "check_split: P=N: K checks, F failed"; exits 1 when anything failed.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define N 24

static int g_rank, g_size;
static long g_checks, g_failed;
static volatile int g_odd; /* keeps the odd ranks' functions distinct */

static void check(int ok, const char *what, int it)
{
    g_checks++;
    if (ok)
        return;
    g_failed++;
    if (g_failed <= 20)
        printf("FAIL check_split: rank %d: %s (iteration %d)\n", g_rank, what, it);
}

static int val(int r, int i)
{
    return r * 1000 + i;
}

static void compute(void)
{
    struct timespec d = {0, (long)(g_rank % 4) * 2000000L};

    nanosleep(&d, NULL);
}

static void split_calls(int root, int it)
{
    int mine[N], all[N * 64], res[N], i, r, ok;

    for (i = 0; i < N; i++)
        mine[i] = val(g_rank, i + it);
    /* gather */
    compute();
    memset(all, 0xff, sizeof all);
    if (g_rank == root)
        MPI_Gather(mine, N, MPI_INT, all, N, MPI_INT, root, MPI_COMM_WORLD);
    else
        MPI_Gather(mine, N, MPI_INT, NULL, 0, MPI_INT, root, MPI_COMM_WORLD);
    for (r = 0, ok = 1; g_rank == root && r < g_size; r++)
        for (i = 0; i < N; i++)
            ok &= all[r * N + i] == val(r, i + it);
    check(ok, "gather", it);
    /* scatter */
    compute();
    for (r = 0; r < g_size; r++)
        for (i = 0; i < N; i++)
            all[r * N + i] = val(r, i - it);
    memset(res, 0, sizeof res);
    if (g_rank == root)
        MPI_Scatter(all, N, MPI_INT, res, N, MPI_INT, root, MPI_COMM_WORLD);
    else
        MPI_Scatter(NULL, 0, MPI_INT, res, N, MPI_INT, root, MPI_COMM_WORLD);
    for (i = 0, ok = 1; i < N; i++)
        ok &= res[i] == val(g_rank, i - it);
    check(ok, "scatter", it);
    /* bcast */
    compute();
    if (g_rank == root) {
        for (i = 0; i < N; i++)
            res[i] = val(root, 7 * i + it);
        MPI_Bcast(res, N, MPI_INT, root, MPI_COMM_WORLD);
    } else {
        memset(res, 0, sizeof res);
        MPI_Bcast(res, N, MPI_INT, root, MPI_COMM_WORLD);
    }
    for (i = 0, ok = 1; i < N; i++)
        ok &= res[i] == val(root, 7 * i + it);
    check(ok, "bcast", it);
    /* reduce */
    compute();
    memset(res, 0, sizeof res);
    if (g_rank == root)
        MPI_Reduce(mine, res, N, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD);
    else
        MPI_Reduce(mine, NULL, N, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD);
    for (i = 0, ok = 1; g_rank == root && i < N; i++)
        ok &= res[i] == g_size * (g_size - 1) / 2 * 1000 + g_size * (i + it);
    check(ok, "reduce", it);
}

/* MPI_IN_PLACE at the root, and MPICH gather2's zero-length ending. */
static void in_place_calls(int root, int it)
{
    int mine[N], all[N * 64], i, r, ok;

    for (i = 0; i < N; i++)
        mine[i] = val(g_rank, i + it);
    compute();
    for (i = 0; i < N; i++)
        all[root * N + i] = val(root, i + it);
    if (g_rank == root)
        MPI_Gather(MPI_IN_PLACE, N, MPI_INT, all, N, MPI_INT, root, MPI_COMM_WORLD);
    else
        MPI_Gather(mine, N, MPI_INT, NULL, 0, MPI_INT, root, MPI_COMM_WORLD);
    for (r = 0, ok = 1; g_rank == root && r < g_size; r++)
        for (i = 0; i < N; i++)
            ok &= all[r * N + i] == val(r, i + it);
    check(ok, "gather in place", it);
    compute();
    if (g_rank == root)
        MPI_Reduce(MPI_IN_PLACE, mine, N, MPI_INT, MPI_MAX, root, MPI_COMM_WORLD);
    else
        MPI_Reduce(mine, NULL, N, MPI_INT, MPI_MAX, root, MPI_COMM_WORLD);
    for (i = 0, ok = 1; g_rank == root && i < N; i++)
        ok &= mine[i] == val(g_size - 1, i + it);
    check(ok, "reduce in place", it);
    if (g_rank == root)
        MPI_Gather(MPI_IN_PLACE, -1, MPI_DATATYPE_NULL, NULL, 0, MPI_BYTE, root, MPI_COMM_WORLD);
    else
        MPI_Gather(NULL, 0, MPI_BYTE, NULL, 0, MPI_BYTE, root, MPI_COMM_WORLD);
}

__attribute__((noinline)) static void sums_even(int v, int *r, int *a)
{
    MPI_Reduce(&v, r, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Allreduce(&v, a, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
}

__attribute__((noinline)) static void sums_odd(int v, int *r, int *a)
{
    g_odd++;
    MPI_Reduce(&v, r, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Allreduce(&v, a, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
}

static void mismatch(void)
{
    int b[2 * N], i, ok = 1;

    for (i = 0; i < 2 * N; i++)
        b[i] = g_rank == 0 ? val(0, i) : -1;
    MPI_Bcast(b, g_rank == 0 ? N : 2 * N, MPI_INT, 0, MPI_COMM_WORLD);
    for (i = 0; i < N; i++)
        ok &= b[i] == val(0, i);
    check(ok, "bcast with mismatched counts", 0);
}

int main(int argc, char **argv)
{
    int iters = 12, it, root, r = 0, a = 0, i;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &g_size);
    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--iters") == 0 && i + 1 < argc)
            iters = atoi(argv[++i]);
        else if (strcmp(argv[i], "--mismatch") == 0)
            mismatch();
        else {
            if (g_rank == 0)
                fprintf(stderr, "usage: check_split [--iters N] [--mismatch]\n");
            MPI_Finalize();
            return strcmp(argv[i], "--help") == 0 ? 0 : 2;
        }
    }
    if (g_size > 64) {
        if (g_rank == 0)
            fprintf(stderr, "check_split: at most 64 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    for (it = 0; it < iters; it++)
        split_calls(0, it);
    for (root = 0; root < g_size; root++) {
        split_calls(root, root);
        in_place_calls(root, root);
    }
    for (it = 0; it < 5; it++) {
        (g_rank % 2 ? sums_odd : sums_even)(g_rank + it, &r, &a);
        check(g_rank != 0 || r == g_size * (g_size - 1) / 2 + g_size * it, "reduce from two functions", it);
        check(a == g_size - 1 + it, "allreduce from two functions", it);
    }
    MPI_Allreduce(MPI_IN_PLACE, &g_failed, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (g_rank == 0)
        printf("check_split: P=%d: %ld checks, %ld failed\n", g_size, g_checks, g_failed);
    MPI_Finalize();
    return g_failed > 0;
}
