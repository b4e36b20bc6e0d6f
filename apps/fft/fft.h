/*
 * The FFT proxy's run state, shared by its phases:
 *
 *   run.c     prolog (papcoll context and gather site, twiddles, kernel,
 *             buffers, FFTW reference) and the iteration loop;
 *   report.c  configuration banner, results, summary.json, iterations.csv.
 *
 * Every rank keeps its own per-iteration timestamps; they reach rank 0 by
 * one MPI_Gather after the loop, off the timed path.
 */
#ifndef FFT_FFT_H
#define FFT_FFT_H

#include "app.h"
#include "config.h"
#include "dif.h"
#include "kernel.h"
#include "papcoll.h"
#include "paptrace.h"
#include "verify.h"
#include "work.h"

/* Per-iteration record of one rank: arrival and exit of the gather (global
 * clock, papcoll_site_last_timing) and the block transform's duration. */
enum { REC_ARRIVAL, REC_EXIT, REC_COMPUTE, REC_FIELDS };

/* Per-rank totals gathered to rank 0 at the end: compute and gather time;
 * the --work checksum, its largest Parseval error and its passes. */
enum { TOT_COMPUTE, TOT_GATHER, TOT_WORK_POWER, TOT_WORK_ERR, TOT_WORK_PASSES, TOT_FIELDS };

typedef struct {
    const fft_config_t *cfg;
    app_t *app;             /* MPI, papcoll context, trace (app.h) */
    int rank, nprocs;       /* the app's */
    papcoll_site_t *site;   /* the one gather call site (app_close frees it) */
    long long block;        /* points per rank, N / P */
    dif_twiddles_t tw;      /* block-sized table (every rank) */
    dif_twiddles_t tw_full; /* rank 0: N-point table for its log2(P) stages */
    fft_kernel_t kernel;
    fft_work_t work;         /* --work: the multitaper passes on this rank's block */
    fft_work_sum_t work_sum; /* their running totals */
    dif_order_t order;       /* rank 0: gathered blocks -> natural order */
    fft_ref_t ref;           /* rank 0: FFTW's full-size transform */
    fft_cpx_t *data;         /* rank 0: the signal (N); others: their block */
    fft_cpx_t *gathered;     /* rank 0: the gather's receive buffer (N), bound to the site */
    fft_cpx_t *result;       /* rank 0: the transform in natural order (N) */
    double *rec;             /* REC_FIELDS per iteration */
    double *prep, *post;     /* rank 0, per iteration: signal + DIF stages; reorder (s) */
    long done;               /* iterations completed (equal on all ranks) */
    double total_time;       /* rank 0: the loop, validation excluded (s) */
    double verify_time;      /* rank 0: time spent validating (s) */
    long checks;             /* rank 0: validations run */
    double max_rel_err, max_parseval_err;
    int failed; /* rank 0: a validation failed */
    long failed_iter;
    double *all_rec; /* rank 0 after the loop: P x done x REC_FIELDS */
    double *totals;  /* rank 0 after the loop: P x TOT_FIELDS */
} fft_t;

/* Prolog after the configuration: buffers, plans, the papcoll site, the
 * trace; returns a status agreed by all ranks (APP_*). */
int fft_setup(fft_t *f, app_t *app, const fft_config_t *cfg);

/* The iteration loop, then the records to rank 0.  APP_FAILED when a
 * validation failed (all ranks stop after that iteration). */
int fft_run(fft_t *f);

/* Frees the buffers and plans (after app_close; safe after a failed setup). */
void fft_free(fft_t *f);

/* Rank 0 prints the configuration before the loop. */
void fft_report_config(const fft_t *f);

/* Rank 0 prints the results and writes the files; returns an agreed status. */
int fft_report(const fft_t *f, int status);

#endif /* FFT_FFT_H */
