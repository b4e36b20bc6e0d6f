/*
 * The execution view (not installed): what an algorithm sees of its call
 * site.  Algorithms and their background parts get this, never the site
 * with its policy, job ring and records: the data communicator, the plan,
 * the work arrays and buffers, the bound receive buffer and the identity
 * element.  The site owns every part of it (site_api.c).
 */
#ifndef PAPCOLL_EXEC_H
#define PAPCOLL_EXEC_H

#include <stddef.h>

#include "context.h"

typedef struct papcoll__plan papcoll__plan_t;

/* Message tags on a site's data communicator. */
enum {
    PAPCOLL__TAG_DATA = 1,       /* foreground block transfers */
    PAPCOLL__TAG_SYNC = 2,       /* a receiver's "send now" (linear synchronized, sorted_ring) */
    PAPCOLL__TAG_SEGA = 3,       /* linear synchronized: first segment */
    PAPCOLL__TAG_SEGB = 4,       /* linear synchronized: second segment */
    PAPCOLL__TAG_ARRIVE = 5,     /* bcast arrival: a non-root's announcement (empty) */
    PAPCOLL__TAG_ORDER = 6,      /* bcast arrival: the root's order to a holder (target rank, -1: done) */
    PAPCOLL__TAG_IDLE = 7,       /* bcast arrival: a holder is free (empty) */
    PAPCOLL__TAG_ADATA = 8,      /* bcast arrival: the vector, received from any source */
    PAPCOLL__TAG_RED_RESULT = 9, /* reduce: the result, from a tree's root to the call's root */
    PAPCOLL__TAG_RED_READY =
        10, /* reduce, arrival-driven: "idle", to the coordinator (10, 11: call parity) */
    PAPCOLL__TAG_RED_ORDER = 12, /* reduce, arrival-driven: the coordinator's instruction */
    PAPCOLL__TAG_FLUSH = 13,     /* sorted_ring: the end of a stream (empty, synchronous) */
    PAPCOLL__TAG_TREE1 = 14      /* two trees: tree 1's segments (tree 0's: DATA), in order per tree */
};

/* Work buffers a call's own thread takes from its site (papcoll__scratch),
 * one per role; a role's buffer is used by one algorithm at a time. */
enum { PAPCOLL__SCR_ACC, PAPCOLL__SCR_TMP, PAPCOLL__SCR_ENC, PAPCOLL__SCRATCH_SLOTS };

/* Per-source receive buffer of a background part (reused across calls). */
typedef struct {
    char *buf;
    size_t cap;
    size_t len;   /* bytes received */
    size_t len_b; /* linear synchronized: bytes of segment B (after len) */
#ifdef PAPCOLL_SMPI
    int shared; /* a work buffer from SMPI_SHARED_MALLOC (papcoll_sim_shared_scratch) */
#endif
} papcoll__stage_t;

/* Work arrays of P entries, one set per thread (foreground, background). */
typedef struct {
    MPI_Request *reqs;
    MPI_Status *sts;
    int *ints;
} papcoll__ws_t;

typedef struct papcoll__exec {
    papcoll_ctx_t *ctx; /* the options (segment bytes, radix, Clairvoyant's N, the model), the tree cache */
    MPI_Comm comm;      /* the site's data communicator */
    const papcoll__plan_t *plan; /* the call's plan */
    papcoll__ws_t fg, bg;        /* work arrays of the call's thread and of the background part */
    papcoll__stage_t *stage;     /* [P] background receive buffers */
    papcoll__stage_t scratch[PAPCOLL__SCRATCH_SLOTS]; /* the call's work buffers (papcoll__scratch) */
    /* Bound receive buffer (papcoll_site_bind_recv), read by background parts:
     * one rank's block (gather root: P blocks at bound + r * bound_bytes). */
    char *bound;
    size_t bound_bytes;
    unsigned char *identity; /* identity element of the operation (papcoll_site_set_identity), or NULL */
    size_t identity_bytes;
    double sent_density; /* out: the call's encoded / dense bytes sent (NaN: none; Clairvoyant) */
} papcoll__exec_t;

/* A foreground waits here for its call's background part (monitor.c),
 * e.g. a root for the receives its part posted; returns the part's status. */
int papcoll__exec_wait_bg(const papcoll__exec_t *x);

#endif
