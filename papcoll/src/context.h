/*
 * Contexts (created by init.c): one per communicator given to papcoll_init.  Not
 * installed.
 *
 * A context owns two duplicates of the user's communicator (the parents of
 * every site's data and monitor communicators, so library traffic never
 * matches user messages), the options, the global clock (clock.c), the
 * tree shapes its plans share (plan.c) and rank 0's record sink (record.c).
 */
#ifndef PAPCOLL_CONTEXT_H
#define PAPCOLL_CONTEXT_H

#include <pthread.h>
#include <stdio.h>

#include "base.h"
#include "model.h"
#include "papcoll.h"
#include "predict.h"
#include "sched/tree.h"


/* What a call does when its algorithm cannot serve it (PAPCOLL_FALLBACK). */
typedef enum { PAPCOLL__FB_WARN, PAPCOLL__FB_ERROR, PAPCOLL__FB_SILENT } papcoll__fallback_t;

/* The radix vector option (radix_k): at most this many factors. */
#define PAPCOLL__RADIX_MAX 32

/* Tree shapes shared by every site of a context (plan.c): built once per
 * (shape, k), immutable afterwards. */
#define PAPCOLL__MAX_TREES 16
typedef struct {
    int k;
    papcoll__tree_t tree;
} papcoll__tree_slot_t;

struct papcoll_ctx {
    MPI_Comm comm;        /* user communicator (not owned) */
    MPI_Comm data_comm;   /* parent of the sites' data communicators */
    MPI_Comm mon_comm;    /* parent of the sites' monitor communicators */
    int rank, size;
    int quiet;
    int has_monitor;      /* sites run monitor threads */
    int oversubscribed;   /* ranks share this node's cores (init.c) */
    int check;            /* PAPCOLL_CHECK: agreement check at every call */
    size_t segment_bytes; /* PAPCOLL_SEGMENT_BYTES: segment size of SEGMENTED algorithms */
    int segment_given;    /* ... set by the options (else the default, and the two trees' model may cut it) */
    /* Reduction options, rank 0's on every rank (init.c). */
    int radix_target;     /* radix_k = K: radix-k factors of at most K where P allows (default 8) */
    int radix_len;        /* radix_k = "k1,k2,...": that vector (its product is P), else 0 */
    int radix_vec[PAPCOLL__RADIX_MAX];
    int cv_segments; /* clairvoyant_segments: Clairvoyant's N (0: the model's) */
    int ar_reduce, ar_bcast; /* allreduce_reduce / _bcast: the parts of allreduce reduce_bcast (indices) */
    double model_cfg[PAPCOLL__M_N]; /* model_alpha, _beta, _gamma (NaN: measure) */
    char model_cache[256];          /* model_cache: file of measured models (rank 0's; "": none) */
    papcoll__model_t model; /* model.c; valid when has_model */
    int has_model;
    papcoll__fallback_t fallback;
    papcoll__predspec_t pred;
    char pred_text[32];
    char policy_default[PAPCOLL_OP_COUNT][288]; /* a policy text (rules:FILE may be long) */
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
    /* Tree shapes (plan.c); tree_lock guards the table, the trees are read-only. */
    pthread_mutex_t tree_lock;
    papcoll__tree_slot_t trees[PAPCOLL__MAX_TREES];
    int ntrees;
    papcoll_site_t *sites;  /* every live site (application thread only) */
    int nsites;             /* sites created so far: the next site's id */
    int tracing;            /* a sink is installed (on every rank) */
    /* Rank 0's sink; sink_lock serialises its callbacks across monitors. */
    pthread_mutex_t sink_lock;
    papcoll_sink_t sink;
    int has_sink;
};

/* One line on stderr from rank 0, unless quiet: a warning, or a note ("papcoll: ..."). */
void papcoll__warn(papcoll_ctx_t *ctx, const char *fmt, ...);
void papcoll__note(const papcoll_ctx_t *ctx, const char *fmt, ...);

#endif
