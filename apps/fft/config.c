/*
 * Command line and INI file of the FFT proxy (see config.h, docs/fft.md).
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "output.h"
#include "papcoll.h"
#include "work.h"

enum {
    O_CONFIG,
    O_N,
    O_ITERS,
    O_THREADS,
    O_ALGO,
    O_KERNEL,
    O_WORK,
    O_NOISE,
    O_VERIFY_EVERY,
    O_SEED,
    O_OUT,
    O_TRACE,
    O_QUIET,
    O_HELP,
    O_COUNT
};

/* Defaults follow the paper's use case (Proficz 2020, Sect. 6). */
static const cli_option_t option_table[O_COUNT] = {
    [O_CONFIG] = {"config", "FILE",
                  "INI file: [fft] keys named like these options, [papcoll] for the library"},
    [O_N] = {"n", "N", "complex points per iteration, a power of two, K/M suffix (default 256K)"},
    [O_ITERS] = {"iters", "I", "iterations (default 100)"},
    [O_THREADS] = {"threads", "T", "OpenMP threads per rank (default 1)"},
    [O_ALGO] = {"algo", "NAME", "gather algorithm (default: $PAPCOLL_GATHER_ALGORITHM, then library's)"},
    [O_KERNEL] = {"kernel", "K", "block transform: own (radix-2 DIF) | fftw (default own)"},
    [O_WORK] = {"work", "W",
                "extra signal processing per iteration: W multitaper FFT passes on each block (default 0)"},
    [O_NOISE] = {"noise", "SPEC", "imbalance injection, see below (default none)"},
    [O_VERIFY_EVERY] = {"verify-every", "K",
                        "check against FFTW every K iterations and on the last (default 100)"},
    [O_SEED] = {"seed", "S", "seed of the input signal and the noise (default 1)"},
    [O_OUT] = {"out", "DIR", "write DIR/summary.json and DIR/iterations.csv (mkdir -p)"},
    [O_TRACE] = {"trace", "FILE", "write every gather's per-rank records to FILE (HDF5, libpaptrace)"},
    [O_QUIET] = {"quiet", NULL, "no progress lines on stderr"},
    [O_HELP] = {"help", NULL, "this text"},
};

static const char *const other_sections[] = {"papcoll", NULL};
static const cli_spec_t spec = {"fft", option_table, O_COUNT, O_CONFIG, O_HELP, "fft", other_sections};

static int log2_exact(long long v)
{
    int k = 0;

    while (k < 62 && (1LL << k) < v)
        k++;
    return (1LL << k) == v ? k : -1;
}

/* P and N: both powers of two, blocks of at least 2^FFT_MIN_LOG2_BLOCK points. */
static int parse_size(fft_config_t *cfg, char *err, size_t errlen)
{
    const cli_opts_t *op = &cfg->opts;
    const cli_option_t *o = op->opt;
    char expected[96];

    if ((cfg->log2p = log2_exact(cfg->nprocs)) < 0) {
        snprintf(err, errlen, "%d processes: the master runs log2(P) DIF stages, so P must be a power of two",
                 cfg->nprocs);
        return CLI_ERROR;
    }
    cfg->n = 256 * 1024;
    snprintf(expected, sizeof expected, "a power of two up to 2^%d (K/M suffixes allowed)", FFT_MAX_LOG2N);
    if (o[O_N].value != NULL && cli_parse_count(o[O_N].value, &cfg->n) != 0)
        return cli_opts_fail(op, O_N, expected, err, errlen);
    cfg->log2n = log2_exact(cfg->n);
    if (cfg->log2n < 0 || cfg->log2n > FFT_MAX_LOG2N)
        return cli_opts_fail(op, O_N, expected, err, errlen);
    cfg->log2b = cfg->log2n - cfg->log2p;
    if (cfg->log2b < FFT_MIN_LOG2_BLOCK) {
        snprintf(err, errlen,
                 "n = %lld on %d processes gives blocks of %lld points, below the minimum %d (n >= %lld)",
                 cfg->n, cfg->nprocs, cfg->n / cfg->nprocs, 1 << FFT_MIN_LOG2_BLOCK,
                 (long long)cfg->nprocs << FFT_MIN_LOG2_BLOCK);
        return CLI_ERROR;
    }
    return CLI_OK;
}

static int parse_algo(fft_config_t *cfg, char *err, size_t errlen)
{
    const cli_opts_t *op = &cfg->opts;
    const cli_option_t *o = op->opt;
    int k;

    cfg->algo = o[O_ALGO].value;
    if (app_config_algo(op, O_ALGO, PAPCOLL_OP_GATHER, err, errlen) != CLI_OK)
        return CLI_ERROR;
    k = o[O_KERNEL].value != NULL ? fft_kernel_find(o[O_KERNEL].value) : FFT_KERNEL_OWN;
    if (k < 0)
        return cli_opts_fail(op, O_KERNEL, "own or fftw", err, errlen);
    cfg->kernel = (fft_kernel_kind_t)k;
    return CLI_OK;
}

/* How long and how often: iterations, validation, threads, seed. */
static int parse_loop(fft_config_t *cfg, char *err, size_t errlen)
{
    const cli_opts_t *op = &cfg->opts;
    const cli_option_t *o = op->opt;
    long threads = 1;
    int rc;

    cfg->iters = 100;
    cfg->verify_every = 100;
    cfg->seed = 1;
    rc = cli_opts_long(op, O_ITERS, 1, 1000000, "a number of iterations in 1..1000000", &cfg->iters, err,
                       errlen);
    if (rc == CLI_OK)
        rc = cli_opts_long(op, O_VERIFY_EVERY, 1, 1000000000, "a positive number of iterations",
                           &cfg->verify_every, err, errlen);
    if (rc == CLI_OK)
        rc = cli_opts_long(op, O_THREADS, 1, 1024, "a number of threads in 1..1024", &threads, err, errlen);
    cfg->threads = (int)threads;
    if (rc == CLI_OK)
        rc =
            cli_opts_long(op, O_WORK, 0, FFT_MAX_WORK, "a work factor in 0..100000", &cfg->work, err, errlen);
    if (rc == CLI_OK && o[O_SEED].value != NULL && cli_parse_u64(o[O_SEED].value, &cfg->seed) != 0)
        rc = cli_opts_fail(op, O_SEED, "an unsigned 64-bit integer", err, errlen);
    return rc;
}

static int parse_noise(fft_config_t *cfg, char *err, size_t errlen)
{
    const char *v = cfg->opts.opt[O_NOISE].value;
    char msg[384], where[320];

    cfg->noise_spec = v != NULL ? v : "none";
    if (fft_noise_parse(cfg->noise_spec, cfg->nprocs, &cfg->noise, msg, sizeof msg) == 0)
        return CLI_OK;
    snprintf(err, errlen, "%s: %s", cli_opts_origin(&cfg->opts, O_NOISE, where, sizeof where), msg);
    return CLI_ERROR;
}

/* Output, progress and the test-only corruption switch. */
static int parse_run(fft_config_t *cfg, char *err, size_t errlen)
{
    const cli_opts_t *op = &cfg->opts;
    const cli_option_t *o = op->opt;

    cfg->out_dir = o[O_OUT].value;
    cfg->trace_file = o[O_TRACE].value;
    cfg->quiet = o[O_QUIET].value != NULL;
    cfg->corrupt_rank = -1;
    if (cli_opts_nonempty(op, O_OUT, "a directory name", err, errlen) != CLI_OK ||
        cli_opts_nonempty(op, O_TRACE, "a file name", err, errlen) != CLI_OK)
        return CLI_ERROR;
    if (cli_env_rank(FFT_CORRUPT_ENV, cfg->nprocs, &cfg->corrupt_rank, err, errlen) != 0)
        return CLI_ERROR;
#ifdef PAPCOLL_SMPI
    const char *v = getenv(FFT_PASS_ENV);

    if (v != NULL && v[0] != '\0' &&
        (cli_parse_double(v, &cfg->smpi_pass_us) != 0 ||
         !(cfg->smpi_pass_us > 0.0 && cfg->smpi_pass_us <= 1e6))) {
        snprintf(err, errlen, "%s: expected microseconds in (0, 1e6], got '%s'", FFT_PASS_ENV, v);
        return CLI_ERROR;
    }
#endif
    return CLI_OK;
}

int fft_config_parse(int argc, char **argv, int nprocs, fft_config_t *cfg, char *err, size_t errlen)
{
    /* In order; last, the noise: a trace file is only read once everything else is known to be right. */
    static int (*const steps[])(fft_config_t *, char *, size_t) = {parse_size, parse_algo, parse_loop,
                                                                   parse_run, parse_noise};
    size_t i;
    int rc;

    memset(cfg, 0, sizeof *cfg);
    cfg->nprocs = nprocs;
    cfg->corrupt_rank = -1;
    rc = cli_opts_parse(&cfg->opts, &spec, argc, argv, err, errlen);
    cfg->config_file = cfg->opts.file;
    cfg->config_papcoll = (cfg->opts.others & 1u) != 0;
    for (i = 0; rc == CLI_OK && i < sizeof steps / sizeof steps[0]; i++)
        rc = steps[i](cfg, err, errlen);
    return rc;
}

void fft_config_text(const fft_config_t *cfg, char *buf, size_t len)
{
    text_t t;

    text_init(&t, buf, len);
    text_add(&t,
             "[fft]\nn = %lld\niters = %ld\nthreads = %d\nkernel = %s\nwork = %ld\nnoise = %s\nverify-every "
             "= %ld\nseed "
             "= %" PRIu64 "\n",
             cfg->n, cfg->iters, cfg->threads, fft_kernel_name(cfg->kernel), cfg->work, cfg->noise_spec,
             cfg->verify_every, cfg->seed);
    text_key(&t, "algo", cfg->algo);
    text_key(&t, "out", cfg->out_dir);
    text_key(&t, "trace", cfg->trace_file);
    if (cfg->noise.kind == NOISE_TRACE)
        text_add(&t, "# noise trace file: %ld lines, digest %016" PRIx64 "\n", cfg->noise.trace.nrows,
                 cfg->noise.trace.hash);
    if (cfg->corrupt_rank >= 0)
        text_add(&t, "# test only: %s = %d\n", FFT_CORRUPT_ENV, cfg->corrupt_rank);
    if (cfg->smpi_pass_us > 0.0)
        text_add(&t, "# simulation: %s = %.17g\n", FFT_PASS_ENV, cfg->smpi_pass_us);
}

void fft_config_usage(void)
{
    int i, n = papcoll_algo_count(PAPCOLL_OP_GATHER);

    printf("usage: mpirun -np P fft [options]        (P a power of two)\n\n"
           "Master-slave parallel FFT (Proficz 2020, Sect. 6): each iteration rank 0 generates\n"
           "N random complex single-precision points, runs the first log2(P) radix-2 DIF stages,\n"
           "sends every rank its independent N/P-point sub-sequence, all ranks transform their\n"
           "block (OpenMP), the results come back through one papcoll gather call site and\n"
           "rank 0 restores natural order.  Validated against FFTW's full transform.\n\n"
           "options (each except --config and --help also as a key of the INI file's [fft]\n"
           "section; the command line wins):\n");
    cli_print_options(option_table, O_COUNT);
    printf("\nnoise (--noise SPEC; extra delays, split half before and half after the PAT edge):\n"
           "  none             no injection (default): the FFT's own imbalance\n"
           "  uniform:MS       each rank sleeps U(0, MS) ms per iteration (same draws on all ranks)\n"
           "  slow-rank:R,F    rank R computes F times as long (1 <= F <= 10000)\n"
           "  trace:FILE       line k (cycled): P delays in seconds for iteration k; '#' comments\n");
    printf("\ngather algorithms (--algo):\n");
    for (i = 0; i < n; i++)
        printf("  %-6s %s\n", papcoll_algo_name(PAPCOLL_OP_GATHER, i),
               papcoll_algo_summary(PAPCOLL_OP_GATHER, i));
    printf("\nexit status: 0 success, 1 validation failure or runtime error, 2 bad usage.\n"
           "Details, output files and the error bound: docs/fft.md.\n");
}

void fft_config_free(fft_config_t *cfg)
{
    fft_noise_free(&cfg->noise);
    cli_opts_free(&cfg->opts);
}

/* The scaffold's view (app.h). */
APP_CONFIG_OPS(fft_config_ops, fft_config_t, fft_config_parse, fft_config_usage, fft_config_text,
               fft_config_free);
