/*
 * papcoll-sched --bench: the generator benchmark of Proficz 2020, Sect. 5.7
 * (Table 1), plus Marendic 2016's point P = 128, N = 16.
 *
 * Instances as in the paper: d ~ U[0.001, 1]; uniform: a_i ~ U[0, P + 0.1],
 * a random root; skewed: a_i = 0 except a_{P-1} = N, root 0.  Each instance
 * has its own random stream (seed, P, setup, index), so any cell can be
 * rerun alone.  Per instance both generators run on the same input; the
 * time of each is the median of repeated runs (reference 1-5 runs, fast 5
 * or more, up to about 50 ms); both schedules must be identical and pass
 * the checker.  A cell reports the mean over its instances and, as Table 1,
 * the ratio of the mean times; also the median of the per-instance ratios.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "output.h"
#include "rng.h"
#include "sched_app.h"
#include "papmetrics.h"
#include "timer.h"

enum { UNIFORM, SKEWED, BALANCED, NSETUP };

static const char *const setup_names[NSETUP] = {"uniform", "skewed", "balanced"};

/* Marendic 2016's point and the goal there (ms). */
enum { POINT_P = 128, POINT_N = 16 };
#define POINT_GOAL_MS 0.1
#define RATIO_GOAL 20.0

typedef struct {
    int P, setup, instances, valid;
    pm_stats_t ref, fast, ratio; /* ms, ms, reference / fast */
} cell_t;

typedef struct {
    int P, N, setup;
    double d;
    int root;
    double *pat;
} instance_t;

static void draw(const sched_config_t *cfg, int i, instance_t *in)
{
    rng_t r;
    int p;

    rng_init(&r, cfg->seed, ((uint64_t)in->P << 32) | ((uint64_t)in->setup << 24) | (uint64_t)i);
    in->d = 0.001 + 0.999 * rng_uniform(&r);
    for (p = 0; p < in->P; p++)
        in->pat[p] = in->setup == UNIFORM ? rng_uniform(&r) * (in->P + 0.1) : 0.0;
    if (in->setup == SKEWED)
        in->pat[in->P - 1] = in->N;
    in->root = in->setup == UNIFORM ? (int)(rng_next(&r) % (uint64_t)in->P) : 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

/* Median time in ms of runs of impl (as many as fit about budget_ms, within
 * [min_runs, max_runs]); *out keeps the last schedule. */
static int time_impl(int impl, const instance_t *in, int min_runs, int max_runs, double budget_ms, double *ms,
                     papcoll__cv_sched_t *out)
{
    double t[256], t0;
    int runs = 0, want = min_runs, rc;

    do {
        papcoll__cv_free(out);
        t0 = timer_now();
        rc = papcoll__cv_generate(impl, in->P, in->N, in->d, in->root, in->pat, out);
        t[runs++] = 1e3 * (timer_now() - t0);
        if (rc != 0)
            return rc;
        if (runs == 1 && t[0] > 0)
            want = (int)(budget_ms / t[0]);
        want = want < min_runs ? min_runs : want > max_runs ? max_runs : want;
    } while (runs < want);
    qsort(t, (size_t)runs, sizeof(*t), cmp_double);
    *ms = runs % 2 ? t[runs / 2] : 0.5 * (t[runs / 2 - 1] + t[runs / 2]);
    return 0;
}

/* Both generators on instance i; 1 if the schedules agree and are valid. */
static int run_instance(const instance_t *in, double *ref_ms, double *fast_ms)
{
    papcoll__cv_sched_t ref = {0}, fast = {0};
    char why[256];
    int ok;

    ok = time_impl(PAPCOLL__CV_REFERENCE, in, 1, 5, 300.0, ref_ms, &ref) == 0 &&
         time_impl(PAPCOLL__CV_FAST, in, 5, 255, 50.0, fast_ms, &fast) == 0;
    ok = ok && ref.n == fast.n && ref.rounds == fast.rounds &&
         (ref.n == 0 || memcmp(ref.x, fast.x, (size_t)ref.n * sizeof(*ref.x)) == 0);
    if (ok && papcoll__cv_check(&fast, in->pat, why, sizeof why) != 0) {
        fprintf(stderr, "papcoll-sched: P=%d %s instance: invalid schedule: %s\n", in->P,
                setup_names[in->setup], why);
        ok = 0;
    }
    papcoll__cv_free(&ref);
    papcoll__cv_free(&fast);
    return ok;
}

static int bench_cell(const sched_config_t *cfg, cell_t *c, double *ref, double *fast, double *ratio,
                      double *pat)
{
    instance_t in = {c->P, c->P, c->setup, 0, 0, pat};
    double t0 = timer_now();
    int i;

    for (c->valid = 0, i = 0; i < c->instances; i++) {
        draw(cfg, i, &in);
        c->valid += run_instance(&in, &ref[i], &fast[i]);
        ratio[i] = fast[i] > 0 ? ref[i] / fast[i] : 0.0;
        if (ref[i] > 1000.0)
            fprintf(stderr, "bench: P=N=%d %s instance %d/%d: reference %.1f ms, fast %.2f ms\n", c->P,
                    setup_names[c->setup], i + 1, c->instances, ref[i], fast[i]);
    }
    if (pm_stats(ref, c->instances, &c->ref) || pm_stats(fast, c->instances, &c->fast) ||
        pm_stats(ratio, c->instances, &c->ratio))
        return -1;
    fprintf(stderr, "bench: P=N=%d %s: %d instances in %.1f s\n", c->P, setup_names[c->setup], c->instances,
            timer_now() - t0);
    return 0;
}

/* Fast alone at P = 128, N = 16; c->fast gets the per-instance medians. */
static int bench_point(const sched_config_t *cfg, cell_t *c, double *fast, double *pat)
{
    instance_t in = {POINT_P, POINT_N, c->setup, 1.0, 0, pat};
    papcoll__cv_sched_t s = {0};
    int i;

    for (c->valid = 0, i = 0; i < c->instances; i++) {
        draw(cfg, i, &in); /* balanced: all at 0, root 0 */
        if (time_impl(PAPCOLL__CV_FAST, &in, 5, 255, 50.0, &fast[i], &s) != 0)
            return -1;
        c->valid += papcoll__cv_check(&s, in.pat, NULL, 0) == 0;
        papcoll__cv_free(&s);
    }
    return pm_stats(fast, c->instances, &c->fast);
}

static void print_header(const sched_config_t *cfg)
{
    printf("# papcoll-sched --bench: Clairvoyant schedule generators, reference (Listing 2) vs fast "
           "(Listing 8)\n"
           "# %d instances per cell, seed %llu, P = N in 4..%d; d ~ U[0.001, 1]; uniform: a ~ U[0, P + 0.1], "
           "random root; skewed: a = 0 but a[P-1] = N, root 0\n"
           "# per instance the median of repeated runs; per cell the mean over instances; ratio = mean "
           "reference / mean fast (as Proficz 2020, Table 1)\n",
           cfg->instances, (unsigned long long)cfg->seed, cfg->max_p);
    printf("%5s  %-8s %5s %14s %11s %9s %13s  %s\n", "P=N", "setup", "inst", "reference_ms", "fast_ms",
           "ratio", "median_ratio", "valid");
}

static void print_cell(const cell_t *c)
{
    printf("%5d  %-8s %5d %14.4f %11.4f %9.2f %13.2f  %d/%d\n", c->P, setup_names[c->setup], c->instances,
           c->ref.mean, c->fast.mean, c->ref.mean / c->fast.mean, c->ratio.median, c->valid, c->instances);
}

static void print_point(const cell_t *c)
{
    printf("%-8s %5d %9.4f %9.4f %9.4f  %d/%d\n", setup_names[c->setup], c->instances, c->fast.mean,
           c->fast.median, c->fast.max, c->valid, c->instances);
}

static void print_goals(const cell_t *cells, int ncells, const cell_t *point)
{
    int i;

    for (i = 0; i < ncells; i++)
        if (cells[i].P == 512 && cells[i].setup == UNIFORM)
            printf("# goal: fast >= %.0fx faster than reference at P = N = 512 uniform: %.1fx (%s)\n",
                   RATIO_GOAL, cells[i].ref.mean / cells[i].fast.mean,
                   cells[i].ref.mean / cells[i].fast.mean >= RATIO_GOAL ? "met" : "NOT met");
    for (i = 0; i < NSETUP; i++)
        printf("# goal: P = %d, N = %d under %.1f ms, %s: mean %.4f ms (%s)\n", POINT_P, POINT_N,
               POINT_GOAL_MS, setup_names[point[i].setup], point[i].fast.mean,
               point[i].fast.mean < POINT_GOAL_MS ? "met" : "NOT met");
}

static void json_cells(json_t *j, const char *key, const cell_t *c, int n, int with_ref)
{
    int i;

    json_begin_array(j, key);
    for (i = 0; i < n; i++) {
        json_begin_object(j, NULL);
        json_int(j, "P", c[i].P);
        json_string(j, "setup", setup_names[c[i].setup]);
        json_int(j, "instances", c[i].instances);
        json_int(j, "valid", c[i].valid);
        if (with_ref) {
            json_stats(j, "reference_ms", &c[i].ref);
            json_number(j, "ratio", c[i].ref.mean / c[i].fast.mean);
            json_stats(j, "ratios", &c[i].ratio);
        }
        json_stats(j, "fast_ms", &c[i].fast);
        json_end(j);
    }
    json_end(j);
}

/* Writes the results to f, opened before the benchmark, and closes it. */
static int write_json(const sched_config_t *cfg, FILE *f, const cell_t *cells, int ncells,
                      const cell_t *point)
{
    json_t j;
    int rc;

    json_open(&j, f);
    json_begin_object(&j, NULL);
    json_uint(&j, "seed", cfg->seed);
    json_int(&j, "instances", cfg->instances);
    json_cells(&j, "table1", cells, ncells, 1);
    json_cells(&j, "p128_n16", point, NSETUP, 0);
    json_end(&j);
    rc = json_finish(&j);
    return fclose(f) != 0 || rc != 0 ? -1 : 0;
}

int run_bench(const sched_config_t *cfg)
{
    const int K = cfg->instances, maxp = cfg->max_p > POINT_P ? cfg->max_p : POINT_P;
    cell_t cells[2 * 12], point[NSETUP];
    double *buf;
    int P, n = 0, i, status = STATUS_OK;
    FILE *jf = NULL;

    if (cfg->json != NULL && (jf = fopen(cfg->json, "w")) == NULL) { /* before the long part */
        fprintf(stderr, "papcoll-sched: --json: cannot write '%s'\n", cfg->json);
        return STATUS_FAIL;
    }
    if ((buf = malloc(((size_t)3 * K + maxp) * sizeof(*buf))) == NULL) {
        fprintf(stderr, "papcoll-sched: out of memory\n");
        if (jf != NULL)
            fclose(jf);
        return STATUS_FAIL;
    }
    print_header(cfg);
    for (P = 4; P <= cfg->max_p; P *= 2)
        for (i = UNIFORM; i <= SKEWED; i++, n++) {
            cells[n] = (cell_t){.P = P, .setup = i, .instances = K};
            if (bench_cell(cfg, &cells[n], buf, buf + K, buf + 2 * K, buf + 3 * K) != 0)
                status = STATUS_FAIL;
            print_cell(&cells[n]);
            fflush(stdout);
            status = status == STATUS_OK && cells[n].valid < K ? STATUS_INVALID : status;
        }
    printf("# P = %d, N = %d (Marendic 2016 measured 0.55 ms), fast generator, ms per schedule\n", POINT_P,
           POINT_N);
    printf("%-8s %5s %9s %9s %9s  %s\n", "setup", "inst", "mean", "median", "max", "valid");
    for (i = 0; i < NSETUP; i++) {
        point[i] = (cell_t){.P = POINT_P, .setup = i, .instances = K};
        if (bench_point(cfg, &point[i], buf, buf + 3 * K) != 0)
            status = STATUS_FAIL;
        print_point(&point[i]);
        status = status == STATUS_OK && point[i].valid < K ? STATUS_INVALID : status;
    }
    print_goals(cells, n, point);
    if (jf != NULL && write_json(cfg, jf, cells, n, point) != 0) {
        fprintf(stderr, "papcoll-sched: --json: writing '%s' failed\n", cfg->json);
        status = STATUS_FAIL;
    }
    free(buf);
    return status;
}
