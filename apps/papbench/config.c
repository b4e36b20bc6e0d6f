/*
 * Command line of papbench (see config.h and docs/papbench.md).
 */
#include "config.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

enum {
    O_OP,
    O_ALGOS,
    O_SIZE,
    O_TYPE,
    O_ITERS,
    O_WARMUP,
    O_MAXDELAY,
    O_PATTERN,
    O_SEED,
    O_SYNC,
    O_BASE_MS,
    O_BASELINE,
    O_ROOT,
    O_OUT,
    O_TRACE,
    O_PREDICTOR,
    O_CONFIG,
    O_NO_MONITOR,
    O_NO_BIND,
    O_QUIET,
    O_HELP,
    O_COUNT
};

/* Defaults follow the paper's benchmark (Proficz 2020, Sect. 5.1). */
static const cli_option_t option_table[O_COUNT] = {
    [O_OP] = {"op", "OP", "gather | scatter (default gather)"},
    [O_ALGOS] = {"algos", "LIST", "comma-separated algorithm names, or all (default all)"},
    [O_SIZE] = {"size", "N", "total elements, K/M = 1024/1048576 (default 2M); block = N/P rounded down"},
    [O_TYPE] = {"type", "TYPE", "float | double | int | byte (default float)"},
    [O_ITERS] = {"iters", "N", "measured iterations per algorithm (default 128)"},
    [O_WARMUP] = {"warmup", "N", "unmeasured iterations before them (default 2)"},
    [O_MAXDELAY] = {"maxdelay", "MS", "maximal delay in ms for uniform and single (default 50)"},
    [O_PATTERN] = {"pattern", "SPEC", "arrival pattern, see below (default uniform)"},
    [O_SEED] = {"seed", "S", "seed of the delay generator (default 1)"},
    [O_SYNC] = {"sync", "METHOD", "synchronisation before each call: double-barrier (default)"},
    [O_BASE_MS] = {"base-ms", "MS", "emulated computation per iteration, delay excluded (default 100)"},
    [O_BASELINE] = {"baseline", "NAME", "algorithm the speedups refer to (default: first of --algos)"},
    [O_ROOT] = {"root", "R", "root rank (default 0)"},
    [O_OUT] = {"out", "DIR", "write DIR/results.json and DIR/results.csv (mkdir -p)"},
    [O_TRACE] = {"trace", "FILE", "write every call of every rank to FILE (HDF5, see docs/trace.md)"},
    [O_PREDICTOR] = {"predictor", "SPEC", "PAT predictor: edge, last, sma:K, ewma:A (default: library's)"},
    [O_CONFIG] = {"config", "FILE", "papcoll INI file with a [papcoll] section (default $PAPCOLL_CONFIG)"},
    [O_NO_MONITOR] = {"no-monitor", NULL, "no monitor thread (B* algorithms run in the foreground)"},
    [O_NO_BIND] = {"no-bind", NULL, "do not bind the receive buffer (background parts stage and copy)"},
    [O_QUIET] = {"quiet", NULL, "no progress lines on stderr"},
    [O_HELP] = {"help", NULL, "this text"},
};

static int fail(char *err, size_t errlen, const char *opt, const char *expected, const char *got)
{
    snprintf(err, errlen, "--%s: expected %s, got '%s'", opt, expected, got);
    return CONFIG_ERROR;
}

/* An optional integer option; keeps *out (the default) when absent. */
static int opt_long(const cli_option_t *o, long min, long max, const char *expected, long *out, char *err,
                    size_t errlen)
{
    if (o->value != NULL && cli_parse_long(o->value, min, max, out) != 0)
        return fail(err, errlen, o->name, expected, o->value);
    return CONFIG_OK;
}

/* An optional non-negative number of milliseconds. */
static int opt_ms(const cli_option_t *o, double *out, char *err, size_t errlen)
{
    if (o->value != NULL && (cli_parse_double(o->value, out) != 0 || *out < 0))
        return fail(err, errlen, o->name, "a non-negative number of milliseconds", o->value);
    return CONFIG_OK;
}

static int parse_op(const cli_option_t *o, bench_config_t *cfg, char *err, size_t errlen)
{
    int op;

    cfg->op = PAPCOLL_OP_GATHER;
    if (o->value == NULL)
        return CONFIG_OK;
    for (op = 0; op < PAPCOLL_OP_COUNT; op++)
        if (strcmp(o->value, papcoll_op_name((papcoll_op_t)op)) == 0) {
            cfg->op = (papcoll_op_t)op;
            return CONFIG_OK;
        }
    return fail(err, errlen, o->name, "gather or scatter", o->value);
}

static int all_algos(bench_config_t *cfg, char *err, size_t errlen)
{
    int i, n = papcoll_algo_count(cfg->op);

    if ((cfg->algos = malloc((size_t)n * sizeof *cfg->algos)) == NULL) {
        snprintf(err, errlen, "out of memory");
        return CONFIG_ERROR;
    }
    for (i = 0; i < n; i++)
        cfg->algos[i] = i;
    cfg->nalgos = n;
    return CONFIG_OK;
}

/* Index of an algorithm name of the list; unknown and repeated names are errors. */
static int find_algo(const bench_config_t *cfg, const char *name, int listed, char *err, size_t errlen)
{
    char valid[512];
    int a = papcoll_algo_find(cfg->op, name), j;

    if (a < 0) {
        snprintf(err, errlen, "--algos: unknown %s algorithm '%s' (valid: %s)", papcoll_op_name(cfg->op),
                 name, papcoll_algo_list(cfg->op, valid, sizeof valid));
        return -1;
    }
    for (j = 0; j < listed; j++)
        if (cfg->algos[j] == a) {
            snprintf(err, errlen, "--algos: '%s' is listed twice", name);
            return -1;
        }
    return a;
}

static int parse_algos(const cli_option_t *o, bench_config_t *cfg, char *err, size_t errlen)
{
    char **names = NULL;
    int i, n = 0, a = 0;

    if (o->value == NULL || strcmp(o->value, "all") == 0)
        return all_algos(cfg, err, errlen);
    if (cli_split(o->value, ',', &names, &n) != 0)
        return fail(err, errlen, o->name, "a comma-separated list of algorithm names or all", o->value);
    cfg->algos = malloc((size_t)n * sizeof *cfg->algos);
    for (i = 0; cfg->algos != NULL && i < n; i++) {
        if ((a = find_algo(cfg, names[i], i, err, errlen)) < 0)
            break;
        cfg->algos[i] = a;
    }
    if (cfg->algos == NULL)
        snprintf(err, errlen, "out of memory");
    cfg->nalgos = i;
    cli_list_free(names);
    return cfg->algos != NULL && a >= 0 ? CONFIG_OK : CONFIG_ERROR;
}

static int parse_baseline(const cli_option_t *o, bench_config_t *cfg, char *err, size_t errlen)
{
    int i;

    cfg->baseline = 0;
    if (o->value == NULL)
        return CONFIG_OK;
    for (i = 0; i < cfg->nalgos; i++)
        if (strcmp(papcoll_algo_name(cfg->op, cfg->algos[i]), o->value) == 0) {
            cfg->baseline = i;
            return CONFIG_OK;
        }
    snprintf(err, errlen, "--baseline: '%s' is not one of the algorithms of --algos", o->value);
    return CONFIG_ERROR;
}

static int parse_size(const cli_option_t *o, bench_config_t *cfg, char *err, size_t errlen)
{
    cfg->size = 2LL * 1048576;
    if (o->value != NULL && cli_parse_count(o->value, &cfg->size) != 0)
        return fail(err, errlen, o->name, "a positive number with optional K/M suffix", o->value);
    cfg->block = cfg->size / cfg->nprocs;
    if (cfg->block > INT_MAX) {
        snprintf(err, errlen, "--size: %lld elements per rank exceed the MPI count limit %d", cfg->block,
                 INT_MAX);
        return CONFIG_ERROR;
    }
    return CONFIG_OK;
}

static int parse_type(const cli_option_t *o, bench_config_t *cfg, char *err, size_t errlen)
{
    int t = o->value ? elem_find(o->value) : ELEM_FLOAT;

    if (t < 0)
        return fail(err, errlen, o->name, "float, double, int or byte", o->value);
    cfg->type = (elem_type_t)t;
    return CONFIG_OK;
}

/* What is communicated: op, algorithms, baseline, sizes. */
static int parse_workload(const cli_option_t *o, bench_config_t *cfg, char *err, size_t errlen)
{
    int rc = parse_op(&o[O_OP], cfg, err, errlen);

    if (rc == CONFIG_OK)
        rc = parse_algos(&o[O_ALGOS], cfg, err, errlen);
    if (rc == CONFIG_OK)
        rc = parse_baseline(&o[O_BASELINE], cfg, err, errlen);
    if (rc == CONFIG_OK)
        rc = parse_size(&o[O_SIZE], cfg, err, errlen);
    if (rc == CONFIG_OK)
        rc = parse_type(&o[O_TYPE], cfg, err, errlen);
    return rc;
}

/* How often and under which arrival pattern. */
static int parse_schedule(const cli_option_t *o, bench_config_t *cfg, char *err, size_t errlen)
{
    char msg[512];
    int rc;

    cfg->iters = 128;
    cfg->warmup = 2;
    cfg->maxdelay_ms = 50.0;
    cfg->base_ms = 100.0;
    cfg->seed = 1;
    cfg->sync = "double-barrier";
    cfg->pattern_spec = o[O_PATTERN].value ? o[O_PATTERN].value : "uniform";
    rc = opt_long(&o[O_ITERS], 1, 10000000, "a positive number of iterations", &cfg->iters, err, errlen);
    if (rc == CONFIG_OK)
        rc = opt_long(&o[O_WARMUP], 0, 10000000, "a non-negative number of iterations", &cfg->warmup, err,
                      errlen);
    if (rc == CONFIG_OK)
        rc = opt_ms(&o[O_MAXDELAY], &cfg->maxdelay_ms, err, errlen);
    if (rc == CONFIG_OK)
        rc = opt_ms(&o[O_BASE_MS], &cfg->base_ms, err, errlen);
    if (rc == CONFIG_OK && o[O_SEED].value && cli_parse_u64(o[O_SEED].value, &cfg->seed) != 0)
        rc = fail(err, errlen, "seed", "an unsigned 64-bit integer", o[O_SEED].value);
    if (rc == CONFIG_OK && o[O_SYNC].value && strcmp(o[O_SYNC].value, cfg->sync) != 0)
        rc = fail(err, errlen, "sync", "double-barrier (the only method so far)", o[O_SYNC].value);
    if (rc == CONFIG_OK && pattern_parse(cfg->pattern_spec, cfg->maxdelay_ms, cfg->nprocs, &cfg->pattern, msg,
                                         sizeof msg) != 0) {
        snprintf(err, errlen, "--pattern: %s", msg);
        rc = CONFIG_ERROR;
    }
    return rc;
}

/* Root, output and library options. */
static int parse_run(const cli_option_t *o, bench_config_t *cfg, char *err, size_t errlen)
{
    char expected[64];
    long root = 0;
    int rc;

    snprintf(expected, sizeof expected, "a rank in 0..%d", cfg->nprocs - 1);
    rc = opt_long(&o[O_ROOT], 0, cfg->nprocs - 1, expected, &root, err, errlen);
    cfg->root = (int)root;
    if (rc == CONFIG_OK && o[O_OUT].value && o[O_OUT].value[0] == '\0')
        rc = fail(err, errlen, "out", "a directory name", "");
    if (rc == CONFIG_OK && o[O_TRACE].value && o[O_TRACE].value[0] == '\0')
        rc = fail(err, errlen, "trace", "a file name", "");
    if (rc == CONFIG_OK && o[O_PREDICTOR].value && o[O_PREDICTOR].value[0] == '\0')
        rc = fail(err, errlen, "predictor", "edge, last, sma:K or ewma:A", "");
    if (rc == CONFIG_OK && o[O_CONFIG].value && o[O_CONFIG].value[0] == '\0')
        rc = fail(err, errlen, "config", "a file name", "");
    cfg->config_file = o[O_CONFIG].value;
    cfg->out_dir = o[O_OUT].value;
    cfg->trace_path = o[O_TRACE].value;
    cfg->predictor = o[O_PREDICTOR].value;
    cfg->no_monitor = o[O_NO_MONITOR].value != NULL;
    cfg->no_bind = o[O_NO_BIND].value != NULL;
    cfg->quiet = o[O_QUIET].value != NULL;
    return rc;
}

int config_parse(int argc, char **argv, int nprocs, bench_config_t *cfg, char *err, size_t errlen)
{
    cli_option_t o[O_COUNT];
    char msg[256];
    int rc;

    memcpy(o, option_table, sizeof o);
    memset(cfg, 0, sizeof *cfg);
    cfg->nprocs = nprocs;
    if (cli_parse(argc, argv, o, O_COUNT, msg, sizeof msg) != 0) {
        snprintf(err, errlen, "%s (see papbench --help)", msg);
        return CONFIG_ERROR;
    }
    if (o[O_HELP].value != NULL)
        return CONFIG_HELP;
    rc = parse_workload(o, cfg, err, errlen);
    if (rc == CONFIG_OK)
        rc = parse_schedule(o, cfg, err, errlen);
    if (rc == CONFIG_OK)
        rc = parse_run(o, cfg, err, errlen);
    if (rc != CONFIG_OK)
        config_free(cfg);
    return rc;
}

static void usage_algos(papcoll_op_t op)
{
    int i, n = papcoll_algo_count(op);

    printf("  %s:\n", papcoll_op_name(op));
    for (i = 0; i < n; i++) {
        unsigned f = papcoll_algo_flags(op, i);

        printf("    %-6s %s%s%s\n", papcoll_algo_name(op, i), papcoll_algo_summary(op, i),
               f & PAPCOLL_F_NEEDS_PAT ? " [PAT-aware]" : "",
               f & PAPCOLL_F_BACKGROUND ? " [monitor thread]" : "");
    }
}

void config_usage(void)
{
    cli_option_t o[O_COUNT];
    int op;

    memcpy(o, option_table, sizeof o);
    printf("usage: mpirun -np P papbench [options]\n\n"
           "Runs papcoll gather or scatter algorithms after an emulated computation whose\n"
           "per-rank delays follow a process arrival pattern (Proficz 2020, Fig. 13),\n"
           "validates every result and reports run time and average elapsed time\n"
           "(repeated, interleaved measurement as in Marendic 2016, Alg. 2).\n\n"
           "options:\n");
    cli_print_options(o, O_COUNT);
    printf("\npatterns (--pattern SPEC; delays per rank and iteration, in ms unless noted):\n");
    pattern_usage(stdout);
    printf("\nalgorithms (--algos):\n");
    for (op = 0; op < PAPCOLL_OP_COUNT; op++)
        usage_algos((papcoll_op_t)op);
    printf("\nexit status: 0 success, 1 validation failure or runtime error, 2 bad usage.\n"
           "Metrics and output files: docs/papbench.md.\n");
}

void config_free(bench_config_t *cfg)
{
    free(cfg->algos);
    cfg->algos = NULL;
    cfg->nalgos = 0;
    pattern_free(&cfg->pattern);
}
