/*
 * Command line of papbench (see config.h and docs/papbench.md).
 */
#include "config.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "output.h"

enum {
    O_OP,
    O_ALGOS,
    O_SIZE,
    O_TYPE,
    O_REDUCE_OP,
    O_ITERS,
    O_WARMUP,
    O_CALIBRATE,
    O_MAXDELAY,
    O_PATTERN,
    O_SEED,
    O_SYNC,
    O_FINISHED,
    O_BASE_MS,
    O_BASELINE,
    O_ROOT,
    O_OUT,
    O_TRACE,
    O_PREDICTOR,
    O_CONFIG,
    O_NO_MONITOR,
    O_NO_BIND,
    O_SHARED_BUFFERS,
    O_SHUFFLE,
    O_QUIET,
    O_HELP,
    O_COUNT
};

/* Defaults follow the paper's benchmark (Proficz 2020, Sect. 5.1). */
static const cli_option_t option_table[O_COUNT] = {
    [O_OP] = {"op", "OP", "gather | scatter | bcast | reduce | allreduce (default gather)"},
    [O_ALGOS] =
        {"algos", "LIST",
         "comma-separated algorithm names or policies (auto, rules:FILE), or all (default all)"},
    [O_SIZE] = {"size", "N",
                "elements, K/M = 1024/1048576 (default 2M); gather, scatter: the whole vector,\n"
                "                         N/P per rank; bcast, reduce, allreduce: the vector of every rank"},
    [O_TYPE] = {"type", "TYPE", "float | double | int | byte (default float)"},
    [O_REDUCE_OP] = {"reduce-op", "OP",
                     "reduce, allreduce: sum | max | min | prod | band | bor (default sum)"},
    [O_ITERS] = {"iters", "N", "measured iterations per algorithm (default 128)"},
    [O_WARMUP] = {"warmup", "N", "unmeasured iterations before them (default 2)"},
    [O_CALIBRATE] = {"calibrate", "N",
                     "balanced rounds before the warm-ups: t(pi), absorption (default 0; 8 with Fx)"},
    [O_MAXDELAY] = {"maxdelay", "MS|Fx",
                    "magnitude of uniform and single: MS ms, or F times the baseline's balanced\n"
                    "                         median run time from --calibrate (default 50)"},
    [O_PATTERN] = {"pattern", "SPEC", "arrival pattern, see below (default uniform)"},
    [O_SEED] = {"seed", "S", "seed of the delay generator (default 1)"},
    [O_SYNC] = {"sync", "METHOD", "synchronisation before each call: double-barrier (default)"},
    [O_FINISHED] =
        {"finished", "WAIT",
         "how a rank that left the call waits for the others before the results\n"
         "                         exchange: mpi (in MPI; default) or sleep (tests every 100 us and\n"
         "                         sleeps between: ranks that share cores leave them to those still\n"
         "                         in the call, docs/papbench.md)"},
    [O_BASE_MS] = {"base-ms", "MS", "emulated computation per iteration, delay excluded (default 100)"},
    [O_BASELINE] = {"baseline", "NAME", "algorithm the speedups refer to (default: first of --algos)"},
    [O_ROOT] = {"root", "R", "root rank (default 0)"},
    [O_OUT] = {"out", "DIR", "write DIR/results.json and DIR/results.csv (mkdir -p)"},
    [O_TRACE] = {"trace", "FILE", "write every call of every rank to FILE (HDF5, see docs/trace.md)"},
    [O_PREDICTOR] = {"predictor", "SPEC", "PAT predictor: edge, last, sma:K, ewma:A (default: library's)"},
    [O_CONFIG] = {"config", "FILE", "papcoll INI file with a [papcoll] section (default $PAPCOLL_CONFIG)"},
    [O_NO_MONITOR] = {"no-monitor", NULL, "no monitor thread (B* algorithms run in the foreground)"},
    [O_NO_BIND] = {"no-bind", NULL, "do not bind the receive buffer (background parts stage and copy)"},
    [O_SHARED_BUFFERS] = {"shared-buffers", NULL,
                          "SMPI build only: every rank's buffers share one SMPI_SHARED_MALLOC block, so\n"
                          "                         the simulator moves and holds no data; nothing is filled or\n"
                          "                         validated (docs/simulation.md)"},
    [O_SHUFFLE] = {"shuffle", NULL,
                   "each round runs the entries in its own random order, drawn from --seed\n"
                   "                         (default: every round in --algos order)"},
    [O_QUIET] = {"quiet", NULL, "no progress lines on stderr"},
    [O_HELP] = {"help", NULL, "this text"},
};

static const cli_spec_t spec = {"papbench", option_table, O_COUNT, -1, O_HELP, NULL, NULL};

/* An optional non-negative number of milliseconds. */
/* Longest emulated computation or delay per iteration: one hour.  Far
 * larger values are typing errors, and beyond time_t's range the sleep's
 * conversion is undefined (1e300 ran without sleeping). */
#define MS_MAX 3.6e6

static int opt_ms(const bench_config_t *cfg, int i, double *out, char *err, size_t errlen)
{
    int rc = cli_opts_nonneg(&cfg->opts, i, "a non-negative number of milliseconds", out, err, errlen);

    if (rc == CLI_OK && *out > MS_MAX)
        return cli_opts_fail(&cfg->opts, i, "at most 3600000 milliseconds (one hour)", err, errlen);
    return rc;
}

static int parse_op(bench_config_t *cfg, char *err, size_t errlen)
{
    const char *v = cfg->opts.opt[O_OP].value;
    int op = v != NULL ? papcoll_op_find(v) : PAPCOLL_OP_GATHER;

    if (op < 0)
        return cli_opts_fail(&cfg->opts, O_OP, "gather, scatter, bcast, reduce or allreduce", err, errlen);
    cfg->op = (papcoll_op_t)op;
    cfg->reduction = cfg->op == PAPCOLL_OP_REDUCE || cfg->op == PAPCOLL_OP_ALLREDUCE;
    return CLI_OK;
}

const char *bench_label(const bench_config_t *cfg, int a)
{
    return cfg->entry[a];
}

static int all_algos(bench_config_t *cfg, char *err, size_t errlen)
{
    int i, n = papcoll_algo_count(cfg->op);

    cfg->algos = malloc((size_t)n * sizeof *cfg->algos);
    cfg->entry = calloc((size_t)n, sizeof *cfg->entry);
    if (cfg->algos == NULL || cfg->entry == NULL) {
        snprintf(err, errlen, "out of memory");
        return CLI_ERROR;
    }
    for (i = 0; i < n; i++) {
        cfg->algos[i] = i;
        snprintf(cfg->entry[i], sizeof cfg->entry[i], "%s", papcoll_algo_name(cfg->op, i));
    }
    cfg->nalgos = n;
    return CLI_OK;
}

/* Whether name is a data-dependent policy (docs/policies.md); papcoll
 * checks its parameters and file when the site is created. */
static int is_policy(const char *name)
{
    return strcmp(name, "auto") == 0 || strncmp(name, "auto:", 5) == 0 ||
           (strncmp(name, "rules:", 6) == 0 && name[6] != '\0');
}

/* Entry i of the list: an algorithm ("NAME", "fixed:NAME") or a policy;
 * unknown and repeated entries are errors.  Returns 0, or -1. */
static int find_algo(bench_config_t *cfg, const char *name, int i, char *err, size_t errlen)
{
    char valid[1024];
    const char *algo = strncmp(name, "fixed:", 6) == 0 ? name + 6 : name;
    int a = papcoll_algo_find(cfg->op, algo), j;

    if (a < 0 && !is_policy(name)) {
        snprintf(err, errlen, "--algos: unknown %s algorithm '%s' (valid: %s; or a policy: auto, rules:FILE)",
                 papcoll_op_name(cfg->op), name, papcoll_algo_list(cfg->op, valid, sizeof valid));
        return -1;
    }
    if (strlen(name) >= sizeof cfg->entry[i]) {
        snprintf(err, errlen, "--algos: '%.40s...' is too long", name);
        return -1;
    }
    snprintf(cfg->entry[i], sizeof cfg->entry[i], "%s", a >= 0 ? papcoll_algo_name(cfg->op, a) : name);
    for (j = 0; j < i; j++)
        if (strcmp(cfg->entry[j], cfg->entry[i]) == 0) {
            snprintf(err, errlen, "--algos: '%s' is listed twice", name);
            return -1;
        }
    cfg->algos[i] = a;
    return 0;
}

static int parse_algos(bench_config_t *cfg, char *err, size_t errlen)
{
    const char *v = cfg->opts.opt[O_ALGOS].value;
    char **names = NULL;
    int i, n = 0, a = 0;

    if (v == NULL || strcmp(v, "all") == 0)
        return all_algos(cfg, err, errlen);
    if (cli_split(v, ',', &names, &n) != 0)
        return cli_opts_fail(&cfg->opts, O_ALGOS, "a comma-separated list of algorithm names or all", err,
                             errlen);
    cfg->algos = malloc((size_t)n * sizeof *cfg->algos);
    cfg->entry = calloc((size_t)n, sizeof *cfg->entry);
    if (cfg->entry == NULL) {
        free(cfg->algos);
        cfg->algos = NULL;
    }
    for (i = 0; cfg->algos != NULL && i < n; i++)
        if ((a = find_algo(cfg, names[i], i, err, errlen)) < 0)
            break;
    if (cfg->algos == NULL)
        snprintf(err, errlen, "out of memory");
    cfg->nalgos = i;
    cli_list_free(names);
    return cfg->algos != NULL && a >= 0 ? CLI_OK : CLI_ERROR;
}

static int parse_baseline(bench_config_t *cfg, char *err, size_t errlen)
{
    const char *v = cfg->opts.opt[O_BASELINE].value;
    int i;

    cfg->baseline = 0;
    if (v == NULL)
        return CLI_OK;
    for (i = 0; i < cfg->nalgos; i++)
        if (strcmp(bench_label(cfg, i), v) == 0) {
            cfg->baseline = i;
            return CLI_OK;
        }
    snprintf(err, errlen, "--baseline: '%s' is not one of the algorithms of --algos", v);
    return CLI_ERROR;
}

/* --size: the whole vector split in P blocks (gather, scatter), or every rank's vector. */
static int parse_size(bench_config_t *cfg, char *err, size_t errlen)
{
    const char *v = cfg->opts.opt[O_SIZE].value;
    int blocks = cfg->op == PAPCOLL_OP_GATHER || cfg->op == PAPCOLL_OP_SCATTER;

    cfg->size = 2LL * 1048576;
    if (v != NULL && cli_parse_count(v, &cfg->size) != 0)
        return cli_opts_fail(&cfg->opts, O_SIZE, "a positive number with optional K/M suffix", err, errlen);
    cfg->count = blocks ? cfg->size / cfg->nprocs : cfg->size;
    if (cfg->count == 0) {
        snprintf(err, errlen,
                 "--size: %lld elements leave every one of the %d ranks an empty block; give at least %d",
                 cfg->size, cfg->nprocs, cfg->nprocs);
        return CLI_ERROR;
    }
    if (cfg->count > INT_MAX) {
        snprintf(err, errlen, "--size: %lld elements per rank exceed the MPI count limit %d", cfg->count,
                 INT_MAX);
        return CLI_ERROR;
    }
    return CLI_OK;
}

/* --type, and for reductions --reduce-op, which MPI must define on the type. */
static int parse_type(bench_config_t *cfg, char *err, size_t errlen)
{
    const char *t = cfg->opts.opt[O_TYPE].value, *r = cfg->opts.opt[O_REDUCE_OP].value;
    int type = t ? elem_find(t) : ELEM_FLOAT, op = r ? red_find(r) : RED_SUM;

    if (type < 0)
        return cli_opts_fail(&cfg->opts, O_TYPE, "float, double, int or byte", err, errlen);
    cfg->type = (elem_type_t)type;
    if (r != NULL && !cfg->reduction) {
        snprintf(err, errlen, "--reduce-op: only reduce and allreduce combine data (--op %s)",
                 papcoll_op_name(cfg->op));
        return CLI_ERROR;
    }
    if (op < 0)
        return cli_opts_fail(&cfg->opts, O_REDUCE_OP, "sum, max, min, prod, band or bor", err, errlen);
    cfg->reduce_op = (red_op_t)op;
    if (cfg->reduction && !red_valid(cfg->reduce_op, cfg->type)) {
        snprintf(err, errlen, "--reduce-op %s is not defined on --type %s (%s)", red_name(cfg->reduce_op),
                 elem_name(cfg->type),
                 cfg->type == ELEM_BYTE ? "MPI_BYTE takes band and bor only"
                                        : "band and bor need int or byte");
        return CLI_ERROR;
    }
    return CLI_OK;
}

/* What is communicated: op, algorithms, baseline, sizes, type, operation. */
static int parse_workload(bench_config_t *cfg, char *err, size_t errlen)
{
    static int (*const steps[])(bench_config_t *, char *, size_t) = {parse_op, parse_algos, parse_baseline,
                                                                     parse_size, parse_type};
    size_t i;
    int rc = CLI_OK;

    for (i = 0; rc == CLI_OK && i < sizeof steps / sizeof steps[0]; i++)
        rc = steps[i](cfg, err, errlen);
    return rc;
}

/* --maxdelay MS, or Fx: F times the baseline's balanced median (needs --calibrate >= 1). */
static int parse_maxdelay(bench_config_t *cfg, char *err, size_t errlen)
{
    const char *v = cfg->opts.opt[O_MAXDELAY].value;
    size_t len = v != NULL ? strlen(v) : 0;
    char factor[64];

    cfg->maxdelay_ms = 50.0;
    cfg->maxdelay_text = v != NULL ? v : "50";
    if (len == 0 || v[len - 1] != 'x')
        return opt_ms(cfg, O_MAXDELAY, &cfg->maxdelay_ms, err, errlen);
    snprintf(factor, sizeof factor, "%.*s", (int)(len - 1), v);
    if (len - 1 >= sizeof factor || cli_parse_double(factor, &cfg->maxdelay_rel) != 0 ||
        cfg->maxdelay_rel < 0 || cfg->maxdelay_rel > 1e4)
        return cli_opts_fail(
            &cfg->opts, O_MAXDELAY,
            "milliseconds (at most 3600000), or a factor 0 <= F <= 10000 of the balanced run time as Fx", err,
            errlen);
    /* The pattern's delays come in units of 1 ms, scaled once the balanced run time is known. */
    cfg->maxdelay_ms = 1.0;
    if (cfg->opts.opt[O_CALIBRATE].value == NULL)
        cfg->calibrate = CALIBRATE_DEFAULT;
    if (cfg->calibrate < 1) {
        snprintf(err, errlen,
                 "--maxdelay %s needs --calibrate N >= 1 (the balanced rounds that measure the run time)", v);
        return CLI_ERROR;
    }
    /* 0x is no delay, whatever the calibration measures. */
    if (cfg->maxdelay_rel == 0)
        cfg->maxdelay_ms = 0;
    return CLI_OK;
}

/* How often and under which arrival pattern. */
static int parse_schedule(bench_config_t *cfg, char *err, size_t errlen)
{
    const cli_opts_t *op = &cfg->opts;
    const cli_option_t *o = op->opt;
    char msg[512];
    int rc;

    cfg->iters = 128;
    cfg->warmup = 2;
    cfg->base_ms = 100.0;
    cfg->seed = 1;
    cfg->sync = "double-barrier";
    cfg->pattern_spec = o[O_PATTERN].value ? o[O_PATTERN].value : "uniform";
    rc = cli_opts_long(op, O_ITERS, 1, 10000000, "a positive number of iterations", &cfg->iters, err, errlen);
    if (rc == CLI_OK)
        rc = cli_opts_long(op, O_WARMUP, 0, 10000000, "a non-negative number of iterations", &cfg->warmup,
                           err, errlen);
    if (rc == CLI_OK)
        rc = cli_opts_long(op, O_CALIBRATE, 0, 10000000, "a non-negative number of rounds", &cfg->calibrate,
                           err, errlen);
    if (rc == CLI_OK)
        rc = parse_maxdelay(cfg, err, errlen);
    if (rc == CLI_OK)
        rc = opt_ms(cfg, O_BASE_MS, &cfg->base_ms, err, errlen);
    if (rc == CLI_OK && o[O_SEED].value && cli_parse_u64(o[O_SEED].value, &cfg->seed) != 0)
        rc = cli_opts_fail(op, O_SEED, "an unsigned 64-bit integer", err, errlen);
    if (rc == CLI_OK && o[O_SYNC].value && strcmp(o[O_SYNC].value, cfg->sync) != 0)
        rc = cli_opts_fail(op, O_SYNC, "double-barrier (the only method so far)", err, errlen);
    if (rc == CLI_OK && o[O_FINISHED].value) {
        if (strcmp(o[O_FINISHED].value, "sleep") == 0)
            cfg->finished_sleep = 1;
        else if (strcmp(o[O_FINISHED].value, "mpi") != 0)
            rc = cli_opts_fail(op, O_FINISHED, "mpi or sleep", err, errlen);
    }
    if (rc == CLI_OK && pattern_parse(cfg->pattern_spec, cfg->maxdelay_ms, cfg->nprocs, &cfg->pattern, msg,
                                      sizeof msg) != 0) {
        snprintf(err, errlen, "--pattern: %s", msg);
        rc = CLI_ERROR;
    }
    return rc;
}

/* Root (none for allreduce), output and library options. */
static int parse_run(bench_config_t *cfg, char *err, size_t errlen)
{
    const cli_opts_t *op = &cfg->opts;
    const cli_option_t *o = op->opt;
    static const int names[] = {O_OUT, O_TRACE, O_PREDICTOR, O_CONFIG};
    static const char *const expected[] = {"a directory name", "a file name", "edge, last, sma:K or ewma:A",
                                           "a file name"};
    char range[64];
    long root = 0;
    int rc, i;

    snprintf(range, sizeof range, "a rank in 0..%d", cfg->nprocs - 1);
    if (cfg->op == PAPCOLL_OP_ALLREDUCE && o[O_ROOT].value != NULL) {
        snprintf(err, errlen, "--root: allreduce has no root");
        return CLI_ERROR;
    }
    rc = cli_opts_long(op, O_ROOT, 0, cfg->nprocs - 1, range, &root, err, errlen);
    cfg->root = (int)root;
    for (i = 0; rc == CLI_OK && i < (int)(sizeof names / sizeof names[0]); i++)
        rc = cli_opts_nonempty(op, names[i], expected[i], err, errlen);
    cfg->config_file = o[O_CONFIG].value;
    cfg->out_dir = o[O_OUT].value;
    cfg->trace_path = o[O_TRACE].value;
    cfg->predictor = o[O_PREDICTOR].value;
    cfg->no_monitor = o[O_NO_MONITOR].value != NULL;
    cfg->no_bind = o[O_NO_BIND].value != NULL;
    cfg->shared_buffers = o[O_SHARED_BUFFERS].value != NULL;
#ifndef PAPCOLL_SMPI
    if (rc == CLI_OK && cfg->shared_buffers) {
        snprintf(err, errlen, "--shared-buffers: only in the SMPI build (make smpi)");
        rc = CLI_ERROR;
    }
#endif
    cfg->shuffle = o[O_SHUFFLE].value != NULL;
    cfg->quiet = o[O_QUIET].value != NULL;
    return rc;
}

static int parse_corrupt(bench_config_t *cfg, char *err, size_t errlen)
{
    return cli_env_rank(BENCH_CORRUPT_ENV, cfg->nprocs, &cfg->corrupt_rank, err, errlen) == 0 ? CLI_OK
                                                                                              : CLI_ERROR;
}

int config_parse(int argc, char **argv, int nprocs, bench_config_t *cfg, char *err, size_t errlen)
{
    static int (*const steps[])(bench_config_t *, char *, size_t) = {parse_workload, parse_schedule,
                                                                     parse_run, parse_corrupt};
    size_t i;
    int rc;

    memset(cfg, 0, sizeof *cfg);
    cfg->nprocs = nprocs;
    rc = cli_opts_parse(&cfg->opts, &spec, argc, argv, err, errlen);
    for (i = 0; rc == CLI_OK && i < sizeof steps / sizeof steps[0]; i++)
        rc = steps[i](cfg, err, errlen);
    return rc;
}

void config_text(const bench_config_t *c, char *buf, size_t len)
{
    int blocks = c->op == PAPCOLL_OP_GATHER || c->op == PAPCOLL_OP_SCATTER, a;
    text_t t;

    text_init(&t, buf, len);
    text_add(&t, "[papbench]\nop = %s\nalgos = ", papcoll_op_name(c->op));
    for (a = 0; a < c->nalgos; a++)
        text_add(&t, "%s%s", a ? "," : "", bench_label(c, a));
    text_add(&t, "\nbaseline = %s\nsize = %lld\nblock = %lld\ntype = %s\n",
             bench_label(c, c->baseline), blocks ? c->count * c->nprocs : c->count,
             c->count, elem_name(c->type));
    if (c->reduction)
        text_key(&t, "reduce-op", red_name(c->reduce_op));
    text_add(
        &t,
        "iters = %ld\nwarmup = %ld\ncalibrate = %ld\nmaxdelay = %s\nbase-ms = %g\npattern = %s\nseed = "
        "%" PRIu64
        "\nsync = %s\nfinished = %s\nroot = %d\npredictor = %s\nconfig = %s\nno-monitor = %s\nbind = %s\n"
        "order = %s\n",
        c->iters, c->warmup, c->calibrate, c->maxdelay_text, c->base_ms, c->pattern_spec, c->seed, c->sync,
        c->finished_sleep ? "sleep" : "mpi", c->root, c->predictor ? c->predictor : "",
        c->config_file ? c->config_file : "", c->no_monitor ? "yes" : "no", c->no_bind ? "no" : "yes",
        c->shuffle ? "shuffle" : "fixed");
    if (c->pattern.kind == PATTERN_REPLAY)
        text_add(&t, "# replay file: %ld lines, digest %016" PRIx64 "\n", c->pattern.replay.nrows,
                 c->pattern.replay.hash);
    if (c->shared_buffers)
        text_add(&t, "shared-buffers = yes\n");
    if (c->corrupt_rank >= 0)
        text_add(&t, "# test only: %s = %d\n", BENCH_CORRUPT_ENV, c->corrupt_rank);
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
    int op;

    printf("usage: mpirun -np P papbench [options]\n\n"
           "Runs papcoll's algorithms of one collective after an emulated computation whose\n"
           "per-rank delays follow a process arrival pattern (Proficz 2020, Fig. 13),\n"
           "validates every result and reports run time, average elapsed time and the\n"
           "efficiency against a lower bound (repeated, interleaved measurement as in\n"
           "Marendic 2016, Alg. 2).\n\n"
           "options:\n");
    cli_print_options(option_table, O_COUNT);
    printf("\npatterns (--pattern SPEC; delays per rank and iteration, in ms unless noted):\n");
    pattern_usage(stdout);
    printf("\nalgorithms (--algos):\n");
    for (op = 0; op < PAPCOLL_OP_COUNT; op++)
        usage_algos((papcoll_op_t)op);
    printf("\nexit status: 0 success, 1 validation failure or runtime error, 2 bad usage.\n"
           "Metrics, lower bounds and output files: docs/papbench.md.\n");
}

void config_free(bench_config_t *cfg)
{
    free(cfg->algos);
    free(cfg->entry);
    cfg->algos = NULL;
    cfg->entry = NULL;
    cfg->nalgos = 0;
    pattern_free(&cfg->pattern);
    cli_opts_free(&cfg->opts);
}

/* The scaffold's view (app.h). */
APP_CONFIG_OPS(bench_config_ops, bench_config_t, config_parse, config_usage, config_text, config_free);
