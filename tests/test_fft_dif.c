/*
 * Serial unit tests of the FFT proxy's numerical pieces (apps/fft): the
 * radix-2 DIF stages, the output permutation, the block kernels with their
 * midpoint, the master/block decomposition of the app, the input signal, the
 * error bound, the noise specifications and the --work multitaper passes.
 *
 * References: FFTW's single-precision transform for every size (relative L2
 * error), and a direct O(n^2) DFT in double precision for small sizes (so
 * that the sign and scaling conventions do not rest on FFTW alone).
 *
 * Each failed check prints one line with its parameters; the program exits
 * non-zero when any check failed.
 */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../apps/fft/dif.h"
#include "../apps/fft/kernel.h"
#include "../apps/fft/noise.h"
#include "../apps/fft/verify.h"
#include "../apps/fft/work.h"
#include "unit.h"

#include <fftw3.h>

/* Typical accuracy of a correct single-precision FFT on random data is a
 * few 1e-7 (rms error ~ u sqrt(log2 n)); far below the worst-case bound the
 * app uses, so this catches subtle mistakes the bound would let through. */
#define TYPICAL_ERR 1.5e-6
#define MAX_LOG2N 20

static void set_threads(int n)
{
    omp_set_num_threads(UNDER_TSAN ? 1 : n);
}

static fft_cpx_t *buf(long n)
{
    fft_cpx_t *p = fftwf_malloc(sizeof(fft_cpx_t) * (size_t)(n ? n : 1));

    if (p == NULL) {
        printf("FAIL test_fft_dif: out of memory\n");
        exit(1);
    }
    return p;
}

static void random_fill(fft_cpx_t *x, long n)
{
    long t;

    for (t = 0; t < n; t++)
        x[t] = CMPLXF((float)(2 * rnd_unit() - 1), (float)(2 * rnd_unit() - 1));
}

static double rel_err(const fft_cpx_t *a, const fft_cpx_t *ref, long n)
{
    double d = 0, e = 0;
    long t;

    for (t = 0; t < n; t++) {
        double dr = (double)crealf(a[t]) - crealf(ref[t]), di = (double)cimagf(a[t]) - cimagf(ref[t]);

        d += dr * dr + di * di;
        e += (double)crealf(ref[t]) * crealf(ref[t]) + (double)cimagf(ref[t]) * cimagf(ref[t]);
    }
    return sqrt(d / e);
}

/* FFTW's forward transform of x into out. */
static void fftw_ref(const fft_cpx_t *x, fft_cpx_t *out, long n)
{
    fftwf_plan p = fftwf_plan_dft_1d((int)n, out, out, FFTW_FORWARD, FFTW_ESTIMATE);

    memcpy(out, x, sizeof(fft_cpx_t) * (size_t)n);
    fftwf_execute(p);
    fftwf_destroy_plan(p);
}

/* ------------------------------------------------------------- bitrev -- */

static void test_bitrev(void)
{
    unsigned v, r;
    int bits;

    unit_name = "test_fft_dif bitrev";
    for (bits = 0; bits <= 12; bits++)
        for (v = 0; v < (1u << bits); v++) {
            unsigned ref = 0;
            int i;

            for (i = 0; i < bits; i++)
                if (v & (1u << i))
                    ref |= 1u << (bits - 1 - i);
            r = dif_bitrev(v, bits);
            check(r == ref, "bitrev(%u, %d) = %u, expected %u", v, bits, r, ref);
            check(dif_bitrev(r, bits) == v, "bitrev(bitrev(%u, %d)) != %u", v, bits, v);
        }
}

/* ------------------------------------------------------ full DIF vs DFT -- */

/* All stages, then natural order: the order of every level (sub-sequences of
 * one point) into out, or (in_place) the bit-reversal permutation of x, copied. */
static void full_dif(fft_cpx_t *x, fft_cpx_t *out, int log2n, int in_place)
{
    unsigned *rev = dif_bitrev_table(log2n);
    dif_twiddles_t tw;
    dif_order_t o;

    if (rev == NULL || dif_twiddles_init(&tw, log2n) != 0 || dif_order_init(&o, log2n, log2n) != 0) {
        check(0, "init failed, log2n %d", log2n);
        exit(1);
    }
    dif_stages(x, log2n, 0, log2n, &tw);
    if (in_place) {
        dif_bitrev_permute(x, log2n, rev);
        memcpy(out, x, sizeof(fft_cpx_t) << log2n);
    } else {
        dif_order_apply(&o, x, out);
    }
    free(rev);
    dif_order_free(&o);
    dif_twiddles_free(&tw);
}

/* Small sizes against the definition, in double precision. */
static void test_direct_dft(void)
{
    int log2n;

    unit_name = "test_fft_dif direct";
    for (log2n = 0; log2n <= 7; log2n++) {
        long n = 1L << log2n, t, k;
        fft_cpx_t *x = buf(n), *y = buf(n), *X = buf(n);

        random_fill(x, n);
        memcpy(y, x, sizeof(fft_cpx_t) * (size_t)n);
        full_dif(y, X, log2n, 0);
        for (k = 0; k < n; k++) {
            double re = 0, im = 0;

            for (t = 0; t < n; t++) {
                double phi = -6.283185307179586 * (double)((t * k) % n) / (double)n;

                re += crealf(x[t]) * cos(phi) - cimagf(x[t]) * sin(phi);
                im += crealf(x[t]) * sin(phi) + cimagf(x[t]) * cos(phi);
            }
            check(fabs(re - crealf(X[k])) < 1e-5 * n && fabs(im - cimagf(X[k])) < 1e-5 * n,
                  "n %ld: X[%ld] = (%g, %g), direct DFT (%g, %g)", n, k, crealf(X[k]), cimagf(X[k]), re, im);
        }
        fftwf_free(x);
        fftwf_free(y);
        fftwf_free(X);
    }
}

/* Every size up to 2^MAX_LOG2N against FFTW; both ways to natural order. */
static void test_full_vs_fftw(void)
{
    int log2n, v;

    unit_name = "test_fft_dif full";
    for (log2n = 0; log2n <= MAX_LOG2N; log2n++) {
        long n = 1L << log2n;
        fft_cpx_t *x = buf(n), *y = buf(n), *X = buf(n), *ref = buf(n);

        random_fill(x, n);
        fftw_ref(x, ref, n);
        for (v = 0; v < 2; v++) {
            double e;

            memcpy(y, x, sizeof(fft_cpx_t) * (size_t)n);
            full_dif(y, X, log2n, v);
            e = rel_err(X, ref, n);
            check(e <= TYPICAL_ERR && e <= fft_tolerance(log2n), "n 2^%d, %s: rel err %.3g", log2n,
                  v ? "in-place bit reversal" : "order of every level", e);
        }
        fftwf_free(x);
        fftwf_free(y);
        fftwf_free(X);
        fftwf_free(ref);
    }
}

/* ------------------------------------------- the app's decomposition -- */

static int mid_calls;

static int count_mid(void *arg)
{
    (void)arg;
    mid_calls++;
    return 0;
}

static int stop_mid(void *arg)
{
    (void)arg;
    return 42;
}

/*
 * What the app does with P = 2^s ranks, serially: the master's s stages with
 * an N-point table, each block by the kernel with a block-sized table (one
 * midpoint call each), the kernel's output order; compared with FFTW.
 */
static void decomposed(const fft_cpx_t *x, fft_cpx_t *X, int log2n, int s, fft_kernel_kind_t kind)
{
    long n = 1L << log2n, B = n >> s, j;
    int log2b = log2n - s;
    fft_cpx_t *y = buf(n), *scratch = buf(B);
    dif_twiddles_t tw_full, tw_block;
    fft_kernel_t k;
    dif_order_t o;

    dif_twiddles_init(&tw_full, log2n);
    dif_twiddles_init(&tw_block, log2b);
    check(fft_kernel_init(&k, kind, log2b, &tw_block, scratch, FFTW_ESTIMATE) == 0, "kernel_init %s 2^%d",
          fft_kernel_name(kind), log2b);
    dif_order_init(&o, log2n, s + fft_kernel_levels(&k));
    memcpy(y, x, sizeof(fft_cpx_t) * (size_t)n);
    dif_stages(y, log2n, 0, s, &tw_full);
    mid_calls = 0;
    for (j = 0; j < (1L << s); j++)
        fft_kernel_run(&k, y + j * B, count_mid, NULL);
    check(mid_calls == 1 << s, "%s 2^%d, s %d: %d midpoint calls, expected %d", fft_kernel_name(kind), log2n,
          s, mid_calls, 1 << s);
    check(fft_kernel_run(&k, scratch, stop_mid, NULL) == 42, "%s: midpoint error not returned",
          fft_kernel_name(kind));
    dif_order_apply(&o, y, X);
    dif_order_free(&o);
    fft_kernel_free(&k);
    dif_twiddles_free(&tw_full);
    dif_twiddles_free(&tw_block);
    fftwf_free(y);
    fftwf_free(scratch);
}

static void test_decomposition(void)
{
    int log2n, s, kind;

    unit_name = "test_fft_dif decomposition";
    for (log2n = FFT_MIN_LOG2_BLOCK; log2n <= 18; log2n++)
        for (s = 0; s <= 4 && log2n - s >= FFT_MIN_LOG2_BLOCK; s++) {
            long n = 1L << log2n;
            fft_cpx_t *x = buf(n), *X = buf(n), *ref = buf(n);

            random_fill(x, n);
            fftw_ref(x, ref, n);
            for (kind = FFT_KERNEL_OWN; kind <= FFT_KERNEL_FFTW; kind++) {
                double e;

                decomposed(x, X, log2n, s, (fft_kernel_kind_t)kind);
                e = rel_err(X, ref, n);
                check(e <= TYPICAL_ERR, "%s kernel, n 2^%d, P 2^%d: rel err %.3g", fft_kernel_name(kind),
                      log2n, s, e);
            }
            fftwf_free(x);
            fftwf_free(X);
            fftwf_free(ref);
        }
}

/* Static schedules and per-butterfly arithmetic: bit-identical for any team size. */
static void test_threads(void)
{
    const int log2n = 16, s = 2;
    long n = 1L << log2n;
    fft_cpx_t *x = buf(n), *X1 = buf(n), *X3 = buf(n);

    unit_name = "test_fft_dif threads";
    random_fill(x, n);
    set_threads(1);
    decomposed(x, X1, log2n, s, FFT_KERNEL_OWN);
    set_threads(3);
    decomposed(x, X3, log2n, s, FFT_KERNEL_OWN);
    set_threads(1);
    check(memcmp(X1, X3, sizeof(fft_cpx_t) * (size_t)n) == 0, "own kernel: 1 and 3 threads differ");
    fftwf_free(x);
    fftwf_free(X1);
    fftwf_free(X3);
}

/* ------------------------------------------------- signal and bounds -- */

static void test_signal(void)
{
    const int log2n = 15;
    long n = 1L << log2n, t, same = 0;
    fft_cpx_t *a = buf(n), *b = buf(n);
    double mean_re = 0;

    unit_name = "test_fft_dif signal";
    set_threads(1);
    fft_signal_fill(a, log2n, 7, 3);
    set_threads(4);
    fft_signal_fill(b, log2n, 7, 3);
    set_threads(1);
    check(memcmp(a, b, sizeof(fft_cpx_t) * (size_t)n) == 0, "signal depends on the thread count");
    fft_signal_fill(b, log2n, 7, 4);
    for (t = 0; t < n; t++) {
        same += a[t] == b[t];
        mean_re += crealf(a[t]);
        check(fabsf(crealf(a[t])) <= 1 && fabsf(cimagf(a[t])) <= 1, "signal[%ld] out of [-1, 1)", t);
    }
    check(same < 4, "iterations 3 and 4 share %ld points", same);
    check(fabs(mean_re / n) < 0.02, "mean of the real parts %.3g, expected ~0", mean_re / n);
    fftwf_free(a);
    fftwf_free(b);
}

static void test_bounds(void)
{
    unit_name = "test_fft_dif bounds";
    /* Hand values: eta = u + 4u/(1-4u) (sqrt2 + u), u = 2^-24. */
    check(fabs(fft_bound(18) - 7.1423e-6) < 1e-9, "bound(2^18) = %.5g", fft_bound(18));
    check(fft_tolerance(22) < 2e-5 && fft_tolerance(22) > fft_tolerance(18), "tolerance(2^22) = %.3g",
          fft_tolerance(22));
    check(fft_parseval_tolerance(18) > 2 * fft_bound(18), "Parseval tolerance below 2b");
}

/* ----------------------------------------------------------- noise -- */

static void test_noise(void)
{
    static const char *const bad[] = {"",
                                      "foo",
                                      "uniform:",
                                      "uniform:-1",
                                      "uniform:x",
                                      "slow-rank:4,2",
                                      "slow-rank:1",
                                      "slow-rank:1,0.5",
                                      "slow-rank:x,2",
                                      "trace:",
                                      "trace:/nonexistent/pap.txt"};
    char path[] = "/tmp/test_fft_dif_XXXXXX", spec[64];
    fft_noise_t nz;
    char err[256];
    size_t i;
    FILE *f = NULL;
    int fd;

    unit_name = "test_fft_dif noise";
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++)
        check(fft_noise_parse(bad[i], 4, &nz, err, sizeof err) != 0, "'%s' accepted", bad[i]);
    check(fft_noise_parse("uniform:10", 4, &nz, err, sizeof err) == 0, "uniform:10: %s", err);
    check(fft_noise_delay(&nz, 1, 5, 2) == fft_noise_delay(&nz, 1, 5, 2), "uniform not deterministic");
    check(fft_noise_delay(&nz, 1, 5, 2) < 0.01 && fft_noise_delay(&nz, 1, 5, 2) >= 0, "uniform out of range");
    check(fft_noise_delay(&nz, 1, 5, 1) != fft_noise_delay(&nz, 1, 5, 2), "ranks 1 and 2 draw the same");
    check(fft_noise_parse("slow-rank:3,2.5", 4, &nz, err, sizeof err) == 0 &&
              fft_noise_factor(&nz, 3) == 2.5 && fft_noise_factor(&nz, 0) == 1.0,
          "slow-rank:3,2.5");
    if (!check((fd = mkstemp(path)) >= 0 && (f = fdopen(fd, "w")) != NULL, "cannot create %s", path))
        return;
    snprintf(spec, sizeof spec, "trace:%s", path);
    fprintf(f, "# a PAP\n0 0.001 0.002 0.003\n\n0.5 0 0 0\n");
    fclose(f);
    check(fft_noise_parse(spec, 4, &nz, err, sizeof err) == 0, "trace: %s", err);
    check(nz.trace.nrows == 2 && fft_noise_delay(&nz, 1, 0, 3) == 0.003 &&
              fft_noise_delay(&nz, 1, 3, 0) == 0.5,
          "trace rows read wrong");
    fft_noise_free(&nz);
    check(fft_noise_parse(spec, 3, &nz, err, sizeof err) != 0 && strstr(err, "line 2") != NULL,
          "trace with 4 columns for 3 ranks: '%s'", err);
    remove(path);
}

/* ------------------------------------------------------------ work -- */

/* A unit tone: every sine taper has sum h^2 = 1, so each pass's energy is 1;
 * the spectrum peaks next to the tone's bin; two calls add up; W = 0 is a no-op. */
static void test_work(void)
{
    enum { LOG2B = 10, W = 5, TONE = 100 };
    long n, b = 1L << LOG2B, peak = 0;
    fft_cpx_t *x = buf(b);
    fft_work_t w;
    fft_work_sum_t s = {0, 0, 0};

    unit_name = "test_fft_dif work";
    for (n = 0; n < b; n++)
        x[n] = (float)cos(6.283185307179586 * (double)(TONE * n % b) / (double)b) +
               I * (float)sin(6.283185307179586 * (double)(TONE * n % b) / (double)b);
    if (!check(fft_work_init(&w, LOG2B, W, FFTW_ESTIMATE) == 0, "fft_work_init failed"))
        return;
    fft_work_load(&w, x);
    fft_work_run(&w, 0, W / 2, &s);
    fft_work_run(&w, W / 2, W + 3, &s);
    check(s.passes == W, "%ld passes, expected %d", s.passes, W);
    check(fabs(s.power / W - 1.0) < 1e-5, "energy per pass %.9g, expected 1", s.power / W);
    check(s.max_parseval <= fft_parseval_tolerance(LOG2B), "Parseval error %.3g", s.max_parseval);
    for (n = 1; n < b; n++)
        if (cabsf(w.out[n]) > cabsf(w.out[peak]))
            peak = n;
    check(labs(peak - TONE) <= W, "taper %d: spectrum peaks at bin %ld, tone at %d", W, peak, TONE);
    fft_work_free(&w);
    check(fft_work_init(&w, LOG2B, 0, FFTW_ESTIMATE) == 0 && w.x == NULL, "W = 0 allocated");
    fft_work_run(&w, 0, 4, &s);
    check(s.passes == W, "W = 0 ran passes");
    fftwf_free(x);
}

int main(void)
{
    if (UNDER_TSAN)
        printf("test_fft_dif: ThreadSanitizer build, OpenMP checks run with one thread\n");
    set_threads(1);
    test_bitrev();
    test_direct_dft();
    test_full_vs_fftw();
    test_decomposition();
    test_threads();
    test_signal();
    test_bounds();
    test_noise();
    test_work();
    unit_name = "test_fft_dif";
    return unit_summary();
}
