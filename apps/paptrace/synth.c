/*
 * paptrace synth: a designed, phase-alternating arrival pattern as
 * papbench's replay file (--pattern replay:FILE, docs/papbench.md), the
 * workload of the policy benchmark (issue 13, docs/results/policies.md).
 *
 * --phases is a list of KIND:N items, N rows (iterations) each, in order:
 *   balanced     every delay 0
 *   uniform      U(0, maxdelay) per rank, drawn from the stream (seed, row)
 *   single       --late-rank late by maxdelay, the others 0
 *   drift        one rank late by maxdelay; it starts at --late-rank and moves
 *                to the next rank every --drift-every rows
 *   @FILE        the rows of a replay file (e.g. written by paptrace pat from
 *                a real run), cycled from its first row
 * Before the rows of each phase a comment line records the boundary:
 *   # phase I KIND first=ROW count=N ...   (KIND of an @FILE phase: @ and the file's base name)
 * ROW counts data rows from 0; paptrace policy reads these lines to
 * attribute each call to its phase.  The output is a pure function of the
 * options (and the @FILEs): the same seed gives the same file.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "paptrace_cli.h"
#include "patfile.h"
#include "rng.h"

typedef enum { PH_BALANCED, PH_UNIFORM, PH_SINGLE, PH_DRIFT, PH_FILE } phase_kind_t;

static const char *const kind_names[] = {"balanced", "uniform", "single", "drift", "file"};

typedef struct {
    phase_kind_t kind;
    long count;
    const char *path; /* PH_FILE: inside the item text */
    patfile_t pat;    /* PH_FILE: its rows */
} phase_t;

/* One KIND:N item into ph (kind names exact; @FILE read for P ranks): 0, -2 bad item, -1 bad file. */
static int parse_phase(char *item, int nranks, phase_t *ph, char *err, size_t errlen)
{
    char *colon = strrchr(item, ':');
    int k;

    memset(ph, 0, sizeof *ph);
    if (colon == NULL || cli_parse_long(colon + 1, 1, 100000000, &ph->count) != 0) {
        snprintf(err, errlen, "--phases: expected KIND:N with N >= 1 rows, got '%s'", item);
        return -2;
    }
    *colon = '\0';
    if (item[0] == '@') {
        ph->kind = PH_FILE;
        ph->path = item + 1;
        return patfile_read(ph->path, "replay file", nranks, &ph->pat, err, errlen);
    }
    for (k = 0; k < PH_FILE; k++)
        if (strcmp(item, kind_names[k]) == 0) {
            ph->kind = (phase_kind_t)k;
            return 0;
        }
    snprintf(err, errlen, "--phases: unknown kind '%s' (balanced, uniform, single, drift or @FILE)", item);
    return -2;
}

/* The delays (s) of row j of phase ph, global row index row, into d[]. */
static void phase_row(const phase_t *ph, const pt_opts_t *o, long j, long row, double *d)
{
    double maxd = 1e-3 * o->maxdelay_ms;
    const double *src;
    rng_t r;
    int i, late;

    for (i = 0; i < o->ranks; i++)
        d[i] = 0;
    switch (ph->kind) {
    case PH_BALANCED:
        break;
    case PH_UNIFORM:
        rng_init(&r, o->seed, (uint64_t)row);
        for (i = 0; i < o->ranks; i++)
            d[i] = maxd * rng_uniform(&r);
        break;
    case PH_SINGLE:
        d[o->late_rank] = maxd;
        break;
    case PH_DRIFT:
        late = (int)((o->late_rank + j / o->drift_every) % o->ranks);
        d[late] = maxd;
        break;
    case PH_FILE:
        src = patfile_row(&ph->pat, j);
        memcpy(d, src, (size_t)o->ranks * sizeof *d);
        break;
    }
}

/* The boundary comment of phase p, which starts at data row first. */
static void phase_header(FILE *out, const phase_t *ph, int p, long first, const pt_opts_t *o)
{
    const char *base = ph->path ? strrchr(ph->path, '/') : NULL;

    if (ph->kind == PH_FILE) /* the file's name is the kind: what the analysis shows */
        fprintf(out, "# phase %d @%s first=%ld count=%ld", p, base ? base + 1 : ph->path, first, ph->count);
    else
        fprintf(out, "# phase %d %s first=%ld count=%ld", p, kind_names[ph->kind], first, ph->count);
    if (ph->kind == PH_UNIFORM)
        fprintf(out, " maxdelay=%gms seed=%" PRIu64, o->maxdelay_ms, o->seed);
    else if (ph->kind == PH_SINGLE)
        fprintf(out, " late=%d delay=%gms", o->late_rank, o->maxdelay_ms);
    else if (ph->kind == PH_DRIFT)
        fprintf(out, " late=%d+row/%ld delay=%gms", o->late_rank, o->drift_every, o->maxdelay_ms);
    else if (ph->kind == PH_FILE)
        fprintf(out, " file=%s rows=%ld", ph->path, ph->pat.nrows);
    fputc('\n', out);
}

static int write_phases(FILE *out, const phase_t *ph, int n, const pt_opts_t *o, char *err, size_t errlen)
{
    double *d = malloc((size_t)o->ranks * sizeof *d);
    long row = 0, j;
    int p, i;

    if (d == NULL) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    fprintf(
        out,
        "# paptrace synth: %d ranks, phases %s, maxdelay %g ms, late rank %d, drift every %ld, seed %" PRIu64
        "; delays in seconds\n",
        o->ranks, o->phases, o->maxdelay_ms, o->late_rank, o->drift_every, o->seed);
    for (p = 0; p < n; p++) {
        phase_header(out, &ph[p], p, row, o);
        for (j = 0; j < ph[p].count; j++, row++) {
            phase_row(&ph[p], o, j, row, d);
            for (i = 0; i < o->ranks; i++)
                fprintf(out, "%s%.9f", i ? " " : "", d[i]);
            fputc('\n', out);
        }
    }
    free(d);
    return 0;
}

/* 0, -2 bad --phases or --late-rank (a bad command line), -1 unreadable @FILE or out of memory. */
int pt_cmd_synth(const pt_opts_t *o, FILE *out, char *err, size_t errlen)
{
    char **items = NULL;
    phase_t *ph = NULL;
    int n = 0, p, built = 0, rc = -1;

    if (o->late_rank >= o->ranks) {
        snprintf(err, errlen, "--late-rank %d: expected a rank in 0..%d", o->late_rank, o->ranks - 1);
        return -2;
    }
    if (cli_split(o->phases, ',', &items, &n) != 0 || n == 0) {
        snprintf(err, errlen, "--phases: expected a comma-separated list of KIND:N, got '%s'", o->phases);
        rc = -2;
        goto fail;
    }
    if ((ph = calloc((size_t)n, sizeof *ph)) == NULL) {
        snprintf(err, errlen, "out of memory");
        goto fail;
    }
    for (built = 0; built < n; built++)
        if ((rc = parse_phase(items[built], o->ranks, &ph[built], err, errlen)) != 0)
            goto fail;
    rc = write_phases(out, ph, n, o, err, errlen);
fail:
    for (p = 0; p < built; p++)
        if (ph[p].kind == PH_FILE)
            patfile_free(&ph[p].pat);
    free(ph);
    cli_list_free(items);
    return rc;
}
