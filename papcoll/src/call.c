/*
 * The collective entry points: resolve the arguments (papcoll_ops.def),
 * decide the algorithm and its plan, execute, record.
 *
 *   resolve     the op's resolver: the call's signature, local checks
 *   decide      the selection for this call's signature; the plan from the
 *               monitor's job (waited for when the algorithm needs a
 *               prediction or has a background part), rebuilt here when the
 *               job assumed another signature; a background part started
 *               for another algorithm or root is drained first
 *   check       PAPCOLL_CHECK: all ranks hold the same decision
 *   execute     pack (CONTIG_ONLY), the algorithm, unpack
 *   finish      timing, record, state for the next call (always, also
 *               after a failure, so the site stays usable)
 *
 * Every decision depends only on what all ranks share (policy, signature,
 * exchanged data, whether a background part was started: the same on all
 * ranks by construction, see papcoll_edge in site.c), so all ranks run the
 * same algorithm with the same plan.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "algo.h"
#include "clock.h"
#include "monitor.h"
#include "p2p.h"

/* Algorithms that need the monitor's plan job before they can run. */
static int needs_job(papcoll_op_t op, int algo)
{
    return (papcoll_algo_flags(op, algo) & (PAPCOLL_F_NEEDS_PAT | PAPCOLL_F_BACKGROUND)) != 0;
}

/* The decision of one call. */
typedef struct {
    papcoll__selection_t sel; /* for this call's signature */
    int algo;                 /* what runs (sel.algo, or its foreground after a drain) */
    const char *reason;       /* why, when not sel's */
    char drained[2 * PAPCOLL__REASON_MAX];
} decision_t;

/* Rebuilds the plan in this thread for algo at the call's root and size.
 * Only an algorithm that needs the prediction reads it: then this call
 * waited for its exchange, which otherwise may still be running. */
static int replan(papcoll_site_t *site, const papcoll__args_t *a, int algo)
{
    int pat = (papcoll_algo_flags(site->op, algo) & PAPCOLL_F_NEEDS_PAT) != 0;
    const double *pred = pat && site->pred_ok ? site->pred : NULL;

    return papcoll__plan_build(&site->plan, site->ctx, site->op, algo, a->root, a->bytes, pred,
                               pred != NULL ? site->noise : 0, pred != NULL ? site->density : 1, site->calls,
                               papcoll__mono());
}

/* Explicit PAT: plan here, or in the monitor together with the background part. */
static int decide_pat(papcoll_site_t *site, const papcoll__args_t *a, const double *pat, decision_t *d)
{
    papcoll__planreq_t req = {NAN, 0, pat, &a->sig, 1, 1, NULL};
    int rc;

    if (site->requested != site->calls)
        return PAPCOLL_ERR_STATE; /* an edge already queued this call's exchange */
    if (!site->has_thread || !(papcoll_algo_flags(site->op, d->sel.algo) & PAPCOLL_F_BACKGROUND))
        return papcoll__plan_inline(site, &req);
    papcoll__request_plan(site, &req);
    rc = papcoll__wait_plan(site);
    site->bg_started = site->mon_bg == site->calls;
    site->bg_algo = site->sel.algo;
    site->bg_root = site->plan.root;
    return rc;
}

/* Monitor path: the plan job of this call (queued at the edge, or now with
 * the edge's rule: the previous call's signature), its plan when needed. */
static int decide_monitor(papcoll_site_t *site, const papcoll__args_t *a, decision_t *d)
{
    papcoll__selection_t s;
    const papcoll__sig_t *sig = site->last_sig.root != -2 ? &site->last_sig : &a->sig;
    papcoll__planreq_t req = {NAN, 1, NULL, sig, 0, 1, NULL};
    int rc = PAPCOLL_OK, planned;

    if (site->requested == site->calls) {
        papcoll__select(&site->policy, site->op, sig, a->size, 1, &s);
        req.plan = needs_job(site->op, s.algo);
        papcoll__request_plan(site, &req);
        site->job_plans = req.plan;
    }
    planned = site->job_plans;
    if (planned || needs_job(site->op, d->sel.algo))
        rc = papcoll__wait_plan(site);
    if (planned) {
        site->bg_started = site->mon_bg == site->calls;
        site->bg_algo = site->sel.algo;
        site->bg_root = site->plan.root;
    }
    return rc;
}

/* Completes a background part started for another algorithm or root with
 * scratch data (every rank sees the same mismatch), so that the call can
 * run the foreground of its own selection. */
static int drain(papcoll_site_t *site, const papcoll__args_t *a, decision_t *d)
{
    papcoll__args_t x = *a;
    size_t n = site->op == PAPCOLL_OP_GATHER || site->op == PAPCOLL_OP_SCATTER ? (size_t)a->size : 1;
    char *scratch = calloc((n + 1) * a->bytes + 1, 1);
    int rc = PAPCOLL_OK, rc2;

    if (scratch == NULL)
        return PAPCOLL_ERR_NOMEM;
    x.root = site->bg_root;
    x.sbuf = scratch + (site->op == PAPCOLL_OP_GATHER ? n * a->bytes : 0);
    x.rbuf = scratch + (site->op == PAPCOLL_OP_GATHER ? 0 : n * a->bytes);
    x.plan = &site->plan;
    if (a->sig.mop != MPI_OP_NULL) /* a reduction combines, even scratch data */
        rc = papcoll__args_prepare_combine(&x);
    if (rc == PAPCOLL_OK)
        rc = papcoll__algo_fn_of(site->op, site->bg_algo)(&x);
    rc2 = papcoll__wait_bg(site); /* a root's foreground may not wait for its own part */
    papcoll__args_finish(&x, 0);
    free(scratch);
    snprintf(d->drained, sizeof(d->drained), "%s; the background part had started for %s at root %d",
             d->sel.reason, papcoll_algo_name(site->op, site->bg_algo), site->bg_root);
    d->reason = d->drained;
    return rc ? rc : rc2;
}

/* Settles algorithm and plan after the job: drain a background part that
 * serves something else, rebuild a plan made for another signature, start
 * the background part the selection needs. */
static int settle(papcoll_site_t *site, const papcoll__args_t *a, decision_t *d)
{
    int rc = PAPCOLL_OK, fg;

    d->algo = d->sel.algo;
    if (site->bg_started && (site->bg_algo != d->algo || site->bg_root != a->root)) {
        rc = drain(site, a, d);
        site->bg_started = 0;
        fg = papcoll__algo_fallback_of(site->op, d->algo);
        if (papcoll_algo_flags(site->op, d->algo) & PAPCOLL_F_BACKGROUND)
            d->algo = fg; /* its background part cannot run a second time */
    }
    if (site->bg_started)
        return rc; /* the plan is in use by the background part and fits */
    if (site->plan.algo != d->algo || site->plan.root != a->root || site->plan.bytes != a->bytes ||
        site->plan.iter != site->calls)
        rc = rc ? rc : replan(site, a, d->algo);
    if (rc == PAPCOLL_OK && site->has_thread && (papcoll_algo_flags(site->op, d->algo) & PAPCOLL_F_BACKGROUND)) {
        site->sel.algo = d->algo;
        papcoll__request_bg(site);
        site->bg_started = 1;
        site->bg_algo = d->algo;
        site->bg_root = a->root;
    }
    return rc;
}

/* PAPCOLL_CHECK: every rank holds the same decision, or all fail. */
static int check_agreement(papcoll_site_t *site, const decision_t *d)
{
    /* bg_root means something only when a part started: before a site's
     * first plan it is the root of a plan never built, which differs
     * between ranks whose edge queued the job and ranks whose call did. */
    uint64_t h = site->plan.hash ^ ((uint64_t)(unsigned)d->algo << 32) ^ ((uint64_t)site->bg_started << 20) ^
                 (site->bg_started ? (uint64_t)(unsigned)(site->bg_root + 1) : 0);
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

/* The shared inputs of a data-dependent policy: the signature, P, the
 * model, and an exchange's snapshot: its prediction and the arrivals and
 * exits it carried.  Never a local clock.  snap NULL: no exchange (the
 * first call); pat: an explicit PAT, the prediction itself. */
static void data_inputs(const papcoll_site_t *site, const papcoll__sig_t *sig, const double *pat,
                        const papcoll__snap_t *snap, papcoll__pin_t *in)
{
    const papcoll_ctx_t *ctx = site->ctx;
    int P = ctx->size;

    *in = (papcoll__pin_t){.P = P,
                           .bytes = (double)sig->bytes,
                           .commutative = sig->commutative,
                           .has_monitor = ctx->has_monitor,
                           .seg = (double)ctx->segment_bytes,
                           .root = sig->root,
                           .lag_noise = NAN};
    in->alpha = ctx->has_model ? ctx->model.v[PAPCOLL__M_ALPHA] : NAN;
    in->beta = ctx->has_model ? ctx->model.v[PAPCOLL__M_BETA] : NAN;
    in->gamma = ctx->has_model ? ctx->model.v[PAPCOLL__M_GAMMA] : NAN;
    in->xbeta = ctx->has_model ? ctx->model.v[PAPCOLL__M_XBETA] : NAN;
    in->ralpha = ctx->has_model ? papcoll__model_ralpha(&ctx->model) : NAN;
    in->pred = pat != NULL ? pat : snap != NULL ? snap->pred : NULL;
    in->spread = in->pred != NULL ? papcoll__spread(in->pred, P, 1, NULL) : NAN;
    if (pat != NULL || snap == NULL)
        return; /* nothing observed */
    in->lag_noise = snap->lag_noise;
    in->noise = snap->noise;
    if (site->test_local_policy && isfinite(site->last_arrival)) /* the mutant tests/policy.sh must catch */
        in->spread = site->last_arrival - snap->first;
}

/* The previous call's exchange, waited for (monitor path): its snapshot
 * (NULL: it did not happen) and the algorithm of the call it observed. */
static int prev_exchange(papcoll_site_t *site, const papcoll__snap_t **snap, int *seen)
{
    int k = site->calls - 1, rc;

    *snap = NULL;
    *seen = k >= 1 ? site->algo_hist[(k - 1) & 1] : -1;
    if (site->prev_xchg && (rc = papcoll__wait_exchange(site, k)) != PAPCOLL_OK)
        return rc;
    if (k >= 0 && site->snap[k & 1].iter == k)
        *snap = &site->snap[k & 1];
    return PAPCOLL_OK;
}

/* Whether two calls share the signature a policy decides from. */
static int same_sig(const papcoll__sig_t *x, const papcoll__sig_t *y)
{
    return x->root == y->root && x->bytes == y->bytes && x->count == y->count && x->esize == y->esize &&
           x->mop == y->mop && x->commutative == y->commutative && x->builtin == y->builtin;
}

/*
 * A data-dependent policy.  With a monitor thread it decides from the
 * previous call's exchange (done, or waited for: every rank has passed
 * that call), so that an algorithm without a plan starts at once: this
 * call's exchange completes only when the last rank reaches its edge, and
 * waiting for it would hold every rank until then.  The call's own
 * exchange still runs, and is waited for when the choice needs its plan.
 * The observation is then that of the call before the previous one.
 * Where the edge made the choice of a stateless policy already from the
 * same exchange and signature (papcoll_edge), the call takes it: the same
 * inputs give the same choice on every rank, whether or not a rank's edge
 * came first.  Its decision time is then the edge's.
 * Without a monitor the call's exchange runs inline anyway, and the policy
 * decides from it.
 */
static int decide_data(papcoll_site_t *site, const papcoll__args_t *a, const double *pat, decision_t *d)
{
    papcoll__planreq_t req = {site->est, 1, NULL, &a->sig, 1, 0, NULL};
    const papcoll__snap_t *snap = NULL;
    papcoll__pin_t in;
    double t0;
    int rc = PAPCOLL_OK, seen = -1, from_edge = 0;

    if (pat == NULL && site->has_thread) {
        rc = decide_monitor(site, a, d); /* queues this call's exchange (no plan: the baseline needs none) */
        from_edge = site->edge_call == site->calls && same_sig(&site->edge_sig, &a->sig);
        if (!from_edge)
            rc = rc ? rc : prev_exchange(site, &snap, &seen);
    } else if (pat == NULL) {
        rc = papcoll__plan_inline(site, &req);
        snap = site->snap[site->calls & 1].iter == site->calls ? &site->snap[site->calls & 1] : NULL;
        seen = site->last_algo;
    }
    if (rc != PAPCOLL_OK)
        return rc;
    if (from_edge) { /* the edge's choice, from the same inputs */
        d->sel = site->edge_sel;
        site->timing.decision = site->edge_decision;
    } else {
        t0 = papcoll__mono();
        data_inputs(site, &a->sig, pat, snap, &in);
        papcoll__select_data(&site->policy, site->op, &a->sig, &in, &d->sel);
        site->timing.decision = papcoll__mono() - t0;
    }
    d->algo = d->sel.algo;
    d->reason = d->sel.reason;
    if (pat == NULL && site->has_thread && needs_job(site->op, d->sel.algo))
        rc = papcoll__wait_plan(site); /* the plan comes from this call's exchange */
    return rc;
}

int papcoll__preview(papcoll_site_t *site, const papcoll__sig_t *sig, papcoll__selection_t *sel)
{
    const papcoll__snap_t *snap;
    papcoll__pin_t in;
    int seen, rc;

    if (site->prev_xchg && !papcoll__exchange_done(site, site->calls - 1))
        return 1; /* a rank still short of its previous edge must not hold this one's computation */
    if ((rc = prev_exchange(site, &snap, &seen)) != PAPCOLL_OK)
        return rc;
    data_inputs(site, sig, NULL, snap, &in);
    memcpy(site->preview, &site->policy, sizeof *site->preview);
    papcoll__select_data(site->preview, site->op, sig, &in, sel);
    return PAPCOLL_OK;
}

static int decide(papcoll_site_t *site, const papcoll__args_t *a, int use_pat, const double *pat,
                  decision_t *d)
{
    papcoll_ctx_t *ctx = site->ctx;
    papcoll__planreq_t req = {site->est, 1, NULL, &a->sig, 1, 0, NULL};
    int rc;

    papcoll__select(&site->policy, site->op, &a->sig, a->size, ctx->has_monitor, &d->sel);
    d->algo = d->sel.algo;
    d->reason = d->sel.reason;
    site->timing.decision = 0;
    if (papcoll__policy_uses_data(&site->policy) && (rc = decide_data(site, a, use_pat ? pat : NULL, d)) != 0)
        return rc;
    if (use_pat)
        rc = decide_pat(site, a, pat, d);
    else if (papcoll__policy_uses_data(&site->policy))
        rc = PAPCOLL_OK; /* exchanged, chosen; settle plans */
    else if (site->has_thread)
        rc = decide_monitor(site, a, d);
    else if (papcoll_algo_flags(site->op, d->sel.algo) & PAPCOLL_F_NEEDS_PAT)
        rc = papcoll__plan_inline(site, &req); /* collective: every rank selected the same */
    else
        rc = PAPCOLL_OK;
    if (rc == PAPCOLL_OK)
        rc = settle(site, a, d);
    if (rc == PAPCOLL_OK && d->sel.fell_back && ctx->fallback == PAPCOLL__FB_ERROR)
        rc = PAPCOLL_ERR_RESTRICT;
    if (rc == PAPCOLL_OK)
        rc = check_agreement(site, d);
    return rc;
}

/* Every clock_every calls of the context's first site (the same call on
 * every rank) the clock is re-estimated, in the monitor when there is one. */
static void resync_clock(papcoll_site_t *site)
{
    papcoll_ctx_t *ctx = site->ctx;

    if (site->id != 0 || ctx->clock_every <= 0 || site->calls % ctx->clock_every != 0)
        return;
    if (site->has_thread)
        papcoll__request_clock(site);
    else
        papcoll__resync(ctx);
}

/* One warning per site when a call falls back (PAPCOLL_FALLBACK=warn). */
static void warn_fallback(papcoll_site_t *site, const decision_t *d)
{
    if (d->algo == d->sel.algo && !d->sel.fell_back)
        return;
    if (site->warned || site->ctx->fallback != PAPCOLL__FB_WARN)
        return;
    site->warned = 1;
    papcoll__warn(site->ctx, "site '%s': %s", site->name, d->reason);
}

static void finish(papcoll_site_t *site, const papcoll__args_t *a, const decision_t *d, double arrival,
                   double now)
{
    const char *why = d->algo != site->last_algo ? d->reason : NULL;

    site->timing.arrival = arrival;
    site->timing.exit = now;
    site->timing.predicted = site->plan.has_pat ? site->plan.pred[a->rank] : NAN;
    site->timing.plan_iter = site->plan.iter;
    site->timing.algo = d->algo;
    if (papcoll__record_call(site, a, d->algo, why, d->sel.detail, arrival, now)) {
        if (site->has_thread)
            papcoll__request_ship(site);
        else
            papcoll__record_ship(site, &site->batch);
        site->batch.n = 0;
    }
    site->r_cstart = site->r_edge = site->r_cend = NAN;
    atomic_store_explicit(&site->bg_yields, 0, memory_order_relaxed);
    site->last_arrival = arrival;
    site->last_exit = now;
    site->last_density = site->sent_density;
    site->sent_density = NAN;
    site->last_sig = a->sig;
    site->last_algo = site->algo_hist[site->calls & 1] = d->algo;
    site->prev_xchg = site->requested > site->calls;
    site->bg_started = 0;
    site->job_plans = 0;
    site->est = NAN;
    site->calls++;
    if (site->requested < site->calls)
        site->requested = site->calls; /* no exchange belonged to this call */
    resync_clock(site);
}

static int execute(papcoll_site_t *site, papcoll__args_t *a, const decision_t *d)
{
    unsigned flags = papcoll_algo_flags(site->op, d->algo);
    int contig = (flags & PAPCOLL_F_CONTIG_ONLY) || ((flags & PAPCOLL_F_BASELINE) && papcoll__args_derived_builtin(a));
    int rc = papcoll__args_prepare(a, contig), rc2;

    a->plan = &site->plan;
    if (rc == PAPCOLL_OK)
        rc = papcoll__algo_fn_of(site->op, d->algo)(a);
    if (site->bg_started && (rc2 = papcoll__wait_bg(site)) != PAPCOLL_OK && rc == PAPCOLL_OK)
        rc = rc2; /* the plan stays the background part's until it is done */
    rc2 = papcoll__args_finish(a, rc == PAPCOLL_OK);
    return rc ? rc : rc2;
}

/* Whether this call's foreground waits may nap (papcoll__fg_naps), and the
 * mark its exit leaves for the next call: the clocks are read only where
 * ranks share cores, the one case that can nap. */
static int call_naps(const papcoll_ctx_t *ctx)
{
    if (!ctx->oversubscribed)
        return 0;
    return papcoll__fg_naps(1, papcoll__thread_cpu() - ctx->exit_cpu, papcoll__mono() - ctx->exit_wall);
}

/*
 * When this call's foreground waits stop napping (papcoll__mono): never
 * started when the call does not nap; else at the predicted arrival of the
 * last rank: the latest edge estimate that this call's exchange carried,
 * plus how late the last rank came after that estimate in recent calls
 * (the largest lateness of the last 5; where waiting ranks take the
 * cores, the last rank's remaining work stretches far beyond its
 * estimate).  Until then a waiting rank waits for ranks that compute, and
 * leaves them the cores; after it, for messages and combines, and a nap
 * would only add latency.  No such estimate (the exchange has not served
 * this call, or a rank gave no edge): to the end.  Local, like the naps.
 */
static double nap_until(papcoll_site_t *site, int nap)
{
    const papcoll__snap_t *s = &site->snap[site->calls & 1];
    int done = site->calls;

    if (!nap)
        return -INFINITY;
    if (site->has_thread) {
        pthread_mutex_lock(&site->lock);
        done = site->done_iter;
        pthread_mutex_unlock(&site->lock);
    }
    if (done != site->calls || s->iter != site->calls || !isfinite(s->edge_last))
        return INFINITY; /* a slot still being written is not read: done first */
    return papcoll__mono() + (s->edge_last + s->edge_lag - papcoll__now(site->ctx));
}

static void mark_exit(papcoll_ctx_t *ctx)
{
    if (!ctx->oversubscribed)
        return;
    ctx->exit_cpu = papcoll__thread_cpu();
    ctx->exit_wall = papcoll__mono();
}

static int run(papcoll_site_t *site, papcoll_op_t op, int use_pat, const double *pat, papcoll__args_t *a)
{
    static int (*const resolve[])(papcoll__args_t *) = {
#define PAPCOLL_OP(NAME, name, dflt, env, ini, kind) papcoll__resolve_##name,
#include "papcoll_ops.def"
#undef PAPCOLL_OP
    };
    decision_t d;
    papcoll_ctx_t *ctx;
    double arrival;
    int rc, nap;

    if (site == NULL)
        return PAPCOLL_ERR_INVAL;
    ctx = site->ctx;
    arrival = isnan(site->given_arrival) ? papcoll__now(ctx) : site->given_arrival;
    site->given_arrival = NAN;
    nap = call_naps(ctx);
    if (site->op != op)
        return PAPCOLL_ERR_OP;
    a->site = site;
    a->op = op;
    a->comm = site->comm;
    a->rank = site->ctx->rank;
    a->size = site->ctx->size;
    a->sig.root = a->root;
    if (op == PAPCOLL_OP_ALLREDUCE ? a->root != -1 : (a->root < 0 || a->root >= a->size))
        return PAPCOLL_ERR_INVAL;
    if ((rc = resolve[op](a)) != PAPCOLL_OK)
        return rc; /* a local argument error, before any communication */
    memset(&d, 0, sizeof(d));
    rc = decide(site, a, use_pat, pat, &d);
    if (rc == PAPCOLL_ERR_STATE && use_pat)
        return rc; /* nothing was started: the call did not happen */
    a->nap_until = nap_until(site, nap);
    atomic_store_explicit(&site->bg_yields, !nap, memory_order_relaxed);
    if (rc == PAPCOLL_OK)
        rc = execute(site, a, &d);
    warn_fallback(site, &d);
    finish(site, a, &d, arrival, papcoll__now(ctx));
    mark_exit(ctx);
    return rc;
}

int papcoll_site_observe(papcoll_site_t *site, const papcoll_observed_t *o)
{
    papcoll__args_t a;
    decision_t d;

    if (site == NULL || o == NULL || !isfinite(o->arrival) || !isfinite(o->exit) || o->exit < o->arrival ||
        o->bytes < 0 || o->count < 0 ||
        (site->op == PAPCOLL_OP_ALLREDUCE ? o->root != -1 : (o->root < 0 || o->root >= site->ctx->size)))
        return PAPCOLL_ERR_INVAL;
    if (site->has_thread || papcoll__policy_uses_data(&site->policy))
        return PAPCOLL_ERR_STATE; /* its exchanges and plans would have to happen anyway */
    memset(&a, 0, sizeof(a));
    a.site = site;
    a.op = site->op;
    a.comm = site->comm;
    a.rank = site->ctx->rank;
    a.size = site->ctx->size;
    a.root = a.sig.root = o->root;
    a.bytes = a.sig.bytes = (size_t)o->bytes;
    a.u_scount = a.u_rcount = a.sig.count = o->count;
    a.u_stype = a.u_rtype = MPI_DATATYPE_NULL;
    a.sig.mop = MPI_OP_NULL;
    papcoll__record_name_type(site, o->datatype);
    memset(&d, 0, sizeof(d));
    papcoll__select(&site->policy, site->op, &a.sig, a.size, site->ctx->has_monitor, &d.sel);
    d.algo = papcoll_algo_find(site->op, "mpi");
    d.reason = d.sel.algo == d.algo ? d.sel.reason : "observed: the caller ran the MPI library's collective";
    site->timing.decision = 0;
    site->given_arrival = NAN;
    finish(site, &a, &d, o->arrival, o->exit);
    return PAPCOLL_OK;
}

/* The user's arguments into a record; MPI_OP_NULL for the non-reductions. */
#define PAPCOLL__ARGS(sb, sc, st, rb, rc_, rt, r, o)                                                         \
    {.u_sbuf = (sb), .u_scount = (sc), .u_stype = (st), .u_rbuf = (rb), .u_rcount = (rc_), .u_rtype = (rt), \
     .root = (r), .sig.mop = (o)}

int papcoll_gather(papcoll_site_t *site, const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                   int rcount, MPI_Datatype rtype, int root)
{
    papcoll__args_t a = PAPCOLL__ARGS(sbuf, scount, stype, rbuf, rcount, rtype, root, MPI_OP_NULL);
    return run(site, PAPCOLL_OP_GATHER, 0, NULL, &a);
}

int papcoll_scatter(papcoll_site_t *site, const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                    int rcount, MPI_Datatype rtype, int root)
{
    papcoll__args_t a = PAPCOLL__ARGS(sbuf, scount, stype, rbuf, rcount, rtype, root, MPI_OP_NULL);
    return run(site, PAPCOLL_OP_SCATTER, 0, NULL, &a);
}

int papcoll_bcast(papcoll_site_t *site, void *buf, int count, MPI_Datatype type, int root)
{
    papcoll__args_t a = PAPCOLL__ARGS(buf, count, type, buf, count, type, root, MPI_OP_NULL);
    return run(site, PAPCOLL_OP_BCAST, 0, NULL, &a);
}

int papcoll_reduce(papcoll_site_t *site, const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                   int root)
{
    papcoll__args_t a = PAPCOLL__ARGS(sbuf, count, type, rbuf, count, type, root, op);
    return run(site, PAPCOLL_OP_REDUCE, 0, NULL, &a);
}

int papcoll_allreduce(papcoll_site_t *site, const void *sbuf, void *rbuf, int count, MPI_Datatype type,
                      MPI_Op op)
{
    papcoll__args_t a = PAPCOLL__ARGS(sbuf, count, type, rbuf, count, type, -1, op);
    return run(site, PAPCOLL_OP_ALLREDUCE, 0, NULL, &a);
}

int papcoll_gather_pat(papcoll_site_t *site, const double *pat, const void *sbuf, int scount,
                       MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype, int root)
{
    papcoll__args_t a = PAPCOLL__ARGS(sbuf, scount, stype, rbuf, rcount, rtype, root, MPI_OP_NULL);
    return run(site, PAPCOLL_OP_GATHER, 1, pat, &a);
}

int papcoll_scatter_pat(papcoll_site_t *site, const double *pat, const void *sbuf, int scount,
                        MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype, int root)
{
    papcoll__args_t a = PAPCOLL__ARGS(sbuf, scount, stype, rbuf, rcount, rtype, root, MPI_OP_NULL);
    return run(site, PAPCOLL_OP_SCATTER, 1, pat, &a);
}

int papcoll_bcast_pat(papcoll_site_t *site, const double *pat, void *buf, int count, MPI_Datatype type,
                      int root)
{
    papcoll__args_t a = PAPCOLL__ARGS(buf, count, type, buf, count, type, root, MPI_OP_NULL);
    return run(site, PAPCOLL_OP_BCAST, 1, pat, &a);
}

int papcoll_reduce_pat(papcoll_site_t *site, const double *pat, const void *sbuf, void *rbuf, int count,
                       MPI_Datatype type, MPI_Op op, int root)
{
    papcoll__args_t a = PAPCOLL__ARGS(sbuf, count, type, rbuf, count, type, root, op);
    return run(site, PAPCOLL_OP_REDUCE, 1, pat, &a);
}

int papcoll_allreduce_pat(papcoll_site_t *site, const double *pat, const void *sbuf, void *rbuf, int count,
                          MPI_Datatype type, MPI_Op op)
{
    papcoll__args_t a = PAPCOLL__ARGS(sbuf, count, type, rbuf, count, type, -1, op);
    return run(site, PAPCOLL_OP_ALLREDUCE, 1, pat, &a);
}
