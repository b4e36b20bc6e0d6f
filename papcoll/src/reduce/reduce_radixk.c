/*
 * reduce "radixk": Radix-k (Peterka, Goodell, Ross, Shen, Thakur 2009;
 * Kendall et al. 2010; Marendic 2016 Sect. 5.5.4): P = k_1 k_2 ... k_r,
 * round i exchanges and combines pieces within groups of k_i ranks, then
 * the pieces are gathered to the root by the rounds in reverse (radix
 * engine, engine_radix.c; vranks = ranks).  k = (2, ..., 2) is recursive
 * halving (butterfly); k = (P) is direct send.
 *
 * The vector k (option radix_k, PAPCOLL_RADIX_K, the same on every rank):
 *   "k1,k2,..."  exactly that; the product must be P (papcoll_init fails
 *                otherwise);
 *   "K"          (default 8) the fewest rounds whose factors are at most K:
 *                r = ceil(log_K P) rounds, raised until the prime factors
 *                of P, spread largest first over r factors (each to the
 *                smallest product so far), give factors <= K, or factors
 *                that are single primes > K; ascending, so the widest
 *                exchange comes last, on the smallest pieces.  P = 128, K =
 *                8: (4, 4, 8), Marendic's empirical vector on CURIE; P = 8:
 *                (8); P = 12: (3, 4); P = 13: (13); P = 27: (3, 3, 3).
 *
 *   P = 8, k = (2, 4), vector in 8 pieces a..h:
 *     round 1 (pairs 0-1, 2-3, 4-5, 6-7): even ranks keep abcd, odd efgh
 *     round 2 (groups 0-2-4-6, 1-3-5-7): 0 a, 2 b, 4 c, 6 d, 1 e, 3 f ...
 *     gather (root 0): 2, 4, 6 -> 0 (abcd); 3, 5, 7 -> 1 (efgh); 1 -> 0
 *
 * Cost (one-port): (2 sum_i (k_i - 1)) alpha + ((P-1)/P) n (2 beta +
 * gamma) (Marendic Table 3 with the gather counted like the scatter); the
 * k_i - 1 exchanges of a round are in flight together, which pays on
 * networks with concurrency to spare.
 * Memory: one vector (at the root its receive buffer) and one for the
 * pieces received.
 * Restrictions: none (ORDERED: each member combines the others' pieces in
 * group order).
 */
#include <stdlib.h>
#include <string.h>

#include "reduce/engine.h"

/* The factors of P, descending, into f; returns how many. */
static int primes(int P, int *f)
{
    int n = 0, p, i, x;

    for (p = 2; (long long)p * p <= P; p++)
        while (P % p == 0)
            f[n++] = p, P /= p;
    if (P > 1)
        f[n++] = P;
    for (i = 0; i < n / 2; i++)
        x = f[i], f[i] = f[n - 1 - i], f[n - 1 - i] = x;
    return n;
}

/* Spreads the primes f[n] over r factors (largest first, each to the
 * smallest product); 1 when every factor is <= K or a single prime. */
static int spread(const int *f, int n, int r, int K, int *k)
{
    int cnt[PAPCOLL__RADIX_MAX], i, j, m;

    for (j = 0; j < r; j++)
        k[j] = 1, cnt[j] = 0;
    for (i = 0; i < n; i++) {
        for (m = 0, j = 1; j < r; j++)
            if (k[j] < k[m])
                m = j;
        k[m] *= f[i];
        cnt[m]++;
    }
    for (j = 0; j < r; j++)
        if (k[j] > K && cnt[j] > 1)
            return 0;
    return 1;
}

int papcoll__radix_vector(int P, int target, const int *vec, int len, int *k)
{
    int f[PAPCOLL__RADIX_MAX] = {0}, n = primes(P, f), r = 0, i, j, x;
    long long pw = 1;

    if (len > 0) {
        memcpy(k, vec, sizeof(int) * (size_t)len);
        return len;
    }
    while (pw < P)
        pw *= target, r++;
    if (r > n)
        r = n; /* a prime above K: one factor each */
    while (r < n && !spread(f, n, r, target, k))
        r++;
    if (r == n)
        spread(f, n, r, target, k); /* single primes: always acceptable */
    for (i = 1; i < r; i++)         /* insertion sort, ascending */
        for (j = i; j > 0 && k[j - 1] > k[j]; j--)
            x = k[j], k[j] = k[j - 1], k[j - 1] = x;
    return r;
}

int papcoll_reduce_radixk(const papcoll__args_t *a)
{
    const papcoll_ctx_t *ctx = a->x->ctx;
    int k[PAPCOLL__RADIX_MAX], *v2r = a->x->fg.ints, v, rc;
    int r = papcoll__radix_vector(a->size, ctx->radix_target, ctx->radix_vec, ctx->radix_len, k);
    char *work;

    if (a->bytes == 0)
        return PAPCOLL_OK;
    for (v = 0; v < a->size; v++)
        v2r[v] = v;
    work = a->rank == a->root ? a->rbuf : papcoll__work_alloc(a->bytes + 1);
    if (work == NULL)
        return PAPCOLL_ERR_NOMEM;
    papcoll__copy(work, a->sbuf, a->bytes);
    rc = papcoll__red_radix_engine(a, work, a->rank, v2r, a->root, k, r);
    if (work != a->rbuf)
        papcoll__work_free(work);
    return rc;
}
