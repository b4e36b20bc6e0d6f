/*
 * Multitaper power spectrum of a block, the --work computation (see work.h).
 */
#include "work.h"

#include <complex.h>
#include <math.h>
#include <string.h>

#ifdef PAPCOLL_SMPI
#include "papcoll.h"
#endif

#define PI 3.14159265358979323846264338327950288

int fft_work_init(fft_work_t *w, int log2b, long passes, unsigned fftw_flags)
{
    size_t bytes = sizeof(fft_cpx_t) << log2b;

    memset(w, 0, sizeof *w);
    w->log2b = log2b;
    w->passes = passes;
    if (passes <= 0)
        return 0;
    w->x = fftwf_malloc(bytes);
    w->in = fftwf_malloc(bytes);
    w->out = fftwf_malloc(bytes);
    if (w->x == NULL || w->in == NULL || w->out == NULL)
        return -1;
    w->plan = fftwf_plan_dft_1d(1 << log2b, w->in, w->out, FFTW_FORWARD, fftw_flags);
    if (w->plan == NULL)
        return -1;
    memset(w->x, 0, bytes);
    return 0;
}

void fft_work_free(fft_work_t *w)
{
    if (w->plan != NULL)
        fftwf_destroy_plan(w->plan);
    fftwf_free(w->x);
    fftwf_free(w->in);
    fftwf_free(w->out);
    memset(w, 0, sizeof *w);
}

void fft_work_load(fft_work_t *w, const fft_cpx_t *block)
{
    if (w->passes > 0)
        memcpy(w->x, block, sizeof(fft_cpx_t) << w->log2b);
}

/* in = h_k x (sine taper of order k); returns sum |in|^2. */
static double taper(fft_work_t *w, long k)
{
    long n, b = 1L << w->log2b;
    double theta = PI * (double)k / (double)(b + 1), c2 = 2.0 * cos(theta);
    double norm = sqrt(2.0 / (double)(b + 1)), prev = 0.0, cur = sin(theta), next, e = 0.0;

    for (n = 0; n < b; n++) {
        fft_cpx_t y = (float)(norm * cur) * w->x[n];

        w->in[n] = y;
        e += (double)crealf(y) * crealf(y) + (double)cimagf(y) * cimagf(y);
        next = c2 * cur - prev;
        prev = cur;
        cur = next;
    }
    return e;
}

/* sum |out|^2 / B: the power spectrum's total. */
static double spectral_energy(const fft_work_t *w)
{
    long f, b = 1L << w->log2b;
    double e = 0.0;

#pragma omp parallel for reduction(+ : e) schedule(static)
    for (f = 0; f < b; f++)
        e += (double)crealf(w->out[f]) * crealf(w->out[f]) + (double)cimagf(w->out[f]) * cimagf(w->out[f]);
    return e / (double)b;
}

static void pass(fft_work_t *w, long t, fft_work_sum_t *s)
{
    double et = taper(w, t + 1), ef, err;

    fftwf_execute(w->plan);
    ef = spectral_energy(w);
    err = et > 0.0 ? fabs(ef / et - 1.0) : (ef == 0.0 ? 0.0 : NAN);
    if (isnan(err) || err > s->max_parseval)
        s->max_parseval = err; /* a NaN stays */
    s->power += ef;
    s->passes++;
}

void fft_work_run(fft_work_t *w, long first, long last, fft_work_sum_t *s)
{
    long t;

#ifdef PAPCOLL_SMPI
    if (w->pass_s > 0.0) {
        long n = (last < w->passes ? last : w->passes) - first;

        if (n > 0)
            papcoll_sim_sleep((double)n * w->pass_s);
        return;
    }
#endif
    for (t = first; t < last && t < w->passes; t++)
        pass(w, t, s);
}
