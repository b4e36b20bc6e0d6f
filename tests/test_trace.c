/*
 * Serial tests of libpaptrace, its metrics (papmetrics.h) and the paptrace
 * commands' computations:
 *
 *   1. round trip: synthetic records of 2 sites at P = 5 (interleaved,
 *      NaN fields, a changing root, lengths not multiples of the flush
 *      period, decisions with short, empty-detail and over-long reasons)
 *      go through the sink callbacks into a file; paptrace_read must give
 *      back every metadata item and every value bit for bit, the algorithm
 *      tables of exactly the operations used (a subset of papcoll's), and
 *      the decisions (a cut reason ending in "...");
 *   2. the metrics (run time, elapsed, imbalance on records and on a
 *      strided array, absorption, efficiency, statistics) and the
 *      autocorrelation against hand-computed values;
 *   3. pt_group_stats of paptrace stats on a hand-made site;
 *   4. reader errors: missing file, not HDF5, a directory;
 *   5. crash safety: a child process writes records (a third site appears
 *      late, after SWMR started) and is killed with SIGKILL after several
 *      flushes; the file must open and hold every flushed iteration intact.
 *
 * usage: test_trace                   all of the above (temporary files)
 *        test_trace --crash FILE      only 5, keeping FILE, printing
 *                                     "flushed SITE N" (tests/trace_crash.sh)
 *        test_trace --write FILE      writes the trace of 1 to FILE (tests/trace_badinput.sh)
 *        test_trace --schema1 FILE    FILE must read as the trace of 1 written by the schema-1
 *                                     writer (tests/fixtures/trace-schema1.h5.gz, tests/trace_schema.sh)
 */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../apps/paptrace/paptrace_cli.h"
#include "paptrace.h"
#include "unit.h"

#define P 5
#define FLUSH 8
static const int niters[2] = {37, 23};
static const char *const site_names[3] = {"alpha", "beta, with comma", "late"};

/* Bitwise-equal doubles (NaN == NaN). */
static int same(double a, double b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

/* The synthetic record of (site, iteration, rank): exact binary fractions and NaNs. */
static papcoll_rank_record_t synth(int site, int k, int i)
{
    double base = 100.0 + k * 0.25 + site * 1000.0;
    papcoll_rank_record_t r = {base, base + 0.0625 * i, base + 0.125, base + 0.125 + 0.03125 * ((i * 7 + k) % P),
                               0, NAN};

    r.exit = r.arrival + 0.015625 * (i + 1);
    if ((k + i) % 4 == 0)
        r.edge = NAN;
    if (site == 1)
        r.predicted = 0.001 * i;
    return r;
}

/* The decision of (site, call k), or NULL: site 0 every 4th call, site 1 every
 * 5th with a reason longer than a decision row holds, the late site never. */
static const char *synth_reason(int site, int k)
{
    static char buf[400];
    int n;

    if (site == 0 && k % 4 == 0) {
        snprintf(buf, sizeof buf, "policy fixed:x%d", k);
        return buf;
    }
    if (site != 1 || k % 5 != 0)
        return NULL;
    n = snprintf(buf, sizeof buf, "policy fixed:y%d", k);
    while (n < 300)
        n += snprintf(buf + n, sizeof buf - (size_t)n, "; step %d cannot: runs mpi", n);
    return buf;
}

static void synth_record(int site, int k, papcoll_rank_record_t *ranks, papcoll_record_t *rec)
{
    int i;

    for (i = 0; i < P; i++)
        ranks[i] = synth(site, k, i);
    memset(rec, 0, sizeof *rec);
    rec->site_id = site;
    rec->site = site_names[site];
    rec->op = site == 1 ? PAPCOLL_OP_SCATTER : PAPCOLL_OP_GATHER;
    rec->iter = k;
    rec->algo = k % papcoll_algo_count(rec->op);
    rec->reason = synth_reason(site, k);
    rec->root = site ? k % P : 0;
    rec->bytes = 4096LL * (site + 1);
    rec->count = 1024 * (site + 1);
    rec->datatype = site == 1 ? "MPI_INT" : "MPI_FLOAT";
    rec->plan_time = k % 3 ? 1e-5 * k : NAN;
    rec->nranks = P;
    rec->ranks = ranks;
}

static const char *hosts[P] = {"node-a", "node-a", "node-b", "node-c", "a-very-long-host-name.example.org"};
static const long long pids[P] = {101, 102, 2001, 30001, 4000000001LL};
static char *argv_w[] = {"prog", "--trace", "x.h5", "--size", "1 M"};
static const char *config = "[prog]\nsize = 1M\nalpha = 2.5e-05\nbeta = 1e-09\n";

static double clk_off[2][P] = {{0, 1e-6, -2e-6, 3e-6, 0.5}, {0, 1.5e-6, -2.5e-6, 3.5e-6, 0.25}};
static double clk_drift[2][P] = {{0, 0, 0, 0, 0}, {0, 1e-7, -1e-7, 2e-7, NAN}};
static double clk_err[2][P] = {{0, 1e-7, 1e-7, 2e-7, 3e-7}, {0, 1e-7, 1e-7, 2e-7, 3e-7}};

/* Writes the synthetic trace through the sink callbacks. */
static int write_trace(const char *path)
{
    paptrace_meta_t meta = {"prog", 5, argv_w, config, FLUSH};
    paptrace_run_t run = {P, hosts, pids, "Test MPI 1.0\nsecond line", "synthetic"};
    papcoll_rank_record_t ranks[P];
    papcoll_record_t rec;
    papcoll_sink_t sink;
    paptrace_t *t;
    int k, s, rc = paptrace_create(path, &meta, &run, &t);

    if (!check(rc == PAPTRACE_OK, "paptrace_create: %s", paptrace_strerror(rc)))
        return -1;
    sink = paptrace_sink(t);
    for (s = 0; s < 2; s++) {
        papcoll_clock_sample_t c = {10.0 * s, P, clk_off[s], clk_drift[s], clk_err[s]};

        check(sink.clock(sink.arg, &c) == 0, "clock callback %d", s);
    }
    for (k = 0; k < niters[0]; k++)
        for (s = 0; s < 2; s++)
            if (k < niters[s]) {
                synth_record(s, k, ranks, &rec);
                check(sink.record(sink.arg, &rec) == 0, "record callback site %d iter %d", s, k);
            }
    rc = paptrace_finish(&t);
    return check(rc == PAPTRACE_OK && t == NULL, "paptrace_finish: %s", paptrace_strerror(rc)) ? 0 : -1;
}

/* The metadata of write_trace's file, written by a writer of schema version schema. */
static void check_meta(const paptrace_file_t *f, int schema)
{
    int i, op, used;

    check(f->schema_version == schema, "schema version %d, expected %d", f->schema_version, schema);
    check(f->has_decisions == (schema >= 2), "has_decisions %d at schema %d", f->has_decisions, schema);
    check(strcmp(f->program, "prog") == 0, "program '%s'", f->program);
    check(f->argc == 5, "argc %d", f->argc);
    for (i = 0; i < f->argc && i < 5; i++)
        check(strcmp(f->argv[i], argv_w[i]) == 0, "argv[%d] '%s'", i, f->argv[i]);
    check(strcmp(f->config, config) == 0, "config text");
    check(strcmp(f->mpi_library, "Test MPI 1.0\nsecond line") == 0, "mpi library");
    check(strcmp(f->clock_method, "synthetic") == 0, "clock method");
    check(strlen(f->start_utc) == 20 && f->start_utc[19] == 'Z', "start time '%s'", f->start_utc);
    check(f->flush_every == FLUSH && f->nranks == P, "flush_every %d nranks %d", f->flush_every, f->nranks);
    for (i = 0; i < P; i++)
        check(strcmp(f->hosts[i], hosts[i]) == 0 && f->pids[i] == pids[i], "rank %d host/pid", i);
    check(f->nclock == 2, "clock samples %ld", f->nclock);
    for (i = 0; f->nclock == 2 && i < 2 * P; i++) {
        const paptrace_clock_row_t *c = &f->clock[i];
        int s = i / P, r = i % P;

        check(same(c->when, 10.0 * s) && same(c->offset, clk_off[s][r]) && same(c->drift, clk_drift[s][r]) &&
                  same(c->error, clk_err[s][r]),
              "clock sample %d rank %d", s, r);
    }
    /* The tables of the operations the sites use, no other (also every table of a schema-1 writer). */
    for (op = 0; op < PAPCOLL_OP_COUNT; op++) {
        used = op == PAPCOLL_OP_GATHER || op == PAPCOLL_OP_SCATTER;
        check(f->nalgos[op] == (used ? papcoll_algo_count((papcoll_op_t)op) : 0), "%d algorithms of %s",
              f->nalgos[op], papcoll_op_name((papcoll_op_t)op));
        for (i = 0; i < f->nalgos[op]; i++)
            check(strcmp(f->algos[op][i], papcoll_algo_name((papcoll_op_t)op, i)) == 0, "algo %d of op %d", i, op);
    }
}

/* The decisions of site s's first niters calls read back; exact: and no other. */
static void check_decisions(const paptrace_site_t *site, int s, long niters, int exact)
{
    const char *want;
    char cut[PAPTRACE_REASON_LEN];
    long k, d = 0;

    for (k = 0; k < niters; k++) {
        if ((want = synth_reason(s, (int)k)) == NULL)
            continue;
        if (!check(d < site->ndecisions, "site %d: decision of call %ld missing (%ld read)", s, k,
                   site->ndecisions))
            return;
        snprintf(cut, sizeof cut, "%s", want);
        if (strlen(want) >= sizeof cut)
            memcpy(cut + sizeof cut - 4, "...", 3);
        check(
            site->decisions[d].iter == k && site->decisions[d].algo == (int)k % papcoll_algo_count(site->op),
            "site %d decision %ld: call %d algo %d", s, d, site->decisions[d].iter, site->decisions[d].algo);
        check(strcmp(site->decisions[d].reason, cut) == 0 && site->decisions[d].detail[0] == '\0',
              "site %d call %ld: reason '%s' detail '%s'", s, k, site->decisions[d].reason,
              site->decisions[d].detail);
        d++;
    }
    check(exact ? d == site->ndecisions : d <= site->ndecisions, "site %d: %ld decisions read, %ld expected",
          s, site->ndecisions, d);
}

/* The rows of site s: every value bit for bit. */
static void check_rows(const paptrace_file_t *f, int s)
{
    const paptrace_site_t *site = paptrace_find_site(f, site_names[s]);
    papcoll_rank_record_t ranks[P];
    papcoll_record_t rec;
    pm_call_t call;
    long k;
    int i;

    if (!check(site != NULL, "site '%s' missing", site_names[s]))
        return;
    check(site->site_id == s && site->op == (s ? PAPCOLL_OP_SCATTER : PAPCOLL_OP_GATHER), "site %d id/op", s);
    check(site->niters == niters[s] && site->nranks == P, "site %d: %ld iterations", s, site->niters);
    check(site->count == 1024 * (s + 1) && strcmp(site->datatype, s == 1 ? "MPI_INT" : "MPI_FLOAT") == 0,
          "site %d: count %lld datatype %s", s, site->count, site->datatype);
    for (k = 0; k < site->niters && k < niters[s]; k++) {
        const paptrace_iter_t *it = &site->iters[k];

        synth_record(s, (int)k, ranks, &rec);
        check(it->iter == rec.iter && it->algo == rec.algo && it->root == rec.root && it->bytes == rec.bytes &&
                  same(it->plan_time, rec.plan_time),
              "site %d iter %ld row", s, k);
        call = paptrace_call(ranks, P);
        check(same(it->runtime, pm_runtime(&call)) && same(it->elapsed, pm_elapsed(&call)),
              "site %d iter %ld run/elapsed", s, k);
        for (i = 0; i < P; i++)
            check(memcmp(&site->ranks[k * P + i], &ranks[i], sizeof ranks[i]) == 0, "site %d iter %ld rank %d", s,
                  k, i);
    }
}

static void check_site(const paptrace_file_t *f, int s)
{
    const paptrace_site_t *site = paptrace_find_site(f, site_names[s]);

    if (site != NULL && f->has_decisions)
        check_decisions(site, s, niters[s], 1);
    else if (site != NULL)
        check(site->ndecisions == 0 && site->decisions == NULL, "site %d: decisions in a schema-1 file", s);
    check_rows(f, s);
}

static void test_round_trip(void)
{
    char path[] = "/tmp/test_trace_XXXXXX", err[512];
    paptrace_file_t *f = NULL;
    int fd = mkstemp(path), rc;

    unit_name = "test_trace round trip";
    if (!check(fd >= 0, "mkstemp"))
        return;
    close(fd);
    if (write_trace(path) == 0) {
        rc = paptrace_read(path, &f, err, sizeof err);
        if (check(rc == PAPTRACE_OK, "paptrace_read: %s", err)) {
            check(f->nsites == 2, "%d sites", f->nsites);
            check_meta(f, PAPTRACE_SCHEMA_VERSION);
            check_site(f, 0);
            check_site(f, 1);
            paptrace_file_free(&f);
        }
    }
    unlink(path);
}

/* The per-call metrics on papcoll's records, NaN ranks skipped. */
static void test_call_metrics(void)
{
    papcoll_rank_record_t r[P] = {{0, 0, 0, 1.0, 2.0, 0},
                                  {0, 0, 0, 1.5, 2.5, 0},
                                  {0, 0, 0, NAN, NAN, 0},
                                  {0, 0, 0, 0.75, 3.0, 0},
                                  {0, 0, 0, 2.0, 2.25, 0}};
    pm_call_t c = paptrace_call(r, P), none = paptrace_call(&r[2], 1);

    check(pm_imbalance(&c) == 1.25, "imbalance %g", pm_imbalance(&c));
    check(pm_runtime(&c) == 2.25, "runtime %g", pm_runtime(&c));
    check(pm_elapsed(&c) == 1.125, "elapsed %g", pm_elapsed(&c));
    check(pm_first_arrival(&c) == 0.75, "first arrival %g", pm_first_arrival(&c));
    check(isnan(pm_runtime(&none)) && isnan(pm_elapsed(&none)) && isnan(pm_imbalance(&none)) &&
              isnan(pm_first_arrival(&none)),
          "metrics of a rank without times");
    check(pm_absorption(2.0, 2.25, 1.25) == 1.0, "absorption %g", pm_absorption(2.0, 2.25, 1.25));
    check(pm_efficiency(1.5, 2.0) == 0.75 && isnan(pm_efficiency(1.0, 0.0)) && isnan(pm_efficiency(1.0, NAN)),
          "efficiency");
}

/* The same call as papbench (pairs) and fft (rank-major records of 3 fields) hold it. */
static void test_strided(void)
{
    const double a[3] = {4.0, 3.5, 5.0}, f[3] = {6.0, 6.5, 5.5};
    double pairs[6], rec[3 * 2 * 3];
    int i;

    for (i = 0; i < 3; i++) {
        pairs[2 * i] = a[i];
        pairs[2 * i + 1] = f[i];
        /* Iteration 1 of 2, rank i: record (i * 2 + 1); iteration 0 holds noise. */
        rec[(i * 2 + 0) * 3 + 0] = rec[(i * 2 + 0) * 3 + 1] = rec[(i * 2 + 0) * 3 + 2] = 100.0 + i;
        rec[(i * 2 + 1) * 3 + 0] = a[i];
        rec[(i * 2 + 1) * 3 + 1] = f[i];
        rec[(i * 2 + 1) * 3 + 2] = -1.0;
    }
    {
        pm_call_t views[3] = {{a, f, 3, sizeof(double)},
                              {&pairs[0], &pairs[1], 3, 2 * sizeof(double)},
                              {&rec[3], &rec[4], 3, 2 * 3 * sizeof(double)}};

        for (i = 0; i < 3; i++)
            check(pm_runtime(&views[i]) == 3.0 && pm_elapsed(&views[i]) == 5.5 / 3 &&
                      pm_imbalance(&views[i]) == 1.5 && pm_first_arrival(&views[i]) == 3.5,
                  "layout %d: r %g e %g I %g", i, pm_runtime(&views[i]), pm_elapsed(&views[i]),
                  pm_imbalance(&views[i]));
    }
}

/* Mean, median, standard deviation and the t-based 95% interval of a sample. */
static void test_stats(void)
{
    const double x[5] = {10, 1, 4, 3, 2}, even[4] = {4, 1, 3, 2};
    double half = 2.776 * sqrt(12.5) / sqrt(5.0);
    pm_stats_t st;
    int rc;

    rc = pm_stats(x, 5, &st);
    check(rc == 0 && st.n == 5 && st.mean == 4.0 && st.median == 3.0 && st.min == 1.0 && st.max == 10.0,
          "stats n %d mean %g median %g", st.n, st.mean, st.median);
    check(fabs(st.stddev - sqrt(12.5)) < 1e-12 && fabs(st.ci_lo - (4.0 - half)) < 1e-12 &&
              fabs(st.ci_hi - (4.0 + half)) < 1e-12,
          "sd %g ci [%g, %g]", st.stddev, st.ci_lo, st.ci_hi);
    rc = pm_stats(even, 4, &st);
    check(rc == 0 && st.median == 2.5, "median of 4: %g", st.median);
    rc = pm_stats(x, 0, &st);
    check(rc == -1 && st.n == 0, "empty sample");
    check(pm_t95(2) == 12.706 && pm_t95(31) == 1.96, "t95");
}

static void test_autocorr(void)
{
    double up[5] = {1, 2, 3, 4, 5}, flat[4] = {2, 2, 2, 2}, alt[6] = {1, -1, 1, -1, 1, -1}, acf[5];
    double want_up[5] = {0.4, -0.1, -0.4, -0.4, NAN};
    int h;

    pm_autocorr(up, 5, 5, acf);
    for (h = 0; h < 5; h++)
        check(isnan(want_up[h]) ? isnan(acf[h]) : fabs(acf[h] - want_up[h]) < 1e-15, "acf(1..5) lag %d: %g",
              h + 1, acf[h]);
    pm_autocorr(flat, 4, 2, acf);
    check(isnan(acf[0]) && isnan(acf[1]), "constant series gives NaN");
    /* Alternating: mean 0, var 6; lag 1 sum -5 -> -5/6; lag 2 sum 4 -> 2/3. */
    pm_autocorr(alt, 6, 2, acf);
    check(fabs(acf[0] + 5.0 / 6) < 1e-15 && fabs(acf[1] - 4.0 / 6) < 1e-15, "alternating acf %g %g", acf[0],
          acf[1]);
}

static void test_metrics(void)
{
    unit_name = "test_trace metrics";
    test_call_metrics();
    test_strided();
    test_stats();
    test_autocorr();
}

/*
 * Three calls of a 3-rank gather, one rank at a time late by 0, 2, 4 ms;
 * algo 1 for every call, bytes 1000, alpha 1 ms, beta 0: c = 1 ms,
 * t(pi) = (P-1)c = 2 ms.
 */
static void test_group_stats(void)
{
    papcoll_rank_record_t ranks[9];
    paptrace_iter_t iters[3];
    paptrace_site_t s = {.name = "g", .op = PAPCOLL_OP_GATHER, .nranks = 3, .niters = 3, .iters = iters,
                         .ranks = ranks};
    pt_model_t m = {{1e-3, 0.0, 0.0}, "test", NAN};
    const double late[3] = {0, 2e-3, 4e-3}, run[3] = {3e-3, 4e-3, 6e-3};
    pt_group_t g;
    int k, i;

    unit_name = "test_trace group stats";
    for (k = 0; k < 3; k++) {
        for (i = 0; i < 3; i++) {
            double a = 1.0 + (i == 2 ? late[k] : 0.0);

            ranks[k * 3 + i] = (papcoll_rank_record_t){NAN, NAN, NAN, a, 1.0 + run[k], NAN};
        }
        iters[k] = (paptrace_iter_t){k, 1, 0, 1000, NAN, run[k], 0};
    }
    if (!check(pt_group_stats(&s, 1, 0, &m, &g) == 0, "pt_group_stats"))
        return;
    check(g.n == 3 && g.n_acf == 3, "calls %ld %ld", g.n, g.n_acf);
    check(fabs(g.imbalance.mean - 2e-3) < 1e-12 && fabs(g.imbalance.median - 2e-3) < 1e-12 &&
              fabs(g.imbalance.max - 4e-3) < 1e-12,
          "imbalance mean %g median %g max %g", g.imbalance.mean, g.imbalance.median, g.imbalance.max);
    check(fabs(g.runtime.mean - 13e-3 / 3) < 1e-12, "runtime mean %g", g.runtime.mean);
    /* A = t(pi) - r + I = 2-3+0, 2-4+2, 2-6+4 ms = -1, 0, 0 ms. */
    check(fabs(g.absorption.mean + 1e-3 / 3) < 1e-12 && fabs(g.absorption.min + 1e-3) < 1e-12,
          "absorption mean %g min %g", g.absorption.mean, g.absorption.min);
    /* LB: leaves at 1 and 1+late, c = 1 ms: max(1+c, 1+late)+c - 1 = 2, 3, 5 ms. */
    check(fabs(g.efficiency.min - 2.0 / 3) < 1e-9 && fabs(g.efficiency.max - 5.0 / 6) < 1e-9,
          "efficiency min %g max %g", g.efficiency.min, g.efficiency.max);
    /* Rank 2's offsets 0, 2, 4 ms: lag 1 = ((-2)(0) + (0)(2)) / 8 = 0; ranks 0, 1 are constant. */
    check(fabs(g.acf[2 * PT_LAGS]) < 1e-12 && isnan(g.acf[0]) && isnan(g.acf[2 * PT_LAGS + 2]),
          "acf rank 2 lag 1 %g", g.acf[2 * PT_LAGS]);
    pt_group_free(&g);
}

/* A file of the schema-1 writer (papcoll 0.1's test_trace --write): the same calls, no decisions. */
static void test_schema1(const char *path)
{
    paptrace_file_t *f = NULL;
    char err[512];
    int rc;

    unit_name = "test_trace schema 1";
    rc = paptrace_read(path, &f, err, sizeof err);
    if (!check(rc == PAPTRACE_OK, "paptrace_read: %s", err))
        return;
    check(f->nsites == 2, "%d sites", f->nsites);
    check_meta(f, 1);
    check_site(f, 0);
    check_site(f, 1);
    paptrace_file_free(&f);
}

static void test_errors(void)
{
    char err[512];
    paptrace_file_t *f = NULL;

    unit_name = "test_trace errors";
    check(paptrace_read("/nonexistent/trace.h5", &f, err, sizeof err) == PAPTRACE_ERR_NOFILE && f == NULL,
          "missing file: %s", err);
    check(strstr(err, "/nonexistent/trace.h5") != NULL, "error names the file: %s", err);
    check(paptrace_read("/proc/self/exe", &f, err, sizeof err) == PAPTRACE_ERR_NOTHDF5, "not HDF5: %s", err);
    check(paptrace_read("/tmp", &f, err, sizeof err) == PAPTRACE_ERR_NOFILE, "directory: %s", err);
}

#define CRASH_LATE 20       /* site 2 starts with round 20 */
#define CRASH_FLUSHES 6     /* kill after this many flushes of site 0 */

/* The child: writes rounds of records until killed, reporting each flush on fd. */
static void crash_child(const char *path, int fd)
{
    paptrace_meta_t meta = {"crash", 5, argv_w, config, FLUSH};
    paptrace_run_t run = {P, hosts, pids, "none", "synthetic"};
    papcoll_rank_record_t ranks[P];
    papcoll_record_t rec;
    papcoll_sink_t sink;
    paptrace_t *t;
    int k, s, n;

    if (paptrace_create(path, &meta, &run, &t) != PAPTRACE_OK)
        _exit(3);
    sink = paptrace_sink(t);
    for (k = 0;; k++)
        for (s = 0; s < 3; s++) {
            if (s == 2 && k < CRASH_LATE)
                continue;
            n = s == 2 ? k - CRASH_LATE : k;
            synth_record(s, n, ranks, &rec);
            if (sink.record(sink.arg, &rec) != 0)
                _exit(4);
            if ((n + 1) % FLUSH == 0)
                dprintf(fd, "%d %d\n", s, n + 1);
            nanosleep(&(struct timespec){0, 200000}, NULL);
        }
}

/* Every row of site s in f equals the synthetic one; at least flushed rows. */
static void crash_check_site(const paptrace_file_t *f, int s, int flushed)
{
    const paptrace_site_t *site = paptrace_find_site(f, site_names[s]);
    papcoll_rank_record_t ranks[P];
    papcoll_record_t rec;
    long k;

    if (!check(site != NULL || flushed == 0, "site %d missing after %d flushed iterations", s, flushed) ||
        site == NULL)
        return;
    check(site->niters >= flushed, "site %d: %ld iterations in the file, %d flushed", s, site->niters, flushed);
    for (k = 0; k < site->niters; k++) {
        synth_record(s, (int)k, ranks, &rec);
        check(site->iters[k].iter == k && memcmp(&site->ranks[k * P], ranks, sizeof ranks) == 0,
              "site %d iteration %ld of %ld differs (flushed %d)", s, k, site->niters, flushed);
    }
    /* Decisions of unflushed calls may be missing; none of a call without rows is kept. */
    check_decisions(site, s, flushed, 0);
    check(site->ndecisions == 0 || site->decisions[site->ndecisions - 1].iter < site->niters,
          "site %d: a decision of call %d, %ld calls readable", s,
          site->ndecisions ? site->decisions[site->ndecisions - 1].iter : -1, site->niters);
}

/* Runs the child, kills it, checks the file.  flushed[s]: iterations reported flushed. */
static void crash_run(const char *path, int flushed[3])
{
    char line[64], err[512];
    paptrace_file_t *f = NULL;
    int fds[2], s, n, status;
    FILE *in;
    pid_t pid;

    flushed[0] = flushed[1] = flushed[2] = 0;
    if (!check(pipe(fds) == 0, "pipe"))
        return;
    if ((pid = fork()) == 0) {
        close(fds[0]);
        crash_child(path, fds[1]);
    }
    close(fds[1]);
    in = fdopen(fds[0], "r");
    while (in != NULL && fgets(line, sizeof line, in) != NULL && flushed[0] < CRASH_FLUSHES * FLUSH)
        if (sscanf(line, "%d %d", &s, &n) == 2 && s >= 0 && s < 3)
            flushed[s] = n;
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
    if (in != NULL)
        fclose(in);
    check(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, "writer was killed (status %d)", status);
    check(flushed[2] > 0, "the late site was flushed before the kill");
    if (!check(paptrace_read(path, &f, err, sizeof err) == PAPTRACE_OK, "reading the killed job's file: %s", err))
        return;
    for (s = 0; s < 3; s++)
        crash_check_site(f, s, flushed[s]);
    paptrace_file_free(&f);
}

static void test_crash(const char *keep)
{
    char path[] = "/tmp/test_trace_crash_XXXXXX";
    int flushed[3], fd = -1, s;

    unit_name = "test_trace crash";
    if (keep == NULL && !check((fd = mkstemp(path)) >= 0, "mkstemp"))
        return;
    if (fd >= 0)
        close(fd);
    crash_run(keep ? keep : path, flushed);
    for (s = 0; keep != NULL && s < 3; s++)
        printf("flushed %s %d\n", site_names[s], flushed[s]);
    if (keep == NULL)
        unlink(path);
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--crash") == 0) {
        test_crash(argv[2]);
        return unit_summary();
    }
    if (argc == 3 && strcmp(argv[1], "--write") == 0) {
        unit_name = "test_trace write";
        write_trace(argv[2]);
        return unit_summary();
    }
    if (argc == 3 && strcmp(argv[1], "--schema1") == 0) {
        test_schema1(argv[2]);
        return unit_summary();
    }
    if (argc != 1) {
        fprintf(stderr, "usage: test_trace [--crash FILE | --write FILE | --schema1 FILE]\n");
        return 2;
    }
    test_round_trip();
    test_metrics();
    test_group_stats();
    test_errors();
    test_crash(NULL);
    unit_name = "test_trace";
    return unit_summary();
}
