/*
 * Serial unit test of arrival-driven pairing (papcoll/src/sched/dyn.h, the
 * rules of reduce treedyn and noncommut_treedyn).  No MPI: an event
 * simulation plays every rank, and the coordinator that reduce/engine_dyn.c
 * runs over MPI.
 *
 *   pairing   papcoll__dyn_ready and papcoll__dyn_last, both policies, for
 *             P = 1..40, 64, 100 and 128 (so the awkward 1, 2, 3, 5, 7, 8,
 *             13, 64), roots 0, P / 2 and P - 1, arrivals random, with ties,
 *             the root last, the root first, all at once and an end rank
 *             late; a rank reports when it arrives and again after a random
 *             combine time.  Every pairing joins two idle ranks that still
 *             hold a value; the root never sends; the two values hold
 *             disjoint sets of ranks' contributions (none combined twice);
 *             NEIGHBOUR joins adjacent ranges on the right side, so every
 *             value stays one contiguous range and the root's result is the
 *             rank-order product of random 2x2 matrices; exactly P - 1
 *             pairings, the last flagged final and received by the root,
 *             whose value then holds every rank's contribution; no report
 *             expected after it.  The last pairing decided before its
 *             sender reports (papcoll__dyn_last) names a rank that has not
 *             reported and the root, after P - 2 pairings and the root's
 *             report, and always happens for the late end rank.
 *   stream    papcoll__dyn_streams (P = 8 from 4 segments, never at P <= 2)
 *             and papcoll__dyn_stream_ready for P = 2..128, random report
 *             orders and roots: one FROM then one TO per non-root, one FROM
 *             for the root; the TOs chain every non-root in report order to
 *             the root (each contribution reaches it once); from P = 3 the
 *             report before the last orders the last reporter ahead (the
 *             root's FROM marked late), whose own report gives no order.
 * Exit status 1 when anything failed.
 */
#include <stdlib.h>
#include <string.h>

#include "sched/dyn.h"
#include "unit.h"

#define MAXP 128
#define WORDS (MAXP / 64)

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

/* A simulated run's state: each rank's value is the set of ranks it
 * combines (has), their range [lo, hi) and their matrix product. */
typedef struct {
    int P, root, policy, pairs, done[MAXP], idle[MAXP], lo[MAXP], hi[MAXP], reported[MAXP], n;
    int held;                  /* a pairing waits for its sender's report (decided ahead) */
    papcoll__dyn_pair_t ahead; /* that pairing */
    uint64_t has[MAXP][WORDS], m[MAXP][4], ref[4];
    event_t ev[2 * MAXP];
    char what[96];
} sim_t;

static void push(sim_t *s, double t, int rank)
{
    s->ev[s->n].t = t;
    s->ev[s->n++].rank = rank;
}

/* The earliest pending report (ties: the lowest index, i.e. the first queued). */
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
    int a = pr->snd, b = pr->rcv, w, overlap = 0;

    if (!check(a != b && a >= 0 && b >= 0 && a < s->P && b < s->P && !s->done[a] && !s->done[b] &&
                   s->idle[a] && s->idle[b] && a != s->root,
               "%s: pairing %d -> %d (done %d %d, idle %d %d)", s->what, a, b,
               a >= 0 && a < s->P ? s->done[a] : -1, b >= 0 && b < s->P ? s->done[b] : -1,
               a >= 0 && a < s->P ? s->idle[a] : -1, b >= 0 && b < s->P ? s->idle[b] : -1))
        return;
    for (w = 0; w < WORDS; w++) {
        overlap |= (s->has[a][w] & s->has[b][w]) != 0;
        s->has[b][w] |= s->has[a][w];
    }
    check(!overlap, "%s: pairing %d -> %d combines a contribution twice", s->what, a, b);
    if (s->policy == PAPCOLL__DYN_NEIGHBOUR) {
        check(pr->left ? s->hi[a] == s->lo[b] : s->hi[b] == s->lo[a],
              "%s: %d [%d,%d) joins %d [%d,%d) on the %s: not adjacent", s->what, a, s->lo[a], s->hi[a], b,
              s->lo[b], s->hi[b], pr->left ? "left" : "right");
        if (pr->left)
            mat_mul(s->m[a], s->m[b], s->m[b]), s->lo[b] = s->lo[a];
        else
            mat_mul(s->m[b], s->m[a], s->m[b]), s->hi[b] = s->hi[a];
    }
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

static long decided_ahead; /* pairings decided before their sender reported, over all runs */

/* Arrival of rank r: 0 random, 1 with ties, 2 the root last, 3 the root
 * first, 4 all at once, 5 an end rank (late) after every other value
 * reached the root. */
static double arrival(int shape, int r, int root, int late, int P)
{
    if (shape == 2 && r == root)
        return 2;
    if (shape == 3 && r == root)
        return -1;
    if (shape == 5 && r == late)
        return 3.0 * P;
    return shape == 1 ? (double)(rnd() % 3) : shape == 4 ? 0 : rnd_unit();
}

/* Checks the end of a run: every contribution at the root, once. */
static void check_end(const sim_t *s, const papcoll__dyn_t *c, int shape, int late)
{
    int r, all = 1;

    for (r = 0; r < s->P; r++)
        all &= (s->has[s->root][r / 64] >> (r % 64)) & 1;
    check(!papcoll__dyn_expects(c) && !s->held, "%s: reports still expected at the end", s->what);
    check(shape != 5 || s->P < 2 || c->pre == late, "%s: the late rank was not ordered ahead (%d)", s->what,
          c->pre);
    check(s->pairs == s->P - 1 && all, "%s: %d pairings, the root %s every contribution", s->what, s->pairs,
          all ? "holds" : "misses");
    if (s->policy == PAPCOLL__DYN_NEIGHBOUR)
        check(memcmp(s->m[s->root], s->ref, sizeof(s->ref)) == 0 && s->lo[s->root] == 0 &&
                  s->hi[s->root] == s->P,
              "%s: the root's product is not in rank order", s->what);
}

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
        s->has[r][r / 64] = 1ull << (r % 64);
        s->lo[r] = r, s->hi[r] = r + 1;
        push(s, arrival(shape, r, root, late, P), r);
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
    check_end(s, c, shape, late);
    free(s);
}

static void test_pairing(papcoll__dyn_t *c, int *ints)
{
    static const int extra[] = {64, 100, MAXP};
    int n, P, ri, policy, shape, trial, roots[3];

    for (n = 0; n < 40 + 3; n++) {
        P = n < 40 ? n + 1 : extra[n - 40];
        papcoll__dyn_init(c, P, ints);
        roots[0] = 0, roots[1] = P / 2, roots[2] = P - 1;
        for (policy = 0; policy < 2; policy++)
            for (ri = 0; ri < 3; ri++)
                for (shape = 0; shape < 6; shape++)
                    for (trial = 0; trial < (shape == 4 ? 1 : 20); trial++)
                        simulate(c, P, roots[ri], policy, shape);
    }
    check(decided_ahead > 500, "only %ld last pairings were decided ahead", decided_ahead);
}

/* Checks the orders of report i (of n non-roots, reported in rep[]). */
static int stream_orders(const papcoll__dyn_order_t *o, int k, int i, int n, const int *rep, int P, int root,
                         int *from, int *to, int *nfrom, int *nto)
{
    int j, r, q, ok = 1;

    for (j = 0; j < k && ok; j++) {
        q = o[j].dst;
        for (r = i + 1; r < n; r++)
            ok &= check(q != rep[r] || (r == n - 1 && i == n - 2),
                        "stream P=%d root=%d: report %d orders %d, which has not reported", P, root, i, q);
        ok &= check(o[j].late == (q == root && n >= 2), "stream P=%d root=%d: report %d: late %d in an order to %d",
                    P, root, i, o[j].late, q);
        if (o[j].kind == PAPCOLL__DYN_FROM) {
            ok &= check(nfrom[q]++ == 0 && nto[q] == 0, "stream P=%d: %d got a second FROM or one after TO", P,
                        q);
            from[q] = o[j].peer;
        } else {
            ok &= check(o[j].kind == PAPCOLL__DYN_TO && q != root && nfrom[q] == 1 && nto[q]++ == 0,
                        "stream P=%d root=%d: bad TO to %d", P, root, q);
            to[q] = o[j].peer;
        }
    }
    return ok;
}

static void stream_case(papcoll__dyn_t *c, int P, int root)
{
    int from[MAXP], to[MAXP], nfrom[MAXP] = {0}, nto[MAXP] = {0}, rep[MAXP], seen[MAXP] = {0};
    int i, j, k, n, r, visited = 0, ok = 1, early, done;
    papcoll__dyn_order_t o[PAPCOLL__DYN_MAXORD];

    for (n = 0, r = 0; r < P; r++)
        if (r != root)
            rep[n++] = r;
    for (i = n - 1; i > 0; i--) { /* a random report order */
        j = (int)(rnd() % (uint64_t)(i + 1));
        k = rep[i], rep[i] = rep[j], rep[j] = k;
    }
    papcoll__dyn_reset(c, PAPCOLL__DYN_ANY, root);
    for (i = 0; i < n && ok; i++) {
        early = n >= 2 && i == n - 1; /* the rank ordered ahead */
        done = i >= n - 2 || n == 1;  /* every pairing made */
        k = papcoll__dyn_stream_ready(c, rep[i], o);
        ok &= check((early ? k == 0 : k >= 1 && k <= PAPCOLL__DYN_MAXORD) && c->pairs == (done ? n : i),
                    "stream P=%d root=%d: report %d gave %d orders, %d pairings", P, root, i, k, c->pairs);
        ok &= stream_orders(o, k, i, n, rep, P, root, from, to, nfrom, nto);
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

static void test_stream(papcoll__dyn_t *c, int *ints)
{
    static const int when[][3] = {{1, 100, 0}, {2, 1000, 0}, {3, 2, 0},    {3, 3, 1},
                                  {5, 2, 0},   {5, 3, 1},    {8, 3, 0},    {8, 4, 1},
                                  {9, 2, 0},   {9, 3, 1},    {128, 21, 0}, {128, 22, 1}};
    int P, trial, i;

    for (i = 0; i < (int)(sizeof(when) / sizeof(when[0])); i++)
        check(papcoll__dyn_streams(when[i][0], when[i][1]) == when[i][2], "streams(P=%d, S=%d) is not %d",
              when[i][0], when[i][1], when[i][2]);
    for (P = 2; P <= MAXP; P += P < 20 ? 1 : 27) {
        papcoll__dyn_init(c, P, ints);
        for (trial = 0; trial < 20; trial++)
            stream_case(c, P, trial % 3 == 0 ? 0 : trial % 3 == 1 ? P - 1 : (int)(rnd() % (uint64_t)P));
    }
}

int main(void)
{
    papcoll__dyn_t c;
    int *ints = malloc(PAPCOLL__DYN_INTS(MAXP) * sizeof(int));

    unit_name = "test_dyn";
    if (ints == NULL) {
        printf("FAIL test_dyn: out of memory\n");
        return 1;
    }
    test_pairing(&c, ints);
    test_stream(&c, ints);
    free(ints);
    return unit_summary();
}
