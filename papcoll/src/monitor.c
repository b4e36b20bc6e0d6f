/*
 * The monitor thread (Proficz 2020, Fig. 3): one per call site.  The
 * application thread queues jobs (exchange at the edge or at the call,
 * background parts) and waits on site->cond for their results; the thread
 * sleeps on the same condition variable while the queue is empty, so it
 * costs no CPU between iterations.  One thread per site rather than per
 * context: a site's exchange waits for every rank's edge or call of that
 * site, and with a shared thread a rank that reached another site first
 * would wait for it behind the blocked exchange (a cross-site deadlock).
 *
 * Agreement: the plan is a deterministic function of the exchanged bytes
 * (the predictor sees only exchanged values; ties are broken by rank), so
 * every rank derives the same order whatever its local timing.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "papcoll_internal.h"
#include "sched/sched.h"

struct papcoll__job {
    papcoll__job_t *next;
    papcoll_site_t *site;
    int iter;                     /* call index served */
    int do_xchg;                  /* run the exchange (rec) */
    double rec[PAPCOLL__XCHG];
    int set_plan;                 /* build the plan from pat (NULL: rank order) */
    double *pat;                  /* explicit PAT vector (owned) or NULL */
    int bg_root;                  /* >= 0: run the background part for it */
    papcoll__rec_t *recs;         /* records to ship to rank 0 (owned) or NULL */
    int nrecs;
    int clock;                    /* re-estimate the clock */
};

int papcoll__plan_alloc(papcoll__plan_t *plan, int P)
{
    plan->iter = -1;
    plan->has_pat = 0;
    plan->build_time = NAN;
    plan->pred = calloc((size_t)P, sizeof(double));
    plan->order = calloc((size_t)P, sizeof(int));
    return (plan->pred && plan->order) ? PAPCOLL_OK : PAPCOLL_ERR_NOMEM;
}

void papcoll__plan_free(papcoll__plan_t *plan)
{
    free(plan->pred);
    free(plan->order);
    plan->pred = NULL;
    plan->order = NULL;
}

/* Fills the plan from predicted offsets (NULL: no prediction); t0 is when
 * the prediction started (the plan's build time runs from there). */
static void plan_set(papcoll_site_t *site, const double *pred, int iter, double t0)
{
    int P = site->ctx->size, i;

    for (i = 0; i < P; i++)
        site->plan.pred[i] = pred ? pred[i] : NAN;
    papcoll__sort_by_key(P, pred, site->plan.order);
    site->plan.has_pat = pred != NULL;
    site->plan.iter = iter;
    site->plan.build_time = papcoll__mono() - t0;
}

/* Exchange + predictor update; returns predicted offsets in pred[P] and in
 * *t0 the time the exchanged data arrived. */
static int exchange(papcoll_site_t *site, const double *rec, double *pred, double *t0)
{
    int P = site->ctx->size, i, rc;
    double *col = pred; /* reused as scratch for the arrival column */

    rc = MPI_Allgather(rec, PAPCOLL__XCHG, MPI_DOUBLE, site->xchg, PAPCOLL__XCHG, MPI_DOUBLE,
                       site->mcomm);
    *t0 = papcoll__mono();
    if (rc != MPI_SUCCESS)
        return PAPCOLL__ERR(rc);
    for (i = 0; i < P; i++)
        col[i] = site->xchg[i * PAPCOLL__XCHG + PAPCOLL__X_ARRIVAL];
    papcoll__pred_observe(&site->predictor, col);
    for (i = 0; i < P; i++)
        col[i] = site->xchg[i * PAPCOLL__XCHG + PAPCOLL__X_EST];
    papcoll__pred_predict(&site->predictor, col, pred);
    return PAPCOLL_OK;
}

static void fill_rec(papcoll_site_t *site, double est, double *rec)
{
    rec[PAPCOLL__X_EST] = est;
    rec[PAPCOLL__X_ARRIVAL] = site->last_arrival;
    rec[PAPCOLL__X_EXIT] = site->last_exit;
    rec[PAPCOLL__X_ITER] = site->calls;
}

int papcoll__exchange_inline(papcoll_site_t *site, double est)
{
    double rec[PAPCOLL__XCHG], t0;
    double *pred = malloc((size_t)site->ctx->size * sizeof(double));
    int rc;

    if (pred == NULL)
        return PAPCOLL_ERR_NOMEM;
    fill_rec(site, est, rec);
    rc = exchange(site, rec, pred, &t0);
    plan_set(site, rc == PAPCOLL_OK ? pred : NULL, site->calls, t0);
    free(pred);
    return rc;
}

void papcoll__plan_from_pat(papcoll_site_t *site, const double *pat)
{
    plan_set(site, pat, site->calls, papcoll__mono());
}

static void run_job(papcoll__job_t *job)
{
    papcoll_site_t *site = job->site;
    double *pred, t0 = papcoll__mono();
    int ok = 0, rc;

    if (job->recs != NULL) {
        papcoll__record_ship(site, job->recs, job->nrecs);
        return;
    }
    if (job->clock) {
        if (papcoll__clock_update(site->ctx) != PAPCOLL_OK)
            papcoll__warn(site->ctx, "clock re-estimation failed");
        return;
    }
    pred = malloc((size_t)site->ctx->size * sizeof(double));
    if (job->do_xchg && pred != NULL)
        ok = exchange(site, job->rec, pred, &t0) == PAPCOLL_OK;
    pthread_mutex_lock(&site->lock);
    if (job->do_xchg)
        plan_set(site, ok ? pred : NULL, job->iter, t0);
    else if (job->set_plan)
        plan_set(site, job->pat, job->iter, t0);
    pthread_cond_broadcast(&site->cond);
    pthread_mutex_unlock(&site->lock);
    free(pred);
    if (job->bg_root < 0)
        return;
    rc = papcoll__algo_bg_of(site->op, site->algo)(site, job->bg_root);
    pthread_mutex_lock(&site->lock);
    site->bg.rc = rc;
    site->bg_iter = job->iter;
    pthread_cond_broadcast(&site->cond);
    pthread_mutex_unlock(&site->lock);
}

static void *monitor_main(void *arg)
{
    papcoll_site_t *site = arg;
    papcoll__job_t *job;

    pthread_mutex_lock(&site->lock);
    for (;;) {
        while (!site->stop && site->head == NULL)
            pthread_cond_wait(&site->cond, &site->lock);
        if ((job = site->head) == NULL)
            break; /* stop requested and queue drained */
        site->head = job->next;
        if (site->head == NULL)
            site->tail = NULL;
        pthread_mutex_unlock(&site->lock);
        run_job(job);
        pthread_mutex_lock(&site->lock);
        site->jobs--;
        pthread_cond_broadcast(&site->cond);
        free(job->pat);
        free(job->recs);
        free(job);
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

static int enqueue(papcoll_site_t *site, papcoll__job_t *job)
{
    job->site = site;
    job->iter = site->calls;
    pthread_mutex_lock(&site->lock);
    if (site->tail)
        site->tail->next = job;
    else
        site->head = job;
    site->tail = job;
    site->jobs++;
    pthread_cond_broadcast(&site->cond);
    pthread_mutex_unlock(&site->lock);
    return PAPCOLL_OK;
}

int papcoll__request_exchange(papcoll_site_t *site, double est, int run_bg_root)
{
    papcoll__job_t *job = calloc(1, sizeof(*job));

    if (job == NULL)
        return PAPCOLL_ERR_NOMEM;
    job->do_xchg = 1;
    fill_rec(site, est, job->rec);
    job->bg_root = run_bg_root;
    site->requested++;
    return enqueue(site, job);
}

int papcoll__request_bg(papcoll_site_t *site, int set_plan, const double *pat, int root)
{
    papcoll__job_t *job = calloc(1, sizeof(*job));
    size_t P = (size_t)site->ctx->size;

    if (job == NULL)
        return PAPCOLL_ERR_NOMEM;
    if (pat != NULL) {
        if ((job->pat = malloc(P * sizeof(double))) == NULL) {
            free(job);
            return PAPCOLL_ERR_NOMEM;
        }
        memcpy(job->pat, pat, P * sizeof(double));
    }
    job->set_plan = set_plan;
    job->bg_root = root;
    return enqueue(site, job);
}

int papcoll__request_ship(papcoll_site_t *site, const papcoll__rec_t *recs, int n)
{
    papcoll__job_t *job = calloc(1, sizeof(*job));

    if (job == NULL || (job->recs = malloc((size_t)n * sizeof(*recs))) == NULL) {
        free(job);
        return PAPCOLL_ERR_NOMEM;
    }
    memcpy(job->recs, recs, (size_t)n * sizeof(*recs));
    job->nrecs = n;
    job->bg_root = -1;
    return enqueue(site, job);
}

int papcoll__request_clock(papcoll_site_t *site)
{
    papcoll__job_t *job = calloc(1, sizeof(*job));

    if (job == NULL)
        return PAPCOLL_ERR_NOMEM;
    job->clock = 1;
    job->bg_root = -1;
    return enqueue(site, job);
}

int papcoll__wait_plan(papcoll_site_t *site)
{
    if (!site->has_thread)
        return PAPCOLL_OK;
    pthread_mutex_lock(&site->lock);
    while (site->plan.iter != site->calls)
        pthread_cond_wait(&site->cond, &site->lock);
    pthread_mutex_unlock(&site->lock);
    return PAPCOLL_OK;
}

int papcoll__wait_bg(papcoll_site_t *site)
{
    int rc;

    pthread_mutex_lock(&site->lock);
    while (site->bg_iter != site->calls)
        pthread_cond_wait(&site->cond, &site->lock);
    rc = site->bg.rc;
    pthread_mutex_unlock(&site->lock);
    return rc;
}

void papcoll__wait_idle(papcoll_site_t *site)
{
    if (!site->has_thread)
        return;
    pthread_mutex_lock(&site->lock);
    while (site->jobs > 0)
        pthread_cond_wait(&site->cond, &site->lock);
    pthread_mutex_unlock(&site->lock);
}
