/*
 * The measurement of the root-port model of the lower bound (the model and
 * the bound itself, pure functions, are in papmetrics.h: pm_lb_model_t,
 * pm_lb_gather, pm_lb_scatter).
 */
#ifndef APPS_LOWERBOUND_H
#define APPS_LOWERBOUND_H

#include <mpi.h>
#include <stddef.h>

#include "papmetrics.h"

/*
 * Measures the model between root and the farthest leaf: alpha is half the
 * round trip of an empty message; beta comes from 4 blocks of `block` bytes
 * (at most 4 MiB) sent back to back from the leaf to the root; credit is the
 * time by which one isolated block (a ping-pong) beats a block of that stream.
 * Minima over reps.
 * Collective over comm; every rank gets the result.  With one process all
 * are 0.  Returns 0, or -1 out of memory.
 */
int lb_measure(MPI_Comm comm, int root, size_t block, int reps, pm_lb_model_t *m);

#endif
