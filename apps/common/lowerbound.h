/*
 * The root-port lower bound of DESIGN.md ("Metrics") for gather and
 * scatter, and the measurement of the Hockney alpha and beta it needs.
 *
 * Every leaf block (alpha + b beta) must cross the root's port.  Gather: a
 * block cannot leave before its leaf arrives; serving blocks in arrival
 * order (Jackson's rule) minimises the completion of that single-server
 * schedule, so LB = max(a_root, completion) - min a.  Scatter: blocks leave
 * from the root's arrival on, one after another, and a leaf cannot exit
 * before it arrives; giving the later slots to the later arrivals is
 * optimal, so LB = max_k max(a_(k), a_root + k c) - min a.
 */
#ifndef PAPBENCH_LOWERBOUND_H
#define PAPBENCH_LOWERBOUND_H

#include <mpi.h>
#include <stddef.h>

/* Lower bound of a gather's run time (seconds) for arrivals a[P]. */
double lb_gather(int P, const double *a, int root, double alpha, double beta, size_t block);

/* Lower bound of a scatter's run time (seconds) for arrivals a[P]. */
double lb_scatter(int P, const double *a, int root, double alpha, double beta, size_t block);

/*
 * Measures alpha (half the round trip of an empty message) and beta (seconds
 * per byte of a block of `block` bytes) between root and the farthest leaf
 * with a ping-pong, minimum over reps.  Collective over comm; every rank gets
 * the result.  With one process both are 0.
 */
int lb_measure(MPI_Comm comm, int root, size_t block, int reps, double *alpha, double *beta);

#endif
