/*
 * Imbalance injection for controlled experiments (pure: no MPI).  Off by
 * default: the FFT's natural imbalance (the master distributes blocks one
 * after the other and computes its own last) comes first.
 *
 *   none               nothing added
 *   uniform:MS         each rank sleeps U(0, MS) ms per iteration, drawn per
 *                      (seed, iteration) for the whole P-vector in rank
 *                      order: identical on every rank and between runs
 *   slow-rank:R,F      rank R computes F times as long (F >= 1): after each
 *                      half of its block transform it sleeps F - 1 times
 *                      that half's duration
 *   trace:FILE         replays a PAP: line k (cycled) holds the extra delays
 *                      of iteration k, P non-negative numbers in seconds;
 *                      blank lines and lines starting with '#' are skipped
 *
 * Sleeps are split around the PAT edge in proportion (half before, half
 * after), so the edge's arrival estimate stays consistent with the delay.
 */
#ifndef FFT_NOISE_H
#define FFT_NOISE_H

#include <stddef.h>
#include <stdint.h>

#include "patfile.h"

typedef enum { NOISE_NONE, NOISE_UNIFORM, NOISE_SLOW_RANK, NOISE_TRACE } fft_noise_kind_t;

typedef struct {
    fft_noise_kind_t kind;
    double max_s;  /* uniform: MS / 1000 */
    int rank;      /* slow-rank: R */
    double factor; /* slow-rank: F */
    int nprocs;
    patfile_t trace; /* trace: the delays (s) of each line */
} fft_noise_t;

/* Parses spec for nprocs ranks (reads a trace file).  Returns 0, or -1 with
 * one line in err, e.g. "trace file 'p.txt' line 3: 2 delays, expected 4". */
int fft_noise_parse(const char *spec, int nprocs, fft_noise_t *nz, char *err, size_t errlen);
void fft_noise_free(fft_noise_t *nz);

/* Extra sleep (s) of rank in iteration iter: uniform and trace; else 0. */
double fft_noise_delay(const fft_noise_t *nz, uint64_t seed, long iter, int rank);

/* Compute-time multiplier of rank: F for the slow rank, else 1. */
double fft_noise_factor(const fft_noise_t *nz, int rank);

/* One line describing the noise, for the configuration banner. */
void fft_noise_describe(const fft_noise_t *nz, char *buf, size_t len);

#endif /* FFT_NOISE_H */
