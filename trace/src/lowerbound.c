/*
 * The lower bounds of every operation and the round model of reductions
 * (papmetrics.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

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

/* Least time of `bytes` through one port: alpha + bytes beta - clamped credit. */
static double port_time(const pm_lb_model_t *m, size_t bytes)
{
    double credit;

    return block_time(m, bytes, &credit) - credit;
}

/* min and max of a[0..P-1], and the max over the ranks other than skip (-1: none). */
static void extremes(int P, const double *a, int skip, double *lo, double *hi, double *hi_other)
{
    int i;

    *lo = *hi = a[0];
    *hi_other = -INFINITY;
    for (i = 0; i < P; i++) {
        *lo = a[i] < *lo ? a[i] : *lo;
        *hi = a[i] > *hi ? a[i] : *hi;
        if (i != skip && a[i] > *hi_other)
            *hi_other = a[i];
    }
}

/* The least time to combine a rank's own vector in after its arrival (papmetrics.h: t_own). */
static double own_time(const pm_lb_model_t *m, size_t bytes)
{
    double s = (double)bytes, local = s * m->gamma, credit, shipped;

    if (m->beta + m->gamma <= 0)
        return 0;
    block_time(m, bytes, &credit);
    shipped = m->gamma * (2 * m->alpha - credit + s * m->beta) / (m->beta + m->gamma);
    return local < shipped ? local : shipped;
}

double pm_lb_bcast(int P, const double *a, int root, const pm_lb_model_t *m, size_t bytes)
{
    double lo, hi, other, t;

    if (P < 2)
        return 0;
    extremes(P, a, root, &lo, &hi, &other);
    t = a[root] + port_time(m, bytes);
    return (t > hi ? t : hi) - lo;
}

double pm_lb_reduce(int P, const double *a, int root, const pm_lb_model_t *m, size_t bytes)
{
    double lo, hi, other, t, u;

    if (P < 2)
        return 0;
    extremes(P, a, root, &lo, &hi, &other);
    t = other + port_time(m, bytes);
    u = a[root] + own_time(m, bytes);
    t = t > u ? t : u;
    return (t > hi ? t : hi) - lo;
}

double pm_lb_allreduce(int P, const double *a, int root, const pm_lb_model_t *m, size_t bytes)
{
    double lo, hi, other, port = port_time(m, bytes), own = own_time(m, bytes);

    (void)root;
    if (P < 2)
        return 0;
    extremes(P, a, -1, &lo, &hi, &other);
    return hi + (port > own ? port : own) - lo;
}

pm_lb_fn pm_lb_find(const char *name)
{
    static const struct {
        const char *name;
        pm_lb_fn fn;
    } ops[] = {{"gather", pm_lb_gather},
               {"scatter", pm_lb_scatter},
               {"bcast", pm_lb_bcast},
               {"reduce", pm_lb_reduce},
               {"allreduce", pm_lb_allreduce}};
    size_t i;

    for (i = 0; name != NULL && i < sizeof ops / sizeof ops[0]; i++)
        if (strcmp(ops[i].name, name) == 0)
            return ops[i].fn;
    return NULL;
}

double pm_round_time(const pm_lb_model_t *m, double seg_bytes)
{
    return m->alpha + seg_bytes * (m->beta + m->gamma);
}

/* ceil(log2 P) for P >= 1. */
static int log2_ceil(int P)
{
    int n = 0;

    while ((1LL << n) < P)
        n++;
    return n;
}

int pm_round_segments(int P, size_t bytes, const pm_lb_model_t *m, int max_segments)
{
    int n = log2_ceil(P);
    double N;

    if (n <= 1 || max_segments <= 1)
        return 1;
    if (m->alpha <= 0)
        return max_segments;
    N = floor(sqrt((n - 1) * (double)bytes * (m->beta + m->gamma) / m->alpha) + 0.5);
    return N < 1 ? 1 : N > max_segments ? max_segments : (int)N;
}

static int cmp_long(const void *pa, const void *pb)
{
    long a = *(const long *)pa, b = *(const long *)pb;

    return (a > b) - (a < b);
}

/*
 * Kraft's inequality sum_i 2^-(R - rho_i) <= 1, exactly: with the rounds
 * rho[] ascending (the depths R - rho_i descending), the nodes a tree needs
 * at each depth, from the deepest up, are the leaves there plus half (rounded
 * up) of the nodes one deeper; it fits when one node remains at depth 0.
 * (Summing doubles would lose a late rank's 1 next to 127 x 2^-93.)
 */
static int fits(const long *rho, int P, long R)
{
    long need = 0, depth = R - rho[0];
    int i;

    for (i = 0; i < P; i++) {
        /* Once one node is left, halving keeps it: jump to the next depth. */
        for (; depth > R - rho[i] && need > 1; depth--)
            need = (need + 1) / 2;
        depth = R - rho[i];
        need++;
    }
    for (; depth > 0 && need > 1; depth--)
        need = (need + 1) / 2;
    return need <= 1;
}

long pm_round_count(int P, const double *a, double d, int N)
{
    double lo, hi, other;
    long R, *rho;
    int i;

    if (P < 2)
        return 0;
    if (!(d > 0) || (rho = malloc((size_t)P * sizeof *rho)) == NULL)
        return -1;
    extremes(P, a, -1, &lo, &hi, &other);
    /* The round during which each rank arrives (rounding noise aside). */
    for (i = 0; i < P; i++)
        rho[i] = (long)floor((a[i] - lo) / d + 1e-9);
    qsort(rho, (size_t)P, sizeof *rho, cmp_long);
    for (R = rho[P - 1]; !fits(rho, P, R); R++)
        ;
    free(rho);
    return R + (N > 1 ? N - 1 : 0);
}
