/*
 * Call sites (site_api.c): one collective of the program's iteration, with its
 * policy, predictor, plan, monitor thread and record batch.  Not installed.
 *
 * Threads: the application thread calls the public API; the site's monitor
 * thread (monitor.c) runs its exchanges, plans and background parts.  They
 * share a site's state only under site->lock (the job ring, the plan, the
 * background result); the monitor uses MPI only on the site's communicators.
 * Everything the monitor path needs is allocated with the site: a rank that
 * ran out of memory in the middle of an exchange would leave the others
 * waiting in it.
 */
#ifndef PAPCOLL_SITE_H
#define PAPCOLL_SITE_H

#include <pthread.h>
#include <stdatomic.h>

#include "algo.h"
#include "args.h"
#include "context.h"
#include "coop.h"
#include "exec.h"
#include "plan.h"
#include "predict.h"
#include "record.h"
#include "select.h"

/* One rank's contribution to an exchange. */
enum { PAPCOLL__X_EST, PAPCOLL__X_ARRIVAL, PAPCOLL__X_ITER, PAPCOLL__X_DENSITY, PAPCOLL__XCHG };

/* What an exchange leaves for the policies: the prediction it made and
 * the arrivals it carried, those of the call before the one it
 * served.  Slot iter % 2 of the exchange state's snap. */
typedef struct {
    int iter;         /* the call the exchange served (-1: none) */
    double *pred;     /* [P] its predicted offsets */
    double first;     /* earliest exchanged arrival (global clock; inf: none) */
    double spread;    /* max - min exchanged arrival (NaN: fewer than two) */
    double lag_noise; /* median of the last 5 lag-1 error spreads (NaN: none yet) */
    double noise;     /* the predictor's noise at the exchange (papcoll__pred_noise; 0: none) */
} papcoll__snap_t;
#define PAPCOLL__LAG_WIN 5

/* A job of the monitor thread; the site holds a ring of them. */
typedef enum { PAPCOLL__JOB_PLAN, PAPCOLL__JOB_BG, PAPCOLL__JOB_SHIP, PAPCOLL__JOB_CLOCK } papcoll__job_kind_t;
typedef struct {
    papcoll__job_kind_t kind;
    int iter;                 /* call index served */
    int xchg;                 /* PLAN: exchange rec (else: the explicit PAT in the exchange state's pat) */
    double rec[PAPCOLL__XCHG];
    int publish;              /* PLAN: publish a decision (the call waits for it) */
    int decide;               /* PLAN, publish: decide and plan for sig (else: the call decides) */
    papcoll__sig_t sig;
    papcoll__batch_t batch;   /* SHIP: a copy of the full batch */
} papcoll__job_t;
#define PAPCOLL__JOBS 8

/* The decision of one call, published by its job (or made by the call). */
typedef struct {
    int iter;                 /* the call it serves (-1: none yet) */
    int rc;
    int decided;              /* 0: the job only exchanged, the call decides */
    papcoll__sig_t sig;       /* the signature decided for */
    papcoll__selection_t sel;
    int algo;                 /* what runs: sel.algo, or its foreground fallback after a drain */
    const papcoll__algo_t *run; /* algo's line of algos.def */
    double time;              /* s: inputs, decide and plan_get */
    int bg;                   /* its background part was started (for algo at sig.root) */
    int bg_done;              /* the call index whose background part finished (-1: none) */
    int bg_rc;
} papcoll__decision_t;

/* What the exchanges keep (monitor.c): the predictor, the last exchange,
 * its prediction and the snapshots the policies read. */
typedef struct {
    papcoll__predictor_t predictor;
    double *xchg;         /* PAPCOLL__XCHG doubles per rank: the last exchange */
    double *pred;         /* [P] predicted offsets of the last exchange */
    int pred_ok;          /* pred holds the last exchange's prediction */
    double pred_iter;     /* the call pred was made for (rank 0's PAPCOLL__X_ITER) */
    double noise;         /* the predictor's noise after it (papcoll__pred_noise), seconds */
    double density;       /* the largest exchanged density, rounded up (papcoll__model_density; 1: none) */
    papcoll__snap_t snap[2];          /* the last two exchanges */
    double lag_err[PAPCOLL__LAG_WIN]; /* error spreads of each prediction against the next call's arrivals */
    int nlag;                         /* of them recorded (ring position: nlag % PAPCOLL__LAG_WIN) */
    double *col;          /* [P] scratch: one column of the exchange */
    double *pat;          /* [P] the explicit PAT of the pending call */
} papcoll__xstate_t;

/* The monitor API's marks of the pending call (papcoll_processing_start,
 * papcoll_edge, papcoll_processing_end) and what this rank's previous call
 * gives the next exchange. */
typedef struct {
    double t_start;       /* processing start (NaN: not started) */
    double est;           /* edge estimate of the pending call (NaN: none) */
    double cstart, edge, cend; /* recorded times */
    double given_arrival; /* of the next call (papcoll_site_set_arrival; NaN: none) */
    double last_arrival;  /* this rank's arrival at its previous call (exchanged with the next) */
    double last_density;  /* the previous call's (exchanged as PAPCOLL__X_DENSITY) */
} papcoll__marks_t;

struct papcoll_site {
    papcoll_ctx_t *ctx;
    papcoll_site_t *next; /* in ctx->sites */
    int id;               /* creation index in the context */
    char name[128];
    papcoll_op_t op;
    papcoll__policy_t policy;
    MPI_Comm mcomm;       /* monitor communicator of this site */
    MPI_Comm ccomm;       /* agreement checks (PAPCOLL_CHECK), else MPI_COMM_NULL */
    /* Application thread only. */
    int calls;            /* collectives completed */
    int queued;           /* job `calls` is queued (by the edge or the call) */
    int waits;            /* calls wait for their decision (papcoll__site_waits, set with the policy) */
    papcoll__sig_t last_sig; /* signature of the previous call (root -2: none yet) */
    int last_algo;        /* algorithm of the previous call (-1: none) */
    int warned;           /* the fallback warning was printed */
    papcoll__marks_t marks;
    papcoll_timing_t timing;
    papcoll__batch_t batch;          /* records not yet shipped (record.c) */
    papcoll__recv_t recv;            /* rank 0 while tracing (record.c) */
    /* The monitor thread and what it shares under lock. */
    int has_thread;
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t cond;  /* jobs queued / jobs done */
#ifdef PAPCOLL_SMPI
    papcoll__coop_t coop; /* the monitor as a coroutine of the rank (coop.h), not the thread */
#endif
    papcoll__job_t jobs[PAPCOLL__JOBS];
    int job_head, njobs;  /* ring: the next job to run, jobs queued or running */
    int stop;
    papcoll__decision_t dec; /* the latest decision */
    papcoll__plan_t plan;    /* its plan */
    papcoll__xstate_t xs;    /* the exchanges' state (monitor side, or the calling thread without a monitor) */
    papcoll__exec_t x;       /* what its algorithms see (exec.h) */
};

#endif
