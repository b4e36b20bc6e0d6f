/*
 * Files of per-rank delays (see patfile.h).
 */
#include "patfile.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"

/* What the messages name: the kind of file, its path and the line. */
typedef struct {
    const char *what, *path;
    long lineno;
    char *err;
    size_t errlen;
} where_t;

/* Parses one data line into row[0..nprocs-1]; -1 with err on a bad line. */
static int parse_row(char *p, double *row, int nprocs, const where_t *w)
{
    char *end;
    double v;
    int n = 0;

    for (;;) {
        while (isspace((unsigned char)*p))
            p++;
        if (*p == '\0')
            break;
        errno = 0;
        v = strtod(p, &end);
        if (end == p || errno != 0 || !isfinite(v) || v < 0 || v > PATFILE_MAX_S ||
            (*end != '\0' && !isspace((unsigned char)*end))) {
            snprintf(w->err, w->errlen, "%s '%s' line %ld: expected seconds in [0, %g], got '%.*s'", w->what,
                     w->path, w->lineno, PATFILE_MAX_S, end > p ? (int)(end - p) : (int)strcspn(p, " \t\r\n"),
                     p);
            return -1;
        }
        if (n < nprocs)
            row[n] = v;
        n++;
        p = end;
    }
    if (n == nprocs)
        return 0;
    snprintf(w->err, w->errlen, "%s '%s' line %ld: %d delays, expected %d (one per rank)", w->what, w->path,
             w->lineno, n, nprocs);
    return -1;
}

/* A slot for one more row; NULL when memory runs out.  Doubling keeps appending linear. */
static double *add_row(patfile_t *pf, long *cap)
{
    if (pf->nrows == *cap) {
        long c = *cap ? 2 * *cap : 64;
        double *r = realloc(pf->rows, (size_t)c * (size_t)pf->nprocs * sizeof *r);

        if (r == NULL)
            return NULL;
        pf->rows = r;
        *cap = c;
    }
    return pf->rows + (size_t)pf->nrows++ * (size_t)pf->nprocs;
}

static int read_lines(FILE *f, patfile_t *pf, where_t *w)
{
    char *line = NULL, *p;
    size_t cap = 0;
    long rows_cap = 0;
    double *row;
    int rc = 0;

    while (rc == 0 && getline(&line, &cap, f) >= 0) {
        w->lineno++;
        for (p = line; isspace((unsigned char)*p); p++)
            ;
        if (*p == '\0' || *p == '#')
            continue;
        if ((row = add_row(pf, &rows_cap)) == NULL) {
            snprintf(w->err, w->errlen, "out of memory reading %s '%s'", w->what, w->path);
            rc = -1;
        } else {
            rc = parse_row(p, row, pf->nprocs, w);
        }
    }
    free(line);
    return rc;
}

int patfile_read(const char *path, const char *what, int nprocs, patfile_t *pf, char *err, size_t errlen)
{
    where_t w = {what, path, 0, err, errlen};
    FILE *f = fopen(path, "r");
    int rc;

    memset(pf, 0, sizeof *pf);
    pf->nprocs = nprocs;
    if (f == NULL) {
        snprintf(err, errlen, "cannot read %s '%s': %s", what, path, strerror(errno));
        return -1;
    }
    rc = read_lines(f, pf, &w);
    fclose(f);
    if (rc == 0 && pf->nrows == 0) {
        snprintf(err, errlen, "%s '%s' has no data lines", what, path);
        rc = -1;
    }
    if (rc != 0) {
        patfile_free(pf);
        return -1;
    }
    pf->hash = rng_hash(pf->rows, (size_t)pf->nrows * (size_t)nprocs * sizeof *pf->rows, 0);
    return 0;
}

const double *patfile_row(const patfile_t *pf, long iter)
{
    return pf->rows + (size_t)(iter % pf->nrows) * (size_t)pf->nprocs;
}

void patfile_free(patfile_t *pf)
{
    free(pf->rows);
    pf->rows = NULL;
    pf->nrows = 0;
}
