/*
 * Shared allreduce machinery (engine_fold.c): the step that folds a
 * process count into a power of two for the hypercube algorithms
 * (recdoubling, rabenseifner), and element ranges of the vector.
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

#endif
