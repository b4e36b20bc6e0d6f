/*
 * paptrace dump (a readable table, with each call's decision) and csv (one
 * row per iteration and rank).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "paptrace_cli.h"

/* Earliest arrival of call k (NaN when no rank arrived). */
static double min_arrival(const paptrace_site_t *s, long k)
{
    double lo = NAN;
    int i;

    for (i = 0; i < s->nranks; i++) {
        double a = s->ranks[k * s->nranks + i].arrival;

        if (!isnan(a) && (isnan(lo) || a < lo))
            lo = a;
    }
    return lo;
}

/* A time as ms relative to t0, blank-padded "-" when unknown. */
static void ms(FILE *out, double t, double t0)
{
    if (isnan(t) || isnan(t0))
        fprintf(out, " %11s", "-");
    else
        fprintf(out, " %11.3f", (t - t0) * 1e3);
}

/* The decision of call iter, if it made one; *next walks the site's decisions in call order. */
static const paptrace_decision_t *decision_of(const paptrace_site_t *s, int iter, long *next)
{
    while (*next < s->ndecisions && s->decisions[*next].iter < iter)
        (*next)++;
    return *next < s->ndecisions && s->decisions[*next].iter == iter ? &s->decisions[*next] : NULL;
}

static void dump_call(const paptrace_file_t *f, const paptrace_site_t *s, long k, long *next, FILE *out)
{
    const paptrace_iter_t *it = &s->iters[k];
    const paptrace_decision_t *d = decision_of(s, it->iter, next);
    double t0 = min_arrival(s, k);
    int i;

    fprintf(out, "  iter %d  algo %s  root %d  bytes %lld  plan", it->iter, paptrace_algo_name(f, s->op, it->algo),
            it->root, it->bytes);
    ms(out, it->plan_time, 0.0);
    fprintf(out, " ms  run");
    ms(out, it->runtime, 0.0);
    fprintf(out, " ms  elapsed");
    ms(out, it->elapsed, 0.0);
    fprintf(out, " ms\n");
    if (d != NULL)
        fprintf(out, "    decision: %s%s%s%s\n", d->reason, d->detail[0] ? " [" : "", d->detail,
                d->detail[0] ? "]" : "");
    fprintf(out, "    %5s %11s %11s %11s %11s %11s %11s\n", "rank", "c_start", "edge", "c_end", "arrival", "exit",
            "predicted");
    for (i = 0; i < s->nranks; i++) {
        const papcoll_rank_record_t *r = &s->ranks[k * s->nranks + i];

        fprintf(out, "    %5d", i);
        ms(out, r->compute_start, t0);
        ms(out, r->edge, t0);
        ms(out, r->compute_end, t0);
        ms(out, r->arrival, t0);
        ms(out, r->exit, t0);
        ms(out, r->predicted, 0.0);
        fprintf(out, "\n");
    }
}

int pt_cmd_dump(const paptrace_file_t *f, const pt_opts_t *o, FILE *out, char *err, size_t errlen)
{
    const paptrace_site_t **list;
    long k, next;
    int j, n;

    if (pt_select_sites(f, o, &list, &n, err, errlen) != 0)
        return -1;
    for (j = 0; j < n; j++) {
        const paptrace_site_t *s = list[j];

        next = 0;
        fprintf(out, "%ssite %d '%s': %s, %d ranks, %ld calls (times in ms from the call's earliest arrival; "
                     "predicted: the plan's arrival offset)\n",
                j ? "\n" : "", s->site_id, s->name, papcoll_op_name(s->op), s->nranks, s->niters);
        for (k = 0; k < s->niters; k++)
            dump_call(f, s, k, &next, out);
    }
    free(list);
    return 0;
}

/* A CSV number: empty for NaN, seconds with nanosecond resolution. */
static void csv_num(FILE *out, double v)
{
    if (isnan(v))
        fputc(',', out);
    else
        fprintf(out, ",%.9f", v);
}

/* A CSV text field, quoted (RFC 4180) when it holds a comma, quote or newline. */
static void csv_str(FILE *out, const char *v)
{
    if (strpbrk(v, ",\"\n\r") == NULL) {
        fputs(v, out);
        return;
    }
    fputc('"', out);
    for (; *v; v++) {
        if (*v == '"')
            fputc('"', out);
        fputc(*v, out);
    }
    fputc('"', out);
}

int pt_cmd_csv(const paptrace_file_t *f, const pt_opts_t *o, FILE *out, char *err, size_t errlen)
{
    const paptrace_site_t **list;
    long k;
    int i, j, n;

    if (pt_select_sites(f, o, &list, &n, err, errlen) != 0)
        return -1;
    fprintf(out, "site,iter,algo,root,bytes,rank,compute_start,edge,compute_end,arrival,exit,predicted,"
                 "plan_time,runtime,elapsed\n");
    for (j = 0; j < n; j++) {
        const paptrace_site_t *s = list[j];

        for (k = 0; k < s->niters; k++) {
            const paptrace_iter_t *it = &s->iters[k];

            for (i = 0; i < s->nranks; i++) {
                const papcoll_rank_record_t *r = &s->ranks[k * s->nranks + i];

                csv_str(out, s->name);
                fprintf(out, ",%d,%s,%d,%lld,%d", it->iter, paptrace_algo_name(f, s->op, it->algo),
                        it->root, it->bytes, i);
                csv_num(out, r->compute_start);
                csv_num(out, r->edge);
                csv_num(out, r->compute_end);
                csv_num(out, r->arrival);
                csv_num(out, r->exit);
                csv_num(out, r->predicted);
                csv_num(out, it->plan_time);
                csv_num(out, it->runtime);
                csv_num(out, it->elapsed);
                fputc('\n', out);
            }
        }
    }
    free(list);
    return 0;
}
