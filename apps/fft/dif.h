/*
 * Iterative radix-2 decimation-in-frequency (DIF) FFT pieces, pure C and
 * OpenMP (no MPI): twiddle tables, DIF stages, and the permutation that puts
 * the outputs of independent sub-transforms into natural order.
 *
 * Conventions: forward DFT X[k] = sum_t x[t] exp(-2 pi i t k / n), as
 * FFTW_FORWARD, unnormalised; n = 2^log2n.
 *
 * Stage s (0 <= s < log2n) of an n-point DIF works on spans of 2^(log2n - s)
 * points: each span [a, a + 2h) is replaced by
 *     x[a + m]     = x[a + m] + x[a + h + m]
 *     x[a + h + m] = (x[a + m] - x[a + h + m]) * W_{2h}^m        (0 <= m < h)
 * After the first L stages the sequence is 2^L independent sub-sequences of
 * n / 2^L points; the DFT of sub-sequence j holds X[k 2^L + bitrev_L(j)] for
 * k = 0 .. n/2^L - 1.  That independence is what lets the master of the FFT
 * proxy run L = log2(P) stages and hand one sub-sequence to each rank.  All
 * log2n stages leave X[bitrev(t)] at position t (the classic bit-reversed
 * output of an in-place DIF).
 */
#ifndef FFT_DIF_H
#define FFT_DIF_H

#include <complex.h>

/* One complex single-precision point; layout-compatible with fftwf_complex. */
typedef float _Complex fft_cpx_t;

/* w[m] = exp(-2 pi i m / 2^log2n) for 0 <= m < 2^(log2n-1), computed in
 * double precision and rounded (error at most one unit roundoff). */
typedef struct {
    int log2n;
    fft_cpx_t *w;
} dif_twiddles_t;

/* Builds the table for transforms of up to 2^log2n points (log2n >= 0).
 * Returns 0, or -1 when memory runs out. */
int dif_twiddles_init(dif_twiddles_t *t, int log2n);
void dif_twiddles_free(dif_twiddles_t *t);

/*
 * Runs DIF stages [first, last) on x (2^log2n points) in place, in parallel
 * over the butterflies of each stage (the calling thread's OpenMP team
 * size).  tw must cover at least 2^log2n points.
 */
void dif_stages(fft_cpx_t *x, int log2n, int first, int last, const dif_twiddles_t *tw);

/* bitrev of the low `bits` bits of v. */
unsigned dif_bitrev(unsigned v, int bits);

/*
 * The permutation to natural order after `levels` DIF stages and a DFT of
 * each of the 2^levels sub-sequences, whose outputs are in natural order
 * (leaves_bitrev 0) or bit-reversed order (1, as an in-place DIF leaves
 * them).  Tables are built once; applying it is a parallel copy.
 */
typedef struct {
    int log2n, levels, leaves_bitrev;
    unsigned *rev_sub;  /* 2^levels entries: bitrev_levels(j) */
    unsigned *rev_leaf; /* 2^(log2n-levels) entries, or NULL when leaves are natural */
} dif_order_t;

/* Returns 0, or -1 when memory runs out or 0 <= levels <= log2n fails. */
int dif_order_init(dif_order_t *o, int log2n, int levels, int leaves_bitrev);

/* out[k 2^levels + bitrev(j)] = leaf k of sub-sequence j of in; in != out. */
void dif_order_apply(const dif_order_t *o, const fft_cpx_t *in, fft_cpx_t *out);

void dif_order_free(dif_order_t *o);

#endif /* FFT_DIF_H */
