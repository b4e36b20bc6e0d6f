/*
 * Per-call records and the sink (DESIGN "trace record shipping").
 *
 * Each rank appends its own record of every call to its site's batch.  A
 * full batch (PAPCOLL__REC_BATCH calls) is gathered to rank 0 on the site's
 * monitor communicator by the monitor thread, behind the site's exchanges in
 * its FIFO, so the application thread never waits for it; without a monitor
 * thread the gather runs at the end of every PAPCOLL__REC_BATCH-th call.
 * Every rank ships after the same calls, so the gathers match everywhere.
 * Rank 0 turns each gathered call into a papcoll_record_t for the sink;
 * sink_lock keeps the callbacks of different sites' monitors apart.  Rank
 * 0's receive buffers exist before tracing starts, so a gather never meets
 * a root without memory.
 */
#include <math.h>
#include <stdlib.h>

#include "papcoll_internal.h"

int papcoll__record_alloc(papcoll_site_t *site)
{
    size_t P = (size_t)site->ctx->size;

    if (site->ctx->rank != 0 || site->gathered != NULL)
        return PAPCOLL_OK;
    site->gathered = malloc(P * PAPCOLL__REC_BATCH * sizeof(*site->gathered));
    site->ranks = malloc(P * sizeof(*site->ranks));
    if (site->gathered && site->ranks)
        return PAPCOLL_OK;
    papcoll__record_release(site);
    return PAPCOLL_ERR_NOMEM;
}

void papcoll__record_release(papcoll_site_t *site)
{
    free(site->gathered);
    free(site->ranks);
    site->gathered = NULL;
    site->ranks = NULL;
}

/* Count and datatype of this rank's block: the receive side of a gather's
 * root and of a scatter's leaves, the send side otherwise. */
static void block_of(const papcoll__args_t *a, int *count, MPI_Datatype *type)
{
    int recv_side = (a->site->op == PAPCOLL_OP_GATHER) == (a->rank == a->root);

    *count = recv_side ? a->u_rcount : a->u_scount;
    *type = recv_side ? a->u_rtype : a->u_stype;
}

static void name_type(papcoll_site_t *site, MPI_Datatype type)
{
    int len = 0;

    if (site->type_name[0] != '\0')
        return;
    if (type == MPI_DATATYPE_NULL || MPI_Type_get_name(type, site->type_name, &len) != MPI_SUCCESS ||
        len == 0)
        snprintf(site->type_name, sizeof site->type_name, "(unnamed)");
}

void papcoll__record_call(papcoll_site_t *site, const papcoll__args_t *a, int algo,
                          double arrival, double exit)
{
    papcoll__rec_t *r;
    MPI_Datatype type;
    int count;

    if (!site->ctx->tracing)
        return;
    block_of(a, &count, &type);
    if (site->ctx->rank == 0)
        name_type(site, type);
    r = &site->batch[site->nbatch++];
    r->cstart = site->r_cstart;
    r->edge = site->r_edge;
    r->cend = site->r_cend;
    r->arrival = arrival;
    r->exit = exit;
    r->predicted = site->timing.predicted;
    r->iter = site->calls;
    r->algo = algo;
    r->root = a->root;
    r->bytes = (double)a->bytes;
    r->count = count;
    r->plan_time = a->plan && a->plan->has_pat ? a->plan->build_time : NAN;
    if (site->nbatch < PAPCOLL__REC_BATCH)
        return;
    /* Without memory for the job, ship here once the monitor is idle: the
     * gathers keep their order on the site's communicator either way. */
    if (!site->has_thread || papcoll__request_ship(site, site->batch, site->nbatch) != PAPCOLL_OK) {
        papcoll__wait_idle(site);
        papcoll__record_ship(site, site->batch, site->nbatch);
    }
    site->nbatch = 0;
}

/* Hands call k of a gathered batch (all[rank * n + k]) to the sink. */
static int deliver(papcoll_site_t *site, int n, int k)
{
    papcoll_ctx_t *ctx = site->ctx;
    const papcoll__rec_t *own = &site->gathered[k];
    papcoll_record_t rec;
    int i, P = ctx->size;

    for (i = 0; i < P; i++) {
        const papcoll__rec_t *r = &site->gathered[(size_t)i * n + k];
        site->ranks[i] = (papcoll_rank_record_t){r->cstart, r->edge, r->cend, r->arrival,
                                                 r->exit, r->predicted};
    }
    rec = (papcoll_record_t){.site_id = site->id, .site = site->name, .op = site->op,
                             .iter = (int)own->iter, .algo = (int)own->algo,
                             .root = (int)own->root, .bytes = (long long)own->bytes,
                             .count = (int)own->count, .datatype = site->type_name,
                             .plan_time = own->plan_time, .nranks = P, .ranks = site->ranks};
    return ctx->sink.record(ctx->sink.arg, &rec);
}

int papcoll__record_ship(papcoll_site_t *site, const papcoll__rec_t *recs, int n)
{
    papcoll_ctx_t *ctx = site->ctx;
    int k, rc;

    rc = MPI_Gather(recs, n * PAPCOLL__REC_DOUBLES, MPI_DOUBLE, site->gathered,
                    n * PAPCOLL__REC_DOUBLES, MPI_DOUBLE, 0, site->mcomm);
    if (rc != MPI_SUCCESS || ctx->rank != 0)
        return PAPCOLL__ERR(rc);
    pthread_mutex_lock(&ctx->sink_lock);
    for (k = 0, rc = 0; k < n && ctx->has_sink && rc == 0; k++)
        rc = deliver(site, n, k);
    if (rc != 0) {
        ctx->has_sink = 0;
        papcoll__warn(ctx, "record sink failed (%d) at site '%s': tracing stopped", rc,
                      site->name);
    }
    pthread_mutex_unlock(&ctx->sink_lock);
    return PAPCOLL_OK;
}

int papcoll__record_flush(papcoll_site_t *site)
{
    int rc = PAPCOLL_OK;

    if (site->ctx->tracing && site->nbatch > 0)
        rc = papcoll__record_ship(site, site->batch, site->nbatch);
    site->nbatch = 0;
    return rc;
}

int papcoll__record_clock(papcoll_ctx_t *ctx, MPI_Comm comm, double *all)
{
    papcoll_clock_t k;
    double mine[3], *col;
    int P = ctx->size, i, j, rc;

    papcoll_clock_info(ctx, &k);
    mine[0] = k.offset;
    mine[1] = k.drift;
    mine[2] = k.error;
    rc = MPI_Gather(mine, 3, MPI_DOUBLE, all, 3, MPI_DOUBLE, 0, comm);
    if (rc != MPI_SUCCESS || ctx->rank != 0)
        return PAPCOLL__ERR(rc);
    col = all + 3 * P;
    for (i = 0; i < P; i++) /* transposed: offsets, drifts, errors */
        for (j = 0; j < 3; j++)
            col[j * P + i] = all[3 * i + j];
    papcoll_clock_sample_t s = {papcoll__now(ctx), P, col, col + P, col + 2 * P};
    pthread_mutex_lock(&ctx->sink_lock);
    if (ctx->has_sink && ctx->sink.clock != NULL && ctx->sink.clock(ctx->sink.arg, &s) != 0) {
        ctx->has_sink = 0;
        papcoll__warn(ctx, "record sink refused a clock sample: tracing stopped");
    }
    pthread_mutex_unlock(&ctx->sink_lock);
    return PAPCOLL_OK;
}

/* Rank 0 decides (it has the sink and the memory); everyone follows. */
static int agree_tracing(papcoll_ctx_t *ctx, const papcoll_sink_t *sink, double **clockbuf)
{
    papcoll_site_t *s;
    int on = 0, rc = PAPCOLL_OK;

    if (ctx->rank == 0 && sink != NULL) {
        if (sink->record == NULL)
            rc = PAPCOLL_ERR_INVAL;
        else if ((*clockbuf = malloc((size_t)ctx->size * 6 * sizeof(double))) == NULL)
            rc = PAPCOLL_ERR_NOMEM;
        for (s = ctx->sites; s != NULL && rc == PAPCOLL_OK; s = s->next)
            rc = papcoll__record_alloc(s);
        on = rc == PAPCOLL_OK;
    }
    if (MPI_Bcast(&on, 1, MPI_INT, 0, ctx->data_comm) != MPI_SUCCESS && rc == PAPCOLL_OK)
        rc = PAPCOLL_ERR_MPI;
    ctx->tracing = on;
    return rc;
}

int papcoll_set_sink(papcoll_ctx_t *ctx, const papcoll_sink_t *sink)
{
    papcoll_site_t *s;
    double *clockbuf = NULL;
    int rc = PAPCOLL_OK;

    if (ctx == NULL)
        return PAPCOLL_ERR_INVAL;
    for (s = ctx->sites; s != NULL && rc == PAPCOLL_OK; s = s->next) {
        papcoll__wait_idle(s); /* batched records still reach the old sink */
        rc = papcoll__record_flush(s);
    }
    if (rc == PAPCOLL_OK)
        rc = agree_tracing(ctx, sink, &clockbuf);
    pthread_mutex_lock(&ctx->sink_lock);
    ctx->has_sink = ctx->tracing && ctx->rank == 0;
    if (ctx->has_sink)
        ctx->sink = *sink;
    pthread_mutex_unlock(&ctx->sink_lock);
    if (rc == PAPCOLL_OK && ctx->tracing)
        rc = papcoll__record_clock(ctx, ctx->data_comm, clockbuf);
    if (!ctx->tracing)
        for (s = ctx->sites; s != NULL; s = s->next)
            papcoll__record_release(s);
    free(clockbuf);
    return rc;
}
