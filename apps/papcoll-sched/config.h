/*
 * papcoll-sched command line: options parsed once into a const-after-parse
 * configuration (pure, no MPI).
 */
#ifndef APPS_SCHED_CONFIG_H
#define APPS_SCHED_CONFIG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct {
    /* one schedule */
    int P, N, root, impl;
    int elide; /* print the executed schedule (papcoll__cv_elide) */
    double d;
    double *pat; /* P arrival times; NULL: everybody arrives together */
    /* --bench */
    int bench;
    int instances; /* random instances per (P = N, setup) cell */
    int max_p;     /* largest P = N */
    uint64_t seed;
    const char *json; /* write the bench results there too */
} sched_config_t;

enum { CONFIG_OK = 0, CONFIG_HELP = 1, CONFIG_ERROR = -1 };

/* Parses argv; on CONFIG_ERROR err holds one line (without program name). */
int config_parse(int argc, char **argv, sched_config_t *cfg, char *err, size_t errlen);

void config_usage(FILE *f);

void config_free(sched_config_t *cfg);

#endif /* APPS_SCHED_CONFIG_H */
