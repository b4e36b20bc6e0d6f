/*
 * Configuration of the FFT proxy: command line over the [fft] section of an
 * INI file (--config) over defaults, parsed once into a struct the rest of
 * the program only reads.
 *
 * Parsing is pure and identical on every rank (same argv, files, P); it
 * needs P because the block size and the noise depend on it.  Every check
 * that can fail happens here, before any work: N a power of two, N/P at
 * least the block minimum, P a power of two, a known gather algorithm and
 * kernel, a valid noise spec (a readable trace file).
 */
#ifndef FFT_CONFIG_H
#define FFT_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#include "app.h"
#include "cli_ini.h"
#include "kernel.h"
#include "noise.h"

/* Largest N: 2^28 points keep a rank's block count (2 floats a point) in an int. */
#define FFT_MAX_LOG2N 28

/* Test-only: this environment variable names a rank whose transformed block
 * is corrupted (one value negated) every iteration, to prove that the
 * validation fails (tests/fft.sh).  Never set it for measurements. */
#define FFT_CORRUPT_ENV "PAPCOLL_FFT_TEST_CORRUPT"

/* SMPI build only (unread natively): the --work passes do not run, each is
 * replayed as this many microseconds of computation (work.h). */
#define FFT_PASS_ENV "PAPCOLL_FFT_SMPI_PASS_US"

typedef struct {
    int nprocs;
    int log2p;   /* P = 2^log2p: the master's DIF stages */
    long long n; /* points per iteration, 2^log2n */
    int log2n;
    int log2b; /* block of each rank: 2^(log2n - log2p) points */
    long iters;
    long verify_every; /* validate every K iterations and on the last */
    long work;         /* --work: multitaper passes per iteration on each block (work.h), 0: none */
    int threads;       /* OpenMP threads per rank */
    const char *algo;  /* gather algorithm, NULL: PAPCOLL_GATHER_ALGORITHM, config, default */
    fft_kernel_kind_t kernel;
    const char *noise_spec;
    fft_noise_t noise;
    uint64_t seed;
    const char *out_dir;     /* NULL: no result files */
    const char *trace_file;  /* NULL: no HDF5 trace (libpaptrace) */
    const char *config_file; /* --config, NULL if none */
    int config_papcoll;      /* 1: config_file has a [papcoll] section for the library */
    int quiet;               /* no progress lines */
    int corrupt_rank;        /* test-only (FFT_CORRUPT_ENV), -1: none */
    double smpi_pass_us;     /* FFT_PASS_ENV, 0: every --work pass runs */
    cli_opts_t opts;         /* the options as given; owns the strings taken from the file */
} fft_config_t;

/*
 * Parses argv (and --config FILE) for nprocs ranks.  Returns CLI_OK,
 * CLI_HELP or CLI_ERROR with one line in err ("--n: expected ...",
 * "'f.ini' line 3: ...").  Release with fft_config_free in every case.
 */
int fft_config_parse(int argc, char **argv, int nprocs, fft_config_t *cfg, char *err, size_t errlen);

/* Writes the effective configuration as INI text ([fft] section; comment
 * lines for a noise trace file's digest and the test-only corruption). */
void fft_config_text(const fft_config_t *cfg, char *buf, size_t len);

/* Prints the usage text (options, noise specs, gather algorithms) to stdout. */
void fft_config_usage(void);

void fft_config_free(fft_config_t *cfg);

/* The configuration as the scaffold takes it (app_configure). */
extern const app_config_ops_t fft_config_ops;

#endif /* FFT_CONFIG_H */
