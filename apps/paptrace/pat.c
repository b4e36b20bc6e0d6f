/*
 * paptrace pat: the arrival pattern of one call site as papbench's replay
 * file (--pattern replay:FILE, docs/papbench.md): one line per call, P
 * whitespace-separated delays in seconds, each rank's arrival minus the
 * call's earliest arrival.  Calls where some rank has no arrival cannot be
 * replayed and become comment lines.
 */
#include <math.h>
#include <stdlib.h>

#include "paptrace_cli.h"

/* The --site one, or the only one. */
static const paptrace_site_t *one_site(const paptrace_file_t *f, const pt_opts_t *o, char *err, size_t errlen)
{
    const paptrace_site_t **list, *s = NULL;
    int n;

    if (pt_select_sites(f, o, &list, &n, err, errlen) != 0)
        return NULL;
    if (n == 1)
        s = list[0];
    else if (n == 0)
        snprintf(err, errlen, "the trace has no call site");
    else
        snprintf(err, errlen, "the trace has %d call sites: choose one with --site NAME (see paptrace info)", n);
    free(list);
    return s;
}

static void pat_line(FILE *out, const paptrace_site_t *s, long k)
{
    const papcoll_rank_record_t *r = &s->ranks[k * s->nranks];
    double lo = INFINITY;
    int i;

    for (i = 0; i < s->nranks; i++) {
        if (isnan(r[i].arrival)) {
            fprintf(out, "# call %d skipped: rank %d has no arrival\n", s->iters[k].iter, i);
            return;
        }
        lo = r[i].arrival < lo ? r[i].arrival : lo;
    }
    for (i = 0; i < s->nranks; i++)
        fprintf(out, "%s%.9f", i ? " " : "", r[i].arrival - lo);
    fputc('\n', out);
}

int pt_cmd_pat(const paptrace_file_t *f, const pt_opts_t *o, FILE *out, char *err, size_t errlen)
{
    const paptrace_site_t *s = one_site(f, o, err, errlen);
    long k;

    if (s == NULL)
        return -1;
    if (o->skip >= s->niters && s->niters > 0) {
        snprintf(err, errlen, "--skip %ld leaves none of the %ld calls of site '%s'", o->skip, s->niters,
                 s->name);
        return -1;
    }
    fprintf(out, "# paptrace pat: site '%s' of %s (%d ranks), %ld calls%s; delays in seconds from each call's "
                 "earliest arrival\n",
            s->name, f->program, s->nranks, s->niters, o->skip > 0 ? " (first ones skipped by --skip)" : "");
    for (k = o->skip > 0 ? o->skip : 0; k < s->niters; k++)
        pat_line(out, s, k);
    return 0;
}
