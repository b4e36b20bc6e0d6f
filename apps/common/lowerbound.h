/*
 * The measurement of the port model of the lower bounds (the model and the
 * bounds themselves, pure functions, are in papmetrics.h: pm_lb_model_t,
 * pm_lb_gather, ..., pm_lb_allreduce).
 */
#ifndef APPS_LOWERBOUND_H
#define APPS_LOWERBOUND_H

#include <mpi.h>
#include <stddef.h>

#include "papmetrics.h"

/*
 * Measures the model between root and rank root - 1 mod P: alpha is half
 * the round trip of an empty message; beta comes from 4 blocks of `block`
 * bytes (at most 4 MiB) sent back to back from the leaf to the root; credit
 * is the time by which one isolated block (a ping-pong) beats a block of
 * that stream; gamma (when op is not MPI_OP_NULL) is the root's time per
 * byte of MPI_Reduce_local(op, type) on `block` bytes (at most 4 MiB) of
 * type.  Minima over reps.
 * Collective over comm; every rank gets the result.  With one process all
 * are 0.  Returns 0, or -1 out of memory or when MPI_Reduce_local fails.
 */
int lb_measure(MPI_Comm comm, int root, size_t block, MPI_Datatype type, MPI_Op op, int reps,
               pm_lb_model_t *m);

#endif
