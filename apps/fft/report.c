/*
 * FFT proxy output: configuration banner, results (the columns of Proficz
 * 2020, Table 5), summary.json and iterations.csv (formats in docs/fft.md).
 * Everything here runs on rank 0 except the final agreement on the status.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fft.h"
#include "output.h"
#include "papmetrics.h"

/* Per-iteration metrics of the gather (DESIGN.md, Metrics) and the totals. */
typedef struct {
    double *runtime, *elapsed, *imbalance, *min_arrival;
    pm_stats_t rt, el;
    double compute_time; /* mean over ranks of the time spent computing (s) */
    double prep, post;   /* rank 0: signal + DIF stages, reorder (s) */
    double work_power;   /* --work: checksum, sum over ranks of the passes' spectral energy */
    double work_err;     /* --work: largest Parseval error of any pass (NaN if one was NaN) */
    long work_passes;    /* --work: passes run on all ranks */
    int work_failed;     /* --work: a pass broke Parseval beyond the block's tolerance */
} summary_t;

static const char *algo_requested(const fft_t *f)
{
    const char *env = getenv("PAPCOLL_GATHER_ALGORITHM");

    if (f->cfg->algo != NULL)
        return f->cfg->algo;
    return env != NULL && *env ? env : papcoll_site_algo(f->site);
}

static void print_monitor(const fft_t *f)
{
    const char *ran = papcoll_site_algo(f->site);

    printf("  gather       %s", algo_requested(f));
    if (strcmp(ran, algo_requested(f)) != 0)
        printf(" (runs as %s)", ran);
    printf(", one call site, predictor %s, monitor %s%s\n", papcoll_predictor(f->app->ctx),
           papcoll_has_monitor(f->app->ctx) ? "running" : "not running",
           f->app->thread_level == MPI_THREAD_MULTIPLE ? "" : " (no MPI_THREAD_MULTIPLE)");
}

void fft_report_config(const fft_t *f)
{
    const fft_config_t *c = f->cfg;
    char noise[256];

    if (f->rank != 0)
        return;
    fft_noise_describe(&c->noise, noise, sizeof noise);
    printf("fft (papcoll %d.%d.%d): master-slave radix-2 DIF FFT (Proficz 2020, Sect. 6)\n",
           PAPCOLL_VERSION_MAJOR, PAPCOLL_VERSION_MINOR, PAPCOLL_VERSION_PATCH);
    printf("  processes    %d: rank 0 runs %d DIF stage%s, blocks of %lld points (%lld KiB)\n", f->nprocs,
           c->log2p, c->log2p == 1 ? "" : "s", f->block, f->block * (long long)sizeof(fft_cpx_t) / 1024);
    printf("  n            %lld complex single-precision points per iteration (%lld KiB)\n", c->n,
           c->n * (long long)sizeof(fft_cpx_t) / 1024);
    printf("  iterations   %ld, validated every %ld and on the last\n", c->iters, c->verify_every);
    printf("  tolerance    rel. L2 error vs FFTW <= %.3g, Parseval <= %.3g (worst-case bound, docs/fft.md)\n",
           fft_tolerance(c->log2n), fft_parseval_tolerance(c->log2n));
    printf("  kernel       %s, %d OpenMP thread%s per rank\n",
           c->kernel == FFT_KERNEL_FFTW ? "fftw (FFTW on the block halves)" : "own (iterative radix-2 DIF)",
           c->threads, c->threads == 1 ? "" : "s");
    print_monitor(f);
    if (c->work > 0)
        printf("  work         %ld multitaper passes per iteration on each block: sine taper, %lld-point "
               "FFTW, power spectrum (docs/fft.md)\n",
               c->work, f->block);
    else
        printf("  work         none (only the block transform)\n");
    if (c->work > 0 && c->smpi_pass_us > 0.0)
        printf("  replayed     %s=%g: no pass runs, each is %g us of simulated time (monitors run)\n",
               FFT_PASS_ENV, c->smpi_pass_us, c->smpi_pass_us);
    printf("  noise        %s\n", noise);
    printf("  seed         %" PRIu64 "\n", c->seed);
    if (c->config_file != NULL)
        printf("  config       %s%s\n", c->config_file, c->config_papcoll ? " (with [papcoll])" : "");
    if (c->corrupt_rank >= 0)
        printf("  TEST ONLY    %s=%d: rank %d corrupts its block\n", FFT_CORRUPT_ENV, c->corrupt_rank,
               c->corrupt_rank);
    fflush(stdout);
}

/* Run time, elapsed time and imbalance of every iteration from the records
 * (papmetrics.h): rank p's record of iteration k is at all_rec[(p n + k) REC_FIELDS]. */
static void per_iteration(const fft_t *f, summary_t *s)
{
    size_t n = (size_t)f->done, stride = n * REC_FIELDS * sizeof(double);
    size_t k;

    for (k = 0; k < n; k++) {
        const double *r0 = &f->all_rec[k * REC_FIELDS];
        pm_call_t call = {&r0[REC_ARRIVAL], &r0[REC_EXIT], f->nprocs, stride};

        s->runtime[k] = pm_runtime(&call);
        s->elapsed[k] = pm_elapsed(&call);
        s->imbalance[k] = pm_imbalance(&call);
        s->min_arrival[k] = pm_first_arrival(&call);
    }
}

static int summarize(const fft_t *f, summary_t *s)
{
    size_t n = (size_t)f->done;
    long k;
    int p, rc = 0;

    s->runtime = calloc(n + 1, sizeof(double));
    s->elapsed = calloc(n + 1, sizeof(double));
    s->imbalance = calloc(n + 1, sizeof(double));
    s->min_arrival = calloc(n + 1, sizeof(double));
    if (!s->runtime || !s->elapsed || !s->imbalance || !s->min_arrival)
        return -1;
    per_iteration(f, s);
    rc |= pm_stats(s->runtime, (int)n, &s->rt);
    rc |= pm_stats(s->elapsed, (int)n, &s->el);
    for (k = 0; k < f->done; k++) {
        s->prep += f->prep[k];
        s->post += f->post[k];
    }
    for (p = 0; p < f->nprocs; p++) {
        const double *t = &f->totals[p * TOT_FIELDS];

        s->compute_time += t[TOT_COMPUTE];
        s->work_power += t[TOT_WORK_POWER];
        s->work_passes += (long)t[TOT_WORK_PASSES];
        if (isnan(t[TOT_WORK_ERR]) || t[TOT_WORK_ERR] > s->work_err)
            s->work_err = t[TOT_WORK_ERR];
    }
    s->work_failed = !(s->work_err <= fft_parseval_tolerance(f->cfg->log2b));
    s->compute_time = (s->compute_time + s->prep + s->post) / f->nprocs;
    return rc;
}

static void summary_free(summary_t *s)
{
    free(s->runtime);
    free(s->elapsed);
    free(s->imbalance);
    free(s->min_arrival);
}

static void print_stats(const char *name, const pm_stats_t *t)
{
    printf("  %-16s mean %8.3f  median %8.3f  sd %8.3f  min %8.3f  max %8.3f  95%% CI [%.3f, %.3f] ms\n",
           name, 1e3 * t->mean, 1e3 * t->median, 1e3 * t->stddev, 1e3 * t->min, 1e3 * t->max, 1e3 * t->ci_lo,
           1e3 * t->ci_hi);
}

/* Per rank: computing, inside the gather, and the rest (distribution, waiting). */
static void print_ranks(const fft_t *f, const summary_t *s)
{
    double T = f->total_time;
    int p;

    printf("\nper rank [s]   compute   gather    other   compute share\n");
    for (p = 0; p < f->nprocs; p++) {
        double c = f->totals[p * TOT_FIELDS + TOT_COMPUTE] + (p == 0 ? s->prep + s->post : 0.0);
        double g = f->totals[p * TOT_FIELDS + TOT_GATHER];

        printf("  rank %-6d %9.3f %8.3f %8.3f   %5.1f%%\n", p, c, g, T - c - g, 100.0 * c / T);
    }
    printf("  rank 0's compute: signal + DIF stages %.3f s, block %.3f s, reorder %.3f s\n", s->prep,
           f->totals[TOT_COMPUTE], s->post);
}

static void print_results(const fft_t *f, const summary_t *s)
{
    printf("\nresults (%ld iterations)\n", f->done);
    printf("  total time       %.3f s (rank 0's loop; validation excluded: %.3f s)\n", f->total_time,
           f->verify_time);
    printf("  compute time     %.3f s mean over ranks (%.1f%% of total)\n", s->compute_time,
           100.0 * s->compute_time / f->total_time);
    if (f->cfg->work > 0)
        printf(
            "  work checksum    %.9g (total power of %ld multitaper passes; max Parseval error %.3g, bound "
            "%.3g)\n",
            s->work_power, s->work_passes, s->work_err, fft_parseval_tolerance(f->cfg->log2b));
    print_stats("gather run time", &s->rt);
    print_stats("gather elapsed", &s->el);
    print_ranks(f, s);
    printf("\nsummary: app=fft P=%d n=%lld iters=%ld algo=%s ran_as=%s kernel=%s threads=%d total_time=%.4f "
           "compute_time=%.4f runtime_mean_ms=%.4f elapsed_mean_ms=%.4f work=%ld work_checksum=%.9g\n",
           f->nprocs, f->cfg->n, f->done, algo_requested(f), papcoll_site_algo(f->site),
           fft_kernel_name(f->cfg->kernel), f->cfg->threads, f->total_time, s->compute_time, 1e3 * s->rt.mean,
           1e3 * s->el.mean, f->cfg->work, s->work_power);
}

/* What report_root hands to output_json. */
typedef struct {
    const fft_t *f;
    const summary_t *s;
} report_t;

/* The members of summary.json. */
static void json_body(json_t *j, const void *arg)
{
    const fft_t *f = ((const report_t *)arg)->f;
    const summary_t *s = ((const report_t *)arg)->s;
    const fft_config_t *c = f->cfg;

    json_string(j, "app", "fft");
    json_int(j, "P", f->nprocs);
    json_int(j, "n", c->n);
    json_int(j, "iters", f->done);
    json_int(j, "threads", c->threads);
    json_string(j, "algo", algo_requested(f));
    json_string(j, "ran_as", papcoll_site_algo(f->site));
    json_string(j, "kernel", fft_kernel_name(c->kernel));
    json_string(j, "noise", c->noise_spec);
    json_number(j, "total_time", f->total_time);
    json_number(j, "compute_time", s->compute_time);
    json_int(j, "work", c->work);
    json_number(j, "work_checksum", s->work_power);
    json_int(j, "work_passes", s->work_passes);
    json_number(j, "work_max_parseval_err", s->work_err);
    json_number(j, "work_tolerance", fft_parseval_tolerance(c->log2b));
    json_stats(j, "runtime", &s->rt);
    json_stats(j, "elapsed", &s->el);
    json_string(j, "validation", f->failed || s->work_failed ? "FAILED" : "PASSED");
    json_number(j, "max_rel_err", f->max_rel_err);
    json_number(j, "max_parseval_err", f->max_parseval_err);
    json_number(j, "tolerance", fft_tolerance(c->log2n));
    json_int(j, "checks", f->checks);
    json_number(j, "verify_time", f->verify_time);
    json_int(j, "verify_every", c->verify_every);
    json_uint(j, "seed", c->seed);
    json_string(j, "predictor", papcoll_predictor(f->app->ctx));
}

static void csv_header(FILE *fp, int P)
{
    static const char prefix[] = {'a', 'f', 'c'};
    int p, q;

    fprintf(fp, "iter,runtime,elapsed,imbalance,min_arrival,prep,post");
    for (q = 0; q < 3; q++)
        for (p = 0; p < P; p++)
            fprintf(fp, ",%c%d", prefix[q], p);
    fprintf(fp, "\n");
}

/* One row per iteration, seconds; a_i, f_i relative to the iteration's min a. */
static int write_csv(const fft_t *f, const summary_t *s, char *err, size_t errlen)
{
    static const int field[] = {REC_ARRIVAL, REC_EXIT, REC_COMPUTE};
    FILE *fp = output_open(f->cfg->out_dir, "iterations.csv", err, errlen);
    double t0 = f->done > 0 ? s->min_arrival[0] : 0.0;
    long k, n = f->done;
    int p, q;

    if (fp == NULL)
        return -1;
    csv_header(fp, f->nprocs);
    for (k = 0; k < n; k++) {
        fprintf(fp, "%ld,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g", k, s->runtime[k], s->elapsed[k], s->imbalance[k],
                s->min_arrival[k] - t0, f->prep[k], f->post[k]);
        for (q = 0; q < 3; q++)
            for (p = 0; p < f->nprocs; p++) {
                double v = f->all_rec[((size_t)p * (size_t)n + (size_t)k) * REC_FIELDS + (size_t)field[q]];

                fprintf(fp, ",%.9g", q < 2 ? v - s->min_arrival[k] : v);
            }
        fprintf(fp, "\n");
    }
    return output_close(fp, f->cfg->out_dir, "iterations.csv", err, errlen);
}

static void print_validation(const fft_t *f, const summary_t *s)
{
    const fft_config_t *c = f->cfg;

    if (!f->failed && s->work_failed)
        printf("validation: FAILED (--work: a multitaper pass's Parseval error %.3g exceeds %.3g)\n",
               s->work_err, fft_parseval_tolerance(c->log2b));
    else if (f->failed)
        printf("validation: FAILED at iteration %ld/%ld (max rel L2 error %.3g, bound %.3g; Parseval %.3g, "
               "bound "
               "%.3g)\n",
               f->failed_iter + 1, c->iters, f->max_rel_err, fft_tolerance(c->log2n), f->max_parseval_err,
               fft_parseval_tolerance(c->log2n));
    else
        printf("validation: PASSED (%ld checks against FFTW: max rel L2 error %.3g <= %.3g, Parseval %.3g <= "
               "%.3g)\n",
               f->checks, f->max_rel_err, fft_tolerance(c->log2n), f->max_parseval_err,
               fft_parseval_tolerance(c->log2n));
}

static int report_root(const fft_t *f, int status)
{
    summary_t s;
    int failed;
    char err[512];

    memset(&s, 0, sizeof s);
    if (f->all_rec == NULL) /* the records never arrived (reported already) */
        return APP_FAILED;
    if (f->done == 0 || summarize(f, &s) != 0) {
        fprintf(stderr, "fft: out of memory\n");
        summary_free(&s);
        return APP_FAILED;
    }
    print_results(f, &s);
    if (f->cfg->out_dir != NULL) {
        failed = output_json(f->cfg->out_dir, "summary.json", json_body, &(report_t){f, &s}, err,
                             sizeof err) != 0 ||
                 write_csv(f, &s, err, sizeof err) != 0;
        status = app_worst(
            status, app_results(f->app, f->cfg->out_dir, failed, err, "summary.json", "iterations.csv"));
    }
    print_validation(f, &s);
    fflush(stdout);
    summary_free(&s);
    return f->failed || s.work_failed ? APP_FAILED : status;
}

int fft_report(const fft_t *f, int status)
{
    return app_share(f->rank == 0 ? report_root(f, status) : status);
}
