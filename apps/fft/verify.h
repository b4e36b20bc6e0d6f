/*
 * The FFT proxy's input signal and its validation (pure: no MPI).
 *
 * Signal: iteration k's input is a pure function of (seed, k), so the
 * validation regenerates it instead of keeping a copy on the timed path.
 * Points are drawn in chunks of FFT_SIGNAL_CHUNK, chunk c from the RNG
 * stream (seed, k * chunks + c): the same signal for any thread count.
 * Real and imaginary parts are uniform in [-1, 1).
 *
 * Check: the result is compared with FFTW's full-size single-precision
 * transform of the same input (relative L2 error), and Parseval's identity
 * sum |X|^2 = n sum |x|^2 is checked on the result, both against bounds
 * derived from the worst-case error of a radix-2 FFT (fft_bound()).
 */
#ifndef FFT_VERIFY_H
#define FFT_VERIFY_H

#include <stdint.h>

#include "dif.h"

#include <fftw3.h>

#define FFT_SIGNAL_CHUNK 4096L

/* Fills x[0 .. 2^log2n) with iteration iter's signal (OpenMP parallel). */
void fft_signal_fill(fft_cpx_t *x, int log2n, uint64_t seed, long iter);

/*
 * Worst-case bound b on ||fl(FFT x) - DFT x|| / ||DFT x|| of an n-point
 * radix-2 FFT in single precision with twiddles accurate to one unit
 * roundoff u = 2^-24 (Higham, Accuracy and Stability of Numerical
 * Algorithms, 2nd ed., Thm. 24.2): b = L eta / (1 - L eta), L = log2 n,
 * eta = mu + gamma_4 (sqrt 2 + mu), mu = u, gamma_4 = 4u / (1 - 4u).
 */
double fft_bound(int log2n);

/* Tolerances of the two checks, from b = fft_bound(log2n):
 * relative L2 error against FFTW (itself single precision): 2b / (1 - b);
 * Parseval, |sum|X|^2 / (n sum|x|^2) - 1|: (1 + b)^2 - 1. */
double fft_tolerance(int log2n);
double fft_parseval_tolerance(int log2n);

typedef struct {
    double rel_err;      /* ||X - X_fftw|| / ||X_fftw|| */
    double parseval_err; /* |sum|X|^2 / (n sum|x|^2) - 1| */
    int ok;              /* both within tolerance (NaN fails) */
} fft_check_t;

/* The reference: an FFTW plan of the full size and its buffer (master only). */
typedef struct {
    int log2n;
    fftwf_plan plan;
    fft_cpx_t *buf;
} fft_ref_t;

/* Plans (FFTW_ESTIMATE: the check is rare, planning stays cheap) with the
 * caller's FFTW thread setting.  Returns 0 or -1. */
int fft_ref_init(fft_ref_t *r, int log2n);
void fft_ref_free(fft_ref_t *r);

/* Checks X (natural order) as the transform of iteration iter's signal. */
void fft_ref_check(fft_ref_t *r, uint64_t seed, long iter, const fft_cpx_t *X, fft_check_t *out);

#endif /* FFT_VERIFY_H */
