/*
 * The metrics of DESIGN.md ("Metrics") over one call's rank records, and
 * the autocorrelation paptrace stats reports.  Shared by the writer (which
 * stores r and e per iteration) and the readers.
 */
#include <math.h>

#include "paptrace.h"

double paptrace_runtime(const papcoll_rank_record_t *r, int nranks)
{
    double lo = INFINITY, hi = -INFINITY;
    int i;

    for (i = 0; i < nranks; i++) {
        if (!isnan(r[i].arrival) && r[i].arrival < lo)
            lo = r[i].arrival;
        if (!isnan(r[i].exit) && r[i].exit > hi)
            hi = r[i].exit;
    }
    return isinf(lo) || isinf(hi) ? NAN : hi - lo;
}

double paptrace_elapsed(const papcoll_rank_record_t *r, int nranks)
{
    double sum = 0.0;
    int i, n = 0;

    for (i = 0; i < nranks; i++)
        if (!isnan(r[i].arrival) && !isnan(r[i].exit)) {
            sum += r[i].exit - r[i].arrival;
            n++;
        }
    return n > 0 ? sum / n : NAN;
}

double paptrace_imbalance(const papcoll_rank_record_t *r, int nranks)
{
    double lo = INFINITY, hi = -INFINITY;
    int i;

    for (i = 0; i < nranks; i++)
        if (!isnan(r[i].arrival)) {
            lo = r[i].arrival < lo ? r[i].arrival : lo;
            hi = r[i].arrival > hi ? r[i].arrival : hi;
        }
    return isinf(lo) ? NAN : hi - lo;
}

void paptrace_autocorr(const double *x, long n, int nlags, double *acf)
{
    double m = 0.0, var = 0.0, c;
    long k;
    int h;

    for (k = 0; k < n; k++)
        m += x[k];
    m = n > 0 ? m / n : 0.0;
    for (k = 0; k < n; k++)
        var += (x[k] - m) * (x[k] - m);
    for (h = 1; h <= nlags; h++) {
        if (h >= n || !(var > 0.0)) {
            acf[h - 1] = NAN;
            continue;
        }
        for (c = 0.0, k = 0; k + h < n; k++)
            c += (x[k] - m) * (x[k + h] - m);
        acf[h - 1] = c / var;
    }
}
