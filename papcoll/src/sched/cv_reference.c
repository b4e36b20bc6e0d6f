/*
 * Clairvoyant schedule, reference generator: Listing 2 of Proficz &
 * Ocetkiewicz 2020 (Marendic 2016, Algorithm 1, with the fixes of Sect. 4),
 * kept close to the pseudocode on purpose; the fast generator (cv_fast.c)
 * must reproduce it byte for byte.
 *
 *   Q   binary heap of ranks by (time, rank), time = (k, f) (clairvoyant.h)
 *   M   state per (process, segment): A available, P partial, E sent;
 *       pprime[p] is the segment p received in this step (state P', 4.2)
 *   S   sent[p]: p has sent in this step
 *
 * Like the pseudocode it walks every idle round (G of one process) and scans
 * G linearly for each peer: O(R_sum * N * |G|) time, P * N bytes of state.
 * The sink's P' mask of Sect. 5.4.2 is not needed here: the sink is first
 * in G, so it has received nothing yet when it searches.
 */
#include <stdlib.h>
#include <string.h>

#include "papcoll.h"
#include "sched/clairvoyant.h"

enum { ST_A = 'A', ST_P = 'P', ST_E = 'E' };

typedef struct {
    int P, N, root;
    int *k; /* time of p: (k[p], f[p]) */
    double *f;
    int *heap, hn; /* Q */
    int *G, g;     /* this step's group, sink first */
    char *M;       /* P * N states */
    int *pprime;   /* segment in state P' per process, -1: none */
    unsigned char *sent;
} ref_t;

/* Q's order: earlier time first, ties by rank (Sect. 4.4). */
static int before(const ref_t *w, int a, int b)
{
    if (w->k[a] != w->k[b])
        return w->k[a] < w->k[b];
    if (w->f[a] != w->f[b])
        return w->f[a] < w->f[b];
    return a < b;
}

static void heap_push(ref_t *w, int p)
{
    int i = w->hn++, up;

    while (i > 0 && before(w, p, w->heap[up = (i - 1) / 2])) {
        w->heap[i] = w->heap[up];
        i = up;
    }
    w->heap[i] = p;
}

static int heap_pop(ref_t *w)
{
    int top = w->heap[0], last = w->heap[--w->hn], i = 0, c;

    while ((c = 2 * i + 1) < w->hn) {
        if (c + 1 < w->hn && before(w, w->heap[c + 1], w->heap[c]))
            c++;
        if (!before(w, w->heap[c], last))
            break;
        w->heap[i] = w->heap[c];
        i = c;
    }
    if (w->hn > 0)
        w->heap[i] = last;
    return top;
}

/* q's time <= h's time + d (Listing 2, line 5). */
static int within(const ref_t *w, int q, int h)
{
    return w->k[q] < w->k[h] + 1 || (w->k[q] == w->k[h] + 1 && w->f[q] <= w->f[h]);
}

/* Lines 5-11: pop G, reset S and P', move the root to the front; returns
 * the first popped process (Q_0), whose k is the round. */
static int form_group(ref_t *w)
{
    int head = heap_pop(w), t;

    w->g = 0;
    w->G[w->g++] = head;
    while (w->hn > 0 && within(w, w->heap[0], head))
        w->G[w->g++] = heap_pop(w);
    for (t = 0; t < w->g; t++) {
        w->sent[w->G[t]] = 0;
        w->pprime[w->G[t]] = -1;
        if (w->G[t] == w->root && t > 0) {
            memmove(w->G + 1, w->G, (size_t)t * sizeof(*w->G));
            w->G[0] = w->root;
        }
    }
    return head;
}

/* Line 26: the first z != i in G holding j in state A or P (not P'), unsent. */
static int find_peer(const ref_t *w, int i, int j)
{
    int t, z;

    for (t = 0; t < w->g; t++) {
        z = w->G[t];
        if (z != i && !w->sent[z] && w->M[(size_t)z * w->N + j] != ST_E && w->pprime[z] != j)
            return z;
    }
    return -1;
}

/* Lines 13-37 for member i; sink: i may receive any segment. */
static int serve(ref_t *w, papcoll__cv_sched_t *s, int *cap, int round, int i, int sink)
{
    const char *Mi = w->M + (size_t)i * w->N;
    int j = 0, z = -1, x;

    while (z < 0 && j < w->N) {
        for (x = j; x < w->N && !(i == sink || Mi[x] != ST_E); x++)
            ;
        j = x;
        if (j < w->N)
            z = find_peer(w, i, j);
        if (z < 0)
            j++;
    }
    if (z < 0)
        return 0;
    w->sent[z] = 1;
    w->M[(size_t)z * w->N + j] = ST_E;
    w->M[(size_t)i * w->N + j] = ST_P;
    w->pprime[i] = j;
    return papcoll__cv_push(s, cap, round, z, i, j);
}

static int holds_data(const ref_t *w, int p)
{
    int j;

    for (j = 0; j < w->N; j++)
        if (w->M[(size_t)p * w->N + j] != ST_E)
            return 1;
    return 0;
}

static int cmp_xfer(const void *pa, const void *pb)
{
    const papcoll__cv_xfer_t *a = pa, *b = pb;

    if (a->round != b->round)
        return a->round < b->round ? -1 : 1;
    return (a->receiver > b->receiver) - (a->receiver < b->receiver);
}

static int run(ref_t *w, papcoll__cv_sched_t *s)
{
    int cap = 0, t, p, round, rc;

    for (p = 0; p < w->P; p++)
        heap_push(w, p);
    while (w->hn > 1) {
        round = w->k[form_group(w)];
        for (t = 0; t < w->g; t++)
            if ((rc = serve(w, s, &cap, round, w->G[t], w->G[0])) != 0)
                return rc;
        for (t = 0; t < w->g; t++) {
            p = w->G[t];
            if (holds_data(w, p)) {
                w->k[p]++;
                heap_push(w, p);
            }
        }
    }
    if (s->n > 0)
        qsort(s->x, (size_t)s->n, sizeof(*s->x), cmp_xfer);
    s->rounds = s->n > 0 ? s->x[s->n - 1].round + 1 : 0;
    return 0;
}

int papcoll__cv_reference(int P, int N, double d, int root, const double *pat, papcoll__cv_sched_t *out)
{
    ref_t w;
    int rc;

    papcoll__cv_init(out, P, N, d, root);
    if (papcoll__cv_input_check(P, N, d, root, pat, NULL, 0) != 0)
        return PAPCOLL_ERR_INVAL;
    memset(&w, 0, sizeof(w));
    w.P = P;
    w.N = N;
    w.root = root;
    w.k = malloc((size_t)P * sizeof(*w.k));
    w.f = malloc((size_t)P * sizeof(*w.f));
    w.heap = malloc((size_t)P * sizeof(*w.heap));
    w.G = malloc((size_t)P * sizeof(*w.G));
    w.pprime = malloc((size_t)P * sizeof(*w.pprime));
    w.sent = malloc((size_t)P);
    w.M = malloc((size_t)P * N);
    rc = PAPCOLL_ERR_NOMEM;
    if (!w.k || !w.f || !w.heap || !w.G || !w.pprime || !w.sent || !w.M)
        goto fail;
    memset(w.M, ST_A, (size_t)P * N);
    papcoll__cv_split_times(P, d, pat, w.k, w.f, NULL);
    rc = run(&w, out);
fail:
    if (rc != 0)
        papcoll__cv_free(out);
    free(w.k);
    free(w.f);
    free(w.heap);
    free(w.G);
    free(w.pprime);
    free(w.sent);
    free(w.M);
    return rc;
}
