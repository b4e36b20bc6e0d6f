/*
 * The block transform every rank runs each iteration: the DFT of one
 * independent DIF sub-sequence, by our own radix-2 DIF kernel or by FFTW
 * (pure: no MPI; OpenMP inside).
 *
 * The work is split in two halves with a callback in between, which the app
 * uses for the PAT monitor's edge (papcoll_edge at 50%):
 *
 *   own:  log2b DIF stages of n/2 butterflies each.  The callback comes
 *         after floor(log2b / 2) stages; for odd log2b the middle stage is
 *         run on the first half of the block before it and on the second
 *         half after it (its spans never cross the middle), so exactly half
 *         the butterflies come first.  A bit-reversal permutation of the
 *         block (cheap: the block is cache-sized) ends it: natural order.
 *   fftw: one DIF stage of our own makes the two halves of the block
 *         independent; FFTW transforms the first half, the callback runs,
 *         FFTW transforms the second half (one plan of 2^(log2b-1) points,
 *         made once).  Output: two natural-order halves, i.e. one more DIF
 *         level than the block (dif_order_t with levels + 1).  The split
 *         stage makes the first part slightly more than half.
 *
 * Why the own kernel reorders its block itself: rank 0 then only
 * interleaves the blocks (sequential reads, one cache line per write).  A
 * full N-point bit reversal at rank 0 instead measured 7x slower (3.5 ms
 * against 0.5 ms at N = 2^18, P = 8) and ran serially on the master.
 */
#ifndef FFT_KERNEL_H
#define FFT_KERNEL_H

#include "dif.h"

#include <fftw3.h>

typedef enum { FFT_KERNEL_OWN = 0, FFT_KERNEL_FFTW = 1 } fft_kernel_kind_t;

/* Smallest block: both kernels need at least one stage on each side of the
 * midpoint, and tiny blocks would measure only overheads. */
#define FFT_MIN_LOG2_BLOCK 6

typedef struct {
    fft_kernel_kind_t kind;
    int log2b;                /* block of 2^log2b points */
    const dif_twiddles_t *tw; /* covers at least 2^log2b points */
    fftwf_plan half;          /* fftw: in-place plan of 2^(log2b-1) points */
    unsigned *rev;            /* own: bit-reversal table of the block */
} fft_kernel_t;

/* Name of a kernel ("own", "fftw"); fft_kernel_find returns -1 for others. */
const char *fft_kernel_name(fft_kernel_kind_t kind);
int fft_kernel_find(const char *name);

/*
 * Prepares a kernel for blocks of 2^log2b points (log2b >= FFT_MIN_LOG2_BLOCK).
 * fftw plans once with fftw_flags (e.g. FFTW_MEASURE) on buf, a block-sized
 * buffer from fftwf_malloc whose contents planning may destroy; blocks given
 * to fft_kernel_run must have buf's alignment (fftwf_alignment_of).  The FFTW
 * thread count is the caller's fftwf_plan_with_nthreads.  Returns 0 or -1.
 */
int fft_kernel_init(fft_kernel_t *k, fft_kernel_kind_t kind, int log2b, const dif_twiddles_t *tw,
                    fft_cpx_t *buf, unsigned fftw_flags);
void fft_kernel_free(fft_kernel_t *k);

/* Called at the midpoint; a non-zero return stops the transform and is returned. */
typedef int (*fft_midpoint_fn)(void *arg);

/* Transforms the block x in place; returns 0 or the callback's error. */
int fft_kernel_run(const fft_kernel_t *k, fft_cpx_t *x, fft_midpoint_fn mid, void *arg);

/* DIF levels the block's output adds to the master's (for dif_order_t):
 * 0 for own (the block in natural order), 1 for fftw (two natural halves). */
int fft_kernel_levels(const fft_kernel_t *k);

#endif /* FFT_KERNEL_H */
