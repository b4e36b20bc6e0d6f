/*
 * Radix-2 DIF stages, twiddles and output order (see dif.h).
 */
#include "dif.h"

#include <math.h>
#include <stdlib.h>

#define TWO_PI 6.283185307179586476925286766559

/* Complex product written out: with plain `*` GCC calls __mulsc3 (C Annex G
 * NaN/infinity recovery), several times slower, and our data is finite. */
static inline fft_cpx_t cmul(fft_cpx_t a, fft_cpx_t b)
{
    float ar = crealf(a), ai = cimagf(a), br = crealf(b), bi = cimagf(b);

    return CMPLXF(ar * br - ai * bi, ar * bi + ai * br);
}

int dif_twiddles_init(dif_twiddles_t *t, int log2n)
{
    long m, half = log2n > 0 ? 1L << (log2n - 1) : 1;

    t->log2n = log2n;
    t->w = malloc((size_t)half * sizeof *t->w);
    if (t->w == NULL)
        return -1;
    for (m = 0; m < half; m++) {
        double phi = TWO_PI * (double)m / (double)(2 * half);

        t->w[m] = CMPLXF((float)cos(phi), (float)-sin(phi));
    }
    return 0;
}

void dif_twiddles_free(dif_twiddles_t *t)
{
    free(t->w);
    t->w = NULL;
}

/*
 * One parallel region for all stages; each stage is one flat loop over its
 * n/2 butterflies, so a static schedule gives each thread contiguous
 * butterflies in the long-span stages and whole spans in the short ones.
 * The implicit barrier of `omp for` orders the stages.
 */
void dif_stages(fft_cpx_t *x, int log2n, int first, int last, const dif_twiddles_t *tw)
{
    long nb = log2n > 0 ? 1L << (log2n - 1) : 0; /* butterflies per stage */

    if (first >= last || nb == 0)
        return;
#pragma omp parallel
    for (int s = first; s < last; s++) {
        int lh = log2n - s - 1;         /* log2 of the half span */
        int shift = tw->log2n - lh - 1; /* W_{2h}^m = W_n^(m n / 2h) in the table */
        long half = 1L << lh, mask = half - 1;

#pragma omp for schedule(static)
        for (long i = 0; i < nb; i++) {
            long m = i & mask, a = ((i >> lh) << (lh + 1)) | m, b = a + half;
            fft_cpx_t u = x[a], v = x[b];

            x[a] = u + v;
            x[b] = cmul(u - v, tw->w[m << shift]);
        }
    }
}

unsigned dif_bitrev(unsigned v, int bits)
{
    unsigned r = 0;
    int i;

    for (i = 0; i < bits; i++, v >>= 1)
        r = (r << 1) | (v & 1u);
    return r;
}

unsigned *dif_bitrev_table(int bits)
{
    unsigned i, n = 1u << bits, *t = malloc((size_t)n * sizeof *t);

    for (i = 0; t != NULL && i < n; i++)
        t[i] = dif_bitrev(i, bits);
    return t;
}

/* Swaps are disjoint pairs (i < rev[i]), so the loop runs in parallel. */
void dif_bitrev_permute(fft_cpx_t *x, int bits, const unsigned *rev)
{
    long n = 1L << bits;

#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; i++) {
        long j = (long)rev[i];

        if (i < j) {
            fft_cpx_t t = x[i];

            x[i] = x[j];
            x[j] = t;
        }
    }
}

int dif_order_init(dif_order_t *o, int log2n, int levels)
{
    o->log2n = log2n;
    o->levels = levels;
    o->rev_sub = NULL;
    if (levels < 0 || levels > log2n)
        return -1;
    o->rev_sub = dif_bitrev_table(levels);
    return o->rev_sub != NULL ? 0 : -1;
}

void dif_order_apply(const dif_order_t *o, const fft_cpx_t *in, fft_cpx_t *out)
{
    long nsub = 1L << o->levels, m = 1L << (o->log2n - o->levels);
    int L = o->levels;

#pragma omp parallel for collapse(2) schedule(static)
    for (long j = 0; j < nsub; j++)
        for (long k = 0; k < m; k++)
            out[(k << L) | (long)o->rev_sub[j]] = in[j * m + k];
}

void dif_order_free(dif_order_t *o)
{
    free(o->rev_sub);
    o->rev_sub = NULL;
}
