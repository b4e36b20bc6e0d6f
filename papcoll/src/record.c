/*
 * Per-call records and the sink (DESIGN "trace record shipping").
 *
 * Each rank appends its own record of every call to its site's batch.  A
 * full batch (PAPCOLL__REC_BATCH calls) is gathered to rank 0 on the site's
 * monitor communicator by the monitor thread, behind the site's exchanges in
 * its ring, so the application thread never waits for it; without a monitor
 * thread the gather runs at the end of every PAPCOLL__REC_BATCH-th call (the
 * caller, call.c, decides which).
 * Every rank ships after the same calls, so the gathers match everywhere.
 * Rank 0 turns each gathered call into a papcoll_record_t for the sink;
 * sink_lock keeps the callbacks of different sites' monitors apart.  Rank
 * 0's receive buffers exist before tracing starts, so a gather never meets
 * a root without memory.
 */
#include <math.h>
#include <stdlib.h>

#include "clock.h"
#include "record.h"
#include "site.h"

int papcoll__record_alloc(papcoll_site_t *site)
{
    papcoll__recv_t *r = &site->recv;
    size_t P = (size_t)site->ctx->size;

    if (site->ctx->rank != 0 || r->gathered != NULL)
        return PAPCOLL_OK;
    r->gathered = malloc(P * PAPCOLL__REC_BATCH * sizeof(*r->gathered));
    r->ranks = malloc(P * sizeof(*r->ranks));
    if (r->gathered && r->ranks)
        return PAPCOLL_OK;
    papcoll__record_release(site);
    return PAPCOLL_ERR_NOMEM;
}

void papcoll__record_release(papcoll_site_t *site)
{
    free(site->recv.gathered);
    free(site->recv.ranks);
    site->recv.gathered = NULL;
    site->recv.ranks = NULL;
}

/* Count and datatype of this rank's block: the receive side of a gather's
 * root and of a scatter's leaves, the send side otherwise (bcast and the
 * reductions have one of each). */
static void block_of(const papcoll__args_t *a, int *count, MPI_Datatype *type)
{
    int recv_side = (a->op == PAPCOLL_OP_GATHER && a->rank == a->root) ||
                    (a->op == PAPCOLL_OP_SCATTER && a->rank != a->root) || a->op == PAPCOLL_OP_BCAST;

    *count = recv_side ? a->u_rcount : a->u_scount;
    *type = recv_side ? a->u_rtype : a->u_stype;
}

void papcoll__record_name_type(papcoll_site_t *site, const char *name)
{
    if (!site->ctx->tracing || site->ctx->rank != 0 || site->recv.type_name[0] != '\0')
        return;
    snprintf(site->recv.type_name, sizeof site->recv.type_name, "%s",
             name != NULL && name[0] != '\0' ? name : "(unnamed)");
}

static void name_type(papcoll_site_t *site, MPI_Datatype type)
{
    char name[MPI_MAX_OBJECT_NAME] = "";
    int len = 0;

    if (site->recv.type_name[0] != '\0')
        return; /* the first traced call's */
    if (type != MPI_DATATYPE_NULL && PMPI_Type_get_name(type, name, &len) != MPI_SUCCESS)
        name[0] = '\0';
    papcoll__record_name_type(site, name);
}

int papcoll__record_call(papcoll_site_t *site, const papcoll__args_t *a, int algo, const char *reason,
                         const char *detail, double arrival, double exit)
{
    papcoll__batch_t *b = &site->batch;
    papcoll__rec_t *r;
    MPI_Datatype type;
    int count;

    if (!site->ctx->tracing)
        return 0;
    block_of(a, &count, &type);
    if (site->ctx->rank == 0) {
        name_type(site, type);
        snprintf(b->reason[b->n], sizeof(b->reason[b->n]), "%s", reason ? reason : "");
        snprintf(b->detail[b->n], sizeof(b->detail[b->n]), "%s", reason && detail ? detail : "");
    }
    r = &b->recs[b->n++];
    r->cstart = site->marks.cstart;
    r->edge = site->marks.edge;
    r->cend = site->marks.cend;
    r->arrival = arrival;
    r->exit = exit;
    r->predicted = site->timing.predicted;
    r->iter = site->calls;
    r->algo = algo;
    r->root = a->root;
    r->bytes = (double)a->bytes;
    r->count = count;
    /* Predicting and planning, plus a per-call policy's choice (rules, auto). */
    r->plan_time = a->plan != NULL && a->plan->has_pat ? a->plan->build_time : NAN;
    if (site->timing.decision > 0)
        r->plan_time = (isnan(r->plan_time) ? 0 : r->plan_time) + site->timing.decision;
    return b->n == PAPCOLL__REC_BATCH;
}

/* Hands call k of a gathered batch (all[rank * n + k]) to the sink. */
static int deliver(papcoll_site_t *site, const papcoll__batch_t *b, int k)
{
    papcoll_ctx_t *ctx = site->ctx;
    const papcoll__recv_t *v = &site->recv;
    const papcoll__rec_t *own = &v->gathered[k];
    papcoll_record_t rec;
    int i, P = ctx->size, n = b->n;

    for (i = 0; i < P; i++) {
        const papcoll__rec_t *r = &v->gathered[(size_t)i * n + k];
        v->ranks[i] = (papcoll_rank_record_t){r->cstart, r->edge, r->cend, r->arrival, r->exit, r->predicted};
    }
    rec = (papcoll_record_t){.site_id = site->id, .site = site->name, .op = site->op,
                             .iter = (int)own->iter, .algo = (int)own->algo,
                             .reason = b->reason[k][0] != '\0' ? b->reason[k] : NULL,
                             .detail = b->detail[k],
                             .root = (int)own->root, .bytes = (long long)own->bytes,
                             .count = (int)own->count, .datatype = v->type_name,
                             .plan_time = own->plan_time, .nranks = P, .ranks = v->ranks};
    return ctx->sink.record(ctx->sink.arg, &rec);
}

int papcoll__record_ship(papcoll_site_t *site, const papcoll__batch_t *b)
{
    papcoll_ctx_t *ctx = site->ctx;
    int k, rc, n = b->n;

    rc = PMPI_Gather(b->recs, n * PAPCOLL__REC_DOUBLES, MPI_DOUBLE, site->recv.gathered, n * PAPCOLL__REC_DOUBLES,
                     MPI_DOUBLE, 0, site->mcomm);
    if (rc != MPI_SUCCESS || ctx->rank != 0)
        return PAPCOLL__ERR(rc);
    pthread_mutex_lock(&ctx->sink_lock);
    for (k = 0, rc = 0; k < n && ctx->has_sink && rc == 0; k++)
        rc = deliver(site, b, k);
    if (rc != 0) {
        ctx->has_sink = 0;
        papcoll__warn(ctx, "record sink failed (%d) at site '%s': tracing stopped", rc,
                      site->name);
    }
    pthread_mutex_unlock(&ctx->sink_lock);
    return PAPCOLL_OK;
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
    rc = PMPI_Gather(mine, 3, MPI_DOUBLE, all, 3, MPI_DOUBLE, 0, comm);
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
