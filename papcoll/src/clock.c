/*
 * The global time base (DESIGN "clock"): this rank's CLOCK_MONOTONIC moved
 * onto rank 0's.  MPI_Wtime is not usable for that: Open MPI counts it from
 * a per-process origin, so even ranks on one node disagree by milliseconds,
 * and edge estimates of different ranks must be comparable for the plans.
 *
 *   - within a node the monotonic clock is shared: the node's leader
 *     measures, the others take its estimate;
 *   - between nodes the leaders ping-pong with rank 0 and keep the round
 *     trip of least duration (SKaMPI / Netgauge style): offset = midpoint of
 *     the round trip minus rank 0's reading, error <= half the round trip;
 *   - every clock_resync calls of the context's first site the estimate is
 *     repeated; the change of offset over the elapsed time is the drift,
 *     and between estimates a rank's global time is
 *         now = raw - (offset + drift * (raw - tref)).
 *
 * Re-estimation runs in the first site's monitor thread (or at the end of
 * its call without one) on communicators of its own; clock_lock guards the
 * estimate that every thread reads.  When MPI_WTIME_IS_GLOBAL is true
 * nothing is measured.  Tests inject per-rank offsets and drifts with
 * PAPCOLL_TEST_CLOCK_SKEW="OFFSET_US,DRIFT_PPM" (rank r's raw clock runs
 * r * DRIFT_PPM fast and r * OFFSET_US ahead); every rank then measures on
 * its own, since the ranks of a node no longer share a clock.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "clock.h"

#define PINGPONGS 32
#define TAG 1

/* This rank's own clock: the monotonic clock, skewed only by tests. */
static double raw(const papcoll_ctx_t *ctx)
{
    return papcoll__mono() * (1.0 + ctx->skew_drift) + ctx->skew_offset;
}

double papcoll__now(const papcoll_ctx_t *ctx)
{
    papcoll_ctx_t *c = (papcoll_ctx_t *)ctx; /* the lock only */
    double t = raw(ctx), now;

    pthread_mutex_lock(&c->clock_lock);
    now = t - (ctx->clock.offset + ctx->clock.drift * (t - ctx->clock_tref));
    pthread_mutex_unlock(&c->clock_lock);
    return now;
}

double papcoll_wtime(const papcoll_ctx_t *ctx)
{
    return ctx ? papcoll__now(ctx) : NAN;
}

int papcoll_clock_info(const papcoll_ctx_t *ctx, papcoll_clock_t *out)
{
    papcoll_ctx_t *c = (papcoll_ctx_t *)ctx;

    if (ctx == NULL || out == NULL)
        return PAPCOLL_ERR_INVAL;
    pthread_mutex_lock(&c->clock_lock);
    *out = ctx->clock;
    pthread_mutex_unlock(&c->clock_lock);
    return PAPCOLL_OK;
}

/* Rank 0 answers each other leader's pings with its raw time. */
static int serve(const papcoll_ctx_t *ctx, MPI_Comm leaders, int n)
{
    double t;
    int i, k, rc = MPI_SUCCESS;

    for (i = 1; i < n && rc == MPI_SUCCESS; i++)
        for (k = 0; k < PINGPONGS && rc == MPI_SUCCESS; k++) {
            rc = PMPI_Recv(NULL, 0, MPI_BYTE, i, TAG, leaders, MPI_STATUS_IGNORE);
            t = raw(ctx);
            if (rc == MPI_SUCCESS)
                rc = PMPI_Send(&t, 1, MPI_DOUBLE, i, TAG, leaders);
        }
    return rc;
}

/* est[0..2]: this leader's clock minus rank 0's, half the shortest round
 * trip, and the raw time the offset refers to. */
static int ping(const papcoll_ctx_t *ctx, MPI_Comm leaders, double *est)
{
    double best = INFINITY, t0 = 0, t1, t2;
    int k, rc = MPI_SUCCESS;

    for (k = 0; k < PINGPONGS && rc == MPI_SUCCESS; k++) {
        t1 = raw(ctx);
        rc = PMPI_Send(NULL, 0, MPI_BYTE, 0, TAG, leaders);
        if (rc == MPI_SUCCESS)
            rc = PMPI_Recv(&t0, 1, MPI_DOUBLE, 0, TAG, leaders, MPI_STATUS_IGNORE);
        t2 = raw(ctx);
        if (t2 - t1 < best) {
            best = t2 - t1;
            est[0] = 0.5 * (t1 + t2) - t0;
            est[2] = 0.5 * (t1 + t2);
        }
    }
    est[1] = 0.5 * best;
    return rc;
}

static int wtime_is_global(MPI_Comm comm)
{
    int *value = NULL, flag = 0;

    PMPI_Comm_get_attr(comm, MPI_WTIME_IS_GLOBAL, &value, &flag);
    return flag && value != NULL && *value;
}

/* Publishes a new estimate; the second one on gives the drift. */
static void publish(papcoll_ctx_t *ctx, const double *est, const double *maxv, int first)
{
    papcoll_clock_t *k = &ctx->clock;

    pthread_mutex_lock(&ctx->clock_lock);
    if (!first && est[2] > ctx->clock_tref)
        k->drift = (est[0] - k->offset) / (est[2] - ctx->clock_tref);
    k->offset = est[0];
    k->error = est[1];
    ctx->clock_tref = est[2];
    k->max_abs = maxv[0];
    k->max_err = maxv[1];
    pthread_mutex_unlock(&ctx->clock_lock);
}

/* One estimate over the cached communicators (collective over clock_comm). */
static int estimate(papcoll_ctx_t *ctx, int first)
{
    double est[3] = {0, 0, 0}, v[2], maxv[2] = {0, 0};
    int n = 0, rc = MPI_SUCCESS;

    est[2] = raw(ctx);
    if (ctx->leader_comm != MPI_COMM_NULL) {
        PMPI_Comm_size(ctx->leader_comm, &n);
        rc = ctx->rank == 0 ? serve(ctx, ctx->leader_comm, n) : ping(ctx, ctx->leader_comm, est);
    }
    if (rc == MPI_SUCCESS)
        rc = PMPI_Bcast(est, 3, MPI_DOUBLE, 0, ctx->node_comm);
    v[0] = fabs(est[0]);
    v[1] = est[1];
    if (rc == MPI_SUCCESS)
        rc = PMPI_Allreduce(v, maxv, 2, MPI_DOUBLE, MPI_MAX, ctx->clock_comm);
    if (rc == MPI_SUCCESS)
        publish(ctx, est, maxv, first);
    return PAPCOLL__ERR(rc);
}

static void read_skew(papcoll_ctx_t *ctx)
{
    const char *s = getenv("PAPCOLL_TEST_CLOCK_SKEW");
    double off_us = 0, drift_ppm = 0;

    if (s == NULL || sscanf(s, "%lf,%lf", &off_us, &drift_ppm) < 1)
        return;
    ctx->skew_offset = ctx->rank * off_us * 1e-6;
    ctx->skew_drift = ctx->rank * drift_ppm * 1e-6;
    ctx->skewed = 1;
}

/* Node and leader communicators, kept for re-estimation. */
static int clock_comms(papcoll_ctx_t *ctx, int *local)
{
    int rc = PMPI_Comm_dup(ctx->data_comm, &ctx->clock_comm);

    if (rc == MPI_SUCCESS && ctx->skewed) /* every rank its own node */
        rc = PMPI_Comm_split(ctx->clock_comm, ctx->rank, 0, &ctx->node_comm);
    else if (rc == MPI_SUCCESS)
        rc = PMPI_Comm_split_type(ctx->clock_comm, MPI_COMM_TYPE_SHARED, ctx->rank, MPI_INFO_NULL,
                                 &ctx->node_comm);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Comm_rank(ctx->node_comm, local);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Comm_split(ctx->clock_comm, *local == 0 ? 0 : MPI_UNDEFINED, ctx->rank,
                            &ctx->leader_comm);
    return PAPCOLL__ERR(rc);
}

/* Collective over ctx->data_comm (rank 0 is the reference). */
int papcoll__clock_init(papcoll_ctx_t *ctx)
{
    int local = 0, rc;

    ctx->clock_comm = ctx->node_comm = ctx->leader_comm = MPI_COMM_NULL;
    if (pthread_mutex_init(&ctx->clock_lock, NULL) != 0)
        return PAPCOLL_ERR_THREAD;
    ctx->has_clock_lock = 1;
    read_skew(ctx);
    ctx->clock = (papcoll_clock_t){.nodes = 1, .global = wtime_is_global(ctx->data_comm)};
    ctx->clock_tref = raw(ctx);
    if (ctx->clock.global && !ctx->skewed)
        return PAPCOLL_OK;
    if ((rc = clock_comms(ctx, &local)) != PAPCOLL_OK)
        return rc;
    rc = PMPI_Allreduce(&(int){local == 0}, &ctx->clock.nodes, 1, MPI_INT, MPI_SUM, ctx->clock_comm);
    return rc == MPI_SUCCESS ? estimate(ctx, 1) : PAPCOLL__ERR(rc);
}

int papcoll__clock_update(papcoll_ctx_t *ctx)
{
    if (ctx->clock_comm == MPI_COMM_NULL)
        return PAPCOLL_OK; /* global clock: nothing to re-estimate */
    return estimate(ctx, 0);
}

void papcoll__clock_free(papcoll_ctx_t *ctx)
{
    if (ctx->leader_comm != MPI_COMM_NULL)
        PMPI_Comm_free(&ctx->leader_comm);
    if (ctx->node_comm != MPI_COMM_NULL)
        PMPI_Comm_free(&ctx->node_comm);
    if (ctx->clock_comm != MPI_COMM_NULL)
        PMPI_Comm_free(&ctx->clock_comm);
    if (ctx->has_clock_lock)
        pthread_mutex_destroy(&ctx->clock_lock);
    ctx->has_clock_lock = 0;
}
