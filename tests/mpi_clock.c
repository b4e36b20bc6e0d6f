/*
 * MPI test of the global clock: with synthetic per-rank offsets and drifts
 * injected (PAPCOLL_TEST_CLOCK_SKEW, set by tests/clock.sh), every rank's
 * papcoll_wtime() must agree with the true time within 20 us right after
 * the estimate at init and after a re-estimation (which also recovers the
 * drift), and stay close while the drift model extrapolates.  On one
 * machine the true time is CLOCK_MONOTONIC itself: rank 0's clock is not
 * skewed, and the ranks share the monotonic clock.
 *
 * usage: PAPCOLL_TEST_CLOCK_SKEW=OFFSET_US,DRIFT_PPM mpirun -np P mpi_clock
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "papcoll.h"

#define CALLS 20        /* re-estimation after this many calls */
#define SPACING 0.15    /* seconds between calls */

static int g_rank, g_size, g_failed;

static double mono(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void nap(double s)
{
    struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    nanosleep(&ts, NULL);
}

/* |papcoll_wtime - true time| on this rank: the true time is read before
 * and after, and the tightest of several brackets counts (a preempted
 * reading is not a clock error). */
static double clock_error(papcoll_ctx_t *ctx)
{
    double best = INFINITY, err = 0, m1, w, m2;
    int k;

    for (k = 0; k < 50; k++) {
        m1 = mono();
        w = papcoll_wtime(ctx);
        m2 = mono();
        if (m2 - m1 < best) {
            best = m2 - m1;
            err = fabs(w - 0.5 * (m1 + m2));
        }
    }
    return err;
}

/* Largest clock error over the ranks, checked against limit. */
static void check_error(papcoll_ctx_t *ctx, const char *when, double limit)
{
    double err = clock_error(ctx), max;

    MPI_Allreduce(&err, &max, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (g_rank == 0)
        printf("mpi_clock: P=%d %s: max |global - true| = %.1f us (limit %.0f us)\n", g_size, when,
               1e6 * max, 1e6 * limit);
    if (max > limit) {
        if (g_rank == 0)
            printf("FAIL mpi_clock P=%d %s: clock error %.1f us over %.0f us\n", g_size, when,
                   1e6 * max, 1e6 * limit);
        g_failed++;
    }
}

/* The recovered drift of every rank against the injected r * ppm. */
static void check_drift(papcoll_ctx_t *ctx, double ppm, double tol_ppm)
{
    papcoll_clock_t k;
    double want, got, worst = 0, all;

    papcoll_clock_info(ctx, &k);
    want = g_rank * ppm * 1e-6;
    got = k.drift;
    worst = fabs(got - want);
    MPI_Allreduce(&worst, &all, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (g_rank == 0)
        printf("mpi_clock: P=%d drift: max |recovered - injected| = %.2f ppm (limit %.0f)\n", g_size,
               1e6 * all, tol_ppm);
    if (1e6 * all > tol_ppm) {
        if (g_rank == 0)
            printf("FAIL mpi_clock P=%d: drift off by %.2f ppm\n", g_size, 1e6 * all);
        g_failed++;
    }
}

int main(int argc, char **argv)
{
    papcoll_options_t o = {.clock_resync = CALLS, .quiet = 1};
    papcoll_ctx_t *ctx = NULL;
    papcoll_site_t *site = NULL;
    double off_us = 0, ppm = 0;
    const char *skew = getenv("PAPCOLL_TEST_CLOCK_SKEW");
    int provided, i, x = 0, total, *all;

    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &g_size);
    if (skew == NULL || sscanf(skew, "%lf,%lf", &off_us, &ppm) != 2) {
        if (g_rank == 0)
            fprintf(stderr, "mpi_clock: set PAPCOLL_TEST_CLOCK_SKEW=OFFSET_US,DRIFT_PPM\n");
        MPI_Finalize();
        return 2;
    }
    all = calloc((size_t)g_size, sizeof(int));
    if (all == NULL || papcoll_init(MPI_COMM_WORLD, &o, &ctx) != 0 ||
        papcoll_site_create(ctx, "tick", PAPCOLL_OP_GATHER, "lin", &site) != 0) {
        printf("FAIL mpi_clock: setup failed on rank %d\n", g_rank);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    check_error(ctx, "after init", 20e-6);
    for (i = 0; i < CALLS; i++) {
        nap(SPACING);
        papcoll_gather(site, &x, 1, MPI_INT, all, 1, MPI_INT, 0);
    }
    papcoll_site_free(&site); /* waits for the re-estimation queued at call CALLS */
    check_error(ctx, "after re-estimation", 20e-6);
    check_drift(ctx, ppm, 10);
    nap(1.0);
    check_error(ctx, "1 s later (drift extrapolated)", 30e-6);
    papcoll_finalize(&ctx);
    free(all);
    MPI_Allreduce(&g_failed, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (g_rank == 0)
        printf("mpi_clock: P=%d: %s\n", g_size, total ? "FAILED" : "passed");
    MPI_Finalize();
    return total ? 1 : 0;
}
