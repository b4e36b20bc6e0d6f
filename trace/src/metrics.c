/*
 * The per-call metrics of DESIGN.md ("Metrics") and the autocorrelation
 * (papmetrics.h).  The trace writer stores r and e of every call with them;
 * papbench, fft and paptrace compute theirs with them.
 */
#include <math.h>

#include "papmetrics.h"

/* Rank i's entry of a strided time array. */
static double at(const double *base, size_t stride, int i)
{
    return *(const double *)((const char *)base + (size_t)i * stride);
}

double pm_runtime(const pm_call_t *c)
{
    double lo = INFINITY, hi = -INFINITY, a, f;
    int i;

    for (i = 0; i < c->nranks; i++) {
        a = at(c->arrival, c->stride, i);
        f = at(c->exit, c->stride, i);
        if (!isnan(a) && a < lo)
            lo = a;
        if (!isnan(f) && f > hi)
            hi = f;
    }
    return isinf(lo) || isinf(hi) ? NAN : hi - lo;
}

double pm_elapsed(const pm_call_t *c)
{
    double sum = 0.0, a, f;
    int i, n = 0;

    for (i = 0; i < c->nranks; i++) {
        a = at(c->arrival, c->stride, i);
        f = at(c->exit, c->stride, i);
        if (!isnan(a) && !isnan(f)) {
            sum += f - a;
            n++;
        }
    }
    return n > 0 ? sum / n : NAN;
}

double pm_imbalance(const pm_call_t *c)
{
    double lo = INFINITY, hi = -INFINITY, a;
    int i;

    for (i = 0; i < c->nranks; i++)
        if (!isnan(a = at(c->arrival, c->stride, i))) {
            lo = a < lo ? a : lo;
            hi = a > hi ? a : hi;
        }
    return isinf(lo) ? NAN : hi - lo;
}

double pm_first_arrival(const pm_call_t *c)
{
    double lo = INFINITY, a;
    int i;

    for (i = 0; i < c->nranks; i++)
        if (!isnan(a = at(c->arrival, c->stride, i)) && a < lo)
            lo = a;
    return isinf(lo) ? NAN : lo;
}

double pm_absorption(double balanced, double runtime, double imbalance)
{
    return balanced - runtime + imbalance;
}

double pm_efficiency(double lower_bound, double runtime)
{
    return runtime > 0 ? lower_bound / runtime : NAN;
}

void pm_autocorr(const double *x, long n, int nlags, double *acf)
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
