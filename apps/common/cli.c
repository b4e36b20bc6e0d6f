/*
 * Long options and strict number parsing (see cli.h).
 */
#include "cli.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static cli_option_t *find_option(cli_option_t *opts, int nopts, const char *name, size_t len)
{
    int i;

    for (i = 0; i < nopts; i++)
        if (strlen(opts[i].name) == len && strncmp(opts[i].name, name, len) == 0)
            return &opts[i];
    return NULL;
}

/* Handles argv[*i], an argument starting with "--"; advances *i past its value. */
static int parse_one(int argc, char **argv, int *i, cli_option_t *opts, int nopts, char *err, size_t errlen)
{
    const char *name = argv[*i] + 2;
    const char *eq = strchr(name, '=');
    size_t len = eq ? (size_t)(eq - name) : strlen(name);
    cli_option_t *o = find_option(opts, nopts, name, len);

    if (o == NULL) {
        snprintf(err, errlen, "unknown option '--%.*s'", (int)len, name);
        return -1;
    }
    if (o->arg == NULL) {
        if (eq != NULL) {
            snprintf(err, errlen, "--%s takes no argument", o->name);
            return -1;
        }
        o->value = "1";
    } else if (eq != NULL) {
        o->value = eq + 1;
    } else if (*i + 1 < argc) {
        o->value = argv[++*i];
    } else {
        snprintf(err, errlen, "--%s: missing argument %s", o->name, o->arg);
        return -1;
    }
    return 0;
}

int cli_parse(int argc, char **argv, cli_option_t *opts, int nopts, char *err, size_t errlen)
{
    int i;

    for (i = 1; i < argc; i++) {
        if (strncmp(argv[i], "--", 2) != 0 || argv[i][2] == '\0') {
            snprintf(err, errlen, "unexpected argument '%s'", argv[i]);
            return -1;
        }
        if (parse_one(argc, argv, &i, opts, nopts, err, errlen) != 0)
            return -1;
    }
    return 0;
}

void cli_print_options(const cli_option_t *opts, int nopts)
{
    char head[64];
    int i;

    for (i = 0; i < nopts; i++) {
        snprintf(head, sizeof head, "--%s%s%s", opts[i].name, opts[i].arg ? " " : "",
                 opts[i].arg ? opts[i].arg : "");
        printf("  %-22s %s\n", head, opts[i].help);
    }
}

int cli_parse_long(const char *text, long min, long max, long *out)
{
    char *end;
    long v;

    /* strtol skips leading blanks; a strict parser does not. */
    if (text == NULL || *text == '\0' || isspace((unsigned char)*text))
        return -1;
    errno = 0;
    v = strtol(text, &end, 10);
    if (errno != 0 || *end != '\0' || v < min || v > max)
        return -1;
    *out = v;
    return 0;
}

int cli_parse_u64(const char *text, uint64_t *out)
{
    char *end;
    unsigned long long v;

    /* strtoull accepts a sign and wraps negative numbers: refuse them. */
    if (text == NULL || *text < '0' || *text > '9')
        return -1;
    errno = 0;
    v = strtoull(text, &end, 0);
    if (errno != 0 || *end != '\0')
        return -1;
    *out = (uint64_t)v;
    return 0;
}

int cli_parse_double(const char *text, double *out)
{
    char *end;
    double v;

    if (text == NULL || *text == '\0' || isspace((unsigned char)*text))
        return -1;
    errno = 0;
    v = strtod(text, &end);
    if (errno != 0 || *end != '\0' || !isfinite(v))
        return -1;
    *out = v;
    return 0;
}

int cli_parse_count(const char *text, long long *out)
{
    char *end;
    long long v, mult = 1;

    if (text == NULL || *text < '0' || *text > '9')
        return -1;
    errno = 0;
    v = strtoll(text, &end, 10);
    if (errno != 0)
        return -1;
    if (*end == 'K' || *end == 'k')
        mult = 1024LL;
    else if (*end == 'M' || *end == 'm')
        mult = 1048576LL;
    if (mult != 1)
        end++;
    if (*end != '\0' || v <= 0 || v > LLONG_MAX / mult)
        return -1;
    *out = v * mult;
    return 0;
}

void cli_list_free(char **items)
{
    int i;

    for (i = 0; items != NULL && items[i] != NULL; i++)
        free(items[i]);
    free(items);
}

int cli_split(const char *text, char sep, char ***items, int *n)
{
    const char *p;
    int count = 1, k = 0;
    char **list;

    for (p = text; *p; p++)
        count += *p == sep;
    list = calloc((size_t)count + 1, sizeof *list);
    if (list == NULL)
        return -1;
    for (p = text; k < count; k++) {
        const char *end = strchr(p, sep);
        size_t len = end ? (size_t)(end - p) : strlen(p);

        if (len == 0 || (list[k] = strndup(p, len)) == NULL) {
            cli_list_free(list);
            return -1;
        }
        p += len + 1;
    }
    *items = list;
    *n = count;
    return 0;
}

int cli_env_rank(const char *name, int nprocs, int *rank, char *err, size_t errlen)
{
    const char *v = getenv(name);
    long r;

    *rank = -1;
    if (v == NULL || v[0] == '\0')
        return 0;
    if (cli_parse_long(v, 0, nprocs - 1, &r) != 0) {
        snprintf(err, errlen, "%s: expected a rank in 0..%d, got '%s'", name, nprocs - 1, v);
        return -1;
    }
    *rank = (int)r;
    return 0;
}
