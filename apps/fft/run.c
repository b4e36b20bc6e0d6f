/*
 * FFT proxy prolog and iteration loop (Proficz 2020, Sect. 6).
 *
 * One iteration, P = 2^s ranks, N points, blocks of B = N/P:
 *
 *   rank 0                               rank r > 0
 *   signal(seed, k); DIF stages 0..s-1   (waits)
 *   MPI_Send block r to rank r, r=1..    MPI_Recv block r
 *   -- every rank: processing_start, first half of the block transform,
 *      papcoll_edge(0.5), second half, processing_end --
 *   papcoll_gather(site) of the blocks to rank 0
 *   rank 0: blocks -> natural order; every verify-every iterations and on
 *   the last: compare with FFTW's full transform (untimed, regenerated input)
 *
 * Rank 0 sends its blocks in rank order, then computes its own: the
 * application's natural arrival pattern.  A failed validation makes rank 0
 * send a STOP message instead of the next block, so every rank leaves the
 * loop after the same number of gathers.
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fft.h"
#include "timer.h"

#define EDGE_FRACTION 0.5 /* the kernels call back after half of their work */

enum { TAG_DATA = 1, TAG_STOP = 2 };

/* A library error leaves the other ranks inside a collective: abort the job. */
static void die(const fft_t *f, long k, const char *what, int rc)
{
    char where[64];

    snprintf(where, sizeof where, "iteration %ld", k + 1);
    app_die(f->app, what, where, rc);
}

/* Block-count of floats for MPI: two per point (N <= 2^28 keeps it an int). */
static int block_floats(const fft_t *f)
{
    return (int)(2 * f->block);
}

static void *fftw_buffer(long long points, int *ok)
{
    void *p = fftwf_malloc(sizeof(fft_cpx_t) * (size_t)points);

    *ok = *ok && p != NULL;
    return p;
}

static void *zalloc(size_t n, size_t sz, int *ok)
{
    void *p = calloc(n ? n : 1, sz);

    *ok = *ok && p != NULL;
    return p;
}

/* Buffers, twiddles, kernel plan, output order and reference (all off the loop). */
static int alloc_compute(fft_t *f)
{
    const fft_config_t *c = f->cfg;
    int ok = 1, master = f->rank == 0;

    f->data = fftw_buffer(master ? c->n : f->block, &ok);
    f->rec = zalloc((size_t)c->iters * REC_FIELDS, sizeof(double), &ok);
    ok = ok && dif_twiddles_init(&f->tw, c->log2b) == 0;
    if (master) {
        f->gathered = fftw_buffer(c->n, &ok);
        f->result = fftw_buffer(c->n, &ok);
        f->prep = zalloc((size_t)c->iters, sizeof(double), &ok);
        f->post = zalloc((size_t)c->iters, sizeof(double), &ok);
        ok = ok && dif_twiddles_init(&f->tw_full, c->log2n) == 0;
        ok = ok && fft_ref_init(&f->ref, c->log2n) == 0;
    }
    /* FFTW_MEASURE once, on the block buffer (planning overwrites it). */
    ok = ok && fft_kernel_init(&f->kernel, c->kernel, c->log2b, &f->tw, f->data, FFTW_MEASURE) == 0;
    ok = ok && fft_work_init(&f->work, c->log2b, c->work, FFTW_MEASURE) == 0;
    f->work.pass_s = 1e-6 * c->smpi_pass_us;
    if (ok && master)
        ok = dif_order_init(&f->order, c->log2n, c->log2p + fft_kernel_levels(&f->kernel)) == 0;
    if (!ok) {
        fprintf(stderr, "fft: rank %d: out of memory (or FFTW planning failed)\n", f->rank);
        return APP_FAILED;
    }
    return APP_OK;
}

/* One line naming what the user gave when papcoll refuses it. */
static void papcoll_error(const fft_t *f, const char *what, int rc)
{
    const char *env = getenv("PAPCOLL_GATHER_ALGORITHM");
    char valid[256];

    if (rc == PAPCOLL_ERR_ALGO)
        fprintf(stderr, "fft: unknown gather algorithm '%s' from %s (valid: %s)\n",
                env != NULL && *env ? env : "the papcoll configuration",
                env != NULL && *env ? "PAPCOLL_GATHER_ALGORITHM" : "gather_algorithm",
                papcoll_algo_list(PAPCOLL_OP_GATHER, valid, sizeof valid));
    else if (rc == PAPCOLL_ERR_CONFIG || rc == PAPCOLL_ERR_PREDICTOR)
        fprintf(stderr, "fft: %s: %s (check [papcoll] of --config, $PAPCOLL_CONFIG, $PAPCOLL_PREDICTOR)\n",
                what, papcoll_strerror(rc));
    else
        fprintf(stderr, "fft: rank %d: %s: %s\n", f->rank, what, papcoll_strerror(rc));
}

static int start_papcoll(fft_t *f)
{
    const fft_config_t *c = f->cfg;
    papcoll_options_t opts = {0};
    int rc;

    /* The same INI file configures the library when it has a [papcoll] section. */
    opts.config_file = c->config_papcoll ? c->config_file : NULL;
    rc = app_papcoll(f->app, &opts);
    if (rc == PAPCOLL_OK)
        rc = app_site(f->app, "fft-result", PAPCOLL_OP_GATHER, c->algo, &f->site);
    if (rc == PAPCOLL_OK && f->rank == 0)
        rc = papcoll_site_bind_recv(f->site, f->gathered, block_floats(f), MPI_FLOAT);
    if (rc != PAPCOLL_OK) {
        if (f->rank == 0 || rc != PAPCOLL_ERR_ALGO)
            papcoll_error(f, f->app->ctx == NULL ? "papcoll_init" : "papcoll_site_create", rc);
    }
    return app_papcoll_status(rc);
}

int fft_setup(fft_t *f, app_t *app, const fft_config_t *cfg)
{
    int status;

    f->cfg = cfg;
    f->app = app;
    f->rank = app->rank;
    f->nprocs = app->nprocs;
    f->block = cfg->n >> cfg->log2p;
    f->failed_iter = -1;
    omp_set_num_threads(cfg->threads);
    if (!fftwf_init_threads()) {
        fprintf(stderr, "fft: rank %d: fftwf_init_threads failed\n", f->rank);
        return app_agree(APP_FAILED);
    }
    fftwf_plan_with_nthreads(cfg->threads);
    status = app_agree(app_mkdir(app, cfg->out_dir));
    if (status == APP_OK)
        status = app_agree(alloc_compute(f));
    if (status == APP_OK)
        status = app_agree(start_papcoll(f));
    if (status == APP_OK)
        status = app_trace_open(app, cfg->trace_file, NULL);
    return status;
}

/* ---------------------------------------------------------------- loop -- */

/* State of one block transform, for the midpoint callback. */
typedef struct {
    fft_t *f;
    long k;
    double t0, t_mid; /* timer_now() at processing start and after the edge */
    double delay;     /* noise: extra sleep of this iteration (s) */
    double factor;    /* noise: compute-time multiplier */
} block_call_t;

/* Sleeps what the noise adds to a half that started at `since`. */
static void noise_sleep(const block_call_t *b, double since)
{
    double now = timer_now();

    timer_sleep_until(now + 0.5 * b->delay + (b->factor - 1.0) * (now - since));
}

/* Half of the work is done (the kernel's first half and the first half of
 * the --work passes): the noise of the first half, then the edge. */
static int midpoint(void *arg)
{
    block_call_t *b = arg;
    fft_t *f = b->f;
    int rc;

    fft_work_run(&f->work, 0, f->work.passes / 2, &f->work_sum);
    noise_sleep(b, b->t0);
    if ((rc = papcoll_edge(b->f->site, EDGE_FRACTION)) != PAPCOLL_OK)
        die(b->f, b->k, "papcoll_edge", rc);
    b->t_mid = timer_now();
    return 0;
}

/* The block transform between the PAT monitor's start and end; returns its duration. */
static double compute_block(fft_t *f, fft_cpx_t *x, long k)
{
    const fft_config_t *c = f->cfg;
    block_call_t b = {f, k, 0, 0, 0, 1.0};
    int rc;

    b.delay = fft_noise_delay(&c->noise, c->seed, k, f->rank);
    b.factor = fft_noise_factor(&c->noise, f->rank);
    if ((rc = papcoll_processing_start(f->site)) != PAPCOLL_OK)
        die(f, k, "papcoll_processing_start", rc);
    b.t0 = timer_now();
    fft_work_load(&f->work, x);
    fft_kernel_run(&f->kernel, x, midpoint, &b);
    fft_work_run(&f->work, f->work.passes / 2, f->work.passes, &f->work_sum);
    noise_sleep(&b, b.t_mid);
    if ((rc = papcoll_processing_end(f->site)) != PAPCOLL_OK)
        die(f, k, "papcoll_processing_end", rc);
    /* Test-only (FFT_CORRUPT_ENV): a wrong value the validation must catch. */
    if (f->rank == c->corrupt_rank)
        x[f->block / 3] = -x[f->block / 3];
    return timer_now() - b.t0;
}

/* Block x of this rank to rank 0; stores arrival and exit of the call. */
static void gather(fft_t *f, fft_cpx_t *x, long k)
{
    double *r = &f->rec[k * REC_FIELDS];
    papcoll_timing_t t;
    int rc;

    rc = papcoll_gather(f->site, x, block_floats(f), MPI_FLOAT, f->gathered, block_floats(f), MPI_FLOAT, 0);
    if (rc != PAPCOLL_OK)
        die(f, k, "papcoll_gather", rc);
    papcoll_site_last_timing(f->site, &t);
    r[REC_ARRIVAL] = t.arrival;
    r[REC_EXIT] = t.exit;
}

/* Every verify-every iterations and on the last. */
static int is_check(const fft_config_t *c, long k)
{
    return (k + 1) % c->verify_every == 0 || k == c->iters - 1;
}

/* Rank 0: compare with FFTW; on failure tell the other ranks to stop. */
static int validate(fft_t *f, long k)
{
    const fft_config_t *c = f->cfg;
    fft_check_t chk;
    int r;

    fft_ref_check(&f->ref, c->seed, k, f->result, &chk);
    f->checks++;
    if (!(chk.rel_err <= f->max_rel_err))
        f->max_rel_err = chk.rel_err;
    if (!(chk.parseval_err <= f->max_parseval_err))
        f->max_parseval_err = chk.parseval_err;
    if (chk.ok)
        return APP_OK;
    f->failed = 1;
    f->failed_iter = k;
    for (r = 1; k < c->iters - 1 && r < f->nprocs; r++)
        MPI_Send(NULL, 0, MPI_FLOAT, r, TAG_STOP, MPI_COMM_WORLD);
    return APP_FAILED;
}

static int master_iteration(fft_t *f, long k)
{
    const fft_config_t *c = f->cfg;
    double t0 = timer_now(), t1, t2;
    int r;

    fft_signal_fill(f->data, c->log2n, c->seed, k);
    dif_stages(f->data, c->log2n, 0, c->log2p, &f->tw_full);
    f->prep[k] = timer_now() - t0;
    for (r = 1; r < f->nprocs; r++)
        MPI_Send(f->data + r * f->block, block_floats(f), MPI_FLOAT, r, TAG_DATA, MPI_COMM_WORLD);
    f->rec[k * REC_FIELDS + REC_COMPUTE] = compute_block(f, f->data, k);
    gather(f, f->data, k);
    t1 = timer_now();
    dif_order_apply(&f->order, f->gathered, f->result);
    t2 = timer_now();
    f->post[k] = t2 - t1;
    if (!is_check(c, k))
        return APP_OK;
    r = validate(f, k);
    f->verify_time += timer_now() - t2;
    return r;
}

static int slave_iteration(fft_t *f, long k)
{
    MPI_Status st;

    MPI_Recv(f->data, block_floats(f), MPI_FLOAT, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
    if (st.MPI_TAG == TAG_STOP)
        return APP_FAILED;
    f->rec[k * REC_FIELDS + REC_COMPUTE] = compute_block(f, f->data, k);
    gather(f, f->data, k);
    return APP_OK;
}

/* Rank 0, at most every 2 s, on stderr. */
static void progress(fft_t *f, long k)
{
    double t = app_progress_due(f->app, f->cfg->quiet);

    if (t >= 0)
        fprintf(stderr, "fft: %8.1f s  iteration %ld/%ld, %ld checks, max rel err %.2g\n", t, k + 1,
                f->cfg->iters, f->checks, f->max_rel_err);
}

/* Per-rank totals and every record to rank 0, after the loop. */
static int collect(fft_t *f)
{
    double tot[TOT_FIELDS] = {0};
    size_t n = (size_t)f->done * REC_FIELDS, P = (size_t)f->nprocs;
    long k;
    int ok = 1;

    for (k = 0; k < f->done; k++) {
        tot[TOT_COMPUTE] += f->rec[k * REC_FIELDS + REC_COMPUTE];
        tot[TOT_GATHER] += f->rec[k * REC_FIELDS + REC_EXIT] - f->rec[k * REC_FIELDS + REC_ARRIVAL];
    }
    tot[TOT_WORK_POWER] = f->work_sum.power;
    tot[TOT_WORK_ERR] = f->work_sum.max_parseval;
    tot[TOT_WORK_PASSES] = (double)f->work_sum.passes;
    if (f->rank == 0) {
        f->all_rec = zalloc(n * P, sizeof(double), &ok);
        f->totals = zalloc(P * TOT_FIELDS, sizeof(double), &ok);
    }
    if (app_agree(ok ? APP_OK : APP_FAILED) != APP_OK) {
        if (f->rank == 0)
            fprintf(stderr, "fft: out of memory collecting the records\n");
        return APP_FAILED;
    }
    MPI_Gather(tot, TOT_FIELDS, MPI_DOUBLE, f->totals, TOT_FIELDS, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    MPI_Gather(f->rec, (int)n, MPI_DOUBLE, f->all_rec, (int)n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    return APP_OK;
}

int fft_run(fft_t *f)
{
    const fft_config_t *c = f->cfg;
    int status = APP_OK, cstatus;
    long k;
    double t0;

    t0 = app_loop_start(f->app);
    for (k = 0; k < c->iters && status == APP_OK; k++) {
        status = f->rank == 0 ? master_iteration(f, k) : slave_iteration(f, k);
        if (f->rank == 0 || status == APP_OK)
            f->done = k + 1;
        progress(f, k);
    }
    f->total_time = timer_now() - t0 - f->verify_time;
    cstatus = collect(f);
    return status != APP_OK ? status : cstatus;
}

void fft_free(fft_t *f)
{
    fft_kernel_free(&f->kernel);
    fft_work_free(&f->work);
    dif_order_free(&f->order);
    fft_ref_free(&f->ref);
    dif_twiddles_free(&f->tw);
    dif_twiddles_free(&f->tw_full);
    fftwf_free(f->data);
    fftwf_free(f->gathered);
    fftwf_free(f->result);
    free(f->rec);
    free(f->prep);
    free(f->post);
    free(f->all_rec);
    free(f->totals);
    fftwf_cleanup_threads();
}
