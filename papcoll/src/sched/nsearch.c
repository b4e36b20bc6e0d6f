/*
 * Online choice of Clairvoyant's segment count (nsearch.h).
 */
#include <math.h>
#include <string.h>

#include "sched/nsearch.h"

void papcoll__ns_key(papcoll__nsearch_t *s, int model, int least)
{
    int c, nx;

    if (s->nc > 0 && s->model == model && s->least == least)
        return;
    memset(s, 0, sizeof(*s));
    s->model = model;
    s->least = least < 1 ? 1 : least > model ? model : least;
    s->cand[s->nc++] = c = model;
    while (s->nc < PAPCOLL__NS_MAXC) {
        nx = (int)((long long)c * 2 / 3);
        nx = nx < s->least ? s->least : nx;
        if (nx >= c)
            break;
        s->cand[s->nc++] = c = nx;
    }
    s->explorations = 1;
}

double papcoll__ns_median(const papcoll__nsearch_t *s, int k)
{
    double v[PAPCOLL__NS_WIN], x;
    int n = s->nt[k], i, j;

    if (n == 0)
        return NAN;
    memcpy(v, s->t[k], (size_t)n * sizeof *v);
    for (i = 1; i < n; i++) /* insertion sort: at most PAPCOLL__NS_WIN values */
        for (j = i; j > 0 && v[j - 1] > v[j]; j--)
            x = v[j], v[j] = v[j - 1], v[j - 1] = x;
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* The candidate with the smallest median tail; ties and no tails: the earlier (larger N). */
static int best(const papcoll__nsearch_t *s)
{
    int k, b = 0;
    double m, bm = NAN;

    for (k = 0; k < s->nc; k++) {
        m = papcoll__ns_median(s, k);
        if (!isnan(m) && (isnan(bm) || m < bm)) {
            bm = m;
            b = k;
        }
    }
    return b;
}

int papcoll__ns_next(papcoll__nsearch_t *s, int *exploring)
{
    int explore = s->nc * PAPCOLL__NS_EXPLORE, k;

    if (s->nc <= 1) {
        if (exploring != NULL)
            *exploring = 0;
        return s->nc == 1 ? s->cand[0] : 1;
    }
    if (s->step >= explore + PAPCOLL__NS_PERIOD) { /* explore again, from fresh windows */
        s->step = 0;
        s->explorations++;
        memset(s->nt, 0, sizeof s->nt);
        memset(s->pos, 0, sizeof s->pos);
    }
    k = s->step < explore ? s->step % s->nc : best(s);
    if (exploring != NULL)
        *exploring = s->step < explore;
    s->step++;
    return s->cand[k];
}

void papcoll__ns_observe(papcoll__nsearch_t *s, int N, double tail)
{
    int k;

    for (k = 0; k < s->nc && s->cand[k] != N; k++)
        ;
    if (k == s->nc || !isfinite(tail) || tail < 0)
        return;
    s->t[k][s->pos[k]] = tail;
    s->pos[k] = (s->pos[k] + 1) % PAPCOLL__NS_WIN;
    if (s->nt[k] < PAPCOLL__NS_WIN)
        s->nt[k]++;
}
