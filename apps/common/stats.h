/*
 * Summary statistics of a sample of measurements (pure, no MPI).
 *
 * Run times of collectives under imbalance have long right tails, so the
 * programs report the median as the location estimator next to the mean
 * (Marendic 2016, Sect. 6.2) and a 95% confidence interval of the mean.
 */
#ifndef APPS_STATS_H
#define APPS_STATS_H

typedef struct {
    int n;
    double mean;
    double median;
    double stddev; /* sample standard deviation (n - 1); 0 when n < 2 */
    double min;
    double max;
    double ci_lo; /* 95% CI of the mean: mean -/+ t * stddev / sqrt(n) */
    double ci_hi;
} stats_t;

/*
 * Computes the statistics of x[0..n-1] (x is not modified).  t is Student's
 * two-sided 95% quantile for n <= 30 and 1.96 above.  Returns 0, or -1 when
 * n < 1 or memory runs out (then *out is all zero).
 */
int stats_compute(const double *x, int n, stats_t *out);

/* Two-sided 95% quantile used for a sample of n values (1.96 for n > 30). */
double stats_t95(int n);

#endif /* APPS_STATS_H */
