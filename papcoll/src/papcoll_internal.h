/*
 * Internal interfaces of libpapcoll.  Not installed.
 *
 * Threads: the application thread calls the public API; one monitor thread
 * per call site runs its exchanges and background parts (one per site, so a
 * site waiting for its peers never holds up another site's exchange).  They
 * share a site's state only under site->lock (jobs, plan, background
 * completion), and a monitor uses MPI only on its site's communicators.
 */
#ifndef PAPCOLL_INTERNAL_H
#define PAPCOLL_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "papcoll.h"
#include "predict.h"

/* Message tags on a site's data communicator. */
enum {
    PAPCOLL__TAG_DATA = 1,  /* foreground block transfers */
    PAPCOLL__TAG_SYNC = 2,  /* linear synchronized: root's "send now" */
    PAPCOLL__TAG_SEGA = 3,  /* linear synchronized: first segment */
    PAPCOLL__TAG_SEGB = 4   /* linear synchronized: second segment */
};

#define PAPCOLL__ERR(rc) ((rc) == MPI_SUCCESS ? PAPCOLL_OK : papcoll__mpi_error((rc), __FILE__, __LINE__))

/* The plan of one collective call: pure data derived from a PAT vector.
 * Root-dependent tree placements are derived from order[] by the algorithm. */
typedef struct {
    int iter;        /* call index it belongs to (-1: none yet) */
    int has_pat;     /* 0: no prediction, rank order */
    double *pred;    /* P predicted arrival offsets */
    int *order;      /* P ranks, earliest predicted arrival first */
    double build_time; /* seconds spent predicting and ordering (NaN: no plan) */
} papcoll__plan_t;

/* Per-source receive buffer of a background part (reused across calls). */
typedef struct {
    char *buf;
    size_t cap;
    size_t len;      /* bytes received */
    size_t len_b;    /* linear synchronized: bytes of segment B (after len) */
} papcoll__stage_t;

/* Result of a background part, read by the foreground after completion. */
typedef struct {
    int rc;                  /* 0 or PAPCOLL_ERR_* */
    papcoll__stage_t *stage; /* P slots, indexed by source rank or vrank */
} papcoll__bg_t;

typedef struct papcoll__job papcoll__job_t;

/* One rank's record of one call, as shipped to rank 0 (all doubles, so a
 * batch is one MPI_DOUBLE array).  The per-call fields (iter .. plan_time)
 * are taken from rank 0's copy. */
typedef struct {
    double cstart, edge, cend, arrival, exit, predicted;
    double iter, algo, root, bytes, count, plan_time;
} papcoll__rec_t;
#define PAPCOLL__REC_DOUBLES ((int)(sizeof(papcoll__rec_t) / sizeof(double)))
/* Calls per shipment: records reach rank 0 at most this many calls late. */
#define PAPCOLL__REC_BATCH 16

struct papcoll_ctx {
    MPI_Comm comm;        /* user communicator (not owned) */
    MPI_Comm data_comm;   /* parent of the sites' data communicators */
    MPI_Comm mon_comm;    /* parent of the sites' monitor communicators */
    int rank, size;
    int quiet;
    int has_monitor;      /* sites run monitor threads */
    papcoll__predspec_t pred;
    char pred_text[32];
    char gather_default[32];
    char scatter_default[32];
    int warned_datatype;
    /* The global clock (clock.c); clock_lock guards clock and clock_tref. */
    papcoll_clock_t clock;
    double clock_tref;      /* raw time the offset refers to */
    pthread_mutex_t clock_lock;
    int has_clock_lock;
    int clock_every;        /* re-estimate every this many calls of site 0 (0: never) */
    MPI_Comm clock_comm, node_comm, leader_comm; /* the re-estimating thread's */
    double *clock_buf;      /* rank 0: 6 P doubles for the re-estimates' samples */
    double skew_offset, skew_drift; /* injected by tests (PAPCOLL_TEST_CLOCK_SKEW) */
    int skewed;
    papcoll_site_t *sites;  /* every live site (application thread only) */
    int nsites;             /* sites created so far: the next site's id */
    int tracing;            /* a sink is installed (on every rank) */
    /* Rank 0's sink; sink_lock serialises its callbacks across monitors. */
    pthread_mutex_t sink_lock;
    papcoll_sink_t sink;
    int has_sink;
};

struct papcoll_site {
    papcoll_ctx_t *ctx;
    papcoll_site_t *next; /* in ctx->sites */
    int id;               /* creation index in the context */
    char name[64];
    papcoll_op_t op;
    int algo;             /* index within op, after degradation */
    unsigned flags;       /* flags of algo */
    MPI_Comm comm;        /* data communicator of this site */
    MPI_Comm mcomm;       /* monitor communicator of this site */
    papcoll__predictor_t predictor;
    /* Application thread only. */
    int calls;            /* collectives completed */
    int requested;        /* exchanges requested (by an edge or a call) */
    int bg_started;       /* a background part was queued for the pending call */
    int bg_root;          /* root the queued background part serves */
    int last_root;        /* root of the previous call (-1: none) */
    double t_start;       /* processing start (NaN: not started) */
    double est;           /* edge estimate of the pending call (NaN: none) */
    double last_arrival, last_exit;
    papcoll_timing_t timing;
    double r_cstart, r_edge, r_cend; /* monitor API times of the pending call */
    papcoll__rec_t batch[PAPCOLL__REC_BATCH]; /* records not yet shipped */
    int nbatch;
    char type_name[MPI_MAX_OBJECT_NAME]; /* rank 0: datatype of the first traced call */
    papcoll__rec_t *gathered;      /* rank 0 while tracing: P batches */
    papcoll_rank_record_t *ranks;  /* rank 0 while tracing: one call's P records */
    /* The monitor thread and what it shares under lock. */
    int has_thread;
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t cond;  /* jobs queued / jobs done */
    papcoll__job_t *head, *tail;
    int stop;
    int jobs;             /* queued or running jobs of this site */
    int bg_iter;          /* call index whose background part finished */
    papcoll__plan_t plan;
    papcoll__bg_t bg;
    double *xchg;         /* PAPCOLL__XCHG doubles per rank: the last exchange */
    /* Bound receive buffer (papcoll_site_bind_recv), read by background parts. */
    char *bound;
    size_t bound_bytes;   /* one rank's block */
};

/* One rank's contribution to an exchange. */
enum { PAPCOLL__X_EST, PAPCOLL__X_ARRIVAL, PAPCOLL__X_EXIT, PAPCOLL__X_ITER, PAPCOLL__XCHG };

/* Arguments every algorithm receives: byte blocks, IN_PLACE resolved. */
typedef struct {
    papcoll_site_t *site;
    const papcoll__plan_t *plan; /* NULL for algorithms without NEEDS_PAT */
    MPI_Comm comm;
    int rank, size, root;
    size_t bytes;         /* one rank's block */
    const char *sbuf;     /* gather: own block (NULL: in place); scatter: root's P blocks */
    char *rbuf;           /* gather: root's P blocks; scatter: own block (NULL: in place) */
    /* The user's arguments, for the "mpi" baseline. */
    const void *u_sbuf;
    int u_scount;
    MPI_Datatype u_stype;
    void *u_rbuf;
    int u_rcount;
    MPI_Datatype u_rtype;
} papcoll__args_t;

typedef int (*papcoll__algo_fn)(const papcoll__args_t *a);
typedef int (*papcoll__bg_fn)(papcoll_site_t *site, int root);

/* Algorithms: foreground entry of every algorithm, background entry of B*. */
#define PAPCOLL_ALGO(op, name, flags, fallback, bg, summary) int papcoll_##op##_##name(const papcoll__args_t *a);
#include "algos.def"
#undef PAPCOLL_ALGO
int papcoll__gather_bsls_bg(papcoll_site_t *site, int root);
int papcoll__gather_bsbn_bg(papcoll_site_t *site, int root);
int papcoll__scatter_bsln_bg(papcoll_site_t *site, int root);
int papcoll__scatter_bsbn_bg(papcoll_site_t *site, int root);

/* algo.c: the tables generated from algos.def. */
papcoll__algo_fn papcoll__algo_fn_of(papcoll_op_t op, int i);
papcoll__bg_fn papcoll__algo_bg_of(papcoll_op_t op, int i);
int papcoll__algo_foreground_of(papcoll_op_t op, int i);

/* context.c */
int papcoll__mpi_error(int mpirc, const char *file, int line);
void papcoll__warn(papcoll_ctx_t *ctx, const char *fmt, ...);

/* clock.c */
double papcoll__mono(void);
double papcoll__now(const papcoll_ctx_t *ctx);
int papcoll__clock_init(papcoll_ctx_t *ctx);
/* Re-estimates offset and drift (collective over ctx->clock_comm; one
 * thread per rank: the first site's monitor, or the application). */
int papcoll__clock_update(papcoll_ctx_t *ctx);
void papcoll__clock_free(papcoll_ctx_t *ctx);

/* monitor.c */
int papcoll__monitor_start(papcoll_site_t *site);
void papcoll__monitor_stop(papcoll_site_t *site);
int papcoll__plan_alloc(papcoll__plan_t *plan, int P);
void papcoll__plan_free(papcoll__plan_t *plan);
/* Queue the exchange of the pending call (est: edge estimate or NaN);
 * run_bg >= 0 also queues the background part for that root. */
int papcoll__request_exchange(papcoll_site_t *site, double est, int run_bg_root);
/* Queue the background part of the pending call; with set_plan the plan is
 * built from pat first (NULL: no prediction), otherwise the pending
 * exchange's plan is used. */
int papcoll__request_bg(papcoll_site_t *site, int set_plan, const double *pat, int root);
/* Exchange in the calling thread (no monitor): collective. */
int papcoll__exchange_inline(papcoll_site_t *site, double est);
/* Plan from an explicit PAT vector, in the calling thread. */
void papcoll__plan_from_pat(papcoll_site_t *site, const double *pat);
/* Wait until the pending call's plan exists. */
int papcoll__wait_plan(papcoll_site_t *site);
/* Wait until the pending call's background part finished; returns its rc. */
int papcoll__wait_bg(papcoll_site_t *site);
/* Wait until the monitor has no job of this site. */
void papcoll__wait_idle(papcoll_site_t *site);
/* Queue the shipment of n records (copied) to rank 0. */
int papcoll__request_ship(papcoll_site_t *site, const papcoll__rec_t *recs, int n);
/* Queue a clock re-estimation (the context's first site only). */
int papcoll__request_clock(papcoll_site_t *site);

/* record.c: per-call records for the sink (DESIGN "trace record shipping"). */
void papcoll__record_call(papcoll_site_t *site, const papcoll__args_t *a, int algo,
                          double arrival, double exit);
/* Collective over site->mcomm: brings n records of every rank to rank 0's sink. */
int papcoll__record_ship(papcoll_site_t *site, const papcoll__rec_t *recs, int n);
/* Ships what is batched, in the calling thread (the monitor must be idle). */
int papcoll__record_flush(papcoll_site_t *site);
/* Every rank's clock estimate to rank 0's clock callback (collective over
 * comm; buf: rank 0's 6 P doubles). */
int papcoll__record_clock(papcoll_ctx_t *ctx, MPI_Comm comm, double *buf);
/* Rank 0's receive buffers of a site while tracing; freed by record_release. */
int papcoll__record_alloc(papcoll_site_t *site);
void papcoll__record_release(papcoll_site_t *site);

/* p2p.c: transfer helpers shared by the algorithms. */
int papcoll__bg_wait(MPI_Request *req);
int papcoll__bg_waitall(int n, MPI_Request *reqs, MPI_Status *sts);
int papcoll__bg_recv(papcoll__stage_t *st, int src, int tag, MPI_Comm comm, size_t *len);
int papcoll__stage_reserve(papcoll__stage_t *st, size_t bytes);
/* memcpy that accepts NULL pointers when n == 0 (count-0 collectives). */
static inline void papcoll__copy(void *dst, const void *src, size_t n)
{
    if (n > 0)
        memcpy(dst, src, n);
}
int papcoll__send_bytes(const void *buf, size_t bytes, int dst, int tag, MPI_Comm comm);
int papcoll__recv_bytes(void *buf, size_t bytes, int src, int tag, MPI_Comm comm);
int papcoll__irecv_bytes(void *buf, size_t bytes, int src, int tag, MPI_Comm comm, MPI_Request *req);
int papcoll__isend_bytes(const void *buf, size_t bytes, int dst, int tag, MPI_Comm comm, MPI_Request *req);

/* Shared engines: one per tree shape, thin wrappers pick plan and placement. */
int papcoll__gather_ls_leaf(const papcoll__args_t *a);
int papcoll__ls_pull(MPI_Comm comm, int r, char *dst, size_t bytes, MPI_Request *req_b, int bg);
int papcoll__ls_check_b(int n, const MPI_Status *sts, size_t bytes);
int papcoll__type_bytes(papcoll_ctx_t *ctx, MPI_Datatype type, int count, size_t *bytes);
int papcoll__gather_ls_engine(const papcoll__args_t *a, const int *order);
int papcoll__gather_bn_engine(const papcoll__args_t *a, const int *order);
int papcoll__scatter_lin_root(const papcoll__args_t *a, const int *order);
int papcoll__scatter_lin_engine(const papcoll__args_t *a, const int *order);
int papcoll__scatter_bn_root(const papcoll__args_t *a, const int *v2r);
int papcoll__scatter_bn_engine(const papcoll__args_t *a, const int *order);
/* vrank maps of a binomial tree (sched.h) in one allocation: v2r then r2v. */
int *papcoll__bn_maps(int P, int root, const int *order, int gather);

#endif
