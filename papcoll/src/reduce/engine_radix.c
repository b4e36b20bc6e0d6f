/*
 * Radix-k reduction: reduce-scatter by direct exchanges within groups, then
 * the reverse gather (Peterka et al. 2009; Kendall et al. 2010; Marendic
 * 2016 Sect. 5.5.4 and Appendix C).  Behind rabenseifner (k = 2, 2, ...,
 * with its non-power-of-two step around it) and radixk.
 *
 * vranks are mixed-radix numbers v = d_0 + k_0 (d_1 + k_1 (d_2 + ...)).
 * Round i groups the k_i vranks that differ only in digit i (stride k_0 ...
 * k_(i-1)); they share their current window [lo, hi) of the vector, which
 * the round cuts into k_i pieces, piece m for the member with digit m.
 * Each member sends piece m of its partial to member m and combines the
 * k_i - 1 copies of its own piece it receives.  The member with digit m
 * holds the partial of a contiguous vrank range, and the ranges ascend with
 * m, so combining in digit order keeps vrank order.  After r rounds vrank v
 * holds one piece of the vector, complete.  The gather runs the rounds
 * backwards: in round i the members send their windows to the member whose
 * digit i is the root's, which then holds the round's window; after round 0
 * the root holds the vector.
 *
 *   vranks 0..5, k = (2, 3), vector in pieces a b c d e f:
 *     round 0 (pairs 0-1, 2-3, 4-5): 0 keeps abc, 1 keeps def
 *     round 1 (triples 0-2-4, 1-3-5): 0 keeps a, 2 b, 4 c; 1 d, 3 e, 5 f
 *     gather round 1 (root 0): 2, 4 -> 0 (abc); 3, 5 -> 1 (def)
 *     gather round 0: 1 -> 0 (abcdef)
 *
 * Cost, one-port: the reduce-scatter sum_i (k_i - 1)(alpha + (n / (k_0 ...
 * k_i))(beta + gamma)), the gather the same without gamma at the root, in
 * all 2 sum_i (k_i - 1) alpha + ((P-1)/P) n (2 beta + gamma) (Marendic
 * Table 3 counts the gather's latency as log2 P alpha).  A member sends
 * and receives its k_i - 1 pieces at once, so with several ports (or
 * latency to hide) larger k pay off.
 * Memory: the vector (work) plus k_i - 1 pieces for the receptions.
 */
#include <stdlib.h>

#include "reduce/engine.h"

typedef struct {
    const papcoll__args_t *a;
    char *work, *tmp;
    MPI_Request *req;
    const int *v2r, *k;
    int me, r;
    int lo[PAPCOLL__RADIX_MAX + 1], hi[PAPCOLL__RADIX_MAX + 1]; /* window of round i (r: the last piece) */
    int stride[PAPCOLL__RADIX_MAX + 1];
} radix_t;

/* Piece m of [lo, hi) in k pieces. */
static int piece_lo(int lo, int hi, int k, int m)
{
    return lo + (int)((long long)(hi - lo) * m / k);
}

static int digit(const radix_t *x, int v, int i)
{
    return v / x->stride[i] % x->k[i];
}

static int member(const radix_t *x, int v, int i, int m)
{
    return v + (m - digit(x, v, i)) * x->stride[i];
}

/* Waits for member m's copy of the own piece and combines it. */
static int absorb(radix_t *x, int m, size_t pmax, int plo, int pn, int left)
{
    int rc = PAPCOLL__ERR(PMPI_Wait(&x->req[m], MPI_STATUS_IGNORE));

    if (rc != PAPCOLL_OK)
        return rc;
    return papcoll__red_combine(x->a, x->tmp + (size_t)m * pmax, x->work + (size_t)plo * x->a->sig.esize, pn,
                                left);
}

/* Round i of the reduce-scatter: exchange pieces within the group, combine
 * the copies of the own piece in digit order (the lower members right to
 * left, each prepended; then the higher ones left to right, appended). */
static int scatter_round(radix_t *x, int i)
{
    const papcoll__args_t *a = x->a;
    int k = x->k[i], d = digit(x, x->me, i), lo = x->lo[i], hi = x->hi[i], m, n, peer, rc = PAPCOLL_OK,
        nq = 0;
    size_t es = a->sig.esize, pmax = (size_t)((hi - lo) / k + 1) * es;
    int plo = piece_lo(lo, hi, k, d), pn = piece_lo(lo, hi, k, d + 1) - plo;

    for (m = 0; m < k && rc == PAPCOLL_OK; m++) {
        if (m == d)
            continue;
        peer = x->v2r[member(x, x->me, i, m)];
        n = piece_lo(lo, hi, k, m + 1) - piece_lo(lo, hi, k, m);
        rc = papcoll__irecv_bytes(x->tmp + (size_t)m * pmax, (size_t)pn * es, peer, PAPCOLL__TAG_DATA,
                                  a->comm, &x->req[m]);
        if (rc == PAPCOLL_OK)
            rc = papcoll__isend_bytes(x->work + (size_t)piece_lo(lo, hi, k, m) * es, (size_t)n * es, peer,
                                      PAPCOLL__TAG_DATA, a->comm, &x->req[k + nq++]);
    }
    for (m = d - 1; m >= 0 && rc == PAPCOLL_OK; m--)
        rc = absorb(x, m, pmax, plo, pn, 1);
    for (m = d + 1; m < k && rc == PAPCOLL_OK; m++)
        rc = absorb(x, m, pmax, plo, pn, 0);
    if (rc == PAPCOLL_OK)
        rc = papcoll__waitall(nq, x->req + k, MPI_STATUSES_IGNORE);
    x->lo[i + 1] = plo;
    x->hi[i + 1] = plo + pn;
    return rc;
}

/* Round i of the gather: members send their window (piece) to the leader,
 * whose digit i is vroot's; returns in *done whether this vrank sent. */
static int gather_round(radix_t *x, int i, int vroot, int *done)
{
    const papcoll__args_t *a = x->a;
    int k = x->k[i], lead = digit(x, vroot, i), d = digit(x, x->me, i), lo = x->lo[i], hi = x->hi[i], m,
        q = 0;
    size_t es = a->sig.esize;

    if (d != lead) {
        *done = 1;
        return papcoll__send_bytes(x->work + (size_t)x->lo[i + 1] * es,
                                   (size_t)(x->hi[i + 1] - x->lo[i + 1]) * es,
                                   x->v2r[member(x, x->me, i, lead)], PAPCOLL__TAG_DATA, a->comm);
    }
    for (m = 0; m < k; m++) {
        int plo = piece_lo(lo, hi, k, m), rc;
        if (m == d)
            continue;
        rc = papcoll__irecv_bytes(x->work + (size_t)plo * es, (size_t)(piece_lo(lo, hi, k, m + 1) - plo) * es,
                                  x->v2r[member(x, x->me, i, m)], PAPCOLL__TAG_DATA, a->comm, &x->req[q++]);
        if (rc != PAPCOLL_OK)
            return rc;
    }
    return papcoll__waitall(q, x->req, MPI_STATUSES_IGNORE);
}

int papcoll__red_radix_engine(const papcoll__args_t *a, char *work, int me, const int *v2r, int vroot,
                              const int *k, int r)
{
    radix_t x = {.a = a, .work = work, .v2r = v2r, .k = k, .me = me, .r = r};
    int i, kmax = 1, done = 0, rc = PAPCOLL_OK;

    x.lo[0] = 0;
    x.hi[0] = a->sig.count;
    x.stride[0] = 1;
    for (i = 0; i < r; i++) {
        x.stride[i + 1] = x.stride[i] * k[i];
        kmax = k[i] > kmax ? k[i] : kmax;
    }
    /* k pieces of ceil(n/k) at most */
    x.tmp = papcoll__scratch(a, PAPCOLL__SCR_TMP, (size_t)(a->sig.count + kmax) * a->sig.esize);
    x.req = malloc(sizeof(MPI_Request) * 2 * (size_t)kmax);
    if (x.tmp == NULL || x.req == NULL)
        rc = PAPCOLL_ERR_NOMEM;
    for (i = 0; i < r && rc == PAPCOLL_OK; i++)
        rc = scatter_round(&x, i);
    for (i = r - 1; i >= 0 && rc == PAPCOLL_OK && !done; i--)
        rc = gather_round(&x, i, vroot, &done);
    free(x.req);
    return rc;
}
