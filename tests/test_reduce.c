/*
 * Serial unit tests of the reduce family's pure parts (papcoll/src/reduce/
 * engine.h); no MPI communication.
 *
 *   radix vectors  papcoll__radix_vector: the examples of reduce_radixk.c,
 *                  then for every P in 1..3000 and K in {2,3,4,5,8,16,64}:
 *                  product P, factors ascending, each >= 2 and <= K unless a
 *                  prime, at least ceil(log_K P) of them; an explicit vector
 *                  comes back as given.
 *   pairing        papcoll__dyn_ready (treedyn's and noncommut_treedyn's
 *                  coordinator) driven by an event simulation: ranks arrive
 *                  at random times (ties, the root first or last, all at
 *                  once, an end rank late), READY when idle, a receiver
 *                  READY again after a random combine time; the last
 *                  pairing decided ahead (papcoll__dyn_last) must name a
 *                  rank that has not reported and the root, after P - 2
 *                  pairings, and always happen for the late end rank.
 *                  Every pairing must join two idle
 *                  ranks that still hold a value, the root must never send,
 *                  a NEIGHBOUR pairing must join adjacent ranges on the
 *                  right side, exactly P - 1 pairings must happen (no rank
 *                  left waiting forever), the last one flagged final and
 *                  received by the root, and the root's value must be the
 *                  rank-order product of random 2x2 matrices (NEIGHBOUR) or
 *                  the sum of every rank's contribution once (ANY).
 *   stream         papcoll__dyn_streams (when treedyn streams: P = 8 from
 *                  4 segments, never at P <= 2) and papcoll__dyn_stream_ready
 *                  for P in 2..128, random report orders and roots:
 *                  one FROM then one TO per non-root, one FROM for the root,
 *                  the TOs chain every non-root in report order to the root.
 *   segments       papcoll__model_segments (Clairvoyant's N): the linear
 *                  model's optimum where it gives segments under the cap,
 *                  raised to ceil(count / max) where it does not (2 MiB on
 *                  the emulated cluster's model: 26 -> 33 segments of at most
 *                  65472 bytes), never above count, 1 without pipeline depth.
 *   density        papcoll__model_density (the largest valid value rounded
 *                  up to 1/16, NaN and out-of-range values skipped, 1 when
 *                  none) and papcoll__model_sparse_segments: density 1 is
 *                  the dense count; the cap counts encoded bytes (8 MiB on
 *                  the emulated cluster's model: 129 dense, the model's
 *                  53 at a quarter, the cap's 65 at a half).
 *   naps           papcoll__fg_naps (whether a whole-value participant's
 *                  foreground waits nap): never when ranks do not share
 *                  cores; when they do, from a tenth of the wall time as
 *                  CPU time on, and without a previous call to look at;
 *                  papcoll__pace_naps (when such a wait naps): after its
 *                  yielding phase and before the call's nap_until.
 * Exit status 1 when anything failed.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "p2p.h"
#include "reduce/engine.h"
#include "unit.h"

/* ------------------------------------------------------------ radix vectors */

static int is_prime(int x)
{
    int d;

    for (d = 2; (long long)d * d <= x; d++)
        if (x % d == 0)
            return 0;
    return x >= 2;
}

/* Prime factors of x, with multiplicity. */
static int prime_factors(int x)
{
    int d, n = 0;

    for (d = 2; (long long)d * d <= x; d++)
        while (x % d == 0)
            x /= d, n++;
    return n + (x > 1);
}

static void radix_example(int P, int K, int n, const int *want)
{
    int k[PAPCOLL__RADIX_MAX], r = papcoll__radix_vector(P, K, NULL, 0, k), i, same = r == n;

    for (i = 0; same && i < n; i++)
        same = k[i] == want[i];
    check(same, "radix_vector(P=%d, K=%d): %d factors, first %d, expected %d factors", P, K, r,
          r > 0 ? k[0] : 0, n);
}

static void test_radix(void)
{
    static const int Ks[] = {2, 3, 4, 5, 8, 16, 64};
    int k[PAPCOLL__RADIX_MAX], vec[3] = {4, 2, 3}, P, i, j, r, bad, nf;
    long long prod, pw;

    radix_example(128, 8, 3, (const int[]){4, 4, 8});
    radix_example(8, 8, 1, (const int[]){8});
    radix_example(12, 8, 2, (const int[]){3, 4});
    radix_example(13, 8, 1, (const int[]){13});
    radix_example(27, 8, 3, (const int[]){3, 3, 3});
    radix_example(1000, 8, 4, (const int[]){5, 5, 5, 8});
    radix_example(16, 2, 4, (const int[]){2, 2, 2, 2});
    radix_example(1, 8, 0, NULL);
    r = papcoll__radix_vector(24, 8, vec, 3, k);
    check(r == 3 && k[0] == 4 && k[1] == 2 && k[2] == 3, "an explicit vector does not come back as given");
    for (i = 0; i < (int)(sizeof(Ks) / sizeof(Ks[0])); i++)
        for (P = 1; P <= 3000; P++) {
            r = papcoll__radix_vector(P, Ks[i], NULL, 0, k);
            for (prod = 1, bad = 0, j = 0; j < r; j++) {
                prod *= k[j];
                bad |= k[j] < 2 || (k[j] > Ks[i] && !is_prime(k[j])) || (j > 0 && k[j] < k[j - 1]);
            }
            for (pw = 1, j = 0; pw < P; j++)
                pw *= Ks[i];
            nf = prime_factors(P);
            check(
                prod == P && !bad && r >= (j < nf ? j : nf) && r <= nf,
                "radix_vector(P=%d, K=%d): %d factors (ceil(log_K P) = %d, %d prime factors), product %lld, "
                "a factor out of order or range: %d",
                P, Ks[i], r, j, nf, prod, bad);
        }
}

/* ------------------------------------------------------------ pairing */

#define MAXP 128

typedef struct {
    double t;
    int rank;
} event_t;

/* 2x2 matrices mod 2^64: associative, not commutative. */
static void mat_mul(const uint64_t *a, const uint64_t *b, uint64_t *c)
{
    uint64_t r[4] = {a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3], a[2] * b[0] + a[3] * b[2],
                     a[2] * b[1] + a[3] * b[3]};

    memcpy(c, r, sizeof(r));
}

/* A simulated run's state. */
typedef struct {
    int P, root, policy, pairs, done[MAXP], idle[MAXP], lo[MAXP], hi[MAXP], reported[MAXP], n;
    int held;                   /* a pairing waits for its sender's report (decided ahead) */
    papcoll__dyn_pair_t ahead;  /* that pairing */
    uint64_t m[MAXP][4], sum[MAXP], count[MAXP], ref[4], ref_sum;
    event_t ev[2 * MAXP];
    char what[96];
} sim_t;

static void push(sim_t *s, double t, int rank)
{
    s->ev[s->n].t = t;
    s->ev[s->n++].rank = rank;
}

/* The earliest pending READY (ties: the lowest index, i.e. the first queued). */
static int pop(sim_t *s)
{
    int i, best = 0, r;

    for (i = 1; i < s->n; i++)
        if (s->ev[i].t < s->ev[best].t)
            best = i;
    r = s->ev[best].rank;
    s->ev[best] = s->ev[--s->n];
    return r;
}

/* Checks one pairing and applies it to the values. */
static void apply(sim_t *s, const papcoll__dyn_pair_t *pr, double now)
{
    int a = pr->snd, b = pr->rcv;

    if (!check(a != b && a >= 0 && b >= 0 && a < s->P && b < s->P && !s->done[a] && !s->done[b] &&
                   s->idle[a] && s->idle[b] && a != s->root,
               "%s: pairing %d -> %d (done %d %d, idle %d %d)", s->what, a, b,
               a >= 0 && a < s->P ? s->done[a] : -1, b >= 0 && b < s->P ? s->done[b] : -1,
               a >= 0 && a < s->P ? s->idle[a] : -1, b >= 0 && b < s->P ? s->idle[b] : -1))
        return;
    if (s->policy == PAPCOLL__DYN_NEIGHBOUR) {
        check(pr->left ? s->hi[a] == s->lo[b] : s->hi[b] == s->lo[a],
              "%s: %d [%d,%d) joins %d [%d,%d) on the %s: not adjacent", s->what, a, s->lo[a], s->hi[a], b,
              s->lo[b], s->hi[b], pr->left ? "left" : "right");
        if (pr->left)
            mat_mul(s->m[a], s->m[b], s->m[b]), s->lo[b] = s->lo[a];
        else
            mat_mul(s->m[b], s->m[a], s->m[b]), s->hi[b] = s->hi[a];
    }
    s->sum[b] += s->sum[a];
    s->count[b] += s->count[a];
    s->done[a] = 1;
    s->idle[a] = s->idle[b] = 0;
    s->pairs++;
    check(pr->final == (s->pairs == s->P - 1), "%s: pairing %d flagged final %d", s->what, s->pairs,
          pr->final);
    if (!pr->final)
        push(s, now + rnd_unit(), b); /* combined: idle again */
}

/* A pairing from the coordinator: applied now, or, when its sender was
 * told before it reported (papcoll__dyn_last), once that one reports. */
static void take(sim_t *s, const papcoll__dyn_pair_t *pr, double now)
{
    s->held = !(s->idle[pr->snd] && s->idle[pr->rcv]);
    if (s->held) {
        check(pr->snd == s->ahead.snd || s->ahead.snd < 0, "%s: pairing %d -> %d with a busy rank", s->what,
              pr->snd, pr->rcv);
        s->ahead = *pr;
    } else {
        apply(s, pr, now);
    }
}

static long decided_ahead;       /* pairings decided before their sender reported, over all runs */

static void simulate(papcoll__dyn_t *c, int P, int root, int policy, int shape)
{
    sim_t *s = calloc(1, sizeof(*s));
    papcoll__dyn_pair_t pr;
    int r, q, i, late = root == P - 1 ? 0 : P - 1;
    double now;

    s->P = P, s->root = root, s->policy = policy, s->ahead.snd = -1;
    snprintf(s->what, sizeof(s->what), "%s P=%d root=%d arrivals %d", policy ? "neighbour" : "any", P, root,
             shape);
    s->ref[0] = s->ref[3] = 1;
    for (r = 0; r < P; r++) {
        for (i = 0; i < 4; i++)
            s->m[r][i] = rnd();
        mat_mul(s->ref, s->m[r], s->ref);
        s->sum[r] = rnd();
        s->ref_sum += s->sum[r];
        s->count[r] = 1, s->lo[r] = r, s->hi[r] = r + 1;
        /* 0 random, 1 with ties, 2 the root last, 3 the root first, 4 all at once, 5 an end rank
         * (late) late, after every other value reached the root */
        now = shape == 1 ? (double)(rnd() % 3) : shape == 4 ? 0 : shape == 5 && r == late ? 3.0 * P : rnd_unit();
        push(s, shape == 2 && r == root ? 2 : shape == 3 && r == root ? -1 : now, r);
    }
    papcoll__dyn_reset(c, (papcoll__dyn_policy_t)policy, root);
    while (s->n > 0 && P > 1) {
        now = s->ev[0].t;
        for (i = 1; i < s->n; i++)
            now = s->ev[i].t < now ? s->ev[i].t : now;
        q = pop(s);
        s->idle[q] = s->reported[q] = 1;
        if (papcoll__dyn_ready(c, q, &pr))
            take(s, &pr, now);
        else if (s->held && s->idle[s->ahead.snd] && s->idle[s->ahead.rcv])
            take(s, &s->ahead, now);
        if (papcoll__dyn_last(c, &pr)) { /* the coordinator orders the last rank now */
            check(pr.rcv == root && pr.final && pr.snd != root && !s->reported[pr.snd] && s->reported[root] &&
                      s->pairs == P - 2,
                  "%s: last pairing %d -> %d decided ahead (reported %d, %d pairings)", s->what, pr.snd, pr.rcv,
                  pr.snd >= 0 && pr.snd < P ? s->reported[pr.snd] : -1, s->pairs);
            decided_ahead++;
            if (s->idle[root] && papcoll__dyn_ready(c, root, &pr)) /* the root waited: it posts its receive */
                take(s, &pr, now);
        }
    }
    check(!papcoll__dyn_expects(c) && !s->held, "%s: READYs still expected at the end", s->what);
    check(shape != 5 || P < 2 || c->pre == late, "%s: the late rank was not ordered ahead (%d)", s->what,
          c->pre);
    check(s->pairs == P - (P > 0) && s->count[root] == (uint64_t)P && s->sum[root] == s->ref_sum,
          "%s: %d pairings, the root holds %llu contributions (sum %s)", s->what, s->pairs,
          (unsigned long long)s->count[root], s->sum[root] == s->ref_sum ? "right" : "wrong");
    if (policy == PAPCOLL__DYN_NEIGHBOUR)
        check(memcmp(s->m[root], s->ref, sizeof(s->ref)) == 0, "%s: the root's product is not in rank order",
              s->what);
    free(s);
}

static void test_pairing(void)
{
    static const int extra[] = {64, 100, MAXP};
    papcoll__dyn_t *c = malloc(papcoll__dyn_bytes(MAXP));
    int n, P, ri, policy, shape, trial, roots[3];

    for (n = 0; n < 40 + 3; n++) {
        P = n < 40 ? n + 1 : extra[n - 40];
        papcoll__dyn_layout(c, P);
        roots[0] = 0, roots[1] = P / 2, roots[2] = P - 1;
        for (policy = 0; policy < 2; policy++)
            for (ri = 0; ri < 3; ri++)
                for (shape = 0; shape < 6; shape++)
                    for (trial = 0; trial < (shape == 4 ? 1 : 20); trial++)
                        simulate(c, P, roots[ri], policy, shape);
    }
    check(decided_ahead > 500, "only %ld last pairings were decided ahead", decided_ahead);
    free(c);
}

/* Streamed Tree-dyn (papcoll__dyn_stream_ready): the non-roots report once,
 * in a random order; every non-root must get one FROM (first) and one TO,
 * the root one FROM and nothing else, a FROM must name the rank whose TO
 * names the receiver, the TO's must lead from the first reporter through
 * every non-root to the root (so each contribution reaches it once), in
 * report order.  From P = 3 on, the report before the last must end the
 * P - 1 pairings, ordering the last reporter ahead (its FROM and TO; no
 * order for a rank that has not reported, but for it; the root's FROM
 * marked late, and no other order), whose own report then gives none. */
static void stream_case(papcoll__dyn_t *c, int P, int root)
{
    int from[MAXP], to[MAXP], nfrom[MAXP] = {0}, nto[MAXP] = {0}, rep[MAXP], seen[MAXP] = {0};
    int i, j, k, n, q, r, visited = 0, ok = 1, early, done;
    papcoll__dyn_order_t o[PAPCOLL__DYN_MAXORD];

    for (n = 0, r = 0; r < P; r++)
        if (r != root)
            rep[n++] = r;
    for (i = n - 1; i > 0; i--) { /* a random report order */
        j = (int)(rnd() % (uint64_t)(i + 1));
        k = rep[i], rep[i] = rep[j], rep[j] = k;
    }
    papcoll__dyn_reset(c, PAPCOLL__DYN_ANY, root);
    for (i = 0; i < n; i++) {
        early = n >= 2 && i == n - 1; /* the rank ordered ahead */
        done = i >= n - 2 || n == 1;  /* every pairing made */
        k = papcoll__dyn_stream_ready(c, rep[i], o);
        ok &= check((early ? k == 0 : k >= 1 && k <= PAPCOLL__DYN_MAXORD) && c->pairs == (done ? n : i),
                    "stream P=%d root=%d: report %d gave %d orders, %d pairings", P, root, i, k, c->pairs);
        for (j = 0; j < k && ok; j++) {
            q = o[j].dst;
            for (r = i + 1; r < n; r++)
                ok &= check(q != rep[r] || (r == n - 1 && i == n - 2),
                            "stream P=%d root=%d: report %d orders %d, which has not reported", P, root, i, q);
            ok &= check(o[j].late == (q == root && n >= 2),
                        "stream P=%d root=%d: report %d: late %d in an order to %d", P, root, i, o[j].late, q);
            if (o[j].kind == PAPCOLL__DYN_FROM) {
                ok &= check(nfrom[q]++ == 0 && nto[q] == 0,
                            "stream P=%d: %d got a second FROM or one after TO", P, q);
                from[q] = o[j].peer;
            } else {
                ok &= check(o[j].kind == PAPCOLL__DYN_TO && q != root && nfrom[q] == 1 && nto[q]++ == 0,
                            "stream P=%d root=%d: bad TO to %d", P, root, q);
                to[q] = o[j].peer;
            }
        }
    }
    for (r = 0; r < P && ok; r++)
        ok &= check(nfrom[r] == 1 && nto[r] == (r != root), "stream P=%d root=%d: rank %d got %d FROM, %d TO",
                    P, root, r, nfrom[r], nto[r]);
    for (r = n > 0 ? rep[0] : root; ok && r != root && visited <= n; r = to[r]) {
        ok &= check(!seen[r] && rep[visited] == r && from[to[r]] == r,
                    "stream P=%d root=%d: the chain breaks at %d", P, root, r);
        seen[r] = 1, visited++;
    }
    check(!ok || (visited == n && (n == 0 || from[rep[0]] == -1)),
          "stream P=%d root=%d: %d of %d non-roots on the chain", P, root, visited, n);
}

static void test_stream(void)
{
    papcoll__dyn_t *c = malloc(papcoll__dyn_bytes(MAXP));
    static const int when[][3] = {{1, 100, 0}, {2, 1000, 0}, {3, 2, 0},    {3, 3, 1},
                                  {5, 2, 0},   {5, 3, 1},    {8, 3, 0},    {8, 4, 1},
                                  {9, 2, 0},   {9, 3, 1},    {128, 21, 0}, {128, 22, 1}};
    int P, trial, i;

    for (i = 0; i < (int)(sizeof(when) / sizeof(when[0])); i++)
        check(papcoll__dyn_streams(when[i][0], when[i][1]) == when[i][2], "streams(P=%d, S=%d) is not %d",
              when[i][0], when[i][1], when[i][2]);

    for (P = 2; P <= MAXP; P += P < 20 ? 1 : 27) {
        papcoll__dyn_layout(c, P);
        for (trial = 0; trial < 20; trial++)
            stream_case(c, P, trial % 3 == 0 ? 0 : trial % 3 == 1 ? P - 1 : (int)(rnd() % (uint64_t)P));
    }
    free(c);
}

/* ------------------------------------------------------------ segments */

static const papcoll__model_t seg_model = {.v = {50e-6, 8.33e-9, 0.025e-9}}; /* the emulated cluster's */

static void seg_is(int P, int bytes, int max, int want)
{
    int N = papcoll__model_segments(&seg_model, P, (size_t)bytes, bytes, max);

    check(N == want, "segments(P=%d, %d bytes, max %d) = %d, expected %d", P, bytes, max, N, want);
}

/* The round alpha, where the model has one, replaces alpha in N and d. */
static void test_round_alpha(void)
{
    papcoll__model_t r = {.v = {30e-6, 8e-9, 0, 8e-9, 75e-6}}, a = r;
    double d;

    a.v[PAPCOLL__M_RALPHA] = 0;
    check(papcoll__model_segments(&r, 8, 131072, 131072, 0) == 5,
          "segments with a round alpha of 75 us: %d, expected round(sqrt(2 * 2^17 * 8e-9 / 75e-6)) = 5",
          papcoll__model_segments(&r, 8, 131072, 131072, 0));
    check(papcoll__model_segments(&a, 8, 131072, 131072, 0) == 8,
          "segments without a round alpha: %d, expected alpha's round(sqrt(2 * 2^17 * 8e-9 / 30e-6)) = 8",
          papcoll__model_segments(&a, 8, 131072, 131072, 0));
    d = papcoll__model_round(&r, 1000);
    check(fabs(d - 83e-6) < 1e-12, "round time with a round alpha: %g, expected 75e-6 + 1000 * 8e-9", d);
    d = papcoll__model_round(&a, 1000);
    check(fabs(d - 38e-6) < 1e-12, "round time without a round alpha: %g, expected 30e-6 + 1000 * 8e-9", d);
}

static void test_segments(void)
{
    const papcoll__model_t m = seg_model;
    int P, N, cnt, max;

    seg_is(8, 131072, 0, 7);       /* sqrt(2 * 2^17 (beta + gamma) / alpha) */
    seg_is(8, 131072, 65472, 7);   /* 18.7 KB segments: under the cap */
    seg_is(8, 2097152, 0, 26);     /* 80.7 KB segments ... */
    seg_is(8, 2097152, 65472, 33); /* ... raised to 63.6 KB */
    seg_is(8, 4194304, 65472, 65); /* the model's 37 */
    seg_is(2, 4194304, 65472, 1);  /* no pipeline depth */
    check(papcoll__model_segments(&m, 8, 2097152, 20, 65472) == 20, "segments: not at most count 20");
    for (P = 3; P <= 64; P += 7)
        for (cnt = 1; cnt <= 1 << 22; cnt = cnt * 3 + 1)
            for (max = 1; max <= 1 << 20; max *= 5) {
                N = papcoll__model_segments(&m, P, (size_t)cnt * 4, cnt, max);
                check(N >= 1 && N <= cnt && (cnt - 1) / N + 1 <= max, "segments(P=%d, count %d, max %d) = %d",
                      P, cnt, max, N);
            }
}

static void test_density(void)
{
    const double nan = NAN;
    double x[8] = {0.30, nan, 0.12, 0, 1.5, -1, 0.01, nan}, one = 1;
    size_t mb = 1u << 20;
    int P, n;

    check(papcoll__model_density(x, 8, 1) == 5.0 / 16, "density of 0.30 is %g, not 5/16",
          papcoll__model_density(x, 8, 1));
    check(papcoll__model_density(x + 1, 3, 2) == 1, "density without a valid value is %g, not 1",
          papcoll__model_density(x + 1, 3, 2)); /* NaN, 0, -1 */
    check(papcoll__model_density(x + 6, 1, 1) == 1.0 / 16, "density of 0.01 is %g, not 1/16",
          papcoll__model_density(x + 6, 1, 1));
    check(papcoll__model_density(&one, 1, 1) == 1, "density of 1 is %g", papcoll__model_density(&one, 1, 1));
    check(papcoll__model_density(x, 0, 1) == 1, "density of nothing is not 1");
    n = papcoll__model_sparse_segments(&seg_model, 8, 8 * mb, 1, 65472);
    check(n == 129, "8 MiB dense: %d segments, expected 129", n);
    n = papcoll__model_sparse_segments(&seg_model, 8, 8 * mb, 0.25, 65472);
    check(n == papcoll__model_segments(&seg_model, 8, 8 * mb, (int)(8 * mb), 0) && n == 53,
          "8 MiB at density 1/4: %d segments, expected the model's 53 (the cap needs only 33)", n);
    n = papcoll__model_sparse_segments(&seg_model, 8, 8 * mb, 0.5, 65472);
    check(n == 65, "8 MiB at density 1/2: %d segments, expected 65 (the cap above the model's 53)", n);
    for (P = 2; P <= 64; P = P * 2 + 1)
        for (n = 1; n <= 16; n++) {
            size_t bytes = (size_t)n * 777777;

            check(papcoll__model_sparse_segments(&seg_model, P, bytes, 1, 65472) ==
                      papcoll__model_segments(&seg_model, P, bytes, (int)bytes, 65472),
                  "P %d, %zu bytes: density 1 is not the dense count", P, bytes);
            check(papcoll__model_sparse_segments(&seg_model, P, bytes, 1.0 / 16, 65472) <=
                      papcoll__model_sparse_segments(&seg_model, P, bytes, 1, 65472),
                  "P %d, %zu bytes: sparser data, more segments", P, bytes);
        }
}

/* ------------------------------------------------------------ naps */

static void test_naps(void)
{
    static const double cases[][3] = { /* cpu, wall, naps when oversubscribed */
        {0.060, 0.229, 1}, /* the PIC's push and render, 8 ranks on 2 cores */
        {0.0047, 0.119, 0}, /* papbench: 100 ms of sleep and a barrier */
        {0.0101, 0.100, 1}, /* just above a tenth */
        {0.0099, 0.100, 0}, /* just below */
        {1.0, 1.0, 1},
        {0, 0, 1},          /* no time between two calls: nothing says they sleep */
        {NAN, NAN, 1},      /* the first call */
        {0.5, NAN, 1},
    };
    static const double phases[][4] = { /* now, spin_end, nap_end, naps */
        {10.0005, 10.001, 10.020, 0}, /* a foreground wait's first millisecond: yields */
        {10.002, 10.001, 10.020, 1},  /* then naps */
        {10.020, 10.001, 10.020, 0},  /* from the latest predicted arrival on: yields again */
        {10.030, 10.001, 10.020, 0},
        {10.0005, 10.001, 10.0008, 0}, /* the last arrival predicted inside the first millisecond: never naps */
        {10.002, 10.001, 10.0008, 0},
        {10.0, -INFINITY, 10.020, 1},  /* Clairvoyant's waits: no yielding phase */
        {10.0, -INFINITY, -INFINITY, 0}, /* a call that does not nap */
        {1e9, 10.001, INFINITY, 1},    /* no estimate: naps to the end */
    };
    size_t i;

    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        check(papcoll__fg_naps(1, cases[i][0], cases[i][1]) == (int)cases[i][2],
              "oversubscribed, cpu %g s in %g s: naps %d, expected %d", cases[i][0], cases[i][1],
              papcoll__fg_naps(1, cases[i][0], cases[i][1]), (int)cases[i][2]);
        check(!papcoll__fg_naps(0, cases[i][0], cases[i][1]), "not oversubscribed, cpu %g s in %g s: naps",
              cases[i][0], cases[i][1]);
    }
    for (i = 0; i < sizeof(phases) / sizeof(phases[0]); i++)
        check(papcoll__pace_naps(phases[i][0], phases[i][1], phases[i][2]) == (int)phases[i][3],
              "at %g, yielding until %g, naps until %g: naps %d, expected %d", phases[i][0], phases[i][1],
              phases[i][2], papcoll__pace_naps(phases[i][0], phases[i][1], phases[i][2]), (int)phases[i][3]);
}

int main(void)
{
    unit_name = "test_reduce";
    test_radix();
    test_pairing();
    test_stream();
    test_segments();
    test_round_alpha();
    test_density();
    test_naps();
    return unit_summary();
}
