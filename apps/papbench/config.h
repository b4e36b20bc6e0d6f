/*
 * papbench configuration: the command line, parsed once into a struct that
 * the rest of the program only reads.
 *
 * Parsing is pure and identical on every rank (same argv, same P); it needs
 * P because the block size, --root, single:RANK and replay files depend on
 * it.  Errors come back as one line of text; the caller decides who prints.
 */
#ifndef PAPBENCH_CONFIG_H
#define PAPBENCH_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#include "data.h"
#include "papcoll.h"
#include "pattern.h"

typedef struct {
    papcoll_op_t op;
    int nalgos;
    int *algos;      /* algorithm indices within op, in the order given */
    int baseline;    /* position of the baseline in algos[] */
    long long size;  /* total elements requested (--size) */
    long long block; /* elements per rank: floor(size / P) */
    elem_type_t type;
    long iters;  /* measured iterations per algorithm */
    long warmup; /* unmeasured iterations before them */
    double maxdelay_ms;
    double base_ms; /* emulated computation per iteration before the delay */
    const char *pattern_spec;
    pattern_t pattern;
    uint64_t seed;
    const char *sync; /* "double-barrier" */
    int root;
    const char *out_dir;     /* NULL: no result files */
    const char *trace_path;  /* --trace FILE: HDF5 trace of every call, NULL: none */
    const char *predictor;   /* NULL: the library's choice */
    const char *config_file; /* papcoll INI file, NULL: $PAPCOLL_CONFIG */
    int no_monitor;
    int no_bind;             /* 1: do not papcoll_site_bind_recv() the receive buffer */
    int quiet;
    int nprocs;
} bench_config_t;

enum { CONFIG_OK = 0, CONFIG_HELP = 1, CONFIG_ERROR = 2 };

/*
 * Parses argv for nprocs ranks.  Returns CONFIG_OK, CONFIG_HELP (--help was
 * given) or CONFIG_ERROR with one line in err ("--size: expected ...").
 * After CONFIG_OK the config must be released with config_free.
 */
int config_parse(int argc, char **argv, int nprocs, bench_config_t *cfg, char *err, size_t errlen);

/* Prints the full usage text (options, patterns, algorithms per op) to stdout. */
void config_usage(void);

void config_free(bench_config_t *cfg);

#endif /* PAPBENCH_CONFIG_H */
