/*
 * papbench prolog and measurement loop.
 *
 * One iteration of one algorithm (Proficz 2020, Fig. 13, with the double
 * barrier of Marendic 2016, Alg. 2):
 *
 *   fill send data, poison receive buffers        (untimed; collect.c)
 *   MPI_Barrier; MPI_Barrier                      (balanced start)
 *   processing start, sleep half, edge(0.5), sleep half, processing end
 *                                                 half = (base + delay) / 2
 *   a = papcoll_wtime(); papcoll_<op>(); f = papcoll_wtime()   (global clock)
 *   validate; gather (a, f) to rank 0;
 *   rank 0: r, e, I and the op's lower bound of r (papmetrics.h)   (untimed)
 *
 * The iterations are run in rounds: round g runs every algorithm once under
 * one delay vector.  Interleaving (as Marendic's Alg. 2 does) spreads slow
 * drifts of the machine evenly over the algorithms, and since the delays
 * are a function of (seed, k) alone, every algorithm meets the same arrival
 * patterns.  The first --calibrate rounds have no delay: each algorithm's
 * balanced run time t(pi), and with --maxdelay Fx the unit of the delays
 * (the baseline's median); then --warmup rounds, then the measured ones,
 * which use pattern iterations 0, 1, ... from the first warm-up on.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "data.h"
#include "lowerbound.h"
#include "rng.h"
#include "timer.h"

#define MODEL_REPS 10     /* ping-pongs per message size for alpha and beta */
#define MAX_SEGMENTS 4096 /* the round model's N at most (as the library's Clairvoyant) */

/* Timestamps of one call on this rank. */
typedef struct {
    double arrival, exit; /* papcoll_wtime */
} sample_t;

phase_t bench_phase(const bench_config_t *c, long g, long *index)
{
    if (g < c->calibrate) {
        *index = g;
        return PHASE_CALIBRATE;
    }
    g -= c->calibrate;
    *index = g < c->warmup ? g : g - c->warmup;
    return g < c->warmup ? PHASE_WARMUP : PHASE_MEASURE;
}

const char *bench_round_label(const bench_config_t *c, long g, char *buf, size_t len)
{
    long i;

    switch (bench_phase(c, g, &i)) {
    case PHASE_CALIBRATE:
        snprintf(buf, len, "calibration round %ld/%ld", i + 1, c->calibrate);
        break;
    case PHASE_WARMUP:
        snprintf(buf, len, "warm-up iteration %ld/%ld", i + 1, c->warmup);
        break;
    default:
        snprintf(buf, len, "iteration %ld/%ld", i + 1, c->iters);
    }
    return buf;
}

/* Round g (calibration included), algorithm a: identifies the call's data. */
static uint64_t call_tag(const bench_t *b, long g, int a)
{
    return (uint64_t)g * (uint64_t)b->cfg->nalgos + (uint64_t)a;
}

/* Names the option at fault when papcoll_init refuses what the user gave. */
static void init_error(const bench_config_t *c, int rc)
{
    if (rc == PAPCOLL_ERR_PREDICTOR && c->predictor != NULL)
        fprintf(stderr, "papbench: --predictor: '%s': %s\n", c->predictor, papcoll_strerror(rc));
    else if (rc == PAPCOLL_ERR_CONFIG && c->config_file != NULL)
        fprintf(stderr, "papbench: --config: '%s': %s\n", c->config_file, papcoll_strerror(rc));
    else
        fprintf(stderr, "papbench: papcoll_init: %s\n", papcoll_strerror(rc));
}

/* The context and one site per algorithm, named papbench-<algo>. */
static int start_papcoll(bench_t *b)
{
    const bench_config_t *c = b->cfg;
    papcoll_options_t opts = {0};
    char name[96];
    int rc, a;

    opts.predictor = c->predictor;
    opts.config_file = c->config_file;
    opts.no_monitor = c->no_monitor;
    rc = app_papcoll(b->app, &opts);
    if (rc != PAPCOLL_OK) {
        if (b->rank == 0)
            init_error(c, rc);
        return app_papcoll_status(rc);
    }
    for (a = 0; a < c->nalgos; a++) {
        const char *algo = bench_label(c, a);

        snprintf(name, sizeof name, "papbench-%s", algo);
        rc = app_site(b->app, name, c->op, algo, &b->res[a].site);
        if (rc != PAPCOLL_OK) {
            fprintf(stderr, "papbench: rank %d: papcoll_site_create(%s): %s\n", b->rank, algo,
                    papcoll_strerror(rc));
            return app_papcoll_status(rc); /* a bad name or policy is a usage error */
        }
    }
    return APP_OK;
}

/* Zeroed allocation of n items of size sz; never NULL for n == 0. */
static void *alloc(size_t n, size_t sz, int *ok)
{
    void *p = calloc(n ? n : 1, sz ? sz : 1);

    *ok = *ok && p != NULL;
    return p;
}

static int alloc_results(bench_t *b)
{
    const bench_config_t *c = b->cfg;
    size_t n = (size_t)c->iters, P = (size_t)b->nprocs, d = sizeof(double);
    int a, ok = 1;

    for (a = 0; a < c->nalgos && b->rank == 0; a++) {
        algo_result_t *r = &b->res[a];

        r->runtime = alloc(n, d, &ok);
        r->decision = alloc(n, d, &ok);
        r->elapsed = alloc(n, d, &ok);
        r->imbalance = alloc(n, d, &ok);
        r->min_arrival = alloc(n, d, &ok);
        r->arrival = alloc(n * P, d, &ok);
        r->exit = alloc(n * P, d, &ok);
        r->lower_bound = alloc(n, d, &ok);
        r->round_model = alloc(n, d, &ok);
        r->balanced = alloc((size_t)c->calibrate, d, &ok);
    }
    return ok;
}

static int alloc_buffers(bench_t *b)
{
    const bench_config_t *c = b->cfg;
    int ok = 1;

    b->delays = alloc((size_t)b->nprocs, sizeof(double), &ok);
    b->times = alloc(2 * (size_t)b->nprocs, sizeof(double), &ok);
    b->res = alloc((size_t)c->nalgos, sizeof *b->res, &ok);
    b->order = alloc((size_t)c->nalgos, sizeof *b->order, &ok);
    ok = ok && call_alloc(b) && alloc_results(b);
    if (!ok) {
        fprintf(stderr, "papbench: rank %d: out of memory\n", b->rank);
        return APP_FAILED;
    }
    return APP_OK;
}

/* The lower bound's port model (and gamma of reductions), measured before
 * the library starts its traffic; for reduce also the round model's N and d. */
static int measure_network(bench_t *b)
{
    const bench_config_t *c = b->cfg;
    size_t bytes = (size_t)c->count * elem_size(c->type);

    b->lower_bound = pm_lb_find(papcoll_op_name(c->op));
    if (lb_measure(MPI_COMM_WORLD, c->root, bytes, call_type(c), call_op(c), MODEL_REPS, &b->model) != 0) {
        fprintf(stderr, "papbench: rank %d: measuring the network model failed (out of memory?)\n", b->rank);
        return APP_FAILED;
    }
    b->segments = pm_round_segments(b->nprocs, bytes, &b->model,
                                    c->count < MAX_SEGMENTS ? (int)c->count : MAX_SEGMENTS);
    b->round = pm_round_time(&b->model, (double)bytes / b->segments);
    if (limits_alpha(MPI_COMM_WORLD, 0, MODEL_REPS, &b->limits) != 0) {
        fprintf(stderr, "papbench: rank %d: out of memory measuring alpha per rank\n", b->rank);
        return APP_FAILED;
    }
    return APP_OK;
}

int bench_setup(bench_t *b, app_t *app, const bench_config_t *cfg)
{
    char extra[1024];
    int status;

    b->cfg = cfg;
    b->app = app;
    b->rank = app->rank;
    b->nprocs = app->nprocs;
    b->delay_scale = 1.0;
    status = app_agree(app_mkdir(app, cfg->out_dir));
    if (status == APP_OK)
        status = app_agree(alloc_buffers(b));
    if (status == APP_OK)
        status = app_agree(measure_network(b));
    if (status == APP_OK)
        status = app_agree(start_papcoll(b));
    if (status == APP_OK)
        call_bind(b);
    if (status == APP_OK) {
        bench_trace_extra(b, extra, sizeof extra);
        status = app_trace_open(app, cfg->trace_path, extra);
    }
    return status;
}

/* The paper's emulated computation: two sleeps around the PAT monitor's edge. */
static int emulate_compute(papcoll_site_t *site, double seconds, const char **what)
{
    double t0;
    int rc;

    *what = "papcoll_processing_start";
    if ((rc = papcoll_processing_start(site)) != PAPCOLL_OK)
        return rc;
    /* Absolute deadlines: the edge's own cost does not lengthen the computation. */
    t0 = timer_now();
    timer_sleep_until(t0 + 0.5 * seconds);
    *what = "papcoll_edge";
    if ((rc = papcoll_edge(site, 0.5)) != PAPCOLL_OK)
        return rc;
    timer_sleep_until(t0 + seconds);
    *what = "papcoll_processing_end";
    return papcoll_processing_end(site);
}

/* A library error leaves the other ranks inside a collective: abort the job. */
static void die(const bench_t *b, int a, long g, const char *what, int rc)
{
    char where[160], round[64];

    snprintf(where, sizeof where, "%s, %s", bench_label(b->cfg, a),
             bench_round_label(b->cfg, g, round, sizeof round));
    app_die(b->app, what, where, rc);
}

/* One synchronised, emulated-compute, timed and validated call. */
static void timed_call(bench_t *b, int a, long g, sample_t *s)
{
    const bench_config_t *c = b->cfg;
    uint64_t tag = call_tag(b, g, a);
    const char *what = NULL;
    int rc;

    call_prepare(b, tag);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    rc = emulate_compute(b->res[a].site, 1e-3 * c->base_ms + b->delays[b->rank], &what);
    if (rc != PAPCOLL_OK)
        die(b, a, g, what, rc);
    s->arrival = papcoll_wtime(b->app->ctx);
    rc = call_run(b, a);
    s->exit = papcoll_wtime(b->app->ctx);
    if (rc != PAPCOLL_OK)
        die(b, a, g, call_name(b), rc);
    /* Test-only (BENCH_CORRUPT_ENV): a wrong value the validation must catch. */
    if (b->rank == c->corrupt_rank && g == 0 && a == 0)
        call_corrupt(b);
}

/* Rank 0: the metrics of measured iteration i of algorithm a from the gathered pairs. */
static void metrics(bench_t *b, int a, long i)
{
    const bench_config_t *c = b->cfg;
    /* Rank p's pair at times[2p]: arrivals and exits two doubles apart. */
    pm_call_t call = {&b->times[0], &b->times[1], b->nprocs, 2 * sizeof(double)};
    size_t bytes = (size_t)c->count * elem_size(c->type);
    algo_result_t *r = &b->res[a];
    double amin = pm_first_arrival(&call);
    const double *arr = &r->arrival[i * b->nprocs];
    int p, P = b->nprocs;

    papcoll_timing_t t;

    r->runtime[i] = pm_runtime(&call);
    r->decision[i] = papcoll_site_last_timing(r->site, &t) == PAPCOLL_OK ? t.decision : 0.0;
    r->elapsed[i] = pm_elapsed(&call);
    r->imbalance[i] = pm_imbalance(&call);
    r->min_arrival[i] = amin - b->t_start;
    for (p = 0; p < P; p++) {
        r->arrival[i * P + p] = b->times[2 * p] - amin;
        r->exit[i * P + p] = b->times[2 * p + 1] - amin;
    }
    r->lower_bound[i] = b->lower_bound(P, arr, c->root, &b->model, bytes);
    r->round_model[i] =
        c->op == PAPCOLL_OP_REDUCE ? b->round * (double)pm_round_count(P, arr, b->round, b->segments) : 0.0;
}

/*
 * --finished sleep: wait until every rank has left the call, testing a
 * non-blocking barrier every 100 us and sleeping in between, so that a
 * rank that is done leaves the shared cores to those still in the call.
 * On a real cluster (one rank per node) a finished rank's wait in MPI
 * takes nothing from the others; on the emulated one 7 ranks polling in
 * MPI share 2 cores with the one still working (docs/papbench.md).
 */
static void finished_sleep(void)
{
    const struct timespec nap = {0, 100000};
    MPI_Request rq;
    int done = 0;

    MPI_Ibarrier(MPI_COMM_WORLD, &rq);
    while (MPI_Test(&rq, &done, MPI_STATUS_IGNORE) == MPI_SUCCESS && !done)
        nanosleep(&nap, NULL);
}

/*
 * The untimed bookkeeping of a call: once every rank has left it, each
 * validates its buffers; then the (a_i, f_i) pairs are gathered to rank
 * 0, which computes the call's metrics (or, in a calibration round, keeps
 * its run time).  Returns 1 when any rank's validation failed, so that all
 * ranks stop together.  Validating only after the wait keeps a rank that
 * is done from computing (regenerating its whole vector) while others are
 * still in the call: on the emulated cluster that CPU time came from the
 * 2 cores the ranks still in the call share (docs/papbench.md).
 */
static int record(bench_t *b, int a, long g, const sample_t *s)
{
    double pair[2] = {s->arrival, s->exit};
    pm_call_t call = {&b->times[0], &b->times[1], b->nprocs, 2 * sizeof(double)};
    phase_t phase;
    long i;
    int mine, bad = 0;

    if (b->cfg->finished_sleep)
        finished_sleep();
    else
        MPI_Barrier(MPI_COMM_WORLD);
    mine = call_validate(b, a, g, call_tag(b, g, a));
    MPI_Allreduce(&mine, &bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    MPI_Gather(pair, 2, MPI_DOUBLE, b->times, 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (bad)
        return 1;
    phase = bench_phase(b->cfg, g, &i);
    if (b->rank != 0 || phase == PHASE_WARMUP)
        return 0;
    if (phase == PHASE_CALIBRATE)
        b->res[a].balanced[i] = pm_runtime(&call);
    else
        metrics(b, a, i);
    return 0;
}

/* Rank 0, at most every 2 s, on stderr. */
static void progress(bench_t *b, int a, long g)
{
    const bench_config_t *c = b->cfg;
    double t = app_progress_due(b->app, c->quiet);
    char round[64];

    if (t >= 0)
        fprintf(stderr, "papbench: %8.1f s  %s, %s\n", t, bench_round_label(c, g, round, sizeof round),
                bench_label(c, a));
}

/*
 * After the calibration rounds: the baseline's median balanced run time on
 * every rank, and with --maxdelay Fx the scale of the pattern's delays
 * (which come in units of 1 ms then).
 */
static void calibrated(bench_t *b)
{
    const bench_config_t *c = b->cfg;
    pm_stats_t st;

    if (b->rank == 0 && pm_stats(b->res[c->baseline].balanced, (int)c->calibrate, &st) == 0)
        b->t_balanced = st.median;
    MPI_Bcast(&b->t_balanced, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (c->maxdelay_rel > 0)
        b->delay_scale = c->maxdelay_rel * 1e3 * b->t_balanced;
    if (b->rank == 0 && !c->quiet)
        fprintf(stderr, "papbench: balanced run time of %s: %.3f ms (median of %ld rounds)%s\n",
                bench_label(c, c->baseline), 1e3 * b->t_balanced, c->calibrate,
                c->maxdelay_rel > 0 ? ", the unit of --maxdelay" : "");
}

/* The delays of round g: none while calibrating, then the pattern's (scaled). */
static void round_delays(bench_t *b, long g)
{
    const bench_config_t *c = b->cfg;
    int i;

    if (g < c->calibrate) {
        memset(b->delays, 0, (size_t)b->nprocs * sizeof *b->delays);
        return;
    }
    pattern_delays(&c->pattern, c->seed, g - c->calibrate, b->delays);
    for (i = 0; i < b->nprocs; i++)
        b->delays[i] *= b->delay_scale;
}

#define SHUFFLE_STREAM 0x5f5348554646ULL /* "_SHUFF": --shuffle's draws, apart from the delays' */

/* The order of round g's entries: --algos order, or with --shuffle a
 * Fisher-Yates shuffle drawn from (seed, g) on its own stream, the same on
 * every rank (every entry then follows every other one about equally
 * often: whatever a call leaves behind is not charged to one entry). */
static void round_order(const bench_config_t *c, long g, int *order)
{
    rng_t r;
    int k, j, t;

    for (k = 0; k < c->nalgos; k++)
        order[k] = k;
    if (!c->shuffle)
        return;
    rng_init(&r, c->seed ^ SHUFFLE_STREAM, (uint64_t)g);
    for (k = c->nalgos - 1; k > 0; k--) {
        j = (int)(rng_next(&r) % (uint64_t)(k + 1));
        t = order[k];
        order[k] = order[j];
        order[j] = t;
    }
}

int bench_measure(bench_t *b)
{
    const bench_config_t *c = b->cfg;
    long g, rounds = c->calibrate + c->warmup + c->iters;
    sample_t s;
    int k;

    b->t_start = papcoll_wtime(b->app->ctx);
    app_loop_start(b->app);
    limits_cpu_start(&b->limits);
    for (g = 0; g < rounds; g++) {
        if (g == c->calibrate && c->calibrate > 0)
            calibrated(b);
        round_delays(b, g);
        round_order(c, g, b->order);
        for (k = 0; k < c->nalgos; k++) {
            int a = b->order[k];

            timed_call(b, a, g, &s);
            if (record(b, a, g, &s) != 0)
                return APP_FAILED;
            progress(b, a, g);
        }
    }
    if (limits_cpu_end(MPI_COMM_WORLD, 0, &b->limits) != 0) {
        if (b->rank == 0)
            fprintf(stderr, "papbench: out of memory collecting the CPU use per rank\n");
        return APP_FAILED;
    }
    return APP_OK;
}

static void free_results(algo_result_t *r)
{
    free(r->runtime);
    free(r->decision);
    free(r->elapsed);
    free(r->imbalance);
    free(r->min_arrival);
    free(r->arrival);
    free(r->exit);
    free(r->lower_bound);
    free(r->round_model);
    free(r->balanced);
}

void bench_free(bench_t *b)
{
    int a;

    for (a = 0; b->res != NULL && a < b->cfg->nalgos; a++)
        free_results(&b->res[a]);
    free(b->res);
    free(b->sendbuf);
    free(b->recvbuf);
    free(b->delays);
    free(b->order);
    free(b->times);
}
