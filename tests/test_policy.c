/*
 * Serial test of paptrace policy (apps/paptrace/policy.c) on a tiny
 * hand-made papbench trace: P = 2, entries ls, sls and auto, one warm-up
 * call, a 4-row replay file of two phases (balanced rows 0-1, single rows
 * 2-3), run times chosen so that every number of the report is known:
 *
 *   phase 0 (calls 1, 4, 5, 8): ls 1 ms, sls 2 ms, auto 1.02 ms -> best ls, auto 1.020
 *   phase 1 (calls 2, 3, 6, 7): ls 10 ms, sls 4 ms, auto 4.1 ms  -> best sls, auto 1.025
 *   totals: ls 44 ms, sls 24 ms, auto 20.48 ms -> auto / sls 0.853, goal met
 *   per-phase oracle: ls then sls, 20 ms = 0.833 of sls, 4 ms (16.7 %) to
 *   gain
 *   auto's decisions at calls 0 (the warm-up), 2 and 5 -> 2 measured
 *   switches; plan_time 2 us on every call.
 * Then a replay file that is not the replayed one must be refused.  Well
 * under a second.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../apps/paptrace/paptrace_cli.h"
#include "paptrace.h"
#include "patfile.h"
#include "unit.h"

#define P 2
#define CALLS 9
static const char *const names[3] = {"papbench-ls", "papbench-sls", "papbench-auto"};

/* Run time (s) of entry e at call k, whose replay row is k mod 4 (no calibration). */
static double runtime(int e, int k)
{
    static const double ms[3][2] = {{1, 10}, {2, 4}, {1.02, 4.1}};

    return 1e-3 * ms[e][(k % 4) >= 2];
}

/* auto's decisions: a switch recorded at calls 0 (the warm-up), 2 and 5. */
static const char *reason(int e, int k)
{
    if (e == 2)
        return k == 0   ? "auto: base algorithm by model cost"
               : k == 2 ? "auto: imbalance above threshold, sorted variant"
               : k == 5 ? "auto: base algorithm by model cost"
                        : NULL;
    return k == 0 ? "policy fixed" : NULL;
}

static const char *detail(int e, int k)
{
    if (e != 2)
        return NULL;
    return k == 0   ? "policy=auto P=2 ratio=0"
           : k == 2 ? "policy=auto P=2 ratio=0.5"
           : k == 5 ? "policy=auto P=2 ratio=0"
                    : NULL;
}

static int write_trace(const char *path, const char *config)
{
    char *argv_w[] = {"papbench"};
    const char *hosts[P] = {"a", "b"};
    const long long pids[P] = {1, 2};
    paptrace_meta_t meta = {"papbench", 1, argv_w, config, 0};
    paptrace_run_t run = {P, hosts, pids, "Test MPI", "synthetic"};
    papcoll_rank_record_t ranks[P];
    papcoll_record_t rec;
    papcoll_sink_t sink;
    paptrace_t *t;
    int k, e, i;

    if (paptrace_create(path, &meta, &run, &t) != PAPTRACE_OK)
        return -1;
    sink = paptrace_sink(t);
    for (k = 0; k < CALLS; k++)
        for (e = 0; e < 3; e++) {
            for (i = 0; i < P; i++)
                ranks[i] = (papcoll_rank_record_t){k, k, k, k, k + (i ? runtime(e, k) : 0), NAN};
            rec = (papcoll_record_t){e, names[e], PAPCOLL_OP_GATHER, k,    0, reason(e, k), 0,
                                     8, 2,        "MPI_FLOAT",       2e-6, P, ranks,        detail(e, k)};
            if (sink.record(sink.arg, &rec) != 0)
                return -1;
        }
    return paptrace_finish(&t) == PAPTRACE_OK ? 0 : -1;
}

/* The report of policy on trace with pat, into out (0 or the command's -1, err filled). */
static int report(const char *trace, const char *pat, char *out, size_t len, char *err)
{
    pt_opts_t o = {.pat = pat};
    paptrace_file_t *f = NULL;
    FILE *m = fmemopen(out, len, "w");
    int rc;

    if (m == NULL || paptrace_read(trace, &f, err, 256) != PAPTRACE_OK)
        return -2;
    rc = pt_cmd_policy(f, &o, m, err, 256);
    fclose(m);
    paptrace_file_free(&f);
    return rc;
}

int main(void)
{
    char dir[] = "/tmp/test_policy.XXXXXX", trace[96], pat[96], other[96], config[256], out[8192], err[256];
    patfile_t pf;
    FILE *w;

    unit_name = "test_policy";
    paptrace_reader_only();
    if (mkdtemp(dir) == NULL)
        return 2;
    snprintf(trace, sizeof trace, "%s/run.h5", dir);
    snprintf(pat, sizeof pat, "%s/p.pat", dir);
    snprintf(other, sizeof other, "%s/o.pat", dir);
    w = fopen(pat, "w");
    fputs("# phase 0 balanced first=0 count=2\n0 0\n0 0\n# phase 1 single first=2 count=2\n0 0.01\n0 0.01\n",
          w);
    fclose(w);
    w = fopen(other, "w");
    fputs("0 0\n0 0\n0 0.02\n0 0.02\n", w);
    fclose(w);
    check(patfile_read(pat, "replay file", P, &pf, err, sizeof err) == 0, "patfile_read: %s", err);
    snprintf(config, sizeof config,
             "[papbench]\ncalibrate = 0\nwarmup = 1\n# replay file: %ld lines, digest %016llx\n", pf.nrows,
             (unsigned long long)pf.hash);
    patfile_free(&pf);
    check(write_trace(trace, config) == 0, "writing the trace");

    check(report(trace, pat, out, sizeof out, err) == 0, "policy: %s", err);
    check(strstr(out, "8 measured calls per entry (after 0 calibration and 1 warm-up calls)") != NULL,
          "header\n%s", out);
    check(strstr(out, "0     balanced        4     1.000     2.000     1.020  ls                   1.020 ") !=
              NULL,
          "phase 0 row\n%s", out);
    check(strstr(out, "1     single          4    10.000     4.000     4.100  sls                  1.025 ") !=
              NULL,
          "phase 1 row\n%s", out);
    check(strstr(out, "auto / fixed: ls 0.465 sls 0.853  (goal < 1 against every one: met)") != NULL,
          "totals\n%s", out);
    check(strstr(out, "  0:ls 1:sls\n  total 0.0200 s = 0.833 of the best fixed total (sls): switching per "
                      "phase can gain at most 16.7 % (0.004 s) over it\n") != NULL,
          "oracle\n%s", out);
    check(strstr(out, "auto: 8 measured calls, 2 switches, decision time (plan_time) median 2.0 us") != NULL,
          "switches\n%s", out);
    check(strstr(out,
                 "policy: op=gather policy=auto phases_within_goal=2/2 worst_phase_ratio=1.0250 "
                 "best_fixed_total=sls total_ratio=0.8533 phases_clearly_met=2 phases_clearly_missed=0") !=
              NULL,
          "summary line\n%s", out);
    /* Constant run times per phase: each resample's ratio is the phase's own. */
    check(strstr(out, "0     balanced    1.020 [1.020, 1.020] met") != NULL, "phase 0 interval\n%s", out);
    check(strstr(out, "1     single      1.025 [1.025, 1.025] met") != NULL, "phase 1 interval\n%s", out);
    {
        /* The whole run mixes the phases' rounds: auto/sls 0.51 (phase 0) to 1.025 (phase 1). */
        const char *w = strstr(out, "  auto              0.853 [");
        double lo = NAN, hi = NAN;
        char v[8] = "";

        check(w != NULL && sscanf(w, "  auto 0.853 [%lf, %lf] %7s", &lo, &hi, v) == 3 && lo <= 0.853 &&
                  hi >= 0.853 && lo > 0.51 && hi < 1 && strcmp(v, "met") == 0,
              "whole-run interval [%g, %g] %s\n%s", lo, hi, v, out);
    }

    check(report(trace, other, out, sizeof out, err) == -1 &&
              strstr(err, "is not the file the run replayed") != NULL,
          "a file the run did not replay must be refused: %s", err);
    unlink(trace);
    unlink(pat);
    unlink(other);
    rmdir(dir);
    return unit_summary();
}
