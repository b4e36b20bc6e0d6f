/*
 * paptrace policy: the policy benchmark's analysis (issue 13,
 * docs/results/policies.md) of a papbench trace whose run replayed a
 * phase-marked file (paptrace synth, or any replay file with
 * "# phase I KIND ..." comment lines).
 *
 * papbench has one site per --algos entry (papbench-<name>) and calls all of
 * them once per round under the same delays; call c of every site replays
 * row (c - calibrate) mod L of the file and is measured from calibrate +
 * warmup on (both from the trace's configuration).  An entry is a policy
 * when its name is auto or has a ':' (rules:FILE, fixed:NAME); the
 * others are fixed algorithms.  Per phase: median run time of every entry,
 * the best fixed one, each policy's ratio to it (goal <= 1.05); whole run:
 * total run time, each policy's ratio to every fixed entry (goal < 1); per
 * policy: switches and the median plan_time (rank 0's prediction and planning
 * per call, the decision time).  How far each ratio can be trusted: a 90 %
 * interval from a paired bootstrap over the rounds (every entry ran round k
 * under the same delays, so the rounds are resampled, not the calls of each
 * entry apart).
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "paptrace_cli.h"
#include "patfile.h"

#define PHASE_GOAL 1.05 /* a policy within 5% of the best fixed algorithm of each phase */
#define BOOT_N 2000     /* bootstrap resamples */
#define BOOT_LO 0.05    /* the interval's quantiles */
#define BOOT_HI 0.95
#define PHASE_LABEL 48

typedef struct {
    long nrows; /* data rows of the file */
    int nphases;
    int *phase_of;              /* nrows: the phase of each row */
    char (*label)[PHASE_LABEL]; /* nphases: "KIND" of the "# phase" line */
} phasemap_t;

typedef struct {
    const paptrace_site_t *site;
    const char *name; /* the site's name without "papbench-" */
    int policy;
    double *median; /* nphases: median run time (s), NaN without calls */
    double *sum;    /* nphases: total run time (s) */
    long *calls;    /* nphases */
    double total;   /* s, every measured call */
} entry_t;

static void phasemap_free(phasemap_t *m)
{
    free(m->phase_of);
    free(m->label);
}

/* Registers one "# phase I KIND ..." line as a new phase. */
static int add_phase(phasemap_t *m, const char *line)
{
    void *p = realloc(m->label, (size_t)(m->nphases + 1) * sizeof *m->label);
    int idx;

    if (p == NULL)
        return -1;
    m->label = p;
    if (sscanf(line, "# phase %d %47s", &idx, m->label[m->nphases]) != 2)
        snprintf(m->label[m->nphases], PHASE_LABEL, "?");
    m->nphases++;
    return 0;
}

/* The phase of every data row of path (rows before the first "# phase" line: an unnamed phase 0). */
static int phasemap_read(const char *path, long nrows, phasemap_t *m, char *err, size_t errlen)
{
    FILE *in = fopen(path, "r");
    char line[65536];
    long row = 0;

    memset(m, 0, sizeof *m);
    if (in == NULL || (m->phase_of = calloc((size_t)nrows, sizeof *m->phase_of)) == NULL) {
        snprintf(err, errlen, "cannot read phase file '%s'", path);
        goto fail;
    }
    m->nrows = nrows;
    while (fgets(line, sizeof line, in) != NULL) {
        const char *p = line + strspn(line, " \t");

        if (strncmp(p, "# phase ", 8) == 0 && add_phase(m, p) != 0)
            goto nomem;
        if (*p == '#' || *p == '\n' || *p == '\0')
            continue;
        if (m->nphases == 0 && add_phase(m, "# phase 0 unmarked") != 0)
            goto nomem;
        if (row < nrows)
            m->phase_of[row] = m->nphases - 1;
        row++;
    }
    fclose(in);
    return 0;
nomem:
    snprintf(err, errlen, "out of memory");
fail:
    if (in != NULL)
        fclose(in);
    phasemap_free(m);
    return -1;
}

/* Value of "key = number" in the trace's configuration text, else dflt. */
static long config_long(const paptrace_file_t *f, const char *key, long dflt)
{
    double v = pt_config_number(f->config, key);

    return isnan(v) ? dflt : (long)v;
}

/* The file must be the one the run replayed: same rows, same digest as the configuration names. */
static int check_replayed(const paptrace_file_t *f, const patfile_t *pf, const char *path, char *err,
                          size_t errlen)
{
    const char *d = strstr(f->config, "# replay file:");
    long lines;
    uint64_t digest;

    if (d == NULL) {
        snprintf(err, errlen, "the trace's run replayed no file (papbench --pattern replay:FILE)");
        return -1;
    }
    if (sscanf(d, "# replay file: %ld lines, digest %" SCNx64, &lines, &digest) != 2)
        return 0;
    if (lines != pf->nrows || digest != pf->hash) {
        snprintf(err, errlen,
                 "'%s' (%ld rows, digest %016" PRIx64 ") is not the file the run replayed (%ld rows, "
                 "digest %016" PRIx64 ")",
                 path, pf->nrows, pf->hash, lines, digest);
        return -1;
    }
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

/* Median of x[n], sorting x in place (NaN when empty). */
static double median_sorted(double *x, long n)
{
    qsort(x, (size_t)n, sizeof *x, cmp_double);
    return n == 0 ? NAN : n % 2 ? x[n / 2] : 0.5 * (x[n / 2 - 1] + x[n / 2]);
}

/* xorshift64*: the resampling is the same on every run of the same trace. */
static uint64_t boot_rand(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717ull;
}

/*
 * Paired bootstrap of a ratio of two entries' run times over n rounds
 * (xa[k], xb[k]: round k of each): BOOT_N resamples of n rounds with
 * replacement, each giving median(a) / median(b) (medians) or sum(a) /
 * sum(b) (!medians); *lo, *hi: the BOOT_LO and BOOT_HI quantiles of the
 * resampled ratios.  w: scratch of 2 n + BOOT_N doubles.
 */
static void boot_ratio(const double *xa, const double *xb, long n, int medians, double *w, double *lo,
                       double *hi)
{
    double *ra = w, *rb = w + n, *r = w + 2 * n;
    uint64_t st = 0x9E3779B97F4A7C15ull;
    long i, k, j;

    *lo = *hi = NAN;
    if (n < 2)
        return;
    for (i = 0; i < BOOT_N; i++) {
        double sa = 0, sb = 0;

        for (k = 0; k < n; k++) {
            j = (long)(boot_rand(&st) % (uint64_t)n);
            ra[k] = xa[j], rb[k] = xb[j];
            sa += xa[j], sb += xb[j];
        }
        r[i] = medians ? median_sorted(ra, n) / median_sorted(rb, n) : sa / sb;
    }
    qsort(r, BOOT_N, sizeof *r, cmp_double);
    *lo = r[(long)(BOOT_LO * (BOOT_N - 1))];
    *hi = r[(long)(BOOT_HI * (BOOT_N - 1))];
}

/* Rounds of phase p (every phase: p < 0) of entries a and b, paired into xa
 * and xb; -1 when the two sites' measured calls do not pair up. */
static long paired(const entry_t *a, const entry_t *b, const phasemap_t *m, long first, long calibrate, int p,
                   double *xa, double *xb)
{
    const paptrace_site_t *s = a->site, *t = b->site;
    long k, n = 0;

    if (s->niters != t->niters)
        return -1;
    for (k = first; k < s->niters; k++) {
        if (s->iters[k].iter != t->iters[k].iter)
            return -1;
        if (p < 0 || m->phase_of[(s->iters[k].iter - calibrate) % m->nrows] == p) {
            xa[n] = s->iters[k].runtime;
            xb[n++] = t->iters[k].runtime;
        }
    }
    return n;
}

/* Median and total of e's calls per phase; x is scratch of niters doubles. */
static void entry_stats(entry_t *e, const phasemap_t *m, long first, long calibrate, int np, double *x)
{
    const paptrace_site_t *s = e->site;
    long k, n;
    int p;

    e->total = 0;
    for (p = 0; p < np; p++) {
        for (n = 0, k = first; k < s->niters; k++)
            if (m->phase_of[(s->iters[k].iter - calibrate) % m->nrows] == p)
                x[n++] = s->iters[k].runtime;
        for (e->sum[p] = 0, k = 0; k < n; k++)
            e->sum[p] += x[k];
        e->total += e->sum[p];
        e->calls[p] = n;
        e->median[p] = median_sorted(x, n);
    }
}

static int is_policy(const char *name)
{
    return strcmp(name, "auto") == 0 || strchr(name, ':') != NULL;
}

/* What entries are ranked by: phase p's median (by_sum 0) or total (1); p < 0: the whole run's total. */
static double rank_key(const entry_t *e, int p, int by_sum)
{
    return p < 0 ? e->total : by_sum ? e->sum[p] : e->median[p];
}

/* The fixed entry with the smallest rank_key (-1: none, or none has calls in phase p). */
static int best_fixed_by(const entry_t *e, int n, int p, int by_sum)
{
    int a, best = -1;

    for (a = 0; a < n; a++)
        if (!e[a].policy && (p < 0 || e[a].calls[p] > 0) &&
            (best < 0 || rank_key(&e[a], p, by_sum) < rank_key(&e[best], p, by_sum)))
            best = a;
    return best;
}

/* Best fixed entry of phase p by its median (-1: none has calls there). */
static int best_fixed(const entry_t *e, int n, int p)
{
    return best_fixed_by(e, n, p, 0);
}

/* Fixed entry with the smallest total (-1: none). */
static int best_total(const entry_t *e, int n)
{
    return best_fixed_by(e, n, -1, 1);
}

/* Column width of entry e: its name, at least 9. */
static int width(const entry_t *e)
{
    int w = (int)strlen(e->name);

    return w > 9 ? w : 9;
}

static void print_phases(FILE *out, const entry_t *e, int n, const phasemap_t *m)
{
    int a, p, b;

    fprintf(out,
            "\nper phase: median run time (ms); ratio = policy / best fixed, goal <= %.2f\n%-5s %-10s %6s",
            PHASE_GOAL, "phase", "kind", "calls");
    for (a = 0; a < n; a++)
        fprintf(out, " %*s", width(&e[a]), e[a].name);
    fprintf(out, "  %-17s", "best");
    for (a = 0; a < n; a++)
        if (e[a].policy)
            fprintf(out, " %*s", width(&e[a]), e[a].name);
    fputc('\n', out);
    for (p = 0; p < m->nphases; p++) {
        fprintf(out, "%-5d %-10s %6ld", p, m->label[p], e[0].calls[p]);
        for (a = 0; a < n; a++)
            fprintf(out, " %*.3f", width(&e[a]), 1e3 * e[a].median[p]);
        b = best_fixed(e, n, p);
        fprintf(out, "  %-17s", b < 0 ? "-" : e[b].name);
        for (a = 0; a < n; a++)
            if (e[a].policy) {
                double r = b < 0 ? NAN : e[a].median[p] / e[b].median[p];

                fprintf(out, " %*.3f%s", width(&e[a]) - 1, r, r <= PHASE_GOAL ? " " : "!");
            }
        fputc('\n', out);
    }
    fprintf(out, "(! marks a ratio above the goal)\n");
}

static void print_totals(FILE *out, const entry_t *e, int n)
{
    int a, b, beats;

    fprintf(out, "\nwhole run: total run time (s) of the measured calls\n");
    for (a = 0; a < n; a++)
        fprintf(out, "  %-17s %10.4f%s\n", e[a].name, e[a].total, e[a].policy ? "  (policy)" : "");
    for (a = 0; a < n; a++) {
        if (!e[a].policy)
            continue;
        fprintf(out, "%s / fixed:", e[a].name);
        for (beats = 1, b = 0; b < n; b++)
            if (!e[b].policy) {
                fprintf(out, " %s %.3f", e[b].name, e[a].total / e[b].total);
                beats &= e[a].total < e[b].total;
            }
        fprintf(out, "  (goal < 1 against every one: %s)\n", beats ? "met" : "MISSED");
    }
}

/*
 * What the whole-run goal leaves a policy: the total of the per-phase
 * oracle (in every phase, the fixed entry with the smallest phase total,
 * switched at the phase's first call) against the best fixed total: what
 * a rules file keyed on the phases could gain at most.
 */
static void print_oracle(FILE *out, const entry_t *e, int n, const phasemap_t *m)
{
    int a, p, o, bt = best_total(e, n), nfixed = 0;
    double total = 0, gain;

    for (a = 0; a < n; a++)
        nfixed += !e[a].policy;
    if (bt < 0 || nfixed == 0)
        return;
    fprintf(out, "\nper-phase oracle: in each phase the fixed algorithm with the smallest phase total, "
                 "switched at the phase's first call\n ");
    for (p = 0; p < m->nphases; p++) {
        if ((o = best_fixed_by(e, n, p, 1)) < 0)
            continue;
        fprintf(out, " %d:%s", p, e[o].name);
        total += e[o].sum[p];
    }
    gain = e[bt].total - total;
    fprintf(out,
            "\n  total %.4f s = %.3f of the best fixed total (%s): switching per phase can gain at most "
            "%.1f %% (%.3f s) over it\n",
            total, total / e[bt].total, e[bt].name, 100 * gain / e[bt].total, gain);
}

/* Switches and the median plan time of a policy's measured calls. */
static void print_policy(FILE *out, const paptrace_file_t *f, const entry_t *e, long first, double *x)
{
    const paptrace_site_t *s = e->site;
    long k, d = -1, switches = 0, n = 0;

    for (k = 0; k < s->niters; k++) {
        while (d + 1 < s->ndecisions && s->decisions[d + 1].iter <= s->iters[k].iter) {
            d++;
            switches += k >= first;
        }
        if (k < first)
            continue;
        if (!isnan(s->iters[k].plan_time))
            x[n++] = s->iters[k].plan_time;
    }
    fprintf(out, "%s: %ld measured calls, %ld switches", e->name, s->niters - first, switches);
    if (!f->has_decisions)
        fprintf(out, " (decisions not recorded: schema %d trace)", f->schema_version);
    qsort(x, (size_t)n, sizeof *x, cmp_double);
    if (n > 0)
        fprintf(out, ", decision time (plan_time) median %.1f us over %ld calls\n", 1e6 * x[n / 2], n);
    else
        fprintf(out, ", decision time not recorded\n");
}

/* Scratch of the intervals: paired run times and the bootstrap's work. */
typedef struct {
    double *xa, *xb, *w;
    long first, calibrate;
} boot_t;

/* A policy's 90 % interval against entry b in phase p (p < 0: the whole
 * run's totals); returns its verdict against goal: 1 met (the whole interval
 * at or below; for the totals, whose goal is < 1, the bound 1 itself has
 * probability zero), -1 missed (above), 0 undecided; NaN bounds without
 * pairs. */
static int interval(const entry_t *a, const entry_t *b, const phasemap_t *m, const boot_t *bt, int p,
                    double goal, double *lo, double *hi)
{
    long n = paired(a, b, m, bt->first, bt->calibrate, p, bt->xa, bt->xb);

    boot_ratio(bt->xa, bt->xb, n, p >= 0, bt->w, lo, hi);
    return isnan(*lo) ? 0 : *hi <= goal ? 1 : *lo > goal ? -1 : 0;
}

static const char *verdict(int v)
{
    return v > 0 ? "met" : v < 0 ? "MISSED" : "?";
}

static void print_intervals(FILE *out, const entry_t *e, int n, const phasemap_t *m, const boot_t *bt)
{
    int a, b, p, v, bt_total;
    double lo, hi;

    fprintf(out,
            "\nper phase: 90 %% interval of each policy's ratio to the phase's best fixed algorithm (paired "
            "bootstrap over the rounds, %d resamples): met = the whole interval <= %.2f, MISSED = above it, "
            "? = the goal inside it\n%-5s %-10s",
            BOOT_N, PHASE_GOAL, "phase", "kind");
    for (a = 0; a < n; a++)
        if (e[a].policy)
            fprintf(out, "  %-29s", e[a].name);
    fputc('\n', out);
    for (p = 0; p < m->nphases; p++) {
        fprintf(out, "%-5d %-10s", p, m->label[p]);
        b = best_fixed(e, n, p);
        for (a = 0; a < n; a++)
            if (e[a].policy) {
                v = b < 0 ? 0 : interval(&e[a], &e[b], m, bt, p, PHASE_GOAL, &lo, &hi);
                fprintf(out, "  %.3f [%.3f, %.3f] %-6s", b < 0 ? NAN : e[a].median[p] / e[b].median[p],
                        b < 0 ? NAN : lo, b < 0 ? NAN : hi, b < 0 ? "-" : verdict(v));
            }
        fputc('\n', out);
    }
    if ((bt_total = best_total(e, n)) < 0)
        return;
    fprintf(out, "whole run, 90 %% interval of the total's ratio to the best fixed total (%s), goal < 1:\n",
            e[bt_total].name);
    for (a = 0; a < n; a++)
        if (e[a].policy) {
            v = interval(&e[a], &e[bt_total], m, bt, -1, 1.0, &lo, &hi);
            fprintf(out, "  %-17s %.3f [%.3f, %.3f] %s\n", e[a].name, e[a].total / e[bt_total].total, lo, hi,
                    verdict(v));
        }
}

/* One machine-readable line per policy: phases within the goal, worst ratio, ratio to the best total. */
static void print_summary(FILE *out, const entry_t *e, int n, const phasemap_t *m, const char *op,
                          const boot_t *boot)
{
    int a, b, p, ok, met, missed, v, bt = best_total(e, n);
    double worst, lo, hi;

    for (a = 0; a < n; a++) {
        if (!e[a].policy)
            continue;
        for (ok = met = missed = 0, worst = 0, p = 0; p < m->nphases; p++) {
            double r = (b = best_fixed(e, n, p)) < 0 ? NAN : e[a].median[p] / e[b].median[p];

            ok += r <= PHASE_GOAL;
            worst = r > worst ? r : worst;
            v = b < 0 ? 0 : interval(&e[a], &e[b], m, boot, p, PHASE_GOAL, &lo, &hi);
            met += v > 0;
            missed += v < 0;
        }
        lo = hi = NAN;
        if (bt >= 0)
            interval(&e[a], &e[bt], m, boot, -1, 1.0, &lo, &hi);
        fprintf(out,
                "policy: op=%s policy=%s phases_within_goal=%d/%d worst_phase_ratio=%.4f best_fixed_total=%s "
                "total_ratio=%.4f phases_clearly_met=%d phases_clearly_missed=%d total_ratio_90=%.4f-%.4f\n",
                op, e[a].name, ok, m->nphases, worst, bt < 0 ? "-" : e[bt].name,
                bt < 0 ? NAN : e[a].total / e[bt].total, met, missed, lo, hi);
    }
}

/* The papbench-<name> sites as entries, with their statistics. */
static int build_entries(const paptrace_file_t *f, const phasemap_t *m, long first, long calibrate,
                         entry_t **out, int *n, double *x)
{
    entry_t *e = calloc((size_t)f->nsites + 1, sizeof *e);
    int i, k = 0;

    if (e == NULL)
        return -1;
    for (i = 0; i < f->nsites; i++) {
        const paptrace_site_t *s = &f->sites[i];

        if (strncmp(s->name, "papbench-", 9) != 0)
            continue;
        e[k] = (entry_t){s,
                         s->name + 9,
                         is_policy(s->name + 9),
                         calloc((size_t)m->nphases, sizeof(double)),
                         calloc((size_t)m->nphases, sizeof(double)),
                         calloc((size_t)m->nphases, sizeof(long)),
                         0};
        if (e[k].median == NULL || e[k].sum == NULL || e[k].calls == NULL) {
            *out = e;
            *n = k + 1;
            return -1;
        }
        entry_stats(&e[k++], m, first, calibrate, m->nphases, x);
    }
    *out = e;
    *n = k;
    return 0;
}

static void entries_free(entry_t *e, int n)
{
    int a;

    for (a = 0; a < n && e != NULL; a++) {
        free(e[a].median);
        free(e[a].sum);
        free(e[a].calls);
    }
    free(e);
}

int pt_cmd_policy(const paptrace_file_t *f, const pt_opts_t *o, FILE *out, char *err, size_t errlen)
{
    long calibrate = config_long(f, "calibrate", 0), warmup = config_long(f, "warmup", 0), maxcalls = 1;
    patfile_t pf = {0};
    phasemap_t m = {0};
    entry_t *e = NULL;
    double *x = NULL;
    boot_t boot = {NULL, NULL, NULL, calibrate + warmup, calibrate};
    int a, npol, n = 0, rc = -1;

    if (o->pat == NULL) {
        snprintf(err, errlen, "policy needs --pat FILE, the phase-marked replay file of the run");
        return -1;
    }
    if (patfile_read(o->pat, "replay file", f->nranks, &pf, err, errlen) != 0)
        return -1;
    if (check_replayed(f, &pf, o->pat, err, errlen) != 0 ||
        phasemap_read(o->pat, pf.nrows, &m, err, errlen) != 0)
        goto fail;
    for (a = 0; a < f->nsites; a++)
        maxcalls = f->sites[a].niters > maxcalls ? f->sites[a].niters : maxcalls;
    if ((x = malloc((size_t)maxcalls * sizeof *x)) == NULL ||
        (boot.xa = malloc((size_t)maxcalls * sizeof(double))) == NULL ||
        (boot.xb = malloc((size_t)maxcalls * sizeof(double))) == NULL ||
        (boot.w = malloc((size_t)(2 * maxcalls + BOOT_N) * sizeof(double))) == NULL ||
        build_entries(f, &m, calibrate + warmup, calibrate, &e, &n, x)) {
        snprintf(err, errlen, "out of memory");
        goto fail;
    }
    if (n == 0 || e[0].site->niters <= calibrate + warmup) {
        snprintf(err, errlen, n == 0 ? "no papbench-<algo> site: not a papbench trace" : "no measured call");
        goto fail;
    }
    fprintf(
        out,
        "paptrace policy: %s, op %s, %d ranks, %ld measured calls per entry (after %ld calibration and %ld "
        "warm-up calls); replay file %s: %ld rows, %d phases\n",
        f->program, papcoll_op_name(e[0].site->op), f->nranks, e[0].site->niters - calibrate - warmup,
        calibrate, warmup, o->pat, pf.nrows, m.nphases);
    print_phases(out, e, n, &m);
    print_totals(out, e, n);
    print_oracle(out, e, n, &m);
    print_intervals(out, e, n, &m, &boot);
    fprintf(
        out,
        "\npolicies: switches and decision time\n");
    for (npol = 0, a = 0; a < n; a++)
        if (e[a].policy) {
            print_policy(out, f, &e[a], calibrate + warmup, x);
            npol++;
        }
    if (npol == 0)
        fprintf(out, "(no policy in the run: auto or a NAME:ARG entry)\n");
    fputc('\n', out);
    print_summary(out, e, n, &m, papcoll_op_name(e[0].site->op), &boot);
    rc = 0;
fail:
    entries_free(e, n);
    free(x);
    free(boot.xa);
    free(boot.xb);
    free(boot.w);
    phasemap_free(&m);
    patfile_free(&pf);
    return rc;
}
