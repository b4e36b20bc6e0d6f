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
    pm_stats_t efficiency;      /* per iteration: lower bound / run time */
    pm_stats_t round_model;     /* reduce: R(a) d per iteration */
    pm_stats_t balanced;        /* --calibrate: the balanced run times t(pi) */
    pm_stats_t absorption;      /* --calibrate: A = t(pi) - r + I per iteration (median t(pi)) */
    pm_stats_t absorption_norm; /* A / t(pi) */
    double speedup;             /* median run time of the baseline / own median */
    pm_stats_t decision;        /* rank 0's decision time of a policy (auto, rules) */
} summary_t;

static const char *algo_name(const bench_t *b, int a)
{
    return bench_label(b->cfg, a);
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
    const papcoll_clock_t *k = &b->app->clock;

    if (k->global)
        printf("  clock        MPI_WTIME_IS_GLOBAL\n");
    else if (k->nodes == 1)
        printf("  clock        papcoll global clock, offsets to rank 0 (max %.3f ms) exact on one node\n",
               1e3 * k->max_abs);
    else
        printf("  clock        papcoll global clock, offsets to rank 0 (max %.3f ms), error <= %.1f us (%d "
               "nodes)\n",
               1e3 * k->max_abs, 1e6 * k->max_err, k->nodes);
}

static void print_monitor(const bench_t *b)
{
    int a;

    printf("  monitor      %s (%s%s)\n", papcoll_has_monitor(b->app->ctx) ? "running" : "not running",
           thread_level_name(b->app->thread_level), b->cfg->no_monitor ? ", --no-monitor" : "");
    for (a = 0; a < b->cfg->nalgos; a++) {
        const char *ran = papcoll_site_algo(b->res[a].site);

        if (b->cfg->algos[a] >= 0 && strcmp(ran, algo_name(b, a)) != 0) /* policies choose per call */
            printf("  note         %s runs as %s\n", algo_name(b, a), ran);
    }
}

/* Op and root; size and type, in the op's meaning of --size. */
static void print_workload(const bench_t *b)
{
    const bench_config_t *c = b->cfg;
    long long bytes = c->count * (long long)elem_size(c->type);
    char op[64];

    snprintf(op, sizeof op, "%s%s%s", papcoll_op_name(c->op), c->reduction ? " " : "",
             c->reduction ? red_name(c->reduce_op) : "");
    if (c->op == PAPCOLL_OP_ALLREDUCE)
        printf("  op           %s (no root)\n", op);
    else
        printf("  op           %s, root %d\n", op, c->root);
    if (c->op == PAPCOLL_OP_GATHER || c->op == PAPCOLL_OP_SCATTER) {
        printf("  size         %lld elements requested, %lld effective (%d x %lld)\n", c->size,
               c->count * b->nprocs, b->nprocs, c->count);
        printf("  type         %s, block %lld bytes per rank\n", elem_name(c->type), bytes);
    } else {
        printf("  size         %lld elements, the vector of every rank\n", c->count);
        printf("  type         %s, vector %lld bytes\n", elem_name(c->type), bytes);
    }
}

/* The round model's count of a balanced reduction: ceil(log2 P) + N - 1. */
static long balanced_rounds(const bench_t *b)
{
    double *zero = calloc((size_t)b->nprocs, sizeof *zero);
    long R = zero != NULL ? pm_round_count(b->nprocs, zero, b->round, b->segments) : -1;

    free(zero);
    return R;
}

/* The model of the lower bound, and for reduce the round model. */
static void print_model(const bench_t *b)
{
    const bench_config_t *c = b->cfg;

    printf("  model        alpha %.1f us, beta %.3f ns/B back to back, credit %.1f us after idle "
           "(root <-> rank %d), for the lower bound\n",
           1e6 * b->model.alpha, 1e9 * b->model.beta, 1e6 * b->model.credit,
           (c->root + b->nprocs - 1) % b->nprocs);
    if (c->reduction)
        printf("  gamma        %.4f ns/B (MPI_Reduce_local %s of %s on rank %d)\n", 1e9 * b->model.gamma,
               red_name(c->reduce_op), elem_name(c->type), c->root);
    if (c->op == PAPCOLL_OP_REDUCE)
        printf("  round model  N = %d segments, d = %.1f us: %ld rounds, %.3f ms balanced (Marendic 2016)\n",
               b->segments, 1e6 * b->round, balanced_rounds(b), 1e3 * b->round * (double)balanced_rounds(b));
}

static void print_bind(const bench_t *b)
{
    const bench_config_t *c = b->cfg;

    if (c->no_bind)
        printf("  bind         off (--no-bind)\n");
    else if (b->bind_refused > 0)
        printf("  bind         receive buffers bound on %d ranks, refused on %d (%s): those stage\n",
               b->bind_ranks, b->bind_refused, papcoll_strerror(b->bind_error));
    else if (b->bind_ranks > 0)
        printf("  bind         the receive buffer of %d rank%s (papcoll_site_bind_recv)\n", b->bind_ranks,
               b->bind_ranks == 1 ? "" : "s");
}

void report_config(const bench_t *b)
{
    const bench_config_t *c = b->cfg;
    char pattern[512];
    int a;

    if (b->rank != 0)
        return;
    pattern_describe(&c->pattern, pattern, sizeof pattern);
    printf("papbench (papcoll %d.%d.%d)\n", PAPCOLL_VERSION_MAJOR, PAPCOLL_VERSION_MINOR,
           PAPCOLL_VERSION_PATCH);
    printf("  processes    %d\n", b->nprocs);
    print_workload(b);
    printf("  algorithms  ");
    for (a = 0; a < c->nalgos; a++)
        printf(" %s", algo_name(b, a));
    printf(" (baseline %s)\n", algo_name(b, c->baseline));
    printf("  iterations   %ld measured + %ld warm-up per algorithm, interleaved\n", c->iters, c->warmup);
    if (c->calibrate > 0)
        printf("  calibration  %ld balanced rounds first: t(pi) of every algorithm\n", c->calibrate);
    printf("  computation  %g ms + delay per iteration, edge at 50%%\n", c->base_ms);
    printf("  pattern      %s%s\n", pattern,
           c->maxdelay_rel > 0 && pattern_uses_maxdelay(&c->pattern)
               ? " (in units of --maxdelay's balanced run time)"
               : "");
    if (c->maxdelay_rel > 0)
        printf("  maxdelay     %g x the balanced median run time of %s%s\n", c->maxdelay_rel,
               algo_name(b, c->baseline),
               pattern_uses_maxdelay(&c->pattern) ? "" : " (not used by this pattern)");
    else
        printf("  maxdelay     %g ms%s\n", c->maxdelay_ms,
               pattern_uses_maxdelay(&c->pattern) ? "" : " (not used by this pattern)");
    printf("  seed         %" PRIu64 "\n", c->seed);
    printf("  sync         %s\n", c->sync);
    printf("  finished     %s\n", c->finished_sleep ? "sleep (ranks out of the call test and sleep)"
                                                    : "mpi (ranks out of the call wait in MPI)");
    printf("  order        %s\n", c->shuffle ? "every round its own, random (--shuffle, from the seed)"
                                             : "every round in --algos order");
    printf("  predictor    %s\n", papcoll_predictor(b->app->ctx));
    print_clock(b);
    print_model(b);
    print_bind(b);
    print_monitor(b);
    if (c->corrupt_rank >= 0)
        printf("  TEST ONLY    %s=%d: rank %d corrupts what it holds after the first call\n",
               BENCH_CORRUPT_ENV, c->corrupt_rank, c->corrupt_rank);
    fflush(stdout);
}

/* The summaries of algorithm a (rank 0); tmp has room for one value per measured iteration. */
static int summarize_one(const bench_t *b, int a, double *tmp, summary_t *s)
{
    const bench_config_t *c = b->cfg;
    const algo_result_t *r = &b->res[a];
    int i, n = (int)c->iters, rc = 0;

    rc |= pm_stats(r->runtime, n, &s->runtime);
    rc |= pm_stats(r->elapsed, n, &s->elapsed);
    rc |= pm_stats(r->imbalance, n, &s->imbalance);
    rc |= pm_stats(r->lower_bound, n, &s->lower_bound);
    rc |= pm_stats(r->decision, n, &s->decision);
    for (i = 0; i < n; i++)
        tmp[i] = pm_efficiency(r->lower_bound[i], r->runtime[i]);
    rc |= pm_stats(tmp, n, &s->efficiency);
    if (c->op == PAPCOLL_OP_REDUCE)
        rc |= pm_stats(r->round_model, n, &s->round_model);
    if (c->calibrate == 0)
        return rc;
    /* Absorption (Marendic 2016, Def. 3.6), with the algorithm's own median balanced run time. */
    rc |= pm_stats(r->balanced, (int)c->calibrate, &s->balanced);
    for (i = 0; i < n; i++)
        tmp[i] = pm_absorption(s->balanced.median, r->runtime[i], r->imbalance[i]);
    rc |= pm_stats(tmp, n, &s->absorption);
    for (i = 0; i < n; i++)
        tmp[i] = s->balanced.median > 0 ? tmp[i] / s->balanced.median : 0.0;
    rc |= pm_stats(tmp, n, &s->absorption_norm);
    return rc;
}

static int summarize(const bench_t *b, summary_t *s)
{
    const bench_config_t *c = b->cfg;
    double *tmp = malloc((size_t)c->iters * sizeof *tmp);
    int a, rc = tmp != NULL ? 0 : -1;

    for (a = 0; tmp != NULL && a < c->nalgos; a++)
        rc |= summarize_one(b, a, tmp, &s[a]);
    for (a = 0; a < c->nalgos; a++)
        s[a].speedup = s[c->baseline].runtime.median / s[a].runtime.median;
    free(tmp);
    return rc;
}

/* The width of the algorithm column: the longest name, at least 6. */
static int name_width(const bench_t *b)
{
    int a, w = 6;

    for (a = 0; a < b->cfg->nalgos; a++)
        w = (int)strlen(algo_name(b, a)) > w ? (int)strlen(algo_name(b, a)) : w;
    return w;
}

static void print_row(int w, const char *name, const pm_stats_t *t)
{
    printf("  %-*s %9.3f %9.3f %9.3f %9.3f %9.3f  [%9.3f, %9.3f]", w, name, 1e3 * t->mean, 1e3 * t->median,
           1e3 * t->stddev, 1e3 * t->min, 1e3 * t->max, 1e3 * t->ci_lo, 1e3 * t->ci_hi);
}

/* The run-time table (with speedups) or the average-elapsed-time table. */
static void print_table(const bench_t *b, const summary_t *s, int elapsed)
{
    int a, w = name_width(b);

    printf("\n%s [ms]\n",
           elapsed ? "average elapsed time e = mean(f_i - a_i)" : "run time r = max f - min a");
    printf("  %-*s %9s %9s %9s %9s %9s  %s%s\n", w, "algo", "mean", "median", "stddev", "min", "max",
           "95% CI of the mean", elapsed ? "" : "      speedup efficiency");
    for (a = 0; a < b->cfg->nalgos; a++) {
        print_row(w, algo_name(b, a), elapsed ? &s[a].elapsed : &s[a].runtime);
        if (!elapsed)
            printf(" %8.3f %10.3f", s[a].speedup, s[a].efficiency.median);
        printf("\n");
    }
}

/* --calibrate: balanced run time, absorption; reduce: the round model. */
static void print_models(const bench_t *b, const summary_t *s)
{
    const bench_config_t *c = b->cfg;
    int a, w = name_width(b);

    if (c->calibrate > 0) {
        printf("\nbalanced run time t(pi) and absorption A = t(pi) - r + I (Marendic 2016, Def. 3.6) [ms]\n");
        printf("  %-*s %9s %9s %9s %11s\n", w, "algo", "t(pi)", "A mean", "A median", "A/t(pi) med");
        for (a = 0; a < c->nalgos; a++)
            printf("  %-*s %9.3f %9.3f %9.3f %11.3f\n", w, algo_name(b, a), 1e3 * s[a].balanced.median,
                   1e3 * s[a].absorption.mean, 1e3 * s[a].absorption.median, s[a].absorption_norm.median);
    }
    if (c->op == PAPCOLL_OP_REDUCE) {
        printf("\nround model R(a) d of an optimal %d-segment schedule (Marendic 2016; not a bound for other "
               "segmentations) [ms]\n",
               b->segments);
        printf("  %-*s %9s %9s %12s\n", w, "algo", "median", "max", "R d / r med");
        for (a = 0; a < c->nalgos; a++)
            printf("  %-*s %9.3f %9.3f %12.3f\n", w, algo_name(b, a), 1e3 * s[a].round_model.median,
                   1e3 * s[a].round_model.max, s[a].round_model.median / s[a].runtime.median);
    }
}

/* What limits the rig (limits.h): "limits": {alpha per rank, CPU per rank}. */
static void json_limits(json_t *j, const bench_limits_t *l, int P)
{
    json_begin_object(j, "limits");
    if (P > 1) {
        json_number(j, "alpha_min", l->alpha_min);
        json_number(j, "alpha_median", l->alpha_median);
        json_number(j, "alpha_max", l->alpha_max);
        json_int(j, "alpha_max_rank", l->alpha_max_rank);
    }
    json_number(j, "cpu_min", l->cpu_min);
    json_number(j, "cpu_mean", l->cpu_mean);
    json_number(j, "cpu_max", l->cpu_max);
    json_int(j, "cpu_max_rank", l->cpu_max_rank);
    json_number(j, "cpu_total", l->cpu_total);
    json_number(j, "wall", l->wall);
    json_number(j, "cores_busy", l->wall > 0 ? l->cpu_total / l->wall : 0.0);
    json_int(j, "cores", l->cores);
    json_number(j, "nivcsw_max", l->nivcsw_max);
    json_end(j);
}

/* The run's parameters, the fields before "results". */
static void json_config(json_t *j, const bench_t *b)
{
    const bench_config_t *c = b->cfg;
    int blocks = c->op == PAPCOLL_OP_GATHER || c->op == PAPCOLL_OP_SCATTER;

    json_string(j, "op", papcoll_op_name(c->op));
    if (c->reduction)
        json_string(j, "reduce_op", red_name(c->reduce_op));
    json_int(j, "P", b->nprocs);
    json_int(j, "size", blocks ? c->count * b->nprocs : c->count);
    json_int(j, "size_requested", c->size);
    json_int(j, "block", c->count);
    json_string(j, "type", elem_name(c->type));
    json_string(j, "pattern", c->pattern_spec);
    json_string(j, "pattern_kind", pattern_kind_name(&c->pattern));
    json_number(j, "maxdelay", c->maxdelay_rel > 0 ? 1e-3 * b->delay_scale : 1e-3 * c->maxdelay_ms);
    if (c->maxdelay_rel > 0)
        json_number(j, "maxdelay_factor", c->maxdelay_rel);
    json_number(j, "base", 1e-3 * c->base_ms);
    json_int(j, "iters", c->iters);
    json_int(j, "warmup", c->warmup);
    json_int(j, "calibrate", c->calibrate);
    json_string(j, "order", c->shuffle ? "shuffle" : "fixed");
    if (c->calibrate > 0)
        json_number(j, "balanced_baseline", b->t_balanced);
    if (c->op != PAPCOLL_OP_ALLREDUCE)
        json_int(j, "root", c->root);
    json_uint(j, "seed", c->seed);
    json_string(j, "sync", c->sync);
    json_string(j, "finished", c->finished_sleep ? "sleep" : "mpi");
    json_string(j, "predictor", papcoll_predictor(b->app->ctx));
    json_bool(j, "monitor", papcoll_has_monitor(b->app->ctx));
    json_int(j, "bound_ranks", b->bind_ranks);
    json_string(j, "clock", b->app->clock.global ? "global" : "sync");
    json_number(j, "clock_max_error", b->app->clock.max_err);
    json_number(j, "alpha", b->model.alpha);
    json_number(j, "beta", b->model.beta);
    json_number(j, "credit", b->model.credit);
    if (c->reduction)
        json_number(j, "gamma", b->model.gamma);
    if (c->op == PAPCOLL_OP_REDUCE) {
        json_int(j, "round_segments", b->segments);
        json_number(j, "round_time", b->round);
    }
    json_string(j, "baseline", algo_name(b, c->baseline));
    json_limits(j, &b->limits, b->nprocs);
}

/* One algorithm's entry of "results". */
static void json_result(json_t *j, const bench_t *b, int a, const summary_t *s)
{
    const bench_config_t *c = b->cfg;

    json_begin_object(j, NULL);
    json_string(j, "algo", algo_name(b, a));
    json_string(j, "ran_as", papcoll_site_algo(b->res[a].site));
    json_stats(j, "runtime", &s->runtime);
    json_stats(j, "elapsed", &s->elapsed);
    json_stats(j, "imbalance", &s->imbalance);
    json_stats(j, "lower_bound", &s->lower_bound);
    json_stats(j, "efficiency", &s->efficiency);
    if (c->op == PAPCOLL_OP_REDUCE)
        json_stats(j, "round_model", &s->round_model);
    if (c->calibrate > 0) {
        json_stats(j, "balanced", &s->balanced);
        json_stats(j, "absorption", &s->absorption);
        json_stats(j, "absorption_norm", &s->absorption_norm);
    }
    json_stats(j, "decision", &s->decision);
    json_number(j, "speedup", s->speedup);
    json_end(j);
}

/* What report_root hands to output_json. */
typedef struct {
    const bench_t *b;
    const summary_t *s;
} report_t;

/* The members of results.json: the run's parameters, one entry per algorithm, the validation. */
static void json_body(json_t *j, const void *arg)
{
    const report_t *r = arg;
    int a;

    json_config(j, r->b);
    json_begin_array(j, "results");
    for (a = 0; a < r->b->cfg->nalgos; a++)
        json_result(j, r->b, a, &r->s[a]);
    json_end(j);
    json_string(j, "validation", "PASSED");
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
    int a, p, P = b->nprocs;
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
    return output_close(f, b->cfg->out_dir, "results.csv", err, errlen);
}

/* One grep-able line per algorithm (job scripts collect lines starting with "summary"). */
static void print_summary(const bench_t *b, const summary_t *s)
{
    int a;

    for (a = 0; a < b->cfg->nalgos; a++)
        printf("summary: op=%s algo=%s P=%d runtime_median_ms=%.3f elapsed_median_ms=%.3f "
               "speedup=%.3f efficiency=%.3f decision_mean_us=%.3f\n",
               papcoll_op_name(b->cfg->op), algo_name(b, a), b->nprocs, 1e3 * s[a].runtime.median,
               1e3 * s[a].elapsed.median, s[a].speedup, s[a].efficiency.median, 1e6 * s[a].decision.mean);
}

/* One grep-able line: the latency spread and the CPU the loop used (limits.h). */
static void print_limits(const bench_t *b)
{
    const bench_limits_t *l = &b->limits;

    printf("limits: P=%d alpha_us min=%.1f median=%.1f max=%.1f (rank %d) cpu_s per rank min=%.3f mean=%.3f "
           "max=%.3f (rank %d) wall_s=%.3f cores_busy=%.2f of %d nivcsw_max=%.0f\n",
           b->nprocs, 1e6 * l->alpha_min, 1e6 * l->alpha_median, 1e6 * l->alpha_max, l->alpha_max_rank,
           l->cpu_min, l->cpu_mean, l->cpu_max, l->cpu_max_rank, l->wall,
           l->wall > 0 ? l->cpu_total / l->wall : 0.0, l->cores, l->nivcsw_max);
}

static int report_root(const bench_t *b)
{
    const bench_config_t *c = b->cfg;
    summary_t *s = calloc((size_t)c->nalgos, sizeof *s);
    int failed;
    char err[512];
    int status = APP_OK;

    if (s == NULL || summarize(b, s) != 0) {
        fprintf(stderr, "papbench: out of memory\n");
        free(s);
        return APP_FAILED;
    }
    print_table(b, s, 0);
    print_table(b, s, 1);
    print_models(b, s);
    printf("\n");
    print_summary(b, s);
    print_limits(b);
    if (c->out_dir != NULL) {
        failed =
            output_json(c->out_dir, "results.json", json_body, &(report_t){b, s}, err, sizeof err) != 0 ||
            write_csv(b, err, sizeof err) != 0;
        status = app_results(b->app, c->out_dir, failed, err, "results.json", "results.csv");
    }
    if (c->shared_buffers)
        printf("validation: SKIPPED (--shared-buffers)\n");
    else
        printf("validation: PASSED (%ld iterations x %d algorithms)\n", c->iters, c->nalgos);
    fflush(stdout);
    free(s);
    return status;
}

int report_results(const bench_t *b)
{
    return app_share(b->rank == 0 ? report_root(b) : APP_OK);
}
