/*
 * paptrace stats: per call site and algorithm, the metrics of DESIGN.md
 * ("Metrics") over the recorded calls:
 *
 *   imbalance   I = max a - min a
 *   run time    r = max f - min a
 *   elapsed     e = mean (f_i - a_i)
 *   absorption  A = t(pi) - r + I (Marendic 2016, Def. 3.6), and A / t(pi);
 *               t(pi), the run time under a balanced pattern, is the op's lower
 *               bound for balanced arrivals (gather: (P - 1)(alpha + b beta) -
 *               credit) unless --balanced gives it
 *   efficiency  LB / r, LB the op's lower bound for the call's arrivals
 *               (papmetrics.h; reductions take gamma from the trace's
 *               configuration, else 0)
 *   lag-1..5 autocorrelation of each rank's arrival offset a_i - min a,
 * every one computed by papmetrics.h; then the site's decisions (changes of
 * algorithm and why).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "paptrace_cli.h"

double pt_config_number(const char *text, const char *key)
{
    size_t len = strlen(key);
    const char *p = text;
    char *end;
    double v;

    while (p != NULL && *p) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (strncmp(p, key, len) == 0) {
            const char *q = p + len;

            while (*q == ' ' || *q == '\t')
                q++;
            if (*q == '=' && (v = strtod(q + 1, &end), end != q + 1) && isfinite(v))
                return v;
        }
        p = strchr(p, '\n');
        p = p ? p + 1 : NULL;
    }
    return NAN;
}

void pt_model(const paptrace_file_t *f, const pt_opts_t *o, pt_model_t *m)
{
    double fa = pt_config_number(f->config, "alpha"), fb = pt_config_number(f->config, "beta");
    double fc = pt_config_number(f->config, "credit"), fg = pt_config_number(f->config, "gamma");

    m->balanced = o->balanced;
    m->lb.gamma = !isnan(fg) ? fg : 0;
    if (!isnan(o->alpha) || !isnan(o->beta) || !isnan(o->credit)) {
        m->lb.alpha = !isnan(o->alpha) ? o->alpha : !isnan(fa) ? fa : PT_DEFAULT_ALPHA;
        m->lb.beta = !isnan(o->beta) ? o->beta : !isnan(fb) ? fb : PT_DEFAULT_BETA;
        m->lb.credit = !isnan(o->credit) ? o->credit : !isnan(fc) ? fc : 0;
        m->source = "command line";
    } else if (!isnan(fa) && !isnan(fb)) {
        m->lb.alpha = fa;
        m->lb.beta = fb;
        m->lb.credit = !isnan(fc) ? fc : 0;
        m->source = "the trace's configuration";
    } else {
        m->lb.alpha = PT_DEFAULT_ALPHA;
        m->lb.beta = PT_DEFAULT_BETA;
        m->lb.credit = 0;
        m->source = "default, 1 Gbit/s Ethernet";
    }
}

/* Arrivals of call k into a[]; 0 when some rank has none. */
static int arrivals(const paptrace_site_t *s, long k, double *a)
{
    int i;

    for (i = 0; i < s->nranks; i++)
        if (isnan(a[i] = s->ranks[k * s->nranks + i].arrival))
            return 0;
    return 1;
}

/* Per-call metrics of one call with complete arrivals. */
static void call_metrics(const paptrace_site_t *s, long k, const double *a, const pt_model_t *m, double *x)
{
    const paptrace_iter_t *it = &s->iters[k];
    pm_lb_fn lb = pm_lb_find(papcoll_op_name(s->op));
    size_t bytes = it->bytes > 0 ? (size_t)it->bytes : 0;
    double *zero = calloc((size_t)s->nranks, sizeof *zero);
    pm_call_t call = paptrace_call(&s->ranks[k * s->nranks], s->nranks);
    double I = pm_imbalance(&call), r = pm_runtime(&call);
    /* Allreduce has no root (-1): its bound does not look at it. */
    int root = it->root >= 0 && it->root < s->nranks ? it->root : 0;
    int root_ok = lb != NULL && (s->op == PAPCOLL_OP_ALLREDUCE || root == it->root);
    double tpi = !isnan(m->balanced) ? m->balanced
                 : zero && lb        ? lb(s->nranks, zero, root, &m->lb, bytes)
                                     : NAN;

    x[0] = I;
    x[1] = r;
    x[2] = it->elapsed;
    x[3] = pm_absorption(tpi, r, I);
    x[4] = tpi > 0 ? x[3] / tpi : NAN;
    x[5] = root_ok ? pm_efficiency(lb(s->nranks, a, root, &m->lb, bytes), r) : NAN;
    free(zero);
}

#define NMETRICS 6

/* pm_stats over the finite values of x[0..n-1] (none: all zero). */
static void finite_stats(double *x, long n, pm_stats_t *out)
{
    long i, m = 0;

    for (i = 0; i < n; i++)
        if (isfinite(x[i]))
            x[m++] = x[i];
    if (m == 0 || pm_stats(x, (int)m, out) != 0)
        memset(out, 0, sizeof *out);
}

/* Lag-1..PT_LAGS autocorrelation of each rank's offset a_i - min a over the calls c[0..n-1]. */
static int autocorr(const paptrace_site_t *s, const long *c, long n, double *acf)
{
    size_t P = (size_t)s->nranks;
    double *a = malloc(P * sizeof *a), *x = malloc(((size_t)n + 1) * sizeof *x), lo;
    size_t q;
    long j;
    int i;

    if (a == NULL || x == NULL) {
        free(a);
        free(x);
        return -1;
    }
    for (i = 0; i < s->nranks; i++) {
        for (j = 0; j < n; j++) {
            arrivals(s, c[j], a);
            for (lo = a[0], q = 1; q < P; q++)
                lo = a[q] < lo ? a[q] : lo;
            x[j] = a[i] - lo;
        }
        pm_autocorr(x, n, PT_LAGS, &acf[(size_t)i * PT_LAGS]);
    }
    free(x);
    free(a);
    return 0;
}

/* The calls of s that ran algo, after skip: indices into calls[], count returned. */
static long group_calls(const paptrace_site_t *s, int algo, long skip, long *calls)
{
    long k, n = 0;

    for (k = skip > 0 ? skip : 0; k < s->niters; k++)
        if (s->iters[k].algo == algo)
            calls[n++] = k;
    return n;
}

int pt_group_stats(const paptrace_site_t *s, int algo, long skip, const pt_model_t *m, pt_group_t *g)
{
    size_t P = (size_t)s->nranks, N = (size_t)s->niters + 1;
    long *calls = malloc(N * sizeof *calls), *complete = malloc(N * sizeof *complete), k, n, nc = 0;
    double *x = malloc(N * NMETRICS * sizeof *x), *col = malloc(N * sizeof *col), *a = malloc(P * sizeof *a);
    pm_stats_t *dst[NMETRICS];
    int q, rc = -1;

    memset(g, 0, sizeof *g);
    g->algo = algo;
    g->acf = malloc(P * PT_LAGS * sizeof *g->acf);
    if (calls == NULL || complete == NULL || x == NULL || col == NULL || a == NULL || g->acf == NULL)
        goto fail;
    n = group_calls(s, algo, skip, calls);
    for (k = 0; k < n; k++) {
        for (q = 0; q < NMETRICS; q++)
            x[k * NMETRICS + q] = NAN;
        if (arrivals(s, calls[k], a)) {
            complete[nc++] = calls[k];
            call_metrics(s, calls[k], a, m, &x[k * NMETRICS]);
        } else {
            pm_call_t call = paptrace_call(&s->ranks[calls[k] * s->nranks], s->nranks);

            x[k * NMETRICS + 1] = pm_runtime(&call);
            x[k * NMETRICS + 2] = s->iters[calls[k]].elapsed;
        }
    }
    dst[0] = &g->imbalance, dst[1] = &g->runtime, dst[2] = &g->elapsed;
    dst[3] = &g->absorption, dst[4] = &g->absorption_n, dst[5] = &g->efficiency;
    for (q = 0; q < NMETRICS; q++) {
        for (k = 0; k < n; k++)
            col[k] = x[k * NMETRICS + q];
        finite_stats(col, n, dst[q]);
    }
    g->n = n;
    g->n_acf = nc;
    rc = autocorr(s, complete, nc, g->acf);
fail:
    free(a);
    free(col);
    free(x);
    free(complete);
    free(calls);
    if (rc != 0)
        pt_group_free(g);
    return rc;
}

void pt_group_free(pt_group_t *g)
{
    free(g->acf);
    g->acf = NULL;
}

/* "name  mean median max" in ms (scale 1e3) or plain (scale 1). */
static void row(FILE *out, const char *name, const pm_stats_t *st, double scale, const char *unit)
{
    if (st->n == 0) {
        fprintf(out, "    %-22s %10s\n", name, "-");
        return;
    }
    fprintf(out, "    %-22s %10.4g %10.4g %10.4g %10.4g %s\n", name, st->mean * scale, st->median * scale,
            st->min * scale, st->max * scale, unit);
}

static void print_group(FILE *out, const paptrace_file_t *f, const paptrace_site_t *s, const pt_group_t *g)
{
    int i, h;

    fprintf(out, "  algorithm %s: %ld calls\n", paptrace_algo_name(f, s->op, g->algo), g->n);
    fprintf(out, "    %-22s %10s %10s %10s %10s\n", "", "mean", "median", "min", "max");
    row(out, "imbalance I", &g->imbalance, 1e3, "ms");
    row(out, "run time r", &g->runtime, 1e3, "ms");
    row(out, "elapsed e", &g->elapsed, 1e3, "ms");
    row(out, "absorption A", &g->absorption, 1e3, "ms");
    row(out, "absorption A/t(pi)", &g->absorption_n, 1.0, "");
    row(out, "efficiency LB/r", &g->efficiency, 1.0, "");
    fprintf(out, "    arrival-offset autocorrelation over %ld calls, lags 1..%d:\n", g->n_acf, PT_LAGS);
    for (i = 0; i < s->nranks; i++) {
        fprintf(out, "      rank %-5d", i);
        for (h = 0; h < PT_LAGS; h++)
            fprintf(out, " %7.3f", g->acf[i * PT_LAGS + h]);
        fprintf(out, "\n");
    }
}

/* Every algorithm the site ran, in id order. */
static int site_stats(FILE *out, const paptrace_file_t *f, const paptrace_site_t *s, const pt_opts_t *o,
                      const pt_model_t *m)
{
    int algo, nalgo = f->nalgos[s->op];
    long k, count;
    pt_group_t g;

    fprintf(out, "site %d '%s': %s, %d ranks, %ld calls%s\n", s->site_id, s->name, papcoll_op_name(s->op),
            s->nranks, s->niters, o->skip > 0 ? " (first ones skipped by --skip)" : "");
    if (f->has_decisions) {
        fprintf(out, "  decisions: %ld (calls that changed algorithm, and why)\n", s->ndecisions);
        pt_print_decisions(out, f, s, "    ");
    } else {
        fprintf(out, "  decisions: not recorded (schema %d file)\n", f->schema_version);
    }
    if (o->skip >= s->niters && s->niters > 0)
        fprintf(out, "  no statistics: --skip %ld leaves none of its calls\n", o->skip);
    for (algo = 0; algo < nalgo; algo++) {
        for (count = 0, k = o->skip > 0 ? o->skip : 0; k < s->niters; k++)
            count += s->iters[k].algo == algo;
        if (count == 0)
            continue;
        if (pt_group_stats(s, algo, o->skip, m, &g) != 0)
            return -1;
        print_group(out, f, s, &g);
        pt_group_free(&g);
    }
    return 0;
}

/* Whether --skip leaves out every call of every site of list. */
static int skip_leaves_nothing(const paptrace_site_t **list, int n, long skip)
{
    int j;

    for (j = 0; j < n; j++)
        if (skip < list[j]->niters)
            return 0;
    return skip > 0 && n > 0;
}

int pt_cmd_stats(const paptrace_file_t *f, const pt_opts_t *o, FILE *out, char *err, size_t errlen)
{
    const paptrace_site_t **list;
    pt_model_t m;
    int j, n, rc = 0;

    if (pt_select_sites(f, o, &list, &n, err, errlen) != 0)
        return -1;
    if (skip_leaves_nothing(list, n, o->skip)) {
        snprintf(err, errlen, "--skip %ld leaves no call of any site selected", o->skip);
        free(list);
        return -1;
    }
    pt_model(f, o, &m);
    fprintf(out, "model: alpha %.3g s, beta %.3g s/B, credit %.3g s (%s), gamma %.3g s/B; t(pi) %s\n",
            m.lb.alpha, m.lb.beta, m.lb.credit, m.source, m.lb.gamma,
            isnan(m.balanced) ? "= the lower bound for balanced arrivals, per call" : "given by --balanced");
    for (j = 0; rc == 0 && j < n; j++) {
        fprintf(out, "\n");
        rc = site_stats(out, f, list[j], o, &m);
    }
    free(list);
    if (rc != 0)
        snprintf(err, errlen, "out of memory");
    return rc;
}
