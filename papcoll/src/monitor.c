/*
 * The monitor thread (Proficz 2020, Fig. 3): one per call site, and the
 * one decision path.  The application thread queues jobs into the site's
 * ring (the plan job of a call, background parts, record shipments, clock
 * re-estimations) and waits on site->cond for their results; the thread
 * sleeps on the same condition variable while the ring is empty, so it
 * costs no CPU between iterations.  One thread per site rather than per
 * context: a site's exchange waits for every rank's edge or call of that
 * site, and with a shared thread a rank that reached another site first
 * would wait for it behind the blocked exchange (a cross-site deadlock).
 *
 * A plan job: exchange -> inputs -> decide -> plan_get -> publish ->
 * background part.  Every buffer it uses was allocated with the site and
 * the ring never allocates, so no rank can skip an exchange the others
 * entered for want of memory.
 *
 * Agreement: the decision and the plan are deterministic functions of the
 * exchanged bytes, the policy and the job's signature (the predictor sees
 * only exchanged values; ties are broken by rank), so every rank derives
 * the same whatever its local timing.  Whether the call waits for its
 * decision depends on the policy alone (papcoll__site_waits), and the
 * signature a job decides for is the previous call's on every rank, so a
 * mismatch with the call's own is seen by every rank alike.
 */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "algo.h"
#include "clock.h"
#include "monitor.h"
#include "p2p.h"

/* The site's lock and condition variable.  Under SimGrid SMPI the monitor
 * is a coroutine of the rank (coop.h): nothing preempts, so the lock is
 * not needed, a wait drives the monitor (or yields to the application)
 * and a broadcast from the application runs the monitor at once. */
#ifdef PAPCOLL_SMPI
static void mon_lock(papcoll_site_t *site)
{
    (void)site;
}

static void mon_unlock(papcoll_site_t *site)
{
    (void)site;
}

static void mon_wait(papcoll_site_t *site)
{
    (void)site;
    papcoll__coop_wait();
}

static void mon_wake(papcoll_site_t *site)
{
    papcoll__coop_wake(&site->coop);
}
#else
static void mon_lock(papcoll_site_t *site)
{
    pthread_mutex_lock(&site->lock);
}

static void mon_unlock(papcoll_site_t *site)
{
    pthread_mutex_unlock(&site->lock);
}

static void mon_wait(papcoll_site_t *site)
{
    pthread_cond_wait(&site->cond, &site->lock);
}

static void mon_wake(papcoll_site_t *site)
{
    pthread_cond_broadcast(&site->cond);
}
#endif

static void fill_rec(const papcoll_site_t *site, double est, double *rec)
{
    rec[PAPCOLL__X_EST] = est;
    rec[PAPCOLL__X_ARRIVAL] = site->marks.last_arrival;
    rec[PAPCOLL__X_ITER] = site->calls;
    rec[PAPCOLL__X_DENSITY] = site->marks.last_density;
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
 * scored against the arrivals of call it - 1 first: how far a prediction
 * misses the call after the one it was made for (lag_noise). */
static void snapshot(papcoll__xstate_t *xs, int P, int it)
{
    papcoll__snap_t *s = &xs->snap[it & 1];
    double *col = xs->col, lo, e;
    int i;

    for (i = 0; i < P; i++)
        col[i] = xs->xchg[i * PAPCOLL__XCHG + PAPCOLL__X_ARRIVAL];
    s->spread = papcoll__spread(col, P, 1, &s->first);
    if (s->iter == it - 2 && !isnan(s->spread)) {
        for (i = 0; i < P; i++)
            col[i] -= s->first + s->pred[i];
        e = papcoll__spread(col, P, 1, &lo);
        if (!isnan(e))
            xs->lag_err[xs->nlag++ % PAPCOLL__LAG_WIN] = e;
    }
    s->lag_noise = ring_median(xs->lag_err, xs->nlag);
    s->noise = xs->noise;
    memcpy(s->pred, xs->pred, (size_t)P * sizeof(double));
    s->iter = it;
}

#ifdef PAPCOLL_SMPI
/* The exchange under SMPI: SimGrid 3.32's MPI_Iallgather has no algorithm
 * choice and sends P (P - 1) messages (1,024 ranks then simulate for
 * minutes).  This is Bruck's allgather, Open MPI's choice for a small
 * allgather on many ranks (coll/tuned): in round k every rank sends the
 * min(k, P - k) rows it holds to rank - k and receives as many from
 * rank + k, ceil(log2 P) rounds, P ceil(log2 P) messages.  Row i of tmp
 * is rank me + i's.  The waits poll, since a coroutine must not block its
 * rank (coop.h).  Collective over comm, like the allgather it replaces. */
static int smpi_exchange(const double *rec, double *all, int P, MPI_Comm comm)
{
    const size_t row = PAPCOLL__XCHG;
    MPI_Request two[2];
    double *tmp;
    int me = 0, k, n, i, rc = MPI_SUCCESS;

    PMPI_Comm_rank(comm, &me);
    if ((tmp = malloc((size_t)P * row * sizeof *tmp)) == NULL)
        return MPI_ERR_NO_MEM;
    memcpy(tmp, rec, row * sizeof *tmp);
    for (k = 1; k < P && rc == MPI_SUCCESS; k *= 2) {
        n = k < P - k ? k : P - k;
        rc = PMPI_Irecv(tmp + (size_t)k * row, n * (int)row, MPI_DOUBLE, (me + k) % P, 0, comm, &two[0]);
        if (rc == MPI_SUCCESS)
            rc = PMPI_Isend(tmp, n * (int)row, MPI_DOUBLE, (me - k + P) % P, 0, comm, &two[1]);
        if (rc == MPI_SUCCESS && papcoll__bg_waitall(2, two, MPI_STATUSES_IGNORE) != PAPCOLL_OK)
            rc = MPI_ERR_OTHER;
    }
    for (i = 0; i < P && rc == MPI_SUCCESS; i++)
        memcpy(all + (size_t)((me + i) % P) * row, tmp + (size_t)i * row, row * sizeof *tmp);
    free(tmp);
    return rc;
}
#endif

/* Exchange + predictor update into xs->pred and xs->noise (the last
 * prediction scored against the arrivals it was made for); *t0: when the
 * data arrived.  Collective over site->mcomm. */
static int exchange(papcoll_site_t *site, const double *rec, double *t0)
{
    papcoll__xstate_t *xs = &site->xs;
    int P = site->ctx->size, i, rc;
    double *col = xs->col, it;

#ifdef PAPCOLL_SMPI
    rc = smpi_exchange(rec, xs->xchg, P, site->mcomm);
#else
    rc = PMPI_Allgather(rec, PAPCOLL__XCHG, MPI_DOUBLE, xs->xchg, PAPCOLL__XCHG, MPI_DOUBLE, site->mcomm);
#endif
    *t0 = papcoll__mono();
    xs->pred_ok = rc == MPI_SUCCESS;
    if (rc != MPI_SUCCESS)
        return PAPCOLL__ERR(rc);
    for (i = 0; i < P; i++)
        col[i] = xs->xchg[i * PAPCOLL__XCHG + PAPCOLL__X_ARRIVAL];
    it = xs->xchg[PAPCOLL__X_ITER]; /* the call predicted now; the arrivals are of the one before */
    if (xs->pred_iter == it - 1)
        papcoll__pred_score(&xs->predictor, xs->pred, col);
    xs->pred_iter = it;
    papcoll__pred_observe(&xs->predictor, col);
    xs->noise = papcoll__pred_noise(&xs->predictor);
    for (i = 0; i < P; i++)
        col[i] = xs->xchg[i * PAPCOLL__XCHG + PAPCOLL__X_EST];
    papcoll__pred_predict(&xs->predictor, col, xs->pred);
    xs->density = papcoll__model_density(xs->xchg + PAPCOLL__X_DENSITY, P, PAPCOLL__XCHG);
    snapshot(xs, P, (int)it);
    return PAPCOLL_OK;
}

/*
 * The one place the policies' inputs are computed: what every rank shares
 * (the signature, P, the model) and, when data, exchange iter's snapshot:
 * its prediction and the arrivals of the call before, which it
 * carried.  Never a local clock.  pat: an explicit PAT, the prediction
 * itself, with nothing observed.
 */
static void inputs(const papcoll_site_t *site, const papcoll__sig_t *sig, const double *pat, int data,
                   int iter, papcoll__pin_t *in)
{
    const papcoll_ctx_t *ctx = site->ctx;
    const papcoll__snap_t *snap = &site->xs.snap[iter & 1];
    const papcoll__model_t *m = &ctx->model;

    *in = (papcoll__pin_t){.P = ctx->size,
                           .has_monitor = ctx->has_monitor,
                           .bytes = (double)sig->bytes,
                           .commutative = sig->commutative,
                           .seg = (double)ctx->segment_bytes,
                           .root = sig->root,
                           .lag_noise = NAN,
                           .spread = NAN};
    in->alpha = ctx->has_model ? m->v[PAPCOLL__M_ALPHA] : NAN;
    in->beta = ctx->has_model ? m->v[PAPCOLL__M_BETA] : NAN;
    in->gamma = ctx->has_model ? m->v[PAPCOLL__M_GAMMA] : NAN;
    in->xbeta = ctx->has_model ? m->v[PAPCOLL__M_XBETA] : NAN;
    in->ralpha = ctx->has_model ? m->v[PAPCOLL__M_RALPHA] : NAN; /* the policy takes alpha where it is 0 */
    if (!data || (pat == NULL && snap->iter != iter))
        return; /* nothing exchanged for this call */
    in->data = 1;
    in->pred = pat != NULL ? pat : snap->pred;
    in->spread = papcoll__spread(in->pred, ctx->size, 1, NULL);
    if (pat != NULL)
        return; /* nothing observed */
    in->lag_noise = snap->lag_noise;
    in->noise = snap->noise;
#ifdef PAPCOLL_MUTANT_LOCAL_POLICY /* the mutant tests/policy.sh must catch: a local value decides */
    if (isfinite(site->marks.last_arrival))
        in->spread = site->marks.last_arrival - snap->first;
#endif
}

void papcoll__site_decide(papcoll_site_t *site, const papcoll__sig_t *sig, const double *pat, int data,
                          int iter, papcoll__selection_t *sel)
{
    papcoll__pin_t in;

    inputs(site, sig, pat, data, iter, &in);
    papcoll__decide(&site->policy, site->op, sig, &in, sel);
}

int papcoll__plan_get(papcoll_site_t *site, const papcoll__sig_t *sig, const double *pat, int data, int iter,
                      const papcoll__selection_t *sel, int algo, double t0)
{
    papcoll__decision_t *d = &site->dec;
    papcoll__xstate_t *xs = &site->xs;
    const double *pred = NULL;

    d->run = papcoll__algo(site->op, algo);
    if (d->run->flags & PAPCOLL_F_NEEDS_PAT)
        pred = pat != NULL ? pat : data && xs->pred_ok ? xs->pred : NULL;
    if (sel != &d->sel)
        d->sel = *sel;
    d->algo = algo;
    d->rc =
        papcoll__plan_build(&site->plan, site->ctx, site->op, algo, sig->root, sig->bytes, pred,
                            pred != NULL && pat == NULL ? xs->noise : 0, data ? xs->density : 1, iter, t0);
    d->decided = 1;
    d->sig = *sig;
    d->time = papcoll__mono() - t0;
    return d->rc;
}

static int same_sig(const papcoll__sig_t *x, const papcoll__sig_t *y)
{
    return x->root == y->root && x->bytes == y->bytes && x->count == y->count && x->esize == y->esize &&
           x->mop == y->mop && x->commutative == y->commutative && x->builtin == y->builtin;
}

/* Completes a background part started for the guessed signature with
 * scratch data of this call's size (every rank sees the same mismatch), so
 * that the call can run its own decision. */
static int drain(papcoll_site_t *site, const papcoll__args_t *a)
{
    papcoll__args_t x = *a;
    size_t n = site->op == PAPCOLL_OP_GATHER || site->op == PAPCOLL_OP_SCATTER ? (size_t)a->size : 1;
    char *scratch;
    int rc = PAPCOLL_OK, rc2;

    x.root = site->dec.sig.root; /* the part's root; this call's bytes: the parts stage by size */
    if ((scratch = calloc((n + 1) * x.bytes + 1, 1)) == NULL)
        return PAPCOLL_ERR_NOMEM;
    x.sbuf = scratch + (site->op == PAPCOLL_OP_GATHER ? n * x.bytes : 0);
    x.rbuf = scratch + (site->op == PAPCOLL_OP_GATHER ? 0 : n * x.bytes);
    x.plan = &site->plan;
    if (a->sig.mop != MPI_OP_NULL) /* a reduction combines, even scratch data */
        rc = papcoll__args_prepare_combine(&x);
    if (rc == PAPCOLL_OK)
        rc = site->dec.run->fn(&x);
    rc2 = papcoll__wait_bg(site); /* a root's foreground may not wait for its own part */
    papcoll__args_finish(&x, 0);
    free(scratch);
    return rc ? rc : rc2;
}

/* PAPCOLL_FALLBACK=error: a decision that fell back refuses the call. */
static int refused(const papcoll_site_t *site, const papcoll__selection_t *s)
{
    return s->fell_back && site->ctx->fallback == PAPCOLL__FB_ERROR;
}

/*
 * Takes decision k: the published one when it was made for this call's
 * signature, else the same decide and plan_get here.  A background part
 * started for the guessed signature serves the call when its algorithm
 * and root are the call's own (it stages by size); otherwise it is
 * drained, and the call runs its decision's foreground: a background part
 * cannot run twice in a call.
 */
int papcoll__take_decision(papcoll_site_t *site, const papcoll__args_t *a, const double *pat)
{
    papcoll__decision_t *d = &site->dec;
    int waits = pat != NULL || site->waits, rc = PAPCOLL_OK, started, algo;
    papcoll__selection_t s;
    double t0 = papcoll__mono();

    if (!site->queued) /* no edge queued job k: queue it with the same guess */
        rc = papcoll__job_plan(site, site->marks.est, pat,
                               pat != NULL || !site->has_thread ? &a->sig
                               : site->last_sig.root != -2      ? &site->last_sig
                                                                : NULL);
    if (rc == PAPCOLL_OK && waits)
        rc = papcoll__wait_decision(site);
    if (rc != PAPCOLL_OK)
        return rc;
    site->timing.decision = d->time;
    if (waits && d->iter == site->calls && d->decided && same_sig(&d->sig, &a->sig))
        return refused(site, &d->sel) ? PAPCOLL_ERR_RESTRICT : PAPCOLL_OK; /* refused: no part started */
    started = waits && d->iter == site->calls && d->bg;
    papcoll__site_decide(site, &a->sig, pat, waits, site->calls, &s);
    if (started && !refused(site, &s) && s.algo == d->algo && a->root == d->sig.root) {
        d->sel = s; /* the running part fits, and so does its plan */
        return PAPCOLL_OK;
    }
    algo = s.algo;
    if (started && (rc = drain(site, a)) == PAPCOLL_OK &&
        (papcoll__algo(site->op, algo)->flags & PAPCOLL_F_BACKGROUND))
        algo = papcoll__algo(site->op, algo)->fallback;
    if (rc == PAPCOLL_OK && refused(site, &s))
        rc = PAPCOLL_ERR_RESTRICT;
    d->sel = s;
    d->algo = algo;
    d->bg = 0;
    d->iter = site->calls;
    rc = rc ? rc : papcoll__plan_get(site, &a->sig, pat, waits, site->calls, &s, algo, t0);
    site->timing.decision = d->time;
    if (rc == PAPCOLL_OK && site->has_thread && (d->run->flags & PAPCOLL_F_BACKGROUND))
        papcoll__job_bg(site);
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

/* The background part of the published decision (site->dec). */
static void run_bg(papcoll_site_t *site, int iter)
{
    int rc = site->dec.run->bg(&site->x, site->dec.sig.root);

    mon_lock(site);
    site->dec.bg_rc = rc;
    site->dec.bg_done = iter;
    mon_wake(site);
    mon_unlock(site);
}

/* Job k: exchange (or the explicit PAT), then, when asked, inputs, decide
 * and plan_get for the job's signature; publish; the background part. */
static void run_plan_job(papcoll_site_t *site, const papcoll__job_t *job)
{
    double t0;
    int rc = PAPCOLL_OK, bg;

    if (job->xchg)
        rc = exchange(site, job->rec, &t0);
    if (!job->publish)
        return; /* the call decides without waiting: the decision is its own */
    site->dec.decided = 0;
    if (rc == PAPCOLL_OK && job->decide) {
        t0 = papcoll__mono();
        papcoll__site_decide(site, &job->sig, job->xchg ? NULL : site->xs.pat, 1, job->iter, &site->dec.sel);
        rc = papcoll__plan_get(site, &job->sig, job->xchg ? NULL : site->xs.pat, 1, job->iter, &site->dec.sel,
                               site->dec.sel.algo, t0);
    }
    bg = rc == PAPCOLL_OK && site->dec.decided && site->has_thread &&
         (site->dec.run->flags & PAPCOLL_F_BACKGROUND) &&
         !(site->dec.sel.fell_back && site->ctx->fallback == PAPCOLL__FB_ERROR); /* the call refuses */
    mon_lock(site);
    site->dec.rc = rc;
    site->dec.bg = bg;
    site->dec.iter = job->iter;
    mon_wake(site);
    mon_unlock(site);
    if (bg)
        run_bg(site, job->iter);
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
    case PAPCOLL__JOB_BG:
        run_bg(site, job->iter);
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

    mon_lock(site);
    for (;;) {
        while (!site->stop && site->njobs == 0)
            mon_wait(site);
        if (site->njobs == 0)
            break; /* stop requested and ring drained */
        job = &site->jobs[site->job_head];
        mon_unlock(site);
        run_job(site, job);
        mon_lock(site);
        site->job_head = (site->job_head + 1) % PAPCOLL__JOBS;
        site->njobs--;
        mon_wake(site);
    }
    mon_unlock(site);
    return NULL;
}

#ifdef PAPCOLL_SMPI
static void coop_main(void *site)
{
    monitor_main(site);
}

int papcoll__monitor_start(papcoll_site_t *site)
{
    int rc = papcoll__coop_start(&site->coop, coop_main, site);

    site->has_thread = rc == PAPCOLL_OK;
    return rc;
}

void papcoll__monitor_stop(papcoll_site_t *site)
{
    if (!site->has_thread)
        return;
    site->stop = 1;
    mon_wake(site);
    papcoll__coop_join(&site->coop);
    site->has_thread = 0;
}
#else
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
    mon_lock(site);
    site->stop = 1;
    mon_wake(site);
    mon_unlock(site);
    pthread_join(site->thread, NULL);
    site->has_thread = 0;
    pthread_cond_destroy(&site->cond);
    pthread_mutex_destroy(&site->lock);
}
#endif

/* A free slot of the ring, with the lock held (waits while the ring is
 * full: the monitor frees slots whatever the application does). */
static papcoll__job_t *reserve(papcoll_site_t *site, papcoll__job_kind_t kind)
{
    papcoll__job_t *job;

    mon_lock(site);
    while (site->njobs == PAPCOLL__JOBS)
        mon_wait(site);
    job = &site->jobs[(site->job_head + site->njobs) % PAPCOLL__JOBS];
    job->kind = kind;
    job->iter = site->calls;
    return job;
}

static void commit(papcoll_site_t *site)
{
    site->njobs++;
    mon_wake(site);
    mon_unlock(site);
}

int papcoll__site_waits(const papcoll_site_t *site)
{
    return papcoll__policy_uses_data(&site->policy) ||
           (papcoll_algo_flags(site->op, site->policy.algo) & (PAPCOLL_F_NEEDS_PAT | PAPCOLL_F_BACKGROUND));
}

int papcoll__job_plan(papcoll_site_t *site, double est, const double *pat, const papcoll__sig_t *sig)
{
    papcoll__job_t local, *job = &local;

    site->queued = 1;
    if (pat != NULL)
        memcpy(site->xs.pat, pat, (size_t)site->ctx->size * sizeof(double));
    if (!site->has_thread && pat == NULL && !site->waits)
        return PAPCOLL_OK; /* nothing to exchange: the call decides */
    if (site->has_thread)
        job = reserve(site, PAPCOLL__JOB_PLAN);
    job->kind = PAPCOLL__JOB_PLAN;
    job->iter = site->calls;
    job->xchg = pat == NULL;
    fill_rec(site, est, job->rec);
    job->publish = pat != NULL || site->waits;
    job->decide = job->publish && sig != NULL;
    if (sig != NULL)
        job->sig = *sig;
    if (!site->has_thread) {
        run_plan_job(site, job);
        return site->dec.rc;
    }
    commit(site);
    return PAPCOLL_OK;
}

void papcoll__job_bg(papcoll_site_t *site)
{
    reserve(site, PAPCOLL__JOB_BG);
    site->dec.bg = 1;
    commit(site);
}

void papcoll__job_ship(papcoll_site_t *site)
{
    papcoll__job_t *job = reserve(site, PAPCOLL__JOB_SHIP);

    job->batch = site->batch;
    commit(site);
}

void papcoll__job_clock(papcoll_site_t *site)
{
    reserve(site, PAPCOLL__JOB_CLOCK);
    commit(site);
}

int papcoll__wait_decision(papcoll_site_t *site)
{
    int rc;

    if (!site->has_thread)
        return site->dec.iter == site->calls ? site->dec.rc : PAPCOLL_OK;
    mon_lock(site);
    while (site->dec.iter != site->calls)
        mon_wait(site);
    rc = site->dec.rc;
    mon_unlock(site);
    return rc;
}

int papcoll__wait_bg(papcoll_site_t *site)
{
    int rc;

    mon_lock(site);
    while (site->dec.bg_done != site->calls)
        mon_wait(site);
    rc = site->dec.bg_rc;
    mon_unlock(site);
    return rc;
}

int papcoll__exec_wait_bg(const papcoll__exec_t *x)
{
    return papcoll__wait_bg((papcoll_site_t *)((const char *)x - offsetof(papcoll_site_t, x)));
}

void papcoll__wait_idle(papcoll_site_t *site)
{
    if (!site->has_thread)
        return;
    mon_lock(site);
    while (site->njobs > 0)
        mon_wait(site);
    mon_unlock(site);
}
