/*
 * Serial tests of the lower bounds and the round model (trace/src/lowerbound.c,
 * papmetrics.h): cases worked by hand, the credit clamp; for random arrivals
 * the gather bound against a brute force over every service order of a port
 * whose idle time up to `credit` is given back (a token bucket); the
 * reduction's own-vector term against a search over its split; bcast,
 * reduce and allreduce bounds never above the time of schedules that the
 * model allows (linear and binomial trees, eager delivery to a late root);
 * the round count by hand, against Marendic's numbers and against its
 * closed forms.
 */
#include <math.h>
#include <string.h>

#include "papmetrics.h"
#include "unit.h"

#define EPS 1e-12

static void test_by_hand(void)
{
    const pm_lb_model_t plain = {0.5, 1e-3, 0.0, 0.0}, burst = {0.5, 1e-3, 0.3, 0.0};
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
    const pm_lb_model_t m = {0.1, 1e-3, 5.0, 0.0};
    const double flat[3] = {0, 0, 0};
    double lb;

    unit_name = "test_lowerbound clamp";
    /* c = 0.1 + 0.1 = 0.2, credit clamped to 0.1: releases at -0.1, completions 0.1, 0.3. */
    lb = pm_lb_gather(3, flat, 0, &m, 100);
    check(fabs(lb - 0.3) < EPS, "gather: %g, expected 0.3", lb);
    lb = pm_lb_gather(3, flat, 0, &(pm_lb_model_t){0.1, 1e-3, -1.0, 0.0}, 100);
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
        pm_lb_model_t m = {rnd_unit() * 1e-4, rnd_unit() * 1e-8, rnd_unit() * 2e-3, 0.0};
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

/* alpha 0.5, beta 1e-3, gamma 5e-4 (or 1e-2), 500 bytes: p = 1, bytes gamma = 0.25 (or 5). */
static void test_vector_by_hand(void)
{
    const pm_lb_model_t m = {0.5, 1e-3, 0.0, 5e-4}, burst = {0.5, 1e-3, 0.3, 5e-4},
                        slow = {0.5, 1e-3, 0.0, 1e-2};
    const double flat[4] = {0, 0, 0, 0}, spread[4] = {0, 0, 5, 10}, late_root[4] = {20, 0, 0, 0};
    /* t_own with gamma 1e-2: min(5, 1e-2 (1 + 0.5) / 1.1e-2). */
    const double own_slow = 1.5e-2 / 1.1e-2;
    struct {
        const char *what;
        pm_lb_fn fn;
        const double *a;
        int root;
        const pm_lb_model_t *m;
        double want;
    } c[] = {
        {"bcast flat", pm_lb_bcast, flat, 0, &m, 1.0},
        {"bcast flat, credit", pm_lb_bcast, flat, 0, &burst, 0.7},
        {"bcast spread: the last arrival", pm_lb_bcast, spread, 0, &m, 10.0},
        {"bcast spread, root 3 last", pm_lb_bcast, spread, 3, &m, 11.0},
        {"bcast late root", pm_lb_bcast, late_root, 0, &m, 21.0},
        {"reduce flat", pm_lb_reduce, flat, 0, &m, 1.0},
        {"reduce spread: leaf 3 last", pm_lb_reduce, spread, 0, &m, 11.0},
        {"reduce spread, root 3 last: leaf 2, or the root's own", pm_lb_reduce, spread, 3, &m, 10.25},
        {"reduce late root: combines its own", pm_lb_reduce, late_root, 0, &m, 20.25},
        {"reduce late root, slow combine: ships a part", pm_lb_reduce, late_root, 0, &slow, 20 + own_slow},
        {"reduce late root, credit", pm_lb_reduce, late_root, 0, &burst, 20.25},
        {"allreduce flat", pm_lb_allreduce, flat, 0, &m, 1.0},
        {"allreduce spread", pm_lb_allreduce, spread, 2, &m, 11.0},
        {"allreduce late, slow combine", pm_lb_allreduce, late_root, 1, &slow, 20 + own_slow},
    };
    size_t i;
    double lb;

    unit_name = "test_lowerbound vector ops by hand";
    for (i = 0; i < sizeof c / sizeof c[0]; i++) {
        lb = c[i].fn(4, c[i].a, c[i].root, c[i].m, 500);
        check(fabs(lb - c[i].want) < EPS, "%s: %.15g, expected %.15g", c[i].what, lb, c[i].want);
        lb = c[i].fn(1, c[i].a, 0, c[i].m, 500);
        check(lb == 0.0, "%s at P = 1: %g, expected 0", c[i].what, lb);
    }
    check(pm_lb_find("gather") == pm_lb_gather && pm_lb_find("scatter") == pm_lb_scatter &&
              pm_lb_find("bcast") == pm_lb_bcast && pm_lb_find("reduce") == pm_lb_reduce &&
              pm_lb_find("allreduce") == pm_lb_allreduce && pm_lb_find("alltoall") == NULL &&
              pm_lb_find(NULL) == NULL,
          "pm_lb_find");
}

/* The own-vector term: the late root's tail against the best split f on a fine grid. */
static void test_own_split(void)
{
    const double zero[2] = {0, 0};
    int trial, k;

    unit_name = "test_lowerbound own vector";
    for (trial = 0; trial < 300; trial++) {
        pm_lb_model_t m = {rnd_unit() * 1e-4, rnd_unit() * 1e-8, rnd_unit() * 1e-4, rnd_unit() * 1e-8};
        size_t bytes = 1 + rnd() % (1 << 22);
        double s = (double)bytes, k_credit = m.credit < s * m.beta ? m.credit : s * m.beta;
        double a[2] = {1.0, 0.0}, best = s * m.gamma, f, t, got;

        for (k = 1; k <= 100000; k++) {
            f = k / 100000.0;
            t = fmax((1 - f) * s * m.gamma, 2 * m.alpha - k_credit + f * s * m.beta);
            best = t < best ? t : best;
        }
        /* Root 0 arrives 1 s after the leaf: the root's own term decides. */
        got = pm_lb_reduce(2, a, 0, &m, bytes) - 1.0;
        check(got <= best + 1e-12 && got >= best - 1e-5 * s * (m.beta + m.gamma) - 1e-12,
              "trial %d alpha=%g beta=%g gamma=%g credit=%g bytes=%zu: %.15g, grid %.15g", trial, m.alpha,
              m.beta, m.gamma, m.credit, bytes, got, best);
        check(pm_lb_reduce(2, zero, 0, &m, bytes) >= 0, "trial %d: negative bound", trial);
    }
}

/* Completion of a transfer of `bytes` through a port free from `from`, released at `ready`. */
static double transfer(double from, double ready, const pm_lb_model_t *m, double bytes)
{
    return (from > ready ? from : ready) + m->alpha + bytes * m->beta;
}

/*
 * Schedules the model allows (credit 0): the run time of each must be at
 * least the bound.  Linear reduce: the root takes the leaves' vectors in
 * arrival order (eagerly, even before it arrives) and combines each after
 * its own arrival; binomial reduce: in round k rank i + 2^k sends its
 * partial result to rank i (relative to the root), which combines it; the
 * late root: the others reduce first and the root only combines; linear
 * bcast: the root sends to every rank in rank order, a rank exits when it
 * has arrived and received; allreduce: linear reduce then linear bcast.
 */
static double sim_reduce_linear(int P, const double *a, int root, const pm_lb_model_t *m, double s)
{
    double port = -INFINITY, cpu = a[root], sorted[8];
    int i, n = 0, j;

    for (i = 0; i < P; i++)
        if (i != root) {
            for (j = n++; j > 0 && sorted[j - 1] > a[i]; j--)
                sorted[j] = sorted[j - 1];
            sorted[j] = a[i];
        }
    for (i = 0; i < n; i++) {
        port = transfer(port, sorted[i], m, s);
        cpu = (cpu > port ? cpu : port) + s * m->gamma;
    }
    return cpu;
}

static double sim_reduce_binomial(int P, const double *a, int root, const pm_lb_model_t *m, double s)
{
    double t[8];
    int i, k;

    for (i = 0; i < P; i++)
        t[i] = a[(i + root) % P];
    for (k = 1; k < P; k <<= 1)
        for (i = 0; i + k < P; i += 2 * k)
            t[i] = transfer(t[i], t[i + k], m, s) + s * m->gamma;
    return t[0];
}

static double sim_late_root(int P, const double *a, int root, const pm_lb_model_t *m, double s)
{
    double b[8], done;
    int i, n = 0;

    for (i = 0; i < P; i++)
        if (i != root)
            b[n++] = a[i];
    done = n > 1 ? sim_reduce_binomial(n, b, 0, m, s) : b[0];
    done = transfer(done, b[0], m, s); /* to the root's buffer, eagerly */
    return (done > a[root] ? done : a[root]) + s * m->gamma;
}

static double sim_bcast_linear(int P, const double *a, int root, const pm_lb_model_t *m, double s,
                               double start)
{
    double port = start, end = start;
    int i;

    for (i = 0; i < P; i++) {
        if (i == root)
            continue;
        port = transfer(port, start, m, s);
        end = fmax(end, fmax(port, a[i]));
    }
    return end;
}

static void test_schedules(void)
{
    double a[8], lo, s, t, lb;
    int trial, P, root, i;

    unit_name = "test_lowerbound schedules";
    for (trial = 0; trial < 2000; trial++) {
        pm_lb_model_t m = {rnd_unit() * 1e-4, rnd_unit() * 1e-8, 0.0, rnd_unit() * 1e-8};
        size_t bytes = 1 + rnd() % (1 << 22);

        s = (double)bytes;
        P = 2 + (int)(rnd() % 7);
        root = (int)(rnd() % (uint64_t)P);
        for (i = 0, lo = INFINITY; i < P; i++) {
            a[i] = rnd() % 3 ? rnd_unit() * 0.03 : 0.0;
            lo = a[i] < lo ? a[i] : lo;
        }
        lb = pm_lb_reduce(P, a, root, &m, bytes);
        t = fmin(sim_reduce_linear(P, a, root, &m, s), sim_reduce_binomial(P, a, root, &m, s));
        t = fmin(t, sim_late_root(P, a, root, &m, s)) - lo;
        check(lb <= t + 1e-12, "trial %d reduce P=%d root=%d: bound %.15g above a schedule's %.15g", trial, P,
              root, lb, t);
        lb = pm_lb_bcast(P, a, root, &m, bytes);
        t = sim_bcast_linear(P, a, root, &m, s, a[root]) - lo;
        check(lb <= t + 1e-12, "trial %d bcast P=%d root=%d: bound %.15g above %.15g", trial, P, root, lb, t);
        lb = pm_lb_allreduce(P, a, root, &m, bytes);
        t = sim_bcast_linear(P, a, root, &m, s, sim_reduce_linear(P, a, root, &m, s)) - lo;
        check(lb <= t + 1e-12, "trial %d allreduce P=%d: bound %.15g above %.15g", trial, P, lb, t);
        /* Two ranks, the root first: the leaf's one message is the whole story. */
        if (P == 2 && a[root] <= a[1 - root])
            check(fabs(pm_lb_bcast(2, a, root, &m, bytes) -
                       (sim_bcast_linear(2, a, root, &m, s, a[root]) - lo)) < 1e-12,
                  "trial %d bcast P=2: not tight", trial);
    }
}

static void test_rounds(void)
{
    const pm_lb_model_t m = {2e-6, 1e-9, 0.0, 5e-10};
    double a[128] = {0};
    int P;

    unit_name = "test_lowerbound round model";
    check(fabs(pm_round_time(&m, 1000) - 3.5e-6) < 1e-18, "round time %g", pm_round_time(&m, 1000));
    for (P = 1; P <= 128; P++) {
        long want = 0, R1;

        while ((1L << want) < P)
            want++;
        R1 = pm_round_count(P, a, 1e-3, 1);
        check(R1 == want, "balanced P=%d N=1: %ld rounds, expected ceil(log2 P) = %ld", P, R1, want);
        check(pm_round_count(P, a, 1e-3, 16) == (P > 1 ? want + 15 : 0), "balanced P=%d N=16", P);
    }
    /* Marendic 2016, Sect. 7: P = 128, N = 40, d = 0.643 ms, rank 127 late by 59.8 ms: R = 133. */
    a[127] = 0.0598;
    check(pm_round_count(128, a, 6.43e-4, 40) == 133, "Marendic's example: %ld, expected 133",
          pm_round_count(128, a, 6.43e-4, 40));
    /* Late by 2 rounds on 8 ranks: 2^-(R-2) + 7 2^-R <= 1 first at R = 4 (1/4 + 7/16 < 1; R = 3: 1/2 + 7/8).
     */
    a[127] = 0;
    a[7] = 2.5e-3;
    check(pm_round_count(8, a, 1e-3, 1) == 4, "P=8 one late by 2.5 rounds: %ld, expected 4",
          pm_round_count(8, a, 1e-3, 1));
    check(pm_round_count(8, a, 0.0, 1) == -1, "d = 0 accepted");
    /* N of the model: sqrt((n - 1) m (beta + gamma) / alpha) for P = 8, 1 MiB: sqrt(2 * 1048576 * 1.5e-9 /
     * 2e-6). */
    check(pm_round_segments(8, 1 << 20, &m, 4096) == (int)floor(sqrt(2.0 * 1048576 * 1.5e-9 / 2e-6) + 0.5),
          "segments P=8: %d", pm_round_segments(8, 1 << 20, &m, 4096));
    check(pm_round_segments(2, 1 << 20, &m, 4096) == 1 && pm_round_segments(8, 1 << 20, &m, 5) == 5 &&
              pm_round_segments(8, 1, &m, 4096) == 1,
          "segments: one for P = 2, the cap, at least one");
}

int main(void)
{
    unit_name = "test_lowerbound";
    unit_rng = 0x452821E638D01377ull;
    test_by_hand();
    test_clamp();
    test_brute_force();
    test_vector_by_hand();
    test_own_split();
    test_schedules();
    test_rounds();
    unit_name = "test_lowerbound";
    return unit_summary();
}
