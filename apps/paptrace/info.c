/*
 * paptrace info: run metadata and the call sites.
 */
#include <math.h>
#include <string.h>

#include "paptrace_cli.h"

static void print_indented(FILE *out, const char *text)
{
    const char *p = text, *nl;

    while (*p) {
        nl = strchr(p, '\n');
        fprintf(out, "    %.*s\n", nl ? (int)(nl - p) : (int)strlen(p), p);
        p = nl ? nl + 1 : p + strlen(p);
    }
}

static void print_run(const paptrace_file_t *f, FILE *out)
{
    const char *nl = strchr(f->mpi_library, '\n');
    int i;

    fprintf(out, "schema version   %d\n", f->schema_version);
    fprintf(out, "program          %s\n", f->program);
    fprintf(out, "command line    ");
    for (i = 0; i < f->argc; i++)
        fprintf(out, " %s", f->argv[i]);
    fprintf(out, "\nranks            %d\n", f->nranks);
    fprintf(out, "started (UTC)    %s\n", f->start_utc);
    fprintf(out, "papcoll version  %s\n", f->version);
    fprintf(out, "MPI library      %.*s\n", nl ? (int)(nl - f->mpi_library) : (int)strlen(f->mpi_library),
            f->mpi_library);
    fprintf(out, "HDF5 (writer)    %s\n", f->hdf5_version);
    fprintf(out, "flush every      %d iterations\n", f->flush_every);
    fprintf(out, "clock            %s\n", f->clock_method);
    fprintf(out, "configuration%s\n", f->config[0] ? ":" : "   none given");
    print_indented(out, f->config);
}

/* Hosts, pids and the last clock estimate of every rank. */
static void print_ranks(const paptrace_file_t *f, FILE *out)
{
    const paptrace_clock_row_t *c = f->nclock > 0 ? &f->clock[(f->nclock - 1) * f->nranks] : NULL;
    int i;

    fprintf(out, "\nranks (clock: last of %ld samples)\n", f->nclock);
    fprintf(out, "  %5s  %-24s %10s %14s %12s %12s\n", "rank", "host", "pid", "offset_us", "drift_ppm",
            "error_us");
    for (i = 0; i < f->nranks; i++) {
        fprintf(out, "  %5d  %-24s %10lld", i, f->hosts[i], f->pids[i]);
        if (c != NULL)
            fprintf(out, " %14.3f %12.4f %12.3f", c[i].offset * 1e6, c[i].drift * 1e6, c[i].error * 1e6);
        fprintf(out, "\n");
    }
}

/* "ls x20 sls x20": the algorithms a site ran and how often. */
static void print_algos_used(const paptrace_file_t *f, const paptrace_site_t *s, FILE *out)
{
    int a, n = f->nalgos[s->op];
    long k, count;

    for (a = 0; a < n; a++) {
        for (count = 0, k = 0; k < s->niters; k++)
            count += s->iters[k].algo == a;
        if (count > 0)
            fprintf(out, " %s x%ld", paptrace_algo_name(f, s->op, a), count);
    }
}

static void print_sites(const paptrace_file_t *f, FILE *out)
{
    const paptrace_site_t *s;
    int i;

    fprintf(out, "\ncall sites (%d)\n", f->nsites);
    fprintf(out, "  %3s  %-24s %-8s %5s %12s %10s %-14s %8s  %s\n", "id", "name", "op", "root", "bytes",
            "count", "datatype", "calls", "algorithms");
    for (i = 0; i < f->nsites; i++) {
        s = &f->sites[i];
        fprintf(out, "  %3d  %-24s %-8s", s->site_id, s->name, papcoll_op_name(s->op));
        if (s->niters > 0)
            fprintf(out, " %5d %12lld", s->iters[0].root, s->iters[0].bytes);
        else
            fprintf(out, " %5s %12s", "-", "-");
        fprintf(out, " %10lld %-14s", s->count, s->datatype);
        fprintf(out, " %8ld ", s->niters);
        print_algos_used(f, s, out);
        fprintf(out, "\n");
    }
}

/* Per site: the calls that changed algorithm, and why. */
static void print_decisions(const paptrace_file_t *f, FILE *out)
{
    const paptrace_site_t *s;
    int i;

    fprintf(out, "\ndecisions (calls that ran another algorithm than the site's call before, and why)\n");
    if (!f->has_decisions) {
        fprintf(out, "  not recorded (schema %d file)\n", f->schema_version);
        return;
    }
    for (i = 0; i < f->nsites; i++) {
        s = &f->sites[i];
        fprintf(out, "  site %d '%s': %ld\n", s->site_id, s->name, s->ndecisions);
        pt_print_decisions(out, f, s, "    ");
    }
}

int pt_cmd_info(const paptrace_file_t *f, const pt_opts_t *o, FILE *out, char *err, size_t errlen)
{
    (void)o;
    (void)err;
    (void)errlen;
    print_run(f, out);
    print_ranks(f, out);
    print_sites(f, out);
    print_decisions(f, out);
    return 0;
}
