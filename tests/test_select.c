/*
 * Serial unit tests of the data-dependent policies (papcoll/src/policy.c,
 * select.c): the rules parser (errors with file:line) and matcher, the
 * cost model and auto's choice, the policy texts.  Pure functions: no MPI is initialised.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "papcoll.h"
#include "policy.h"
#include "select.h"
#include "unit.h"

static int all_ok(papcoll_op_t op, int algo, void *arg)
{
    (void)op, (void)algo, (void)arg;
    return 1;
}

static int no_bg(papcoll_op_t op, int algo, void *arg)
{
    (void)arg;
    return !(papcoll_algo_flags(op, algo) & PAPCOLL_F_BACKGROUND);
}

/* A non-commutative operation: no COMMUTATIVE_ONLY algorithm. */
static int ordered_ok(papcoll_op_t op, int algo, void *arg)
{
    (void)arg;
    return !(papcoll_algo_flags(op, algo) & PAPCOLL_F_COMMUTATIVE_ONLY);
}

static int A(papcoll_op_t op, const char *name)
{
    return papcoll_algo_find(op, name);
}

static void test_rules_errors(void)
{
    static const struct {
        const char *text, *want;
        int rc;
    } cases[] = {
        {"gather * * * lin\ngather 1-4 * * nosuch\n", "t.conf:2: unknown gather algorithm 'nosuch'",
         PAPCOLL_ERR_ALGO},
        {"# c\n\ngather * *\n", "t.conf:3: want 5 fields", PAPCOLL_ERR_POLICY},
        {"gathr * * * lin\n", "t.conf:1: unknown operation 'gathr'", PAPCOLL_ERR_POLICY},
        {"gather 8-2 * * lin\n", "t.conf:1: bad range", PAPCOLL_ERR_POLICY},
        {"gather * 1X * lin\n", "t.conf:1: bad range", PAPCOLL_ERR_POLICY},
        {"# only a comment\n", "t.conf: no rules", PAPCOLL_ERR_POLICY},
    };
    papcoll__rules_t t;
    char err[320];
    size_t i;
    int rc;

    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        err[0] = '\0';
        rc = papcoll__rules_parse(cases[i].text, "t.conf", &t, err, sizeof err);
        check(rc == cases[i].rc, "rules case %zu: rc %d, want %d", i, rc, cases[i].rc);
        check(strncmp(err, cases[i].want, strlen(cases[i].want)) == 0,
              "rules case %zu: err '%s', want '%s...'", i, err, cases[i].want);
    }
}

static void test_rules_match(void)
{
    const char *text = "gather 2-8 0-64K 0-0.5 lin   # balanced, small P\n"
                       "gather 2-8 *     0.5-  bsls\n"
                       "gather *   *     *     mpi\n"
                       "bcast  *   -1M   *     binomial\n"
                       "bcast  *   1M-   *     scatter_allgather\n";
    papcoll__rules_t t;
    char err[320] = "";
    int rc = papcoll__rules_parse(text, "m.conf", &t, err, sizeof err);

    check(rc == PAPCOLL_OK && t.n == 5, "parse: rc %d n %d err %s", rc, t.n, err);
    check(papcoll__rules_match(&t, PAPCOLL_OP_GATHER, 8, 65536, 0.1) == 0, "gather small balanced: rule 0");
    check(papcoll__rules_match(&t, PAPCOLL_OP_GATHER, 8, 65537, 0.1) == 2,
          "gather above 64K balanced: rule 2");
    check(papcoll__rules_match(&t, PAPCOLL_OP_GATHER, 4, 1e6, 0.5) == 1, "ratio 0.5 opens rule 1");
    check(papcoll__rules_match(&t, PAPCOLL_OP_GATHER, 4, 1e6, 40) == 1, "ratio 40: rule 1");
    check(papcoll__rules_match(&t, PAPCOLL_OP_GATHER, 4, 100, NAN) == 2, "no prediction: only '*' ratios");
    check(papcoll__rules_match(&t, PAPCOLL_OP_GATHER, 16, 100, 0.1) == 2, "P 16: rule 2");
    check(papcoll__rules_match(&t, PAPCOLL_OP_BCAST, 16, 1048576, 0) == 3, "bcast 1M inclusive: rule 3");
    check(papcoll__rules_match(&t, PAPCOLL_OP_BCAST, 16, 1048577, 0) == 4, "bcast above 1M: rule 4");
    check(papcoll__rules_match(&t, PAPCOLL_OP_SCATTER, 16, 1, 0) == -1, "scatter: no rule");
    check(t.r[1].algo == A(PAPCOLL_OP_GATHER, "bsls") && t.r[1].line == 2, "rule 1 is bsls at line 2");
}

static papcoll__pin_t pin(int P, double bytes, double spread, int mon)
{
    return (papcoll__pin_t){.P = P,
                            .bytes = bytes,
                            .commutative = 1,
                            .has_monitor = mon,
                            .alpha = 50e-6,
                            .beta = 8e-9,
                            .gamma = 1e-9,
                            .seg = 65536,
                            .spread = spread};
}

static void test_auto(void)
{
    double ratio = 0.25;
    papcoll__auto_out_t o;
    papcoll__pin_t in = pin(8, 1 << 20, 0, 1);
    papcoll_op_t G = PAPCOLL_OP_GATHER, B = PAPCOLL_OP_BCAST, R = PAPCOLL_OP_REDUCE;

    papcoll__auto_choose(G, &in, ratio, all_ok, NULL, &o);
    check(o.base == A(G, "lin") && o.algo == o.base, "gather balanced 1 MiB: lin, got %d/%d", o.base, o.algo);
    check(fabs(o.t_base - (50e-6 + 7 * 1048576 * 8e-9)) < 1e-12, "gather lin cost %g", o.t_base);
    in.spread = 0.2 * o.t_base;
    papcoll__auto_choose(G, &in, ratio, all_ok, NULL, &o);
    check(o.algo == o.base, "ratio 0.2 < 0.25: base, got %d", o.algo);
    in.spread = 0.05;
    papcoll__auto_choose(G, &in, ratio, all_ok, NULL, &o);
    check(o.algo == A(G, "bsls") && o.gain > 0, "50 ms spread: bsls, got %d gain %g", o.algo, o.gain);
    papcoll__auto_choose(G, &in, ratio, no_bg, NULL, &o);
    check(o.algo == A(G, "sls"), "no background part: sls, got %d", o.algo);
    in = pin(8, 64, 0, 1);
    papcoll__auto_choose(B, &in, ratio, all_ok, NULL, &o);
    check(o.algo == A(B, "binomial"), "bcast 64 B: binomial, got %s", papcoll_algo_name(B, o.algo));
    in = pin(8, 64 << 20, 0, 1);
    papcoll__auto_choose(B, &in, ratio, all_ok, NULL, &o);
    check(o.algo != A(B, "binomial") && o.algo >= 0, "bcast 64 MiB: not binomial, got %s",
          papcoll_algo_name(B, o.algo));
    in = pin(8, 1 << 20, 0.05, 1);
    papcoll__auto_choose(B, &in, ratio, all_ok, NULL, &o);
    check(o.algo != o.base, "bcast 1 MiB, 50 ms spread: the sorted variant, got %s",
          papcoll_algo_name(B, o.algo));
    in.noise = 0.0495; /* what the predictor misses by: 0.5 ms of imbalance it can tell apart, below
                          the 5 % margin even for the foreground schain */
    papcoll__auto_choose(B, &in, ratio, all_ok, NULL, &o);
    check(o.algo == o.base && o.ratio < 0.25, "bcast, spread within the noise: base, got %s ratio %g",
          papcoll_algo_name(B, o.algo), o.ratio);
    in = pin(8, 1 << 20, 0, 1);
    papcoll__auto_choose(B, &in, ratio, all_ok, NULL, &o);
    check(o.base == A(B, "chain") && o.algo == o.base, "bcast 1 MiB balanced, monitor: the chain, got %s/%s",
          papcoll_algo_name(B, o.base), papcoll_algo_name(B, o.algo));
    in.has_monitor = 0;
    papcoll__auto_choose(B, &in, ratio, all_ok, NULL, &o);
    check(o.algo == A(B, "chain"), "bcast 1 MiB balanced, no monitor: chain, got %s",
          papcoll_algo_name(B, o.algo));
    in.spread = 0.05; /* the foreground counterpart of the chain: same engine, sorted order */
    papcoll__auto_choose(B, &in, ratio, all_ok, NULL, &o);
    check(o.algo == A(B, "schain"), "bcast 1 MiB, 50 ms spread, no monitor: schain, got %s",
          papcoll_algo_name(B, o.algo));
    /* A bcast acts on the arrivals after the root's: its data starts there. */
    {
        double root_late[8] = {0.05, 0, 0, 0, 0, 0, 0, 0}, one_2ms[8] = {0, 0, 0, 0.002, 0, 0, 0, 0},
               one_50ms[8] = {0, 0, 0, 0, 0, 0, 0, 0.05};

        in = pin(8, 1 << 20, 0.05, 1);
        in.pred = root_late;
        papcoll__auto_choose(B, &in, ratio, all_ok, NULL, &o);
        check(o.algo == A(B, "chain") && o.ratio == 0,
              "bcast 1 MiB, the root 50 ms late: the chain, got %s ratio %g", papcoll_algo_name(B, o.algo),
              o.ratio);
        in.lag_noise = 0.03; /* predictions that miss the next call by more than half their spread */
        papcoll__auto_choose(B, &in, ratio, all_ok, NULL, &o);
        check(o.algo == A(B, "schain"), "bcast 1 MiB, the root late, stale predictions: schain, got %s",
              papcoll_algo_name(B, o.algo));
        in.lag_noise = NAN;
        in.pred = one_2ms; /* ratio 2 / 12.6 ms, below 0.25; gain 2 ms */
        in.spread = 0.002;
        papcoll__auto_choose(B, &in, ratio, all_ok, NULL, &o);
        check(o.algo == A(B, "schain") && o.ratio < 0.25 && fabs(o.gain - 0.002) < 1e-9,
              "bcast 1 MiB, one rank 2 ms after the root: schain (foreground), got %s ratio %g gain %g",
              papcoll_algo_name(B, o.algo), o.ratio, o.gain);
        in.pred = one_50ms;
        in.spread = 0.05;
        papcoll__auto_choose(B, &in, ratio, all_ok, NULL, &o);
        check(o.algo == A(B, "bchain"), "bcast 1 MiB, one rank 50 ms after the root: bchain, got %s",
              papcoll_algo_name(B, o.algo));
    }
    /* 64 KiB: latency-bound, the base is scatter_allgather (1.42 ms) and its
     * counterpart bchain takes 4.02 ms on balanced arrivals.  A 2 ms spread
     * would save a tree 0.84 ms but costs the chain more than that. */
    in = pin(8, 65536, 0.002, 1);
    papcoll__auto_choose(B, &in, ratio, all_ok, NULL, &o);
    check(o.base == A(B, "scatter_allgather") && o.algo == o.base && o.gain < 0,
          "bcast 64 KiB, 2 ms spread: the base, not the chain, got %s gain %g", papcoll_algo_name(B, o.algo),
          o.gain);
    in.spread = 0.05;
    papcoll__auto_choose(B, &in, ratio, all_ok, NULL, &o);
    check(o.algo == A(B, "bchain") && fabs(o.gain - (o.t_base - (50e-6 + 65536 * 8e-9))) < 1e-9,
          "bcast 64 KiB, 50 ms spread: bchain, gaining t_base less a leaf's message, got %s gain %g",
          papcoll_algo_name(B, o.algo), o.gain);
    {
        /* 64 ranks, 32 MiB: the two trees are the base (13 + 511 segment
         * steps against the chain's 574); one rank 50 ms late.  Without a
         * monitor the counterpart is stwotree, whose late rank is interior
         * above leaves that wait one segment more than a leaf's message. */
        double late[64] = {0};
        double seg = 50e-6 + 65536 * 8e-9, leaf = 50e-6 + 33554432 * 8e-9;

        late[37] = 0.05;
        in = pin(64, 33554432, 0.05, 0);
        in.pred = late;
        papcoll__auto_choose(B, &in, ratio, all_ok, NULL, &o);
        check(o.base == A(B, "twotree") && fabs(o.t_base - 524 * seg) < 1e-9,
              "bcast 32 MiB, P = 64: base twotree, got %s (%g s)", papcoll_algo_name(B, o.base), o.t_base);
        check(o.algo == A(B, "stwotree") &&
                  fabs(o.gain - (0.05 + o.t_base - fmax(o.t_base, 0.05 + leaf + seg))) < 1e-9,
              "bcast 32 MiB, P = 64, one rank 50 ms late, no monitor: stwotree, got %s gain %g",
              papcoll_algo_name(B, o.algo), o.gain);
        in.pred = NULL;
    }
    in.spread = NAN;
    papcoll__auto_choose(G, &in, ratio, all_ok, NULL, &o);
    check(o.algo == o.base && isnan(o.ratio), "no prediction: base");
    in = pin(8, 1 << 20, 0, 1);
    papcoll__auto_choose(R, &in, ratio, all_ok, NULL, &o);
    check(o.algo == A(R, "clairvoyant"), "reduce 1 MiB: clairvoyant's pipelined tree, got %s",
          papcoll_algo_name(R, o.algo));
    in.spread = 0.05;
    papcoll__auto_choose(R, &in, ratio, all_ok, NULL, &o);
    check(o.algo == A(R, "clairvoyant") && isnan(o.gain),
          "reduce 1 MiB, 50 ms spread: clairvoyant stays, got %s", papcoll_algo_name(R, o.algo));
    {
        /* A predicted PAT: spread over the ranks (uniform-like) -> treedyn;
         * one late rank -> Clairvoyant stays; the same spread without a
         * monitor thread -> Clairvoyant (treedyn's coordinator needs it). */
        double uni[8] = {0, 0.007, 0.014, 0.021, 0.028, 0.035, 0.042, 0.049};
        double one[8] = {0, 0.001, 0.002, 0.001, 0, 0.002, 0.001, 0.05};

        in.pred = uni;
        papcoll__auto_choose(R, &in, ratio, all_ok, NULL, &o);
        check(o.algo == A(R, "treedyn") && o.base == A(R, "clairvoyant"),
              "reduce 1 MiB, spread-out PAT: treedyn, got %s", papcoll_algo_name(R, o.algo));
        in.has_monitor = 0;
        papcoll__auto_choose(R, &in, ratio, all_ok, NULL, &o);
        check(o.algo == A(R, "clairvoyant"), "reduce, spread-out PAT, no monitor: clairvoyant, got %s",
              papcoll_algo_name(R, o.algo));
        in.has_monitor = 1;
        in.pred = one;
        papcoll__auto_choose(R, &in, ratio, all_ok, NULL, &o);
        check(o.algo == A(R, "clairvoyant"), "reduce 1 MiB, one late rank: clairvoyant, got %s",
              papcoll_algo_name(R, o.algo));
        in.pred = uni;
        in.bytes = 3 * 65536; /* 3 segments: treedyn pairs whole values (P = 8 streams from 4) */
        papcoll__auto_choose(R, &in, ratio, all_ok, NULL, &o);
        check(o.algo == A(R, "clairvoyant"), "reduce 192 KiB, spread-out PAT: clairvoyant, got %s",
              papcoll_algo_name(R, o.algo));
        in.bytes = 3 * 65536 + 1; /* 4 segments: treedyn streams */
        papcoll__auto_choose(R, &in, ratio, all_ok, NULL, &o);
        check(o.algo == A(R, "treedyn"), "reduce 192 KiB + 1 B, spread-out PAT: treedyn, got %s",
              papcoll_algo_name(R, o.algo));
        in.bytes = 1 << 20;
        in.spread = 0.001; /* below the threshold: balanced */
        papcoll__auto_choose(R, &in, ratio, all_ok, NULL, &o);
        check(o.algo == A(R, "clairvoyant"),
              "reduce, spread-out PAT within the threshold: clairvoyant, got %s",
              papcoll_algo_name(R, o.algo));
        in.pred = NULL;
    }
    in = pin(8, 64, 0, 1);
    papcoll__auto_choose(R, &in, ratio, all_ok, NULL, &o);
    check(o.algo == A(R, "binomial"), "reduce 64 B: binomial (a tie goes to no plan), got %s",
          papcoll_algo_name(R, o.algo));
    {
        /* 8 MiB, N = 128: Clairvoyant's 130 rounds are within AUTO_MARGIN
         * of twotree's 134 steps, so the tree without a plan is the base;
         * from the threshold Clairvoyant takes the imbalance as above. */
        double step = 50e-6 + 65536 * 9e-9;
        double one[8] = {0, 0.001, 0.002, 0.001, 0, 0.002, 0.001, 0.05};
        double u10[8] = {0, 0.0014, 0.0029, 0.0043, 0.0057, 0.0071, 0.0086, 0.01};
        double uni[8] = {0, 0.007, 0.014, 0.021, 0.028, 0.035, 0.042, 0.049};

        in = pin(8, 8 << 20, 0, 1);
        papcoll__auto_choose(R, &in, ratio, all_ok, NULL, &o);
        check(o.algo == A(R, "twotree") && fabs(o.t_base - 134 * step) < 1e-12 &&
                  fabs(papcoll__cost(R, A(R, "clairvoyant"), &in) - 130 * step) < 1e-12,
              "reduce 8 MiB balanced: twotree at 134 steps (clairvoyant 130), got %s %g",
              papcoll_algo_name(R, o.algo), o.t_base);
        in.spread = 0.01;
        in.pred = u10;
        papcoll__auto_choose(R, &in, ratio, all_ok, NULL, &o);
        check(o.algo == A(R, "twotree"), "reduce 8 MiB, 10 ms spread (ratio %.3f < %.2f): twotree, got %s",
              o.ratio, ratio, papcoll_algo_name(R, o.algo));
        in.spread = 0.05;
        in.pred = one;
        papcoll__auto_choose(R, &in, ratio, all_ok, NULL, &o);
        check(o.algo == A(R, "clairvoyant") && o.base == o.algo,
              "reduce 8 MiB, one rank 50 ms late: clairvoyant, got %s", papcoll_algo_name(R, o.algo));
        in.pred = uni;
        papcoll__auto_choose(R, &in, ratio, all_ok, NULL, &o);
        check(o.algo == A(R, "treedyn") && o.base == A(R, "clairvoyant"),
              "reduce 8 MiB, 50 ms spread over the ranks: treedyn, got %s", papcoll_algo_name(R, o.algo));
        in = pin(8, 1 << 20, 0, 1);
        in.commutative = 0;
        papcoll__auto_choose(R, &in, ratio, ordered_ok, NULL, &o);
        check(o.algo == A(R, "twotree"), "reduce 1 MiB, not commutative: twotree, got %s",
              papcoll_algo_name(R, o.algo));
    }
}

/* Allreduce: recursive doubling for small vectors, Rabenseifner for large
 * ones, sorted_ring under a large predicted imbalance where the chain's pipeline after the latest
 * rank is shorter than the base. */
static void test_auto_allreduce(void)
{
    double ratio = 0.25;
    papcoll__auto_out_t o;
    papcoll_op_t AR = PAPCOLL_OP_ALLREDUCE;
    papcoll__pin_t in = pin(8, 64, 0, 1);

    papcoll__auto_choose(AR, &in, ratio, all_ok, NULL, &o);
    check(o.algo == A(AR, "recdoubling") && fabs(o.t_base - 3 * (50e-6 + 64 * 9e-9)) < 1e-12,
          "allreduce 64 B: recdoubling at 3 (a + m (b + g)), got %s %g", papcoll_algo_name(AR, o.algo),
          o.t_base);
    in.spread = 0.05;
    papcoll__auto_choose(AR, &in, ratio, all_ok, NULL, &o);
    check(o.algo == A(AR, "recdoubling") && o.gain < 0,
          "allreduce 64 B, 50 ms spread: sorted_ring's 8 hops after the latest lose, got %s gain %g",
          papcoll_algo_name(AR, o.algo), o.gain);
    in = pin(8, 1 << 20, 0, 1);
    papcoll__auto_choose(AR, &in, ratio, all_ok, NULL, &o);
    check(o.algo == A(AR, "rabenseifner"), "allreduce 1 MiB balanced: rabenseifner, got %s",
          papcoll_algo_name(AR, o.algo));
    in.spread = 0.05;
    papcoll__auto_choose(AR, &in, ratio, all_ok, NULL, &o);
    /* N = 16: the base 50 ms + t_base against 50 ms + (16 + 8 - 1)(a + 64 KiB (b + g)) */
    check(o.algo == A(AR, "sorted_ring") && fabs(o.gain - (o.t_base - 23 * (50e-6 + 65536 * 9e-9))) < 1e-12,
          "allreduce 1 MiB, 50 ms spread: sorted_ring, got %s gain %g", papcoll_algo_name(AR, o.algo),
          o.gain);
    /* 16 MiB and 0.5 s: the chain's balanced 2N + P - 2 steps must not bind. */
    in.P = 17;
    in.bytes = 16 << 20;
    in.spread = 0.5;
    papcoll__auto_choose(AR, &in, ratio, all_ok, NULL, &o);
    check(o.algo == A(AR, "sorted_ring"), "allreduce 16 MiB, 0.5 s spread, P = %d: sorted_ring, got %s", in.P,
          papcoll_algo_name(AR, o.algo));
    in = pin(8, 1 << 20, 0.05, 1);
    in.commutative = 0;
    papcoll__auto_choose(AR, &in, ratio, all_ok, NULL, &o);
    check(o.algo == A(AR, "rabenseifner"), "allreduce 1 MiB, not commutative: rabenseifner, got %s",
          papcoll_algo_name(AR, o.algo));
}

/* xbeta, an exchange with one peer: where it runs at half rate (2 beta, as
 * 8 MiB exchanges with 8 ranks on 2 cores) the ring's one-way steps beat the
 * exchanges of Rabenseifner and recursive doubling; xbeta = beta (or none)
 * leaves the costs as the one-way model gives them. */
static void test_auto_xbeta(void)
{
    double ratio = 0.25;
    papcoll__auto_out_t o;
    papcoll_op_t AR = PAPCOLL_OP_ALLREDUCE, R = PAPCOLL_OP_REDUCE;
    papcoll__pin_t in = pin(8, 1 << 20, 0, 1);
    double a = 50e-6, b = 8e-9, g = 1e-9, x = 16e-9, m = 1 << 20, c;

    in.xbeta = x;
    papcoll__auto_choose(AR, &in, ratio, all_ok, NULL, &o);
    check(o.algo == A(AR, "ring") && fabs(o.t_base - (14 * a + 1.75 * m * b + 0.875 * m * g)) < 1e-12,
          "allreduce 1 MiB, xbeta 2 beta: ring at 2(P-1) a + 2 (P-1)/P m b + (P-1)/P m g, got %s %g",
          papcoll_algo_name(AR, o.algo), o.t_base);
    c = papcoll__cost(AR, A(AR, "rabenseifner"), &in);
    check(fabs(c - (6 * a + 1.75 * m * x + 0.875 * m * g)) < 1e-12, "allreduce rabenseifner: exchanges, %g",
          c);
    c = papcoll__cost(AR, A(AR, "recdoubling"), &in);
    check(fabs(c - 3 * (a + m * (x + g))) < 1e-12, "allreduce recdoubling: every round an exchange, %g", c);
    c = papcoll__cost(R, A(R, "rabenseifner"), &in);
    check(fabs(c - (6 * a + 0.875 * m * (x + b) + 0.875 * m * g)) < 1e-12,
          "reduce rabenseifner: exchanges, then a one-way gather, %g", c);
    c = papcoll__cost(R, A(R, "ring"), &in);
    check(fabs(c - (10 * a + 1.75 * m * b + 0.875 * m * g)) < 1e-12,
          "reduce ring: one way, (P - 1 + L) a, %g", c);
    in.xbeta = b;
    papcoll__auto_choose(AR, &in, ratio, all_ok, NULL, &o);
    check(o.algo == A(AR, "rabenseifner"), "allreduce 1 MiB, xbeta = beta: rabenseifner, got %s",
          papcoll_algo_name(AR, o.algo));
}

/* The round alpha: the ring's 2(P - 1) steps and Rabenseifner's 2 log2 P
 * rounds each cost a round in which every rank sends and receives.  With
 * the values measured on the emulated cluster (8 ranks on 2 cores:
 * ping-pong alpha 35 us, round alpha 76 us) the ring's 8 more rounds
 * outweigh Rabenseifner's exchanges at 64 KiB (measured: 3.2 against
 * 2.5 ms), and the ping-pong alpha alone picks the ring. */
static void test_auto_round_alpha(void)
{
    double ratio = 0.25;
    papcoll__auto_out_t o;
    papcoll_op_t AR = PAPCOLL_OP_ALLREDUCE;
    double a = 35e-6, ra = 76e-6, b = 8.46e-9, g = 2.1e-11, x = 12.9e-9, m = 65536, c;
    papcoll__pin_t in = pin(8, m, 0, 1);

    in.alpha = a;
    in.beta = b;
    in.gamma = g;
    in.xbeta = x;
    papcoll__auto_choose(AR, &in, ratio, all_ok, NULL, &o);
    check(o.algo == A(AR, "ring"), "allreduce 64 KiB, no round alpha: ring, got %s",
          papcoll_algo_name(AR, o.algo));
    in.ralpha = ra;
    papcoll__auto_choose(AR, &in, ratio, all_ok, NULL, &o);
    check(o.algo == A(AR, "rabenseifner") && fabs(o.t_base - (6 * ra + 1.75 * m * x + 0.875 * m * g)) < 1e-12,
          "allreduce 64 KiB, round alpha: rabenseifner at 2 L ra + ..., got %s %g",
          papcoll_algo_name(AR, o.algo), o.t_base);
    c = papcoll__cost(AR, A(AR, "ring"), &in);
    check(fabs(c - (14 * ra + 1.75 * m * b + 0.875 * m * g)) < 1e-12,
          "allreduce ring: 2(P - 1) round alphas, %g", c);
    c = papcoll__cost(PAPCOLL_OP_REDUCE, A(PAPCOLL_OP_REDUCE, "clairvoyant"), &in);
    check(fabs(c - 3 * (ra + m * (b + g))) < 1e-12, "reduce clairvoyant: rounds of the round alpha, %g", c);
    in.bytes = 1 << 20;
    papcoll__auto_choose(AR, &in, ratio, all_ok, NULL, &o);
    check(o.algo == A(AR, "ring"), "allreduce 1 MiB, round alpha: ring, got %s",
          papcoll_algo_name(AR, o.algo));
    /* sorted_ring's chain streams (alpha per segment): under 8 ms of
     * spread it gains over the ring at 1 MiB (measured: 23.6 against 26.1
     * ms under uniform 10 ms), not at 256 KiB (16.8 against 14.4). */
    in.spread = 8e-3;
    papcoll__auto_choose(AR, &in, ratio, all_ok, NULL, &o);
    check(o.algo == A(AR, "sorted_ring") &&
              fabs(o.gain - (8e-3 + o.t_base - 38 * (a + 65536 * (b + g)))) < 1e-9,
          "allreduce 1 MiB, 8 ms spread: sorted_ring by its chain's streaming steps, got %s gain %g",
          papcoll_algo_name(AR, o.algo), o.gain);
    in.bytes = 256 << 10;
    papcoll__auto_choose(AR, &in, ratio, all_ok, NULL, &o);
    check(o.algo == A(AR, "ring"), "allreduce 256 KiB, 8 ms spread: ring, got %s",
          papcoll_algo_name(AR, o.algo));
}

/* Gather under a predicted PAT: the root's port as a queue. */
static void test_auto_port(void)
{
    double ratio = 0.25;
    papcoll__auto_out_t o;
    papcoll__pin_t in = pin(8, 1 << 20, 0.05, 1);
    papcoll_op_t G = PAPCOLL_OP_GATHER;
    double pr[8] = {0};
    int i;

    in.root = 0;
    in.pred = pr;
    in.lag_noise = 0.001;
    pr[7] = 0.05; /* one late rank, the root early: its block comes while the others' flow */
    papcoll__auto_choose(G, &in, ratio, all_ok, NULL, &o);
    check(o.algo == A(G, "lin") && o.gain <= 0, "single late non-root: lin, got %s gain %g",
          papcoll_algo_name(G, o.algo), o.gain);
    pr[7] = 0;
    pr[0] = 0.05; /* the root late: lin's port starts with it, bsls's background part before */
    papcoll__auto_choose(G, &in, ratio, all_ok, NULL, &o);
    check(o.algo == A(G, "bsls") && fabs(o.gain - (0.05 + 50e-6 + 7 * 1048576 * 8e-9 - 0.05)) < 0.01,
          "late root: bsls, got %s gain %g", papcoll_algo_name(G, o.algo), o.gain);
    for (i = 0; i < 8; i++)
        pr[i] = 0.05 * i / 7; /* spread out, the root predicted first */
    papcoll__auto_choose(G, &in, ratio, all_ok, NULL, &o);
    check(o.algo == A(G, "lin"), "reliable prediction, root first: lin, got %s",
          papcoll_algo_name(G, o.algo));
    for (i = 0; i < 8; i++)
        pr[i] = 0;
    pr[0] = in.spread =
        0.01; /* the root 10 ms late: ratio 0.17, under the threshold; the port model decides */
    papcoll__auto_choose(G, &in, ratio, all_ok, NULL, &o);
    check(o.algo == A(G, "bsls") && o.ratio < 0.25 && o.gain > 0.009,
          "root 10 ms late: bsls below the ratio threshold, got %s ratio %g gain %g",
          papcoll_algo_name(G, o.algo), o.ratio, o.gain);
    for (i = 0; i < 8; i++)
        pr[i] = 0.05 * i / 7;
    in.spread = 0.05;
    in.lag_noise = 0.05; /* predictions miss the next call by the whole spread: the root's mean arrival */
    papcoll__auto_choose(G, &in, ratio, all_ok, NULL, &o);
    check(o.algo == A(G, "bsls") && o.gain > 0.015, "unreliable prediction: bsls, got %s gain %g",
          papcoll_algo_name(G, o.algo), o.gain);
}

static void test_policy_text(void)
{
    papcoll__policy_t p;

    check(papcoll__policy_parse(PAPCOLL_OP_GATHER, "auto", &p) == PAPCOLL_OK &&
              p.kind == PAPCOLL__POLICY_AUTO && p.ratio == 0.25,
          "auto");
    check(papcoll__policy_parse(PAPCOLL_OP_GATHER, "auto:0.5", &p) == PAPCOLL_OK && p.ratio == 0.5,
          "auto:0.5");
    check(papcoll__policy_parse(PAPCOLL_OP_GATHER, "auto:x", &p) == PAPCOLL_ERR_POLICY, "auto:x refused");
    check(papcoll__policy_parse(PAPCOLL_OP_GATHER, "tune", &p) == PAPCOLL_ERR_POLICY &&
              strstr(p.err, "rules:") != NULL,
          "tune refused, pointing at rules: '%s'", p.err);
    check(papcoll__policy_parse(PAPCOLL_OP_GATHER, "rules:/nonexistent/x.conf", &p) == PAPCOLL_ERR_POLICY &&
              strstr(p.err, "/nonexistent/x.conf") != NULL,
          "missing rules file: '%s'", p.err);
    check(papcoll__policy_parse(PAPCOLL_OP_GATHER, "bsls", &p) == PAPCOLL_OK &&
              p.kind == PAPCOLL__POLICY_FIXED,
          "plain name");
    check(papcoll__policy_parse(PAPCOLL_OP_GATHER, "what:x", &p) == PAPCOLL_ERR_POLICY, "unknown policy");
}

int main(void)
{
    unit_name = "test_select";
    test_rules_errors();
    test_rules_match();
    test_auto();
    test_auto_allreduce();
    test_auto_xbeta();
    test_auto_round_alpha();
    test_auto_port();
    test_policy_text();
    return unit_summary();
}
