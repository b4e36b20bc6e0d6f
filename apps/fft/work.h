/*
 * Extra signal processing per iteration (--work W): a multitaper power
 * spectrum of the rank's block, so that computation can take the share of
 * the processing time it has in the paper (Proficz 2020, Sect. 6: 43.5 s of
 * 64.9 s).  Pure: no MPI; real work, never a sleep.
 *
 * The input is the rank's block as received (time domain, B = 2^log2b
 * complex points), copied before the block transform overwrites it.  Pass
 * t = 0 .. W-1 of an iteration uses the sine taper of order k = t + 1
 * (Riedel & Sidorenko 1995):
 *
 *   h_k(n) = sqrt(2 / (B + 1)) sin(pi k (n + 1) / (B + 1)),  n = 0 .. B-1,
 *
 * orthonormal over k.  One pass:
 *   1. window: y(n) = h_k(n) x(n) in single precision, the taper by the
 *      recurrence s(n+1) = 2 cos(theta) s(n) - s(n-1) in double
 *      (theta = pi k / (B + 1)), and E_t = sum |y(n)|^2 in double;
 *   2. Y = FFTW's B-point forward transform of y (out of place, planned
 *      once with FFTW_MEASURE);
 *   3. power spectrum |Y(f)|^2, E_f = sum |Y(f)|^2 / B in double;
 *   4. Parseval check: |E_f / E_t - 1| is kept as the pass's error.
 * The average of the W spectra is the multitaper estimate; its total power
 * sum_t E_f is accumulated into a checksum the app reports, so the work
 * cannot be optimised away, and the largest Parseval error must stay
 * within fft_parseval_tolerance(log2b) for the run to validate.
 */
#ifndef FFT_WORK_H
#define FFT_WORK_H

#include "dif.h"

#include <fftw3.h>

/* Largest work factor (passes per iteration). */
#define FFT_MAX_WORK 100000L

typedef struct {
    int log2b;
    long passes;     /* W; 0: no work, nothing allocated */
    double pass_s;   /* SMPI build: > 0: no pass runs, each is replayed as pass_s of simulated time */
    fftwf_plan plan; /* B-point forward, in -> out */
    fft_cpx_t *x;    /* the block's input, copied at processing start */
    fft_cpx_t *in, *out;
} fft_work_t;

/* Running totals of one rank. */
typedef struct {
    double power;        /* sum over passes of E_f (the checksum) */
    double max_parseval; /* largest |E_f / E_t - 1| (NaN stays NaN) */
    long passes;         /* passes run */
} fft_work_sum_t;

/* Allocates and plans for blocks of 2^log2b points (fftw_flags, e.g.
 * FFTW_MEASURE, with the caller's FFTW thread setting); passes 0 allocates
 * nothing.  Returns 0 or -1. */
int fft_work_init(fft_work_t *w, int log2b, long passes, unsigned fftw_flags);
void fft_work_free(fft_work_t *w);

/* Copies the block's input (before the block transform). */
void fft_work_load(fft_work_t *w, const fft_cpx_t *block);

/* Runs passes [first, last) on the loaded block, adding to s.  In the SMPI
 * build with w->pass_s > 0 no pass runs (nor counts): the rank spends
 * (passes) x pass_s of simulated time in papcoll_sim_sleep instead, where its
 * monitors run, as the monitor thread would on a core of its own. */
void fft_work_run(fft_work_t *w, long first, long last, fft_work_sum_t *s);

#endif /* FFT_WORK_H */
