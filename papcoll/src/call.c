/*
 * Collective entry points: argument checks, MPI_IN_PLACE resolution, plan
 * and background hand-off, timing.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "papcoll_internal.h"

/* Bytes of count elements of a contiguous datatype, or a negative error. */
int papcoll__type_bytes(papcoll_ctx_t *ctx, MPI_Datatype type, int count, size_t *bytes)
{
    MPI_Aint lb, extent, tlb, textent;
    int size;

    if (count < 0 || type == MPI_DATATYPE_NULL)
        return PAPCOLL_ERR_INVAL;
    if (MPI_Type_size(type, &size) != MPI_SUCCESS ||
        MPI_Type_get_extent(type, &lb, &extent) != MPI_SUCCESS ||
        MPI_Type_get_true_extent(type, &tlb, &textent) != MPI_SUCCESS)
        return PAPCOLL_ERR_INVAL;
    if (tlb != 0 || extent != size || textent != size) {
        if (!ctx->warned_datatype++)
            papcoll__warn(ctx, "non-contiguous datatype: use the 'mpi' algorithm");
        return PAPCOLL_ERR_DATATYPE;
    }
    *bytes = (size_t)count * (size_t)size;
    return PAPCOLL_OK;
}

static int gather_args(papcoll__args_t *a)
{
    papcoll_ctx_t *ctx = a->site->ctx;
    size_t own;
    int rc;

    if (a->rank != a->root || a->u_sbuf != MPI_IN_PLACE)
        a->sbuf = a->u_sbuf;
    if (a->rank != a->root)
        return papcoll__type_bytes(ctx, a->u_stype, a->u_scount, &a->bytes);
    a->rbuf = a->u_rbuf;
    if ((rc = papcoll__type_bytes(ctx, a->u_rtype, a->u_rcount, &a->bytes)) != PAPCOLL_OK)
        return rc;
    if (a->sbuf != NULL) {
        if ((rc = papcoll__type_bytes(ctx, a->u_stype, a->u_scount, &own)) != PAPCOLL_OK)
            return rc;
        if (own != a->bytes)
            return PAPCOLL_ERR_TRUNCATE;
    }
    return PAPCOLL_OK;
}

static int scatter_args(papcoll__args_t *a)
{
    papcoll_ctx_t *ctx = a->site->ctx;
    size_t own;
    int rc;

    if (a->rank != a->root || a->u_rbuf != MPI_IN_PLACE)
        a->rbuf = a->u_rbuf;
    if (a->rank != a->root)
        return papcoll__type_bytes(ctx, a->u_rtype, a->u_rcount, &a->bytes);
    a->sbuf = a->u_sbuf;
    if ((rc = papcoll__type_bytes(ctx, a->u_stype, a->u_scount, &a->bytes)) != PAPCOLL_OK)
        return rc;
    if (a->rbuf != NULL) {
        if ((rc = papcoll__type_bytes(ctx, a->u_rtype, a->u_rcount, &own)) != PAPCOLL_OK)
            return rc;
        if (own != a->bytes)
            return PAPCOLL_ERR_TRUNCATE;
    }
    return PAPCOLL_OK;
}

int papcoll_site_bind_recv(papcoll_site_t *site, void *recvbuf, int recvcount, MPI_Datatype recvtype)
{
    size_t bytes = 0;
    int rc;

    if (site == NULL)
        return PAPCOLL_ERR_INVAL;
    if (site->requested != site->calls || site->bg_started)
        return PAPCOLL_ERR_STATE; /* a background part may be using the old binding */
    papcoll__wait_idle(site);
    if (recvbuf != NULL && (rc = papcoll__type_bytes(site->ctx, recvtype, recvcount, &bytes)) != PAPCOLL_OK)
        return rc;
    site->bound = recvbuf;
    site->bound_bytes = bytes;
    return PAPCOLL_OK;
}

/* Explicit PAT vector: plan in this thread, or in the monitor together
 * with the background part. */
static int prepare_pat(papcoll_site_t *site, const double *pat, int root)
{
    int rc;

    if (site->requested != site->calls)
        return PAPCOLL_ERR_STATE; /* an edge already queued this call's exchange */
    if (site->flags & PAPCOLL_F_BACKGROUND) {
        site->bg_started = 1;
        site->bg_root = root;
        rc = papcoll__request_bg(site, 1, pat, root);
        return rc == PAPCOLL_OK ? papcoll__wait_plan(site) : rc; /* the monitor builds it */
    }
    papcoll__plan_from_pat(site, pat);
    return PAPCOLL_OK;
}

/* Monitor path: make sure this call's exchange (and background part) is
 * queued, then wait for the plan if the algorithm needs one. */
static int prepare_monitor(papcoll_site_t *site, int root)
{
    int bg = (site->flags & PAPCOLL_F_BACKGROUND) != 0, rc = PAPCOLL_OK;

    if (site->requested == site->calls) {
        /* the same rule as the edge's, so ranks that missed it agree */
        site->bg_root = site->last_root >= 0 ? site->last_root : root;
        site->bg_started = bg;
        rc = papcoll__request_exchange(site, NAN, bg ? site->bg_root : -1);
    } else if (bg && !site->bg_started) {
        rc = papcoll__request_bg(site, 0, NULL, root);
        site->bg_started = 1;
        site->bg_root = root;
    }
    if (rc == PAPCOLL_OK && (site->flags & PAPCOLL_F_NEEDS_PAT))
        rc = papcoll__wait_plan(site);
    return rc;
}

static int prepare(papcoll_site_t *site, int use_pat, const double *pat, int root)
{
    if (use_pat)
        return prepare_pat(site, pat, root);
    if (site->ctx->has_monitor)
        return prepare_monitor(site, root);
    if (site->flags & PAPCOLL_F_NEEDS_PAT) {
        site->requested++;
        return papcoll__exchange_inline(site, site->est);
    }
    return PAPCOLL_OK;
}

/*
 * The background part queued at the edge serves the previous call's root.
 * When the root changed, every rank sees it (root and bg_root are the same
 * on all ranks): the started collective is completed for the old root with
 * scratch data, and this call runs as the foreground counterpart.
 */
static int drain_old_root(papcoll_site_t *site, const papcoll__args_t *a, int *algo)
{
    papcoll__args_t d = *a;
    size_t all = (size_t)a->size * a->bytes;
    char *scratch = calloc(all + a->bytes + 1, 1);
    int rc;

    if (scratch == NULL)
        return PAPCOLL_ERR_NOMEM;
    d.root = site->bg_root; /* P blocks in [0, all), one block after them */
    d.sbuf = site->op == PAPCOLL_OP_GATHER ? scratch + all : scratch;
    d.rbuf = site->op == PAPCOLL_OP_GATHER ? scratch : scratch + all;
    rc = papcoll__algo_fn_of(site->op, site->algo)(&d);
    free(scratch);
    *algo = papcoll__algo_foreground_of(site->op, site->algo);
    return rc;
}

/* Every clock_every calls of the context's first site (the same call on
 * every rank) the clock is re-estimated, in the monitor when there is one.
 * Without memory for the job it runs here, once the monitor is idle. */
static void resync_clock(papcoll_site_t *site)
{
    papcoll_ctx_t *ctx = site->ctx;

    if (site->id != 0 || ctx->clock_every <= 0 || site->calls % ctx->clock_every != 0)
        return;
    if (site->has_thread && papcoll__request_clock(site) == PAPCOLL_OK)
        return;
    papcoll__wait_idle(site);
    if (papcoll__clock_update(ctx) != PAPCOLL_OK)
        papcoll__warn(ctx, "clock re-estimation failed");
}

static void finish(papcoll_site_t *site, const papcoll__args_t *a, int algo, double arrival)
{
    double now = papcoll__now(site->ctx);

    site->timing.arrival = arrival;
    site->timing.exit = now;
    site->timing.predicted = (a->plan && a->plan->has_pat) ? a->plan->pred[a->rank] : NAN;
    site->timing.plan_iter = a->plan ? a->plan->iter : -1;
    papcoll__record_call(site, a, algo, arrival, now);
    site->r_cstart = site->r_edge = site->r_cend = NAN;
    site->last_arrival = arrival;
    site->last_exit = now;
    site->last_root = a->root;
    site->bg_started = 0;
    site->est = NAN;
    site->calls++;
    if (site->requested < site->calls)
        site->requested = site->calls; /* no exchange belonged to this call */
    resync_clock(site);
}

static int run(papcoll_site_t *site, papcoll_op_t op, int use_pat, const double *pat,
               papcoll__args_t *a)
{
    double arrival;
    int rc, algo;

    if (site == NULL)
        return PAPCOLL_ERR_INVAL;
    arrival = papcoll__now(site->ctx);
    if (site->op != op)
        return PAPCOLL_ERR_OP;
    a->site = site;
    a->comm = site->comm;
    a->rank = site->ctx->rank;
    a->size = site->ctx->size;
    if (a->root < 0 || a->root >= a->size)
        return PAPCOLL_ERR_INVAL;
    rc = op == PAPCOLL_OP_GATHER ? gather_args(a) : scatter_args(a);
    if (rc == PAPCOLL_ERR_DATATYPE && (site->flags & PAPCOLL_F_BASELINE))
        rc = PAPCOLL_OK; /* MPI's own collective takes any datatype */
    if (rc != PAPCOLL_OK)
        return rc;
    if ((rc = prepare(site, use_pat, pat, a->root)) != PAPCOLL_OK)
        return rc;
    if (site->flags & (PAPCOLL_F_NEEDS_PAT | PAPCOLL_F_BACKGROUND))
        a->plan = &site->plan;
    algo = site->algo;
    if (site->bg_started && site->bg_root != a->root)
        rc = drain_old_root(site, a, &algo);
    if (rc == PAPCOLL_OK)
        rc = papcoll__algo_fn_of(op, algo)(a);
    finish(site, a, algo, arrival);
    return rc;
}

#define PAPCOLL__ARGS(sb, sc, st, rb, rc_, rt, r)                                     \
    {.u_sbuf = (sb), .u_scount = (sc), .u_stype = (st), .u_rbuf = (rb), .u_rcount = (rc_), \
     .u_rtype = (rt), .root = (r)}

int papcoll_gather(papcoll_site_t *site, const void *sbuf, int scount, MPI_Datatype stype,
                   void *rbuf, int rcount, MPI_Datatype rtype, int root)
{
    papcoll__args_t a = PAPCOLL__ARGS(sbuf, scount, stype, rbuf, rcount, rtype, root);
    return run(site, PAPCOLL_OP_GATHER, 0, NULL, &a);
}

int papcoll_scatter(papcoll_site_t *site, const void *sbuf, int scount, MPI_Datatype stype,
                    void *rbuf, int rcount, MPI_Datatype rtype, int root)
{
    papcoll__args_t a = PAPCOLL__ARGS(sbuf, scount, stype, rbuf, rcount, rtype, root);
    return run(site, PAPCOLL_OP_SCATTER, 0, NULL, &a);
}

int papcoll_gather_pat(papcoll_site_t *site, const double *pat, const void *sbuf, int scount,
                       MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype, int root)
{
    papcoll__args_t a = PAPCOLL__ARGS(sbuf, scount, stype, rbuf, rcount, rtype, root);
    return run(site, PAPCOLL_OP_GATHER, 1, pat, &a);
}

int papcoll_scatter_pat(papcoll_site_t *site, const double *pat, const void *sbuf, int scount,
                        MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype, int root)
{
    papcoll__args_t a = PAPCOLL__ARGS(sbuf, scount, stype, rbuf, rcount, rtype, root);
    return run(site, PAPCOLL_OP_SCATTER, 1, pat, &a);
}
