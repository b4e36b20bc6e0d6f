/*
 * Serial unit test of Clairvoyant's segment-count search
 * (papcoll/src/sched/nsearch.h).  No MPI.
 *
 *   - candidates: the model's N, then 2/3 of it repeatedly, never below
 *     least, at most PAPCOLL__NS_MAXC, for the header's examples and for
 *     every model 1..300 and least 1..model: decreasing, first = model,
 *     last = least when the list is not full;
 *   - exploration: PAPCOLL__NS_EXPLORE calls of each candidate, round
 *     robin, flagged as exploring; then the candidate with the smallest
 *     median tail, whichever position it has, for PAPCOLL__NS_PERIOD calls;
 *     then a new exploration from empty windows;
 *   - the windows move: a candidate whose tails grow while it runs loses
 *     to the next best (3, once 4 degrades);
 *   - tails of counts that are no candidate, negative or NaN are ignored;
 *     no tail at all keeps the model's N;
 *   - the same key keeps the search, a new model or least restarts it;
 *   - two searches fed the same tails choose the same N every call.
 */
#include <math.h>
#include <string.h>

#include "sched/nsearch.h"
#include "unit.h"

static void candidates(void)
{
    static const struct {
        int model, least, n, c[PAPCOLL__NS_MAXC];
    } ex[] = {{9, 3, 4, {9, 6, 4, 3}},
              {34, 33, 2, {34, 33}},
              {7, 1, 4, {7, 4, 2, 1}},
              {1, 1, 1, {1}},
              {5, 9, 1, {5}}};
    papcoll__nsearch_t s;
    size_t e;
    int model, least, k;

    for (e = 0; e < sizeof ex / sizeof ex[0]; e++) {
        memset(&s, 0, sizeof s);
        papcoll__ns_key(&s, ex[e].model, ex[e].least);
        check(s.nc == ex[e].n, "model %d least %d: %d candidates, expected %d", ex[e].model, ex[e].least,
              s.nc, ex[e].n);
        for (k = 0; k < s.nc && k < ex[e].n; k++)
            check(s.cand[k] == ex[e].c[k], "model %d least %d: candidate %d is %d, expected %d", ex[e].model,
                  ex[e].least, k, s.cand[k], ex[e].c[k]);
    }
    for (model = 1; model <= 300; model++)
        for (least = 1; least <= model; least++) {
            int ok = 1;

            memset(&s, 0, sizeof s);
            papcoll__ns_key(&s, model, least);
            ok = s.nc >= 1 && s.nc <= PAPCOLL__NS_MAXC && s.cand[0] == model;
            for (k = 1; k < s.nc; k++)
                ok = ok && s.cand[k] < s.cand[k - 1] && s.cand[k] >= least;
            ok = ok && (s.nc == PAPCOLL__NS_MAXC || s.cand[s.nc - 1] == least);
            check(ok, "model %d least %d: bad candidate list (%d of them)", model, least, s.nc);
        }
}

/* Runs `calls` calls of search s, each observing the tail tail_of(N, call)
 * of the call before it (lag 1, as the exchanges do); returns the N of the
 * last call and counts exploring calls. */
static int drive(papcoll__nsearch_t *s, int calls, double (*tail_of)(int, int), int *exploring)
{
    int i, N = -1, ex, prev = -1;

    *exploring = 0;
    for (i = 0; i < calls; i++) {
        if (prev >= 0)
            papcoll__ns_observe(s, prev, tail_of(prev, i - 1));
        N = papcoll__ns_next(s, &ex);
        *exploring += ex;
        prev = N;
    }
    return N;
}

static double valley(int N, int call) /* best at N = 4 */
{
    (void)call;
    return 1e-3 * (1 + 0.1 * (N - 4) * (N - 4));
}

static double drifting(int N, int call) /* 4 degrades after call 40: then 3 is best */
{
    return N == 4 && call > 40 ? 5e-3 : valley(N, call);
}

static void exploration(void)
{
    papcoll__nsearch_t s, t;
    int i, k, ex, N, want, explore;

    memset(&s, 0, sizeof s);
    papcoll__ns_key(&s, 9, 3); /* 9 6 4 3 */
    explore = s.nc * PAPCOLL__NS_EXPLORE;
    for (i = 0; i < explore; i++) {
        want = s.cand[i % s.nc];
        N = papcoll__ns_next(&s, &ex);
        check(N == want && ex, "exploration call %d: N %d (exploring %d), expected %d", i, N, ex, want);
        papcoll__ns_observe(&s, N, valley(N, i));
    }
    for (i = 0; i < PAPCOLL__NS_PERIOD; i++) {
        N = papcoll__ns_next(&s, &ex);
        check(N == 4 && !ex, "exploit call %d: N %d (exploring %d), expected 4", i, N, ex);
        papcoll__ns_observe(&s, N, valley(N, i));
    }
    N = papcoll__ns_next(&s, &ex);
    check(ex && N == s.cand[0] && s.explorations == 2, "after the period: N %d exploring %d explorations %d",
          N, ex, s.explorations);
    for (k = 0; k < s.nc; k++)
        check(s.nt[k] == 0, "after the period: candidate %d kept %d tails", k, s.nt[k]);

    memset(&s, 0, sizeof s);
    papcoll__ns_key(&s, 9, 3);
    N = drive(&s, 120, drifting, &ex);
    check(N == 3, "drift: N %d after 4 degraded, expected 3", N);
    check(ex == explore, "drift: %d exploring calls, expected %d", ex, explore);

    memset(&s, 0, sizeof s);
    papcoll__ns_key(&s, 9, 3);
    for (i = 0; i < explore; i++) {
        N = papcoll__ns_next(&s, NULL);
        papcoll__ns_observe(&s, 5, 1e-6);     /* no candidate */
        papcoll__ns_observe(&s, N, -1);       /* negative */
        papcoll__ns_observe(&s, N, NAN);      /* unknown */
        papcoll__ns_observe(&s, N, INFINITY); /* not finite */
    }
    for (k = 0; k < s.nc; k++)
        check(s.nt[k] == 0, "ignored tails: candidate %d has %d", k, s.nt[k]);
    N = papcoll__ns_next(&s, &ex);
    check(N == 9 && !ex, "no tails: N %d, expected the model's 9", N);

    papcoll__ns_key(&s, 9, 3);
    check(s.step == explore + 1, "the same key restarted the search (step %d)", s.step);
    papcoll__ns_key(&s, 9, 4);
    check(s.step == 0 && s.nc == 3 && s.cand[2] == 4, "a new least did not restart the search");
    papcoll__ns_key(&s, 12, 4);
    check(s.step == 0 && s.cand[0] == 12, "a new model did not restart the search");

    memset(&s, 0, sizeof s);
    memset(&t, 0, sizeof t);
    papcoll__ns_key(&s, 40, 2);
    papcoll__ns_key(&t, 40, 2);
    for (i = 0; i < 500; i++) {
        int a = papcoll__ns_next(&s, NULL), b = papcoll__ns_next(&t, NULL);
        double tail = 1e-3 * (double)(rnd() % 1000) / 1000;

        check(a == b, "call %d: two searches chose %d and %d", i, a, b);
        papcoll__ns_observe(&s, a, tail);
        papcoll__ns_observe(&t, b, tail);
    }
}

int main(void)
{
    unit_name = "test_nsearch";
    candidates();
    exploration();
    return unit_summary();
}
