/*
 * Validity checker of Clairvoyant schedules (any schedule, not only ours).
 *
 * Pass 1 walks the transfers in order: fields in range, sorted by (round,
 * receiver) (which also rules out two receives per round), one send per rank
 * and round, no send of a segment received in the same round, nobody before
 * its earliest round rho_i (clairvoyant.h).  Pass 2 replays the data flow one
 * segment at a time: every rank starts with the set {itself}; within a round
 * all sends leave first (a sender hands over its whole set and keeps
 * nothing), then receivers take the union.  Sending an empty set is an error
 * (the executor would send stale data: a contribution counted twice); at the
 * end the root must hold every rank.  Since sets only move, nothing can be
 * counted twice otherwise.  Cost O(n + N P^2 / 64) time, O(P^2 / 32) words.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/clairvoyant.h"

typedef struct {
    const papcoll__cv_sched_t *s;
    char *why;
    size_t len;
    int *rho;                /* earliest round of each rank */
    int *sent_round;         /* last round each rank sent in */
    int *recv_round, *rseg;  /* last round each rank received in, and what */
    int *by_seg, *seg_start; /* transfer indices bucketed by segment */
    uint64_t *set, *tmp;     /* P sets of PW words; one temporary per transfer of a round */
    int PW;
} check_t;

__attribute__((format(printf, 3, 4))) static int fail(check_t *c, int code, const char *fmt, ...)
{
    va_list ap;

    if (c->why != NULL && c->len > 0) {
        va_start(ap, fmt);
        vsnprintf(c->why, c->len, fmt, ap);
        va_end(ap);
    }
    return code;
}

static int check_header(check_t *c)
{
    const papcoll__cv_sched_t *s = c->s;

    if (s->P < 1 || s->N < 1 || s->root < 0 || s->root >= s->P || !(s->d > 0.0) || s->n < 0 ||
        (s->n > 0 && s->x == NULL))
        return fail(c, PAPCOLL__CV_BAD_HEADER, "bad header: P=%d N=%d root=%d d=%g n=%d", s->P, s->N, s->root,
                    s->d, s->n);
    if (s->rounds != (s->n > 0 ? s->x[s->n - 1].round + 1 : 0))
        return fail(c, PAPCOLL__CV_BAD_HEADER, "rounds=%d but the last transfer is in round %d", s->rounds,
                    s->n > 0 ? s->x[s->n - 1].round : -1);
    return 0;
}

/* rho_i = k_i - 1 if a rank j with k_j < k_i has f_j >= f_i, else k_i. */
static void earliest_rounds(check_t *c, const double *pat, int *k, double *f, double *x, int *order)
{
    const int P = c->s->P;
    double fmax = -1.0, group = -1.0;
    int t, i;

    papcoll__cv_split_times(P, c->s->d, pat, k, f, x);
    papcoll__cv_sort(P, x, order, c->rho);
    for (t = 0; t < P; t++) {
        i = order[t];
        if (t > 0 && k[i] != k[order[t - 1]]) {
            fmax = group > fmax ? group : fmax;
            group = -1.0;
        }
        group = f[i] > group ? f[i] : group;
        c->rho[i] = fmax >= f[i] ? k[i] - 1 : k[i];
    }
}

static int check_xfer(check_t *c, int t)
{
    const papcoll__cv_sched_t *s = c->s;
    const papcoll__cv_xfer_t *x = &s->x[t], *prev = t > 0 ? &s->x[t - 1] : NULL;

    if (x->round < 0 || x->sender < 0 || x->sender >= s->P || x->receiver < 0 || x->receiver >= s->P ||
        x->segment < 0 || x->segment >= s->N || x->sender == x->receiver)
        return fail(c, PAPCOLL__CV_BAD_FIELD, "transfer %d (round %d: %d -> %d, segment %d) out of range", t,
                    x->round, x->sender, x->receiver, x->segment);
    if (prev != NULL && prev->round == x->round && prev->receiver == x->receiver)
        return fail(c, PAPCOLL__CV_BAD_RECV_TWICE, "rank %d receives twice in round %d", x->receiver,
                    x->round);
    if (prev != NULL && (prev->round > x->round || (prev->round == x->round && prev->receiver > x->receiver)))
        return fail(c, PAPCOLL__CV_BAD_ORDER,
                    "transfer %d (round %d, receiver %d) after round %d, receiver %d", t, x->round,
                    x->receiver, prev->round, prev->receiver);
    if (c->sent_round[x->sender] == x->round)
        return fail(c, PAPCOLL__CV_BAD_SEND_TWICE, "rank %d sends twice in round %d", x->sender, x->round);
    c->sent_round[x->sender] = x->round;
    if (x->round < c->rho[x->sender] || x->round < c->rho[x->receiver])
        return fail(c, PAPCOLL__CV_BAD_EARLY, "round %d: %d -> %d, but rank %d arrives for round %d",
                    x->round, x->sender, x->receiver, x->round < c->rho[x->sender] ? x->sender : x->receiver,
                    x->round < c->rho[x->sender] ? c->rho[x->sender] : c->rho[x->receiver]);
    return 0;
}

/* Pass 1: the per-round rules, one round at a time (receivers first, so a
 * receive later in the round's list still counts). */
static int pass_rounds(check_t *c)
{
    const papcoll__cv_sched_t *s = c->s;
    int lo, hi, t, rc;

    for (lo = 0; lo < s->n; lo = hi) {
        for (hi = lo; hi < s->n && s->x[hi].round == s->x[lo].round; hi++)
            if ((rc = check_xfer(c, hi)) != 0)
                return rc;
        for (t = lo; t < hi; t++) {
            c->recv_round[s->x[t].receiver] = s->x[t].round;
            c->rseg[s->x[t].receiver] = s->x[t].segment;
        }
        for (t = lo; t < hi; t++)
            if (c->recv_round[s->x[t].sender] == s->x[t].round && c->rseg[s->x[t].sender] == s->x[t].segment)
                return fail(c, PAPCOLL__CV_BAD_FORWARD,
                            "rank %d forwards segment %d in round %d, when it arrived", s->x[t].sender,
                            s->x[t].segment, s->x[t].round);
    }
    return 0;
}

/* Pass 2 for segment j: its transfers are by_seg[seg_start[j] ..]. */
static int replay_segment(check_t *c, int j)
{
    const papcoll__cv_sched_t *s = c->s;
    const int PW = c->PW, end = c->seg_start[j + 1];
    const papcoll__cv_xfer_t *x;
    uint64_t *from, *to, *tmp, any;
    int lo, hi, t, w, r;

    memset(c->set, 0, (size_t)s->P * PW * sizeof(uint64_t));
    for (r = 0; r < s->P; r++)
        c->set[(size_t)r * PW + r / 64] = 1ull << (r % 64);
    for (lo = c->seg_start[j]; lo < end; lo = hi) {
        for (hi = lo; hi < end && s->x[c->by_seg[hi]].round == s->x[c->by_seg[lo]].round; hi++) {
            x = &s->x[c->by_seg[hi]];
            from = c->set + (size_t)x->sender * PW;
            tmp = c->tmp + (size_t)(hi - lo) * PW;
            for (any = 0, w = 0; w < PW; w++)
                any |= tmp[w] = from[w];
            if (!any)
                return fail(c, PAPCOLL__CV_BAD_EMPTY,
                            "round %d: rank %d sends segment %d, which it no longer holds", x->round,
                            x->sender, j);
            memset(from, 0, (size_t)PW * sizeof(uint64_t));
        }
        for (t = lo; t < hi; t++) {
            to = c->set + (size_t)s->x[c->by_seg[t]].receiver * PW;
            for (w = 0; w < PW; w++)
                to[w] |= c->tmp[(size_t)(t - lo) * PW + w];
        }
    }
    for (r = 0; r < s->P; r++)
        if (!(c->set[(size_t)s->root * PW + r / 64] >> (r % 64) & 1))
            return fail(c, PAPCOLL__CV_BAD_MISSING,
                        "the contribution of rank %d to segment %d never reaches root %d", r, j, s->root);
    return 0;
}

static int pass_segments(check_t *c)
{
    const papcoll__cv_sched_t *s = c->s;
    int j, rc;

    papcoll__cv_by_segment(s, c->by_seg, c->seg_start);
    for (j = 0; j < s->N; j++)
        if ((rc = replay_segment(c, j)) != 0)
            return rc;
    return 0;
}

int papcoll__cv_check(const papcoll__cv_sched_t *s, const double *pat, char *why, size_t len)
{
    check_t c = {.s = s, .why = why, .len = len};
    void *scratch = NULL;
    int rc, P;

    if (why != NULL && len > 0)
        why[0] = '\0';
    if (s == NULL)
        return PAPCOLL__CV_BAD_HEADER;
    if ((rc = check_header(&c)) != 0)
        return rc;
    P = s->P;
    c.PW = (P + 63) / 64;
    c.rho = malloc((size_t)P * sizeof(int));
    c.sent_round = malloc((size_t)P * sizeof(int));
    c.recv_round = malloc((size_t)P * sizeof(int));
    c.rseg = malloc((size_t)P * sizeof(int));
    c.by_seg = malloc(((size_t)s->n + 1) * sizeof(int));
    c.seg_start = calloc((size_t)s->N + 1, sizeof(int));
    c.set = malloc((size_t)P * c.PW * sizeof(uint64_t));
    c.tmp = malloc((size_t)P * c.PW * sizeof(uint64_t));
    scratch = malloc((size_t)P * (2 * sizeof(int) + 2 * sizeof(double)));
    if (!c.rho || !c.sent_round || !c.recv_round || !c.rseg || !c.by_seg || !c.seg_start || !c.set ||
        !c.tmp || !scratch) {
        rc = fail(&c, PAPCOLL__CV_BAD_NOMEM, "out of memory");
        goto out;
    }
    if (papcoll__cv_input_check(P, s->N, s->d, s->root, pat, why, len) != 0) {
        rc = PAPCOLL__CV_BAD_HEADER;
        goto out;
    }
    earliest_rounds(&c, pat, (int *)scratch, (double *)((int *)scratch + 2 * P),
                    (double *)((int *)scratch + 2 * P) + P, (int *)scratch + P);
    memset(c.sent_round, 0xff, (size_t)P * sizeof(int));
    memset(c.recv_round, 0xff, (size_t)P * sizeof(int));
    if ((rc = pass_rounds(&c)) == 0)
        rc = pass_segments(&c);
out:
    free(c.rho);
    free(c.sent_round);
    free(c.recv_round);
    free(c.rseg);
    free(c.by_seg);
    free(c.seg_start);
    free(c.set);
    free(c.tmp);
    free(scratch);
    return rc;
}
