/*
 * The root-port lower bound of gather and scatter (papmetrics.h).
 */
#include <math.h>
#include <stdlib.h>

#include "papmetrics.h"

static int cmp_double(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return (a > b) - (a < b);
}

/* Leaf arrivals sorted ascending into out (P-1 values); returns min of all. */
static double sorted_leaves(int P, const double *a, int root, double *out)
{
    double lo = a[0];
    int i, n = 0;

    for (i = 0; i < P; i++) {
        lo = a[i] < lo ? a[i] : lo;
        if (i != root)
            out[n++] = a[i];
    }
    qsort(out, (size_t)n, sizeof(double), cmp_double);
    return lo;
}

/* Port time of one block, and the credit clamped to [0, block beta]. */
static double block_time(const pm_lb_model_t *m, size_t block, double *credit)
{
    double xfer = (double)block * m->beta;

    *credit = m->credit < 0 ? 0 : m->credit > xfer ? xfer : m->credit;
    return m->alpha + xfer;
}

double pm_lb_gather(int P, const double *a, int root, const pm_lb_model_t *m, size_t block)
{
    double credit, c = block_time(m, block, &credit), t = -INFINITY, lo;
    double *leaf = malloc((size_t)P * sizeof(double));
    int i;

    if (leaf == NULL)
        return NAN;
    lo = sorted_leaves(P, a, root, leaf);
    for (i = 0; i < P - 1; i++)
        t = (t > leaf[i] - credit ? t : leaf[i] - credit) + c;
    free(leaf);
    t = t > a[root] ? t : a[root];
    return t - lo;
}

double pm_lb_scatter(int P, const double *a, int root, const pm_lb_model_t *m, size_t block)
{
    double credit, c = block_time(m, block, &credit), t = a[root], lo, slot;
    double *leaf = malloc((size_t)P * sizeof(double));
    int i;

    if (leaf == NULL)
        return NAN;
    lo = sorted_leaves(P, a, root, leaf);
    for (i = 0; i < P - 1; i++) {
        slot = a[root] + (i + 1) * c - credit;
        slot = slot > leaf[i] ? slot : leaf[i];
        t = slot > t ? slot : t;
    }
    free(leaf);
    return t - lo;
}
