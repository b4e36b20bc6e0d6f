/*
 * Call sites: algorithm choice, the PAT monitor API and the collective
 * entry points.  Argument checking and MPI_IN_PLACE resolution happen here,
 * once, so every algorithm sees byte blocks.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "papcoll_internal.h"

static int resolve_algo(papcoll_site_t *site, const char *algo)
{
    papcoll_ctx_t *ctx = site->ctx;
    int i = papcoll_algo_find(site->op, algo), fb;

    if (i < 0)
        return PAPCOLL_ERR_ALGO;
    if (!ctx->has_monitor && (fb = papcoll__algo_foreground_of(site->op, i)) != i) {
        papcoll__warn(ctx, "site '%s': %s runs as %s (no monitor thread)", site->name,
                      papcoll_algo_name(site->op, i), papcoll_algo_name(site->op, fb));
        i = fb;
    }
    site->algo = i;
    site->flags = papcoll_algo_flags(site->op, i);
    return PAPCOLL_OK;
}

static int site_alloc(papcoll_site_t *site, int P)
{
    int rc;

    if ((rc = papcoll__plan_alloc(&site->plan, P)) != PAPCOLL_OK)
        return rc;
    if ((rc = papcoll__pred_init(&site->predictor, &site->ctx->pred, P)) != PAPCOLL_OK)
        return rc;
    site->xchg = calloc((size_t)P * PAPCOLL__XCHG, sizeof(double));
    site->bg.stage = calloc((size_t)P, sizeof(papcoll__stage_t));
    return (site->xchg && site->bg.stage) ? PAPCOLL_OK : PAPCOLL_ERR_NOMEM;
}

/* Unlinks the site from its context's list (when it is in it). */
static void site_unlink(papcoll_site_t *site)
{
    papcoll_site_t **p = &site->ctx->sites;

    while (*p != NULL && *p != site)
        p = &(*p)->next;
    if (*p != NULL)
        *p = site->next;
}

static void site_release(papcoll_site_t *site)
{
    int i;

    site_unlink(site);
    papcoll__monitor_stop(site);
    papcoll__record_release(site);
    if (site->comm != MPI_COMM_NULL)
        MPI_Comm_free(&site->comm);
    if (site->mcomm != MPI_COMM_NULL)
        MPI_Comm_free(&site->mcomm);
    papcoll__plan_free(&site->plan);
    papcoll__pred_free(&site->predictor);
    for (i = 0; site->bg.stage && i < site->ctx->size; i++)
        free(site->bg.stage[i].buf);
    free(site->bg.stage);
    free(site->xchg);
    free(site);
}

int papcoll_site_create(papcoll_ctx_t *ctx, const char *name, papcoll_op_t op,
                        const char *algo, papcoll_site_t **out)
{
    papcoll_site_t *site;
    int rc;

    if (ctx == NULL || out == NULL || op < 0 || op >= PAPCOLL_OP_COUNT)
        return PAPCOLL_ERR_INVAL;
    *out = NULL;
    if ((site = calloc(1, sizeof(*site))) == NULL)
        return PAPCOLL_ERR_NOMEM;
    site->ctx = ctx;
    site->op = op;
    site->comm = site->mcomm = MPI_COMM_NULL;
    site->bg_iter = -1;
    site->last_root = -1;
    site->t_start = site->est = site->last_arrival = site->last_exit = NAN;
    site->r_cstart = site->r_edge = site->r_cend = NAN;
    site->id = ctx->nsites++;
    snprintf(site->name, sizeof(site->name), "%s", name ? name : papcoll_op_name(op));
    if (algo == NULL)
        algo = op == PAPCOLL_OP_GATHER ? ctx->gather_default : ctx->scatter_default;
    if ((rc = resolve_algo(site, algo)) != PAPCOLL_OK || (rc = site_alloc(site, ctx->size)) != PAPCOLL_OK)
        goto fail;
    if (ctx->tracing && (rc = papcoll__record_alloc(site)) != PAPCOLL_OK)
        goto fail;
    if ((rc = PAPCOLL__ERR(MPI_Comm_dup(ctx->data_comm, &site->comm))) != PAPCOLL_OK ||
        (rc = PAPCOLL__ERR(MPI_Comm_dup(ctx->mon_comm, &site->mcomm))) != PAPCOLL_OK)
        goto fail;
    MPI_Comm_set_errhandler(site->comm, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(site->mcomm, MPI_ERRORS_RETURN);
    if (ctx->has_monitor && (rc = papcoll__monitor_start(site)) != PAPCOLL_OK)
        goto fail;
    site->next = ctx->sites;
    ctx->sites = site;
    *out = site;
    return PAPCOLL_OK;
fail:
    site_release(site);
    return rc;
}

int papcoll_site_free(papcoll_site_t **psite)
{
    int rc;

    if (psite == NULL || *psite == NULL)
        return PAPCOLL_ERR_INVAL;
    papcoll__wait_idle(*psite);
    rc = papcoll__record_flush(*psite);
    site_release(*psite);
    *psite = NULL;
    return rc;
}

const char *papcoll_site_algo(const papcoll_site_t *site)
{
    return site ? papcoll_algo_name(site->op, site->algo) : NULL;
}

int papcoll_site_algo_index(const papcoll_site_t *site)
{
    return site ? site->algo : PAPCOLL_ERR_INVAL;
}

int papcoll_site_set_algo(papcoll_site_t *site, const char *algo)
{
    if (site == NULL)
        return PAPCOLL_ERR_INVAL;
    if (site->requested != site->calls)
        return PAPCOLL_ERR_STATE; /* an exchange (maybe a background part) is pending */
    papcoll__wait_idle(site);
    return resolve_algo(site, algo);
}

int papcoll_site_last_timing(const papcoll_site_t *site, papcoll_timing_t *t)
{
    if (site == NULL || t == NULL)
        return PAPCOLL_ERR_INVAL;
    *t = site->timing;
    return PAPCOLL_OK;
}

int papcoll_processing_start(papcoll_site_t *site)
{
    if (site == NULL)
        return PAPCOLL_ERR_INVAL;
    site->t_start = papcoll__now(site->ctx);
    site->r_cstart = site->t_start;
    return PAPCOLL_OK;
}

/* The background part can start at the edge only when its root is known:
 * B* sites serve the root of their previous call. */
int papcoll_edge(papcoll_site_t *site, double fraction)
{
    double now, est;
    int bg_root = -1;

    if (site == NULL || !(fraction > 0 && fraction <= 1))
        return PAPCOLL_ERR_INVAL;
    if (isnan(site->t_start))
        return PAPCOLL_ERR_STATE;
    if (site->requested != site->calls || !isnan(site->est))
        return PAPCOLL_OK; /* first edge of the iteration only */
    now = papcoll__now(site->ctx);
    est = site->t_start + (now - site->t_start) / fraction;
    site->est = est;
    site->r_edge = now;
    if (!site->ctx->has_monitor)
        return PAPCOLL_OK; /* the collective exchanges it */
    if ((site->flags & PAPCOLL_F_BACKGROUND) && site->last_root >= 0) {
        bg_root = site->last_root;
        site->bg_started = 1;
        site->bg_root = bg_root;
    }
    return papcoll__request_exchange(site, est, bg_root);
}

int papcoll_processing_end(papcoll_site_t *site)
{
    if (site == NULL)
        return PAPCOLL_ERR_INVAL;
    if (isnan(site->t_start))
        return PAPCOLL_ERR_STATE;
    site->t_start = NAN;
    site->r_cend = papcoll__now(site->ctx);
    return PAPCOLL_OK;
}
