/*
 * Shared allreduce machinery: the step that folds a process count into a
 * power of two for the hypercube algorithms (recdoubling, rabenseifner),
 * element ranges of the vector (engine_fold.c), and the composite
 * algorithms reduce + bcast (engine_composite.c).
 */
#ifndef PAPCOLL_ALLREDUCE_ENGINE_H
#define PAPCOLL_ALLREDUCE_ENGINE_H

#include "algo.h"

/*
 * The fold of a non-power-of-two P (pof2 = the largest power of two <= P,
 * rem = P - pof2).  Pre-step: among the first 2 rem ranks, rank 2i sends
 * its vector to 2i + 1, which combines x_2i (op) x_2i+1 into acc; those
 * odd ranks and the ranks >= 2 rem continue as "new ranks" 0 .. pof2 - 1,
 * new rank j standing for old ranks {2j, 2j+1} (j < rem) or {j + rem}.  Each
 * new rank so stands for a contiguous range of old ranks, ascending with
 * j, so an algorithm that keeps new-rank order keeps rank order.  Post-step:
 * 2i + 1 sends the result to 2i.
 *
 *   P = 6 (pof2 = 4, rem = 2):   old 0 1 | 2 3 | 4 | 5
 *                                new   0 |   1 | 2 | 3
 *
 * acc holds this rank's vector on entry (count elements), tmp room for one
 * vector; *newrank is -1 for the ranks that wait during the core.
 */
typedef struct {
    int pof2, rem, newrank;
} papcoll__fold_t;

int papcoll__fold_in(const papcoll__args_t *a, char *acc, char *tmp, papcoll__fold_t *f);
int papcoll__fold_out(const papcoll__args_t *a, char *acc, const papcoll__fold_t *f);

/* The old rank of new rank j. */
static inline int papcoll__fold_rank(const papcoll__fold_t *f, int j)
{
    return j < f->rem ? 2 * j + 1 : j + f->rem;
}

/* Element offset of block i of count elements cut into n blocks
 * (the first count mod n blocks one element longer). */
static inline size_t papcoll__block_off(int count, int n, int i)
{
    int q = count / n, r = count % n;

    return (size_t)i * (size_t)q + (size_t)(i < r ? i : r);
}

/* Sends n elements from sbuf to dst while receiving n2 into rbuf from src. */
int papcoll__exchange(const papcoll__args_t *a, const char *sbuf, size_t n, int dst, char *rbuf, size_t n2,
                      int src);

/*
 * Composite allreduce (reduce_bcast, clairvoyant_bcast, treedyn_bcast): a
 * papcoll reduce to a root, then a papcoll bcast from that root.  Their
 * planners store this as plan data (papcoll__plan_xdata): the root and one
 * sub-plan per part, each built by papcoll__plan_build for its own op and
 * algorithm (so the reduce part has its schedule or tree, the bcast part
 * its second placement), from the same exchanged predictions.  xhash
 * covers the root and both sub-plans' hashes.
 */
enum { PAPCOLL__AR_REDUCE, PAPCOLL__AR_BCAST };

typedef struct {
    int P, root;
    int algo[2];             /* configured reduce and bcast algorithms */
    papcoll__plan_t part[2]; /* [PAPCOLL__AR_REDUCE], [PAPCOLL__AR_BCAST] */
} papcoll__ar_comp_t;

/* The root a Clairvoyant reduce should end at: the predicted last
 * arrival (order: earliest first; NULL: rank P - 1). */
int papcoll__ar_last_root(const int *order, int P);

/* The reduce algorithm that serves sig on P ranks in the foreground:
 * ralgo, or the first of its fallback chain that can.  Pure. */
int papcoll__ar_reduce_algo(int ralgo, const papcoll__sig_t *sig, int P);

/* Fills plan's composite data for a reduce with ralgo then a bcast with
 * balgo, both at root.  Pure, allocates on a site's first plan only. */
int papcoll__ar_comp_plan(papcoll__plan_t *plan, const papcoll__plan_in_t *in, int root, int ralgo,
                          int balgo);

/* The composite data of plan, or NULL when another planner owns it. */
papcoll__ar_comp_t *papcoll__ar_comp_of(const papcoll__plan_t *plan);

/* Runs the plan's reduce then its bcast.  resolve: the reduce part may be
 * replaced by its fallback for this call's signature (reduce_bcast). */
int papcoll__ar_comp_run(const papcoll__args_t *a, int resolve);

#endif
