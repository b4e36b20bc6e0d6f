/*
 * paptrace chrome: the trace as Chrome / Perfetto trace-event JSON (load it
 * in ui.perfetto.dev or chrome://tracing).  One track per rank; per call one
 * slice for the compute phase (processing start to end, the edge as an
 * instant) and one for the collective (arrival to exit).  The records are
 * already on papcoll's global clock (every rank's clock moved onto rank 0's,
 * offset and drift corrected when the call was recorded), so the tracks line
 * up; times start at the earliest timestamp of the selected sites.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "output.h"
#include "paptrace_cli.h"

static double earliest(const paptrace_site_t *const *list, int n)
{
    double t0 = INFINITY;
    long k;
    int j;

    for (j = 0; j < n; j++)
        for (k = 0; k < list[j]->niters * list[j]->nranks; k++) {
            const papcoll_rank_record_t *r = &list[j]->ranks[k];
            double v[3] = {r->compute_start, r->edge, r->arrival};
            int m;

            for (m = 0; m < 3; m++)
                if (!isnan(v[m]) && v[m] < t0)
                    t0 = v[m];
        }
    return isinf(t0) ? 0.0 : t0;
}

static void metadata(json_t *j, const paptrace_file_t *f)
{
    char name[512];
    int i;

    json_begin_object(j, NULL);
    json_string(j, "name", "process_name");
    json_string(j, "ph", "M");
    json_int(j, "pid", 0);
    json_begin_object(j, "args");
    snprintf(name, sizeof name, "%s (%d ranks)", f->program, f->nranks);
    json_string(j, "name", name);
    json_end(j);
    json_end(j);
    for (i = 0; i < f->nranks; i++) {
        json_begin_object(j, NULL);
        json_string(j, "name", "thread_name");
        json_string(j, "ph", "M");
        json_int(j, "pid", 0);
        json_int(j, "tid", i);
        json_begin_object(j, "args");
        snprintf(name, sizeof name, "rank %d (%s)", i, f->hosts[i]);
        json_string(j, "name", name);
        json_end(j);
        json_end(j);
    }
}

/* A complete event ("X") from a to b (s) on rank's track; skipped when a time is missing. */
static void slice(json_t *j, const char *name, const char *cat, int rank, double a, double b, double t0,
                  const paptrace_site_t *s, const paptrace_iter_t *it)
{
    if (isnan(a) || isnan(b) || b < a)
        return;
    json_begin_object(j, NULL);
    json_string(j, "name", name);
    json_string(j, "cat", cat);
    json_string(j, "ph", "X");
    json_number(j, "ts", (a - t0) * 1e6);
    json_number(j, "dur", (b - a) * 1e6);
    json_int(j, "pid", 0);
    json_int(j, "tid", rank);
    json_begin_object(j, "args");
    json_string(j, "site", s->name);
    json_int(j, "iter", it->iter);
    json_int(j, "root", it->root);
    json_int(j, "bytes", it->bytes);
    json_end(j);
    json_end(j);
}

static void edge(json_t *j, int rank, double t, double t0)
{
    if (isnan(t))
        return;
    json_begin_object(j, NULL);
    json_string(j, "name", "edge");
    json_string(j, "ph", "i");
    json_string(j, "s", "t");
    json_number(j, "ts", (t - t0) * 1e6);
    json_int(j, "pid", 0);
    json_int(j, "tid", rank);
    json_end(j);
}

static void site_events(json_t *j, const paptrace_file_t *f, const paptrace_site_t *s, double t0)
{
    char coll[256], comp[256];
    long k;
    int i;

    snprintf(comp, sizeof comp, "compute (%s)", s->name);
    for (k = 0; k < s->niters; k++) {
        const paptrace_iter_t *it = &s->iters[k];

        snprintf(coll, sizeof coll, "%s %s", s->name, paptrace_algo_name(f, s->op, it->algo));
        for (i = 0; i < s->nranks; i++) {
            const papcoll_rank_record_t *r = &s->ranks[k * s->nranks + i];

            slice(j, comp, "compute", i, r->compute_start, r->compute_end, t0, s, it);
            edge(j, i, r->edge, t0);
            slice(j, coll, papcoll_op_name(s->op), i, r->arrival, r->exit, t0, s, it);
        }
    }
}

int pt_cmd_chrome(const paptrace_file_t *f, const pt_opts_t *o, FILE *out, char *err, size_t errlen)
{
    const paptrace_site_t **list;
    json_t j;
    double t0;
    int n, m, rc;

    if (pt_select_sites(f, o, &list, &n, err, errlen) != 0)
        return -1;
    t0 = earliest(list, n);
    json_open(&j, out);
    json_begin_object(&j, NULL);
    json_string(&j, "displayTimeUnit", "ms");
    json_begin_array(&j, "traceEvents");
    metadata(&j, f);
    for (m = 0; m < n; m++)
        site_events(&j, f, list[m], t0);
    json_end(&j);
    json_end(&j);
    rc = json_finish(&j);
    free(list);
    if (rc != 0)
        snprintf(err, errlen, "writing the JSON output failed");
    return rc;
}
