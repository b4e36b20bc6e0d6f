/*
 * The global time base (DESIGN "clock"): this rank's CLOCK_MONOTONIC moved
 * onto rank 0's.  MPI_Wtime is not usable for that: Open MPI counts it from
 * a per-process origin, so even ranks on one node disagree by milliseconds,
 * and edge estimates of different ranks must be comparable for the plans.
 *
 *   - within a node the monotonic clock is shared: offset exactly 0;
 *   - between nodes the node leaders ping-pong with rank 0 and keep the
 *     round trip of least duration (SKaMPI / Netgauge style); the error of
 *     the offset is at most half of that round trip and is reported.
 *
 * Drift is not modelled yet; when MPI_WTIME_IS_GLOBAL is true nothing is
 * measured and the offset stays 0.
 */
#include <math.h>
#include <time.h>

#include "papcoll_internal.h"

#define PINGPONGS 16
#define TAG 1

double papcoll__mono(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

double papcoll__now(const papcoll_ctx_t *ctx)
{
    return papcoll__mono() - ctx->clock.offset;
}

double papcoll_wtime(const papcoll_ctx_t *ctx)
{
    return ctx ? papcoll__now(ctx) : NAN;
}

int papcoll_clock_info(const papcoll_ctx_t *ctx, papcoll_clock_t *out)
{
    if (ctx == NULL || out == NULL)
        return PAPCOLL_ERR_INVAL;
    *out = ctx->clock;
    return PAPCOLL_OK;
}

/* Rank 0 answers each other leader's pings with its monotonic time. */
static int serve(MPI_Comm leaders, int n)
{
    double t;
    int i, k, rc = MPI_SUCCESS;

    for (i = 1; i < n && rc == MPI_SUCCESS; i++)
        for (k = 0; k < PINGPONGS && rc == MPI_SUCCESS; k++) {
            rc = MPI_Recv(NULL, 0, MPI_BYTE, i, TAG, leaders, MPI_STATUS_IGNORE);
            t = papcoll__mono();
            if (rc == MPI_SUCCESS)
                rc = MPI_Send(&t, 1, MPI_DOUBLE, i, TAG, leaders);
        }
    return rc;
}

/* This leader's clock minus rank 0's, from the shortest round trip. */
static int ping(MPI_Comm leaders, double *offset, double *err)
{
    double best = INFINITY, t0 = 0, t1, t2;
    int k, rc = MPI_SUCCESS;

    for (k = 0; k < PINGPONGS && rc == MPI_SUCCESS; k++) {
        t1 = papcoll__mono();
        rc = MPI_Send(NULL, 0, MPI_BYTE, 0, TAG, leaders);
        if (rc == MPI_SUCCESS)
            rc = MPI_Recv(&t0, 1, MPI_DOUBLE, 0, TAG, leaders, MPI_STATUS_IGNORE);
        t2 = papcoll__mono();
        if (t2 - t1 < best) {
            best = t2 - t1;
            *offset = 0.5 * (t1 + t2) - t0;
        }
    }
    *err = 0.5 * best;
    return rc;
}

static int wtime_is_global(MPI_Comm comm)
{
    int *value = NULL, flag = 0;

    MPI_Comm_get_attr(comm, MPI_WTIME_IS_GLOBAL, &value, &flag);
    return flag && value != NULL && *value;
}

/* Collective over ctx->data_comm (rank 0 is the reference). */
int papcoll__clock_init(papcoll_ctx_t *ctx)
{
    MPI_Comm comm = ctx->data_comm, node = MPI_COMM_NULL, leaders = MPI_COMM_NULL;
    double v[2] = {0, 0}, maxv[2];
    int local = 0, n = 0, rc;

    ctx->clock = (papcoll_clock_t){0, 0, 0, 0, 1, wtime_is_global(comm)};
    if (ctx->clock.global)
        return PAPCOLL_OK;
    rc = MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, ctx->rank, MPI_INFO_NULL, &node);
    if (rc == MPI_SUCCESS)
        rc = MPI_Comm_rank(node, &local);
    if (rc == MPI_SUCCESS)
        rc = MPI_Comm_split(comm, local == 0 ? 0 : MPI_UNDEFINED, ctx->rank, &leaders);
    if (rc == MPI_SUCCESS && leaders != MPI_COMM_NULL) {
        MPI_Comm_size(leaders, &n);
        rc = ctx->rank == 0 ? serve(leaders, n) : ping(leaders, &v[0], &v[1]);
    }
    if (rc == MPI_SUCCESS)
        rc = MPI_Bcast(v, 2, MPI_DOUBLE, 0, node);
    ctx->clock.offset = v[0];
    ctx->clock.error = v[1];
    v[0] = fabs(v[0]);
    if (rc == MPI_SUCCESS)
        rc = MPI_Allreduce(v, maxv, 2, MPI_DOUBLE, MPI_MAX, comm);
    if (rc == MPI_SUCCESS)
        rc = MPI_Allreduce(&(int){local == 0}, &ctx->clock.nodes, 1, MPI_INT, MPI_SUM, comm);
    ctx->clock.max_abs = maxv[0];
    ctx->clock.max_err = maxv[1];
    if (leaders != MPI_COMM_NULL)
        MPI_Comm_free(&leaders);
    if (node != MPI_COMM_NULL)
        MPI_Comm_free(&node);
    return PAPCOLL__ERR(rc);
}
