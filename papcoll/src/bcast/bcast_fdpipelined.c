/*
 * bcast "fdpipelined": the full-duplex pipelined binary tree of Sanders
 * 13.1.4, Exercise 13.5.  The tree of "pipelined" (complete binary tree,
 * k-ary with k = 2, positions rotated onto the root) on an explicit step
 * schedule: a position whose first segment arrives at step r receives
 * segment j at step r + 2j, sends it to its left child at r + 2j + 1 and to
 * its right child at r + 2j + 2, the step in which it receives segment
 * j + 1 (the linear pipeline's trick, used towards one child).  So every
 * position sends at most one segment and receives at most one per step, and
 * a segment leaves an interior node every two steps instead of three.
 *
 *   P = 8:        0           first-segment steps r:  0: 0 (holds)
 *               /   \         1: 1, 5: 2; 2: 2, 4: 3; 6: 3, 7: 4; 3: 3
 *              1     5        steps of position 1: 1 recv s0; 2 s0->2;
 *             / \   / \       3 s0->4 + recv s1; 4 s1->2; 5 s1->4 + recv s2
 *            2   4 6   7
 *            |
 *            3
 *
 * Cost, k segments, L = floor(log2 P): r <= 2L, so at most (2L + 2(k-1) +
 * 1)(alpha + beta n/k) full duplex; the best k gives 2 beta n + 2 alpha
 * log P + O(sqrt(alpha beta n log P)), against 3 beta n for "pipelined"
 * (Thm 13.3) and beta n for "twotree".  Each step waits for its receive
 * and send (a lock step per rank, no global barrier).  Memory: none.
 * Restrictions: none.
 */
#include "bcast/engine.h"

int papcoll__plan_bcast_fdpipelined(papcoll__plan_t *plan, const papcoll__plan_in_t *in)
{
    int rc = papcoll__plan_tree(plan, in, PAPCOLL__TREE_KARY, 2);

    if (rc == PAPCOLL_OK)
        papcoll__place_rotate(plan, in);
    return rc;
}

/* The step at which position v receives its first segment: its parent's
 * plus one for a first child, two for a second (0 at the root). */
static long first_step(const papcoll__tree_t *t, int v)
{
    long r = 0;
    int p;

    for (; (p = t->parent[v]) >= 0; v = p)
        r += papcoll__tree_kid(t, p, 0) == v ? 1 : 2;
    return r;
}

typedef struct {
    const papcoll__args_t *a;
    const papcoll__tree_t *t;
    int v;
    long r, k; /* first step, segments */
    size_t seg;
} fd_t;

static size_t seg_len(const fd_t *f, long j)
{
    size_t off = (size_t)j * f->seg;

    return f->a->bytes - off < f->seg ? f->a->bytes - off : f->seg;
}

/* Step s: the receive of segment (s - r)/2 at even offsets, the send to
 * child 0 (odd offsets) or child 1 (even offsets, the previous segment). */
static int step(const fd_t *f, long s)
{
    const papcoll__args_t *a = f->a;
    MPI_Request req[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    MPI_Status st[2];
    long d = s - f->r, j = d >> 1, out = (d & 1) ? j : j - 1;
    int kid = (d & 1) ? 0 : 1, up = f->t->parent[f->v], got = 0, rc = PAPCOLL_OK;

    if (up >= 0 && !(d & 1) && j < f->k)
        rc = papcoll__irecv_bytes(a->rbuf + (size_t)j * f->seg, seg_len(f, j), a->plan->v2r[up],
                                  PAPCOLL__TAG_DATA, a->comm, &req[0]);
    if (rc == PAPCOLL_OK && out >= 0 && out < f->k && kid < papcoll__tree_nkids(f->t, f->v))
        rc = papcoll__isend_bytes(a->rbuf + (size_t)out * f->seg, seg_len(f, out),
                                  a->plan->v2r[papcoll__tree_kid(f->t, f->v, kid)], PAPCOLL__TAG_DATA, a->comm,
                                  &req[1]);
    if (rc != PAPCOLL_OK) { /* a failed send left the receive posted */
        if (req[0] != MPI_REQUEST_NULL) {
            PMPI_Cancel(&req[0]);
            PMPI_Wait(&req[0], MPI_STATUS_IGNORE);
        }
        return rc;
    }
    if (req[0] == MPI_REQUEST_NULL && req[1] == MPI_REQUEST_NULL)
        return PAPCOLL_OK;
    if ((rc = papcoll__fg_waitall(2, req, st, a->nap)) != PAPCOLL_OK || up < 0 || (d & 1) || j >= f->k)
        return rc;
    PMPI_Get_count(&st[0], MPI_BYTE, &got);
    return (size_t)got == seg_len(f, j) ? PAPCOLL_OK : PAPCOLL_ERR_TRUNCATE;
}

int papcoll_bcast_fdpipelined(const papcoll__args_t *a)
{
    fd_t f = {a, a->plan->tree, a->plan->r2v[a->rank], 0, 0, papcoll__segment_bytes(a)};
    long s;
    int rc = PAPCOLL_OK;

    if (a->bytes == 0 || f.t->P < 2)
        return PAPCOLL_OK;
    if (f.seg == 0 || f.seg > a->bytes)
        f.seg = a->bytes;
    f.k = (long)((a->bytes + f.seg - 1) / f.seg);
    f.r = first_step(f.t, f.v);
    /* The last segment leaves for the right child at r + 2(k - 1) + 2. */
    for (s = f.r; s <= f.r + 2 * f.k && rc == PAPCOLL_OK; s++)
        rc = step(&f, s);
    return rc;
}
