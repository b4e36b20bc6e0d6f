/*
 * Input signal, error bounds and the check against FFTW (see verify.h).
 */
#include "verify.h"

#include <math.h>

#include "rng.h"

void fft_signal_fill(fft_cpx_t *x, int log2n, uint64_t seed, long iter)
{
    long n = 1L << log2n, nchunks = (n + FFT_SIGNAL_CHUNK - 1) / FFT_SIGNAL_CHUNK;

#pragma omp parallel for schedule(static)
    for (long c = 0; c < nchunks; c++) {
        long t, end = (c + 1) * FFT_SIGNAL_CHUNK < n ? (c + 1) * FFT_SIGNAL_CHUNK : n;
        rng_t r;

        rng_init(&r, seed, (uint64_t)iter * (uint64_t)nchunks + (uint64_t)c);
        for (t = c * FFT_SIGNAL_CHUNK; t < end; t++) {
            /* 24 random bits each: exactly representable, uniform in [-1, 1). */
            uint64_t v = rng_next(&r);
            float re = (float)(int32_t)((v >> 40) & 0xFFFFFF) * 0x1p-23f - 1.0f;
            float im = (float)(int32_t)((v >> 16) & 0xFFFFFF) * 0x1p-23f - 1.0f;

            x[t] = CMPLXF(re, im);
        }
    }
}

double fft_bound(int log2n)
{
    const double u = 0x1p-24, mu = u, g4 = 4 * u / (1 - 4 * u);
    double eta = mu + g4 * (sqrt(2.0) + mu), le = log2n * eta;

    return le / (1 - le);
}

double fft_tolerance(int log2n)
{
    double b = fft_bound(log2n);

    return 2 * b / (1 - b);
}

double fft_parseval_tolerance(int log2n)
{
    double b = fft_bound(log2n);

    return (1 + b) * (1 + b) - 1;
}

int fft_ref_init(fft_ref_t *r, int log2n)
{
    r->log2n = log2n;
    r->plan = NULL;
    r->buf = fftwf_malloc(sizeof(fft_cpx_t) << log2n);
    if (r->buf == NULL)
        return -1;
    r->plan = fftwf_plan_dft_1d(1 << log2n, r->buf, r->buf, FFTW_FORWARD, FFTW_ESTIMATE);
    if (r->plan == NULL) {
        fft_ref_free(r);
        return -1;
    }
    return 0;
}

void fft_ref_free(fft_ref_t *r)
{
    if (r->plan != NULL)
        fftwf_destroy_plan(r->plan);
    fftwf_free(r->buf);
    r->plan = NULL;
    r->buf = NULL;
}

/* Sum of |z|^2 in double precision. */
static double energy(const fft_cpx_t *z, long n)
{
    double e = 0.0;

#pragma omp parallel for reduction(+ : e) schedule(static)
    for (long t = 0; t < n; t++) {
        double re = crealf(z[t]), im = cimagf(z[t]);

        e += re * re + im * im;
    }
    return e;
}

/* Sum of |a - b|^2 in double precision. */
static double distance2(const fft_cpx_t *a, const fft_cpx_t *b, long n)
{
    double e = 0.0;

#pragma omp parallel for reduction(+ : e) schedule(static)
    for (long t = 0; t < n; t++) {
        double re = (double)crealf(a[t]) - crealf(b[t]), im = (double)cimagf(a[t]) - cimagf(b[t]);

        e += re * re + im * im;
    }
    return e;
}

void fft_ref_check(fft_ref_t *r, uint64_t seed, long iter, const fft_cpx_t *X, fft_check_t *out)
{
    long n = 1L << r->log2n;
    double ex, eX, eref;

    fft_signal_fill(r->buf, r->log2n, seed, iter);
    ex = energy(r->buf, n);
    fftwf_execute(r->plan);
    eX = energy(X, n);
    eref = energy(r->buf, n);
    out->rel_err = sqrt(distance2(X, r->buf, n) / eref);
    out->parseval_err = fabs(eX / ((double)n * ex) - 1.0);
    /* Written so that NaN fails. */
    out->ok =
        out->rel_err <= fft_tolerance(r->log2n) && out->parseval_err <= fft_parseval_tolerance(r->log2n);
}
