/*
 * Plans (plan.c): everything a call of a site needs decided before it runs,
 * as plain data, built once and reused while its inputs stay the same
 * (FFTW's plan / execute: the expensive part once, execute cheap and const).
 * Not installed.
 *
 * Inputs (the key): the chosen algorithm, the root, the signature's bytes
 * and, for NEEDS_PAT algorithms, the predicted order.  Output: the order,
 * the placement of ranks on the algorithm's tree (v2r / r2v) when it has
 * one, and a hash of what all ranks must share (PAPCOLL_CHECK).
 *
 * The monitor builds the plan right after the PAT exchange (monitor.c);
 * the call rebuilds it in the application thread when its signature turned
 * out different from the one the monitor assumed (the previous call's).
 * Both derive it from the same exchanged bytes, so every rank holds the same
 * plan (DESIGN invariant 1).  Every array is allocated with the site, so
 * building never allocates (a rank that ran out of memory there would plan
 * differently from the others).
 */
#ifndef PAPCOLL_PLAN_H
#define PAPCOLL_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "args.h"
#include "context.h"
#include "sched/sched.h"
#include "sched/tree.h"

struct papcoll__plan {
    /* Key. */
    int algo;            /* algorithm index within the op (after fallback) */
    int root;            /* root it was built for (-1: none) */
    size_t bytes;
    int has_pat;         /* 0: no prediction, rank order */
    /* Data. */
    double *pred;        /* [P] predicted arrival offsets (NaN: none) */
    double noise; /* the predictor's noise (seconds; 0: none): smaller differences are not told apart */
    double density;      /* share of the bytes a sparse site's encodings carried (papcoll__model_density; 1: dense) */
    int *order;          /* [P] ranks, earliest predicted arrival first */
    int *v2r, *r2v;      /* [P] tree position <-> rank (tree algorithms) */
    int has_tree;        /* v2r / r2v are valid */
    size_t seg;          /* segment bytes the two trees run by the model (0: the context's) */
    const papcoll__tree_t *tree; /* the shape (the context's cache), or NULL: binomial of sched.h */
    uint64_t hash;       /* of the parts all ranks must share */
    int iter;            /* call index it serves (-1: none yet) */
    double build_time;   /* seconds from the exchanged data to the plan (NaN: no plan) */
    /* Workspace of the builder. */
    papcoll__keyed_t *keyed; /* [P] */
    /* Data of one planner (a schedule, a coordinator's state), allocated by
     * that planner on its first build and reused by the later ones, freed
     * with the plan or when another planner takes over (papcoll__plan_xdata). */
    void *xdata;
    void (*xfree)(void *);
    const void *xowner;  /* the planner xdata belongs to */
    uint64_t xhash;      /* what all ranks must share of xdata (AGREE; 0 when nothing), set by its planner */
};

/* What a planner sees. */
typedef struct {
    papcoll_ctx_t *ctx;  /* for its cache of tree shapes */
    int P, root;
    size_t bytes;
    const int *order;    /* NULL: no prediction */
    int iter;            /* the call planned */
} papcoll__plan_in_t;

/* A planner of algos.def fills the algorithm-specific part of a plan. */
typedef int (*papcoll__planner_fn)(papcoll__plan_t *plan, const papcoll__plan_in_t *in);

int papcoll__plan_alloc(papcoll__plan_t *plan, int P);
void papcoll__plan_free(papcoll__plan_t *plan);

/*
 * Builds (or keeps, when the key is unchanged) the plan of call iter for
 * algorithm algo of op at root with the predicted offsets pred[P] (NULL: no
 * prediction) and their noise (papcoll__pred_noise; read by Clairvoyant), and the density of
 * the site's encodings (papcoll__model_density; read by Clairvoyant).  t0: when the data it
 * derives from arrived (build_time runs from there).  Pure: same inputs, same plan on every rank.
 */
int papcoll__plan_build(papcoll__plan_t *plan, papcoll_ctx_t *ctx, papcoll_op_t op, int algo, int root,
                        size_t bytes, const double *pred, double noise, double density, int iter, double t0);

/*
 * Steps shared by the planners of tree algorithms (planners are named in
 * algos.def and live with their algorithms; algo.h declares them).
 *   plan_tree      the context's cached tree of (shape, k); NOMEM possible
 *                  only the first time a shape is used
 *   place_rotate   position p on rank (p - tree root + root) mod P: the
 *                  tree's root on the call's root, the rest in rank order
 *   place_identity position p on rank p (ordered reductions)
 *   place_order    the tree's root on root, the other positions filled in
 *                  the given order (predicted arrival) by ascending depth,
 *                  ties by position: early arrivals near the root
 */
int papcoll__plan_tree(papcoll__plan_t *plan, const papcoll__plan_in_t *in, papcoll__tree_shape_t shape, int k);
/* The two trees of sched/twotree.h for in->P as the plan's planner data
 * (built on the first use, then kept; NOMEM only then), and plan->seg from
 * the model (papcoll__twotree_segment; c = beta, plus gamma when reduce)
 * unless the options give segment_bytes or the context has no model. */
int papcoll__plan_twotree(papcoll__plan_t *plan, const papcoll__plan_in_t *in, int reduce);
/* The two trees with the ranks placed by the agreed prediction (in->order)
 * along the positions' order of a bcast (reduce = 0: sched/twotree's seq)
 * or of a reduce (rseq); without a prediction, twotree's placement. */
int papcoll__plan_stwotree(papcoll__plan_t *plan, const papcoll__plan_in_t *in, int reduce);
void papcoll__place_rotate(papcoll__plan_t *plan, const papcoll__plan_in_t *in);
void papcoll__place_identity(papcoll__plan_t *plan, const papcoll__plan_in_t *in);
void papcoll__place_order(papcoll__plan_t *plan, const papcoll__plan_in_t *in);

/*
 * A planner's own data: returns plan->xdata when owner (any address unique
 * to the planner, e.g. its function) already holds it, else frees whatever
 * another planner left there and returns NULL; the planner then allocates
 * its data and stores it with papcoll__plan_xdata_set.  So a site allocates
 * once per planner it uses (NOMEM only then), not per build.
 */
void *papcoll__plan_xdata(papcoll__plan_t *plan, const void *owner);
void papcoll__plan_xdata_set(papcoll__plan_t *plan, const void *owner, void *data, void (*xfree)(void *));

/* The tree of (shape, k) for the context's P, built on first use and kept
 * until papcoll_finalize; NULL when out of memory. */
const papcoll__tree_t *papcoll__tree_get(papcoll_ctx_t *ctx, papcoll__tree_shape_t shape, int k);

#endif
