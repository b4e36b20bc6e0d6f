/*
 * Delay patterns: parsing, replay files, delay vectors (see pattern.h).
 */
#include "pattern.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "rng.h"

/* The accepted specifications; nparams counts the comma-separated numbers. */
static const struct {
    pattern_kind_t kind;
    const char *name;
    int nparams;
    const char *syntax;
    const char *help;
} kinds[] = {
    {PATTERN_NONE, "none", 0, "none", "no delays"},
    {PATTERN_UNIFORM, "uniform", 0, "uniform", "every rank U(0, maxdelay) ms"},
    {PATTERN_SINGLE, "single", 1, "single:RANK", "rank RANK delayed by maxdelay ms, the others not"},
    {PATTERN_ALTERNATING, "alternating", 2, "alternating:E,O", "even ranks E ms, odd ranks O ms"},
    {PATTERN_NORMAL, "normal", 2, "normal:MU,SIGMA", "every rank Normal(MU, SIGMA) ms, clipped at 0"},
    {PATTERN_GAMMA, "gamma", 2, "gamma:K,THETA", "every rank Gamma(shape K, scale THETA ms)"},
    {PATTERN_BERNOULLI, "bernoulli", 2, "bernoulli:P,D", "every rank D ms with probability P, else 0"},
    {PATTERN_REPLAY, "replay", 0, "replay:FILE",
     "line i of FILE: P delays in seconds for iteration i (cycled); '#' starts a comment line"},
};

#define NKINDS ((int)(sizeof(kinds) / sizeof(kinds[0])))

void pattern_usage(FILE *f)
{
    int i;

    for (i = 0; i < NKINDS; i++)
        fprintf(f, "  %-22s %s\n", kinds[i].syntax, kinds[i].help);
}

const char *pattern_kind_name(const pattern_t *p)
{
    int i;

    for (i = 0; i < NKINDS; i++)
        if (kinds[i].kind == p->kind)
            return kinds[i].name;
    return "?";
}

/* "none uniform single:RANK ..." for the unknown-pattern error. */
static void syntax_list(char *buf, size_t len)
{
    size_t used = 0;
    int i;

    buf[0] = '\0';
    for (i = 0; i < NKINDS && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? " " : "", kinds[i].syntax);
}

/* Range checks of numeric parameters; returns the complaint or NULL. */
static const char *check_params(pattern_kind_t kind, double a, double b)
{
    switch (kind) {
    case PATTERN_ALTERNATING:
        return a < 0 || b < 0 ? "E and O must be >= 0" : NULL;
    case PATTERN_NORMAL:
        return b < 0 ? "SIGMA must be >= 0" : NULL;
    case PATTERN_GAMMA:
        return a <= 0 || b <= 0 ? "K and THETA must be > 0" : NULL;
    case PATTERN_BERNOULLI:
        return a < 0 || a > 1 || b < 0 ? "P must be in [0, 1] and D >= 0" : NULL;
    default:
        return NULL;
    }
}

/* Parses "A,B" of a two-parameter kind k into out->a, out->b. */
static int parse_two(int k, const char *args, const char *spec, pattern_t *out, char *err, size_t errlen)
{
    char **items = NULL;
    int n = 0, rc = -1;
    const char *why;

    if (args == NULL || cli_split(args, ',', &items, &n) != 0 || n != 2 ||
        cli_parse_double(items[0], &out->a) != 0 || cli_parse_double(items[1], &out->b) != 0) {
        snprintf(err, errlen, "expected %s (two numbers), got '%s'", kinds[k].syntax, spec);
    } else if ((why = check_params(out->kind, out->a, out->b)) != NULL) {
        snprintf(err, errlen, "%s: %s, got '%s'", kinds[k].name, why, spec);
    } else {
        rc = 0;
    }
    cli_list_free(items);
    return rc;
}

static int parse_single(const char *args, const char *spec, pattern_t *out, char *err, size_t errlen)
{
    long r;

    if (args == NULL || cli_parse_long(args, 0, out->nprocs - 1, &r) != 0) {
        snprintf(err, errlen, "expected single:RANK with RANK in 0..%d, got '%s'", out->nprocs - 1, spec);
        return -1;
    }
    out->rank = (int)r;
    return 0;
}

/* Appends a row of nprocs delays (seconds) to the replay table. */
static int replay_append(pattern_t *p, const double *row)
{
    size_t P = (size_t)p->nprocs;
    double *grown;

    /* Grow at powers of two so that appending stays linear overall. */
    if ((p->rows & (p->rows - 1)) == 0) {
        grown = realloc(p->replay, (p->rows ? 2 * (size_t)p->rows : 1) * P * sizeof *grown);
        if (grown == NULL)
            return -1;
        p->replay = grown;
    }
    memcpy(p->replay + (size_t)p->rows * P, row, P * sizeof *row);
    p->rows++;
    return 0;
}

/*
 * Parses one line of a replay file into row[0..nprocs-1].  Returns 1 for a
 * data line, 0 for a blank or comment line, -1 (with err) when malformed.
 */
static int replay_line(char *line, const pattern_t *p, long lineno, double *row, char *err, size_t errlen)
{
    char *save = NULL, *tok;
    int n = 0;

    line += strspn(line, " \t\r\n");
    if (*line == '\0' || *line == '#')
        return 0;
    for (tok = strtok_r(line, " \t\r\n", &save); tok; tok = strtok_r(NULL, " \t\r\n", &save)) {
        double v;

        if (n == p->nprocs)
            break;
        if (cli_parse_double(tok, &v) != 0 || v < 0) {
            snprintf(err, errlen, "replay file '%s' line %ld: field %d '%s' is not a non-negative number",
                     p->file, lineno, n + 1, tok);
            return -1;
        }
        row[n++] = v;
    }
    if (tok == NULL && n == p->nprocs)
        return 1;
    if (tok != NULL)
        snprintf(err, errlen, "replay file '%s' line %ld: more than %d delays (one per rank)", p->file,
                 lineno, p->nprocs);
    else
        snprintf(err, errlen, "replay file '%s' line %ld: %d delays, expected %d (one per rank)", p->file,
                 lineno, n, p->nprocs);
    return -1;
}

static int replay_load(pattern_t *p, char *err, size_t errlen)
{
    FILE *f = fopen(p->file, "r");
    int open_errno = errno;
    double *row = malloc((size_t)p->nprocs * sizeof *row);
    char *line = NULL;
    size_t cap = 0;
    long lineno = 0;
    int rc = 0;

    if (f == NULL || row == NULL) {
        snprintf(err, errlen, "replay file '%s': %s", p->file, strerror(f ? ENOMEM : open_errno));
        rc = -1;
    }
    while (rc >= 0 && getline(&line, &cap, f) >= 0) {
        rc = replay_line(line, p, ++lineno, row, err, errlen);
        if (rc > 0 && replay_append(p, row) != 0) {
            snprintf(err, errlen, "replay file '%s': %s", p->file, strerror(ENOMEM));
            rc = -1;
        }
    }
    if (rc >= 0 && p->rows == 0) {
        snprintf(err, errlen, "replay file '%s' has no delay lines", p->file);
        rc = -1;
    }
    free(line);
    free(row);
    if (f != NULL)
        fclose(f);
    return rc < 0 ? -1 : 0;
}

/* Index of the kind named by the first len characters of spec, or -1. */
static int find_kind(const char *spec, size_t len)
{
    int i;

    for (i = 0; i < NKINDS; i++)
        if (strlen(kinds[i].name) == len && strncmp(kinds[i].name, spec, len) == 0)
            return i;
    return -1;
}

/* Parameters after the colon (args is NULL when there is no colon). */
static int parse_args(int k, const char *args, const char *spec, pattern_t *out, char *err, size_t errlen)
{
    switch (out->kind) {
    case PATTERN_SINGLE:
        return parse_single(args, spec, out, err, errlen);
    case PATTERN_REPLAY:
        if (args == NULL || *args == '\0') {
            snprintf(err, errlen, "expected replay:FILE, got '%s'", spec);
            return -1;
        }
        if ((out->file = strdup(args)) == NULL) {
            snprintf(err, errlen, "%s", strerror(ENOMEM));
            return -1;
        }
        return replay_load(out, err, errlen);
    default:
        if (kinds[k].nparams == 2)
            return parse_two(k, args, spec, out, err, errlen);
        if (args != NULL) {
            snprintf(err, errlen, "pattern '%s' takes no parameters, got '%s'", kinds[k].name, spec);
            return -1;
        }
        return 0;
    }
}

int pattern_parse(const char *spec, double maxdelay_ms, int nprocs, pattern_t *out, char *err, size_t errlen)
{
    const char *colon = strchr(spec, ':');
    size_t len = colon ? (size_t)(colon - spec) : strlen(spec);
    char valid[256];
    int k = find_kind(spec, len);

    memset(out, 0, sizeof *out);
    if (k < 0) {
        syntax_list(valid, sizeof valid);
        snprintf(err, errlen, "unknown pattern '%s' (valid: %s)", spec, valid);
        return -1;
    }
    out->kind = kinds[k].kind;
    out->nprocs = nprocs;
    if (out->kind == PATTERN_UNIFORM || out->kind == PATTERN_SINGLE)
        out->a = maxdelay_ms;
    if (parse_args(k, colon ? colon + 1 : NULL, spec, out, err, errlen) != 0) {
        pattern_free(out);
        return -1;
    }
    return 0;
}

int pattern_uses_maxdelay(const pattern_t *p)
{
    return p->kind == PATTERN_UNIFORM || p->kind == PATTERN_SINGLE;
}

/* Delay of rank i in ms; r is the iteration's stream, drawn in rank order. */
static double one_delay_ms(const pattern_t *p, rng_t *r, int i)
{
    switch (p->kind) {
    case PATTERN_UNIFORM:
        return p->a * rng_uniform(r);
    case PATTERN_SINGLE:
        return i == p->rank ? p->a : 0.0;
    case PATTERN_ALTERNATING:
        return i % 2 == 0 ? p->a : p->b;
    case PATTERN_NORMAL:
        return fmax(0.0, rng_normal(r, p->a, p->b));
    case PATTERN_GAMMA:
        return rng_gamma(r, p->a, p->b);
    case PATTERN_BERNOULLI:
        return rng_bernoulli(r, p->a) ? p->b : 0.0;
    default:
        return 0.0;
    }
}

void pattern_delays(const pattern_t *p, uint64_t seed, long iter, double *delays_s)
{
    rng_t r;
    int i;

    if (p->kind == PATTERN_REPLAY) {
        memcpy(delays_s, p->replay + (size_t)(iter % p->rows) * (size_t)p->nprocs,
               (size_t)p->nprocs * sizeof *delays_s);
        return;
    }
    rng_init(&r, seed, (uint64_t)iter);
    for (i = 0; i < p->nprocs; i++)
        delays_s[i] = 1e-3 * one_delay_ms(p, &r, i);
}

void pattern_describe(const pattern_t *p, char *buf, size_t len)
{
    switch (p->kind) {
    case PATTERN_NONE:
        snprintf(buf, len, "none (no delays)");
        break;
    case PATTERN_UNIFORM:
        snprintf(buf, len, "uniform U(0, %g ms)", p->a);
        break;
    case PATTERN_SINGLE:
        snprintf(buf, len, "single: rank %d delayed %g ms", p->rank, p->a);
        break;
    case PATTERN_ALTERNATING:
        snprintf(buf, len, "alternating: even ranks %g ms, odd ranks %g ms", p->a, p->b);
        break;
    case PATTERN_NORMAL:
        snprintf(buf, len, "normal N(%g ms, sigma %g ms) clipped at 0", p->a, p->b);
        break;
    case PATTERN_GAMMA:
        snprintf(buf, len, "gamma (shape %g, scale %g ms)", p->a, p->b);
        break;
    case PATTERN_BERNOULLI:
        snprintf(buf, len, "bernoulli: %g ms with probability %g", p->b, p->a);
        break;
    case PATTERN_REPLAY:
        snprintf(buf, len, "replay '%s' (%d lines, cycled)", p->file, p->rows);
        break;
    }
}

void pattern_free(pattern_t *p)
{
    free(p->file);
    free(p->replay);
    p->file = NULL;
    p->replay = NULL;
    p->rows = 0;
}
