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

/* Table of dif_bitrev(i, bits) for i < 2^bits (malloc; NULL when memory runs out). */
unsigned *dif_bitrev_table(int bits);

/* In-place bit-reversal permutation of x (2^bits points, table from
 * dif_bitrev_table): after all DIF stages, the DFT in natural order. */
void dif_bitrev_permute(fft_cpx_t *x, int bits, const unsigned *rev);

/*
 * The permutation to natural order after `levels` DIF stages and a DFT of
 * each of the 2^levels sub-sequences (each in natural order): an
 * interleave by the bit-reversed sub-sequence index.  The table is built
 * once; applying it is a parallel copy that reads sequentially and writes
 * with stride 2^levels.
 */
typedef struct {
    int log2n, levels;
    unsigned *rev_sub; /* 2^levels entries: bitrev_levels(j) */
} dif_order_t;

/* Returns 0, or -1 when memory runs out or 0 <= levels <= log2n fails. */
int dif_order_init(dif_order_t *o, int log2n, int levels);

/* out[k 2^levels + bitrev(j)] = point k of sub-sequence j of in; in != out. */
void dif_order_apply(const dif_order_t *o, const fft_cpx_t *in, fft_cpx_t *out);

void dif_order_free(dif_order_t *o);

#endif /* FFT_DIF_H */
