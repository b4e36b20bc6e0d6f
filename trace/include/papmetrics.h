/**
 * @file papmetrics.h
 * @brief The metrics of DESIGN.md ("Metrics"), defined once for every program.
 *
 * Per call: run time, average elapsed time, imbalance, absorption,
 * efficiency; the root-port lower bound of gather and scatter; summary
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
 * The root-port lower bound of gather and scatter
 *
 * Every leaf block (alpha + b beta) must cross the root's port.  Gather: a
 * block cannot leave before its leaf arrives; serving blocks in arrival
 * order (Jackson's rule) minimises the completion of that single-server
 * schedule, so LB = max(a_root, completion) - min a.  Scatter: blocks leave
 * from the root's arrival on, one after another, and a leaf cannot exit
 * before it arrives; giving the later slots to the later arrivals is
 * optimal, so LB = max_k max(a_(k), a_root + k c) - min a.
 */

/**
 * The port model.  A block of b bytes occupies the port for alpha + b beta,
 * beta being the per-byte time of blocks sent back to back (the port's
 * sustained rate).  credit: how much sooner a block completes when the port
 * has been idle long enough, as behind a token bucket (the emulated
 * cluster's tbf burst); it is the difference between back-to-back and
 * isolated transfers, about 0 on a real link.  A port idle for g seconds
 * gives back min(g, credit), which amounts to releasing every block
 * `credit` earlier, so the bound stays the serial schedule of DESIGN.md
 * with shifted releases.  (apps/common/lowerbound.h measures it.)
 */
typedef struct {
    double alpha;  /**< seconds per block */
    double beta;   /**< seconds per byte, back to back */
    double credit; /**< seconds, 0 <= credit <= b beta (clamped) */
} pm_lb_model_t;

/** Lower bound of a gather's run time (s) for arrivals a[P]; NaN out of memory. */
double pm_lb_gather(int P, const double *a, int root, const pm_lb_model_t *m, size_t block);

/** Lower bound of a scatter's run time (s) for arrivals a[P]; NaN out of memory. */
double pm_lb_scatter(int P, const double *a, int root, const pm_lb_model_t *m, size_t block);

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
