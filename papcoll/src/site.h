/*
 * Call sites (site.c): one collective of the program's iteration, with its
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

#include "args.h"
#include "context.h"
#include "plan.h"
#include "predict.h"
#include "record.h"
#include "select.h"

/* Message tags on a site's data communicator. */
enum {
    PAPCOLL__TAG_DATA = 1,  /* foreground block transfers */
    PAPCOLL__TAG_SYNC = 2,  /* a receiver's "send now" (linear synchronized, sorted_ring) */
    PAPCOLL__TAG_SEGA = 3,  /* linear synchronized: first segment */
    PAPCOLL__TAG_SEGB = 4,  /* linear synchronized: second segment */
    PAPCOLL__TAG_ARRIVE = 5, /* bcast arrival: a non-root's announcement (empty) */
    PAPCOLL__TAG_ORDER = 6, /* bcast arrival: the root's order to a holder (target rank, -1: done) */
    PAPCOLL__TAG_IDLE = 7,  /* bcast arrival: a holder is free (empty) */
    PAPCOLL__TAG_ADATA = 8, /* bcast arrival: the vector, received from any source */
    PAPCOLL__TAG_RED_RESULT = 9, /* reduce: the result, from a tree's root to the call's root */
    PAPCOLL__TAG_RED_READY = 10, /* reduce, arrival-driven: "idle", to the coordinator (10, 11: call parity) */
    PAPCOLL__TAG_RED_ORDER = 12, /* reduce, arrival-driven: the coordinator's instruction */
    PAPCOLL__TAG_FLUSH = 13      /* sorted_ring: the end of a stream (empty, synchronous) */
};

/* One rank's contribution to an exchange. */
enum { PAPCOLL__X_EST, PAPCOLL__X_ARRIVAL, PAPCOLL__X_EXIT, PAPCOLL__X_ITER, PAPCOLL__X_DENSITY, PAPCOLL__XCHG };

/* What an exchange leaves for the data-dependent policies (call.c): the
 * prediction it made and the arrivals and exits it carried, those of the
 * call before the one it served.  Slot iter % 2 of site->snap. */
typedef struct {
    int iter;         /* the call the exchange served (-1: none yet) */
    double *pred;     /* [P] its predicted offsets */
    double first;     /* earliest exchanged arrival (global clock; inf: none) */
    double spread;    /* max - min exchanged arrival (NaN: fewer than two) */
    double runtime;   /* max exchanged exit - first (NaN: none) */
    double lag_noise; /* median of the last 5 lag-1 error spreads (NaN: none yet) */
    double noise;     /* the predictor's noise at the exchange (papcoll__pred_noise; 0: none) */
    double edge_last; /* latest edge estimate of the call served (global clock; NaN: a rank gave none) */
    double edge_lag;  /* largest of the recent calls' last arrival - edge_last (0: none yet) */
} papcoll__snap_t;
#define PAPCOLL__LAG_WIN 5

/* Work buffers a call's own thread takes from its site (papcoll__scratch),
 * one per role; a role's buffer is used by one algorithm at a time. */
enum { PAPCOLL__SCR_ACC, PAPCOLL__SCR_TMP, PAPCOLL__SCR_ENC, PAPCOLL__SCRATCH_SLOTS };

/* Per-source receive buffer of a background part (reused across calls). */
typedef struct {
    char *buf;
    size_t cap;
    size_t len;      /* bytes received */
    size_t len_b;    /* linear synchronized: bytes of segment B (after len) */
} papcoll__stage_t;

/* Work arrays of P entries, one set per thread (foreground, background). */
typedef struct {
    MPI_Request *reqs;
    MPI_Status *sts;
    int *ints;
} papcoll__ws_t;

/* A job of the monitor thread; the site holds a ring of them. */
typedef enum { PAPCOLL__JOB_PLAN, PAPCOLL__JOB_SHIP, PAPCOLL__JOB_CLOCK } papcoll__job_kind_t;
typedef struct {
    papcoll__job_kind_t kind;
    int iter;                      /* call index served */
    int xchg;                      /* PLAN: exchange rec first (else: plan from pat) */
    double rec[PAPCOLL__XCHG];
    double *pat;                   /* PLAN without exchange: [P] (site-owned), has_pat */
    int has_pat;
    int has_sig;
    papcoll__sig_t sig;            /* PLAN: the signature to select and plan for */
    int plan;                      /* PLAN: select and plan (else: exchange only) */
    int bg;                        /* PLAN: run the background part afterwards */
    int has_sel;                   /* PLAN: plan sel (a data policy's choice), else select */
    papcoll__selection_t sel;
    papcoll__batch_t batch;        /* SHIP: a copy of the full batch */
} papcoll__job_t;
#define PAPCOLL__JOBS 8

struct papcoll_site {
    papcoll_ctx_t *ctx;
    papcoll_site_t *next; /* in ctx->sites */
    int id;               /* creation index in the context */
    char name[64];
    papcoll_op_t op;
    papcoll__policy_t policy;
    MPI_Comm comm;        /* data communicator of this site */
    MPI_Comm mcomm;       /* monitor communicator of this site */
    MPI_Comm ccomm;       /* agreement checks (PAPCOLL_CHECK), else MPI_COMM_NULL */
    papcoll__predictor_t predictor;
    /* Application thread only. */
    int calls;            /* collectives completed */
    int requested;        /* exchanges requested (by an edge or a call) */
    int bg_started;       /* a background part was queued for the pending call */
    int bg_algo, bg_root; /* what it serves */
    int job_plans;        /* the pending call's plan job selects and plans */
    papcoll__sig_t last_sig; /* signature of the previous call (root -2: none yet) */
    /* A stateless data-dependent policy's choice made at the edge (rules,
     * auto: papcoll_edge), which the call reuses when its signature is the
     * one the edge saw (call.c). */
    papcoll__selection_t edge_sel;
    papcoll__sig_t edge_sig;
    int edge_call;        /* the call it serves (-1: none) */
    double edge_decision; /* its time (s) */
    int last_algo;        /* algorithm of the previous call (-1: none) */
    int algo_hist[2];     /* algorithm of call k in slot k % 2 (-1: none) */
    int prev_xchg;        /* the previous call had an exchange */
    int warned;           /* the fallback warning was printed */
    int test_local_policy; /* PAPCOLL_TEST_POLICY_LOCAL (test-only): policies read a local value */
    double t_start;       /* processing start (NaN: not started) */
    double est;           /* edge estimate of the pending call (NaN: none) */
    double last_arrival, last_exit;
    double sent_density;  /* the running call's encoded / dense bytes sent (NaN: none; set by Clairvoyant) */
    double last_density;  /* the previous call's (exchanged as PAPCOLL__X_DENSITY) */
    double given_arrival; /* of the next call (papcoll_site_set_arrival; NaN: none) */
    papcoll_timing_t timing;
    double r_cstart, r_edge, r_cend; /* monitor API times of the pending call */
    papcoll__batch_t batch;          /* records not yet shipped (record.c) */
    papcoll__recv_t recv;            /* rank 0 while tracing (record.c) */
    papcoll__ws_t fg;                /* the foreground's work arrays */
    double *pat_copy;                /* [P] explicit PAT of the pending call */
    /* The monitor thread and what it shares under lock. */
    int has_thread;
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t cond;  /* jobs queued / jobs done */
    papcoll__job_t jobs[PAPCOLL__JOBS];
    int job_head, njobs;  /* ring: the next job to run, jobs queued or running */
    int stop;
    int done_iter;        /* call index whose plan job finished */
    int job_rc;           /* its status */
    int mon_bg;           /* call index for which it started a background part */
    int bg_iter;          /* call index whose background part finished */
    int bg_rc;
    /* 1 from the running call's decision to its end when that call's waits
     * do not nap (papcoll__fg_naps): its background part's waits then yield
     * between polls instead of napping (papcoll__bg_yield_when). */
    atomic_int bg_yields;
    papcoll__plan_t plan;
    papcoll__selection_t sel; /* the plan's selection */
    int pred_ok;          /* pred holds the last exchange's prediction */
    /* Monitor side (or the calling thread without a monitor). */
    double *xchg;         /* PAPCOLL__XCHG doubles per rank: the last exchange */
    double *pred;         /* [P] predicted offsets of the last exchange */
    double pred_iter;     /* the call pred was made for (rank 0's PAPCOLL__X_ITER) */
    double noise;         /* the predictor's noise after it (papcoll__pred_noise), seconds */
    double density;       /* the largest exchanged density, rounded up (papcoll__model_density; 1: none) */
    papcoll__snap_t snap[2];          /* the last two exchanges, for the policies */
    papcoll__policy_t *preview;       /* scratch copy of the policy (papcoll__preview) */
    double lag_err[PAPCOLL__LAG_WIN]; /* error spreads of each prediction against the next call's arrivals */
    int nlag;                         /* of them recorded (ring position: nlag % PAPCOLL__LAG_WIN) */
    double edge_err[PAPCOLL__LAG_WIN]; /* last arrival - latest edge estimate of recent calls */
    int nedge;                        /* of them recorded (ring position: nedge % PAPCOLL__LAG_WIN) */
    double *col;          /* [P] scratch: one column of the exchange */
    papcoll__stage_t *stage; /* [P] background receive buffers */
    papcoll__stage_t scratch[PAPCOLL__SCRATCH_SLOTS]; /* the calling thread's work buffers (papcoll__scratch) */
    papcoll__ws_t bgw;    /* the background's work arrays */
    /* Bound receive buffer (papcoll_site_bind_recv), read by background parts:
     * one rank's block (gather root: P blocks at bound + r * bound_bytes). */
    char *bound;
    size_t bound_bytes;
    /* Identity element of the operation (papcoll_site_set_identity), or NULL. */
    unsigned char *identity;
    size_t identity_bytes;
};

#endif
