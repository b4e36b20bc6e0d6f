/*
 * Noise specifications and per-iteration delays (see noise.h).
 */
#include "noise.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "patfile.h"
#include "rng.h"

/* Keeps the noise streams apart from the signal's streams of the same seed. */
#define NOISE_SALT 0x6E6F697365ULL

static int parse_uniform(const char *arg, fft_noise_t *nz, char *err, size_t errlen)
{
    double ms;

    if (cli_parse_double(arg, &ms) != 0 || ms < 0 || ms > 3.6e6) {
        snprintf(err, errlen, "uniform:MS: expected milliseconds in [0, 3600000], got '%s'", arg);
        return -1;
    }
    nz->kind = NOISE_UNIFORM;
    nz->max_s = 1e-3 * ms;
    return 0;
}

static int parse_slow(const char *arg, fft_noise_t *nz, char *err, size_t errlen)
{
    const char *comma = strchr(arg, ',');
    char rank[32];
    long r;

    if (comma == NULL || (size_t)(comma - arg) >= sizeof rank) {
        snprintf(err, errlen, "slow-rank:R,FACTOR: expected a rank and a factor, got '%s'", arg);
        return -1;
    }
    memcpy(rank, arg, (size_t)(comma - arg));
    rank[comma - arg] = '\0';
    if (cli_parse_long(rank, 0, nz->nprocs - 1, &r) != 0) {
        snprintf(err, errlen, "slow-rank:R,FACTOR: R must be a rank in 0..%d, got '%s'", nz->nprocs - 1,
                 rank);
        return -1;
    }
    if (cli_parse_double(comma + 1, &nz->factor) != 0 || nz->factor < 1.0 || nz->factor > 1e4) {
        snprintf(err, errlen, "slow-rank:R,FACTOR: FACTOR must be a number in [1, 10000], got '%s'",
                 comma + 1);
        return -1;
    }
    nz->kind = NOISE_SLOW_RANK;
    nz->rank = (int)r;
    return 0;
}

static int parse_trace(const char *path, fft_noise_t *nz, char *err, size_t errlen)
{
    nz->kind = NOISE_TRACE;
    return patfile_read(path, "trace file", nz->nprocs, &nz->trace, err, errlen);
}

int fft_noise_parse(const char *spec, int nprocs, fft_noise_t *nz, char *err, size_t errlen)
{
    int rc = -1;

    memset(nz, 0, sizeof *nz);
    nz->nprocs = nprocs;
    nz->factor = 1.0;
    if (strcmp(spec, "none") == 0)
        rc = 0;
    else if (strncmp(spec, "uniform:", 8) == 0)
        rc = parse_uniform(spec + 8, nz, err, errlen);
    else if (strncmp(spec, "slow-rank:", 10) == 0)
        rc = parse_slow(spec + 10, nz, err, errlen);
    else if (strncmp(spec, "trace:", 6) == 0 && spec[6] != '\0')
        rc = parse_trace(spec + 6, nz, err, errlen);
    else
        snprintf(err, errlen, "expected none, uniform:MS, slow-rank:R,FACTOR or trace:FILE, got '%s'", spec);
    if (rc != 0)
        fft_noise_free(nz);
    return rc;
}

void fft_noise_free(fft_noise_t *nz)
{
    patfile_free(&nz->trace);
    nz->kind = NOISE_NONE;
}

double fft_noise_delay(const fft_noise_t *nz, uint64_t seed, long iter, int rank)
{
    double d = 0.0;
    rng_t r;
    int i;

    switch (nz->kind) {
    case NOISE_UNIFORM:
        /* The whole vector in rank order: every rank draws the same one. */
        rng_init(&r, seed ^ NOISE_SALT, (uint64_t)iter);
        for (i = 0; i <= rank; i++)
            d = nz->max_s * rng_uniform(&r);
        return d;
    case NOISE_TRACE:
        return patfile_row(&nz->trace, iter)[rank];
    default:
        return 0.0;
    }
}

double fft_noise_factor(const fft_noise_t *nz, int rank)
{
    return nz->kind == NOISE_SLOW_RANK && rank == nz->rank ? nz->factor : 1.0;
}

void fft_noise_describe(const fft_noise_t *nz, char *buf, size_t len)
{
    switch (nz->kind) {
    case NOISE_UNIFORM:
        snprintf(buf, len, "uniform: each rank sleeps U(0, %g ms) per iteration", 1e3 * nz->max_s);
        break;
    case NOISE_SLOW_RANK:
        snprintf(buf, len, "slow-rank: rank %d computes %g times as long", nz->rank, nz->factor);
        break;
    case NOISE_TRACE:
        snprintf(buf, len, "trace: %ld iterations of %d delays replayed (cycled)", nz->trace.nrows,
                 nz->nprocs);
        break;
    default:
        snprintf(buf, len, "none");
    }
}
