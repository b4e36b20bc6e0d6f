/*
 * papbench's run state, shared by its three phases:
 *
 *   run.c     prolog (clocks, network model, papcoll context, one call site
 *             per algorithm, buffers) and the measurement loop;
 *   report.c  configuration banner, result tables, results.json/.csv.
 *
 * Rank 0 gathers every rank's arrival and exit of each call and keeps
 * them with the call's metrics, computed by papmetrics.h (the one
 * definition papbench, fft and paptrace share).
 */
#ifndef PAPBENCH_BENCH_H
#define PAPBENCH_BENCH_H

#include "config.h"
#include "lowerbound.h"
#include "papcoll.h"
#include "paptrace.h"

/* Measurements of one algorithm, indexed by measured iteration (rank 0). */
typedef struct {
    papcoll_site_t *site;
    double *runtime;     /* rank 0: r = max f - min a (s) */
    double *elapsed;     /* rank 0: mean over ranks of f_i - a_i (s) */
    double *imbalance;   /* rank 0: I = max a - min a (s) */
    double *min_arrival; /* rank 0: min a, from the start of the loop (s) */
    double *arrival;     /* rank 0: iters x P, a_i - min a (s) */
    double *exit;        /* rank 0: iters x P, f_i - min a (s) */
    double *lower_bound; /* rank 0: root-port lower bound of r for these arrivals (s) */
} algo_result_t;

typedef struct {
    const bench_config_t *cfg;
    int rank;
    int nprocs;
    int thread_level; /* provided by MPI_Init_thread */
    papcoll_clock_t clock; /* papcoll's global clock (all times are on it) */
    pm_lb_model_t model; /* root-port model of the lower bound, root <-> a leaf (lowerbound.h) */
    papcoll_ctx_t *ctx;
    paptrace_t *trace;    /* --trace: open from the sites' creation to their release */
    int argc;             /* the command line, for the trace */
    char **argv;
    algo_result_t *res;   /* cfg->nalgos */
    void *sendbuf;        /* gather: own block; scatter: all blocks (root) */
    void *recvbuf;        /* gather: all blocks (root); scatter: own block */
    double *delays;       /* P delays (s) of the current iteration */
    double *times;        /* rank 0: 2 x P gathered arrival/exit pairs */
    double t_start;       /* start of the loop on rank 0's time base */
    double t_wall;        /* timer_now() at the start of the loop */
    double last_progress; /* timer_now() of the last progress line */
} bench_t;

/* Exit statuses of the program. */
enum { STATUS_OK = 0, STATUS_FAILED = 1, STATUS_USAGE = 2 };

/* Prolog after MPI and the config: returns a status agreed by all ranks. */
int bench_setup(bench_t *b, const bench_config_t *cfg);

/* The loop: warm-up and measured iterations of every algorithm. */
int bench_measure(bench_t *b);

/* --trace: opens the trace (collective, after the sites exist); an agreed status. */
int bench_trace_open(bench_t *b);

/* Closes the trace (collective; after the sites are freed, before papcoll_finalize). */
void bench_trace_close(bench_t *b);

/* Frees sites, context and buffers (safe after a failed setup). */
void bench_teardown(bench_t *b);

/* Rank 0 prints the configuration before the loop. */
void report_config(const bench_t *b);

/* Rank 0 prints the tables and writes the files; returns an agreed status. */
int report_results(const bench_t *b);

#endif /* PAPBENCH_BENCH_H */
