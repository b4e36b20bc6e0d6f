/*
 * The weighted ring of allreduce "weighted_ring" as pure data (no MPI):
 * its port model and the block sizes planned with it.  Tested serially by
 * tests/test_wring.c; docs/bcast-allreduce.md, "weighted_ring".
 *
 * The ring.  Positions q = 0 .. P-1 are the ranks in predicted arrival
 * order (earliest first); q sends only to q + 1 and receives only from
 * q - 1 (mod P).  The vector is cut into P blocks of len[b] elements
 * (any sizes, 0 allowed).  Block b enters the ring at position b:
 * reduce-scatter step s = 0 .. P-2, position q sends its partial of block
 * q - s (the rank's own part at s = 0), which q + 1 combines with its own;
 * so block b is reduced along b, b+1, .., b-1, which owns it.  Allgather
 * step s = 0 .. P-2, q sends block q + 1 - s (its own block at s = 0, then
 * what it received).  Every link carries one stream in this order, each
 * block in segments of seg elements.  Equal blocks: the ring of "ring"
 * (bandwidth optimal balanced).  All of a vector in block 0: a chain
 * along the arrival order and back, "sorted_ring" (which pre-reduces most
 * when one rank is late).  In between, the blocks whose reduction passes
 * the late ranks early take more of the vector.
 *
 *   P = 4, blocks A B C D entering at 0 1 2 3:
 *     A  reduced 0 -> 1 -> 2 -> 3 (owner 3), then 3 -> 0 -> 1 -> 2
 *     B  reduced 1 -> 2 -> 3 -> 0 (owner 0), then 0 -> 1 -> 2 -> 3
 *     ...          the latest rank, 3, sends the partials of D C B and the
 *                  results A D C: n - |A| + n - |B| elements in all
 *
 * The port model.  Each position has one out-port and one in-port (full
 * duplex); a segment of B bytes occupies the sender's out-port and the
 * receiver's in-port for B beta and arrives alpha after that; it starts
 * when it is ready (its own data at the rank's arrival; otherwise the
 * segment it depends on has arrived and, in the reduce-scatter, been
 * combined, B gamma), both ports are free and the receiver has arrived.
 * The time of the ring is the last arrival of a segment.
 */
#ifndef PAPCOLL_SCHED_WRING_H
#define PAPCOLL_SCHED_WRING_H

#include <stddef.h>

/* Cost and size of the port model. */
typedef struct {
    double alpha, beta, gamma; /* seconds, seconds per byte (as model.h) */
    size_t esize, seg;         /* bytes per element, elements per segment (>= 1) */
} papcoll__wring_model_t;

/* The block position q sends in step t of 0 .. 2P-3 (reduce-scatter
 * t <= P-2, then allgather); position q receives what q - 1 sends. */
int papcoll__wring_block(int P, int q, int t);

/*
 * Doubles of workspace papcoll__wring_time needs: four per position and
 * two per segment of a position's step (P * (count / seg + P)).
 */
size_t papcoll__wring_work(int P, size_t count, size_t seg);

/*
 * The model's time of the ring: arr[q] the arrival of position q
 * (seconds, any origin), len[P] the block sizes.  work: papcoll__wring_work
 * doubles.  Pure.
 */
double papcoll__wring_time(int P, const double *arr, const size_t *len, const papcoll__wring_model_t *m,
                           double *work);

/*
 * Block sizes for arrivals arr[P] (by position) that sum to count: equal
 * blocks (the first count mod P one longer) when P <= 2, P > WRING_MAX_P
 * or the arrivals span no more than min_spread; otherwise, from the
 * shorter of equal blocks and the chain (all in block 0) by
 * papcoll__wring_time, moves of count/(2P), count/(4P) and count/(8P)
 * elements from one block to another are kept while they shorten it
 * (every pair, in a fixed order, up to 3 passes per size).  So the plan is
 * never longer than the ring's or sorted_ring's shape in the model.
 * Deterministic: the same arrivals give the same blocks on every rank.
 * Returns the number of model evaluations.
 */
#define PAPCOLL__WRING_MAX_P 16
int papcoll__wring_plan(int P, const double *arr, size_t count, const papcoll__wring_model_t *m,
                        double min_spread, size_t *len, double *work);

#endif
