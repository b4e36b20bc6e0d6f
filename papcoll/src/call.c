/*
 * The call path (the public entry points, entry.c, end here):
 *
 *   resolve   the op's resolver: the call's signature, local checks
 *   take      decision k (papcoll__take_decision, monitor.c): the job the
 *             edge queued, or queued now; waited for only when the site
 *             waits; decided inline by the same decide and plan_get when
 *             it was made for another signature
 *   check     PAPCOLL_CHECK: all ranks hold the same decision
 *   execute   pack (CONTIG_ONLY), the algorithm with the const plan, unpack
 *   finish    timing, record, state for the next call (always, also after
 *             a failure, so the site stays usable)
 */
#include <math.h>

#include "algo.h"
#include "call.h"
#include "clock.h"
#include "monitor.h"

/* PAPCOLL_CHECK: every rank holds the same decision, or all fail. */
static int check_agreement(papcoll_site_t *site)
{
    uint64_t h =
        site->plan.hash ^ ((uint64_t)(unsigned)site->dec.algo << 32) ^ ((uint64_t)site->dec.bg << 20);
    unsigned long long v[2] = {h, ~h}, m[2];
    int rc;

    if (site->ccomm == MPI_COMM_NULL)
        return PAPCOLL_OK;
    rc = PMPI_Allreduce(v, m, 2, MPI_UNSIGNED_LONG_LONG, MPI_MAX, site->ccomm);
    if (rc != MPI_SUCCESS)
        return PAPCOLL__ERR(rc);
    if (m[0] == ~m[1]) /* max h == min h: one value everywhere (every rank sees the same) */
        return PAPCOLL_OK;
    papcoll__warn(site->ctx, "site '%s', call %d: ranks disagree on the algorithm or plan", site->name,
                  site->calls);
    return PAPCOLL_ERR_AGREE;
}

static int execute(papcoll_site_t *site, papcoll__args_t *a)
{
    int rc, rc2;

    a->plan = &site->plan;
    a->nap = site->ctx->oversubscribed;
    if ((rc = papcoll__args_prepare(a, site->dec.run->flags)) == PAPCOLL_OK)
        rc = site->dec.run->fn(a);
    if (site->dec.bg && (rc2 = papcoll__wait_bg(site)) != PAPCOLL_OK && rc == PAPCOLL_OK)
        rc = rc2; /* the plan stays the background part's until it is done */
    rc2 = papcoll__args_finish(a, rc == PAPCOLL_OK);
    return rc ? rc : rc2;
}

/* Record, and the state the next call starts from. */
void papcoll__call_finish(papcoll_site_t *site, const papcoll__args_t *a, int algo, const char *reason,
                          const char *detail, double arrival, double now)
{
    papcoll_ctx_t *ctx = site->ctx;

    site->timing = (papcoll_timing_t){.arrival = arrival,
                                      .exit = now,
                                      .algo = algo,
                                      .plan_iter = site->plan.iter,
                                      .decision = site->timing.decision,
                                      .predicted = site->plan.has_pat ? site->plan.pred[a->rank] : NAN};
    if (papcoll__record_call(site, a, algo, algo != site->last_algo ? reason : NULL, detail, arrival, now)) {
        if (site->has_thread)
            papcoll__job_ship(site);
        else
            papcoll__record_ship(site, &site->batch);
        site->batch.n = 0;
    }
    site->marks = (papcoll__marks_t){.t_start = site->marks.t_start,
                                     .est = NAN,
                                     .cstart = NAN,
                                     .edge = NAN,
                                     .cend = NAN,
                                     .given_arrival = NAN,
                                     .last_arrival = arrival,
                                     .last_density = site->x.sent_density};
    site->x.sent_density = NAN;
    site->last_sig = a->sig;
    site->last_algo = algo;
    site->dec.bg = 0;
    site->queued = 0;
    site->calls++;
    if (site->id != 0 || ctx->clock_every <= 0 || site->calls % ctx->clock_every != 0)
        return;
    if (site->has_thread) /* the context's first site re-estimates the clock */
        papcoll__job_clock(site);
    else
        papcoll__resync(ctx);
}

int papcoll__call(papcoll_site_t *site, papcoll_op_t op, const double *pat, papcoll__args_t *a)
{
    static int (*const resolve[])(papcoll__args_t *) = {
#define PAPCOLL_OP(NAME, name, dflt, env, ini, kind) papcoll__resolve_##name,
#include "papcoll_ops.def"
#undef PAPCOLL_OP
    };
    double arrival;
    int rc;

    if (site == NULL || site->op != op)
        return site == NULL ? PAPCOLL_ERR_INVAL : PAPCOLL_ERR_OP;
    arrival = isnan(site->marks.given_arrival) ? papcoll__now(site->ctx) : site->marks.given_arrival;
    site->marks.given_arrival = NAN;
    *a = (papcoll__args_t){.x = &site->x,
                           .op = op,
                           .comm = site->x.comm,
                           .rank = site->ctx->rank,
                           .size = site->ctx->size,
                           .root = a->root,
                           .sig = {.root = a->root, .mop = a->sig.mop},
                           .u_sbuf = a->u_sbuf,
                           .u_scount = a->u_scount,
                           .u_stype = a->u_stype,
                           .u_rbuf = a->u_rbuf,
                           .u_rcount = a->u_rcount,
                           .u_rtype = a->u_rtype};
    if (op == PAPCOLL_OP_ALLREDUCE ? a->root != -1 : (a->root < 0 || a->root >= a->size))
        return PAPCOLL_ERR_INVAL;
    if ((rc = resolve[op](a)) != PAPCOLL_OK)
        return rc; /* a local argument error, before any communication */
    if (pat != NULL && site->queued)
        return PAPCOLL_ERR_STATE; /* an edge queued this call's exchange: nothing was started */
    rc = papcoll__take_decision(site, a, pat);
    if (rc == PAPCOLL_OK)
        rc = check_agreement(site);
    if (rc == PAPCOLL_OK)
        rc = execute(site, a);
    if (site->dec.sel.fell_back && !site->warned && site->ctx->fallback == PAPCOLL__FB_WARN) {
        site->warned = 1;
        papcoll__warn(site->ctx, "site '%s': %s", site->name, site->dec.sel.reason);
    }
    papcoll__call_finish(site, a, site->dec.algo, site->dec.sel.reason, site->dec.sel.detail, arrival,
                         papcoll__now(site->ctx));
    site->last_algo = site->dec.sel.algo; /* the decision: what papcoll_site_algo reports */
    return rc;
}
