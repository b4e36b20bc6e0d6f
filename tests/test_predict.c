/*
 * Serial unit tests of the PAT predictors (papcoll/src/predict.c): parsing
 * and formatting of predictor specs, and the predictions of edge, last,
 * sma:K and ewma:A on small sequences computed by hand, then on long random
 * sequences against a straightforward reference that keeps all history;
 * the noise: error spreads of scored predictions and their median.
 *
 * Each failed check prints one line with its parameters; the program exits
 * non-zero when any check failed.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "papcoll.h"
#include "predict.h"
#include "unit.h"

static const char *kind_name(papcoll__pred_kind_t k)
{
    switch (k) {
    case PAPCOLL__PRED_EDGE: return "edge";
    case PAPCOLL__PRED_LAST: return "last";
    case PAPCOLL__PRED_SMA: return "sma";
    case PAPCOLL__PRED_EWMA: return "ewma";
    }
    return "?";
}

/* ---------------------------------------------------------- spec text */

static void test_parse(void)
{
    static const struct {
        const char *text;
        papcoll__pred_kind_t kind;
        int k;
        double alpha;
    } good[] = {
        {"edge", PAPCOLL__PRED_EDGE, 0, 0},    {"last", PAPCOLL__PRED_LAST, 0, 0},
        {"sma:1", PAPCOLL__PRED_SMA, 1, 0},    {"sma:3", PAPCOLL__PRED_SMA, 3, 0},
        {"sma:16", PAPCOLL__PRED_SMA, 16, 0},  {"ewma:0.5", PAPCOLL__PRED_EWMA, 0, 0.5},
        {"ewma:1", PAPCOLL__PRED_EWMA, 0, 1.0}, {"ewma:0.05", PAPCOLL__PRED_EWMA, 0, 0.05},
        {"ewma:0.25", PAPCOLL__PRED_EWMA, 0, 0.25},
    };
    static const char *const bad[] = {
        "sma:0", "ewma:1.5", "foo", "sma:", "ewma:x", "ewma:", "ewma:0", "ewma:-0.5", "ewma:nan",
        "ewma:inf", "sma:-2", "sma:2.5", "sma:3x", "sma:x", "", "sma", "ewma", "edge2", "last:1",
        " edge", "ewma:0.5 "};
    papcoll__predspec_t s;
    size_t i;
    int rc;

    for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
        rc = papcoll__pred_parse(good[i].text, &s);
        if (!check(rc == 0, "pred_parse(\"%s\") = %d, expected 0", good[i].text, rc))
            continue;
        check(s.kind == good[i].kind, "pred_parse(\"%s\"): kind %s, expected %s", good[i].text,
              kind_name(s.kind), kind_name(good[i].kind));
        if (good[i].kind == PAPCOLL__PRED_SMA)
            check(s.k == good[i].k, "pred_parse(\"%s\"): k = %d", good[i].text, s.k);
        if (good[i].kind == PAPCOLL__PRED_EWMA)
            check(s.alpha == good[i].alpha, "pred_parse(\"%s\"): alpha = %.17g", good[i].text, s.alpha);
    }
    for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        rc = papcoll__pred_parse(bad[i], &s);
        check(rc == PAPCOLL_ERR_PREDICTOR, "pred_parse(\"%s\") = %d, expected PAPCOLL_ERR_PREDICTOR (%d)",
              bad[i], rc, PAPCOLL_ERR_PREDICTOR);
    }
    rc = papcoll__pred_parse(NULL, &s);
    check(rc == PAPCOLL_ERR_PREDICTOR, "pred_parse(NULL) = %d, expected PAPCOLL_ERR_PREDICTOR", rc);
}

/* format(parse(text)) is canonical and parses back to the same spec. */
static void test_format(void)
{
    static const char *const texts[] = {"edge", "last", "sma:1", "sma:7", "sma:1024", "ewma:0.5", "ewma:1",
                                        "ewma:0.1", "ewma:0.3", "ewma:0.123456789",
                                        "ewma:0.3333333333333333"};
    static const char *const canonical[][2] = {
        {"edge", "edge"}, {"sma:1", "sma:1"}, {"sma:12", "sma:12"}, {"ewma:0.5", "ewma:0.5"},
        {"ewma:0.25", "ewma:0.25"}};
    papcoll__predspec_t a, b;
    char buf[40];
    size_t i;

    for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
        if (!check(papcoll__pred_parse(texts[i], &a) == 0, "pred_parse(\"%s\") failed", texts[i]))
            continue;
        memset(buf, '#', sizeof(buf));
        papcoll__pred_format(&a, buf, 32);
        check(memchr(buf, '\0', 32) != NULL && buf[32] == '#',
              "pred_format(\"%s\"): not a string within 32 bytes", texts[i]);
        buf[39] = '\0';
        if (!check(papcoll__pred_parse(buf, &b) == 0, "pred_format(\"%s\") = \"%s\" does not parse",
                   texts[i], buf))
            continue;
        check(a.kind == b.kind && a.k == b.k && a.alpha == b.alpha,
              "pred_format round trip \"%s\" -> \"%s\": kind %s/%s k %d/%d alpha %.17g/%.17g", texts[i],
              buf, kind_name(a.kind), kind_name(b.kind), a.k, b.k, a.alpha, b.alpha);
    }
    for (i = 0; i < sizeof(canonical) / sizeof(canonical[0]); i++) {
        papcoll__pred_parse(canonical[i][0], &a);
        papcoll__pred_format(&a, buf, 32);
        check(strcmp(buf, canonical[i][1]) == 0, "pred_format(\"%s\") = \"%s\", expected \"%s\"",
              canonical[i][0], buf, canonical[i][1]);
    }
}

/* ---------------------------------------------------------- predictions */

#define P4 4

static int make(papcoll__predictor_t *p, const char *text, int P)
{
    papcoll__predspec_t s;
    int rc = papcoll__pred_parse(text, &s);

    if (!check(rc == 0, "pred_parse(\"%s\") = %d", text, rc))
        return 0;
    rc = papcoll__pred_init(p, &s, P);
    return check(rc == 0, "pred_init(\"%s\", P=%d) = %d", text, P, rc);
}

/* Predicts and compares against expect[P] within tol. */
static void expect_pred(const papcoll__predictor_t *p, const char *what, const char *text,
                        const double *est, const double *expect, double tol)
{
    double out[64];
    int i;

    for (i = 0; i < p->P; i++)
        out[i] = -12345.0;
    papcoll__pred_predict(p, est, out);
    for (i = 0; i < p->P; i++)
        if (!check(fabs(out[i] - expect[i]) <= tol,
                   "pred %s [%s] P=%d: rank %d predicted %.17g, expected %.17g", text, what, p->P, i,
                   out[i], expect[i]))
            break;
}

static void test_no_data(void)
{
    static const char *const kinds[] = {"edge", "last", "sma:3", "ewma:0.5"};
    const double nan_est[P4] = {NAN, NAN, NAN, NAN}, zero[P4] = {0};
    const double one_nan[P4] = {1000.0, NAN, 1000.0, 1000.0};
    papcoll__predictor_t p;
    size_t k;

    for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
        if (!make(&p, kinds[k], P4))
            continue;
        expect_pred(&p, "no history, est=NULL", kinds[k], NULL, zero, 0);
        expect_pred(&p, "no history, all estimates NaN", kinds[k], nan_est, zero, 0);
        papcoll__pred_observe(&p, one_nan); /* ignored: one arrival unknown */
        papcoll__pred_observe(&p, nan_est);
        expect_pred(&p, "only NaN iterations observed", kinds[k], NULL, zero, 0);
        papcoll__pred_free(&p);
        check(p.hist == NULL && p.ewma == NULL, "pred_free(%s) leaves dangling pointers", kinds[k]);
    }
    if (make(&p, "last", 1)) {
        const double a[1] = {77.0}, e[1] = {0.0};
        papcoll__pred_observe(&p, a);
        expect_pred(&p, "P=1", "last", a, e, 0);
        papcoll__pred_free(&p);
    }
}

static void test_edge(void)
{
    const double est[P4] = {10.5, 10.0, 12.0, 11.0}, e_est[P4] = {0.5, 0.0, 2.0, 1.0};
    const double part[P4] = {NAN, 5.0, 6.0, NAN}, e_part0[P4] = {0.0, 0.0, 1.0, 0.0};
    const double arr1[P4] = {100.0, 101.0, 103.0, 100.5}, arr2[P4] = {200.0, 200.25, 199.0, 199.5};
    const double e_part1[P4] = {0.0, 0.0, 1.0, 0.5}, e_part2[P4] = {1.0, 0.0, 1.0, 0.5};
    const double e_last2[P4] = {1.0, 1.25, 0.0, 0.5};
    papcoll__predictor_t p;

    if (!make(&p, "edge", P4))
        return;
    expect_pred(&p, "estimates as offsets from their min", "edge", est, e_est, 0);
    expect_pred(&p, "NaN estimates, no history -> 0", "edge", part, e_part0, 0);
    papcoll__pred_observe(&p, arr1);
    expect_pred(&p, "estimates win over history", "edge", est, e_est, 0);
    expect_pred(&p, "NaN estimates fall back to last", "edge", part, e_part1, 0);
    papcoll__pred_observe(&p, arr2);
    expect_pred(&p, "NaN estimates fall back to the newest iteration", "edge", part, e_part2, 0);
    expect_pred(&p, "no estimates -> last", "edge", NULL, e_last2, 0);
    papcoll__pred_free(&p);
}

static void test_history_by_hand(void)
{
    /* Offsets: it1 {0,1,3,0.5}, it2 {1,1.25,0,0.5}, it3 {2,0,0.5,1}, it4 {0,0,4,2}. */
    const double a1[P4] = {100.0, 101.0, 103.0, 100.5}, a2[P4] = {200.0, 200.25, 199.0, 199.5};
    const double a3[P4] = {52.0, 50.0, 50.5, 51.0}, a4[P4] = {7.0, 7.0, 11.0, 9.0};
    const double bad[P4] = {1.0, NAN, 2.0, 3.0};
    const double est[P4] = {3.0, 2.0, 1.0, 0.0}, e_est[P4] = {3.0, 2.0, 1.0, 0.0};
    const double last1[P4] = {0.0, 1.0, 3.0, 0.5}, last3[P4] = {2.0, 0.0, 0.5, 1.0};
    const double sma2[P4] = {0.5, 1.125, 1.5, 0.5}, sma3_3[P4] = {1.0, 2.25 / 3, 3.5 / 3, 2.0 / 3};
    const double sma3_4[P4] = {1.0, 1.25 / 3, 4.5 / 3, 3.5 / 3};
    /* ewma:0.5: e1 = it1, e2 = .5 it2 + .5 e1, ... */
    const double ew2[P4] = {0.5, 1.125, 1.5, 0.5}, ew3[P4] = {1.25, 0.5625, 1.0, 0.75};
    const double ew4[P4] = {0.625, 0.28125, 2.5, 1.375};
    papcoll__predictor_t p;

    if (make(&p, "last", P4)) {
        expect_pred(&p, "no history -> estimates", "last", est, e_est, 0);
        papcoll__pred_observe(&p, a1);
        expect_pred(&p, "after it1", "last", NULL, last1, 0);
        expect_pred(&p, "history wins over estimates", "last", est, last1, 0);
        papcoll__pred_observe(&p, a2);
        papcoll__pred_observe(&p, a3);
        papcoll__pred_observe(&p, bad);
        expect_pred(&p, "after it3 and a NaN iteration", "last", NULL, last3, 0);
        papcoll__pred_free(&p);
    }
    if (make(&p, "sma:3", P4)) {
        expect_pred(&p, "no history -> estimates", "sma:3", est, e_est, 0);
        papcoll__pred_observe(&p, a1);
        expect_pred(&p, "after it1", "sma:3", NULL, last1, 1e-12);
        papcoll__pred_observe(&p, bad);
        papcoll__pred_observe(&p, a2);
        expect_pred(&p, "mean of it1, it2 (NaN iteration ignored)", "sma:3", NULL, sma2, 1e-12);
        papcoll__pred_observe(&p, a3);
        expect_pred(&p, "mean of it1..it3", "sma:3", est, sma3_3, 1e-12);
        papcoll__pred_observe(&p, a4);
        expect_pred(&p, "mean of it2..it4 (window slides)", "sma:3", NULL, sma3_4, 1e-12);
        papcoll__pred_free(&p);
    }
    if (make(&p, "ewma:0.5", P4)) {
        expect_pred(&p, "no history -> estimates", "ewma:0.5", est, e_est, 0);
        papcoll__pred_observe(&p, a1);
        expect_pred(&p, "after it1 (starts at the first observation)", "ewma:0.5", NULL, last1, 1e-12);
        papcoll__pred_observe(&p, a2);
        expect_pred(&p, "after it2", "ewma:0.5", NULL, ew2, 1e-12);
        papcoll__pred_observe(&p, bad);
        papcoll__pred_observe(&p, a3);
        expect_pred(&p, "after it3 (NaN iteration ignored)", "ewma:0.5", NULL, ew3, 1e-12);
        papcoll__pred_observe(&p, a4);
        expect_pred(&p, "after it4", "ewma:0.5", est, ew4, 1e-12);
        papcoll__pred_free(&p);
    }
    if (make(&p, "ewma:1", P4)) {
        papcoll__pred_observe(&p, a1);
        papcoll__pred_observe(&p, a3);
        expect_pred(&p, "ewma:1 equals last", "ewma:1", NULL, last3, 1e-12);
        papcoll__pred_free(&p);
    }
}

/* Long random sequences (with NaN iterations) against a reference that keeps
 * every valid iteration: catches ring-buffer and smoothing slips. */
static void test_history_random(void)
{
    static const char *const kinds[] = {"last", "sma:1", "sma:2", "sma:5", "ewma:0.3", "ewma:1",
                                        "edge"};
    enum { P = 13, IT = 40 };
    static double rows[IT][P];
    double arr[P], expect[P], ew[P] = {0};
    papcoll__predictor_t p;
    char what[64];
    size_t k;
    int it, i, j, n, K;

    for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
        papcoll__predspec_t s;
        if (!make(&p, kinds[k], P))
            continue;
        papcoll__pred_parse(kinds[k], &s);
        K = s.kind == PAPCOLL__PRED_SMA ? s.k : 1;
        n = 0;
        for (it = 0; it < IT; it++) {
            double base = 1000.0 * rnd_unit(), lo = INFINITY;
            int nan_it = rnd_unit() < 0.2;
            for (i = 0; i < P; i++)
                arr[i] = base + 0.01 * rnd_unit();
            if (nan_it)
                arr[(int)(rnd_unit() * P)] = NAN;
            papcoll__pred_observe(&p, arr);
            if (!nan_it) {
                for (i = 0; i < P; i++)
                    lo = arr[i] < lo ? arr[i] : lo;
                for (i = 0; i < P; i++) {
                    rows[n][i] = arr[i] - lo;
                    ew[i] = n == 0 ? rows[n][i] : s.alpha * rows[n][i] + (1 - s.alpha) * ew[i];
                }
                n++;
            }
            for (i = 0; i < P; i++) {
                if (n == 0) {
                    expect[i] = 0.0;
                } else if (s.kind == PAPCOLL__PRED_EWMA) {
                    expect[i] = ew[i];
                } else {
                    int m = n < K ? n : K;
                    expect[i] = 0;
                    for (j = n - m; j < n; j++)
                        expect[i] += rows[j][i];
                    expect[i] /= m;
                }
            }
            snprintf(what, sizeof(what), "random sequence, iteration %d, %d valid", it, n);
            expect_pred(&p, what, kinds[k], NULL, expect, 1e-9);
        }
        papcoll__pred_free(&p);
    }
}

/* ---------------------------------------------------------- noise */

static void expect_noise(const papcoll__predictor_t *p, const char *what, double expect)
{
    double got = papcoll__pred_noise(p);

    check(fabs(got - expect) <= 1e-12, "noise [%s]: %.17g, expected %.17g", what, got, expect);
}

/* Scores pred against arrivals t0 + off for P4 ranks. */
static void score4(papcoll__predictor_t *p, const double *pred, const double *off, double t0)
{
    double a[P4];
    int i;

    for (i = 0; i < P4; i++)
        a[i] = t0 + off[i];
    papcoll__pred_score(p, pred, a);
}

static void test_noise(void)
{
    static const double exact[P4] = {0, 1, 2, 3}, shifted[P4] = {5, 6, 7, 8}, off[P4] = {0, 1, 2, 2.5};
    static const double spreads[] = {1, 100, 2, 3, 4, 0.5};
    static const double median[] = {1, 50.5, 2, 2.5, 3, 3}; /* of the last five at most */
    double nan_pred[P4] = {0, 1, NAN, 3}, nan_arr[P4] = {0, 1, 2, NAN};
    papcoll__predictor_t p;
    int i;

    if (!make(&p, "edge", P4))
        return;
    expect_noise(&p, "nothing scored", 0);
    score4(&p, exact, exact, 50);
    expect_noise(&p, "exact prediction", 0);
    score4(&p, shifted, exact, 50);
    expect_noise(&p, "exact offsets, predictions shifted", 0);
    papcoll__pred_score(&p, nan_pred, exact);
    papcoll__pred_score(&p, exact, nan_arr);
    expect_noise(&p, "a NaN prediction or arrival is not scored", 0);
    score4(&p, exact, off, 50); /* errors 0 0 0 -0.5: spread 0.5; spreads 0 0 0.5 */
    expect_noise(&p, "median of 0 0 0.5", 0);
    papcoll__pred_free(&p);

    if (!make(&p, "last", P4))
        return;
    /* Spread s: every rank exact but the last, which arrives s later than predicted. */
    for (i = 0; i < 6; i++) {
        char what[64];
        double a[P4] = {0, 1, 2, 3 + spreads[i]};

        score4(&p, exact, a, 7);
        snprintf(what, sizeof(what), "median after %d spreads", i + 1);
        expect_noise(&p, what, median[i]);
    }
    /* The error spread is the range of measured - predicted offset: two ranks early, one late. */
    for (i = 0; i < 5; i++) {
        double a[P4] = {0.25, 1, 2.5, 3};

        score4(&p, exact, a, 1e6);
    }
    expect_noise(&p, "errors 0 -0.25 0.25 -0.25 (offsets from the earliest)", 0.5);
    papcoll__pred_free(&p);
}

int main(void)
{
    unit_name = "test_predict";
    unit_rng = 0x13198A2E03707344ull;
    test_parse();
    test_format();
    test_no_data();
    test_edge();
    test_history_by_hand();
    test_history_random();
    test_noise();
    return unit_summary();
}
