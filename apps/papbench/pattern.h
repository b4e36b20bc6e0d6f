/*
 * Process arrival patterns for papbench: the delay each rank adds to its
 * emulated computation in each iteration (Marendic 2016, Sect. 6.2 lists
 * the same family: single, alternating, uniform, normal, gamma, bernoulli,
 * replay of a trace).
 *
 * Pure: no MPI, no output but the error text, so a serial test can parse
 * patterns and check the delay vectors.  Reproducibility rests on
 * pattern_delays() being a function of (pattern, seed, iteration) alone:
 * every rank computes the whole P-vector of an iteration from one RNG stream
 * and keeps its own entry, and every algorithm of a run sees the same
 * sequence of vectors whatever order the iterations are run in.
 *
 * Units: specifications are in milliseconds (uniform and single use the
 * --maxdelay value), replay files in seconds, delay vectors in seconds.
 */
#ifndef PAPBENCH_PATTERN_H
#define PAPBENCH_PATTERN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef enum {
    PATTERN_NONE,
    PATTERN_UNIFORM,
    PATTERN_SINGLE,
    PATTERN_ALTERNATING,
    PATTERN_NORMAL,
    PATTERN_GAMMA,
    PATTERN_BERNOULLI,
    PATTERN_REPLAY
} pattern_kind_t;

typedef struct {
    pattern_kind_t kind;
    int nprocs;
    double a, b;    /* parameters as given: ms, or (bernoulli) probability and ms */
    int rank;       /* single: the delayed rank */
    char *file;     /* replay: file name */
    double *replay; /* replay: rows x nprocs delays in seconds */
    int rows;
} pattern_t;

/*
 * Parses spec (see pattern_usage) for nprocs ranks; uniform and single take
 * their magnitude from maxdelay_ms.  A replay file is read and checked now:
 * every data line must hold nprocs non-negative numbers.  On error writes one
 * line into err (naming the file and line for replay files) and returns -1;
 * *out then needs no pattern_free.
 */
int pattern_parse(const char *spec, double maxdelay_ms, int nprocs, pattern_t *out, char *err, size_t errlen);

/* Delays in seconds of all nprocs ranks in iteration iter (>= 0). */
void pattern_delays(const pattern_t *p, uint64_t seed, long iter, double *delays_s);

/* 1 when the pattern's magnitude comes from --maxdelay. */
int pattern_uses_maxdelay(const pattern_t *p);

/* One-line human description, e.g. "uniform U(0, 10 ms)". */
void pattern_describe(const pattern_t *p, char *buf, size_t len);

/* Short name of the kind ("uniform"), for machine-readable output. */
const char *pattern_kind_name(const pattern_t *p);

/* Prints the accepted specifications, one per line, for --help. */
void pattern_usage(FILE *f);

void pattern_free(pattern_t *p);

#endif /* PAPBENCH_PATTERN_H */
