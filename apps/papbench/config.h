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

#include "app.h"
#include "cli_ini.h"
#include "data.h"
#include "papcoll.h"
#include "pattern.h"

/* Test-only: this environment variable names a rank that corrupts one
 * element of what it holds after the first call (its result, else its send
 * data), to prove that the validation fails (tests/papbench.sh).  Never set
 * it for measurements. */
#define BENCH_CORRUPT_ENV "PAPCOLL_PAPBENCH_TEST_CORRUPT"

/* Balanced rounds that --maxdelay Fx implies when --calibrate is not given. */
#define CALIBRATE_DEFAULT 8

typedef struct {
    papcoll_op_t op;
    int nalgos;
    int *algos;     /* algorithm indices within op, in the order given (-1: a policy) */
    char (*entry)[288]; /* each entry's policy: an algorithm name, or auto[:...],
                           rules:FILE (docs/policies.md) */
    int baseline;   /* position of the baseline in algos[] */
    long long size; /* elements requested (--size) */
    /* Elements of each rank's argument: gather and scatter, its block
     * floor(size / P); bcast, reduce and allreduce, the whole vector. */
    long long count;
    elem_type_t type;
    int reduction;       /* reduce or allreduce */
    red_op_t reduce_op;  /* reductions: the operation */
    long iters;          /* measured iterations per algorithm */
    long warmup;         /* unmeasured iterations before them */
    long calibrate;      /* balanced rounds before the warm-ups (t(pi), --maxdelay Fx) */
    double maxdelay_ms;  /* the magnitude of uniform and single (absolute), or 1 (relative) */
    double maxdelay_rel; /* > 0: the magnitude is this times the baseline's balanced median; 0: absolute */
    const char *maxdelay_text; /* as given */
    double base_ms;            /* emulated computation per iteration before the delay */
    const char *pattern_spec;
    pattern_t pattern;
    uint64_t seed;
    const char *sync;        /* "double-barrier" */
    int finished_sleep;      /* 1: --finished sleep (a rank out of the call sleeps until all are) */
    int root;                /* allreduce: 0, the rank of the model's measurement */
    const char *out_dir;     /* NULL: no result files */
    const char *trace_path;  /* --trace FILE: HDF5 trace of every call, NULL: none */
    const char *predictor;   /* NULL: the library's choice */
    const char *config_file; /* papcoll INI file, NULL: $PAPCOLL_CONFIG */
    int no_monitor;
    int no_bind; /* 1: do not papcoll_site_bind_recv() the receive buffer */
    int shared_buffers; /* SMPI: 1: all ranks' buffers are one shared block, never filled nor checked */
    int shuffle; /* 1: every round in its own random order (--shuffle) */
    int quiet;
    int corrupt_rank; /* test-only (BENCH_CORRUPT_ENV), -1: none */
    int nprocs;
    cli_opts_t opts;
} bench_config_t;

/* The label of entry a of --algos: its algorithm name, or its policy text. */
const char *bench_label(const bench_config_t *cfg, int a);

/*
 * Parses argv for nprocs ranks.  Returns CLI_OK, CLI_HELP (--help was
 * given) or CLI_ERROR with one line in err ("--size: expected ...").
 * Release with config_free in every case.
 */
int config_parse(int argc, char **argv, int nprocs, bench_config_t *cfg, char *err, size_t errlen);

/* The effective configuration as INI text ([papbench]; comment lines for a
 * replay file's digest and the test-only corruption). */
void config_text(const bench_config_t *cfg, char *buf, size_t len);

/* Prints the full usage text (options, patterns, algorithms per op) to stdout. */
void config_usage(void);

void config_free(bench_config_t *cfg);

/* The configuration as the scaffold takes it (app_configure). */
extern const app_config_ops_t bench_config_ops;

#endif /* PAPBENCH_CONFIG_H */
