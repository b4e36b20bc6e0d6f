/*
 * mkdir -p, result files and the JSON writer (see output.h).
 */
#include "output.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* mkdir that accepts an existing directory (but not an existing file). */
static int mkdir_one(const char *path)
{
    struct stat st;

    if (mkdir(path, 0777) == 0)
        return 0;
    if (errno == EEXIST && stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode))
            return 0;
        errno = ENOTDIR;
    }
    return -1;
}

int output_mkdir_p(const char *path, char *err, size_t errlen)
{
    char *copy = strdup(path), *p;
    int rc = 0;

    if (copy == NULL || *copy == '\0') {
        snprintf(err, errlen, "cannot create directory '%s': %s", path,
                 copy ? "empty path" : strerror(ENOMEM));
        free(copy);
        return -1;
    }
    /* Create every prefix ending before a '/', then the whole path. */
    for (p = copy + 1; rc == 0 && *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        rc = mkdir_one(copy);
        *p = '/';
    }
    if (rc == 0)
        rc = mkdir_one(copy);
    if (rc != 0)
        snprintf(err, errlen, "cannot create directory '%s': %s", copy, strerror(errno));
    free(copy);
    return rc;
}

FILE *output_open(const char *dir, const char *name, char *err, size_t errlen)
{
    size_t len = strlen(dir) + strlen(name) + 2;
    char *path = malloc(len);
    FILE *f = NULL;

    if (path == NULL) {
        snprintf(err, errlen, "%s", strerror(ENOMEM));
        return NULL;
    }
    snprintf(path, len, "%s/%s", dir, name);
    f = fopen(path, "w");
    if (f == NULL)
        snprintf(err, errlen, "cannot write '%s': %s", path, strerror(errno));
    free(path);
    return f;
}

void json_write_escaped(FILE *f, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;

    fputc('"', f);
    for (; *p; p++) {
        switch (*p) {
        case '"':
            fputs("\\\"", f);
            break;
        case '\\':
            fputs("\\\\", f);
            break;
        case '\n':
            fputs("\\n", f);
            break;
        case '\r':
            fputs("\\r", f);
            break;
        case '\t':
            fputs("\\t", f);
            break;
        default:
            /* Other control characters must be \u-escaped; UTF-8 passes through. */
            if (*p < 0x20)
                fprintf(f, "\\u%04x", *p);
            else
                fputc(*p, f);
        }
    }
    fputc('"', f);
}

void json_open(json_t *j, FILE *f)
{
    memset(j, 0, sizeof *j);
    j->f = f;
}

/* Separator, indentation and key before a value at the current level. */
static void prefix(json_t *j, const char *key)
{
    if (j->count[j->depth]++ > 0)
        fputc(',', j->f);
    if (j->depth > 0)
        fprintf(j->f, "\n%*s", 2 * j->depth, "");
    if (key != NULL) {
        json_write_escaped(j->f, key);
        fputs(": ", j->f);
    }
}

static void begin(json_t *j, const char *key, char open, char close)
{
    prefix(j, key);
    fputc(open, j->f);
    if (j->depth + 1 >= JSON_MAX_DEPTH) {
        j->error = 1;
        return;
    }
    j->count[++j->depth] = 0;
    j->close[j->depth] = close;
}

void json_begin_object(json_t *j, const char *key)
{
    begin(j, key, '{', '}');
}

void json_begin_array(json_t *j, const char *key)
{
    begin(j, key, '[', ']');
}

void json_end(json_t *j)
{
    if (j->depth == 0 || j->error) {
        j->error = 1;
        return;
    }
    if (j->count[j->depth] > 0)
        fprintf(j->f, "\n%*s", 2 * (j->depth - 1), "");
    fputc(j->close[j->depth--], j->f);
}

void json_string(json_t *j, const char *key, const char *value)
{
    prefix(j, key);
    if (value == NULL)
        fputs("null", j->f);
    else
        json_write_escaped(j->f, value);
}

void json_number(json_t *j, const char *key, double value)
{
    prefix(j, key);
    /* 12 significant digits: nanoseconds for times in seconds below 1000. */
    if (isfinite(value))
        fprintf(j->f, "%.12g", value);
    else
        fputs("null", j->f);
}

void json_int(json_t *j, const char *key, long long value)
{
    prefix(j, key);
    fprintf(j->f, "%lld", value);
}

void json_uint(json_t *j, const char *key, unsigned long long value)
{
    prefix(j, key);
    fprintf(j->f, "%llu", value);
}

void json_bool(json_t *j, const char *key, int value)
{
    prefix(j, key);
    fputs(value ? "true" : "false", j->f);
}

int json_finish(json_t *j)
{
    fputc('\n', j->f);
    return j->depth == 0 && !j->error && !ferror(j->f) ? 0 : -1;
}

void json_stats(json_t *j, const char *key, const pm_stats_t *t)
{
    json_begin_object(j, key);
    json_number(j, "mean", t->mean);
    json_number(j, "median", t->median);
    json_number(j, "stddev", t->stddev);
    json_number(j, "min", t->min);
    json_number(j, "max", t->max);
    json_begin_array(j, "ci95");
    json_number(j, NULL, t->ci_lo);
    json_number(j, NULL, t->ci_hi);
    json_end(j);
    json_int(j, "n", t->n);
    json_end(j);
}
