/*
 * The monitor thread (Proficz 2020, Fig. 3): one per call site.  The
 * application thread queues jobs into the site's ring (a plan job at the
 * edge or at the call, background parts, record shipments, clock
 * re-estimations) and waits on site->cond for their results; the thread
 * sleeps on the same condition variable while the ring is empty, so it
 * costs no CPU between iterations.  One thread per site rather than per
 * context: a site's exchange waits for every rank's edge or call of that
 * site, and with a shared thread a rank that reached another site first
 * would wait for it behind the blocked exchange (a cross-site deadlock).
 *
 * A plan job: exchange -> predictor -> select -> plan -> publish ->
 * background part.  Every buffer it uses was allocated with the site and
 * the ring never allocates, so no rank can skip an exchange the others
 * entered for want of memory.
 *
 * Agreement: the plan is a deterministic function of the exchanged bytes
 * and the job's signature (the predictor sees only exchanged values; ties
 * are broken by rank), so every rank derives the same plan whatever its
 * local timing.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "algo.h"
#include "clock.h"
#include "monitor.h"
#include "p2p.h"

static void fill_rec(const papcoll_site_t *site, double est, double *rec)
{
    rec[PAPCOLL__X_EST] = est;
    rec[PAPCOLL__X_ARRIVAL] = site->last_arrival;
    rec[PAPCOLL__X_EXIT] = site->last_exit;
    rec[PAPCOLL__X_ITER] = site->calls;
    rec[PAPCOLL__X_DENSITY] = site->last_density;
}

double papcoll__spread(const double *x, int n, int stride, double *lo)
{
    double mn = INFINITY, mx = -INFINITY;
    int i, k = 0;

    for (i = 0; i < n; i++)
        if (isfinite(x[(size_t)i * stride])) {
            mn = fmin(mn, x[(size_t)i * stride]);
            mx = fmax(mx, x[(size_t)i * stride]);
            k++;
        }
    if (lo != NULL)
        *lo = mn;
    return k >= 2 ? mx - mn : NAN;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The largest of the first min(n, PAPCOLL__LAG_WIN) values of ring (0: none). */
static double ring_max(const double *ring, int n)
{
    double m = -INFINITY;
    int i;

    for (i = 0; i < n && i < PAPCOLL__LAG_WIN; i++)
        m = fmax(m, ring[i]);
    return n > 0 ? m : 0;
}

/* The median of the first min(n, PAPCOLL__LAG_WIN) values of ring (NaN: none). */
static double ring_median(const double *ring, int n)
{
    double w[PAPCOLL__LAG_WIN];
    int k = n < PAPCOLL__LAG_WIN ? n : PAPCOLL__LAG_WIN;

    memcpy(w, ring, (size_t)k * sizeof *w);
    qsort(w, (size_t)k, sizeof *w, cmp_double);
    return k == 0 ? NAN : k % 2 ? w[k / 2] : 0.5 * (w[k / 2 - 1] + w[k / 2]);
}

/* The policies' inputs from exchange `it` into slot it % 2.  The slot
 * still holds exchange it - 2, whose prediction (for call it - 2) is
 * scored against the arrivals of call it - 1 first: the lag-1 error a
 * policy deciding from the previous exchange makes (call.c).  The other
 * slot holds exchange it - 1, whose latest edge estimate is scored against
 * call it - 1's last arrival: how late the last rank comes after its
 * estimate (edge_lag, the largest of the last PAPCOLL__LAG_WIN, for the end
 * of the naps in call.c: a wait that yields too early takes the cores from
 * the last rank, one that naps too long adds a nap's latency). */
static void snapshot(papcoll_site_t *site, int it)
{
    papcoll__snap_t *s = &site->snap[it & 1];
    const papcoll__snap_t *o = &site->snap[(it - 1) & 1];
    int P = site->ctx->size, i;
    double *col = site->col, lo, mx = -INFINITY, e;

    for (i = 0; i < P; i++)
        col[i] = site->xchg[i * PAPCOLL__XCHG + PAPCOLL__X_ARRIVAL];
    s->spread = papcoll__spread(col, P, 1, &s->first);
    if (s->iter == it - 2 && !isnan(s->spread)) {
        for (i = 0; i < P; i++)
            col[i] -= s->first + s->pred[i];
        e = papcoll__spread(col, P, 1, &lo);
        if (!isnan(e))
            site->lag_err[site->nlag++ % PAPCOLL__LAG_WIN] = e;
    }
    for (i = 0; i < P; i++)
        mx = fmax(mx, site->xchg[i * PAPCOLL__XCHG + PAPCOLL__X_EXIT]);
    s->runtime = !isnan(s->spread) && isfinite(mx) ? mx - s->first : NAN;
    s->lag_noise = ring_median(site->lag_err, site->nlag);
    if (it >= 1 && o->iter == it - 1 && !isnan(s->spread) && isfinite(o->edge_last))
        site->edge_err[site->nedge++ % PAPCOLL__LAG_WIN] = s->first + s->spread - o->edge_last;
    s->edge_lag = ring_max(site->edge_err, site->nedge);
    s->noise = site->noise;
    s->edge_last = -INFINITY;
    for (i = 0; i < P && !isnan(s->edge_last); i++)
        s->edge_last = isnan(site->xchg[i * PAPCOLL__XCHG + PAPCOLL__X_EST])
                           ? NAN
                           : fmax(s->edge_last, site->xchg[i * PAPCOLL__XCHG + PAPCOLL__X_EST]);
    memcpy(s->pred, site->pred, (size_t)P * sizeof(double));
    s->iter = it;
}

/* Exchange + predictor update into site->pred and site->noise (the last
 * prediction scored against the arrivals it was made for); *t0: when the
 * data arrived.  Collective over site->mcomm. */
static int exchange(papcoll_site_t *site, const double *rec, double *t0)
{
    int P = site->ctx->size, i, rc;
    double *col = site->col, it;

    rc = PMPI_Allgather(rec, PAPCOLL__XCHG, MPI_DOUBLE, site->xchg, PAPCOLL__XCHG, MPI_DOUBLE, site->mcomm);
    *t0 = papcoll__mono();
    if (rc != MPI_SUCCESS)
        return PAPCOLL__ERR(rc);
    for (i = 0; i < P; i++)
        col[i] = site->xchg[i * PAPCOLL__XCHG + PAPCOLL__X_ARRIVAL];
    it = site->xchg[PAPCOLL__X_ITER]; /* the call predicted now; the arrivals are of the one before */
    if (site->pred_ok && site->pred_iter == it - 1)
        papcoll__pred_score(&site->predictor, site->pred, col);
    site->pred_iter = it;
    papcoll__pred_observe(&site->predictor, col);
    site->noise = papcoll__pred_noise(&site->predictor);
    for (i = 0; i < P; i++)
        col[i] = site->xchg[i * PAPCOLL__XCHG + PAPCOLL__X_EST];
    papcoll__pred_predict(&site->predictor, col, site->pred);
    site->density = papcoll__model_density(site->xchg + PAPCOLL__X_DENSITY, P, PAPCOLL__XCHG);
    snapshot(site, (int)it);
    return PAPCOLL_OK;
}

/* Exchange (or explicit PAT), select and plan: the common steps of the
 * monitor's plan job and of the inline path.  Returns the prediction used
 * (NULL: none) in *pred. */
static int plan_steps(papcoll_site_t *site, int xchg, const double *rec, const double *pat, int has_pat,
                      const papcoll__sig_t *sig, int plan, int iter, const papcoll__selection_t *sel)
{
    papcoll_ctx_t *ctx = site->ctx;
    const double *pred = has_pat ? pat : NULL;
    double t0 = papcoll__mono(), noise = 0;
    int rc = PAPCOLL_OK;

    if (xchg) {
        rc = exchange(site, rec, &t0);
        pred = rc == PAPCOLL_OK ? site->pred : NULL;
        noise = site->noise;
        site->pred_ok = rc == PAPCOLL_OK;
    }
    if (!plan)
        return rc;
    if (sel != NULL)
        site->sel = *sel;
    else
        papcoll__select(&site->policy, site->op, sig, ctx->size, ctx->has_monitor, &site->sel);
    if (sig == NULL) { /* the first call's edge: its root is not known, the call plans */
        site->plan.iter = -1;
        return rc;
    }
    papcoll__plan_build(&site->plan, ctx, site->op, site->sel.algo, sig->root, sig->bytes, pred, noise, site->density,
                        iter, t0);
    return rc;
}

void papcoll__resync(papcoll_ctx_t *ctx)
{
    int rc = papcoll__clock_update(ctx);

    if (rc == PAPCOLL_OK && ctx->tracing)
        rc = papcoll__record_clock(ctx, ctx->clock_comm, ctx->clock_buf);
    if (rc != PAPCOLL_OK)
        papcoll__warn(ctx, "clock re-estimation failed");
}

static void run_bg(papcoll_site_t *site, int iter, int algo, int root)
{
    int rc;

    papcoll__bg_yield_when(&site->bg_yields);
    rc = papcoll__algo_bg_of(site->op, algo)(site, root);
    papcoll__bg_yield_when(NULL);

    pthread_mutex_lock(&site->lock);
    site->bg_rc = rc;
    site->bg_iter = iter;
    pthread_cond_broadcast(&site->cond);
    pthread_mutex_unlock(&site->lock);
}

static void run_plan_job(papcoll_site_t *site, papcoll__job_t *job)
{
    const papcoll__sig_t *sig = job->has_sig ? &job->sig : NULL;
    int rc = PAPCOLL_OK, bg = 0, algo = -1, root = -1;

    if (job->xchg || job->plan)
        rc = plan_steps(site, job->xchg, job->rec, job->pat, job->has_pat, sig, job->plan, job->iter,
                        job->has_sel ? &job->sel : NULL);
    pthread_mutex_lock(&site->lock);
    if (job->bg && (job->plan || !job->xchg)) { /* an exchange-only job leaves sel to the call */
        algo = site->sel.algo;
        root = site->plan.root;
        bg = site->plan.iter == job->iter && (papcoll_algo_flags(site->op, algo) & PAPCOLL_F_BACKGROUND);
    }
    if (job->xchg || job->plan) {
        site->job_rc = rc;
        site->done_iter = job->iter;
        site->mon_bg = bg ? job->iter : -1;
        pthread_cond_broadcast(&site->cond);
    }
    pthread_mutex_unlock(&site->lock);
    if (bg)
        run_bg(site, job->iter, algo, root);
}

static void run_job(papcoll_site_t *site, papcoll__job_t *job)
{
    switch (job->kind) {
    case PAPCOLL__JOB_SHIP:
        papcoll__record_ship(site, &job->batch);
        break;
    case PAPCOLL__JOB_CLOCK:
        papcoll__resync(site->ctx);
        break;
    default:
        run_plan_job(site, job);
        break;
    }
}

static void *monitor_main(void *arg)
{
    papcoll_site_t *site = arg;
    papcoll__job_t *job;

    pthread_mutex_lock(&site->lock);
    for (;;) {
        while (!site->stop && site->njobs == 0)
            pthread_cond_wait(&site->cond, &site->lock);
        if (site->njobs == 0)
            break; /* stop requested and ring drained */
        job = &site->jobs[site->job_head];
        pthread_mutex_unlock(&site->lock);
        run_job(site, job);
        pthread_mutex_lock(&site->lock);
        site->job_head = (site->job_head + 1) % PAPCOLL__JOBS;
        site->njobs--;
        pthread_cond_broadcast(&site->cond);
    }
    pthread_mutex_unlock(&site->lock);
    return NULL;
}

int papcoll__monitor_start(papcoll_site_t *site)
{
    if (pthread_mutex_init(&site->lock, NULL) != 0)
        return PAPCOLL_ERR_THREAD;
    if (pthread_cond_init(&site->cond, NULL) != 0) {
        pthread_mutex_destroy(&site->lock);
        return PAPCOLL_ERR_THREAD;
    }
    if (pthread_create(&site->thread, NULL, monitor_main, site) != 0) {
        pthread_cond_destroy(&site->cond);
        pthread_mutex_destroy(&site->lock);
        return PAPCOLL_ERR_THREAD;
    }
    site->has_thread = 1;
    return PAPCOLL_OK;
}

void papcoll__monitor_stop(papcoll_site_t *site)
{
    if (!site->has_thread)
        return;
    pthread_mutex_lock(&site->lock);
    site->stop = 1;
    pthread_cond_broadcast(&site->cond);
    pthread_mutex_unlock(&site->lock);
    pthread_join(site->thread, NULL);
    site->has_thread = 0;
    pthread_cond_destroy(&site->cond);
    pthread_mutex_destroy(&site->lock);
}

/* A free slot of the ring, with the lock held (waits while the ring is
 * full: the monitor frees slots whatever the application does). */
static papcoll__job_t *reserve(papcoll_site_t *site, papcoll__job_kind_t kind)
{
    papcoll__job_t *job;

    pthread_mutex_lock(&site->lock);
    while (site->njobs == PAPCOLL__JOBS)
        pthread_cond_wait(&site->cond, &site->lock);
    job = &site->jobs[(site->job_head + site->njobs) % PAPCOLL__JOBS];
    job->kind = kind;
    job->iter = site->calls;
    return job;
}

static void commit(papcoll_site_t *site)
{
    site->njobs++;
    pthread_cond_broadcast(&site->cond);
    pthread_mutex_unlock(&site->lock);
}

/* Fills a plan job from a request. */
static void fill_plan(const papcoll_site_t *site, const papcoll__planreq_t *req, papcoll__job_t *job)
{
    job->xchg = req->exchange;
    fill_rec(site, req->est, job->rec);
    job->has_pat = !req->exchange && req->pat != NULL;
    job->pat = site->pat_copy;
    if (job->has_pat)
        memcpy(site->pat_copy, req->pat, (size_t)site->ctx->size * sizeof(double));
    job->has_sig = req->sig != NULL;
    if (req->sig != NULL)
        job->sig = *req->sig;
    job->plan = req->plan;
    job->bg = req->bg;
    job->has_sel = req->sel != NULL;
    if (req->sel != NULL)
        job->sel = *req->sel;
}

void papcoll__request_plan(papcoll_site_t *site, const papcoll__planreq_t *req)
{
    papcoll__job_t *job = reserve(site, PAPCOLL__JOB_PLAN);

    fill_plan(site, req, job);
    commit(site);
    if (req->exchange)
        site->requested++;
}

void papcoll__request_bg(papcoll_site_t *site)
{
    papcoll__job_t *job = reserve(site, PAPCOLL__JOB_PLAN);

    job->xchg = job->plan = job->has_pat = job->has_sig = job->has_sel = 0;
    job->bg = 1;
    commit(site);
}

void papcoll__request_ship(papcoll_site_t *site)
{
    papcoll__job_t *job = reserve(site, PAPCOLL__JOB_SHIP);

    job->batch = site->batch;
    commit(site);
}

void papcoll__request_clock(papcoll_site_t *site)
{
    reserve(site, PAPCOLL__JOB_CLOCK);
    commit(site);
}

int papcoll__plan_inline(papcoll_site_t *site, const papcoll__planreq_t *req)
{
    double rec[PAPCOLL__XCHG];
    int rc;

    /* The plan reads what an exchange writes (the density): the previous
     * call's exchange, a job that call may not have waited for, must be done */
    if (site->prev_xchg && (rc = papcoll__wait_exchange(site, site->calls - 1)) != PAPCOLL_OK)
        return rc;
    fill_rec(site, req->est, rec);
    if (req->exchange)
        site->requested++;
    return plan_steps(site, req->exchange, rec, req->pat, req->pat != NULL, req->sig, 1, site->calls,
                      req->sel);
}

int papcoll__wait_plan(papcoll_site_t *site)
{
    int rc;

    if (!site->has_thread)
        return PAPCOLL_OK;
    pthread_mutex_lock(&site->lock);
    while (site->done_iter != site->calls)
        pthread_cond_wait(&site->cond, &site->lock);
    rc = site->job_rc;
    pthread_mutex_unlock(&site->lock);
    return rc;
}

int papcoll__wait_exchange(papcoll_site_t *site, int iter)
{
    int rc;

    if (!site->has_thread)
        return PAPCOLL_OK;
    pthread_mutex_lock(&site->lock);
    while (site->done_iter < iter)
        pthread_cond_wait(&site->cond, &site->lock);
    rc = site->done_iter == iter ? site->job_rc : PAPCOLL_OK;
    pthread_mutex_unlock(&site->lock);
    return rc;
}

int papcoll__exchange_done(papcoll_site_t *site, int iter)
{
    int done;

    if (!site->has_thread)
        return 1;
    pthread_mutex_lock(&site->lock);
    done = site->done_iter >= iter;
    pthread_mutex_unlock(&site->lock);
    return done;
}

int papcoll__wait_bg(papcoll_site_t *site)
{
    int rc;

    pthread_mutex_lock(&site->lock);
    while (site->bg_iter != site->calls)
        pthread_cond_wait(&site->cond, &site->lock);
    rc = site->bg_rc;
    pthread_mutex_unlock(&site->lock);
    return rc;
}

void papcoll__wait_idle(papcoll_site_t *site)
{
    if (!site->has_thread)
        return;
    pthread_mutex_lock(&site->lock);
    while (site->njobs > 0)
        pthread_cond_wait(&site->cond, &site->lock);
    pthread_mutex_unlock(&site->lock);
}
