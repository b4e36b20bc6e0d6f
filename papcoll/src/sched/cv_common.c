/*
 * Pieces shared by the Clairvoyant generators and the checker: input
 * validation, the exact split of arrival times into (k, f), a stable sort of
 * ranks by time, the growing transfer array, per-rank indices and the
 * transfers bucketed by segment (the checker, the bounce elision).
 */
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "papcoll.h"
#include "sched/clairvoyant.h"

/* Keeps every round and transfer count within an int (clairvoyant.h). */
#define CV_MAX_P (1 << 24)
#define CV_LIMIT (1 << 29)

static const char *const impl_names[] = {
#define CV_IMPL_NAME(id, name, fn) name,
    PAPCOLL__CV_IMPL_MAP(CV_IMPL_NAME)
#undef CV_IMPL_NAME
};

const char *papcoll__cv_impl_name(int impl)
{
    return impl >= 0 && impl < PAPCOLL__CV_NIMPL ? impl_names[impl] : NULL;
}

int papcoll__cv_impl_find(const char *name)
{
    int i;

    for (i = 0; name != NULL && i < PAPCOLL__CV_NIMPL; i++)
        if (strcmp(name, impl_names[i]) == 0)
            return i;
    return -1;
}

int papcoll__cv_generate(int impl, int P, int N, double d, int root, const double *pat,
                         papcoll__cv_sched_t *out)
{
    switch (impl) {
#define CV_IMPL_CASE(id, name, fn)                                                                           \
    case PAPCOLL__CV_##id:                                                                                   \
        return fn(P, N, d, root, pat, out);
        PAPCOLL__CV_IMPL_MAP(CV_IMPL_CASE)
#undef CV_IMPL_CASE
    default:
        return PAPCOLL_ERR_INVAL;
    }
}

__attribute__((format(printf, 3, 4))) static int bad(char *why, size_t len, const char *fmt, ...)
{
    va_list ap;

    if (why != NULL && len > 0) {
        va_start(ap, fmt);
        vsnprintf(why, len, fmt, ap);
        va_end(ap);
    }
    return PAPCOLL_ERR_INVAL;
}

int papcoll__cv_input_check(int P, int N, double d, int root, const double *pat, char *why, size_t len)
{
    double lo = 0.0, hi = 0.0;
    int i;

    if (P < 1)
        return bad(why, len, "P = %d: need at least one process", P);
    if (P > CV_MAX_P)
        return bad(why, len, "P = %d exceeds the limit 2^24", P);
    if (N < 1)
        return bad(why, len, "N = %d: need at least one segment", N);
    if ((double)P * N > CV_LIMIT)
        return bad(why, len, "P * N = %.0f exceeds the limit 2^29", (double)P * N);
    if (!(d > 0.0) || !isfinite(d))
        return bad(why, len, "round time d = %g: must be finite and > 0", d);
    if (root < 0 || root >= P)
        return bad(why, len, "root %d out of range [0, %d)", root, P);
    for (i = 0; pat != NULL && i < P; i++) {
        if (!isfinite(pat[i]))
            return bad(why, len, "arrival of rank %d is %g: must be a finite number", i, pat[i]);
        if (pat[i] < 0.0)
            return bad(why, len, "arrival of rank %d is %g: must be >= 0", i, pat[i]);
        lo = i == 0 || pat[i] < lo ? pat[i] : lo;
        hi = i == 0 || pat[i] > hi ? pat[i] : hi;
    }
    if ((hi - lo) / d > CV_LIMIT)
        return bad(why, len, "arrival spread is %g rounds of d, more than 2^29", (hi - lo) / d);
    return 0;
}

void papcoll__cv_split_times(int P, double d, const double *pat, int *k, double *f, double *x)
{
    double lo, xi;
    int i;

    lo = pat != NULL ? pat[0] : 0.0;
    for (i = 1; pat != NULL && i < P; i++)
        lo = pat[i] < lo ? pat[i] : lo;
    for (i = 0; i < P; i++) {
        /* fmod is exact: x = n d + f for the integer n = trunc(x / d), and
         * (x - f) / d is within an ulp of n, so rounding recovers it. */
        xi = pat != NULL ? pat[i] - lo : 0.0;
        f[i] = fmod(xi, d);
        k[i] = (int)nearbyint((xi - f[i]) / d);
        if (x != NULL)
            x[i] = xi;
    }
}

/* Bottom-up merge sort: stable, no recursion, O(P log P). */
void papcoll__cv_sort(int P, const double *key, int *order, int *tmp)
{
    int width, lo, mid, hi, a, b, o, i, *src = order, *dst = tmp, *t;

    for (i = 0; i < P; i++)
        order[i] = i;
    for (i = 1; i < P && !(key[i] < key[i - 1]); i++)
        ;
    if (i == P) /* already in order, e.g. all equal */
        return;
    for (width = 1; width < P; width *= 2) {
        for (lo = 0; lo < P; lo += 2 * width) {
            mid = lo + width < P ? lo + width : P;
            hi = lo + 2 * width < P ? lo + 2 * width : P;
            for (a = lo, b = mid, o = lo; o < hi; o++)
                dst[o] = b >= hi || (a < mid && !(key[src[b]] < key[src[a]])) ? src[a++] : src[b++];
        }
        t = src;
        src = dst;
        dst = t;
    }
    if (src != order)
        memcpy(order, src, (size_t)P * sizeof(*order));
}

void papcoll__cv_init(papcoll__cv_sched_t *s, int P, int N, double d, int root)
{
    memset(s, 0, sizeof(*s));
    s->P = P;
    s->N = N;
    s->d = d;
    s->root = root;
}

int papcoll__cv_reserve(papcoll__cv_sched_t *s, int *cap, int more)
{
    papcoll__cv_xfer_t *x;
    size_t want = (size_t)*cap;

    if ((size_t)s->n + more <= want)
        return 0;
    if ((size_t)s->n + more > INT_MAX)
        return PAPCOLL_ERR_NOMEM;
    want = 2 * want > (size_t)s->n + more ? 2 * want : (size_t)s->n + more;
    want = want > INT_MAX ? INT_MAX : want;
    x = realloc(s->x, want * sizeof(*x));
    if (x == NULL)
        return PAPCOLL_ERR_NOMEM;
    s->x = x;
    *cap = (int)want;
    return 0;
}

int papcoll__cv_push(papcoll__cv_sched_t *s, int *cap, int round, int sender, int receiver, int segment)
{
    int rc = papcoll__cv_reserve(s, cap, 1);

    if (rc == 0)
        s->x[s->n++] = (papcoll__cv_xfer_t){round, sender, receiver, segment};
    return rc;
}

void papcoll__cv_free(papcoll__cv_sched_t *s)
{
    if (s == NULL)
        return;
    free(s->x);
    s->x = NULL;
    s->n = 0;
    s->rounds = 0;
}

void papcoll__cv_rank_index(const papcoll__cv_sched_t *s, int *start, int *idx)
{
    int r, t;

    memset(start, 0, (size_t)(s->P + 1) * sizeof(*start));
    for (t = 0; t < s->n; t++) {
        start[s->x[t].sender + 1]++;
        start[s->x[t].receiver + 1]++;
    }
    for (r = 0; r < s->P; r++)
        start[r + 1] += start[r];
    /* Fill through start[r] as a cursor, then shift the cursors back. */
    for (t = 0; t < s->n; t++) {
        idx[start[s->x[t].sender]++] = t;
        idx[start[s->x[t].receiver]++] = t;
    }
    for (r = s->P; r > 0; r--)
        start[r] = start[r - 1];
    start[0] = 0;
}

void papcoll__cv_by_segment(const papcoll__cv_sched_t *s, int *by_seg, int *start)
{
    int t, j;

    for (t = 0; t < s->n; t++)
        start[s->x[t].segment + 1]++;
    for (j = 0; j < s->N; j++)
        start[j + 1] += start[j];
    for (t = 0; t < s->n; t++)
        by_seg[start[s->x[t].segment]++] = t;
    for (j = s->N; j > 0; j--)
        start[j] = start[j - 1];
    start[0] = 0;
}

void papcoll__cv_cluster(int P, const int *order, double q, double *pat)
{
    double first = 0;
    int i;

    for (i = 0; q > 0 && i < P; i++) {
        if (i == 0 || pat[order[i]] - first > q)
            first = pat[order[i]];
        pat[order[i]] = first;
    }
}
