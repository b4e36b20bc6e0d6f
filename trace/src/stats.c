/*
 * Summary statistics of a sample (papmetrics.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "papmetrics.h"

/* Student's t, two-sided 95%, for 1..30 degrees of freedom. */
static const double t95_table[30] = {
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
    2.120,  2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
};

double pm_t95(int n)
{
    if (n > 30)
        return 1.96;
    return n >= 2 ? t95_table[n - 2] : 0.0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

/* Median of a sorted array. */
static double median_sorted(const double *s, int n)
{
    return n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
}

int pm_stats(const double *x, int n, pm_stats_t *out)
{
    double *sorted, sum = 0.0, sq = 0.0, half;
    int i;

    memset(out, 0, sizeof *out);
    if (n < 1 || (sorted = malloc((size_t)n * sizeof *sorted)) == NULL)
        return -1;
    memcpy(sorted, x, (size_t)n * sizeof *sorted);
    qsort(sorted, (size_t)n, sizeof *sorted, cmp_double);
    for (i = 0; i < n; i++)
        sum += x[i];
    out->n = n;
    out->mean = sum / n;
    for (i = 0; i < n; i++)
        sq += (x[i] - out->mean) * (x[i] - out->mean);
    out->stddev = n > 1 ? sqrt(sq / (n - 1)) : 0.0;
    out->median = median_sorted(sorted, n);
    out->min = sorted[0];
    out->max = sorted[n - 1];
    half = pm_t95(n) * out->stddev / sqrt((double)n);
    out->ci_lo = out->mean - half;
    out->ci_hi = out->mean + half;
    free(sorted);
    return 0;
}
