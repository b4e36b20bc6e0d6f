/*
 * The alpha-beta-gamma model of a context (model.c): Hockney's alpha (per
 * message) and beta (per byte) plus gamma, the per-byte cost of combining
 * (Marendic 2016 Sect. 5.1: sending and combining m bytes costs alpha +
 * m beta + m gamma), xbeta, the per-byte cost of each direction of an
 * exchange with one peer (both send m and receive m: alpha + m xbeta), and
 * the round alpha, the fixed cost of a round in which every rank sends one
 * message and receives one at the same time (Clairvoyant's round).  On
 * a full-duplex network with a core per rank xbeta is beta; with 8 ranks
 * on 2 cores this measurement gave 1.6-1.7 beta, and 8 MiB exchanges took
 * 2x the one-way time (docs/results/bcast-allreduce.md).  Clairvoyant's round
 * time d and segment count N come from it (Marendic Sect. 5.2 and 5.4), with
 * the round alpha in place of alpha: where ranks share cores a round of all
 * ranks at once costs several ping-pong latencies (68-86 us against 26-35
 * on the emulated cluster, 8 ranks on 2 cores; docs/reduce.md, "The
 * Clairvoyant model").  The costs of the auto policy use the round alpha
 * for the rounds of the reductions (the ring, recursive doubling and
 * halving, Clairvoyant's pipeline: policy.c) and alpha elsewhere.  Not
 * installed.
 *
 * Values: each of model_alpha, model_beta, model_gamma, model_xbeta,
 * model_round_alpha (INI keys; PAPCOLL_MODEL_ALPHA, _BETA, _GAMMA, _XBETA,
 * _ROUND_ALPHA) given in the options is taken as it is (seconds, seconds per
 * byte); when alpha, beta and gamma are all given, xbeta not given is beta
 * and the round alpha not given is alpha (nothing is measured); otherwise
 * the values not given are measured once per context,
 * at the first point that needs the model and is collective anyway (the
 * creation of a site whose policy uses it).  Every rank ends with rank 0's
 * options and the same measured values, so plans built from the model
 * agree.  With model_cache (INI key; PAPCOLL_MODEL_CACHE) naming a file,
 * rank 0 first looks up the machine's key there (P and the processor
 * names of the ranks in order) and every rank takes the values found;
 * a measurement is appended to the file.
 */
#ifndef PAPCOLL_MODEL_H
#define PAPCOLL_MODEL_H

#include <stddef.h>

#include "papcoll.h"

enum {
    PAPCOLL__M_ALPHA,
    PAPCOLL__M_BETA,
    PAPCOLL__M_GAMMA,
    PAPCOLL__M_XBETA,
    PAPCOLL__M_RALPHA,
    PAPCOLL__M_N
};

typedef struct {
    double v[PAPCOLL__M_N]; /* alpha (s), beta (s/B), gamma (s/B), xbeta (s/B), round alpha (s) */
    unsigned measured;      /* bit i: v[i] was measured, else configured */
    double seconds;         /* wall time of the measurement (0: none) */
    int cached;             /* the measured values came from model_cache */
} papcoll__model_t;

/* A model value from the options: a number >= 0 ("" or NULL: not given,
 * NaN).  PAPCOLL_ERR_CONFIG with one line on stderr (when loud) otherwise. */
int papcoll__model_parse(const char *key, const char *text, int loud, double *out);

/*
 * Measures all five, collective over comm (every rank gets the same
 * values): all pairs (2i, 2i+1) at once, as in a round of a reduction.
 * alpha: half the shortest of 20 round trips of empty messages; beta: 4
 * blocks of 256 KiB back to back then an empty reply, (time - 2 alpha) / 1
 * MiB, the shortest of 3; xbeta: the same 4 blocks sent both ways at once
 * (MPI_Sendrecv per block), (time - alpha) / 1 MiB, the shortest of 3;
 * gamma: MPI_Reduce_local of 256 KiB of MPI_INT with MPI_SUM, the shortest
 * of 5, per byte; round alpha: 20 rounds back to back in which every rank
 * sends an empty message to rank + 1 and receives one from rank - 1
 * (MPI_Sendrecv), the shortest of 3 means per round.  Maxima over ranks
 * (the slowest pair sets the pace of a round).  One process: alpha = beta =
 * xbeta = round alpha = 0.
 */
int papcoll__model_measure(MPI_Comm comm, papcoll__model_t *m);

/* The context's model: configured values, the others measured the first
 * time (collective over comm then; afterwards local). */
int papcoll__model_ensure(papcoll_ctx_t *ctx, MPI_Comm comm);

/* The round alpha, or alpha where it is 0 (not measured: a model built by
 * hand, as in the tests). */
double papcoll__model_ralpha(const papcoll__model_t *m);

/* Round time d = round alpha + B (beta + gamma) for segments of B bytes. */
double papcoll__model_round(const papcoll__model_t *m, double seg_bytes);

/*
 * Segment count of the linear model for a reduction of `bytes` bytes
 * (count elements) over P ranks: N_opt = sqrt((n - 1) m (beta + gamma) /
 * alpha_r), n = ceil(log2 P), alpha_r the round alpha (Marendic Sect. 5.2,
 * Eq. 1 differentiated), rounded to the nearest integer and kept in [1,
 * min(count, 4096)] (alpha_r = 0: 4096, the model having no finite
 * optimum).  Then raised, if need
 * be, so that no segment exceeds max_elems elements (0: no limit): the
 * linear model has no step where the transport switches from eager sends
 * to a rendezvous (docs/reduce.md, "Segments").
 */
int papcoll__model_segments(const papcoll__model_t *m, int P, size_t bytes, int count, int max_elems);

/*
 * The density a plan assumes from one exchange: the largest finite value
 * x[i * stride] in (0, 1] of n (each rank's encoded / dense bytes sent in
 * its last call), rounded up to a multiple of 1/PAPCOLL__DENSITY_STEPS, so
 * that small changes keep the plan; 1 when there is none.
 */
#define PAPCOLL__DENSITY_STEPS 16
double papcoll__model_density(const double *x, int n, int stride);

/*
 * Clairvoyant's segment count for `bytes` bytes over P ranks when its
 * transfers carry `density` of them (a sparse site's run-length encodings;
 * 1: dense): the model's optimum for `bytes`, raised, if need be, so that
 * no segment's encoding exceeds seg_bytes (the eager limit is about the
 * message on the wire), never more than `bytes` segments.  Density 1 gives
 * papcoll__model_segments(m, P, bytes, bytes, seg_bytes).
 */
int papcoll__model_sparse_segments(const papcoll__model_t *m, int P, size_t bytes, double density,
                                   size_t seg_bytes);

#endif
