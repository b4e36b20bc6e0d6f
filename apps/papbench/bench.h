/*
 * papbench's run state, shared by its phases:
 *
 *   run.c      prolog (network model, call sites, buffers) and the
 *              measurement loop: calibration, warm-up and measured rounds;
 *   collect.c  one call's buffers, the call itself and its validation, per op;
 *   report.c   configuration banner, result tables, results.json/.csv;
 *   tracing.c  the trace's configuration text.
 *
 * Rank 0 gathers every rank's arrival and exit of each call and keeps
 * them with the call's metrics, computed by papmetrics.h (the one
 * definition papbench, fft and paptrace share).
 */
#ifndef PAPBENCH_BENCH_H
#define PAPBENCH_BENCH_H

#include "app.h"
#include "config.h"
#include "limits.h"
#include "lowerbound.h"
#include "papcoll.h"

/* Measurements of one algorithm (rank 0), indexed by measured iteration. */
typedef struct {
    papcoll_site_t *site;
    double *runtime;     /* r = max f - min a (s) */
    double *elapsed;     /* mean over ranks of f_i - a_i (s) */
    double *imbalance;   /* I = max a - min a (s) */
    double *min_arrival; /* min a, from the start of the loop (s) */
    double *arrival;     /* iters x P, a_i - min a (s) */
    double *exit;        /* iters x P, f_i - min a (s) */
    double *lower_bound; /* the op's lower bound of r for these arrivals (s) */
    double *round_model; /* reduce: R(a) d of the round model (s) */
    double *balanced;    /* the run times of the calibration rounds (s) */
    double *decision;    /* rank 0's time to choose the algorithm (s; 0: a fixed algorithm) */
} algo_result_t;

typedef struct {
    const bench_config_t *cfg;
    app_t *app;           /* MPI, papcoll context, trace (app.h) */
    int rank, nprocs;     /* the app's */
    pm_lb_model_t model;  /* port model of the lower bound, root <-> rank root - 1 (lowerbound.h) */
    pm_lb_fn lower_bound; /* the op's bound (papmetrics.h) */
    int segments;         /* reduce: the round model's N and round time d (s) */
    double round;
    int bind_ranks;        /* ranks whose receive buffer is bound (papcoll_site_bind_recv) */
    int bind_refused;      /* ranks on which the library refused it (their calls stage) */
    int bind_error;        /* the refusal's code (of the lowest such rank) */
    algo_result_t *res;    /* cfg->nalgos */
    int *order;            /* cfg->nalgos: the current round's order of the entries */
    void *sendbuf;         /* gather: own block; scatter: all blocks (root); reductions: own vector */
    void *recvbuf;         /* gather: all blocks (root); scatter: own block; bcast: the vector;
                              reduce: the result (root); allreduce: the result */
    double *delays;        /* P delays (s) of the current round */
    double *times;         /* rank 0: 2 x P gathered arrival/exit pairs */
    double t_balanced;     /* the baseline's median run time of the calibration rounds (s), 0: none */
    double delay_scale;    /* the pattern's delays are multiplied by it (--maxdelay Fx) */
    double t_start;        /* start of the loop on rank 0's time base */
    bench_limits_t limits; /* alpha per rank, CPU per rank over the loop (limits.h; results on rank 0) */
} bench_t;

/* The phases of the run, in order: calibration (balanced) rounds, warm-ups, measured iterations. */
typedef enum { PHASE_CALIBRATE, PHASE_WARMUP, PHASE_MEASURE } phase_t;

/* Round g of the run (from 0): its phase and the index within it. */
phase_t bench_phase(const bench_config_t *c, long g, long *index);

/* "iteration 3/20", "warm-up iteration 1/2" or "calibration round 2/8" of round g. */
const char *bench_round_label(const bench_config_t *c, long g, char *buf, size_t len);

/* Prolog after the configuration: a status agreed by all ranks (APP_*). */
int bench_setup(bench_t *b, app_t *app, const bench_config_t *cfg);

/* The loop: calibration, warm-up and measured rounds of every algorithm. */
int bench_measure(bench_t *b);

/* Frees the results and buffers (after app_close; safe after a failed setup). */
void bench_free(bench_t *b);

/* collect.c: the send and receive buffers the op needs on this rank; 0 out of memory. */
int call_alloc(bench_t *b);

/* collect.c: fresh send data and poisoned receive buffers for the call tagged tag. */
void call_prepare(const bench_t *b, uint64_t tag);

/* collect.c: the call of algorithm a through its site; papcoll's code. */
int call_run(const bench_t *b, int a);

/* collect.c: the MPI datatype of --type, and the MPI_Op of --reduce-op (MPI_OP_NULL: no reduction). */
MPI_Datatype call_type(const bench_config_t *c);
MPI_Op call_op(const bench_config_t *c);

/* collect.c: the call's name, "papcoll_gather" etc. */
const char *call_name(const bench_t *b);

/* collect.c: checks what this rank holds after the call tagged tag (round g,
 * algorithm a); prints the first mismatch and returns 1, else 0. */
int call_validate(const bench_t *b, int a, long g, uint64_t tag);

/* collect.c, test-only (BENCH_CORRUPT_ENV): flips a bit of one element this rank holds. */
void call_corrupt(const bench_t *b);

/* collect.c: binds the receive buffer of every site where the op has one to bind. */
void call_bind(bench_t *b);

/* The trace's text of what was measured and decided before the loop (tracing.c). */
void bench_trace_extra(const bench_t *b, char *buf, size_t len);

/* Rank 0 prints the configuration before the loop. */
void report_config(const bench_t *b);

/* Rank 0 prints the tables and writes the files; returns an agreed status. */
int report_results(const bench_t *b);

#endif /* PAPBENCH_BENCH_H */
