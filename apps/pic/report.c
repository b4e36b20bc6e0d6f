/*
 * PIC proxy output: configuration banner, validation, per-phase and
 * per-call-site times, particle imbalance, summary.json and steps.csv
 * (formats in docs/pic.md).  Everything here runs on rank 0 except the
 * final agreement on the status.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output.h"
#include "pic.h"
#include "papmetrics.h"

#define CHARGE_TOL 1e-12 /* grid charge vs particle charge, relative: rounding only */
#define LE(x, tol) ((x) <= (tol) ? "<=" : ">")

/* Per-call metrics of one site (DESIGN.md, Metrics) over the steps that called it. */
typedef struct {
    int n;
    double *runtime, *elapsed, *imbalance;
    pm_stats_t rt, el, im;
} site_stats_t;

typedef struct {
    site_stats_t site[3];        /* gather, scatter, composite */
    double phase[4], phase_max[4]; /* push, migrate, deposit, render: mean and max over ranks (s) */
    double inside[3];              /* mean over ranks of the time inside each site (s) */
    double *load;                  /* per step: max / mean particles per rank */
    pm_stats_t ld;
    pic_fit_t fit;
    int fit_required;
    int ok_count, ok_charge, ok_energy, ok_rate, passed;
    double rate_err, omega_err;
} summary_t;

static const char *const SITE_NAMES[3] = {"charge gather", "field scatter", "compositing"};
static const int SITE_ARR[3] = {REC_G_ARR, REC_S_ARR, REC_C_ARR};
static const char *const PHASE_NAMES[4] = {"push", "migrate", "deposit", "render"};

static const double *rec_of(const pic_t *f, int p, long k)
{
    return &f->all_rec[((size_t)p * (size_t)f->done + (size_t)k) * REC_FIELDS];
}

static const char *site_algo(papcoll_site_t *s)
{
    return s != NULL ? papcoll_site_algo(s) : "-";
}

/* The compositing algorithm that ran: the reduce site's (after any fallback) or IceT's. */
static const char *composite_ran(const pic_t *f)
{
    return f->image != NULL ? papcoll_site_algo(f->image) : f->icet != NULL ? f->cfg->composite_algo : "-";
}

/* What the compositing asked for: --composite-algo or $PAPCOLL_REDUCE_ALGORITHM,
 * else "default" and the site's policy ([papcoll] reduce_algorithm or pic's). */
static void composite_asked(const pic_t *f, char *buf, size_t len)
{
    const char *asked = pic_config_composite_algo(f->cfg), *policy;

    if (strcmp(asked, "default") != 0 || f->image == NULL) {
        snprintf(buf, len, "%s", asked);
        return;
    }
    policy = papcoll_site_policy(f->image);
    snprintf(buf, len, "default %s", strncmp(policy, "fixed:", 6) == 0 ? policy + 6 : policy);
}

void pic_report_config(const pic_t *f)
{
    const pic_config_t *c = f->cfg;
    const pic_problem_t *pb = &f->pb;
    const pic_theory_t *th = &pb->theory;
    char asked[320];
    int s;

    if (f->rank != 0)
        return;
    printf("pic (papcoll %d.%d.%d): 2D electrostatic PIC with in-situ sort-last compositing\n",
           PAPCOLL_VERSION_MAJOR, PAPCOLL_VERSION_MINOR, PAPCOLL_VERSION_PATCH);
    printf("  problem      %s: %s\n", pb->info->name, pb->info->summary);
    printf("  box          %.4g x %.4g, grid %dx%d (dx %.4g), %d slabs of %d columns\n", pb->lx, pb->ly, c->nx,
           c->ny, f->grid.dx, f->nprocs, f->grid.nxl);
    for (s = 0; s < pb->nspecies; s++)
        printf("  species      %-9s %lld macro-particles, q %g, m %g, weight %.4g\n", pb->species[s].name,
               pb->species[s].n, pb->species[s].q, pb->species[s].m, pb->species[s].w);
    printf("  time         %ld steps of dt %g (t = %g / omega_p), %d OpenMP thread%s per rank\n", c->steps, c->dt,
           c->steps * c->dt, c->threads, c->threads == 1 ? "" : "s");
    printf("  field        papcoll gather 'pic-charge' (%s) -> FFTW Poisson on rank 0 -> papcoll scatter "
           "'pic-field' (%s)\n",
           site_algo(f->gather), site_algo(f->scatter));
    printf("  papcoll      predictor %s, monitor %s%s\n", papcoll_predictor(f->app->ctx),
           papcoll_has_monitor(f->app->ctx) ? "running" : "not running",
           f->app->thread_level == MPI_THREAD_MULTIPLE ? "" : " (no MPI_THREAD_MULTIPLE)");
    composite_asked(f, asked, sizeof asked);
    if (c->frame_every > 0)
        printf("  compositing  %s of %dx%d images every %ld steps, %s %s (asked: %s); frames %s%s\n",
               c->composite == PIC_COMPOSITE_OVER ? "over (rank order, front to back)" : "zbuffer", c->width,
               c->height, c->frame_every, f->image != NULL ? "papcoll reduce site 'pic-image'," : "IceT",
               composite_ran(f), asked, !c->frames ? "off" : c->out_dir ? c->out_dir : "not written (no --out)",
               c->frames && c->out_dir ? "/frames/" : "");
    else
        printf("  compositing  off (--frame-every 0)\n");
    if (c->snapshot_every > 0)
        printf("  snapshots    openPMD 1.1.0 every %ld steps: %s/openpmd/\n", c->snapshot_every, c->out_dir);
    if (th->kind == 1)
        printf("  theory       growth rate %.4f (cold two-stream, k v0 = %.4f, w_b = %.4f), tolerance %.0f%%\n",
               th->gamma, pb->k1 * pb->v0, pb->omega_b, 100 * th->gamma_tol);
    else if (th->kind == 2)
        printf("  theory       omega %.4f (tolerance %.0f%%), gamma %.4f (tolerance %.0f%%) at k lambda_D = %.2f\n",
               th->omega, 100 * th->omega_tol, th->gamma, 100 * th->gamma_tol, pb->k1);
    printf("  validation   charge and particle count conserved, energy drift <= %g%s\n", pb->info->energy_tol,
           th->kind ? ", the rate above" : "");
    if (c->config_file != NULL)
        printf("  config       %s%s\n", c->config_file, c->config_papcoll ? " (with [papcoll])" : "");
    if (c->fault == PIC_FAULT_DROP)
        printf("  TEST ONLY    %s: rank %d loses a particle at step 5\n", PIC_FAULT_ENV, c->fault_rank);
    else if (c->fault == PIC_FAULT_FIELD)
        printf("  TEST ONLY    %s: rank 0 halves the field after every solve\n", PIC_FAULT_ENV);
    fflush(stdout);
}

/* The call of a site (a: its arrival field, the exit follows) at step k, as
 * papmetrics.h takes it: rank p's record is at all_rec[(p done + k) REC_FIELDS]. */
static pm_call_t site_call(const pic_t *f, long k, int a)
{
    const double *r0 = rec_of(f, 0, k);
    pm_call_t c = {&r0[a], &r0[a + 1], f->nprocs, (size_t)f->done * REC_FIELDS * sizeof(double)};

    return c;
}

/* Run time, elapsed time and imbalance of every call of site s (papmetrics.h). */
static int site_summary(const pic_t *f, int s, site_stats_t *st)
{
    long k;
    int a = SITE_ARR[s], rc = 0;

    st->runtime = calloc((size_t)f->done + 1, sizeof(double));
    st->elapsed = calloc((size_t)f->done + 1, sizeof(double));
    st->imbalance = calloc((size_t)f->done + 1, sizeof(double));
    if (!st->runtime || !st->elapsed || !st->imbalance)
        return -1;
    for (k = 0; k < f->done; k++) {
        pm_call_t c = site_call(f, k, a);

        if (isnan(rec_of(f, 0, k)[a]))
            continue;
        st->runtime[st->n] = pm_runtime(&c);
        st->elapsed[st->n] = pm_elapsed(&c);
        st->imbalance[st->n] = pm_imbalance(&c);
        st->n++;
    }
    if (st->n > 0) {
        rc |= pm_stats(st->runtime, st->n, &st->rt);
        rc |= pm_stats(st->elapsed, st->n, &st->el);
        rc |= pm_stats(st->imbalance, st->n, &st->im);
    }
    return rc;
}

/* Phases and time inside the sites, mean and max over ranks; particle load per step. */
static int phase_summary(const pic_t *f, summary_t *s)
{
    static const int PH[4] = {REC_PUSH, REC_MIGRATE, REC_DEPOSIT, REC_RENDER};
    long k;
    int p, q;

    s->load = calloc((size_t)f->done + 1, sizeof(double));
    if (s->load == NULL)
        return -1;
    for (p = 0; p < f->nprocs; p++) {
        double tot[4] = {0, 0, 0, 0};

        for (k = 0; k < f->done; k++) {
            const double *r = rec_of(f, p, k);

            for (q = 0; q < 4; q++)
                tot[q] += r[PH[q]];
            for (q = 0; q < 3; q++)
                if (!isnan(r[SITE_ARR[q]]))
                    s->inside[q] += (r[SITE_ARR[q] + 1] - r[SITE_ARR[q]]) / f->nprocs;
        }
        for (q = 0; q < 4; q++) {
            s->phase[q] += tot[q] / f->nprocs;
            s->phase_max[q] = fmax(s->phase_max[q], tot[q]);
        }
    }
    for (k = 0; k < f->done; k++) {
        double mx = 0, sum = 0;

        for (p = 0; p < f->nprocs; p++) {
            mx = fmax(mx, rec_of(f, p, k)[REC_COUNT]);
            sum += rec_of(f, p, k)[REC_COUNT];
        }
        s->load[k] = sum > 0 ? mx / (sum / f->nprocs) : 1.0;
    }
    return f->done > 0 ? pm_stats(s->load, (int)f->done, &s->ld) : 0;
}

/* The checks of the validation line. */
static void validate(const pic_t *f, summary_t *s)
{
    const pic_diag_t *d = &f->diag;
    const pic_problem_t *pb = &f->pb;
    const pic_theory_t *th = &pb->theory;
    int n = (int)f->done + 1;

    s->ok_count = d->lost_step < 0 && f->stop_reason != STOP_FAR;
    s->ok_charge = d->max_charge_err <= CHARGE_TOL;
    s->ok_energy = d->max_energy_drift <= pb->info->energy_tol;
    s->ok_rate = 1;
    s->fit_required = f->done * f->cfg->dt >= pb->info->steps * pb->info->dt - 1e-9;
    if (th->kind == 1)
        pic_fit_growth(d->t, d->mode1, n, &s->fit);
    else if (th->kind == 2)
        pic_fit_damped(d->t, d->mode1, n, 1.0, 20.0, 1.0, 0.1, &s->fit);
    if (th->kind != 0 && s->fit.ok) {
        s->rate_err = fabs(s->fit.gamma / th->gamma - 1.0);
        s->ok_rate = s->rate_err <= th->gamma_tol;
        if (th->kind == 2) {
            s->omega_err = fabs(s->fit.omega / th->omega - 1.0);
            s->ok_rate = s->ok_rate && s->omega_err <= th->omega_tol;
        }
    } else if (th->kind != 0 && s->fit_required) {
        s->ok_rate = 0;
    }
    s->passed = s->ok_count && s->ok_charge && s->ok_energy && s->ok_rate && f->stop_reason == STOP_NONE &&
                f->done == f->cfg->steps;
}

static int summarize(const pic_t *f, summary_t *s)
{
    int q, rc = 0;

    for (q = 0; q < 3; q++)
        rc |= site_summary(f, q, &s->site[q]);
    rc |= phase_summary(f, s);
    validate(f, s);
    return rc;
}

static void summary_free(summary_t *s)
{
    int q;

    for (q = 0; q < 3; q++) {
        free(s->site[q].runtime);
        free(s->site[q].elapsed);
        free(s->site[q].imbalance);
    }
    free(s->load);
}

static double sum_of(const double *x, long n)
{
    double s = 0;
    long k;

    for (k = 0; k < n; k++)
        s += x[k];
    return s;
}

static void print_sites(const summary_t *s)
{
    int q;

    printf("\ncall sites [ms]        calls   run time mean / median / max   elapsed mean   imbalance mean / max\n");
    for (q = 0; q < 3; q++) {
        const site_stats_t *t = &s->site[q];

        if (t->n == 0)
            continue;
        printf("  %-20s %6d   %9.3f %9.3f %9.3f   %9.3f      %9.3f %9.3f\n", SITE_NAMES[q], t->n, 1e3 * t->rt.mean,
               1e3 * t->rt.median, 1e3 * t->rt.max, 1e3 * t->el.mean, 1e3 * t->im.mean, 1e3 * t->im.max);
    }
}

/* Particles per rank at the first, middle and last step: the imbalance the physics makes. */
static void print_load(const pic_t *f, const summary_t *s)
{
    long at[3] = {0, f->done / 2, f->done - 1};
    int i, p;

    printf("\nparticles per rank (max / mean: min %.2f, mean %.2f, max %.2f over the steps)\n", s->ld.min,
           s->ld.mean, s->ld.max);
    for (i = 0; i < 3; i++) {
        printf("  step %-7ld", at[i] + 1);
        for (p = 0; p < f->nprocs && p < 16; p++)
            printf(" %8.0f", rec_of(f, p, at[i])[REC_COUNT]);
        printf("%s\n", f->nprocs > 16 ? " ..." : "");
    }
}

static void print_results(const pic_t *f, const summary_t *s)
{
    const pic_diag_t *d = &f->diag;
    int q;

    printf("\nresults (%ld steps, %ld frames composited, %ld written, %ld snapshots)\n", f->done, f->frames_done,
           f->frames_written, f->snapshots);
    printf("  total time       %.3f s (rank 0's loop)\n", f->total_time);
    printf("phases [s]         mean over ranks   max rank\n");
    for (q = 0; q < 4; q++)
        printf("  %-16s %12.3f %12.3f\n", PHASE_NAMES[q], s->phase[q], s->phase_max[q]);
    for (q = 0; q < 3; q++)
        printf("  in %-13s %12.3f\n", q == 0 ? "gather" : q == 1 ? "scatter" : "compositing", s->inside[q]);
    printf("  %-16s %12.3f   (rank 0: fold, FFTs, pack)\n", "field solve", sum_of(d->solve, f->done + 1));
    printf("  %-16s %12.3f   (rank 0)\n", "png", sum_of(d->png, f->done + 1));
    printf("  %-16s %12.3f   (all ranks: particle gather + rank 0's HDF5)\n", "snapshots",
           sum_of(d->snapshot, f->done + 1));
    print_sites(s);
    print_load(f, s);
}

static void print_rate(const pic_t *f, const summary_t *s, char *buf, size_t len)
{
    const pic_theory_t *th = &f->pb.theory;

    if (th->kind == 0)
        snprintf(buf, len, "no linear theory for this problem");
    else if (!s->fit.ok)
        snprintf(buf, len, "rate %s: %s", s->fit_required ? "FAILED" : "not checked", s->fit.why);
    else if (th->kind == 1)
        snprintf(buf, len, "growth rate %.4f vs theory %.4f (%.1f%% %s %.0f%%, t = %.1f..%.1f)", s->fit.gamma,
                 th->gamma, 100 * s->rate_err, LE(s->rate_err, th->gamma_tol), 100 * th->gamma_tol, s->fit.t0,
                 s->fit.t1);
    else
        snprintf(buf, len, "omega %.4f vs %.4f (%.2f%% %s %.0f%%), gamma %.4f vs %.4f (%.1f%% %s %.0f%%)",
                 s->fit.omega, th->omega, 100 * s->omega_err, LE(s->omega_err, th->omega_tol), 100 * th->omega_tol,
                 s->fit.gamma, th->gamma, 100 * s->rate_err, LE(s->rate_err, th->gamma_tol), 100 * th->gamma_tol);
}

static const char *stop_text(int reason)
{
    switch (reason) {
    case STOP_FAR:
        return "a particle moved more than one slab in a step (shorten --dt or use fewer ranks)";
    case STOP_MEMORY:
        return "a rank ran out of memory migrating particles";
    case STOP_LOST:
        return "the particle count changed";
    default:
        return "";
    }
}

static void print_validation(const pic_t *f, const summary_t *s)
{
    const pic_diag_t *d = &f->diag;
    char rate[256];

    char count[96];

    print_rate(f, s, rate, sizeof rate);
    if (s->ok_count)
        snprintf(count, sizeof count, "%lld conserved", f->pb.n_total);
    else
        snprintf(count, sizeof count, "NOT conserved: %lld lost at step %d", d->lost, d->lost_step + 1);
    printf("validation: %s (particles %s; charge %s, grid vs particles %.1e; energy drift %.2e %s %g; %s)\n",
           s->passed ? "PASSED" : "FAILED", count, s->ok_charge ? "conserved" : "NOT conserved", d->max_charge_err,
           d->max_energy_drift, s->ok_energy ? "<=" : ">", f->pb.info->energy_tol, rate);
    if (f->stop_reason != STOP_NONE)
        printf("stopped after step %ld: %s\n", f->done, stop_text(f->stop_reason));
}

static void json_sites(json_t *j, const summary_t *s)
{
    static const char *const keys[3] = {"gather", "scatter", "composite"};
    int q;

    json_begin_object(j, "sites");
    for (q = 0; q < 3; q++) {
        if (s->site[q].n == 0)
            continue;
        json_begin_object(j, keys[q]);
        json_int(j, "calls", s->site[q].n);
        json_stats(j, "runtime", &s->site[q].rt);
        json_stats(j, "elapsed", &s->site[q].el);
        json_stats(j, "imbalance", &s->site[q].im);
        json_end(j);
    }
    json_end(j);
}

static void json_validation(json_t *j, const pic_t *f, const summary_t *s)
{
    const pic_theory_t *th = &f->pb.theory;

    json_string(j, "validation", s->passed ? "PASSED" : "FAILED");
    json_bool(j, "particles_conserved", s->ok_count);
    json_number(j, "charge_error", f->diag.max_charge_err);
    json_number(j, "energy_drift", f->diag.max_energy_drift);
    json_number(j, "energy_tolerance", f->pb.info->energy_tol);
    if (th->kind == 0)
        return;
    json_bool(j, "rate_checked", s->fit.ok);
    json_number(j, "gamma", s->fit.gamma);
    json_number(j, "gamma_theory", th->gamma);
    if (th->kind == 2) {
        json_number(j, "omega", s->fit.omega);
        json_number(j, "omega_theory", th->omega);
    }
}

/* What report_root hands to output_json. */
typedef struct {
    const pic_t *f;
    const summary_t *s;
} report_t;

/* The members of summary.json. */
static void json_body(json_t *j, const void *arg)
{
    const pic_t *f = ((const report_t *)arg)->f;
    const summary_t *s = ((const report_t *)arg)->s;
    const pic_config_t *c = f->cfg;
    static const char *const keys[4] = {"push", "migrate", "deposit", "render"};
    int q;

    json_string(j, "app", "pic");
    json_string(j, "problem", f->pb.info->name);
    json_int(j, "P", f->nprocs);
    json_int(j, "steps", f->done);
    json_int(j, "particles", f->pb.n_total);
    json_int(j, "nx", c->nx);
    json_int(j, "ny", c->ny);
    json_number(j, "dt", c->dt);
    json_int(j, "threads", c->threads);
    json_string(j, "composite", c->composite == PIC_COMPOSITE_OVER ? "over" : "zbuffer");
    json_string(j, "composite_algo", pic_config_composite_algo(c));
    json_string(j, "composite_ran_as", composite_ran(f));
    json_string(j, "gather_algo", site_algo(f->gather));
    json_string(j, "scatter_algo", site_algo(f->scatter));
    json_int(j, "width", c->width);
    json_int(j, "height", c->height);
    json_int(j, "frames", f->frames_done);
    json_int(j, "frames_written", f->frames_written);
    json_string(j, "last_frame", f->frames_written ? f->last_frame : "");
    json_int(j, "snapshots", f->snapshots);
    json_number(j, "total_time", f->total_time);
    json_begin_object(j, "phases");
    for (q = 0; q < 4; q++)
        json_number(j, keys[q], s->phase[q]);
    json_number(j, "solve", sum_of(f->diag.solve, f->done + 1));
    json_number(j, "png", sum_of(f->diag.png, f->done + 1));
    json_number(j, "snapshot", sum_of(f->diag.snapshot, f->done + 1));
    json_end(j);
    json_sites(j, s);
    json_stats(j, "load_imbalance", &s->ld);
    json_validation(j, f, s);
    json_string(j, "predictor", papcoll_predictor(f->app->ctx));
}

/* Columns per rank: particles, compute before the gather, render, gather and compositing arrival. */
static void csv_header(FILE *fp, int P)
{
    static const char *const prefix[] = {"n", "c", "r", "ga", "ca"};
    int p, q;

    fprintf(fp, "step,t,kinetic,field,total,mode1,solve,g_runtime,s_runtime,c_runtime");
    for (q = 0; q < 5; q++)
        for (p = 0; p < P; p++)
            fprintf(fp, ",%s%d", prefix[q], p);
    fprintf(fp, "\n");
}

/* The minimum arrival of a site at step k over the ranks (NaN: not called). */
static double min_arrival(const pic_t *f, long k, int a)
{
    pm_call_t c = site_call(f, k, a);

    return isnan(rec_of(f, 0, k)[a]) ? NAN : pm_first_arrival(&c);
}

/* Its run time (NaN: not called). */
static double site_runtime(const pic_t *f, long k, int a)
{
    pm_call_t c = site_call(f, k, a);

    return isnan(rec_of(f, 0, k)[a]) ? NAN : pm_runtime(&c);
}

static void csv_row(FILE *fp, const pic_t *f, long k)
{
    const pic_diag_t *d = &f->diag;
    double ga = min_arrival(f, k, REC_G_ARR), ca = min_arrival(f, k, REC_C_ARR);
    int p;

    fprintf(fp, "%ld,%.9g,%.12g,%.12g,%.12g,%.9g,%.6g,%.6g,%.6g,", k + 1, k * f->cfg->dt, d->kinetic[k],
            d->field[k], d->kinetic[k] + d->field[k], d->mode1[k], d->solve[k + 1], site_runtime(f, k, REC_G_ARR),
            site_runtime(f, k, REC_S_ARR));
    if (!isnan(ca))
        fprintf(fp, "%.6g", site_runtime(f, k, REC_C_ARR));
    for (p = 0; p < f->nprocs; p++)
        fprintf(fp, ",%.0f", rec_of(f, p, k)[REC_COUNT]);
    for (p = 0; p < f->nprocs; p++) {
        const double *r = rec_of(f, p, k);

        fprintf(fp, ",%.6g", r[REC_PUSH] + r[REC_MIGRATE] + r[REC_DEPOSIT]);
    }
    for (p = 0; p < f->nprocs; p++)
        fprintf(fp, ",%.6g", rec_of(f, p, k)[REC_RENDER]);
    for (p = 0; p < f->nprocs; p++)
        fprintf(fp, ",%.6g", rec_of(f, p, k)[REC_G_ARR] - ga);
    for (p = 0; p < f->nprocs; p++)
        if (isnan(ca))
            fprintf(fp, ",");
        else
            fprintf(fp, ",%.6g", rec_of(f, p, k)[REC_C_ARR] - ca);
    fprintf(fp, "\n");
}

static int write_csv(const pic_t *f, char *err, size_t errlen)
{
    FILE *fp = output_open(f->cfg->out_dir, "steps.csv", err, errlen);
    long k;

    if (fp == NULL)
        return -1;
    csv_header(fp, f->nprocs);
    for (k = 0; k < f->done; k++)
        csv_row(fp, f, k);
    return output_close(fp, f->cfg->out_dir, "steps.csv", err, errlen);
}

static void print_summary_line(const pic_t *f, const summary_t *s)
{
    const pic_config_t *c = f->cfg;

    printf("\nsummary: app=pic problem=%s P=%d steps=%ld particles=%lld composite=%s composite_algo=%s ran_as=%s "
           "gather=%s scatter=%s total_time=%.4f gather_ms=%.4f scatter_ms=%.4f composite_ms=%.4f "
           "load_max=%.3f validation=%s\n",
           f->pb.info->name, f->nprocs, f->done, f->pb.n_total, c->composite == PIC_COMPOSITE_OVER ? "over" : "zbuffer",
           pic_config_composite_algo(c), composite_ran(f), site_algo(f->gather), site_algo(f->scatter), f->total_time,
           1e3 * s->site[0].rt.mean, 1e3 * s->site[1].rt.mean, 1e3 * s->site[2].rt.mean, s->ld.max,
           s->passed ? "PASSED" : "FAILED");
}

static int report_root(pic_t *f, int status)
{
    summary_t s;
    int failed;
    char err[600];

    memset(&s, 0, sizeof s);
    if (f->all_rec == NULL) /* the records never arrived (reported already) */
        return APP_FAILED;
    if (f->done == 0 || summarize(f, &s) != 0) {
        fprintf(stderr, "pic: no steps completed or out of memory\n");
        summary_free(&s);
        return APP_FAILED;
    }
    print_results(f, &s);
    print_summary_line(f, &s);
    if (f->cfg->out_dir != NULL) {
        failed = output_json(f->cfg->out_dir, "summary.json", json_body, &(report_t){f, &s}, err,
                             sizeof err) != 0 ||
                 write_csv(f, err, sizeof err) != 0;
        status =
            app_worst(status, app_results(f->app, f->cfg->out_dir, failed, err, "summary.json", "steps.csv"));
    }
    if (f->frames_written > 0)
        printf("frames: %ld PNG files, %s .. %s\n", f->frames_written, f->first_frame, f->last_frame);
    if (f->snapshots > 0)
        printf("snapshots: %ld openPMD files, last %s\n", f->snapshots, f->last_snapshot);
    print_validation(f, &s);
    fflush(stdout);
    summary_free(&s);
    return s.passed ? status : APP_FAILED;
}

int pic_report(pic_t *f, int status)
{
    return app_share(f->rank == 0 ? report_root(f, status) : status);
}
