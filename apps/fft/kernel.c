/*
 * Block transforms with a midpoint (see kernel.h).
 */
#include "kernel.h"

#include <stdlib.h>
#include <string.h>

static const char *const kernel_names[] = {"own", "fftw"};

const char *fft_kernel_name(fft_kernel_kind_t kind)
{
    return kind == FFT_KERNEL_FFTW ? kernel_names[1] : kernel_names[0];
}

int fft_kernel_find(const char *name)
{
    if (strcmp(name, kernel_names[0]) == 0)
        return FFT_KERNEL_OWN;
    if (strcmp(name, kernel_names[1]) == 0)
        return FFT_KERNEL_FFTW;
    return -1;
}

int fft_kernel_init(fft_kernel_t *k, fft_kernel_kind_t kind, int log2b, const dif_twiddles_t *tw,
                    fft_cpx_t *buf, unsigned fftw_flags)
{
    memset(k, 0, sizeof *k);
    k->kind = kind;
    k->log2b = log2b;
    k->tw = tw;
    if (log2b < FFT_MIN_LOG2_BLOCK || tw->log2n < log2b)
        return -1;
    if (kind != FFT_KERNEL_FFTW) {
        k->rev = dif_bitrev_table(log2b);
        return k->rev != NULL ? 0 : -1;
    }
    k->half = fftwf_plan_dft_1d(1 << (log2b - 1), buf, buf, FFTW_FORWARD, fftw_flags);
    return k->half != NULL ? 0 : -1;
}

void fft_kernel_free(fft_kernel_t *k)
{
    if (k->half != NULL)
        fftwf_destroy_plan(k->half);
    k->half = NULL;
    free(k->rev);
    k->rev = NULL;
}

/* Own kernel: half of the butterflies, the midpoint, the other half, natural order. */
static int run_own(const fft_kernel_t *k, fft_cpx_t *x, fft_midpoint_fn mid, void *arg)
{
    int s = k->log2b, h = s / 2, odd = s % 2, rc;
    fft_cpx_t *second = x + (1L << (s - 1));

    dif_stages(x, s, 0, h, k->tw);
    /* Stage h of the block is stage h-1 of each half (same spans, same twiddles). */
    if (odd)
        dif_stages(x, s - 1, h - 1, h, k->tw);
    if (mid != NULL && (rc = mid(arg)) != 0)
        return rc;
    if (odd)
        dif_stages(second, s - 1, h - 1, h, k->tw);
    dif_stages(x, s, h + odd, s, k->tw);
    dif_bitrev_permute(x, s, k->rev);
    return 0;
}

/* FFTW kernel: one splitting stage of ours, then FFTW on each half. */
static int run_fftw(const fft_kernel_t *k, fft_cpx_t *x, fft_midpoint_fn mid, void *arg)
{
    fft_cpx_t *second = x + (1L << (k->log2b - 1));
    int rc;

    dif_stages(x, k->log2b, 0, 1, k->tw);
    fftwf_execute_dft(k->half, x, x);
    if (mid != NULL && (rc = mid(arg)) != 0)
        return rc;
    fftwf_execute_dft(k->half, second, second);
    return 0;
}

int fft_kernel_run(const fft_kernel_t *k, fft_cpx_t *x, fft_midpoint_fn mid, void *arg)
{
    return k->kind == FFT_KERNEL_FFTW ? run_fftw(k, x, mid, arg) : run_own(k, x, mid, arg);
}

int fft_kernel_levels(const fft_kernel_t *k)
{
    return k->kind == FFT_KERNEL_FFTW ? 1 : 0;
}
