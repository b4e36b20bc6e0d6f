/**
 * @file papmetrics.h
 * @brief The metrics of DESIGN.md ("Metrics"), defined once for every program.
 *
 * Per call: run time, average elapsed time, imbalance, absorption,
 * efficiency; the lower bounds of gather, scatter, bcast, reduce and
 * allreduce, and Marendic's round model of segmented reductions; summary
 * statistics of a sample (median and 95% confidence interval of the mean);
 * autocorrelation of a series.  Part of libpaptrace, which stores r and e
 * per call in every trace; papbench, fft and paptrace compute theirs with
 * the same functions.
 *
 * Pure C: no MPI, no HDF5, no papcoll type, no allocation that outlives a
 * call.  A time that is NaN means "not called"; the per-call metrics skip
 * such ranks and are NaN when no rank has the times they need.
 */
#ifndef PAPMETRICS_H
#define PAPMETRICS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Per-call metrics
 */

/**
 * The arrival and exit times (s, one time base) of one call on nranks
 * ranks, wherever a program keeps them: rank i's arrival is the double at
 * (const char *)arrival + i * stride, its exit likewise from exit.  Plain
 * arrays have stride sizeof(double); an array of records has the record's
 * size (paptrace_call() makes this view of papcoll's rank records).
 */
typedef struct {
    const double *arrival;
    const double *exit;
    int nranks;
    size_t stride; /**< bytes from one rank's entry to the next */
} pm_call_t;

/** Run time r = max exit - min arrival. */
double pm_runtime(const pm_call_t *c);

/** Average elapsed time e = mean over ranks of exit - arrival (ranks with both times). */
double pm_elapsed(const pm_call_t *c);

/** Absolute imbalance I = max arrival - min arrival. */
double pm_imbalance(const pm_call_t *c);

/** The earliest arrival, min arrival. */
double pm_first_arrival(const pm_call_t *c);

/**
 * Absorption A = t(pi) - r + I (Marendic 2016, Def. 3.6): how much of the
 * imbalance I the call absorbed, t(pi) being its run time under a balanced
 * arrival pattern.
 */
double pm_absorption(double balanced, double runtime, double imbalance);

/** Efficiency LB / r; NaN unless r > 0. */
double pm_efficiency(double lower_bound, double runtime);

/*
 * Lower bounds of a call's run time r = max f - min a, for the call's
 * arrivals a[P], valid for every algorithm (each is justified below); the
 * efficiency of a call is LB / r.
 *
 * The port model.  A message of b bytes occupies a port for alpha + b beta,
 * beta being the per-byte time of blocks sent back to back (the port's
 * sustained rate); a port is full duplex and serves one message at a time
 * in each direction.  credit: how much sooner a block completes when the
 * port has been idle long enough, as behind a token bucket (the emulated
 * cluster's tbf burst); it is the difference between back-to-back and
 * isolated transfers, about 0 on a real link, and is clamped to [0, b beta]
 * per block.  A port idle for g seconds gives back min(g, credit), which
 * amounts to releasing every block `credit` earlier.  gamma: seconds per
 * byte of combining two vectors (MPI_Reduce_local of the reduction's
 * operation and type), reductions only.  (apps/common/lowerbound.h
 * measures the model.)
 *
 * Below, p(b) = alpha + b beta - clamp(credit, 0, b beta) is the least time
 * b bytes take through one port.  Every bound is 0 for P = 1.
 */
typedef struct {
    double alpha;  /**< seconds per message */
    double beta;   /**< seconds per byte, back to back */
    double credit; /**< seconds, 0 <= credit <= b beta (clamped) */
    double gamma;  /**< seconds per byte combined (reductions; 0 otherwise) */
} pm_lb_model_t;

/**
 * Gather (block = bytes of one rank's block): every leaf block must cross
 * the root's port, a block not before its leaf arrives; serving blocks in
 * arrival order (Jackson's rule) minimises the completion of that
 * single-server schedule, so LB = max(a_root, completion) - min a.  NaN out
 * of memory.
 */
double pm_lb_gather(int P, const double *a, int root, const pm_lb_model_t *m, size_t block);

/**
 * Scatter: blocks leave from the root's arrival on, one after another, and
 * a leaf cannot exit before it arrives; giving the later slots to the later
 * arrivals is optimal, so LB = max_k max(a_(k), a_root + k c) - min a.
 */
double pm_lb_scatter(int P, const double *a, int root, const pm_lb_model_t *m, size_t block);

/**
 * Bcast of a vector of `bytes` (the root-port model):
 *
 *   LB = max(a_root + p(bytes), max_i a_i) - min a.
 *
 * The vector exists from the root's arrival on, every other rank needs all
 * of it, so it leaves the root's port at least once and the first rank to
 * have it cannot have it before a_root + p(bytes); no rank exits before it
 * arrives.  A term a_i + p(bytes) for every non-root (it must receive the
 * whole vector after its own arrival) would bound only algorithms that
 * receive inside the call: an eager message, or a background receive in
 * the monitor thread from the edge on, delivers before the rank arrives, so
 * it is left out.
 */
double pm_lb_bcast(int P, const double *a, int root, const pm_lb_model_t *m, size_t bytes);

/**
 * Reduce of a vector of `bytes` to root:
 *
 *   LB = max(max_i a_i,  max_{i != root} a_i + p(bytes),  a_root + t_own) - min a
 *   t_own = min(bytes gamma, gamma (2 alpha - k + bytes beta) / (beta + gamma)),
 *   k = clamp(credit, 0, bytes beta).
 *
 * Every element of the result depends on every rank's vector.  A non-root
 * rank's vector exists from its arrival on, and all of it (for an algorithm
 * that does not look at the data, which none does) must leave the rank's
 * port: at least one message, p(bytes), after its arrival; the last
 * non-root to arrive sets the term.  The root's own vector exists from
 * a_root on: the root combines a part (1 - f) itself, (1 - f) bytes gamma,
 * and ships the rest out and receives the combined result back, at least
 * two messages, 2 alpha + f bytes beta - k (the two directions of its port
 * overlap); the best split f gives t_own (f = 0 when bytes gamma <= 2 alpha
 * - k).  Not in the bound, because some algorithm or protocol escapes
 * them: the combine of the last arrival's data (pipelined segments shrink
 * it towards zero), the log2 P latency of a reduction tree (with eager or
 * background receives a rank may combine data received before it arrived),
 * the total combine work (P - 1) bytes gamma spread over the ranks (the
 * monitor thread of a background algorithm computes before its rank
 * arrives).
 */
double pm_lb_reduce(int P, const double *a, int root, const pm_lb_model_t *m, size_t bytes);

/**
 * Allreduce (root is ignored): every rank needs every other rank's vector
 * and its own combined in, so with the arguments of pm_lb_reduce
 *
 *   LB = max_i a_i + max(p(bytes), t_own) - min a:
 *
 * the last rank to arrive must push its vector through its port for the
 * others, and must combine its own vector or ship it out and back.
 */
double pm_lb_allreduce(int P, const double *a, int root, const pm_lb_model_t *m, size_t bytes);

/** The signature every pm_lb_* shares (bytes: of a block or of the vector). */
typedef double (*pm_lb_fn)(int P, const double *a, int root, const pm_lb_model_t *m, size_t bytes);

/** The lower bound of the operation called name ("gather", ..., "allreduce"), or NULL. */
pm_lb_fn pm_lb_find(const char *name);

/*
 * Marendic's round model of segmented reductions (Marendic 2016, Sect. 5.2
 * and 5.4).  A vector of m bytes in N segments of B = m / N bytes; in a
 * round of d = alpha + B (beta + gamma) every rank sends, receives and
 * combines at most one segment.  Balanced, an optimal schedule takes
 * ceil(log2 P) + N - 1 rounds; it is the model of the equi-segmenting
 * algorithms (Clairvoyant), not a bound for algorithms of other segment
 * sizes, and papbench reports it next to the lower bound above.
 */

/** Round time d = alpha + seg_bytes (beta + gamma). */
double pm_round_time(const pm_lb_model_t *m, double seg_bytes);

/**
 * The segment count of the model's optimal equi-segmenting reduction
 * (Marendic Eq. 1 differentiated): N = sqrt((n - 1) m (beta + gamma) /
 * alpha), n = ceil(log2 P), rounded and kept in [1, max_segments]; 1 when
 * n <= 1, max_segments when alpha = 0.
 */
int pm_round_segments(int P, size_t bytes, const pm_lb_model_t *m, int max_segments);

/**
 * The fewest rounds of a reduction of N segments when rank i takes part
 * from round rho_i = floor((a_i - min a) / d) on, the round during which it
 * arrives (as Marendic's generator forms its group of ready ranks: those
 * arriving within d of the round's start).  The first segment complete at
 * the root needs R_1 rounds, the smallest R >= max rho with sum_i 2^-(R -
 * rho_i) <= 1 (a rank receives at most one segment per round, so the ranks
 * whose data one copy of a segment holds at most double per round: Kraft's
 * inequality over the combining tree), and the root receives the other
 * N - 1 segments in a round each: R = R_1 + N - 1.  Balanced, R_1 =
 * ceil(log2 P), Marendic's n + N - 1; a single rank late by D rounds gives
 * D + N once 2^D >= P - 1 (Marendic Sect. 7: P = 128, N = 40, d = 0.643 ms,
 * I = 59.8 ms: R = 133).  0 for P = 1; -1 when d <= 0 or out of memory.
 */
long pm_round_count(int P, const double *a, double d, int N);

/*
 * Statistics of a sample
 *
 * Run times of collectives under imbalance have long right tails, so the
 * programs report the median as the location estimator next to the mean
 * (Marendic 2016, Sect. 6.2) and a 95% confidence interval of the mean.
 */

typedef struct {
    int n;
    double mean;
    double median;
    double stddev; /**< sample standard deviation (n - 1); 0 when n < 2 */
    double min;
    double max;
    double ci_lo; /**< 95% CI of the mean: mean -/+ t * stddev / sqrt(n) */
    double ci_hi;
} pm_stats_t;

/**
 * The statistics of x[0..n-1] (x is not modified).  t is Student's
 * two-sided 95% quantile for n <= 30 and 1.96 above.  Returns 0, or -1 when
 * n < 1 or memory runs out (then *out is all zero).
 */
int pm_stats(const double *x, int n, pm_stats_t *out);

/** Two-sided 95% quantile used for a sample of n values (1.96 for n > 30). */
double pm_t95(int n);

/**
 * Sample autocorrelation of x[0..n-1] at lags 1..nlags into acf[0..nlags-1]:
 * sum (x_k - m)(x_{k+h} - m) / sum (x_k - m)^2.  NaN for a lag >= n or a
 * constant series.
 */
void pm_autocorr(const double *x, long n, int nlags, double *acf);

#ifdef __cplusplus
}
#endif
#endif /* PAPMETRICS_H */
