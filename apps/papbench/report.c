/*
 * papbench output: configuration banner, result tables, results.json and
 * results.csv (formats in docs/papbench.md).  Everything here runs on rank 0
 * except the final agreement on the status.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "output.h"
#include "papmetrics.h"

/* Summaries of one algorithm. */
typedef struct {
    pm_stats_t runtime, elapsed, imbalance, lower_bound;
    pm_stats_t efficiency; /* per iteration: lower bound / run time */
    double speedup;     /* median run time of the baseline / own median */
} summary_t;

static const char *algo_name(const bench_t *b, int a)
{
    return papcoll_algo_name(b->cfg->op, b->cfg->algos[a]);
}

static const char *thread_level_name(int level)
{
    switch (level) {
    case MPI_THREAD_SINGLE:
        return "MPI_THREAD_SINGLE";
    case MPI_THREAD_FUNNELED:
        return "MPI_THREAD_FUNNELED";
    case MPI_THREAD_SERIALIZED:
        return "MPI_THREAD_SERIALIZED";
    default:
        return "MPI_THREAD_MULTIPLE";
    }
}

static void print_clock(const bench_t *b)
{
    const papcoll_clock_t *k = &b->clock;

    if (k->global)
        printf("  clock        MPI_WTIME_IS_GLOBAL\n");
    else if (k->nodes == 1)
        printf("  clock        papcoll global clock, offsets to rank 0 (max %.3f ms) exact on one node\n",
               1e3 * k->max_abs);
    else
        printf(
            "  clock        papcoll global clock, offsets to rank 0 (max %.3f ms), error <= %.1f us (%d nodes)\n",
            1e3 * k->max_abs, 1e6 * k->max_err, k->nodes);
}

static void print_monitor(const bench_t *b)
{
    int a;

    printf("  monitor      %s (%s%s)\n", papcoll_has_monitor(b->ctx) ? "running" : "not running",
           thread_level_name(b->thread_level), b->cfg->no_monitor ? ", --no-monitor" : "");
    for (a = 0; a < b->cfg->nalgos; a++) {
        const char *ran = papcoll_site_algo(b->res[a].site);

        if (strcmp(ran, algo_name(b, a)) != 0)
            printf("  note         %s runs as %s\n", algo_name(b, a), ran);
    }
}

void report_config(const bench_t *b)
{
    const bench_config_t *c = b->cfg;
    size_t esz = elem_size(c->type);
    char pattern[512];
    int a;

    if (b->rank != 0)
        return;
    pattern_describe(&c->pattern, pattern, sizeof pattern);
    printf("papbench (papcoll %d.%d.%d)\n", PAPCOLL_VERSION_MAJOR, PAPCOLL_VERSION_MINOR,
           PAPCOLL_VERSION_PATCH);
    printf("  processes    %d\n", b->nprocs);
    printf("  op           %s, root %d\n", papcoll_op_name(c->op), c->root);
    printf("  algorithms  ");
    for (a = 0; a < c->nalgos; a++)
        printf(" %s", algo_name(b, a));
    printf(" (baseline %s)\n", algo_name(b, c->baseline));
    printf("  size         %lld elements requested, %lld effective (%d x %lld)\n", c->size,
           c->block * b->nprocs, b->nprocs, c->block);
    printf("  type         %s, block %lld bytes per rank\n", elem_name(c->type), c->block * (long long)esz);
    printf("  iterations   %ld measured + %ld warm-up per algorithm, interleaved\n", c->iters, c->warmup);
    printf("  computation  %g ms + delay per iteration, edge at 50%%\n", c->base_ms);
    printf("  pattern      %s\n", pattern);
    printf("  maxdelay     %g ms%s\n", c->maxdelay_ms,
           pattern_uses_maxdelay(&c->pattern) ? "" : " (not used by this pattern)");
    printf("  seed         %" PRIu64 "\n", c->seed);
    printf("  sync         %s\n", c->sync);
    printf("  predictor    %s\n", papcoll_predictor(b->ctx));
    print_clock(b);
    printf("  model        alpha %.1f us, beta %.3f ns/B back to back, credit %.1f us after idle "
           "(root <-> rank %d), for the lower bound\n",
           1e6 * b->model.alpha, 1e9 * b->model.beta, 1e6 * b->model.credit, (c->root + b->nprocs - 1) % b->nprocs);
    print_monitor(b);
    fflush(stdout);
}

static int summarize(const bench_t *b, summary_t *s)
{
    const bench_config_t *c = b->cfg;
    double *ratio = malloc((size_t)c->iters * sizeof *ratio);
    int a, i, n = (int)c->iters, rc = ratio != NULL ? 0 : -1;

    for (a = 0; ratio != NULL && a < c->nalgos; a++) {
        const algo_result_t *r = &b->res[a];

        rc |= pm_stats(r->runtime, n, &s[a].runtime);
        rc |= pm_stats(r->elapsed, n, &s[a].elapsed);
        rc |= pm_stats(r->imbalance, n, &s[a].imbalance);
        rc |= pm_stats(r->lower_bound, n, &s[a].lower_bound);
        for (i = 0; i < n; i++)
            ratio[i] = pm_efficiency(r->lower_bound[i], r->runtime[i]);
        rc |= pm_stats(ratio, n, &s[a].efficiency);
    }
    for (a = 0; a < c->nalgos; a++)
        s[a].speedup = s[c->baseline].runtime.median / s[a].runtime.median;
    free(ratio);
    return rc;
}

static void print_row(const char *name, const pm_stats_t *t)
{
    printf("  %-6s %9.3f %9.3f %9.3f %9.3f %9.3f  [%9.3f, %9.3f]", name, 1e3 * t->mean, 1e3 * t->median,
           1e3 * t->stddev, 1e3 * t->min, 1e3 * t->max, 1e3 * t->ci_lo, 1e3 * t->ci_hi);
}

/* The run-time table (with speedups) or the average-elapsed-time table. */
static void print_table(const bench_t *b, const summary_t *s, int elapsed)
{
    int a;

    printf("\n%s [ms]\n",
           elapsed ? "average elapsed time e = mean(f_i - a_i)" : "run time r = max f - min a");
    printf("  %-6s %9s %9s %9s %9s %9s  %s%s\n", "algo", "mean", "median", "stddev", "min", "max",
           "95% CI of the mean", elapsed ? "" : "      speedup efficiency");
    for (a = 0; a < b->cfg->nalgos; a++) {
        print_row(algo_name(b, a), elapsed ? &s[a].elapsed : &s[a].runtime);
        if (!elapsed)
            printf(" %8.3f %10.3f", s[a].speedup, s[a].efficiency.median);
        printf("\n");
    }
}

/* The run's parameters, the fields before "results". */
static void json_config(json_t *j, const bench_t *b)
{
    const bench_config_t *c = b->cfg;

    json_string(j, "op", papcoll_op_name(c->op));
    json_int(j, "P", b->nprocs);
    json_int(j, "size", c->block * b->nprocs);
    json_int(j, "size_requested", c->size);
    json_int(j, "block", c->block);
    json_string(j, "type", elem_name(c->type));
    json_string(j, "pattern", c->pattern_spec);
    json_string(j, "pattern_kind", pattern_kind_name(&c->pattern));
    json_number(j, "maxdelay", 1e-3 * c->maxdelay_ms);
    json_number(j, "base", 1e-3 * c->base_ms);
    json_int(j, "iters", c->iters);
    json_int(j, "warmup", c->warmup);
    json_int(j, "root", c->root);
    json_uint(j, "seed", c->seed);
    json_string(j, "sync", c->sync);
    json_string(j, "predictor", papcoll_predictor(b->ctx));
    json_bool(j, "monitor", papcoll_has_monitor(b->ctx));
    json_string(j, "clock", b->clock.global ? "global" : "sync");
    json_number(j, "clock_max_error", b->clock.max_err);
    json_number(j, "alpha", b->model.alpha);
    json_number(j, "beta", b->model.beta);
    json_number(j, "credit", b->model.credit);
    json_string(j, "baseline", algo_name(b, c->baseline));
}

static int write_json(const bench_t *b, const summary_t *s, char *err, size_t errlen)
{
    FILE *f = output_open(b->cfg->out_dir, "results.json", err, errlen);
    json_t j;
    int a, rc;

    if (f == NULL)
        return -1;
    json_open(&j, f);
    json_begin_object(&j, NULL);
    json_config(&j, b);
    json_begin_array(&j, "results");
    for (a = 0; a < b->cfg->nalgos; a++) {
        json_begin_object(&j, NULL);
        json_string(&j, "algo", algo_name(b, a));
        json_string(&j, "ran_as", papcoll_site_algo(b->res[a].site));
        json_stats(&j, "runtime", &s[a].runtime);
        json_stats(&j, "elapsed", &s[a].elapsed);
        json_stats(&j, "imbalance", &s[a].imbalance);
        json_stats(&j, "lower_bound", &s[a].lower_bound);
        json_stats(&j, "efficiency", &s[a].efficiency);
        json_number(&j, "speedup", s[a].speedup);
        json_end(&j);
    }
    json_end(&j);
    json_string(&j, "validation", "PASSED");
    json_end(&j);
    rc = json_finish(&j);
    if (fclose(f) != 0 || rc != 0) {
        snprintf(err, errlen, "error writing '%s/results.json'", b->cfg->out_dir);
        return -1;
    }
    return 0;
}

static void csv_header(FILE *f, int P)
{
    int p;

    fprintf(f, "algo,iter,runtime,elapsed,min_arrival,max_arrival");
    for (p = 0; p < P; p++)
        fprintf(f, ",a%d", p);
    for (p = 0; p < P; p++)
        fprintf(f, ",f%d", p);
    fprintf(f, "\n");
}

/* One row per (algorithm, iteration); times in seconds, see docs/papbench.md. */
static int write_csv(const bench_t *b, char *err, size_t errlen)
{
    FILE *f = output_open(b->cfg->out_dir, "results.csv", err, errlen);
    int a, p, P = b->nprocs, failed;
    long i;

    if (f == NULL)
        return -1;
    csv_header(f, P);
    for (a = 0; a < b->cfg->nalgos; a++) {
        const algo_result_t *r = &b->res[a];

        for (i = 0; i < b->cfg->iters; i++) {
            fprintf(f, "%s,%ld,%.9g,%.9g,%.9g,%.9g", algo_name(b, a), i, r->runtime[i], r->elapsed[i],
                    r->min_arrival[i], r->min_arrival[i] + r->imbalance[i]);
            for (p = 0; p < P; p++)
                fprintf(f, ",%.9g", r->arrival[i * P + p]);
            for (p = 0; p < P; p++)
                fprintf(f, ",%.9g", r->exit[i * P + p]);
            fprintf(f, "\n");
        }
    }
    failed = ferror(f);
    if (fclose(f) != 0 || failed) {
        snprintf(err, errlen, "error writing '%s/results.csv'", b->cfg->out_dir);
        return -1;
    }
    return 0;
}

/* One grep-able line per algorithm (job scripts collect lines starting with "summary"). */
static void print_summary(const bench_t *b, const summary_t *s)
{
    int a;

    for (a = 0; a < b->cfg->nalgos; a++)
        printf("summary: op=%s algo=%s P=%d runtime_median_ms=%.3f elapsed_median_ms=%.3f "
               "speedup=%.3f efficiency=%.3f\n",
               papcoll_op_name(b->cfg->op), algo_name(b, a), b->nprocs, 1e3 * s[a].runtime.median,
               1e3 * s[a].elapsed.median, s[a].speedup, s[a].efficiency.median);
}

static int report_root(const bench_t *b)
{
    const bench_config_t *c = b->cfg;
    summary_t *s = calloc((size_t)c->nalgos, sizeof *s);
    char err[512];
    int status = STATUS_OK;

    if (s == NULL || summarize(b, s) != 0) {
        fprintf(stderr, "papbench: out of memory\n");
        free(s);
        return STATUS_FAILED;
    }
    print_table(b, s, 0);
    print_table(b, s, 1);
    printf("\n");
    print_summary(b, s);
    if (c->out_dir != NULL) {
        if (write_json(b, s, err, sizeof err) != 0 || write_csv(b, err, sizeof err) != 0) {
            fprintf(stderr, "papbench: --out: %s\n", err);
            status = STATUS_FAILED;
        } else {
            printf("results: %s/results.json, %s/results.csv\n", c->out_dir, c->out_dir);
        }
    }
    printf("validation: PASSED (%ld iterations x %d algorithms)\n", c->iters, c->nalgos);
    fflush(stdout);
    free(s);
    return status;
}

int report_results(const bench_t *b)
{
    int status = b->rank == 0 ? report_root(b) : STATUS_OK;

    MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return status;
}
