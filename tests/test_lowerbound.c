/*
 * Serial tests of the root-port lower bound (trace/src/lowerbound.c, papmetrics.h):
 * cases worked by hand, the credit clamp, and, for random arrivals, the
 * gather bound against a brute force over every service order of a port
 * whose idle time up to `credit` is given back (a token bucket).
 */
#include <math.h>
#include <string.h>

#include "papmetrics.h"
#include "unit.h"

#define EPS 1e-12

static void test_by_hand(void)
{
    const pm_lb_model_t plain = {0.5, 1e-3, 0.0}, burst = {0.5, 1e-3, 0.3};
    const double flat[4] = {0, 0, 0, 0}, spread[4] = {0, 0, 5, 10}, late_root[4] = {20, 0, 0, 0};
    double lb;

    unit_name = "test_lowerbound by hand";
    /* c = 0.5 + 500 * 1e-3 = 1. */
    lb = pm_lb_gather(4, flat, 0, &plain, 500);
    check(fabs(lb - 3.0) < EPS, "gather flat: %g, expected 3 (P-1)c", lb);
    lb = pm_lb_gather(4, flat, 0, &burst, 500);
    check(fabs(lb - 2.7) < EPS, "gather flat, credit 0.3: %g, expected 3c - credit", lb);
    /* Leaves at 0, 5, 10, root at 0: every block after an idle gap: 10 + c - credit. */
    lb = pm_lb_gather(4, spread, 0, &burst, 500);
    check(fabs(lb - 10.7) < EPS, "gather spread, credit: %g, expected 10.7", lb);
    lb = pm_lb_gather(4, spread, 0, &plain, 500);
    check(fabs(lb - 11.0) < EPS, "gather spread: %g, expected 11", lb);
    lb = pm_lb_gather(4, late_root, 0, &burst, 500);
    check(fabs(lb - 20.0) < EPS, "gather late root: %g, expected 20", lb);
    lb = pm_lb_gather(1, flat, 0, &burst, 500);
    check(fabs(lb) < EPS, "gather P=1: %g, expected 0", lb);
    /* Scatter: slots at root + (i+1)c - credit; a leaf exits no sooner than it arrives. */
    lb = pm_lb_scatter(4, flat, 0, &burst, 500);
    check(fabs(lb - 2.7) < EPS, "scatter flat, credit: %g, expected 2.7", lb);
    lb = pm_lb_scatter(4, spread, 0, &plain, 500);
    check(fabs(lb - 10.0) < EPS, "scatter spread: %g, expected 10 (last leaf's arrival)", lb);
    lb = pm_lb_scatter(4, late_root, 0, &plain, 500);
    check(fabs(lb - 23.0) < EPS, "scatter late root: %g, expected 23 (root at 20, then 3c)", lb);
}

/* A credit above the transfer time b beta is clamped to it: a block never beats alpha. */
static void test_clamp(void)
{
    const pm_lb_model_t m = {0.1, 1e-3, 5.0};
    const double flat[3] = {0, 0, 0};
    double lb;

    unit_name = "test_lowerbound clamp";
    /* c = 0.1 + 0.1 = 0.2, credit clamped to 0.1: releases at -0.1, completions 0.1, 0.3. */
    lb = pm_lb_gather(3, flat, 0, &m, 100);
    check(fabs(lb - 0.3) < EPS, "gather: %g, expected 0.3", lb);
    lb = pm_lb_gather(3, flat, 0, &(pm_lb_model_t){0.1, 1e-3, -1.0}, 100);
    check(fabs(lb - 0.4) < EPS, "negative credit: %g, expected 0.4 (as 0)", lb);
}

/* Completion of serving leaves in order perm: an idle gap g gives back min(g, credit). */
static double serve(int n, const double *leaf, const int *perm, double c, double credit)
{
    double t = -INFINITY, start, idle;
    int i;

    for (i = 0; i < n; i++) {
        start = t > leaf[perm[i]] ? t : leaf[perm[i]];
        idle = start - t;
        t = start + c - (idle < credit ? idle : credit);
    }
    return t;
}

/* Minimum of serve() over every permutation (Heap's algorithm). */
static double best_order(int n, const double *leaf, double c, double credit)
{
    int perm[8], cnt[8] = {0}, i = 1, tmp;
    double best, t;

    for (tmp = 0; tmp < n; tmp++)
        perm[tmp] = tmp;
    best = serve(n, leaf, perm, c, credit);
    while (i < n) {
        if (cnt[i] < i) {
            int j = i % 2 ? cnt[i] : 0;

            tmp = perm[j];
            perm[j] = perm[i];
            perm[i] = tmp;
            t = serve(n, leaf, perm, c, credit);
            best = t < best ? t : best;
            cnt[i]++;
            i = 1;
        } else {
            cnt[i++] = 0;
        }
    }
    return best;
}

static void test_brute_force(void)
{
    double a[7], leaf[7], lo, want, got;
    int trial, P, root, i, n;

    unit_name = "test_lowerbound brute force";
    for (trial = 0; trial < 400; trial++) {
        pm_lb_model_t m = {rnd_unit() * 1e-4, rnd_unit() * 1e-8, rnd_unit() * 2e-3};
        size_t block = 1 + rnd() % (1 << 20);
        double c = m.alpha + (double)block * m.beta;
        double credit = m.credit < (double)block * m.beta ? m.credit : (double)block * m.beta;

        P = 2 + (int)(rnd() % 6);
        root = (int)(rnd() % (uint64_t)P);
        for (i = 0, n = 0, lo = INFINITY; i < P; i++) {
            a[i] = rnd_unit() * 0.03;
            lo = a[i] < lo ? a[i] : lo;
            if (i != root)
                leaf[n++] = a[i];
        }
        want = best_order(n, leaf, c, credit);
        want = (want > a[root] ? want : a[root]) - lo;
        got = pm_lb_gather(P, a, root, &m, block);
        check(fabs(got - want) < 1e-12, "trial %d P=%d root=%d alpha=%g beta=%g credit=%g block=%zu: %.15g, "
              "best order %.15g", trial, P, root, m.alpha, m.beta, m.credit, block, got, want);
    }
}

int main(void)
{
    unit_name = "test_lowerbound";
    unit_rng = 0x452821E638D01377ull;
    test_by_hand();
    test_clamp();
    test_brute_force();
    return unit_summary();
}
