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

/*
 * The port model.  A block of b bytes occupies the port for alpha + b beta,
 * beta being the per-byte time of blocks sent back to back (the port's
 * sustained rate).  credit: how much sooner a block completes when the port
 * has been idle long enough, as behind a token bucket (the emulated cluster's
 * tbf burst); it is the difference between back-to-back and isolated
 * transfers, about 0 on a real link.  A port idle for g seconds gives back
 * min(g, credit), which amounts to releasing every block `credit` earlier,
 * so the bound stays the serial schedule of DESIGN.md with shifted releases.
 */
typedef struct lb_model {
    double alpha;  /* seconds per block */
    double beta;   /* seconds per byte, back to back */
    double credit; /* seconds, 0 <= credit <= b beta (clamped) */
} lb_model_t;

/* Lower bound of a gather's run time (seconds) for arrivals a[P]. */
double lb_gather(int P, const double *a, int root, const lb_model_t *m, size_t block);

/* Lower bound of a scatter's run time (seconds) for arrivals a[P]. */
double lb_scatter(int P, const double *a, int root, const lb_model_t *m, size_t block);

/*
 * Measures the model between root and the farthest leaf: alpha is half the
 * round trip of an empty message; beta comes from 4 blocks of `block` bytes
 * (at most 4 MiB) sent back to back from the leaf to the root; credit is the
 * time by which one isolated block (a ping-pong) beats a block of that stream.
 * Minima over reps.
 * Collective over comm; every rank gets the result.  With one process all
 * are 0.
 */
int lb_measure(MPI_Comm comm, int root, size_t block, int reps, lb_model_t *m);

#endif
