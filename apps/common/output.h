/*
 * Result files: directory creation and a small streaming JSON writer
 * (pure, no MPI: the caller decides which rank writes).
 *
 * The writer tracks nesting and commas itself, so callers emit values in
 * order and cannot produce malformed JSON by forgetting a separator:
 *
 *   json_t j;
 *   json_open(&j, f);
 *   json_begin_object(&j, NULL);
 *   json_string(&j, "op", "gather");
 *   json_begin_array(&j, "ci95");  json_number(&j, NULL, lo); ...  json_end(&j);
 *   json_end(&j);
 *   json_finish(&j);  (checks that every object/array was closed)
 *
 * Keys are given inside objects and are NULL inside arrays.  Strings are
 * escaped as RFC 8259 requires; NaN and infinities are written as null.
 */
#ifndef APPS_OUTPUT_H
#define APPS_OUTPUT_H

#include <stddef.h>
#include <stdio.h>

#include "papmetrics.h"

/* Creates path and its missing parents (mkdir -p).  On error writes one line to err. */
int output_mkdir_p(const char *path, char *err, size_t errlen);

/* Opens dir/name for writing; on error writes one line to err and returns NULL. */
FILE *output_open(const char *dir, const char *name, char *err, size_t errlen);

#define JSON_MAX_DEPTH 16

typedef struct {
    FILE *f;
    int depth;
    int count[JSON_MAX_DEPTH];  /* values written so far at each level */
    char close[JSON_MAX_DEPTH]; /* '}' or ']' that ends each open level */
    int error;                  /* nesting misuse (too deep, unbalanced) */
} json_t;

void json_open(json_t *j, FILE *f);
void json_begin_object(json_t *j, const char *key);
void json_begin_array(json_t *j, const char *key);
/* Closes the innermost object or array. */
void json_end(json_t *j);
void json_string(json_t *j, const char *key, const char *value);
void json_number(json_t *j, const char *key, double value);
void json_int(json_t *j, const char *key, long long value);
void json_uint(json_t *j, const char *key, unsigned long long value);
void json_bool(json_t *j, const char *key, int value);
/* {"mean","median","stddev","min","max","ci95":[lo,hi],"n"} of a sample. */
void json_stats(json_t *j, const char *key, const pm_stats_t *t);
/* Ends the document with a newline; returns 0, or -1 on misuse or a write error. */
int json_finish(json_t *j);

/* Writes s as a JSON string literal (with quotes and escapes) to f. */
void json_write_escaped(FILE *f, const char *s);

#endif /* APPS_OUTPUT_H */
